//! `attnc run`: every example passes `--check` (shrunk to CPU size), inputs and outputs as
//! safetensors, and every fault is a clear error naming its tensor, rank or op.

mod common;

use common::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use attnc_runtime::tensor::{self, HostTensor, StDtype};

/// A run checks every layer class unless --layer picks one; what writes one class's outputs
/// (--out, --trace, --plan) asks for --layer, and following that help runs.
#[test]
fn every_layer_class_runs_unless_one_is_chosen() {
    let mixed = ["run", "dsl-examples/mixed_per_layer.attn", "--layout", "mixed", "--set", "mixed.seq=256"];
    let mut all = mixed.to_vec();
    all.extend(["--set", "llama2_13b.head_dim=8", "--kernels", "reference"]);
    let stdout = check(&all, 0, "", "");
    let announced: Vec<&str> = stdout.lines().filter(|l| l.starts_with("layers ")).collect();
    assert_eq!(
        announced,
        [
            "layers 0..8: a2a, mask causal, cp 8; reference kernels on CPU ranks",
            "layers 8..32: p2p, mask causal, cp 8; reference kernels on CPU ranks",
            "layers 32..40: all_gather, mask causal, cp 8; reference kernels on CPU ranks",
        ],
        "{stdout}"
    );
    let out = temp("one-class.safetensors");
    let mut one = all.clone();
    one.extend(["--out", out.to_str().unwrap()]);
    check(
        &one,
        2,
        "",
        "error: --out takes one layer class, and layout `mixed` has 3 (layers 0..8; 8..32; 32..40): choose one with --layer N",
    );
    one.extend(["--layer", "8"]);
    let stdout = check(&one, 0, "layers 8..32: p2p", "");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("layers ")).count(), 1, "{stdout}");
    assert!(out.exists());
}

/// Each example, shrunk with `--set` to a CPU-sized problem, forward and backward.
#[test]
fn every_example_passes_check() {
    let cases: &[(&str, &[&str])] = &[
        (
            "gemma2_alternating.attn",
            &[
                "--layout",
                "alternating",
                "--set",
                "alternating.seq=512",
                "--set",
                "gemma2_27b.head_dim=16",
                "--layer",
                "1",
            ],
        ),
        (
            // A cap of 2 bends these small scores (50 would leave them nearly linear).
            "gemma2_alternating.attn",
            &[
                "--layout",
                "alternating",
                "--set",
                "alternating.seq=512",
                "--set",
                "gemma2_27b.head_dim=16",
                "--set",
                "gemma2_27b.score=2 * tanh(s / 2)",
                "--layer",
                "0",
            ],
        ),
        (
            "gemma2_9b.attn",
            &["--set", "alternating.seq=512", "--set", "gemma2_9b.head_dim=32", "--set", "gemma2_9b.softcap=2"],
        ),
        (
            "gemma2_alternating.attn",
            &[
                "--layout",
                "alternating",
                "--set",
                "alternating.seq=512",
                "--set",
                "gemma2_27b.head_dim=16",
                "--layer",
                "0",
            ],
        ),
        (
            "llama3_70b_1m.attn",
            &["--layout", "pretrain_1m", "--set", "pretrain_1m.seq=512", "--set", "llama3_70b.head_dim=8"],
        ),
        (
            "llama3_8b_128k.attn",
            &["--layout", "pretrain", "--set", "pretrain.seq=512", "--set", "llama3_8b.head_dim=16"],
        ),
        (
            "mistral_sliding_window.attn",
            &[
                "--layout",
                "long_window",
                "--set",
                "long_window.seq=512",
                "--set",
                "long_window.mask=causal { window = 100 }",
                "--set",
                "mistral_7b.head_dim=16",
            ],
        ),
        // Without --layer, every layer class (a2a, p2p and all_gather here) runs and is checked.
        ("mixed_per_layer.attn", &["--layout", "mixed", "--set", "mixed.seq=256", "--set", "llama2_13b.head_dim=8"]),
        // Masks by region (a bidirectional prefix; global tokens and a window), written as
        // expressions and shrunk with expressions.
        (
            "prefix_and_global_masks.attn",
            &[
                "--layout",
                "vision_prefix",
                "--set",
                "vision_prefix.seq=512",
                "--set",
                "vision_prefix.mask=k <= q | k < 70",
                "--set",
                "mistral_7b.head_dim=16",
            ],
        ),
        (
            "prefix_and_global_masks.attn",
            &[
                "--layout",
                "global_window",
                "--set",
                "global_window.seq=512",
                "--set",
                "global_window.mask=k < 5 | q < 5 | (k <= q & q - k < 40)",
                "--set",
                "mistral_7b.head_dim=16",
            ],
        ),
        // A band no named mask is (a two-sided window), with global tokens.
        (
            "prefix_and_global_masks.attn",
            &[
                "--layout",
                "longformer",
                "--set",
                "longformer.seq=512",
                "--set",
                "longformer.mask=k < 5 | q < 5 | (q - k < 40 & k - q < 30)",
                "--set",
                "mistral_7b.head_dim=16",
            ],
        ),
        (
            "qwen2_gqa_ulysses.attn",
            &["--layout", "ulysses", "--set", "ulysses.seq=256", "--set", "qwen2_1_5b.head_dim=16"],
        ),
        (
            "sft_packed_thd.attn",
            &[
                "--layout",
                "sft",
                "--set",
                "sft.format=thd { max_seqlen = 512, max_tokens = 1024 }",
                "--set",
                "llama3_8b.head_dim=16",
                "--seqlens",
                "300,1,37,100",
            ],
        ),
    ];
    for (file, args) in cases {
        let path = format!("dsl-examples/{file}");
        let mut full = vec!["run", path.as_str()];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--backward", "--check"]);
        let stdout = check(&full, 0, "check against fp64 full attention", "");
        // Every layer class runs and is checked (o, lse, dq, dk, dv), each announced with its
        // strategy and kernels.
        let classes = stdout.lines().filter(|l| l.starts_with("layers ")).count();
        assert!(classes >= 1, "{stdout}");
        assert!(
            stdout.lines().filter(|l| l.starts_with("layers ")).all(|l| l.contains("; cranelift kernels on CPU ranks"))
        );
        assert_eq!(stdout.lines().filter(|l| l.trim_end().ends_with(" ok")).count(), 5 * classes, "{stdout}");
    }
    // Hybrid CP: each sub-sample on its own power-of-two group, groups switching per step,
    // every sub-sample checked against fp64 attention of that sub-sample.
    let hybrid = [
        "run",
        "dsl-examples/hybrid_cp.attn",
        "--layout",
        "dynamic",
        "--set",
        "dynamic.cp.max_seqlen_per_rank=64",
        "--set",
        "dynamic.format=thd { max_seqlen = 1024, max_tokens = 4096 }",
        "--set",
        "llama3_8b.head_dim=16",
        "--set",
        "llama3_8b.heads=16",
        "--set",
        "llama3_8b.kv_heads=4",
        "--seqlens",
        "500,40,1000,130,64,300,20,7,90",
        "--backward",
        "--check",
        "--kernels",
        "cranelift",
    ];
    let stdout = check(&hybrid, 0, "hybrid CP: 9 sub-samples on 16 GPUs", "");
    let samples: Vec<&str> = stdout.lines().filter(|l| l.contains(" sample ")).collect();
    assert_eq!(samples.len(), 9, "{stdout}");
    assert!(samples.iter().all(|l| l.contains(": ok (")), "{stdout}");
    for size in ["cp 16 ", "cp 8 ", "cp 4 ", "cp 2 ", "cp 1 "] {
        assert!(stdout.contains(size), "no group of {size}:\n{stdout}");
    }
    check(&["run", "dsl-examples/hybrid_cp.attn", "--layout", "dynamic"], 2, "", "give the sub-sample lengths");
    check(
        &["run", "dsl-examples/hybrid_cp.attn", "--layout", "dynamic", "--seqlens", "300000"],
        1,
        "",
        "needs 64 GPUs at 8192 tokens per rank, but the DP×CP pool has 16",
    );
    let plan = check(
        &["plan", "dsl-examples/hybrid_cp.attn", "--layout", "dynamic", "--seqlens", "100000,3000,20000,9000,500"],
        0,
        "hybrid CP over 16 GPUs",
        "",
    );
    assert_eq!(plan.matches("barrier over GPUs 0..16").count(), 2, "{plan}");
    let trace = temp("hybrid.json");
    let sim = check(
        &[
            "simulate",
            "dsl-examples/hybrid_cp.attn",
            "--layout",
            "dynamic",
            "--seqlens",
            "100000,3000,20000,9000,500",
            "--trace",
            trace.to_str().unwrap(),
        ],
        0,
        "then the barrier",
        "wrote",
    );
    assert!(sim.contains("step 1:") && sim.contains("batch:"), "{sim}");
    let document: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert!(assert_trace_format(&document) > 0);
    assert_eq!(plan.matches(", verified").count(), 5, "{plan}");
}

const SMALL: &[&str] = &[
    "--set",
    "pretrain.seq=64",
    "--set",
    "pretrain.cp=2",
    "--set",
    "llama3_8b.head_dim=8",
    "--set",
    "llama3_8b.heads=4",
    "--set",
    "llama3_8b.kv_heads=2",
];

fn small(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> =
        ["run", "dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain"].iter().map(|s| s.to_string()).collect();
    v.extend(SMALL.iter().map(|s| s.to_string()));
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_small(extra: &[&str], code: i32, stdout_has: &str, stderr_has: &str) -> String {
    let args = small(extra);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    check(&refs, code, stdout_has, stderr_has)
}

fn write_inputs(path: &Path, skip: &str, q_shape: Vec<usize>, q_int: bool) {
    // sbhd [s=64, b=1, h, d=8]
    let mut map = BTreeMap::new();
    for (name, shape) in [("q", q_shape), ("k", vec![64, 1, 2, 8]), ("v", vec![64, 1, 2, 8]), ("do", vec![64, 1, 4, 8])]
    {
        if name == skip {
            continue;
        }
        let n: usize = shape.iter().product();
        let t = if name == "q" && q_int {
            HostTensor::int(shape, vec![1; n])
        } else {
            HostTensor::float(shape, StDtype::F32, (0..n).map(|i| ((i * 7919) % 97) as f32 / 97.0 - 0.5).collect())
        };
        map.insert(name.to_string(), t);
    }
    tensor::write_file(path, &map).unwrap();
}

#[test]
fn tensors_in_and_out() {
    let input = temp("in.safetensors");
    let output = temp("out.safetensors");
    write_inputs(&input, "", vec![64, 1, 4, 8], false);
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    run_small(&["--inputs", i, "--out", o, "--backward", "--check"], 0, " ok", "");
    let out = tensor::read_file(&output).unwrap();
    assert_eq!(out["o"].shape, vec![64, 1, 4, 8]);
    assert_eq!(out["lse"].shape, vec![1, 4, 64]);
    assert_eq!(out["dk"].shape, vec![64, 1, 2, 8]);
    // Outputs are fp32 by default (numpy reads them), the layout's dtype with `--out-dtype as-input`.
    assert_eq!(out["o"].dtype, StDtype::F32);
    assert_eq!(out["lse"].dtype, StDtype::F32);
    run_small(&["--inputs", i, "--out", o, "--backward", "--out-dtype", "as-input"], 0, "", "");
    let out = tensor::read_file(&output).unwrap();
    assert_eq!((out["o"].dtype, out["dq"].dtype, out["lse"].dtype), (StDtype::BF16, StDtype::BF16, StDtype::F32));
}

#[test]
fn bad_inputs_name_the_tensor() {
    let cases: [(&str, &str, Vec<usize>, bool, &str); 3] = [
        ("missing.safetensors", "v", vec![64, 1, 4, 8], false, "error: input `v` is missing from"),
        (
            "shape.safetensors",
            "",
            vec![64, 1, 3, 8],
            false,
            "error: input `q` has shape [64, 1, 3, 8], the layout needs [64, 1, 4, 8]",
        ),
        ("dtype.safetensors", "", vec![64, 1, 4, 8], true, "error: input `q` is an integer tensor; expected floats"),
    ];
    for (file, skip, shape, int, message) in cases {
        let path = temp(file);
        write_inputs(&path, skip, shape, int);
        run_small(&["--inputs", path.to_str().unwrap(), "--backward"], 1, "", message);
    }
    run_small(&["--inputs", "no/such/file.safetensors"], 2, "", "no/such/file.safetensors");
}

#[test]
fn a_plan_for_another_cp_size_is_refused() {
    let plan = temp("plan-cp4.json");
    // The small layout at cp 4 instead of 2.
    let cp4 = |head: &[&str], tail: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = head.iter().map(|s| s.to_string()).collect();
        v.extend(SMALL.iter().map(|s| s.replace("pretrain.cp=2", "pretrain.cp=4")));
        v.extend(tail.iter().map(|s| s.to_string()));
        v
    };
    let layout = ["dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain"];
    let args = cp4(&[&["plan"], &layout[..]].concat(), &["--emit", "json"]);
    let json = check(&args.iter().map(String::as_str).collect::<Vec<_>>(), 0, "\"version\":1", "");
    std::fs::write(&plan, json).unwrap();
    run_small(&["--plan", plan.to_str().unwrap()], 2, "", "the plan has cp = 4, layout `pretrain` has cp = 2");
    // The same plan runs when the layout matches, and passes.
    let same = cp4(&[&["run"], &layout[..]].concat(), &["--plan", plan.to_str().unwrap(), "--check"]);
    let same: Vec<&str> = same.iter().map(String::as_str).collect();
    check(&same, 0, " ok", "");
}

/// Runs the small layout once; exit `code` and every one of `stderr_has` in stderr.
fn run_small_stderr(extra: &[&str], code: i32, stderr_has: &[&str]) {
    let args = small(extra);
    let out = attnc(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "attnc {args:?}\nstderr:\n{stderr}");
    for want in stderr_has {
        assert!(stderr.contains(want), "attnc {args:?}: stderr lacks {want:?}:\n{stderr}");
    }
}

#[test]
fn a_rank_that_panics_fails_the_run_with_its_op() {
    let message = ["error: rank 1, op %", "(attn_fwd ", "panicked: injected fault in an attention kernel"];
    run_small_stderr(&["--inject-fault", "panic:1"], 1, &message);
}

#[test]
fn a_stuck_rank_trips_the_watchdog() {
    let started = std::time::Instant::now();
    // Some rank waits on its transfer with rank 1 or on the event that transfer records.
    let report = ["error: watchdog: rank ", "waited 0.5 s for ", "every rank:\n  rank 0 compute: %", "  rank 1 cp: %"];
    run_small_stderr(&["--inject-fault", "hang:1", "--timeout", "0.5"], 1, &report);
    assert!(started.elapsed().as_secs() < 30, "the watchdog must end the run");
}

#[test]
fn timings_show_overlap() {
    let stdout = run_small(&["--timings"], 0, "timings (forward)", "");
    assert!(stdout.contains("hidden%"), "{stdout}");
}

#[test]
fn generated_kernels_run_compile_and_bench() {
    run_small(&["--kernels", "cranelift", "--backward", "--check"], 0, " ok", "");
    run_small(&["--kernels", "interpreter", "--backward", "--check"], 0, " ok", "");
    run_small(&["--kernels", "cranelift", "--threads", "2", "--backward", "--check"], 0, " ok", "");
    check(
        &["compile", "dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain", "--timings"],
        0,
        "attn_fwd_d128_causal_bf16_g4_t2x16",
        "",
    );
    run_small(&["--kernels", "llvm-cpu", "--backward", "--check"], 0, " ok", "");
    check(
        &["compile", "dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain", "--target", "sm_81"],
        2,
        "",
        "[possible values: cpu, sm_80, sm_90a, sm_90a-ws, x86-64]",
    );
    check(
        &["compile", "dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain", "--target", "sm_80", "--emit", "ptx"],
        0,
        "mma.sync.aligned.m16n8k16",
        "",
    );
    // Ahead of time: plans, one file per kernel, a manifest naming entries and launches.
    for (target, ext) in [("sm_90a", "ptx"), ("x86-64", "o")] {
        let dir = temp(&format!("aot-{target}"));
        let d = dir.to_str().unwrap();
        check(
            &[
                "compile",
                "dsl-examples/llama3_8b_128k.attn",
                "--layout",
                "pretrain",
                "--target",
                target,
                "-o",
                d,
                "--ptxas",
            ],
            0,
            &format!("kernels for {target} in"),
            "",
        );
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(manifest["target"], target);
        let kernels = manifest["kernels"].as_array().unwrap();
        assert!(kernels.len() >= 4, "{manifest}");
        for k in kernels {
            let file = k["file"].as_str().unwrap();
            assert!(file.ends_with(ext) && dir.join(file).is_file(), "{k}");
            if target == "sm_90a" {
                assert_eq!(k["launch"]["block"], serde_json::json!([128, 1, 1]), "{k}");
                assert!(k["resources"][0]["registers"].as_u64().unwrap() > 0, "{k}");
            }
        }
        for p in manifest["plans"].as_array().unwrap() {
            assert!(dir.join(p["file"].as_str().unwrap()).is_file(), "{p}");
        }
    }
    let out = check(
        &["bench", "kernels", "--seq", "64", "--head-dim", "8", "--heads", "1", "--causal", "true", "--json"],
        0,
        "\"kernel\":\"peak128\"",
        "",
    );
    for line in out.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(r["gflops"].as_f64().unwrap() > 0.0, "{line}");
    }
    assert!(out.contains("\"backend\":\"cranelift\"") && out.contains("\"kernel\":\"bwd\""), "{out}");
    assert!(out.contains("\"backend\":\"llvm-cpu\""), "{out}");
    // `--score`: each shape plain, then with the score, in one run; a score the kernels cannot
    // compute names the flag.
    let scored = check(
        &["bench", "kernels", "--seq", "64", "--head-dim", "8", "--heads", "1", "--causal", "true", "--json"][..]
            .iter()
            .copied()
            .chain(["--kernels", "cranelift", "--score", "30 * tanh(s / 30)"])
            .collect::<Vec<_>>(),
        0,
        "\"score\":\"30 * tanh(s / 30)\"",
        "",
    );
    let cranelift = scored.lines().filter(|l| l.contains("\"backend\":\"cranelift\"")).count();
    assert_eq!(cranelift, 4, "fwd and bwd, plain and scored: {scored}");
    check(
        &["bench", "kernels", "--score", "s - alibi(q, 8)"],
        2,
        "",
        "error: --score: score `s - alibi(q, 8)`: `alibi` takes a head",
    );
    // `--mask`: the kernels testing a mask at each pair, as for a mask that is no band; on top
    // of `--score` when both are given.
    let tested = check(
        &["bench", "kernels", "--seq", "64", "--head-dim", "8", "--heads", "1", "--causal", "true", "--json"][..]
            .iter()
            .copied()
            .chain(["--kernels", "cranelift", "--mask", "(q - k) % 2 == 0", "--score", "30 * tanh(s / 30)"])
            .collect::<Vec<_>>(),
        0,
        "\"score\":\"30 * tanh(s / 30)\",\"mask\":\"(q - k) % 2 == 0\"",
        "",
    );
    assert_eq!(
        tested.lines().filter(|l| l.contains("\"mask\"")).count(),
        4,
        "fwd and bwd, reference and cranelift: {tested}"
    );
    check(&["bench", "kernels", "--mask", "k <= h"], 2, "", "error: --mask \"k <= h\": the benchmark's mask reads");
    // A plan's run against its kernels' own speed: one JSON line per direction.
    let run = check(
        &[
            &["bench", "run", LLAMA, "--kernels", "cranelift", "--backward", "--json"][..],
            &["--set", "pretrain.seq=512", "--set", "pretrain.cp=2", "--set", "pretrain.dtype=fp32"][..],
            &["--set", "llama3_8b.head_dim=16", "--set", "llama3_8b.heads=4", "--set", "llama3_8b.kv_heads=2"][..],
        ]
        .concat(),
        0,
        "\"direction\":\"forward\"",
        "",
    );
    for line in run.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        for field in ["flops", "wall_s", "kernel_gflops", "efficiency"] {
            assert!(r[field].as_f64().unwrap() > 0.0, "{field} in {line}");
        }
        assert!(r["cores"].as_u64().unwrap() >= 1);
    }
    assert!(run.contains("\"direction\":\"backward\""), "{run}");
}

#[test]
fn attnc_dump_writes_the_plan_after_each_pass() {
    let dir = temp("dump");
    let _ = std::fs::remove_dir_all(&dir);
    let root = root();
    let out = Command::new(env!("CARGO_BIN_EXE_attnc"))
        .args(["plan", "dsl-examples/qwen2_gqa_ulysses.attn", "--layout", "ulysses"])
        .env("ATTNC_DUMP", &dir)
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ulysses.0-28.fwd.01-after-lower.txt",
            "ulysses.0-28.fwd.02-after-assign_slots.txt",
            "ulysses.0-28.fwd.03-after-schedule.txt"
        ]
    );
}

/// The Chrome trace-event format as Perfetto reads it (the same check as the simulator's traces).
fn assert_trace_format(document: &serde_json::Value) -> usize {
    let events = document["traceEvents"].as_array().expect("traceEvents is an array");
    let mut complete = 0;
    for event in events {
        assert!(event["name"].is_string() && event["pid"].is_u64() && event["tid"].is_u64(), "{event}");
        match event["ph"].as_str() {
            Some("X") => {
                assert!(event["ts"].as_f64().is_some_and(|t| t >= 0.0), "{event}");
                assert!(event["dur"].as_f64().is_some_and(|d| d >= 0.0), "{event}");
                complete += 1;
            }
            Some("M") => assert!(event["args"].is_object(), "{event}"),
            other => panic!("unexpected phase {other:?}"),
        }
    }
    complete
}

/// `run --trace` (measured) and `simulate --trace` (predicted) write the same format, one
/// complete event per op, forward then backward.
#[test]
fn measured_and_simulated_traces() {
    let measured = temp("measured.json");
    run_small(&["--backward", "--trace", measured.to_str().unwrap()], 0, "", "wrote");
    let document: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&measured).unwrap()).unwrap();
    let measured_events = assert_trace_format(&document);
    let simulated = temp("simulated.json");
    let mut args: Vec<&str> =
        vec!["simulate", "dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain", "--backward"];
    args.extend(SMALL);
    args.extend(["--trace", simulated.to_str().unwrap()]);
    let out = check(&args, 0, "backward: step", "wrote");
    assert!(out.contains("exposed") && out.contains("idle"), "{out}");
    let document: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&simulated).unwrap()).unwrap();
    assert_eq!(assert_trace_format(&document), measured_events, "one event per op in both");
}

/// `tune` on every example: a table and a choice per layer class (thd with lengths; hybrid is
/// an error pointing at `attnc schedule`); and the spec and Megatron renderings.
#[test]
fn tune_every_example() {
    for path in std::fs::read_dir(root().join("dsl-examples")).unwrap() {
        let path = path.unwrap().path();
        if path.extension().is_none_or(|e| e != "attn") {
            continue;
        }
        let file = format!("dsl-examples/{}", path.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(&path).unwrap();
        // Each layout item's text: from its `layout NAME {` line to the next item.
        let items: Vec<&str> = text.split("\nlayout ").skip(1).collect();
        for item in items {
            let layout = item.split_whitespace().next().unwrap();
            let mut args = vec!["tune", file.as_str(), "--layout", layout];
            if item.contains("= thd") {
                args.extend(["--seqlens", "1000,15000,2000,100"]);
            }
            if item.contains("hybrid {") {
                check(&args, 1, "", "attnc schedule");
                continue;
            }
            let out = check(&args, 0, "choice:", "");
            assert!(out.contains("fwd+bwd") && out.contains("* "), "{file} {layout}:\n{out}");
            let thd = args.contains(&"--seqlens");
            assert_eq!(out.contains("balance (whole layout, chosen strategies)"), !thd, "{file} {layout}:\n{out}");
        }
    }
    check(
        &["tune", "dsl-examples/llama3_70b_1m.attn", "--layout", "pretrain_1m", "--emit", "megatron"],
        0,
        "--hierarchical-context-parallel-sizes",
        "",
    );
}

/// The text of `file` with the item `layout NAME { ... }` replaced by `item`.
fn replace_layout(file: &str, name: &str, item: &str) -> String {
    let start = file.find(&format!("layout {name} {{")).unwrap_or_else(|| panic!("no layout {name}"));
    let mut depth = 0;
    let mut end = start;
    for (i, c) in file[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = start + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    format!("{}{}{}", &file[..start], item.trim_end(), &file[end..])
}

/// `attnc tune --for te` on every example: `--emit spec` prints a layout item that, pasted back
/// in place of the file's own, checks clean with `--for te` (so no strategy TransformerEngine
/// rejects was chosen) and resolves to the chosen strategy and the file's mask on every layer;
/// `--emit megatron` prints only flags Megatron-LM's parser defines (the list read from its
/// source), with the context-parallel size and comm types of the choice.
#[test]
fn tune_for_te_pastes_back_and_prints_megatron_flags() {
    let root = root();
    let known: std::collections::HashSet<&str> = attnc_compiler::compat::megatron::known_flags().collect();
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root.join("dsl-examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "attn"))
        .collect();
    examples.sort();
    let mut tuned = 0;
    for path in examples {
        let file = format!("dsl-examples/{}", path.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(&path).unwrap();
        for item in text.split("\nlayout ").skip(1) {
            let layout = item.split_whitespace().next().unwrap();
            if item.contains("hybrid {") {
                continue;
            }
            let mut args = vec!["tune", file.as_str(), "--layout", layout, "--for", "te"];
            if item.contains("= thd") {
                args.extend(["--seqlens", "1000,15000,2000,100"]);
            }
            // What TransformerEngine has no argument for (soft-capping, chunked masks) no strategy
            // fixes: tuning for it fails and says why.
            let model_text = text.split("\nlayout ").next().unwrap();
            let mask_line = |l: &&str| l.trim_start().starts_with("mask");
            // A mask that reads the head `h` (a per-head window), else one with a union by region
            // or a stride (no band: tested per pair).
            let per_head =
                item.lines().filter(mask_line).any(|l| l.split(|c: char| !c.is_alphanumeric()).any(|w| w == "h"));
            let regional = item.lines().filter(mask_line).any(|l| l.contains('|') || l.contains('%'));
            // A model modifies its scores with `softcap = X` or `score = EXPR` (a soft-cap, ALiBi):
            // TE takes neither under context parallelism.
            let capped = model_text.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("softcap") || l.starts_with("score")
            });
            if capped || item.contains("chunk =") || regional || per_head {
                let why = if model_text.contains("alibi(") {
                    "ALiBi"
                } else if capped {
                    "soft-capping"
                } else if per_head {
                    "no per-head mask"
                } else if regional {
                    "differs by region"
                } else {
                    "chunked-attention"
                };
                check(&[&args[..], &["--emit", "megatron"]].concat(), 1, "", why);
                continue;
            }
            let megatron = check(&[&args[..], &["--emit", "megatron"]].concat(), 0, "--context-parallel-size ", "");
            for flag in megatron.split_whitespace().filter(|w| w.starts_with("--")) {
                assert!(known.contains(flag), "{file} {layout}: Megatron-LM has no flag {flag}:\n{megatron}");
            }
            let spec = check(&[&args[..], &["--emit", "spec"]].concat(), 0, &format!("layout {layout} {{"), "");
            let item_text: String = spec.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
            let pasted = path.with_file_name(format!(".tuned-{}-{layout}.attn", std::process::id()));
            std::fs::write(&pasted, replace_layout(&text, layout, &item_text)).unwrap();
            let pasted_name = format!("dsl-examples/{}", pasted.file_name().unwrap().to_string_lossy());
            let out = attnc(&["check", &pasted_name, "--for", "te", "--emit", "json"]);
            let resolved = String::from_utf8_lossy(&out.stdout).to_string();
            let original = attnc(&["check", &file, "--emit", "json"]);
            std::fs::remove_file(&pasted).unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{file} {layout}: pasted back:\n{item_text}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let layers = |json: &str| -> Vec<serde_json::Value> {
                let v: serde_json::Value = serde_json::from_str(json).unwrap();
                let l = v["layouts"].as_array().unwrap().iter().find(|l| l["name"] == layout).unwrap();
                l["layers"].as_array().unwrap().clone()
            };
            let (after, before) = (layers(&resolved), layers(&String::from_utf8_lossy(&original.stdout)));
            assert_eq!(after.len(), before.len());
            for (a, b) in after.iter().zip(&before) {
                assert_eq!(a["mask"], b["mask"], "{file} {layout}: the mask of a layer changed");
            }
            let comm = megatron.split("--cp-comm-type ").nth(1).unwrap().split(" --").next().unwrap().to_string();
            let names: Vec<String> =
                after.iter().map(|l| l["strategy"]["kind"].as_str().unwrap().to_string()).collect();
            let expected = if names.windows(2).all(|w| w[0] == w[1]) { names[0].clone() } else { names.join(" ") };
            assert_eq!(comm.trim(), expected, "{file} {layout}: --cp-comm-type against the pasted spec");
            tuned += 1;
        }
    }
    assert!(tuned >= 9, "{tuned} layouts tuned");
}

/// NoPE layers (`layer 3..48 step 4 { rope = none }`) and partial RoPE (`rope { dims = D }`) run
/// through `attnc run --check` against fp64, forward and backward, and print their Megatron flags.
#[test]
fn rope_variants_run_and_print_megatron_flags() {
    // `attnc run FILE --layout long --set S... --backward --check`, fp32 at 256 tokens over cp 4.
    let run_checked = |file: &str, sets: &[&str], extra: &[&str]| {
        let mut args = vec!["run", file, "--layout", "long", "--backward", "--check"];
        for s in ["long.seq=256", "long.cp=4", "long.dtype=fp32"].iter().chain(sets) {
            args.extend(["--set", s]);
        }
        args.extend(extra);
        let out = check(&args, 0, "check against fp64", "");
        assert!(!out.contains("FAIL"), "{args:?}:\n{out}");
    };
    let llama4 = ["llama4_scout.heads=4", "llama4_scout.kv_heads=2", "llama4_scout.head_dim=16"];
    // Layer 7 is NoPE and global, layer 6 rotates and is chunked: chunks of 8192 are whole at
    // 256 tokens, so also chunks of 24, which cut the 32-token zigzag pieces.
    for layer in ["7", "6"] {
        run_checked("dsl-examples/llama4_scout_nope.attn", &llama4, &["--layer", layer]);
    }
    let chunk24 = [&llama4[..], &["long.mask=causal { chunk = 24 }"]].concat();
    run_checked("dsl-examples/llama4_scout_nope.attn", &chunk24, &["--layer", "6"]);
    let plan = check(
        &["plan", "dsl-examples/llama4_scout_nope.attn", "--layout", "long", "--layer", "6", "--stats"],
        0,
        "mask causal { chunk = 8192 }",
        "",
    );
    // Every zigzag piece (8192 tokens at cp 16) is one whole attention chunk: nothing moves.
    assert!(plan.contains("0.000 of 15.000 GiB sent (100.0% saved)"), "{plan}");
    assert!(!plan.contains("send"), "{plan}");
    // DeepSeek-V3's MLA shrunk: q/k heads of 24 (8 rotated), value heads of 16, under every
    // strategy (fp32 on the reference kernels), and on p2p with every other kernel set (the
    // interpreter, Cranelift, LLVM; the emulated GPU ABI in bf16).
    let deepseek = [
        "deepseek_v3.heads=4",
        "deepseek_v3.kv_heads=4",
        "deepseek_v3.head_dim=24",
        "deepseek_v3.v_head_dim=16",
        "deepseek_v3.rope.dims=8",
    ];
    for strategy in ["p2p", "all_gather", "a2a", "a2a+p2p { hierarchy = [2, 2] }"] {
        let set = format!("long.strategy={strategy}");
        let sets = [&deepseek[..], &[set.as_str()]].concat();
        run_checked("dsl-examples/deepseek_v3_mla.attn", &sets, &[]);
    }
    let p2p = [&deepseek[..], &["long.strategy=p2p"]].concat();
    for kernels in ["interpreter", "cranelift", "llvm-cpu"] {
        run_checked("dsl-examples/deepseek_v3_mla.attn", &p2p, &["--kernels", kernels]);
    }
    let bf16 = [&p2p[..], &["long.dtype=bf16"]].concat();
    run_checked("dsl-examples/deepseek_v3_mla.attn", &bf16, &["--kernels", "gpu-emulated"]);
    let plan = check(
        &["plan", "dsl-examples/deepseek_v3_mla.attn", "--layout", "long", "--stats"],
        0,
        "head_dim 192 v_head_dim 128",
        "",
    );
    assert!(plan.contains("RoPE theta 10000 on dims 128..192"), "{plan}");
    // K and V at their own widths: 4096 rows × 128 heads × (192 + 128) × 2 bytes.
    assert!(plan.contains("buffer kv           kv       rows     4096 heads 128  320.0 MiB"), "{plan}");
    // Chunked layers: TransformerEngine has no mask for them, so Megatron's arguments cannot say them.
    check(
        &["tune", "dsl-examples/llama4_scout_nope.attn", "--layout", "long", "--emit", "megatron"],
        1,
        "",
        "TransformerEngine has no chunked-attention mask",
    );
    // Without the chunks, the NoPE layers are Megatron's --no-rope-freq.
    check(
        &[
            "tune",
            "dsl-examples/llama4_scout_nope.attn",
            "--layout",
            "long",
            "--set",
            "long.mask=causal",
            "--emit",
            "megatron",
        ],
        0,
        "--no-rope-freq 4",
        "",
    );
    let megatron = check(
        &["tune", "dsl-examples/deepseek_v3_mla.attn", "--layout", "long", "--emit", "megatron"],
        0,
        "--multi-latent-attention --qk-head-dim 128 --qk-pos-emb-head-dim 64 --v-head-dim 128",
        "MLA's low-rank projections (--q-lora-rank, --kv-lora-rank) act before attention",
    );
    assert!(!megatron.contains("--kv-channels") && !megatron.contains("--rotary-percent"), "{megatron}");
    // Partial RoPE without MLA: Megatron's --rotary-percent, and the note on which dims rotate.
    check(
        &[
            "tune",
            "dsl-examples/deepseek_v3_mla.attn",
            "--layout",
            "long",
            "--set",
            "deepseek_v3.v_head_dim=192",
            "--emit",
            "megatron",
        ],
        0,
        "--rotary-percent 0.3333333333333333",
        "rotates the first 64 dims of each head, the spec the last",
    );
}

/// `sinks = learned` through `attnc run`: the `sinks` input (`[heads]`), the `dsinks` output, the
/// check against fp64 with the sink in every row's denominator, and the errors that name the
/// tensor.
#[test]
fn learned_sinks_in_and_out() {
    let with_sinks = |path: &Path, shape: Vec<usize>| {
        let mut map = tensor::read_file(path).unwrap();
        let n: usize = shape.iter().product();
        map.insert(
            "sinks".to_string(),
            HostTensor::float(shape, StDtype::F32, (0..n).map(|i| i as f32 * 0.5).collect()),
        );
        tensor::write_file(path, &map).unwrap();
    };
    let sinks = ["--set", "llama3_8b.sinks=learned"];
    let (plain, given, wrong) =
        (temp("sinks-plain.safetensors"), temp("sinks.safetensors"), temp("sinks-3.safetensors"));
    for p in [&plain, &given, &wrong] {
        write_inputs(p, "", vec![64, 1, 4, 8], false);
    }
    with_sinks(&given, vec![4]);
    with_sinks(&wrong, vec![3]);
    let output = temp("sinks-out.safetensors");
    let (i, o) = (given.to_str().unwrap(), output.to_str().unwrap());
    let out = run_small(&[&sinks[..], &["--inputs", i, "--out", o, "--backward", "--check"]].concat(), 0, "dsinks", "");
    assert!(!out.contains("FAIL"), "{out}");
    let files = tensor::read_file(&output).unwrap();
    assert_eq!((files["dsinks"].shape.clone(), files["dsinks"].dtype), (vec![4], StDtype::F32));
    let missing = ["--inputs", plain.to_str().unwrap(), "--backward"];
    run_small(&[&sinks[..], &missing].concat(), 1, "", "input `sinks` is missing from");
    run_small(&["--inputs", i], 1, "", "input `sinks` is given, but the model has no learned sinks");
    let shape = ["--inputs", wrong.to_str().unwrap()];
    run_small(&[&sinks[..], &shape].concat(), 1, "", "input `sinks` has shape [3], the layout needs [4]");
    // Random inputs (no --inputs) draw the sinks too.
    run_small(&[&sinks[..], &["--backward", "--check"]].concat(), 0, "dsinks", "");
}

/// Learned score parameters through `attnc run`: the `params` input (`[heads, n]`), the `dparams`
/// output checked against fp64, the errors that name the tensor, and parameters that make the
/// score infinite named with the rank, the op and their values.
#[test]
fn learned_score_parameters_in_and_out() {
    let with_params = |path: &Path, shape: Vec<usize>, last: f32| {
        let mut map = tensor::read_file(path).unwrap();
        let n: usize = shape.iter().product();
        let values = (0..n).map(|i| if i + 1 == n { last } else { 0.01 * i as f32 }).collect();
        map.insert("params".to_string(), HostTensor::float(shape, StDtype::F32, values));
        tensor::write_file(path, &map).unwrap();
    };
    let learned =
        ["--set", "llama3_8b.params=[slope, temp]", "--set", "llama3_8b.score=s * exp(temp[h]) - slope[h] * (q - k)"];
    let (plain, given, wrong, huge) = (
        temp("params-plain.safetensors"),
        temp("params.safetensors"),
        temp("params-4.safetensors"),
        temp("params-huge.safetensors"),
    );
    for p in [&plain, &given, &wrong, &huge] {
        write_inputs(p, "", vec![64, 1, 4, 8], false);
    }
    with_params(&given, vec![4, 2], 0.02);
    with_params(&wrong, vec![4], 0.02);
    with_params(&huge, vec![4, 2], 1000.0);
    let output = temp("params-out.safetensors");
    let (i, o) = (given.to_str().unwrap(), output.to_str().unwrap());
    let out =
        run_small(&[&learned[..], &["--inputs", i, "--out", o, "--backward", "--check"]].concat(), 0, "dparams", "");
    assert!(!out.contains("FAIL"), "{out}");
    let files = tensor::read_file(&output).unwrap();
    assert_eq!((files["dparams"].shape.clone(), files["dparams"].dtype), (vec![4, 2], StDtype::F32));
    let missing = ["--inputs", plain.to_str().unwrap(), "--backward"];
    run_small(&[&learned[..], &missing].concat(), 1, "", "input `params` is missing from");
    run_small(&["--inputs", i], 1, "", "input `params` is given, but the model's score has no learned parameters");
    let shape = ["--inputs", wrong.to_str().unwrap()];
    run_small(&[&learned[..], &shape].concat(), 1, "", "input `params` has shape [4], the layout needs [4, 2]");
    let infinite = ["--inputs", huge.to_str().unwrap()];
    run_small(
        &[&learned[..], &infinite].concat(),
        1,
        "",
        "is not finite at query head 3 of document 0 with its learned parameters",
    );
    // Random inputs (no --inputs) draw the parameters too.
    run_small(&[&learned[..], &["--backward", "--check"]].concat(), 0, "dparams", "");
}

/// ALiBi under tensor parallelism: a TP slice's heads count from its first (`--tp-rank R`: R
/// times the heads per rank), in the kernels' per-head values and in the fp64 reference alike,
/// and a rank outside the layout's tp is refused.
#[test]
fn alibi_heads_count_from_the_tensor_parallel_slice() {
    let args = |rank: &'static str| {
        vec![
            "run",
            "dsl-examples/bloom_alibi.attn",
            "--layout",
            "ring",
            "--set",
            "ring.tp=2",
            "--set",
            "ring.cp=4",
            "--set",
            "ring.seq=256",
            "--set",
            "bloom_7b1.head_dim=16",
            "--backward",
            "--check",
            "--tp-rank",
            rank,
        ]
    };
    for rank in ["0", "1"] {
        let out = check(&args(rank), 0, "check against fp64", "");
        assert!(!out.contains("FAIL"), "--tp-rank {rank}:\n{out}");
    }
    check(&args("2"), 2, "", "--tp-rank 2: layout `ring` has tp = 2, so its ranks are 0..2");
}
