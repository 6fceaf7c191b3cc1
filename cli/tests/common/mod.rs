//! What the CLI's integration tests share: running the `attnc` binary from the repository root,
//! checking its exit code and output, scratch files, and the example specs they use.
//!
//! Each test file includes it with `mod common;` and uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const LLAMA: &str = "dsl-examples/llama3_8b_128k.attn";
pub const SFT: &str = "dsl-examples/sft_packed_thd.attn";
pub const GEMMA: &str = "dsl-examples/gemma2_alternating.attn";
pub const HYBRID: &str = "dsl-examples/hybrid_cp.attn";

/// The repository root, where the binary runs.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root")
}

/// Runs `attnc ARGS` from the repository root.
pub fn attnc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_attnc")).args(args).current_dir(root()).output().expect("attnc runs")
}

/// Runs `attnc ARGS` and checks its exit code and that stdout and stderr contain the given texts;
/// returns stdout.
pub fn check(args: &[&str], code: i32, stdout_has: &str, stderr_has: &str) -> String {
    let out = attnc(args);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "attnc {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains(stdout_has), "attnc {args:?}: stdout lacks {stdout_has:?}:\n{stdout}");
    assert!(stderr.contains(stderr_has), "attnc {args:?}: stderr lacks {stderr_has:?}:\n{stderr}");
    stdout.to_string()
}

/// A scratch path, in a directory of this test binary and process.
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attnc-{}-{}", env!("CARGO_CRATE_NAME"), std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
