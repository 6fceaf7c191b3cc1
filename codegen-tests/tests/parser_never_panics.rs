//! Property tests: no input makes the parser or the checks panic or hang, and whatever
//! parses cleanly round-trips through the printer. Bounded to a few seconds.

use attnc_codegen_tests::*;
use attnc_compiler::front::ast::StripSpans;
use attnc_compiler::front::{parse_file, print_file};
use attnc_compiler::span::{FileId, Sources};
use proptest::prelude::*;

/// Runs the whole front end, as `attnc check` does, and the printer on what parsed.
fn front_end(text: &str) {
    let mut sources = Sources::new();
    let file = sources.add("fuzz.attn", text);
    let unit = attnc_compiler::compile_file(&mut sources, file, &[]);
    let _ = attnc_compiler::diag::render(&sources, &unit.diagnostics);
    let printed = print_file(&unit.tree);
    if unit.diagnostics.iter().all(|d| d.code != attnc_compiler::diag::Code::Syntax) {
        let (mut again, errors) = parse_file(FileId(0), &printed);
        assert!(errors.is_empty(), "printed form of a clean parse has errors:\n{printed}");
        let mut tree = unit.tree.clone();
        tree.strip_spans();
        again.strip_spans();
        assert_eq!(tree, again, "round trip changed the tree:\n{text}\n---\n{printed}");
    }
}

fn examples() -> Vec<String> {
    files_in("dsl-examples", "attn")
        .iter()
        .chain(&files_in("dsl-examples/errors", "attn"))
        .map(|p| std::fs::read_to_string(repo_root().join(p)).unwrap())
        .collect()
}

/// Text built from the language's own tokens, so that many cases get deep into the grammar.
fn token_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("model ".to_string()),
        Just("layout ".to_string()),
        Just("cluster ".to_string()),
        Just("layer ".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("=".to_string()),
        Just(",".to_string()),
        Just("\n".to_string()),
        Just("..".to_string()),
        Just("+".to_string()),
        Just("# c\n".to_string()),
        Just(" step ".to_string()),
        "[a-z_]{1,8}",
        "-?[0-9]{1,12}[KMG]?",
        "[0-9]\\.[0-9]e[0-9]",
        Just(" GB/s".to_string()),
        Just(" us".to_string()),
        // Expressions: `mask = k <= q | k < 64`, `score = 30 * tanh(s / 30)`.
        Just(" mask = ".to_string()),
        Just(" score = ".to_string()),
        Just(" q".to_string()),
        Just(" k".to_string()),
        Just(" <= ".to_string()),
        Just(" < ".to_string()),
        Just(" & ".to_string()),
        Just(" | ".to_string()),
        Just("!".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just(" * ".to_string()),
        Just(" / ".to_string()),
        Just("tanh(s".to_string()),
        Just("doc(q)".to_string()),
        "\\PC",
    ];
    prop::collection::vec(token, 0..80).prop_map(|t| t.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        front_end(&text);
    }

    #[test]
    fn token_soups(text in token_soup()) {
        front_end(&text);
    }

    #[test]
    fn mutated_examples(pick in 0usize..1000, edits in prop::collection::vec((0usize..10_000, 0u8..3, "\\PC{0,3}"), 1..6)) {
        let all = examples();
        let mut text: Vec<char> = all[pick % all.len()].chars().collect();
        for (at, kind, insert) in edits {
            let at = at % (text.len() + 1);
            match kind {
                0 => { if at < text.len() { text.remove(at); } }
                1 => { for (i, c) in insert.chars().enumerate() { text.insert(at + i, c); } }
                _ => { text.truncate(at); }
            }
        }
        front_end(&text.into_iter().collect::<String>());
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = format!("model m {{ x = {}1{} }}", "[".repeat(10_000), "]".repeat(10_000));
    front_end(&text);
    let text = format!("model m {{ {} }}", "a { ".repeat(10_000));
    front_end(&text);
}
