//! Data-driven checks of how single fields resolve: one `check(layout fields, expected JSON
//! fragment)` helper, then one line per case. Literals, suffixes, units and defaults.

use attnc_compiler::span::Sources;

const PRELUDE: &str = "model m {\n  layers = 4\n  heads = 8\n  kv_heads = 2\n  head_dim = 64\n}\ncluster c {\n  nodes = 2\n  gpus_per_node = 8\n  gpu = h100_sxm\n  inter = ib { bandwidth = 400 MB/s, latency = 2 ms }\n}\n";

/// Checks a layout with `fields`; `expect` is either `error CODE` or a JSON path `=` value.
fn check(fields: &str, expect: &str) {
    let text = format!("{PRELUDE}layout l {{\n  model = m\n  cluster = c\n{fields}\n}}\n");
    let mut sources = Sources::new();
    let file = sources.add("case.attn", text.clone());
    let unit = attnc_compiler::compile_file(&mut sources, file, &[]);
    let rendered = attnc_compiler::diag::render(&sources, &unit.diagnostics);
    if let Some(code) = expect.strip_prefix("error ") {
        assert!(
            unit.diagnostics.iter().any(|d| d.code.as_str() == code),
            "{fields:?}: expected {code}, got:\n{rendered}"
        );
        return;
    }
    let spec = unit.spec.unwrap_or_else(|| panic!("{fields:?} failed:\n{rendered}"));
    let json = serde_json::to_value(&spec.layouts[0]).unwrap();
    let (path, value) = expect.split_once(" = ").unwrap();
    let got = path.split('.').fold(&json, |v, key| match key.parse::<usize>() {
        Ok(i) => &v[i],
        Err(_) => &v[key],
    });
    assert_eq!(got.to_string(), value, "{fields:?}: {path}");
}

#[test]
fn literals_and_suffixes() {
    check("seq = 128K\ncp = 16", "seq = 131072");
    check("seq = 1M\ncp = 16", "seq = 1048576");
    check("seq = 131_072\ncp = 16", "seq = 131072");
    check("seq = 5e5\ncp = 1\ndp = 16", "seq = 500000");
    check("seq = 1.5K\ncp = 16", "seq = 1536");
    check("seq = 64.5\ncp = 1", "error E0008");
    check("seq = 99999999999999999999999\ncp = 1", "error E0008");
    check("seq = 0", "error E0008");
    check("seq = 4K tokens", "error E0009");
}

#[test]
fn defaults_are_filled_in() {
    check("seq = 4K", "cp = {\"kind\":\"fixed\",\"size\":1}");
    check("seq = 4K", "dp = 16");
    check("seq = 4K", "mask = {\"kind\":\"causal\",\"window\":null}");
    check("seq = 4K", "strategy = {\"kind\":\"p2p\"}");
    check("seq = 4K\ntp = 2", "sequence_parallel = true");
    check("seq = 4K", "dtype = \"bf16\"");
    check("format = thd { max_tokens = 4K }\ncp = 2", "mask = {\"kind\":\"padding_causal\",\"window\":null}");
    check(
        "format = thd { max_tokens = 4K }\ncp = 2",
        "format = {\"kind\":\"thd\",\"max_seqlen\":4096,\"max_tokens\":4096}",
    );
    check("seq = 4K", "cluster.intra.bandwidth_bytes_per_s = 450000000000.0");
    check("seq = 4K", "cluster.inter.bandwidth_bytes_per_s = 400000000.0");
    check("seq = 4K", "cluster.inter.latency_s = 0.002");
}

#[test]
fn per_layer_settings() {
    check("seq = 4K\nlayer 1..4 step 2 { mask = none }", "layers.1.mask = {\"kind\":\"none\"}");
    check("seq = 4K\nlayer 1..4 step 2 { mask = none }", "layers.2.mask = {\"kind\":\"causal\",\"window\":null}");
    check("seq = 4K\ncp = 2\nlayer 0..1 { strategy = a2a }", "layers.0.strategy = {\"kind\":\"a2a\"}");
    check(
        "seq = 4K\ncp = 4\nlayer 0..1 { strategy = a2a+p2p { hierarchy = [2, 2] } }",
        "layers.0.strategy = {\"kind\":\"a2a+p2p\",\"hierarchy\":[2,2]}",
    );
    check("seq = 4K\nlayer 0..2 { mask = none }\nlayer 1..3 { mask = none }", "error E0023");
    check("seq = 4K\nlayer 0..5 { mask = none }", "error E0022");
    check("seq = 4K\nlayer 0..2 step 0 { mask = none }", "error E0008");
}

#[test]
fn cp_rules() {
    check("seq = 4K\ncp = 16\nstrategy = a2a", "error E0015");
    check("seq = 4K\ncp = 4\nstrategy = a2a", "strategy = {\"kind\":\"a2a\"}");
    check("seq = 4K\ncp = 8\nstrategy = a2a", "error W0002");
    check("seq = 4K\ncp = 3", "error E0011");
    check("seq = 4K\ncp = 16\nbalance = contiguous\nmask = none", "balance = \"contiguous\"");
    check("seq = 4K\ncp = 32", "error E0019");
    check("seq = 4K\ntp = 16\nsequence_parallel = false", "error E0018");
    check("seq = 4K\nmask = causal { window = 0 }", "error E0024");
}
