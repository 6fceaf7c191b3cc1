//! The rough edges a new user hits, one test each: typed JSON documents with user-facing names,
//! hybrid layouts ahead of time and as JSON plans, `--layout` optional, half-open ranges, one unit
//! for bytes, presets and spellings, a warning once per place.

mod common;

use common::*;

use attnc_compiler::back::manifest::{MANIFEST_VERSION, Manifest};
use attnc_compiler::ir::artifact::{HybridPlanFile, PlanFile};
use attnc_compiler::plan::partition::Partition;
use attnc_compiler::report::{HybridSimulateReport, SimulateReport, TuneReport};

/// No document attnc writes carries a Rust `Debug` string.
fn assert_no_debug_strings(json: &str) {
    for debug in ["Interval {", "P2p", "AllGather", "A2aP2p", "Causal {", "Some(", "None"] {
        assert!(!json.contains(debug), "a Rust debug string `{debug}` in:\n{}", &json[..json.len().min(2000)]);
    }
}

/// The manifest of an AOT directory reads back into its typed struct, with layers as half-open
/// ranges and strategies and masks as a spec writes them.
#[test]
fn the_manifest_is_typed_and_user_facing() {
    let dir = temp("aot-gemma");
    let d = dir.to_str().unwrap();
    let args = ["compile", GEMMA, "--target", "sm_90a", "-o", d, "--set", "alternating.seq=4096"];
    check(&args, 0, "kernels for sm_90a in", "");
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert_no_debug_strings(&text);
    let manifest: Manifest = serde_json::from_str(&text).unwrap();
    assert_eq!(manifest.version, MANIFEST_VERSION);
    assert_eq!(manifest.layout.as_deref(), Some("alternating"));
    let windowed = manifest.plans.iter().find(|p| p.mask == "causal { window = 4096 }").unwrap();
    assert_eq!(windowed.strategy, "p2p");
    assert_eq!((windowed.layers[0].start, windowed.layers[0].end), (0, 1));
    assert!(manifest.plans.iter().any(|p| p.mask == "causal" && p.pass == "backward"));
}

/// One plan file format: the directory `attnc compile -o` writes runs with `attnc run --plan DIR`
/// (or its plan.json), both passes of each class, checked against fp64 attention; a plan for
/// another problem is refused by name.
#[test]
fn compiled_plans_run_with_run_plan() {
    let dir = temp("aot-run-plan");
    let d = dir.to_str().unwrap();
    let small = ["--set", "alternating.seq=512", "--set", "gemma2_27b.head_dim=16"];
    check(&[&["compile", GEMMA, "--target", "x86-64", "-o", d][..], &small[..]].concat(), 0, "", "");
    let file: PlanFile = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    assert_eq!(file.classes.len(), 2);
    assert!(file.classes.iter().all(|c| c.backward.is_some()));
    let plan_json = dir.join("plan.json");
    for plan in [d, plan_json.to_str().unwrap()] {
        let run = [&["run", GEMMA, "--plan", plan, "--layer", "0", "--backward", "--check"][..], &small[..]].concat();
        let stdout = check(&run, 0, "layers 0..45 step 2: p2p", "");
        assert_eq!(stdout.lines().filter(|l| l.trim_end().ends_with(" ok")).count(), 5, "{stdout}");
    }
    let other =
        [&["run", GEMMA, "--plan", d, "--layer", "1", "--set", "alternating.seq=1024"][..], &small[2..]].concat();
    check(&other, 2, "", "the plan was compiled for a different problem than layout `alternating`");
}

/// Every number of a text line with a time unit reads in that unit (below 1000: no "8842358 ms").
fn assert_sensible_units(text: &str) {
    let words: Vec<&str> = text.split_whitespace().collect();
    for w in words.windows(2) {
        if ["ns", "µs", "ms", "s", "min", "h", "ms,", "s,", "min,"].contains(&w[1].trim_end_matches(',')) {
            if let Ok(v) = w[0].parse::<f64>() {
                assert!(v < 1000.0 || w[1].starts_with('h'), "`{} {}` in:\n{text}", w[0], w[1]);
            }
        }
    }
}

/// `simulate --emit json` and `tune --emit json` are typed documents; simulate's text gives one
/// layer's step per class and the whole model's time, in units that read.
#[test]
fn simulate_and_tune_emit_typed_json() {
    let text = check(&["simulate", GEMMA, "--backward"], 0, "model: 46 layers one after another: forward ", "");
    assert_sensible_units(&text);
    let json = check(&["simulate", GEMMA, "--backward", "--emit", "json"], 0, "", "");
    assert_no_debug_strings(&json);
    let report: SimulateReport = serde_json::from_str(&json).unwrap();
    assert_eq!(report.classes.len(), 2);
    assert_eq!(report.model.layers, 46);
    let sum: f64 = report.classes.iter().map(|c| c.layer_count as f64 * c.forward.step_s).sum();
    assert!((report.model.forward_s - sum).abs() <= 1e-12 * sum);
    assert!(report.classes.iter().all(|c| c.backward.as_ref().is_some_and(|b| b.ranks.len() == c.cp as usize)));
    // A long layout at its full size: minutes and hours read as such.
    let long = check(&["simulate", "dsl-examples/llama3_70b_1m.attn", "--backward"], 0, "model: 80 layers", "");
    assert_sensible_units(&long);
    let hybrid = ["simulate", HYBRID, "--seqlens", "100000,3000,20000,9000,500"];
    assert_sensible_units(&check(&hybrid, 0, "batch: ", ""));
    let json = check(&[&hybrid[..], &["--emit", "json"][..]].concat(), 0, "", "");
    let report: HybridSimulateReport = serde_json::from_str(&json).unwrap();
    assert_eq!(report.sub_samples, 5);
    assert!(report.classes.iter().all(|c| (c.batch_s - c.steps.iter().map(|s| s.step_s).sum::<f64>()).abs() < 1e-9));

    let mistral = "dsl-examples/mistral_sliding_window.attn";
    let json = check(&["tune", mistral, "--for", "te", "--emit", "json"], 0, "", "");
    assert_no_debug_strings(&json);
    let report: TuneReport = serde_json::from_str(&json).unwrap();
    assert_eq!(report.target.as_deref().map(|t| t.starts_with("te=")), Some(true));
    for class in &report.classes {
        let chosen: Vec<_> = class.candidates.iter().filter(|c| c.chosen).collect();
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0].strategy, class.choice);
        assert!(class.candidates.iter().all(|c| c.own_s.is_some()), "under a target, attnc's own plan is priced too");
        assert!(class.excluded.iter().any(|e| e.strategy.name == "p2p" && e.why.contains("sliding windows")));
    }
}

/// `check` catches what `compile --target sm_*` refuses: a head dim attnc's GPU kernels do not
/// take is a warning at the model's line, an error there under `check --target sm_90a` and
/// `compile --target sm_90a` (before any kernel is compiled).
#[test]
fn check_catches_what_compile_refuses() {
    let d96 = ["--set", "llama3_8b.head_dim=96"];
    check(
        &[&["check", LLAMA][..], &d96[..]].concat(),
        0,
        "",
        "warning[W0008]: attnc's GPU kernels take a head_dim of 64, 128, 192 or 256, not 96",
    );
    let strict = "error[E0037]: attnc's GPU kernels take a head_dim of 64, 128, 192 or 256, not 96";
    check(&[&["check", LLAMA, "--target", "sm_90a"][..], &d96[..]].concat(), 1, "", strict);
    let dir = temp("aot-d96");
    let compile = [&["compile", LLAMA, "--target", "sm_90a", "-o", dir.to_str().unwrap()][..], &d96[..]].concat();
    let stderr = String::from_utf8(attnc(&compile).stderr).unwrap();
    assert!(stderr.contains(strict) && stderr.contains("head_dim = 96 in model `llama3_8b`"), "{stderr}");
    assert!(!dir.join("manifest.json").exists());
    // The CPU target takes any head dim.
    check(&[&["check", LLAMA, "--target", "x86-64"][..], &d96[..]].concat(), 0, "", "warning[W0008]");
}

/// A mask the kernels test at each pair computes its integer terms in f32: one whose terms
/// outgrow 2^24 over the layout's sequence is refused when planned, naming the layout and the
/// mask, with a help that is true when followed (the same stride without the product plans).
#[test]
fn masks_tested_in_f32_must_stay_exact() {
    let example = "dsl-examples/prefix_and_global_masks.attn";
    let plan = |mask: &str| {
        ["plan", example, "--layout", "dilated", "--set", &format!("dilated.mask={mask}")].map(String::from)
    };
    let refused = plan("k <= q & q * k >= 100");
    let refused: Vec<&str> = refused.iter().map(String::as_str).collect();
    check(
        &refused,
        1,
        "",
        "error: layout `dilated`: the kernels cannot test the mask `k <= q & q * k >= 100` exactly: a term reaches 1073676289\n  help: the kernels compute a mask that is no band as f32 integers, exact up to 2^24; write it with terms that stay within 2^24 over sequences of up to 32768 tokens",
    );
    let planned = plan("k <= q & q + k >= 100");
    let planned: Vec<&str> = planned.iter().map(String::as_str).collect();
    check(&planned, 0, "the mask tested at each pair in the kernels", "");
}

/// A hybrid-CP layout compiles ahead of time (its kernels do not depend on the batch) and prints
/// its plans for one batch as JSON, one per sub-sample, with the schedule's steps.
#[test]
fn hybrid_layouts_compile_and_print_json_plans() {
    let small = ["--set", "llama3_8b.head_dim=64"];
    check(&[&["compile", HYBRID][..], &small[..]].concat(), 0, "kernels compiled for the cpu", "");
    let dir = temp("aot-hybrid");
    let d = dir.to_str().unwrap();
    check(&[&["compile", HYBRID, "--target", "sm_90a", "-o", d][..], &small[..]].concat(), 0, "kernels for sm_90a", "");
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert!(manifest.plans.is_empty(), "a hybrid layout's plans depend on the batch");
    assert!(manifest.kernels.len() >= 4);
    let json = check(&["plan", HYBRID, "--seqlens", "100000,3000,20000,9000,500", "--emit", "json"], 0, "", "");
    assert_no_debug_strings(&json);
    let file: HybridPlanFile = serde_json::from_str(&json).unwrap();
    assert_eq!(file.dp_cp, 16);
    let steps = &file.classes[0].steps;
    assert_eq!(steps.len(), 2);
    let samples: usize = steps.iter().flat_map(|s| &s.groups).map(|g| g.samples.len()).sum();
    assert_eq!(samples, 5);
    let group = &steps[0].groups[0];
    assert_eq!(group.samples[0].forward.header.cp, group.size);
}

/// `--layout` may be left out when the files define one layout; with several it is an error
/// listing them. Plan files read back into their typed struct.
#[test]
fn layout_is_optional_with_one_layout() {
    let json = check(&["plan", LLAMA, "--emit", "json", "--stats"], 0, "", "");
    assert_no_debug_strings(&json);
    let file: PlanFile = serde_json::from_str(&json).unwrap();
    assert_eq!(file.layout, "pretrain");
    assert!(file.classes[0].stats.is_some());
    check(
        &["plan", "dsl-examples/included_models.attn"],
        2,
        "",
        "the files define 2 layouts (pretrain_64k, sft_8b): choose one with --layout",
    );
    check(&["plan", "dsl-examples/included_models.attn", "--layout", "pretrain_64k"], 0, "plan `pretrain_64k`", "");
}

/// Ranges are half-open everywhere: layers, ranks and GPUs.
#[test]
fn ranges_are_half_open() {
    check(&["run", LLAMA, "--layer", "37"], 2, "", "--layer 37: model `llama3_8b` has layers 0..32");
    check(&["simulate", LLAMA, "--layer", "32"], 2, "", "has layers 0..32");
    check(&["plan", LLAMA, "--rank", "16"], 2, "", "has CP ranks 0..16");
    let plan = check(&["plan", HYBRID, "--seqlens", "100000,3000"], 0, "GPUs 0..16 (cp 16)", "");
    assert!(plan.contains("barrier over GPUs 0..16") && !plan.contains("0-15"), "{plan}");
}

/// Bytes are GiB, with what is sent and what is received labelled, in `plan --stats` and `tune`.
#[test]
fn bytes_are_gib_sent_and_received() {
    let stats = check(&["plan", LLAMA, "--rank", "0", "--stats"], 0, "bytes per rank in GiB", "");
    assert!(stats.contains("sent intra") && stats.contains("received inter"), "{stats}");
    let tune = check(&["tune", LLAMA], 0, "bytes per rank (max over ranks) in GiB", "");
    assert!(tune.contains("intra sent") && tune.contains("inter recv") && !tune.contains(" GB"), "{tune}");
}

/// The partition JSON always has `padding`, and reads back into its typed struct.
#[test]
fn partitions_always_list_padding() {
    let json =
        check(&["partition", LLAMA, "--set", "pretrain.seq=64", "--set", "pretrain.cp=2"], 0, "\"padding\":[]", "");
    let p: Partition = serde_json::from_str(&json).unwrap();
    assert_eq!(p.ranks.len(), 2);
}

/// Presets users reach for exist; a misspelt preset suggests the one it starts; a lower-case size
/// suffix suggests the upper-case one (not a 1000x smaller number).
#[test]
fn presets_and_spellings() {
    for gpu in ["h800", "h20", "b200", "gb200"] {
        check(&["check", LLAMA, "--set", &format!("two_nodes.gpu={gpu}")], 0, "", "");
    }
    check(&["check", LLAMA, "--set", "two_nodes.gpu=h100"], 1, "", "did you mean `h100_sxm`?");
    check(&["check", LLAMA, "--set", "pretrain.seq=128k"], 1, "", "help: write `seq = 128K`");
}

/// A warning about the layout's own setting is reported once, not again for every `layer` block
/// that keeps that setting.
#[test]
fn a_warning_fires_once_per_place() {
    let spec = temp("blocks.attn");
    std::fs::write(
        &spec,
        "model m {\n  layers = 8\n  heads = 8\n  kv_heads = 2\n  head_dim = 64\n}\n\
         cluster c {\n  nodes = 1\n  gpus_per_node = 8\n  gpu = h100_sxm\n}\n\
         layout l {\n  model = m\n  cluster = c\n  seq = 8K\n  cp = 4\n  dp = 2\n  strategy = a2a\n\
         layer 0..2 { mask = none }\n  layer 2..4 { mask = causal { window = 512 } }\n  layer 4..6 { mask = none }\n}\n",
    )
    .unwrap();
    let out = attnc(&["check", spec.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("warning[W0002]").count(), 1, "{stderr}");
    assert_eq!(stderr.matches("warning[W0006]").count(), 1, "{stderr}");
}

/// A batch of only empty sequences (`--seqlens 0,0`) leaves every rank without tokens: it plans
/// and runs, forward and backward, under plain causal and a window with either exchange.
#[test]
fn a_batch_of_empty_sequences_runs() {
    let run =
        ["run", SFT, "--layout", "sft", "--seqlens", "0,0", "--set", "llama3_8b.head_dim=16", "--backward", "--check"];
    check(&run, 0, "dv ", "");
    for exchange in ["halo", "own"] {
        let window = ["--set", "sft.mask=padding_causal { window = 6 }", "--exchange", exchange];
        check(&[&run[..], &window[..]].concat(), 0, "dv ", "");
    }
}

/// `plan --emit svg` draws one layer class: several need `--layer`, whose help names them; a
/// hybrid batch is refused; one class prints the picture.
#[test]
fn plan_svg_draws_one_class() {
    let mixed = "dsl-examples/mixed_per_layer.attn";
    check(&["plan", mixed, "--emit", "svg"], 2, "", "help: pick one with --layer N (layers 0..8; 8..32; 32..40)");
    let svg = check(&["plan", mixed, "--emit", "svg", "--layer", "8"], 0, "<svg", "");
    assert!(svg.contains(r#"data-class="full""#) && svg.trim_end().ends_with("</svg>"), "{svg}");
    check(
        &["plan", "dsl-examples/hybrid_cp.attn", "--layout", "dynamic", "--seqlens", "1000,3000", "--emit", "svg"],
        2,
        "",
        "--emit dot and svg draw one plan",
    );
}
