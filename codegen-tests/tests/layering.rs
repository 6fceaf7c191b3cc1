//! The layering the architecture promises, checked on the sources (rust-analyzer's "tidy"
//! tests): which modules may name which. A failure names the file and the line.

use attnc_codegen_tests::repo_root;

/// Every `.rs` file under `dir` (root-relative), with its text.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![repo_root().join(dir)];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(repo_root()).unwrap().display().to_string(), text));
        }
    }
    out.sort();
    out
}

/// Lines of the files under `dir` that name any of `forbidden` (outside comments).
fn offenders(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in sources(dir) {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if forbidden.iter().any(|f| code.contains(f)) {
                out.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    out
}

#[test]
fn dependencies_run_one_way() {
    let cases: &[(&str, &[&str])] = &[
        // The IR and what reads it know nothing of the pipeline, the tuner or the driver.
        ("compiler/src/ir", &["crate::passes", "crate::tune", "crate::driver"]),
        ("compiler/src/kernel", &["crate::passes", "crate::tune", "crate::driver"]),
        ("compiler/src/verify", &["crate::passes", "crate::tune", "crate::driver"]),
        ("compiler/src/cost", &["crate::passes", "crate::tune", "crate::driver"]),
        // The pipeline never calls the tuner; `auto` is resolved above it.
        ("compiler/src/passes", &["crate::tune", "crate::driver"]),
        // The front end knows nothing of the plan IR or of what fields mean.
        ("compiler/src/front", &["petgraph", "crate::ir", "crate::sema", "crate::passes"]),
        // Only the runtime touches devices and threads.
        ("compiler/src", &["cudarc", "std::thread::spawn", "nccl"]),
    ];
    let mut all = Vec::new();
    for (dir, forbidden) in cases {
        all.extend(offenders(dir, forbidden));
    }
    assert!(all.is_empty(), "layering broken:\n{}", all.join("\n"));
}

/// The CLI's commands are one module each and do not reach into each other: they share only
/// `spec` (reading specs), `device` (kernels and devices), `output` (output forms), and the two
/// named pairs below.
#[test]
fn cli_commands_are_independent() {
    let shared = ["spec", "device", "output", "progress", "Outcome"];
    let allowed: &[(&str, &str)] = &[("tune", "simulate"), ("kernels", "compile")];
    let mut bad = Vec::new();
    for (path, text) in sources("cli/src") {
        let module = path.trim_start_matches("cli/src/").trim_end_matches(".rs").to_string();
        if matches!(module.as_str(), "main" | "spec" | "device" | "output") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            for used in line.split("crate::").skip(1) {
                let name: String = used.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !shared.contains(&name.as_str()) && !allowed.contains(&(module.as_str(), name.as_str())) {
                    bad.push(format!("{path}:{}: `{module}` uses `crate::{name}`", n + 1));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
