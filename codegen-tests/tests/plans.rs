//! Plans: snapshots of `attnc plan` text for the examples, balance figures, the JSON artifact
//! round trip, and the errors planning reports.

use attnc_codegen_tests::{check_all, check_golden, check_spec_file, files_in, layout_of, small_spec};
use attnc_compiler::ir::{artifact, print, stats};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::verify::{self, Stage};

/// THD examples are planned with these lengths.
const SEQLENS: &[u64] = &[100, 4000, 37];

/// Hybrid examples are scheduled with these sub-sample lengths.
const HYBRID_LENGTHS: &[u64] = &[40000, 9000, 3000, 500];

fn options(thd: bool) -> PlanOptions {
    PlanOptions { seqlens: thd.then(|| SEQLENS.to_vec()), backward: true, verify: true, ..Default::default() }
}

/// Every layout of every example plans and verifies, forward and backward; rank 0's program
/// and every rank's stats are snapshot in `codegen-tests/snapshots/plan/<file>.<layout>.txt`.
#[test]
fn examples_plan_and_verify() {
    check_all(&files_in("dsl-examples", "attn"), |path| {
        let (_, unit) = check_spec_file(path, &[]);
        let spec = unit.spec.ok_or_else(|| format!("{path}: does not check"))?;
        let stem = path.trim_start_matches("dsl-examples/").trim_end_matches(".attn");
        for layout in &spec.layouts {
            let thd = matches!(layout.format, attnc_compiler::spec::Format::Thd { .. });
            let mut text = String::new();
            match passes::compile(layout, &options(thd)) {
                Ok(set) => {
                    for class in &set.classes {
                        for plan in std::iter::once(&class.forward).chain(&class.backward) {
                            text.push_str(&print::text(plan, Some(0)));
                            let s = stats::stats(plan);
                            text.push_str(&format!("balance {:.4}\n", s.balance));
                            for r in &s.ranks {
                                text.push_str(&format!(
                                    "  rank {:>2}: {:.6e} flop, {} blocks, sent {} intra {} inter, {} buffer bytes\n",
                                    r.rank, r.flops, r.blocks, r.sent_intra_bytes, r.sent_inter_bytes, r.buffer_bytes
                                ));
                            }
                            text.push('\n');
                        }
                    }
                }
                // Hybrid CP is planned per batch: the steps for HYBRID_LENGTHS, and each sub-sample's plan.
                Err(passes::PlanError::Hybrid { .. }) => {
                    let algorithm = attnc_compiler::hybrid::Algorithm::Buddy;
                    let classes = passes::hybrid::compile_hybrid(layout, HYBRID_LENGTHS, algorithm, true)
                        .map_err(|e| format!("{path}: {e}"))?;
                    for class in &classes {
                        for (step_idx, groups) in class.steps.iter().enumerate() {
                            text.push_str(&format!("step {step_idx}\n"));
                            for group in groups {
                                for sample in &group.samples {
                                    text.push_str(&format!(
                                        "  GPUs {}..{} sample {} ({} tokens)\n",
                                        group.first_gpu,
                                        group.first_gpu + group.size,
                                        sample.id,
                                        sample.len
                                    ));
                                    for plan in std::iter::once(&sample.forward).chain(&sample.backward) {
                                        text.push_str(&print::text(plan, Some(0)));
                                    }
                                }
                            }
                        }
                    }
                }
                Err(e) => text = format!("error: {e}\n"),
            }
            check_golden(&format!("codegen-tests/snapshots/plan/{stem}.{}.txt", layout.name), &text)?;
        }
        Ok(())
    });
}

fn causal_layout(cp: u32, balance: &str, seq: u64) -> attnc_compiler::spec::Layout {
    let fields =
        format!("  seq = {seq}\n  cp = {cp}\n  dp = 1\n  balance = {balance}\n  mask = causal\n  strategy = p2p");
    layout_of(&small_spec(8, 8, &fields)).unwrap()
}

/// Zigzag balances causal ring attention (max/mean ≤ 1.05); contiguous gives (2cp−1)/cp.
#[test]
fn zigzag_balances_contiguous_does_not() {
    for cp in [2u32, 4, 8, 16] {
        let seq = 2 * cp as u64 * 64;
        let zigzag = passes::compile(&causal_layout(cp, "zigzag", seq), &PlanOptions::default()).unwrap();
        let contiguous = passes::compile(&causal_layout(cp, "contiguous", seq), &PlanOptions::default()).unwrap();
        let z = stats::stats(&zigzag.classes[0].forward).balance;
        let c = stats::stats(&contiguous.classes[0].forward).balance;
        // Each contiguous chunk has 64·2 tokens; the last rank's diagonal block is half a square.
        let chunk = 2.0 * 64.0;
        let rank_pairs = |r: f64| r * chunk * chunk + chunk * (chunk + 1.0) / 2.0;
        let mean = (0..cp).map(|r| rank_pairs(r as f64)).sum::<f64>() / cp as f64;
        let want = rank_pairs(cp as f64 - 1.0) / mean;
        assert!(z <= 1.05, "cp {cp}: zigzag balance {z}");
        assert!((c - want).abs() < 1e-9, "cp {cp}: contiguous {c}, expected {want}");
        let asymptote = (2.0 * cp as f64 - 1.0) / cp as f64;
        assert!((c - asymptote).abs() < 0.02, "cp {cp}: contiguous {c} vs (2cp-1)/cp = {asymptote}");
    }
}

/// The JSON artifact loads back into a plan that verifies and prints identically.
#[test]
fn artifact_round_trip() {
    for strategy in ["p2p", "all_gather", "a2a", "a2a+p2p { hierarchy = [2, 2] }"] {
        let fields =
            format!("  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal {{ window = 40 }}\n  strategy = {strategy}");
        let layout = layout_of(&small_spec(8, 2, &fields)).unwrap();
        let set = passes::compile(&layout, &PlanOptions { backward: true, ..Default::default() }).unwrap();
        for plan in [&set.classes[0].forward, set.classes[0].backward.as_ref().unwrap()] {
            let json = serde_json::to_string(&artifact::from_plan(plan)).unwrap();
            let loaded: artifact::Artifact = serde_json::from_str(&json).unwrap();
            let rebuilt = artifact::to_plan(&loaded).unwrap();
            verify::verify(&rebuilt, Stage::Scheduled).unwrap_or_else(|e| panic!("{strategy}: {e:?}"));
            assert_eq!(
                print::text(&rebuilt, None).replace(char::is_numeric, ""),
                print::text(plan, None).replace(char::is_numeric, "")
            );
            assert_eq!(artifact::from_plan(&rebuilt), loaded, "{strategy}");
        }
    }
}

#[test]
fn artifact_version_is_checked() {
    let layout = causal_layout(2, "zigzag", 64);
    let set = passes::compile(&layout, &PlanOptions::default()).unwrap();
    let mut a = artifact::from_plan(&set.classes[0].forward);
    a.version = 99;
    assert_eq!(artifact::to_plan(&a).unwrap_err().to_string(), "plan artifact version 99; this attnc reads version 1");
}

/// Planning errors that are the user's to fix, by message.
#[test]
fn planning_errors() {
    let check = |fields: &str, seqlens: Option<Vec<u64>>, expect: &str| {
        let layout = layout_of(&small_spec(8, 8, fields)).unwrap_or_else(|e| panic!("{fields}: {e}"));
        let err = passes::compile(&layout, &PlanOptions { seqlens, ..Default::default() }).unwrap_err().to_string();
        assert!(err.contains(expect), "{fields}: {err}");
    };
    check("  format = thd { max_tokens = 64 }\n  cp = 2\n  dp = 1", None, "give the packed sequence lengths");
    check("  seq = 64\n  cp = 2\n  dp = 1", Some(vec![10]), "applies to thd layouts only");
    check(
        "  format = thd { max_tokens = 64 }\n  cp = 2\n  dp = 1",
        Some(vec![60, 10]),
        "more than the buffer's max_tokens = 64",
    );
    check(
        "  format = thd { max_tokens = 64 }\n  cp = hybrid { dp_cp = 8, max_seqlen_per_rank = 16 }",
        None,
        "hybrid CP",
    );
}

/// Layers with equal settings share one plan; different ones get their own.
#[test]
fn layer_classes_share_plans() {
    let fields = "  seq = 64\n  cp = 2\n  dp = 1\n  layer 1..2 { mask = causal { window = 8 } }";
    let text = small_spec(8, 8, fields).replace("layers = 2", "layers = 5");
    let text = text.replace("layer 1..2", "layer 1..3");
    let layout = layout_of(&text).unwrap();
    let set = passes::compile(&layout, &PlanOptions::default()).unwrap();
    let layers: Vec<String> = set.classes.iter().map(|c| passes::display_intervals(&c.layers)).collect();
    assert_eq!(layers, ["0..1, 3..5", "1..3"]);
}

/// Every example layout plans and verifies, forward and backward, under every strategy its
/// checker accepts (overridden with `--set`), not only the one it names.
#[test]
fn examples_plan_under_every_strategy_they_allow() {
    check_all(&files_in("dsl-examples", "attn"), |path| {
        let (_, unit) = check_spec_file(path, &[]);
        let spec = unit.spec.ok_or_else(|| format!("{path}: does not check"))?;
        for layout in &spec.layouts {
            let attnc_compiler::spec::Cp::Fixed { size: cp } = layout.cp else { continue };
            let mut strategies = vec!["p2p".to_string(), "all_gather".to_string(), "a2a".to_string()];
            strategies.extend(
                (2..cp).filter(|d| cp % d == 0).map(|d| format!("a2a+p2p {{ hierarchy = [{d}, {}] }}", cp / d)),
            );
            let mut planned = 0;
            for strategy in strategies {
                // Per-layer overrides keep their own strategies; the layout-wide one changes.
                let set = format!("{}.strategy={strategy}", layout.name);
                let (_, unit) = check_spec_file(path, std::slice::from_ref(&set));
                let Some(spec) = unit.spec else { continue };
                let l = spec.layout(&layout.name).expect("same layout");
                let thd = matches!(l.format, attnc_compiler::spec::Format::Thd { .. });
                passes::compile(l, &options(thd)).map_err(|e| format!("{path} --set {set}: {e}"))?;
                planned += 1;
            }
            if planned < 2 {
                return Err(format!("{path}: layout {} planned under only {planned} strategies", layout.name));
            }
        }
        Ok(())
    });
}
