//! `import hf` on configs with the released models' values: the text checks clean, its model
//! fields are the config's, and what the language cannot say is a warning naming the field.

use super::*;
use crate::diag::Severity;
use crate::front::span::Sources;
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
fn gpt_oss_sinks_windows_and_yarn_as_a_warning() {
    let (spec, imported) = check(GPT_OSS, &cluster());
    let m = &spec.models[0];
    assert_eq!((m.layers, m.heads, m.kv_heads, m.head_dim), (36, 64, 8, 64));
    assert!(m.sinks);
    assert_eq!(m.rope.as_ref().map(|r| r.theta), Some(150000.0));
    let moe = m.moe.as_ref().unwrap();
    assert_eq!((moe.experts, moe.topk), (128, 4));
    assert!(imported.text.contains("layer 0..35 step 2 { mask = causal { window = 128 } }"), "{}", imported.text);
    let yarn = &imported.warnings[0];
    assert_eq!(yarn.field, "$.rope_scaling");
    assert!(yarn.message.contains("yarn RoPE scaling (factor 32"), "{}", yarn.message);
    assert!(yarn.message.contains("original_max_position_embeddings 4096"));
    // The warning points at its comment in the generated file.
    let line = imported.text.lines().nth(yarn.line - 1).unwrap();
    assert!(line.contains("# not modelled: $.rope_scaling"), "{line}");
    assert_eq!(imported.warnings.len(), 1, "{:#?}", imported.warnings);
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
    assert!(imported.text.contains("rope { theta = 10000, dims = 64 }"), "{}", imported.text);
    assert_eq!(imported.warnings.iter().map(|w| w.field.as_str()).collect::<Vec<_>>(), ["$.rope_scaling"]);
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
    assert_eq!(m.rope.as_ref().map(|r| r.theta), Some(1_000_000.0));
    // Most layers slide: the layout's mask is the window; full layers are the overrides.
    assert!(imported.text.contains("mask     = causal { window = 1024 }"), "{}", imported.text);
    assert!(imported.text.contains("layer 5..12 step 6 { mask = causal }"), "{}", imported.text);
    let fields: Vec<&str> = imported.warnings.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "$.text_config.rope_parameters.full_attention",
            "$.text_config.rope_parameters",
            "$.text_config.query_pre_attn_scalar"
        ]
    );
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
    assert_eq!(spec.layouts[0].cp, crate::sema::spec::Cp::Fixed { size: 8 });
    assert!(imported.text.contains("mask     = causal { chunk = 8192 }"), "{}", imported.text);
    assert!(imported.text.contains("layer 3..8 step 4 { rope = none, mask = causal }"), "{}", imported.text);
    assert!(imported.warnings[0].message.contains("llama3 RoPE scaling (factor 16"));
}

#[test]
fn qwen3_next_partial_rotary_and_linear_attention_layers_warn() {
    let json = r#"{"model_type": "qwen3_next", "num_hidden_layers": 4, "num_attention_heads": 16,
      "num_key_value_heads": 2, "head_dim": 256, "hidden_size": 2048, "intermediate_size": 5120,
      "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512, "rope_theta": 10000000,
      "partial_rotary_factor": 0.25, "linear_num_value_heads": 32,
      "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"]}"#;
    let (spec, imported) = check(json, &ImportOptions::default());
    assert!(imported.text.contains("rope { theta = 10000000, dims = 64 }"), "{}", imported.text);
    assert_eq!(spec.models[0].moe.as_ref().map(|m| m.experts), Some(512));
    let fields: Vec<&str> = imported.warnings.iter().map(|w| w.field.as_str()).collect();
    // The linear-attention layers' own sizes are not warned about one by one: the layers are.
    assert_eq!(fields, ["$.layer_types"], "{:#?}", imported.warnings);
    assert!(
        imported.warnings[0].message.contains("linear_attention on layers 0..3"),
        "{}",
        imported.warnings[0].message
    );
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
