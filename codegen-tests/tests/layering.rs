//! The layering the architecture promises, checked on the sources (rust-analyzer's "tidy"
//! tests): no two top-level modules of a crate name each other, directly or around a longer
//! cycle, and a few one-way rules on top. A failure names the file and the line.

use std::collections::BTreeMap;

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

/// The module path of a source file under `src` (`a/b.rs` and `a/b/mod.rs` are `[a, b]`;
/// `lib.rs`, `main.rs` the root).
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The paths a file names from the crate's root: `crate::a::…`, `crate::{a, b::c}` (across
/// lines), and `super::…` resolved against the file's own module path; outside comments.
fn named_paths(file: &str, text: &str) -> Vec<(Vec<String>, usize)> {
    let here = module_path(file);
    let mut code = String::new();
    let mut line_of = Vec::new(); // the line of each byte of `code`
    for (n, line) in text.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        code.push_str(line);
        code.push(' ');
        line_of.extend(std::iter::repeat_n(n + 1, line.len() + 1));
    }
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let boundary =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let (base, skip) = if boundary && rest.starts_with("crate::") {
            (Vec::new(), "crate::".len())
        } else if boundary && rest.starts_with("super::") {
            let mut base = here.clone();
            let mut skip = 0;
            while code[i + skip..].starts_with("super::") {
                base.pop();
                skip += "super::".len();
            }
            (base, skip)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let after = &code[i + skip..];
        let mut names = Vec::new();
        if let Some(group) = after.strip_prefix('{') {
            // Top-level names of a (possibly nested) group.
            let (mut depth, mut start) = (0usize, 0usize);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        names.push(ident(group[start..k].trim_start()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.push(ident(group[start..k].trim_start()));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident(after));
        }
        for name in names.into_iter().filter(|n| !n.is_empty() && n != "self") {
            let mut path = base.clone();
            path.push(name);
            out.push((path, line_of[i]));
        }
        i += skip;
    }
    out
}

/// Per top-level module of the crate at `dir`: the top-level modules it names, each with the
/// first place it does.
fn module_graph(dir: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let src = format!("{dir}/src/");
    let files = sources(&format!("{dir}/src"));
    let top: Vec<String> =
        files.iter().filter_map(|(p, _)| module_path(p.trim_start_matches(&src)).first().cloned()).collect();
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (path, text) in &files {
        let from = module_path(path.trim_start_matches(&src)).first().cloned().unwrap_or_else(|| "(root)".into());
        for (named, line) in named_paths(path.trim_start_matches(&src), text) {
            let to = &named[0];
            if *to != from && top.contains(to) {
                graph.entry(from.clone()).or_default().entry(to.clone()).or_insert_with(|| format!("{path}:{line}"));
            }
        }
    }
    graph
}

/// The module cycles of a crate: each strongly connected set of its top-level modules, with one
/// place per edge inside it.
fn module_cycles(dir: &str) -> Vec<String> {
    let graph = module_graph(dir);
    let mut g = petgraph::graph::DiGraph::<String, ()>::new();
    let mut index = BTreeMap::new();
    for (from, tos) in &graph {
        for name in std::iter::once(from).chain(tos.keys()) {
            index.entry(name.clone()).or_insert_with(|| g.add_node(name.clone()));
        }
    }
    for (from, tos) in &graph {
        for to in tos.keys() {
            g.add_edge(index[from], index[to], ());
        }
    }
    let mut out = Vec::new();
    for scc in petgraph::algo::tarjan_scc(&g) {
        if scc.len() < 2 {
            continue;
        }
        let mut names: Vec<&String> = scc.iter().map(|&n| &g[n]).collect();
        names.sort();
        let mut text = format!("{dir}: {}", names.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(" ↔ "));
        for from in &names {
            for (to, at) in &graph[*from] {
                if names.contains(&to) {
                    text.push_str(&format!("\n    {from} → {to} at {at}"));
                }
            }
        }
        out.push(text);
    }
    out.sort();
    out
}

#[test]
fn module_cycle_detection_sees_groups_and_super() {
    let text = "use crate::{a::X, b::{c, d}};\n// crate::e\nfn f() { super::super::g::h(); crate::ab::i(); }";
    let got: Vec<(Vec<String>, usize)> = named_paths("x/y.rs", text);
    let names: Vec<String> = got.iter().map(|(p, _)| p.join("::")).collect();
    assert_eq!(names, ["a", "b", "g", "ab"], "{got:?}");
    assert_eq!(module_path("x/mod.rs"), ["x"]);
    assert_eq!(module_path("lib.rs"), Vec::<String>::new());
}

#[test]
fn no_module_cycles() {
    let mut all = Vec::new();
    for dir in ["compiler", "cli", "python", "ptx-sim", "runtime"] {
        all.extend(module_cycles(dir));
    }
    assert!(all.is_empty(), "module cycles:\n{}", all.join("\n"));
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
        // The leaves: spans and bands name nothing of the crate (the spec only bands: below).
        ("compiler/src/span.rs", &["crate::"]),
        ("compiler/src/band.rs", &["crate::"]),
        // Only the runtime touches devices and threads.
        ("compiler/src", &["cudarc", "std::thread::spawn", "nccl"]),
    ];
    let mut all = Vec::new();
    for (dir, forbidden) in cases {
        all.extend(offenders(dir, forbidden));
    }
    all.extend(offenders("compiler/src/spec.rs", &["crate::"]).into_iter().filter(|o| !o.contains("crate::band::")));
    // The compiler's one thread: a class's backward plan beside its forward (scoped).
    all.extend(
        offenders("compiler/src", &["thread::", "rayon"])
            .into_iter()
            .filter(|o| !o.starts_with("compiler/src/passes/mod.rs:") || !o.contains("std::thread::scope")),
    );
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
