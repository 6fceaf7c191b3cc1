//! Following the CLI's help lines: every `help:` that suggests a flag or a value is run as the
//! user would run it — the suggested flags added to (or replacing) the failing command — and the
//! command then succeeds. The spec diagnostics' help lines are followed in
//! `codegen-tests/tests/help_lines.rs`.

mod common;

use common::*;

use std::process::Command;

/// The help line of a failed command's error.
fn help_of(args: &[&str], code: i32) -> String {
    let out = attnc(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "attnc {args:?}:\n{stderr}");
    // The error's help, not a warning's before it.
    stderr
        .lines()
        .skip_while(|l| !l.starts_with("error"))
        .find_map(|l| l.trim().trim_start_matches("= ").strip_prefix("help: "))
        .unwrap_or_else(|| panic!("no help in:\n{stderr}"))
        .to_string()
}

/// The `n`th backtick-quoted part of a help line, split into arguments.
fn quoted_args(help: &str, n: usize) -> Vec<String> {
    let quoted = help.split('`').nth(2 * n + 1).unwrap_or_else(|| panic!("no quoted part {n} in {help:?}"));
    quoted.split_whitespace().map(str::to_string).collect()
}

/// Runs `args` with `extra` replacing any flag of the same name, and expects exit 0.
fn succeeds(args: &[&str], extra: &[String]) -> String {
    let mut full: Vec<String> = Vec::new();
    let mut skip = false;
    for (i, a) in args.iter().enumerate() {
        if skip {
            skip = false;
            continue;
        }
        if a.starts_with("--") && extra.iter().any(|e| e == a) && a.as_bytes().first() == Some(&b'-') {
            // The same flag is given again by the help: drop the old one and its value.
            skip = args.get(i + 1).is_some_and(|v| !v.starts_with("--"));
            continue;
        }
        full.push(a.to_string());
    }
    full.extend(extra.iter().cloned());
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    let out = attnc(&refs);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "following the help: attnc {refs:?}\n{stderr}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

const TWO_LAYOUTS: &str = "dsl-examples/included_models.attn";

#[test]
fn cli_help_lines_are_true_when_followed() {
    // --for: a name that is not a target, a version that is not one, a version too old.
    for (bad, n) in [("two", 1), ("te=2.x", 0), ("te=1.11", 0)] {
        let args = ["check", LLAMA, "--for", bad];
        let help = help_of(&args, 2);
        succeeds(&args, &quoted_args(&help, n));
    }
    // --layout: several layouts and none chosen; a misspelt one.
    let args = ["plan", TWO_LAYOUTS];
    succeeds(&args, &quoted_args(&help_of(&args, 2), 0));
    let args = ["plan", LLAMA, "--layout", "pretrian"];
    succeeds(&args, &quoted_args(&help_of(&args, 2), 0));
    // A thd layout without its lengths, in plan and run.
    let args = ["plan", SFT];
    succeeds(&args, &quoted_args(&help_of(&args, 1), 0));
    let small = ["--set", "sft.format=thd { max_seqlen = 4096, max_tokens = 8192 }", "--set", "llama3_8b.head_dim=8"];
    let args = [&["run", SFT][..], &small[..]].concat();
    succeeds(&args, &quoted_args(&help_of(&args, 2), 0));
    // A hybrid layout without sub-sample lengths: give them, or plan one fixed-size group.
    let args = ["plan", HYBRID];
    let help = help_of(&args, 1);
    succeeds(&args, &quoted_args(&help, 1));
    succeeds(&args, &quoted_args(&help, 2));
    // Tuning a hybrid layout: one fixed-size group of it.
    let args = ["tune", HYBRID];
    let help = help_of(&args, 1);
    succeeds(&args, &quoted_args(&help, 0));
    // Partitioning a hybrid layout: the plan command of the help, with real lengths.
    let args = ["partition", HYBRID];
    let help = help_of(&args, 2);
    let command = quoted_args(&help, 0);
    assert_eq!(&command[..2], ["attnc", "plan"], "{help}");
    let filled: Vec<String> =
        command[1..].iter().map(|a| a.replace("FILE", HYBRID).replace("L1,L2,...", "100,40000,2000")).collect();
    succeeds(&[], &filled);
    // `--for te` excludes every strategy of an fp32 layout: its fix, as an override.
    let args = ["tune", LLAMA, "--for", "te", "--set", "pretrain.dtype=fp32", "--set", "pretrain.seq=4096"];
    let out = attnc(&args);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let fixes = stderr.lines().find(|l| l.contains("checks clean with")).unwrap_or_else(|| panic!("{stderr}"));
    let fix = quoted_args(fixes, 2);
    assert_eq!(fix, ["--set", "pretrain.dtype=bf16"], "{fixes}");
    succeeds(&args, &fix);
    // A sequence over max_seqlen: raise it, as the help says, with an override.
    let args = ["partition", SFT, "--seqlens", "20000,100"];
    let help = help_of(&args, 1);
    assert!(help.contains("raise `max_seqlen`"), "{help}");
    succeeds(&args, &["--set".to_string(), "sft.format=thd { max_seqlen = 32K, max_tokens = 64K }".to_string()]);
    // Padded lengths for a hybrid layout: give the lengths alone.
    let args = ["plan", HYBRID, "--seqlens", "100,3000", "--padded-seqlens", "128,3072"];
    assert!(help_of(&args, 2).contains("give the lengths alone, with `--seqlens`"));
    succeeds(&["plan", HYBRID, "--seqlens", "100,3000"], &[]);
    // The hybrid scheduler's flags: the pool a power of two, a per-rank capacity, and one that fits.
    let lengths = "dsl-examples/lengths/sft_batch.txt";
    let args = ["schedule", "--lengths", lengths, "--dp-cp", "12", "--max-seqlen-per-rank", "8192"];
    let help = help_of(&args, 1);
    assert!(help.contains("such as 8 or 16"), "{help}");
    succeeds(&args, &["--dp-cp".to_string(), "16".to_string()]);
    let args = ["schedule", "--lengths", lengths, "--dp-cp", "16", "--max-seqlen-per-rank", "0"];
    let help = help_of(&args, 1);
    let value = help.split("e.g. ").nth(1).unwrap().trim().to_string();
    succeeds(&args, &["--max-seqlen-per-rank".to_string(), value]);
    let args = ["schedule", "--lengths", lengths, "--dp-cp", "2", "--max-seqlen-per-rank", "1024"];
    assert!(help_of(&args, 1).contains("raise --max-seqlen-per-rank or --dp-cp"));
    // The longest sub-sample (128K tokens) fits 2 GPUs at 64K per rank, or 128 GPUs at 1024.
    succeeds(&args, &["--max-seqlen-per-rank".to_string(), "65536".to_string()]);
    succeeds(&args, &["--dp-cp".to_string(), "128".to_string()]);
    // `--set` without `=`: the example works.
    let args = ["check", LLAMA, "--set", "pretrain.cp"];
    let help = help_of(&args, 2);
    let example = quoted_args(&help, 0);
    succeeds(&["check", LLAMA], &example);
}

/// Output to a closed pipe ends quietly: no panic message, no non-signal failure.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read as _;
    let root = root();
    let mut child = Command::new(env!("CARGO_BIN_EXE_attnc"))
        .args(["plan", LLAMA, "--backward"])
        .current_dir(root)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "a panic's exit code");
}

/// `check --for te` on a layout TE runs under no strategy (gpt-oss: sinks need a2a, a2a needs the
/// heads to split, windows refuse p2p) prints the changes that make it run; each, followed, checks
/// clean — and `tune --for te` then succeeds, as a clean check promises.
#[test]
fn te_fixes_check_clean_when_followed() {
    let spec = "dsl-examples/megatron/gpt_oss_120b.attn";
    let out = attnc(&["check", "--for", "te", spec]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let line = stderr.lines().find(|l| l.contains("checks clean with")).unwrap_or_else(|| panic!("{stderr}"));
    let fixes: Vec<Vec<String>> = (0..)
        .map_while(|n| line.split('`').nth(2 * n + 1))
        .map(|q| q.split_whitespace().map(str::to_string).collect())
        .filter(|a: &Vec<String>| a.first().is_some_and(|f| f == "--set"))
        .collect();
    assert!(fixes.len() >= 2, "{line}");
    for fix in fixes {
        let mut args: Vec<&str> = vec!["check", "--for", "te", spec];
        args.extend(fix.iter().map(String::as_str));
        check(&args, 0, "", "0 errors");
        args[0] = "tune";
        check(&args, 0, "choice:", "");
    }
}
