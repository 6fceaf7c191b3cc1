//! `attnc fmt` round trips: parse -> print -> parse gives the same tree (spans aside),
//! printing is idempotent, and the examples are stored in canonical form.

use attnc_codegen_tests::*;
use attnc_compiler::front::ast::{SourceFile, StripSpans};
use attnc_compiler::front::{parse_file, print_file};
use attnc_compiler::span::FileId;

fn stripped(mut tree: SourceFile) -> SourceFile {
    tree.strip_spans();
    tree
}

/// Checks the round trip of `text`, which must parse without syntax errors.
fn round_trip(name: &str, text: &str) -> Result<String, String> {
    let (tree, errors) = parse_file(FileId(0), text);
    if !errors.is_empty() {
        return Err(format!("{name}: syntax errors: {errors:?}"));
    }
    let printed = print_file(&tree);
    let (again, errors) = parse_file(FileId(0), &printed);
    if !errors.is_empty() {
        return Err(format!("{name}: the printed form does not parse: {errors:?}\n{printed}"));
    }
    if stripped(tree) != stripped(again.clone()) {
        return Err(format!("{name}: printing changed the tree:\n{printed}"));
    }
    let twice = print_file(&again);
    if twice != printed {
        return Err(format!("{name}: printing is not idempotent:\n{printed}\n---\n{twice}"));
    }
    Ok(printed)
}

#[test]
fn examples_round_trip_and_are_canonical() {
    check_all(&files_in("dsl-examples", "attn"), |path| {
        let text = std::fs::read_to_string(repo_root().join(path)).map_err(|e| e.to_string())?;
        let printed = round_trip(path, &text)?;
        if printed != text {
            return Err(format!("{path} is not in canonical form; run `attnc fmt --write {path}`"));
        }
        Ok(())
    });
}

#[test]
fn error_specs_that_parse_round_trip() {
    check_all(&files_in("dsl-examples/errors", "attn"), |path| {
        let text = std::fs::read_to_string(repo_root().join(path)).map_err(|e| e.to_string())?;
        if !parse_file(FileId(0), &text).1.is_empty() {
            return Ok(()); // The syntax-error files are covered by the corpus test.
        }
        round_trip(path, &text).map(drop)
    });
}

#[test]
fn comments_blank_lines_and_units_survive() {
    let text = "# head\nmodel m {   # after brace\n  layers=32 # trailing\n\n  # leading\n  rope{theta=1e6}\n  heads = 8,head_dim=64\n  # last\n}\n# tail\n";
    let printed = round_trip("inline", text).unwrap();
    assert_eq!(
        printed,
        "# head\nmodel m {\n  # after brace\n  layers   = 32  # trailing\n\n  # leading\n  rope { theta = 1e6 }\n  heads    = 8\n  head_dim = 64\n  # last\n}\n\n# tail\n"
    );
    let units =
        round_trip("units", "cluster c {\n  intra = nvlink { bandwidth = 450GB/s, latency=3 us }\n}\n").unwrap();
    assert!(units.contains("bandwidth = 450 GB/s, latency = 3 us"), "{units}");
}
