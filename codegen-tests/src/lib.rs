//! Shared helpers of the golden tests: repository paths, golden files, and checking a spec file.
//!
//! A golden file holds the exact expected output. `ATTNC_BLESS=1 cargo test`
//! rewrites every golden from the current output (review the diff before
//! committing); without it a mismatch fails with both texts.

use std::path::{Path, PathBuf};

use attnc_compiler::diag;
use attnc_compiler::span::Sources;
use attnc_compiler::{Frontend, compile_file};

/// The workspace root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// The files in `dir` (relative to the root) with extension `ext`, sorted, as root-relative paths.
pub fn files_in(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(repo_root().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap_or_default().to_string_lossy()))
        .collect();
    out.sort();
    out
}

pub fn blessing() -> bool {
    std::env::var_os("ATTNC_BLESS").is_some_and(|v| v != "0")
}

/// Compares `actual` with the golden file at `path` (root-relative), or rewrites it when blessing.
/// An empty `actual` means the golden must not exist.
pub fn check_golden(path: &str, actual: &str) -> Result<(), String> {
    let full = repo_root().join(path);
    if blessing() {
        if actual.is_empty() {
            let _ = std::fs::remove_file(&full);
        } else {
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("{path}: {e}"))?;
            }
            std::fs::write(&full, actual).map_err(|e| format!("{path}: {e}"))?;
        }
        return Ok(());
    }
    let expected = std::fs::read_to_string(&full).unwrap_or_default();
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "golden {path} differs (rerun with ATTNC_BLESS=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}"
        ))
    }
}

/// The flags a corpus file asks to be checked with, from a first-lines comment
/// `# check with: --for te=2.9` (the CLI tests pass the same flags).
pub fn corpus_flags(text: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix("# check with:"))
        .map(|flags| flags.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Parses and checks one root-relative spec file (with the flags its header names); returns its
/// sources and the result.
pub fn check_spec_file(path: &str, overrides: &[String]) -> (Sources, Frontend) {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let flags = corpus_flags(&text);
    let target = flags
        .iter()
        .position(|f| f == "--for")
        .map(|i| attnc_compiler::compat::te::Target::parse(&flags[i + 1]).unwrap_or_else(|e| panic!("{path}: {e}")));
    // `--target sm_80|sm_90a`: checked as `attnc compile --target` checks (`attnc check --target`).
    let gpu_kernels = flags.iter().position(|f| f == "--target").is_some_and(|i| flags[i + 1].starts_with("sm_"));
    check_spec_file_options(path, overrides, target, gpu_kernels)
}

/// [`check_spec_file`] with the target given, whatever the header says.
pub fn check_spec_file_with(
    path: &str,
    overrides: &[String],
    target: Option<attnc_compiler::compat::te::Target>,
) -> (Sources, Frontend) {
    check_spec_file_options(path, overrides, target, false)
}

/// [`check_spec_file_with`], also checked as compiled for the GPU when `gpu_kernels`.
pub fn check_spec_file_options(
    path: &str,
    overrides: &[String],
    target: Option<attnc_compiler::compat::te::Target>,
    gpu_kernels: bool,
) -> (Sources, Frontend) {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut sources = Sources::new();
    let file = sources.add(path, text);
    let overrides = attnc_compiler::front::overrides::parse_overrides(&mut sources, overrides)
        .unwrap_or_else(|d| panic!("bad override: {}", diag::render(&sources, &d)));
    let root = repo_root();
    let options = attnc_compiler::UnitOptions {
        overrides: &overrides,
        target,
        gpu_kernels,
        base: Some(&root),
        ..Default::default()
    };
    let unit = attnc_compiler::compile_unit(&mut sources, file, &options);
    (sources, unit)
}

/// The diagnostics of a checked file as the CLI prints them, with the summary line.
pub fn rendered(sources: &Sources, unit: &Frontend) -> String {
    let mut out = diag::render(sources, &unit.diagnostics);
    if let Some(summary) = diag::summary(&unit.diagnostics) {
        out.push_str(&summary);
        out.push('\n');
    }
    out
}

/// Runs `check` on every item and reports all failures together.
pub fn check_all(items: &[String], check: impl Fn(&str) -> Result<(), String>) {
    let failures: Vec<String> = items.iter().filter_map(|i| check(i).err()).collect();
    assert!(failures.is_empty(), "{} of {} failed:\n\n{}", failures.len(), items.len(), failures.join("\n\n"));
}

/// Checks spec text and returns its first layout, or the rendered diagnostics.
pub fn layout_of(text: &str) -> Result<attnc_compiler::spec::Layout, String> {
    let mut sources = Sources::new();
    let file = sources.add("case.attn", text.to_string());
    let unit = compile_file(&mut sources, file, &[]);
    match unit.spec {
        Some(spec) if !spec.layouts.is_empty() => Ok(spec.layouts[0].clone()),
        _ => Err(diag::render(&sources, &unit.diagnostics)),
    }
}

/// A small spec: a model with `heads`/`kv_heads` (head_dim 8, 2 layers), a 2×8-GPU cluster and
/// one layout `l` with the given fields.
pub fn small_spec(heads: u32, kv_heads: u32, fields: &str) -> String {
    format!(
        "model m {{\n  layers = 2\n  heads = {heads}\n  kv_heads = {kv_heads}\n  head_dim = 8\n}}\n\
         cluster c {{\n  nodes = 2\n  gpus_per_node = 8\n  gpu = h100_sxm\n}}\n\
         layout l {{\n  model = m\n  cluster = c\n  dtype = fp32\n{fields}\n}}\n"
    )
}
