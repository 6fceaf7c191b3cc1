//! The specs imported from Hugging Face configs (`dsl-examples/imported/`, written by
//! `scripts/import-examples` from transformers' config classes): each is what `attnc import hf`
//! prints for its checked-in config today (its first line is the command), and each checks clean,
//! is canonical, plans, gets TransformerEngine's verdict from `tune --for te`, and runs against
//! fp64 attention when shrunk with `--set`.

mod common;

use common::*;

/// Each imported spec, with the command of its first line.
fn imported() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = std::fs::read_dir(root().join("dsl-examples/imported"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "attn"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let command = text.lines().next().unwrap().split('`').nth(1).expect("a `command` in the first line");
            let args: Vec<String> = command.split_whitespace().skip(1).map(str::to_string).collect();
            (format!("dsl-examples/imported/{}", p.file_name().unwrap().to_string_lossy()), args)
        })
        .collect();
    out.sort();
    assert_eq!(out.len(), 6, "{out:?}");
    out
}

#[test]
fn imported_examples_are_what_import_prints() {
    for (path, args) in imported() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let printed = check(&args, 0, "", "");
        let file = std::fs::read_to_string(root().join(&path)).unwrap();
        assert_eq!(printed, file, "{path}: rerun scripts/import-examples");
    }
}

/// The model name of an imported spec (its `--name`).
fn model_name(args: &[String]) -> &str {
    let at = args.iter().position(|a| a == "--name").expect("--name");
    &args[at + 1]
}

#[test]
fn imported_examples_check_plan_tune_and_run() {
    for (path, args) in imported() {
        let name = model_name(&args);
        check(&["check", &path], 0, "", "0 errors");
        check(&["fmt", "--check", &path], 0, "", "");
        let plan = check(&["plan", &path], 0, "plan `pretrain` layers", "");
        // TransformerEngine's verdict: a strategy per layer class, or (Llama-4's chunks) why not.
        if name == "llama4_scout" {
            check(&["tune", &path, "--for", "te"], 1, "", "TransformerEngine has no chunked-attention mask");
        } else {
            check(&["tune", &path, "--for", "te"], 0, "choice:", "");
        }
        let mut shrunk = vec![
            "pretrain.seq=512".to_string(),
            "pretrain.cp=4".into(),
            "pretrain.dtype=fp32".into(),
            format!("{name}.heads=4"),
        ];
        if name == "deepseek_v3" {
            // MLA: q/k heads of 24 with the last 8 rotated, value heads of 16.
            shrunk.extend([
                format!("{name}.kv_heads=4"),
                format!("{name}.head_dim=24"),
                format!("{name}.v_head_dim=16"),
                format!("{name}.rope.dims=8"),
            ]);
        } else {
            shrunk.extend([format!("{name}.kv_heads=2"), format!("{name}.head_dim=16")]);
        }
        let mut run = vec!["run", path.as_str(), "--layout", "pretrain", "--backward", "--check", "--rope", "apply"];
        for s in &shrunk {
            run.extend(["--set", s.as_str()]);
        }
        let out = check(&run, 0, "check against fp64", "");
        assert!(!out.contains("FAIL"), "{path}:\n{out}");
        if name == "gemma3_27b" {
            // The softmax scale and both RoPEs on every CPU kernel set (bf16 on the emulated GPU ABI).
            for kernels in ["interpreter", "reference", "llvm-cpu"] {
                let with = [&run[..], &["--kernels", kernels]].concat();
                let out = check(&with, 0, "check against fp64", "");
                assert!(!out.contains("FAIL"), "{kernels}:\n{out}");
            }
            let bf16 = [&run[..], &["--kernels", "gpu-emulated", "--set", "pretrain.dtype=bf16"]].concat();
            let out = check(&bf16, 0, "check against fp64", "");
            assert!(!out.contains("FAIL"), "gpu-emulated:\n{out}");
        }
        let classes = out.matches("check against fp64").count();
        assert_eq!(out.matches("  o  ").count(), classes, "{path}: every class checked o:\n{out}");
        // What the configs say per layer reaches the plans.
        match name {
            "qwen3_next_80b" => {
                assert!(plan.contains("linear_attention, not planned"), "{plan}");
                assert!(plan.contains("plan `pretrain` layers 3..48 step 4"), "{plan}");
                // A linear-attention layer has no plan: `plan --layer` says why, `run` refuses it.
                check(&["plan", &path, "--layer", "0"], 0, "layers 0..3, 4..7", "");
                check(
                    &["run", &path, "--layer", "1"],
                    2,
                    "",
                    "--layer 1: layer 1 of model `qwen3_next_80b` is linear_attention, which attnc does not plan",
                );
            }
            "gemma3_27b" => {
                assert!(plan.contains("RoPE theta 1000000, linear x8, softmax scale 0.0771516749810459"), "{plan}");
                assert!(plan.contains("RoPE theta 10000, softmax scale"), "{plan}");
            }
            "gpt_oss_120b" => assert!(plan.contains("RoPE theta 150000, yarn x32"), "{plan}"),
            "glm4_5" => assert!(plan.contains("RoPE theta 10000 on dims 0..64"), "{plan}"),
            "deepseek_v3" => assert!(plan.contains("on dims 128..192, yarn x40, softmax scale 0.135"), "{plan}"),
            "llama4_scout" => assert!(plan.contains("no RoPE") && plan.contains("llama3 x16"), "{plan}"),
            _ => panic!("an imported example without its per-layer check: {name}"),
        }
    }
}

#[test]
fn imported_examples_print_megatron_arguments_with_their_rope() {
    let cases = [
        (
            "gpt_oss_120b",
            "--position-embedding-type yarn --rotary-base 150000 --rotary-scaling-factor 32 --yarn-original-max-position-embeddings 4096 --yarn-beta-fast 32 --yarn-beta-slow 1 --no-yarn-correction-range-round-to-int",
            "",
        ),
        (
            "deepseek_v3",
            "--rope-type yarn --rotary-base 10000 --rotary-scaling-factor 40 --mscale 1 --mscale-all-dim 1",
            "",
        ),
        ("glm4_5", "--rotary-percent 0.5", ""),
        ("gemma3_27b", "--rotary-base 10000", "Megatron-LM has no flag for it; set TransformerConfig.softmax_scale"),
        ("qwen3_next_80b", "--rotary-percent 0.25", "--hybrid-layer-pattern"),
    ];
    for (name, args, note) in cases {
        let path = format!("dsl-examples/imported/{name}.attn");
        let out = check(&["tune", &path, "--emit", "megatron"], 0, args, note);
        // No note about a rotated share for `fraction` (Megatron's rotary percent is the first dims too).
        assert!(!out.contains("checkpoint moves between them"), "{out}");
    }
}
