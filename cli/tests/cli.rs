//! The CLI's contract: exit codes (0 clean or warnings, 1 input errors, 2 usage or I/O),
//! `--emit json`, `--set`, `fmt --check`, and `explain`.

mod common;

use common::*;

fn examples(dir: &str) -> Vec<String> {
    let root = root();
    let mut files: Vec<String> = std::fs::read_dir(root.join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "attn"))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    files
}

#[test]
fn all_examples_check_clean_together() {
    let files = examples("dsl-examples");
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    check(&args, 0, "", "");
}

#[test]
fn every_error_spec_exits_1() {
    let root = root();
    for file in examples("dsl-examples/errors") {
        let flags = attnc_codegen_tests::corpus_flags(&std::fs::read_to_string(root.join(&file)).unwrap());
        let mut args = vec!["check", file.as_str()];
        args.extend(flags.iter().map(String::as_str));
        check(&args, 1, "", "error[E");
    }
}

/// One row per invocation: arguments, exit code, text stdout must contain, text stderr must contain.
type Case<'a> = (&'a [&'a str], i32, &'a str, &'a str);

fn check_cases(cases: &[Case<'_>]) {
    for &(args, code, stdout_has, stderr_has) in cases {
        check(args, code, stdout_has, stderr_has);
    }
}

#[test]
fn exit_codes_and_flags() {
    check_cases(&[
        (&["check", "no/such/file.attn"], 2, "", "cannot read `no/such/file.attn`"),
        (&["check"], 2, "", "Usage"),
        (&["check", LLAMA, "--emit", "json"], 0, "\"seq\": 131072", ""),
        (
            &["check", LLAMA, "--set", "pretrain.cp=4", "--set", "pretrain.seq=2048", "--emit", "json"],
            0,
            "\"seq\": 2048",
            "",
        ),
        (&["check", LLAMA, "--set", "pretrain.seq=1000"], 1, "", "--set:1:14"),
        (&["check", LLAMA, "--set", "pretrian.cp=4"], 2, "", "did you mean `pretrain`?"),
        (&["check", LLAMA, "--set", "pretrain.cp"], 2, "", "`--set` takes ITEM.FIELD=VALUE"),
        (&["check", LLAMA, "--set", "pretrain.cpp=4"], 1, "", "did you mean `cp`?"),
        (&["check", LLAMA, "--set", "llama3_8b.rope.theta=1e6", "--emit", "json"], 0, "\"theta\": 1000000.0", ""),
        (&["check", LLAMA, "--set", "two_nodes.intra.bandwidth=900 GB/s", "--emit", "json"], 0, "900000000000.0", ""),
        (&["check", "dsl-examples/qwen2_gqa_ulysses.attn"], 0, "", "warning[W0002]"),
        (&["fmt", "--check", LLAMA], 0, "", ""),
        (&["fmt", LLAMA], 0, "model llama3_8b {", ""),
        (&["fmt", "--check", LLAMA, "--set", "pretrain.cp=4"], 1, "", "not in canonical form"),
        (&["explain", "E0011"], 0, "Zigzag", ""),
        (&["explain", "e0011"], 0, "2*cp", ""),
        (&["explain", "all"], 0, "W0005", ""),
        (&["explain", "E9999"], 2, "", "not a diagnostic code"),
    ]);
}

/// `--for te[=VERSION]`: TransformerEngine's restrictions as errors for that version, warnings
/// about the newest without it.
#[test]
fn transformer_engine_target() {
    const GEMMA: &str = "dsl-examples/gemma2_alternating.attn";
    const MISTRAL: &str = "dsl-examples/mistral_sliding_window.attn";
    let sft_all_gather = ["--set", "sft.strategy=all_gather", "--seqlens", "100"];
    check_cases(&[
        (
            &["check", "--for", "te", GEMMA],
            1,
            "",
            "TransformerEngine says: Context parallelism does not support sliding window attention with cp_comm_type='p2p'!",
        ),
        (&["check", GEMMA], 0, "", "warning[W0006]: the newest TransformerEngine (2.20) does not run this"),
        // Soft-capping is no strategy's doing: TE has no argument for it.
        (
            &["check", "--for", "te", GEMMA, "--set", "alternating.strategy=a2a"],
            1,
            "",
            "TransformerEngine has no logit soft-capping argument",
        ),
        (
            &["check", "--for", "te", MISTRAL, "--set", "long_window.strategy=a2a"],
            0,
            "",
            "checked 1 layout in 1 file: 0 errors",
        ),
        // THD over all_gather: TE 2.18 added it.
        (
            &[&["plan", "--for", "te=2.17", SFT][..], &sft_all_gather[..]].concat(),
            1,
            "",
            "before 2.18, all_gather does not take THD",
        ),
        (&[&["plan", "--for", "te=2.18", SFT][..], &sft_all_gather[..]].concat(), 0, "", ""),
        (&["check", "--for", "te=2.21", LLAMA], 0, "", "note: TransformerEngine 2.21 is newer than the support matrix"),
        (&["check", "--for", "te=1.9", LLAMA], 2, "", "older than the support matrix, which starts at 1.12"),
        (&["explain", "E0031"], 0, "TransformerEngine", ""),
    ]);
}

#[test]
fn partition_and_groups_commands() {
    check_cases(&[
        (
            &["partition", LLAMA, "--layout", "pretrain", "--set", "pretrain.seq=64", "--set", "pretrain.cp=2"],
            0,
            "\"tokens\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,48,",
            "",
        ),
        (&["partition", SFT, "--layout", "sft", "--seqlens", "5,9"], 0, "\"cu_seqlens_padded\":[0,16,32]", ""),
        (&["partition", SFT, "--layout", "sft"], 2, "", "--seqlens"),
        (&["partition", SFT, "--layout", "nope"], 2, "", "--layout `nope`"),
        (&["partition", SFT, "--layout", "sft", "--seqlens", "5", "--emit", "text"], 2, "", "invalid value 'text'"),
        (
            &["groups", "--world", "16", "--tp", "2", "--pp", "4"],
            0,
            "\"pp\":[[0,4,8,12],[1,5,9,13],[2,6,10,14],[3,7,11,15]]",
            "",
        ),
        (&["groups", "--world", "16", "--cp", "16", "--hierarchy", "2,2,4"], 0, "\"hierarchical\":[[[0,1],", ""),
        (&["groups", "--world", "16", "--cp", "4", "--hybrid"], 0, "\"hybrid\":{\"2\":[[0,1],", ""),
        (&["groups", "--world", "12", "--tp", "8"], 2, "", "--world 12 is not a multiple of tp*cp*pp = 8"),
        (&["groups", "--world", "16", "--tp", "2", "--ep", "3"], 2, "", "--world 16 is not a multiple of tp*ep*pp = 6"),
    ]);
}

#[test]
fn plan_command() {
    check_cases(&[
        (&["plan", LLAMA, "--layout", "pretrain", "--rank", "3"], 0, "rank 3\n", ""),
        (
            &["plan", LLAMA, "--layout", "pretrain", "--rank", "3", "--backward", "--stats"],
            0,
            "stats: balance 1.000",
            "",
        ),
        (&["plan", LLAMA, "--layout", "pretrain", "--emit", "dot", "--rank", "0"], 0, "digraph {", ""),
        (
            &["plan", LLAMA, "--layout", "pretrain", "--rank", "16"],
            2,
            "",
            "--rank 16: layout `pretrain` has CP ranks 0..16",
        ),
        (&["plan", LLAMA, "--layout", "pretrian"], 2, "", "did you mean `--layout pretrain`?"),
        (
            &["plan", LLAMA, "--layout", "pretrain", "--layer", "40"],
            2,
            "",
            "--layer 40: model `llama3_8b` has layers 0..32",
        ),
        (&["plan", LLAMA, "--layout", "pretrain", "--set", "pretrain.strategy=auto"], 0, "a2a+p2p [8,2]", ""),
        (&["plan", SFT, "--layout", "sft"], 1, "", "give the packed sequence lengths"),
        (&["plan", SFT, "--layout", "sft", "--seqlens", "100,4000,37", "--verify", "--rank", "1"], 0, "padding", ""),
        (&["plan", "dsl-examples/mixed_per_layer.attn", "--layout", "mixed", "--layer", "35"], 0, "all_gather", ""),
    ]);
    // The JSON artifact is versioned and carries every rank's ops.
    let out = attnc(&["plan", LLAMA, "--layout", "pretrain", "--backward", "--stats", "--emit", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["version"], 1);
    let class = &json["classes"][0];
    assert_eq!(class["forward"]["header"]["cp"], 16);
    assert!(class["backward"]["ops"].as_array().unwrap().iter().any(|op| op["op"] == "attn_bwd"));
    assert!(class["stats"]["forward"]["balance"].as_f64().unwrap() < 1.05);
}

/// p2p and all_gather under gpt-oss's 128-token window at 128K over cp 8 are a halo exchange: every rank
/// receives exactly the lower bound (the window's 127 rows before each of its zigzag pieces that
/// another rank holds), forward and backward, at most 2·(W − 1) rows per direction; the
/// full-attention layers of the same model keep the ring, at or above the bound.
#[test]
fn windows_move_only_their_halo() {
    for strategy in ["p2p", "all_gather"] {
        let set = format!("long.strategy={strategy}");
        let args = ["plan", "dsl-examples/gpt_oss_sinks.attn", "--layout", "long", "--set", &set];
        let out = attnc(&[&args[..], &["--backward", "--stats", "--emit", "json"]].concat());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        halo_at_the_bound(&json);
    }
    // Megatron-LM's arguments follow TransformerEngine: learned sinks run only under a2a there, so
    // `--emit megatron` (which implies `--for te`) chooses a2a for every layer, not attnc's halos.
    let tune = ["tune", "dsl-examples/gpt_oss_sinks.attn", "--layout", "long", "--emit", "megatron"];
    check_cases(&[(&tune, 0, "--cp-comm-type a2a --window-size 127,0", "")]);
}

/// At the p2p level of `a2a+p2p` the halos are cut from the KV blocks the all-to-all brought
/// (`copy_rows`): under gpt-oss's window of 128, each rank receives at most W − 1 rows from each
/// neighbour and no ring step; its full-causal layers keep the ring.
#[test]
fn hierarchical_windows_exchange_halos() {
    let set = "long.strategy=a2a+p2p { hierarchy = [2, 4] }";
    let args =
        ["plan", "dsl-examples/gpt_oss_sinks.attn", "--layout", "long", "--set", set, "--backward", "--emit", "json"];
    let out = attnc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for class in json["classes"].as_array().unwrap() {
        let windowed = class["mask"].as_str().unwrap().contains("window = 128");
        for direction in ["forward", "backward"] {
            let plan = &class[direction];
            let buffers = plan["buffers"].as_array().unwrap();
            let halos: Vec<_> = buffers.iter().filter(|b| b["halo"] == true).collect();
            let steps = buffers.iter().any(|b| b["name"].as_str().unwrap().starts_with("kv.step"));
            let copies = plan["ops"].as_array().unwrap().iter().filter(|o| o["op"] == "copy_rows").count();
            if windowed {
                assert!(!halos.is_empty() && !steps && copies == halos.len(), "{direction}: {halos:?}");
                for rank in 0..8 {
                    let rows: u64 =
                        halos.iter().filter(|b| b["rank"] == rank).map(|b| b["rows"].as_u64().unwrap()).sum();
                    assert!(rows <= 2 * 127, "{direction} rank {rank} receives {rows} halo rows");
                }
                assert!(halos.iter().all(|b| b["rows"].as_u64().unwrap() <= 127));
            } else {
                assert!(halos.is_empty() && steps && copies == 0, "{direction}: the causal layers keep the ring");
            }
        }
    }
}

/// The cost model chooses the exchange per layer class: Mistral's window of 4096 at 32K over
/// cp 8 moves halos; a window of 16384 (half the sequence) keeps the ring, whose shifts hide
/// behind compute while the halo exchange moves nearly as much. `attnc tune` prints both times.
#[test]
fn the_cost_model_chooses_halo_or_ring() {
    for (window, halo) in [(4096, true), (16384, false)] {
        let set = format!("long_window.mask=causal {{ window = {window} }}");
        let file = "dsl-examples/mistral_sliding_window.attn";
        let json = mistral_window_plan(window, &[]);
        for direction in ["forward", "backward"] {
            let buffers = json["classes"][0][direction]["buffers"].as_array().unwrap().clone();
            assert_eq!(halos_and_steps(&json, direction), (halo, !halo), "window {window} {direction}");
            // The ring is trimmed forward (cuts, step buffers shorter than a shard), whole backward.
            let ops = json["classes"][0][direction]["ops"].as_array().unwrap().clone();
            let cuts = ops.iter().any(|o| o["op"] == "copy_rows");
            let rows =
                |name: &str| buffers.iter().filter(|b| b["name"] == name).map(|b| b["rows"].as_u64().unwrap()).max();
            let shorter = buffers
                .iter()
                .filter(|b| b["name"].as_str().unwrap().starts_with("kv.step"))
                .any(|b| Some(b["rows"].as_u64().unwrap()) < rows("kv"));
            if !halo {
                assert_eq!(
                    (cuts, shorter),
                    (direction == "forward", direction == "forward"),
                    "window {window} {direction}"
                );
            }
        }
        let out = attnc(&["tune", file, "--layout", "long_window", "--set", &set]);
        let text = String::from_utf8_lossy(&out.stdout);
        let chosen = if halo { "the halo exchange" } else { "the ring" };
        let line = text.lines().find(|l| l.contains("exchange under p2p:")).unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains("the halo exchange") && line.ends_with(&format!("its row above is {chosen}")), "{line}");
    }
}

/// `--exchange` forces either exchange on a window's layers: `own` keeps Mistral's ring at a window
/// of 4096 (where the cost model takes halos), `halo` takes halos at 16384 (where it keeps the
/// ring), and `attnc tune` then plays only the forced one.
#[test]
fn the_exchange_flag_forces_either() {
    let file = "dsl-examples/mistral_sliding_window.attn";
    for (window, flag, halo) in [(4096, "own", false), (16384, "halo", true)] {
        let set = format!("long_window.mask=causal {{ window = {window} }}");
        let json = mistral_window_plan(window, &["--exchange", flag]);
        for direction in ["forward", "backward"] {
            let got = halos_and_steps(&json, direction);
            assert_eq!(got, (halo, !halo), "--exchange {flag} at window {window} {direction}");
        }
        let out = attnc(&["tune", file, "--layout", "long_window", "--set", &set, "--exchange", flag]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && !text.contains("exchange under"), "{text}");
    }
    let out = attnc(&["plan", file, "--layout", "long_window", "--exchange", "ring"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && stderr.contains("[possible values: auto, halo, own]"), "{stderr}");
}

/// Mistral's JSON plans (forward and backward) under a window of `window`, with `extra` flags.
fn mistral_window_plan(window: u32, extra: &[&str]) -> serde_json::Value {
    let set = format!("long_window.mask=causal {{ window = {window} }}");
    let file = "dsl-examples/mistral_sliding_window.attn";
    let args = ["plan", file, "--layout", "long_window", "--set", &set, "--backward", "--emit", "json"];
    let out = attnc(&[&args[..], extra].concat());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Whether a plan of the first class in `direction` has halo buffers, and ring step buffers.
fn halos_and_steps(json: &serde_json::Value, direction: &str) -> (bool, bool) {
    let buffers = json["classes"][0][direction]["buffers"].as_array().unwrap();
    let halos = buffers.iter().any(|b| b["halo"] == true);
    let steps = buffers.iter().any(|b| b["name"].as_str().unwrap().starts_with("kv.step"));
    (halos, steps)
}

fn halo_at_the_bound(json: &serde_json::Value) {
    for class in json["classes"].as_array().unwrap() {
        let windowed = class["mask"].as_str().unwrap().contains("window = 128");
        for direction in ["forward", "backward"] {
            for r in class["stats"][direction]["ranks"].as_array().unwrap() {
                let received =
                    r["received_intra_bytes"].as_u64().unwrap() + r["received_inter_bytes"].as_u64().unwrap();
                let min = r["needed"]["min_received_bytes"].as_u64().unwrap();
                if windowed {
                    assert_eq!(received, min, "{direction} rank {}: {r}", r["rank"]);
                    assert!(r["needed"]["remote_rows"].as_u64().unwrap() <= 2 * 127, "{r}");
                } else {
                    // The causal ring moves whole shards: never below the bound.
                    assert!(received >= min, "{direction}: {r}");
                }
            }
        }
        let ops = class["forward"]["ops"].as_array().unwrap();
        assert!(ops.iter().any(|op| op["op"] == "send_recv" || op["op"] == "all_gather"), "every class communicates");
    }
}

#[test]
fn schedule_command() {
    let lengths = "dsl-examples/lengths/sft_batch.txt";
    let base = ["schedule", "--lengths", lengths, "--dp-cp", "16", "--max-seqlen-per-rank", "8192"];
    let with = |extra: &[&'static str]| -> Vec<&str> { base.iter().copied().chain(extra.iter().copied()).collect() };
    check_cases(&[
        (&with(&[]), 0, "GPUs 0..16  cp 16", ""),
        (&with(&["--algorithm", "megatron"]), 0, "algorithm megatron", ""),
        (&with(&["--emit", "json"]), 0, "\"imbalance\"", ""),
        (&["schedule", "--lengths", lengths, "--dp-cp", "12", "--max-seqlen-per-rank", "8192"], 1, "", "power of two"),
        (
            &["schedule", "--lengths", lengths, "--dp-cp", "4", "--max-seqlen-per-rank", "8192"],
            1,
            "",
            "sub-sample 3 (length 46864) needs 8 GPUs",
        ),
        (
            &["schedule", "--lengths", "no/such/file", "--dp-cp", "4", "--max-seqlen-per-rank", "8192"],
            2,
            "",
            "--lengths no/such/file",
        ),
    ]);
    // JSON: one record per step, GPUs × sample ids, per-GPU workload, max/mean imbalance.
    let out = attnc(&with(&["--emit", "json"]));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let steps = json["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    for step in steps {
        assert_eq!(step["gpus"].as_array().unwrap().len(), 16);
        let load: Vec<f64> = serde_json::from_value(step["workload"].clone()).unwrap();
        let mean = load.iter().sum::<f64>() / 16.0;
        let max = load.iter().cloned().fold(0.0, f64::max);
        assert!((step["imbalance"].as_f64().unwrap() - max / mean).abs() < 1e-9);
    }
    // A bad line names the file, line and column.
    let bad = std::env::temp_dir().join(format!("attnc-lengths-{}.txt", std::process::id()));
    std::fs::write(&bad, "100\n  12x\n").unwrap();
    let bad_path = bad.to_string_lossy().to_string();
    let expected = format!("{bad_path}:2:3: `12x` is not a sub-sample length");
    check(&["schedule", "--lengths", &bad_path, "--dp-cp", "4", "--max-seqlen-per-rank", "8192"], 1, "", &expected);
    check(
        &["schedule", "--lengths", &bad_path, "--dp-cp", "4", "--max-seqlen-per-rank", "8192"],
        1,
        "",
        "help: one positive",
    );
    std::fs::remove_file(bad).unwrap();
}

/// `balance = auto`: the cost model picks the split. Mistral's 4096-token window under p2p moves
/// one halo per rank when split contiguously (two under zigzag) at the same slowest-rank FLOPs, so
/// the plan splits contiguously; `attnc tune` says which split auto chooses, and `--emit
/// megatron` that Megatron splits zigzag only.
#[test]
fn balance_auto_chooses_the_split() {
    let file = "dsl-examples/mistral_sliding_window.attn";
    let sets = ["--set", "long_window.balance=auto", "--set", "long_window.strategy=p2p"];
    let out = attnc(&[&["plan", file, "--layout", "long_window", "--rank", "0"][..], &sets].concat());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("load q <- q tokens 0..4096\n"), "{stdout}");
    let out = attnc(&[&["tune", file, "--layout", "long_window", "--emit", "megatron"][..], &sets].concat());
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("balance = auto: Megatron-LM splits zigzag only"), "{stderr}");
    assert!(stdout.contains("--context-parallel-size 8"), "{stdout}");
    let out = attnc(&[&["tune", file, "--layout", "long_window"][..], &sets].concat());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("`balance = auto` chooses"), "{stdout}");
}

/// `attnc import hf`: a config.json becomes a spec that checks and plans; what attnc does not model
/// is a warning naming the field and the generated line; a bad config names its JSON path.
#[test]
fn import_hf_writes_a_spec_that_checks_and_plans() {
    let config = temp("gpt_oss_config.json");
    let types: Vec<&str> =
        (0..4).map(|i| if i % 2 == 0 { "\"sliding_attention\"" } else { "\"full_attention\"" }).collect();
    std::fs::write(
        &config,
        format!(
            "{{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 4, \"num_attention_heads\": 8, \
             \"num_key_value_heads\": 2, \"head_dim\": 64, \"hidden_size\": 512, \"rope_theta\": 150000, \
             \"sliding_window\": 128, \"rope_scaling\": {{\"rope_type\": \"dynamic\", \"factor\": 32.0, \
             \"original_max_position_embeddings\": 4096}}, \"layer_types\": [{}]}}",
            types.join(", ")
        ),
    )
    .unwrap();
    let (config, spec) = (config.to_str().unwrap(), temp("gpt_oss.attn"));
    let spec = spec.to_str().unwrap();
    check(
        &["import", "hf", config, "--cluster", "1x4", "--seq", "4K", "-o", spec],
        0,
        "",
        "$.rope_scaling: dynamic RoPE scaling (factor 32): attnc rotates with linear, llama3 and yarn scaling only",
    );
    let text = std::fs::read_to_string(spec).unwrap();
    assert!(
        text.contains("sinks    = learned") && text.contains("layer 0..3 step 2 { mask = causal { window = 128 } }"),
        "{text}"
    );
    check(&["check", spec], 0, "", "0 errors");
    check(&["plan", spec], 0, "plan `pretrain` layers 0..1, 2..3", "");

    let bad = temp("bad_config.json");
    std::fs::write(&bad, "{\"num_hidden_layers\": 4, \"num_attention_heads\": [8]}").unwrap();
    check(&["import", "hf", bad.to_str().unwrap()], 1, "", "$.num_attention_heads: invalid type: sequence");
    check(&["import", "hf", config, "--seq", "4K"], 2, "", "--cluster and --seq go together");
}

/// A score that reads positions warns where sequences pass 2^24 tokens (f32 positions), and not
/// at 2^24 itself.
#[test]
fn a_score_reading_positions_warns_beyond_f32s_exact_integers() {
    let spec = |seq: u64| {
        format!(
            "model m {{\n  layers = 2\n  heads = 8\n  head_dim = 64\n  score = s - (q - k) / 4096\n}}\n\
             cluster c {{\n  nodes = 1\n  gpus_per_node = 8\n  gpu = h100_sxm\n}}\n\
             layout long {{\n  model = m\n  cluster = c\n  format = bshd\n  batch = 1\n  seq = {seq}\n  \
             dtype = bf16\n  mask = causal\n  cp = 8\n  strategy = p2p\n}}\n"
        )
    };
    let path = temp("positions.attn");
    std::fs::write(&path, spec(1 << 25)).unwrap();
    let p = path.to_str().unwrap();
    check(&["check", p], 0, "", "warning[W0011]: the score reads positions");
    std::fs::write(&path, spec(1 << 24)).unwrap();
    let out = attnc(&["check", p]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("W0011"));
}
