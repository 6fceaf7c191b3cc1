//! Folder-driven tests: every `dsl-examples/*.attn` checks clean (its resolved spec and any
//! warnings are goldens), every `dsl-examples/errors/*.attn` fails with the diagnostics stored
//! beside it in `NAME.stderr`, and every `dsl-examples/megatron/*.attn` (specs written from
//! public configs, checked `--for te`) gives TransformerEngine's verdict stored in
//! `codegen-tests/snapshots/te/NAME.stderr`.

use attnc_codegen_tests::*;

#[test]
fn examples_check_clean() {
    let examples = files_in("dsl-examples", "attn");
    assert!(examples.len() >= 8, "the examples corpus is missing files");
    check_all(&examples, |path| {
        let (sources, unit) = check_spec_file(path, &[]);
        let text = rendered(&sources, &unit);
        let Some(spec) = &unit.spec else {
            return Err(format!("{path} has errors:\n{text}"));
        };
        if spec.layouts.is_empty() {
            return Err(format!("{path} defines no layout"));
        }
        let stem = path.trim_start_matches("dsl-examples/").trim_end_matches(".attn");
        let json = serde_json::to_string_pretty(spec).map_err(|e| e.to_string())? + "\n";
        check_golden(&format!("codegen-tests/snapshots/spec/{stem}.json"), &json)?;
        check_golden(&format!("codegen-tests/snapshots/check/{stem}.stderr"), &text)
    });
}

#[test]
fn error_specs_fail_with_their_diagnostics() {
    let failing = files_in("dsl-examples/errors", "attn");
    assert!(failing.len() >= 15, "the errors corpus is missing files");
    check_all(&failing, |path| {
        let (sources, unit) = check_spec_file(path, &[]);
        let text = rendered(&sources, &unit);
        if unit.spec.is_some() || !unit.diagnostics.iter().any(|d| d.is_error()) {
            return Err(format!("{path} was expected to fail but checked clean:\n{text}"));
        }
        check_golden(&path.replace(".attn", ".stderr"), &text)
    });
}

#[test]
fn megatron_specs_give_te_verdicts() {
    let specs = files_in("dsl-examples/megatron", "attn");
    assert!(specs.len() >= 6, "the new-user specs are missing");
    check_all(&specs, |path| {
        let text = std::fs::read_to_string(repo_root().join(path)).map_err(|e| e.to_string())?;
        if !corpus_flags(&text).contains(&"--for".to_string()) {
            return Err(format!("{path}: its first line should be `# check with: --for te`"));
        }
        // attnc itself plans every one of them: only TransformerEngine's verdict differs.
        let (sources, plain) = check_spec_file_with(path, &[], None);
        if plain.spec.is_none() {
            return Err(format!("{path} has errors of attnc's own:\n{}", rendered(&sources, &plain)));
        }
        let (sources, unit) = check_spec_file(path, &[]);
        let stem = path.trim_start_matches("dsl-examples/megatron/").trim_end_matches(".attn");
        check_golden(&format!("codegen-tests/snapshots/te/{stem}.stderr"), &rendered(&sources, &unit))
    });
}

/// Every code but the syntax one is exercised by some file of the errors corpus or the examples,
/// so each rule is shown firing.
#[test]
fn every_code_fires_somewhere() {
    use attnc_compiler::diag::Code;
    let mut seen = std::collections::HashSet::new();
    let folders = ["dsl-examples/errors", "dsl-examples", "dsl-examples/megatron"];
    for path in folders.iter().flat_map(|f| files_in(f, "attn")) {
        let (_, unit) = check_spec_file(&path, &[]);
        seen.extend(unit.diagnostics.iter().map(|d| d.code));
    }
    let missing: Vec<&str> = Code::ALL.iter().filter(|c| !seen.contains(c)).map(|c| c.as_str()).collect();
    assert!(missing.is_empty(), "no corpus file shows these codes firing: {missing:?}");
}
