//! `import hf` on configs with the released models' values: the text checks clean, its model
//! fields are the config's, and what the language cannot say is a warning naming the field.

use super::*;
use crate::diag::Severity;
use crate::span::Sources;
use crate::{UnitOptions, compile_unit};

/// Imports `json`, checks the text with the compiler's front end and that it is canonical; returns the spec and warnings.
fn check(json: &str, options: &ImportOptions) -> (crate::sema::Spec, Imported) {
    let config = parse(json).expect("the config parses");
    let imported = import(&config, "config.json", options).expect("the config imports");
    let mut sources = Sources::new();
    let file = sources.add("imported.attn".to_string(), imported.text.clone());
    let frontend = compile_unit(&mut sources, file, &UnitOptions::default());
    let errors: Vec<_> = frontend.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "{}\n{errors:#?}", imported.text);
    // The text is already in `attnc fmt`'s canonical form (examples must be).
    assert_eq!(crate::front::print_file(&frontend.tree), imported.text);
    (frontend.spec.expect("no errors, a spec"), imported)
}

fn cluster() -> ImportOptions {
    ImportOptions { name: None, cluster: Some(ClusterShape::parse("1x8:h100_sxm").unwrap()), seq: Some(32768) }
}

const GPT_OSS: &str = r#"{
  "model_type": "gpt_oss", "num_hidden_layers": 36, "num_attention_heads": 64, "num_key_value_heads": 8,
  "head_dim": 64, "hidden_size": 2880, "intermediate_size": 2880, "num_local_experts": 128,
  "num_experts_per_tok": 4, "rope_theta": 150000, "sliding_window": 128, "vocab_size": 201088,
  "rope_scaling": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0,
                   "original_max_position_embeddings": 4096, "truncate": false},
  "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention",
    "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
    "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention",
    "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
    "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention",
    "sliding_attention", "full_attention", "sliding_attention", "full_attention", "sliding_attention",
    "full_attention", "sliding_attention", "full_attention", "sliding_attention", "full_attention",
    "sliding_attention", "full_attention"]
}"#;

#[test]
fn gpt_oss_sinks_windows_and_yarn() {
    let (spec, imported) = check(GPT_OSS, &cluster());
    let m = &spec.models[0];
    assert_eq!((m.layers, m.heads, m.kv_heads, m.head_dim), (36, 64, 8, 64));
    assert!(m.sinks);
    assert_eq!(m.rope.as_ref().map(|r| r.theta), Some(150000.0));
    let moe = m.moe.as_ref().unwrap();
    assert_eq!((moe.experts, moe.topk), (128, 4));
    assert!(imported.text.contains("layer 0..35 step 2 { mask = causal { window = 128 } }"), "{}", imported.text);
    // YaRN is the spec's now: the scaling as the config gives it, nothing warned.
    assert!(
        imported.text.contains(
            "rope { theta = 150000, scaling = yarn { factor = 32, original = 4096, beta_fast = 32, beta_slow = 1, \
             truncate = false } }"
        ),
        "{}",
        imported.text
    );
    let rope = m.rope.as_ref().unwrap();
    assert!(matches!(
        rope.scaling,
        Some(crate::spec::RopeScaling::Yarn { factor: 32.0, original: 4096, truncate: false, .. })
    ));
    assert_eq!(imported.warnings, [], "{}", imported.text);
}

#[test]
fn deepseek_v3_mla_head_dims_and_rope_dims() {
    let json = r#"{"model_type": "deepseek_v3", "num_hidden_layers": 61, "num_attention_heads": 128,
      "num_key_value_heads": 128, "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
      "n_routed_experts": 256, "num_experts_per_tok": 8, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
      "v_head_dim": 128, "kv_lora_rank": 512, "q_lora_rank": 1536, "rope_theta": 10000,
      "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096,
                       "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}}"#;
    let (spec, imported) = check(json, &ImportOptions::default());
    let m = &spec.models[0];
    assert_eq!((m.head_dim, m.v_head_dim), (192, Some(128)));
    let rope = m.rope.as_ref().unwrap();
    assert_eq!(rope.theta, 10000.0);
    assert!(
        imported.text.contains(
            "rope { theta = 10000, dims = 64, scaling = yarn { factor = 40, original = 4096, beta_fast = 32, \
             beta_slow = 1, mscale = 1, mscale_all_dim = 1 } }"
        ),
        "{}",
        imported.text
    );
    assert_eq!(rope.attention_factor(), 1.0);
    // DeepSeek's attention scales the softmax by mscale(40, 1)² on top of 1/√192.
    let mscale = 0.1 * 40f64.ln() + 1.0;
    let scale = m.softmax_scale.unwrap();
    assert!((scale - mscale * mscale / 192f64.sqrt()).abs() < 1e-12, "{scale}");
    assert_eq!(imported.warnings, []);
}

#[test]
fn gemma3_text_config_five_x_rope_parameters_softcap_and_scale() {
    let json = r#"{"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "num_hidden_layers": 12,
      "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128, "hidden_size": 5376,
      "intermediate_size": 21504, "sliding_window": 1024, "query_pre_attn_scalar": 168,
      "attn_logit_softcapping": null,
      "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000},
                          "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000}},
      "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention",
        "sliding_attention", "full_attention", "sliding_attention", "sliding_attention", "sliding_attention",
        "sliding_attention", "sliding_attention", "full_attention"]}}"#;
    let (spec, imported) = check(json, &cluster());
    let m = &spec.models[0];
    assert_eq!((m.layers, m.heads, m.kv_heads, m.head_dim), (12, 32, 16, 128));
    // Most layers slide: the model's RoPE is theirs, the full layers have their own; the
    // layout's mask is the window and the full layers are its overrides.
    assert_eq!(m.rope.as_ref().map(|r| (r.theta, r.scaling.is_none())), Some((10_000.0, true)));
    let full = m.rope_of(5).unwrap();
    assert_eq!((full.theta, full.scaling.as_ref().map(|s| s.factor())), (1_000_000.0, Some(8.0)));
    assert_eq!(m.rope_of(11), Some(full));
    assert_eq!(m.softmax_scale, Some(1.0 / 168f64.sqrt()));
    assert!(imported.text.contains("query_pre_attn_scalar = 168"), "{}", imported.text);
    assert!(imported.text.contains("mask     = causal { window = 1024 }"), "{}", imported.text);
    assert!(imported.text.contains("layer 5..12 step 6 { mask = causal }"), "{}", imported.text);
    assert_eq!(imported.warnings, []);
}

#[test]
fn llama4_chunks_on_rope_layers_and_nope_layers_global() {
    let json = r#"{"model_type": "llama4_text", "num_hidden_layers": 8, "num_attention_heads": 40,
      "num_key_value_heads": 8, "head_dim": 128, "hidden_size": 5120, "intermediate_size": 8192,
      "num_local_experts": 16, "num_experts_per_tok": 1, "rope_theta": 500000, "attention_chunk_size": 8192,
      "no_rope_layers": [1, 1, 1, 0, 1, 1, 1, 0],
      "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0,
                       "original_max_position_embeddings": 8192}}"#;
    let (spec, imported) = check(json, &cluster());
    assert_eq!(spec.layouts[0].cp, crate::spec::Cp::Fixed { size: 8 });
    assert!(imported.text.contains("mask     = causal { chunk = 8192 }"), "{}", imported.text);
    // NoPE is the model's; the layout lifts the chunk on those layers.
    assert!(imported.text.contains("  layer 3..8 step 4 { rope = none }"), "{}", imported.text);
    assert!(imported.text.contains("  layer 3..8 step 4 { mask = causal }"), "{}", imported.text);
    let m = &spec.models[0];
    assert_eq!((m.rope_of(2).is_some(), m.rope_of(3), m.rope_of(7)), (true, None, None));
    assert!(!spec.layouts[0].layers[3].rope && spec.layouts[0].layers[4].rope);
    let scaling = m.rope.as_ref().and_then(|r| r.scaling.as_ref()).unwrap();
    assert!(matches!(
        scaling,
        crate::spec::RopeScaling::Llama3 { factor: 16.0, original: 8192, low_freq_factor: 1.0, high_freq_factor: 1.0 }
    ));
    assert_eq!(imported.warnings, []);
}

#[test]
fn qwen3_next_partial_rotary_and_linear_attention_layers() {
    let json = r#"{"model_type": "qwen3_next", "num_hidden_layers": 8, "num_attention_heads": 16,
      "num_key_value_heads": 2, "head_dim": 256, "hidden_size": 2048, "intermediate_size": 5120,
      "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512, "rope_theta": 10000000,
      "partial_rotary_factor": 0.25, "linear_num_value_heads": 32,
      "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention",
                      "linear_attention", "linear_attention", "linear_attention", "full_attention"]}"#;
    let (spec, imported) = check(json, &cluster());
    assert!(imported.text.contains("rope { theta = 10000000, fraction = 0.25 }"), "{}", imported.text);
    let m = &spec.models[0];
    assert_eq!(m.rope.as_ref().map(|r| (r.dims, r.offset)), Some((64, 0)));
    assert_eq!(m.moe.as_ref().map(|m| m.experts), Some(512));
    use crate::spec::LayerKind;
    let kinds: Vec<LayerKind> = (0..8).map(|l| m.kind_of(l)).collect();
    assert_eq!(kinds.iter().filter(|k| k.is_attention()).count(), 2);
    assert_eq!(kinds[3], LayerKind::Attention);
    assert_eq!(kinds[0], LayerKind::LinearAttention);
    // The planner plans the two attention layers and says why not the others.
    let mut layout = spec.layouts[0].clone();
    layout.layers.iter_mut().for_each(|l| l.strategy = crate::spec::Strategy::P2p);
    let set = crate::passes::compile(&layout, &crate::passes::PlanOptions::default()).unwrap();
    assert_eq!(set.classes.len(), 1);
    assert_eq!(crate::passes::display_layers(&set.classes[0].layers), "3..4, 7..8");
    assert_eq!(set.not_planned.len(), 1);
    assert_eq!(crate::passes::display_layers(&set.not_planned[0].layers), "0..3, 4..7");
    assert_eq!(set.not_planned[0].kind, "linear_attention");
    // The tuner prices the attention layers only.
    let profile = crate::cost::DeviceProfile::of_cluster(&layout.cluster, layout.dtype);
    let tuned = crate::tune::tune(&spec.layouts[0], &crate::passes::PlanOptions::default(), &profile).unwrap();
    let tuned: Vec<String> = tuned.iter().map(|c| crate::passes::display_layers(&c.layers)).collect();
    assert_eq!(tuned, ["3..4, 7..8"]);
    assert_eq!(imported.warnings, [], "{}", imported.text);
}

#[test]
fn malformed_configs_name_the_json_path() {
    assert!(matches!(parse("{\"num_hidden_layers\": 4,"), Err(ImportError::Syntax { line: 1, .. })));
    assert_eq!(
        parse(r#"{"num_hidden_layers": "four"}"#).unwrap_err(),
        ImportError::Field {
            path: "$.num_hidden_layers".into(),
            message: "invalid type: string \"four\", expected u64".into()
        }
    );
    let nested = parse(r#"{"text_config": {"rope_scaling": {"factor": "x"}}}"#).unwrap_err();
    assert!(matches!(&nested, ImportError::Field { path, .. } if path == "$.text_config.rope_scaling"), "{nested:?}");
    let missing = import(&parse(r#"{"num_attention_heads": 8}"#).unwrap(), "c.json", &ImportOptions::default());
    assert!(matches!(missing, Err(ImportError::Missing { path, .. }) if path == "$.num_hidden_layers"));
    let short =
        r#"{"num_hidden_layers": 3, "num_attention_heads": 8, "head_dim": 64, "layer_types": ["full_attention"]}"#;
    let short = import(&parse(short).unwrap(), "c.json", &ImportOptions::default()).unwrap_err();
    assert_eq!(short.to_string(), "$.layer_types: 1 entries for num_hidden_layers = 3 layers");
    assert!(ClusterShape::parse("2x").is_err());
    assert_eq!(ClusterShape::parse("2x8").unwrap().gpu, "h100_sxm");
}

#[test]
fn layer_ranges_are_runs_or_periodic_steps_whichever_are_fewer() {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(ranges(&[]), Vec::<String>::new());
    assert_eq!(ranges(&[4]), strings(&["4..5"]));
    assert_eq!(ranges(&[0, 1, 2, 5, 6]), strings(&["0..3", "5..7"]));
    assert_eq!(ranges(&[1, 3, 5, 7]), strings(&["1..8 step 2"]));
    let qwen: Vec<u64> = (0..48).filter(|l| l % 4 != 3).collect();
    assert_eq!(ranges(&qwen), strings(&["0..45 step 4", "1..46 step 4", "2..47 step 4"]));
    // Gemma-3's sliding layers (all but every sixth) at 12 layers: two runs beat five steps.
    let gemma: Vec<u64> = (0..12).filter(|l| l % 6 != 5).collect();
    assert_eq!(ranges(&gemma), strings(&["0..5", "6..11"]));
}
