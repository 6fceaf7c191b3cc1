//! Every argument set attnc prints for Megatron-LM passes the checks of Megatron's
//! `validate_args` that concern it (`compat::megatron::validate`): over every example and every
//! new-user spec TransformerEngine runs, with `strategy = auto` chosen as `attnc tune --for te`
//! chooses it. And the checks themselves fire where Megatron's do.

use attnc_codegen_tests::{check_spec_file_with, files_in};
use attnc_compiler::compat::megatron::{self, Arg, Arguments};
use attnc_compiler::compat::te::Target;
use attnc_compiler::passes::PlanOptions;
use attnc_compiler::spec::{Cp, Format, Strategy};

#[test]
fn every_printed_argument_set_passes_megatrons_checks() {
    let target = Target::newest();
    let mut checked = 0;
    let mut failures = Vec::new();
    let folders = ["dsl-examples", "dsl-examples/megatron", "dsl-examples/imported"];
    for path in folders.into_iter().flat_map(|f| files_in(f, "attn")) {
        let (_, unit) = check_spec_file_with(&path, &[], None);
        let Some(spec) = unit.spec else { continue };
        for layout in &spec.layouts {
            if matches!(layout.cp, Cp::Hybrid { .. }) {
                continue;
            }
            let seqlens = match layout.format {
                Format::Thd { max_seqlen, .. } => Some(vec![max_seqlen / 2, max_seqlen / 8, 100]),
                _ => None,
            };
            let options = PlanOptions { target: Some(target), seqlens, ..Default::default() };
            // `attnc tune --emit megatron` chooses per layer class among what TE runs; what TE
            // runs nothing for is not printed (te_matrix.rs and the CLI tests check the refusal).
            let profile = attnc_compiler::cost::DeviceProfile::of_cluster(&layout.cluster, layout.dtype);
            let Ok(classes) = attnc_compiler::tune::tune(layout, &options, &profile) else { continue };
            let mut resolved = layout.clone();
            for class in &classes {
                for l in class.layers.iter().flat_map(|l| l.start..l.end) {
                    resolved.layers[l as usize].strategy = class.chosen().clone();
                }
            }
            let strategies: Vec<Strategy> = resolved.layers.iter().map(|l| l.strategy.clone()).collect();
            let args = megatron::arguments(&resolved, &strategies);
            let world = layout.tp
                * layout.pp
                * layout.dp
                * match layout.cp {
                    Cp::Fixed { size } => size,
                    Cp::Hybrid { dp_cp, .. } => dp_cp,
                };
            if !args.missing.is_empty() {
                failures.push(format!("{path} {}: missing {:?}", layout.name, args.missing));
            }
            let violations = megatron::validate(&args, world);
            if !violations.is_empty() {
                failures.push(format!(
                    "{path} {}: {}\n  {}",
                    layout.name,
                    args.shell(),
                    violations.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("\n  ")
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 12, "{checked} argument sets checked");
}

fn args(pairs: &[(&'static str, &[&str])]) -> Arguments {
    Arguments {
        args: pairs
            .iter()
            .map(|(flag, values)| Arg { flag, values: values.iter().map(|v| v.to_string()).collect() })
            .collect(),
        ..Default::default()
    }
}

/// `(flags, world size)` and the source line of the check that must fire (or none).
#[test]
fn the_checks_fire_where_megatrons_do() {
    let base: &[(&str, &[&str])] = &[
        ("--num-layers", &["61"]),
        ("--hidden-size", &["7168"]),
        ("--num-attention-heads", &["128"]),
        ("--seq-length", &["65536"]),
        ("--max-position-embeddings", &["65536"]),
        ("--tensor-model-parallel-size", &["1"]),
        ("--context-parallel-size", &["16"]),
    ];
    let with = |extra: &[(&'static str, &'static [&'static str])]| {
        let mut all: Vec<(&'static str, &[&str])> = base.to_vec();
        for (flag, v) in extra {
            all.retain(|(f, _)| f != flag);
            all.push((flag, v));
        }
        args(&all)
    };
    let cases: Vec<(Arguments, u32, Option<&str>)> = vec![
        (with(&[("--pipeline-model-parallel-size", &["1"])]), 32, None),
        // 61 layers over 2 stages: Megatron asserts divisibility without uneven stages.
        (with(&[("--pipeline-model-parallel-size", &["2"])]), 32, Some("megatron/training/arguments.py:998")),
        (
            with(&[("--pipeline-model-parallel-size", &["2"]), ("--decoder-last-pipeline-num-layers", &["31"])]),
            32,
            None,
        ),
        (
            with(&[("--pipeline-model-parallel-size", &["3"]), ("--decoder-last-pipeline-num-layers", &["30"])]),
            48,
            Some("megatron/core/transformer/transformer_config.py:2349"),
        ),
        (
            with(&[("--seq-length", &["65544"]), ("--max-position-embeddings", &["65544"])]),
            16,
            Some("megatron/training/arguments.py:1336"),
        ),
        (with(&[("--max-position-embeddings", &["4096"])]), 16, Some("megatron/training/arguments.py:1354")),
        (with(&[("--hidden-size", &["7000"])]), 16, Some("megatron/training/arguments.py:1332")),
        (
            with(&[("--tensor-model-parallel-size", &["3"])]),
            48,
            Some("megatron/core/transformer/transformer_config.py:1446"),
        ),
        (
            with(&[
                ("--group-query-attention", &[]),
                ("--num-query-groups", &["6"]),
                ("--tensor-model-parallel-size", &["4"]),
            ]),
            64,
            Some("megatron/core/transformer/transformer_config.py:1462"),
        ),
        (with(&[("--expert-model-parallel-size", &["8"])]), 16, Some("megatron/training/arguments.py:1656")),
        (
            with(&[("--expert-model-parallel-size", &["8"]), ("--num-experts", &["60"])]),
            16,
            Some("megatron/training/arguments.py:1657"),
        ),
        (with(&[("--cp-comm-type", &["a2a+p2p"])]), 16, Some("megatron/training/arguments.py:585")),
        (
            with(&[("--cp-comm-type", &["a2a+p2p"]), ("--hierarchical-context-parallel-sizes", &["8", "4"])]),
            16,
            Some("megatron/training/arguments.py:582"),
        ),
        (
            with(&[("--cp-comm-type", &["p2p", "a2a"])]),
            16,
            Some("megatron/core/transformer/transformer_config.py:3105"),
        ),
        (with(&[("--no-rope-freq", &["4"])]), 16, Some("megatron/core/transformer/transformer_config.py:3141")),
        (with(&[("--hybrid-context-parallel", &[])]), 16, Some("megatron/training/arguments.py:1449")),
        (with(&[]), 24, Some("megatron/training/arguments.py:432")),
        (
            with(&[("--multi-latent-attention", &[]), ("--group-query-attention", &[])]),
            16,
            Some("megatron/training/arguments.py:1974"),
        ),
        (
            with(&[("--window-size", &["127,0"]), ("--window-attn-skip-freq", &["[1,0]"])]),
            16,
            Some("megatron/core/transformer/utils.py:542"),
        ),
        (with(&[("--cp-comm-typ", &["p2p"])]), 16, Some("megatron/training/arguments.py (argparse)")),
    ];
    let mut failures = Vec::new();
    for (arguments, world, expected) in cases {
        let sources: Vec<&str> = megatron::validate(&arguments, world).iter().map(|v| v.source).collect();
        let ok = match expected {
            None => sources.is_empty(),
            Some(source) => sources.contains(&source),
        };
        if !ok {
            failures.push(format!("{} (world {world}): expected {expected:?}, got {sources:?}", arguments.shell()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
