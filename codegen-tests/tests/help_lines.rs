//! Following the help: every `help:` of a spec diagnostic that suggests a value, applied to the
//! spec as a user would (the suggested text replaces the faulty one), makes that diagnostic go
//! away and introduces no error. The CLI's flag suggestions are followed in `cli/tests/help.rs`.

use attnc_compiler::compat::te::Target;
use attnc_compiler::diag::{self, Code};
use attnc_compiler::span::Sources;
use attnc_compiler::{UnitOptions, compile_unit};

const MODEL: &str =
    "model m {\n  layers = 4\n  heads = 16\n  kv_heads = 4\n  head_dim = 64\n  rope { theta = 10000 }\n}\n";
const CLUSTER: &str = "cluster c {\n  nodes = 2\n  gpus_per_node = 8\n  gpu = h100_sxm\n}\n";

fn check(text: &str, target: Option<&str>) -> (Vec<diag::Diagnostic>, String) {
    let mut sources = Sources::new();
    let file = sources.add("case.attn", text.to_string());
    let target = target.map(|t| Target::parse(t).unwrap());
    let unit = compile_unit(&mut sources, file, &UnitOptions { target, ..Default::default() });
    let rendered = diag::render(&sources, &unit.diagnostics);
    (unit.diagnostics, rendered)
}

/// The `n`th backtick-quoted part of a help line.
fn quoted(help: &str, n: usize) -> String {
    help.split('`').nth(2 * n + 1).unwrap_or_else(|| panic!("no quoted part {n} in {help:?}")).to_string()
}

/// The word after `marker` in a help line.
fn after(help: &str, marker: &str) -> String {
    let rest = help.split(marker).nth(1).unwrap_or_else(|| panic!("no {marker:?} in {help:?}"));
    rest.split([' ', ',']).next().unwrap().to_string()
}

/// How the suggestion becomes spec text.
enum Follow {
    /// Replace `from` by `edit` of the `n`th quoted part of the help.
    Quoted { from: &'static str, n: usize, edit: fn(String) -> String },
    /// Replace `from` by `prefix` + the word after `marker` in the help.
    Word { from: &'static str, marker: &'static str, prefix: &'static str },
    /// Add the `n`th quoted part as a line of the layout.
    AddLine { n: usize },
}

fn same(s: String) -> String {
    s
}

fn quote(from: &'static str, n: usize) -> Follow {
    Follow::Quoted { from, n, edit: same }
}

/// Checks `text`, finds the diagnostic `code`, follows its help and checks again: the code is gone
/// and no error remains.
fn follow(name: &str, text: &str, code: Code, how: Follow, target: Option<&str>) {
    let (diags, rendered) = check(text, target);
    let d = diags.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("{name}: no {code:?}:\n{rendered}"));
    let help = d.help.first().cloned().unwrap_or_else(|| panic!("{name}: {code:?} has no help"));
    let fixed = match how {
        Follow::Quoted { from, n, edit } => text.replacen(from, &edit(quoted(&help, n)), 1),
        Follow::Word { from, marker, prefix } => text.replacen(from, &format!("{prefix}{}", after(&help, marker)), 1),
        Follow::AddLine { n } => text.replacen("layout l {\n", &format!("layout l {{\n  {}\n", quoted(&help, n)), 1),
    };
    assert_ne!(fixed, text, "{name}: following {help:?} changed nothing");
    let (after_diags, rendered) = check(&fixed, target);
    assert!(
        !after_diags.iter().any(|d| d.code == code || d.is_error()),
        "{name}: after following {help:?}:\n{fixed}\n{rendered}"
    );
}

fn layout(fields: &str) -> String {
    format!("{MODEL}{CLUSTER}layout l {{\n  model = m\n  cluster = c\n{fields}\n}}\n")
}

#[test]
fn spec_help_lines_are_true_when_followed() {
    use Follow::*;
    let cases: Vec<(&str, String, Code, Follow, Option<&str>)> = vec![
        ("field name", layout("  seq = 8K\n  cpp = 4"), Code::UnknownField, quote("cpp", 0), None),
        ("lower-case size", layout("  seq = 128k\n  cp = 4"), Code::BadUnit, quote("seq = 128k", 0), None),
        (
            "count with a unit",
            layout("  seq = 8192 tokens\n  cp = 4"),
            Code::BadUnit,
            quote("seq = 8192 tokens", 0),
            None,
        ),
        ("mask name", layout("  seq = 8K\n  mask = casual"), Code::UnknownValue, quote("casual", 0), None),
        ("integer mask", layout("  seq = 8K\n  mask = q - k"), Code::ExprType, quote("q - k", 0), None),
        (
            "mask across packed sequences",
            layout("  seq = 8K\n  mask = k <= q & (k < 4 | doc(q) == doc(k))"),
            Code::ExprUnplanned,
            quote("k <= q & (k < 4 | doc(q) == doc(k))", 1),
            None,
        ),
        ("strategy name", layout("  seq = 8K\n  cp = 4\n  strategy = pp2"), Code::UnknownValue, quote("pp2", 0), None),
        (
            "gpu preset prefix",
            layout("  seq = 8K").replace("gpu = h100_sxm", "gpu = h100"),
            Code::UnknownValue,
            Quoted { from: "gpu = h100\n", n: 0, edit: |s| format!("gpu = {s}\n") },
            None,
        ),
        (
            "model name",
            layout("  seq = 8K").replace("model = m\n  cluster", "model = mm\n  cluster"),
            Code::UnknownReference,
            Quoted { from: "model = mm", n: 0, edit: |s| format!("model = {s}") },
            None,
        ),
        ("missing seq", layout("  cp = 4"), Code::MissingField, AddLine { n: 0 }, None),
        (
            "zigzag seq",
            layout("  seq = 1001\n  cp = 4"),
            Code::SeqNotDivisible,
            Word { from: "seq = 1001", marker: "use seq = ", prefix: "seq = " },
            None,
        ),
        (
            "contiguous causal",
            layout("  seq = 8K\n  cp = 4\n  balance = contiguous"),
            Code::ContiguousCausal,
            quote("balance = contiguous", 0),
            None,
        ),
        (
            "thd buffer",
            layout("  format = thd { max_seqlen = 4000, max_tokens = 8100 }\n  cp = 4"),
            Code::ThdSize,
            Word { from: "max_tokens = 8100", marker: "use max_tokens = ", prefix: "max_tokens = " },
            None,
        ),
        (
            "memory",
            layout("  seq = 1M\n  cp = 2").replace("layers = 4\n", "layers = 64\n  hidden = 8192\n"),
            Code::MemoryWarning,
            quote("cp = 2", 0),
            None,
        ),
        (
            "tp across nodes",
            layout("  seq = 8K\n  tp = 16").replace("heads = 16\n  kv_heads = 4", "heads = 32\n  kv_heads = 16"),
            Code::TpBeyondNode,
            Word { from: "tp = 16", marker: "keep tp <= ", prefix: "tp = " },
            None,
        ),
        (
            "thd mask",
            layout("  format = thd { max_tokens = 8K }\n  cp = 4\n  mask = causal"),
            Code::ThdMask,
            quote("mask = causal", 0),
            None,
        ),
        (
            "hybrid pool",
            layout("  format = thd { max_tokens = 64K }\n  cp = hybrid { dp_cp = 12, max_seqlen_per_rank = 8K }"),
            Code::HybridPowerOfTwo,
            Word { from: "dp_cp = 12", marker: "use ", prefix: "dp_cp = " },
            None,
        ),
        (
            "te window",
            layout("  seq = 8K\n  cp = 4\n  strategy = p2p\n  layer 0..4 step 2 { mask = causal { window = 128 } }"),
            Code::TeUnsupported,
            Quoted {
                from: "{ mask = causal { window = 128 } }",
                n: 0,
                edit: |s| format!("{{ {s}, mask = causal {{ window = 128 }} }}"),
            },
            Some("te"),
        ),
        (
            "te thd a2a",
            layout("  format = thd { max_tokens = 8K }\n  cp = 4\n  strategy = a2a"),
            Code::TeUnsupported,
            quote("strategy = a2a", 0),
            Some("te=2.9"),
        ),
        (
            "te fp32",
            layout("  seq = 8K\n  cp = 4\n  dtype = fp32"),
            Code::TeUnsupported,
            quote("dtype = fp32", 0),
            Some("te"),
        ),
        (
            "te kv heads",
            layout("  seq = 8K\n  cp = 8\n  strategy = a2a"),
            Code::TeUnsupported,
            quote("strategy = a2a", 0),
            Some("te"),
        ),
        (
            "te sinks under p2p",
            layout("  seq = 8K\n  cp = 4\n  strategy = p2p").replace("rope { theta = 10000 }", "sinks = learned"),
            Code::TeUnsupported,
            quote("strategy = p2p", 0),
            Some("te"),
        ),
        (
            "te thd on an A100 cluster, TE 2.17 with FlashAttention 3 unavailable",
            layout("  format = thd { max_tokens = 8K }\n  cp = 4\n  strategy = p2p")
                .replace("gpu = h100_sxm", "gpu = a100_80g"),
            Code::TeUnsupported,
            quote("gpu = a100_80g", 0),
            Some("te=2.17"),
        ),
        // Near misses a new user typed: the family of a preset, a unit's case, other systems'
        // names for a value.
        (
            "gpu family",
            layout("  seq = 8K").replace("gpu = h100_sxm", "gpu = h200_sxm"),
            Code::UnknownValue,
            Quoted { from: "gpu = h200_sxm", n: 0, edit: |s| format!("gpu = {s}") },
            None,
        ),
        (
            "bandwidth in lower case: bits or bytes",
            layout("  seq = 8K").replace("gpu = h100_sxm\n", "gpu = h100_sxm\n  inter = ib { bandwidth = 400 gb/s }\n"),
            Code::BadUnit,
            quote("gb/s", 1),
            None,
        ),
        (
            "PyTorch's dtype name",
            layout("  seq = 8K\n  dtype = bfloat16"),
            Code::UnknownValue,
            quote("bfloat16", 0),
            None,
        ),
        (
            "Ulysses by name",
            layout("  seq = 8K\n  cp = 4\n  strategy = ulysses"),
            Code::UnknownValue,
            quote("ulysses", 0),
            None,
        ),
        ("format in capitals", layout("  seq = 8K\n  format = BSHD"), Code::UnknownValue, quote("BSHD", 0), None),
        (
            "TE's name for the split",
            layout("  seq = 8K\n  cp = 4\n  balance = dual_chunk_swap"),
            Code::UnknownValue,
            quote("dual_chunk_swap", 0),
            None,
        ),
        (
            "TE's softmax_type name",
            layout("  seq = 8K").replace("rope { theta = 10000 }", "sinks = learnable"),
            Code::UnknownValue,
            quote("learnable", 0),
            None,
        ),
    ];
    for (name, text, code, how, target) in cases {
        follow(name, &text, code, how, target);
    }
}

/// Bandwidths read as written: `Gb/s` is gigabits (NDR InfiniBand's 400 Gb/s is 50 GB/s).
#[test]
fn bits_per_second_are_bits() {
    for (written, bytes_per_s) in [("400 Gb/s", 50e9), ("50 GB/s", 50e9), ("800 Mb/s", 100e6), ("1.6 Tb/s", 200e9)] {
        let text = layout("  seq = 8K")
            .replace("gpu = h100_sxm\n", &format!("gpu = h100_sxm\n  inter = ib {{ bandwidth = {written} }}\n"));
        let l = attnc_codegen_tests::layout_of(&text).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(l.cluster.inter.bandwidth_bytes_per_s, bytes_per_s, "{written}");
    }
}
