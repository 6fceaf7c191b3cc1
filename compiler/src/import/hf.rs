//! A Hugging Face `config.json` as `.attn` text: the model block (layers, heads, KV heads, head
//! dims incl. MLA's, hidden sizes, MoE, RoPE base and rotary dims, sinks, soft-cap) and, given a
//! cluster and a length, a layout with `strategy = auto` whose layer overrides carry the config's
//! sliding windows, chunked attention and NoPE layers.
//!
//! What the config says about attention that the language cannot say yet (RoPE scaling, a softmax
//! scale other than 1/√d, layer kinds attnc does not plan, a RoPE base per layer type) becomes a
//! comment at the line where it would go and a warning naming the field and that line; it is never
//! dropped silently. Fields outside attention (vocabulary, norms, initialisation) are not read.
//! Both config shapes are read: transformers 4.x (`rope_theta`, `rope_scaling`) and 5.x
//! (`rope_parameters`, possibly per layer type), and multimodal configs' `text_config`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::Value;

/// The attention facts of a `config.json` (every field optional: families name them differently).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct HfConfig {
    pub model_type: Option<String>,
    pub num_hidden_layers: Option<u64>,
    pub num_attention_heads: Option<u64>,
    pub num_key_value_heads: Option<u64>,
    pub head_dim: Option<u64>,
    pub hidden_size: Option<u64>,
    pub intermediate_size: Option<u64>,
    pub moe_intermediate_size: Option<u64>,
    /// DeepSeek's routed experts.
    pub n_routed_experts: Option<u64>,
    /// Mixtral's, gpt-oss's, Llama-4's.
    pub num_local_experts: Option<u64>,
    /// Qwen-MoE's.
    pub num_experts: Option<u64>,
    pub num_experts_per_tok: Option<u64>,
    pub rope_theta: Option<f64>,
    pub rope_scaling: Option<RopeParams>,
    pub rope_parameters: Option<RopeParameters>,
    pub partial_rotary_factor: Option<f64>,
    /// MLA (DeepSeek-V3): the query/key head is `qk_nope_head_dim + qk_rope_head_dim` wide.
    pub qk_nope_head_dim: Option<u64>,
    pub qk_rope_head_dim: Option<u64>,
    pub v_head_dim: Option<u64>,
    pub sliding_window: Option<u64>,
    /// Per layer: `sliding_attention`, `full_attention`, `linear_attention`, ...
    pub layer_types: Option<Vec<String>>,
    pub attn_logit_softcapping: Option<f64>,
    pub query_pre_attn_scalar: Option<f64>,
    /// Llama-4: 1 where the layer rotates, 0 where it is NoPE.
    pub no_rope_layers: Option<Vec<u64>>,
    pub attention_chunk_size: Option<u64>,
    pub attention_dropout: Option<f64>,
    pub text_config: Option<Box<HfConfig>>,
    /// Everything else, to tell attention facts attnc does not read from fields outside attention.
    #[serde(flatten)]
    pub rest: BTreeMap<String, Value>,
}

/// transformers 5.x: one parameter set, or one per layer type (Gemma-3's two bases). Per layer
/// type is tried first: every value of it is an object, which a single set's values never are.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum RopeParameters {
    PerLayerType(BTreeMap<String, RopeParams>),
    One(Box<RopeParams>),
}

/// RoPE parameters (`rope_scaling` in 4.x, `rope_parameters` in 5.x).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct RopeParams {
    pub rope_type: Option<String>,
    /// The older spelling of `rope_type`; saved configs often carry both.
    #[serde(rename = "type")]
    pub legacy_type: Option<String>,
    pub rope_theta: Option<f64>,
    pub factor: Option<f64>,
    pub original_max_position_embeddings: Option<u64>,
    pub beta_fast: Option<f64>,
    pub beta_slow: Option<f64>,
    pub low_freq_factor: Option<f64>,
    pub high_freq_factor: Option<f64>,
    pub partial_rotary_factor: Option<f64>,
    pub attention_factor: Option<f64>,
    pub mscale: Option<f64>,
    pub mscale_all_dim: Option<f64>,
    pub truncate: Option<bool>,
    #[serde(flatten)]
    pub rest: BTreeMap<String, Value>,
}

impl RopeParams {
    /// `rope_type` (or the older `type`), `default` when neither is given.
    pub fn kind(&self) -> &str {
        self.rope_type.as_deref().or(self.legacy_type.as_deref()).unwrap_or("default")
    }
}

/// A cluster for the layout: nodes × GPUs per node of one GPU preset.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterShape {
    pub nodes: u32,
    pub gpus_per_node: u32,
    pub gpu: String,
}

impl ClusterShape {
    /// `NODESxGPUS` or `NODESxGPUS:GPU` (e.g. `2x8:h100_sxm`; the GPU defaults to `h100_sxm`).
    pub fn parse(text: &str) -> Result<ClusterShape, String> {
        let (shape, gpu) = text.split_once(':').unwrap_or((text, "h100_sxm"));
        let bad = || format!("`{text}` is not NODESxGPUS[:GPU], e.g. 2x8:h100_sxm");
        let (n, g) = shape.split_once('x').ok_or_else(bad)?;
        let nodes: u32 = n.parse().map_err(|_| bad())?;
        let gpus_per_node: u32 = g.parse().map_err(|_| bad())?;
        if nodes == 0 || gpus_per_node == 0 || gpu.is_empty() {
            return Err(bad());
        }
        Ok(ClusterShape { nodes, gpus_per_node, gpu: gpu.to_string() })
    }
}

/// What to import.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The model's name in the spec (default: the config's `model_type`).
    pub name: Option<String>,
    /// With `seq`: write a layout over this cluster (all its GPUs as CP ranks).
    pub cluster: Option<ClusterShape>,
    pub seq: Option<u64>,
}

/// A fact of the config that the spec does not carry.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportWarning {
    /// The JSON path of the field, e.g. `$.rope_scaling`.
    pub field: String,
    /// The line of the generated file where it would go (its comment is there), from 1.
    pub line: usize,
    pub message: String,
}

/// The generated spec and what it leaves out.
#[derive(Debug, Clone)]
pub struct Imported {
    pub text: String,
    pub warnings: Vec<ImportWarning>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ImportError {
    #[error("not JSON: {message} (line {line}, column {column})")]
    Syntax { message: String, line: usize, column: usize },
    #[error("{path}: {message}")]
    Field { path: String, message: String },
    #[error("{path}: missing; {help}")]
    Missing { path: String, help: String },
}

/// Fields outside attention: not read, not warned about.
const OUTSIDE_ATTENTION: &[&str] = &[
    "architectures",
    "attention_bias",
    "auto_map",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "tie_word_embeddings",
    "torch_dtype",
    "dtype",
    "initializer_range",
    "rms_norm_eps",
    "layer_norm_eps",
    "norm_eps",
    "use_cache",
    "transformers_version",
    "hidden_act",
    "hidden_activation",
    "vocab_size",
    "max_position_embeddings",
    "mlp_bias",
    "pretraining_tp",
    "router_aux_loss_coef",
    "output_router_logits",
    "router_jitter_noise",
    "router_z_loss_coef",
    "first_k_dense_replace",
    "moe_layer_freq",
    "n_group",
    "topk_group",
    "topk_method",
    "norm_topk_prob",
    "routed_scaling_factor",
    "scoring_func",
    "n_shared_experts",
    "shared_expert_intermediate_size",
    "decoder_sparse_step",
    "mlp_only_layers",
    "quantization_config",
    "num_nextn_predict_layers",
    "ep_size",
    "aux_loss_alpha",
    "seq_aux",
    "final_logit_softcapping",
    "use_qk_norm",
    "qk_layernorm",
    "interleave_moe_layer_step",
    "intermediate_size_mlp",
    "swiglu_limit",
    "kv_lora_rank",
    "q_lora_rank",
    "bos_token",
    "eos_token",
    "image_token_index",
    "vision_config",
    "model_type",
    "_name_or_path",
    "use_sliding_window",
    "max_window_layers",
    "num_attention_layers",
    "hidden_dropout",
    "embd_pdrop",
    "resid_pdrop",
    "attn_implementation",
    "cache_implementation",
    "layer_norm_epsilon",
    "moe_intermediate_size",
    "shared_expert_gate",
    "use_bias",
    // Carried by `layer_types`, or read on their own below.
    "sliding_window_pattern",
    "_sliding_window_pattern",
    "rope_local_base_freq",
    // Derived: qk_nope_head_dim + qk_rope_head_dim.
    "qk_head_dim",
    "moe_layers",
    // Linear-attention layers' own sizes: the `layer_types` warning names those layers.
    "linear_conv_kernel_dim",
    "linear_key_head_dim",
    "linear_value_head_dim",
    "linear_num_key_heads",
    "linear_num_value_heads",
];

/// Reads a `config.json`'s text; errors name the JSON path of the field that does not fit.
pub fn parse(text: &str) -> Result<HfConfig, ImportError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ImportError::Syntax {
        message: e.to_string().split(" at line").next().unwrap_or_default().to_string(),
        line: e.line(),
        column: e.column(),
    })?;
    from_value(&value, "$")
}

fn from_value(value: &Value, path: &str) -> Result<HfConfig, ImportError> {
    let Value::Object(fields) = value else {
        return Err(ImportError::Field { path: path.into(), message: "not an object".into() });
    };
    match serde_json::from_value::<HfConfig>(value.clone()) {
        Ok(c) => Ok(c),
        Err(whole) => {
            // Which field: each alone, and into the nested objects the struct reads.
            for (key, v) in fields {
                let field_path = format!("{path}.{key}");
                if key == "text_config" && v.is_object() {
                    from_value(v, &field_path)?;
                    continue;
                }
                let alone = Value::Object([(key.clone(), v.clone())].into_iter().collect());
                if let Err(e) = serde_json::from_value::<HfConfig>(alone) {
                    return Err(ImportError::Field { path: field_path, message: plain(&e) });
                }
            }
            Err(ImportError::Field { path: path.into(), message: plain(&whole) })
        }
    }
}

fn plain(e: &serde_json::Error) -> String {
    e.to_string()
}

/// The spec text for a config (`file` names it in the header comment).
pub fn import(config: &HfConfig, file: &str, options: &ImportOptions) -> Result<Imported, ImportError> {
    // Multimodal configs keep the language model in `text_config`.
    let (c, prefix) = match &config.text_config {
        Some(text) if config.num_hidden_layers.is_none() => (text.as_ref(), "$.text_config"),
        _ => (config, "$"),
    };
    let path = |f: &str| format!("{prefix}.{f}");
    let need = |v: Option<u64>, f: &str, help: &str| {
        v.ok_or_else(|| ImportError::Missing { path: path(f), help: help.to_string() })
    };
    let layers = need(c.num_hidden_layers, "num_hidden_layers", "the number of transformer layers")?;
    let heads = need(c.num_attention_heads, "num_attention_heads", "the number of query heads")?;
    let kv_heads = c.num_key_value_heads.unwrap_or(heads);
    let mla = c.qk_nope_head_dim.zip(c.qk_rope_head_dim);
    let head_dim = match (mla, c.head_dim, c.hidden_size) {
        (Some((nope, rope)), _, _) => nope + rope,
        (None, Some(d), _) => d,
        // As transformers' attention modules derive it (floor division).
        (None, None, Some(h)) if h >= heads => h / heads,
        _ => {
            return Err(ImportError::Missing {
                path: path("head_dim"),
                help: "no head_dim, and no hidden_size of at least num_attention_heads to derive it from".into(),
            });
        }
    };
    let model_type = config.model_type.clone().or_else(|| c.model_type.clone()).unwrap_or_else(|| "model".into());
    let name = options.name.clone().unwrap_or_else(|| identifier(&model_type));

    let mut out = Out::default();
    let mut warnings = Vec::new();
    // The header is the command that regenerates the file (`scripts/import-examples`' test reruns it).
    let mut command = format!("attnc import hf {file}");
    if let Some(n) = &options.name {
        let _ = write!(command, " --name {n}");
    }
    if let (Some(c), Some(seq)) = (&options.cluster, options.seq) {
        let _ = write!(command, " --cluster {}x{}:{} --seq {seq}", c.nodes, c.gpus_per_node, c.gpu);
    }
    out.line(format!("# Imported by `{command}` (model_type {model_type})."));
    out.line(format!("model {name} {{"));
    out.line(format!("  layers     = {layers}"));
    out.line(format!("  heads      = {heads}"));
    out.line(format!("  kv_heads   = {kv_heads}"));
    out.line(format!("  head_dim   = {head_dim}"));
    if let Some(v) = c.v_head_dim.filter(|&v| v != head_dim) {
        out.line(format!("  v_head_dim = {v}"));
    }
    if let Some(h) = c.hidden_size {
        out.line(format!("  hidden     = {h}"));
    }
    if let Some(f) = c.intermediate_size {
        out.line(format!("  ffn_hidden = {f}"));
    }
    let experts = c.n_routed_experts.or(c.num_local_experts).or(c.num_experts);
    if let (Some(e), Some(k)) = (experts, c.num_experts_per_tok) {
        let ffn = c.moe_intermediate_size.map(|f| format!(", ffn_hidden = {f}")).unwrap_or_default();
        out.line(format!("  moe {{ experts = {e}, topk = {k}{ffn} }}"));
    }

    // RoPE: the base, the rotated dims and the scaling; per layer type where 5.x gives a set per
    // type (Gemma-3) or 4.x a local base beside rope_theta.
    let (params, params_path) = rope_params(c, prefix);
    let theta = params.as_ref().and_then(|p| p.rope_theta).or(c.rope_theta);
    let fraction = params.as_ref().and_then(|p| p.partial_rotary_factor).or(c.partial_rotary_factor);
    let all_nope = c.no_rope_layers.as_ref().is_some_and(|l| l.iter().all(|&x| x == 0));
    let max_positions = c.rest.get("max_position_embeddings").and_then(Value::as_u64);
    let rope_of = |p: Option<&RopeParams>, theta: f64, out: &mut Out, warnings: &mut Vec<ImportWarning>, at: &str| {
        let dims = match (mla, fraction) {
            (Some((_, rope)), _) => format!(", dims = {rope}"),
            (None, Some(f)) if f < 1.0 => format!(", fraction = {}", number(f)),
            _ => String::new(),
        };
        let scaling = match p {
            Some(p) => scaling_text(p, max_positions, at, out, warnings),
            None => String::new(),
        };
        format!("rope {{ theta = {}{dims}{scaling} }}", number(theta))
    };
    // Per layer type: (type, its RoPE text) where the types' parameters differ.
    let mut per_type: Vec<(String, String)> = Vec::new();
    let mut model_rope = None;
    if let (Some(theta), false) = (theta, all_nope) {
        model_rope = Some(rope_of(params.as_ref(), theta, &mut out, &mut warnings, &params_path));
        match &c.rope_parameters {
            Some(RopeParameters::PerLayerType(per)) => {
                for (t, p) in per {
                    let at = format!("{prefix}.rope_parameters.{t}");
                    if at == params_path {
                        per_type.push((t.clone(), model_rope.clone().unwrap_or_default()));
                        continue;
                    }
                    let th = p.rope_theta.unwrap_or(theta);
                    per_type.push((t.clone(), rope_of(Some(p), th, &mut out, &mut warnings, &at)));
                }
            }
            // transformers 4.x Gemma-3: the sliding layers rotate with `rope_local_base_freq` and
            // no scaling (`rotary_emb_local`).
            _ => {
                if let Some(local) = c.rest.get("rope_local_base_freq").and_then(Value::as_f64) {
                    per_type.push(("full_attention".into(), model_rope.clone().unwrap_or_default()));
                    per_type.push(("sliding_attention".into(), rope_of(None, local, &mut out, &mut warnings, "")));
                }
            }
        }
    }
    // DeepSeek-V3's attention multiplies its softmax scale by YaRN's mscale(factor, mscale_all_dim)².
    let deepseek_scale = match (&params, model_type.starts_with("deepseek") || model_type.starts_with("kimi")) {
        (Some(p), true) if p.kind() != "default" => {
            p.mscale_all_dim.filter(|&m| m != 0.0).zip(p.factor).map(|(m, f)| {
                let mscale = crate::rope::yarn_mscale(f, m);
                (head_dim as f64).powf(-0.5) * mscale * mscale
            })
        }
        _ => None,
    };
    // The model's block is the RoPE most attention layers have; the others get `layer` blocks.
    let types = c.layer_types.clone().unwrap_or_default();
    let rope_for = |t: &str| per_type.iter().find(|(k, _)| k == t).map(|(_, r)| r.clone());
    let majority = {
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for t in &types {
            if let Some(r) = rope_for(t) {
                *count.entry(r).or_default() += 1;
            }
        }
        count.into_iter().max_by_key(|(_, n)| *n).map(|(r, _)| r)
    };
    let model_rope = majority.or(model_rope);
    if let Some(r) = &model_rope {
        out.line(format!("  {r}"));
    }
    if model_type.starts_with("gpt_oss") {
        out.line("  sinks      = learned");
    }
    if let Some(cap) = c.attn_logit_softcapping {
        out.line(format!("  softcap    = {}", number(cap)));
    }
    match (c.query_pre_attn_scalar.filter(|&s| s != head_dim as f64), deepseek_scale) {
        (Some(s), _) if s.fract() == 0.0 && s >= 1.0 => out.line(format!("  query_pre_attn_scalar = {}", number(s))),
        (Some(s), _) => out.line(format!("  softmax_scale = {}", number(s.powf(-0.5)))),
        (None, Some(scale)) => {
            out.line("  # DeepSeek: 1/sqrt(head_dim) times YaRN's mscale(factor, mscale_all_dim) squared");
            out.line(format!("  softmax_scale = {}", number(scale)));
        }
        (None, None) => {}
    }
    if let Some(p) = c.attention_dropout.filter(|&p| p > 0.0) {
        out.missing(&mut warnings, &path("attention_dropout"), format!("attention dropout {p}: attnc runs none"));
    }
    for (key, value) in &c.rest {
        // A switch left off (false) or a field left empty says nothing attnc lacks.
        if !OUTSIDE_ATTENTION.contains(&key.as_str()) && !matches!(value, Value::Bool(false) | Value::Null) {
            out.missing(&mut warnings, &path(key), format!("{key} = {value}: not read by attnc"));
        }
    }
    // Per-layer facts: which layers have a window, a chunk, no RoPE, or a kind attnc does not plan.
    let kinds = c.layer_types.clone().unwrap_or_default();
    for (list, len, field) in [
        (!kinds.is_empty(), kinds.len(), "layer_types"),
        (c.no_rope_layers.is_some(), c.no_rope_layers.as_ref().map_or(0, Vec::len), "no_rope_layers"),
    ] {
        if list && len as u64 != layers {
            return Err(ImportError::Field {
                path: path(field),
                message: format!("{len} entries for num_hidden_layers = {layers} layers"),
            });
        }
    }
    let windowed: Vec<u64> = match (c.sliding_window, kinds.is_empty()) {
        (Some(_), false) => {
            kinds.iter().enumerate().filter(|(_, k)| k.as_str() == "sliding_attention").map(|(i, _)| i as u64).collect()
        }
        (Some(_), true) if c.rest.get("use_sliding_window").is_none_or(|v| v == &Value::Bool(true)) => {
            (0..layers).collect()
        }
        _ => Vec::new(),
    };
    let nope: Vec<u64> = c
        .no_rope_layers
        .as_ref()
        .filter(|l| !all_nope && l.contains(&0))
        .map(|l| l.iter().enumerate().filter(|(_, x)| **x == 0).map(|(i, _)| i as u64).collect())
        .unwrap_or_default();
    // Llama-4: the chunked layers are the RoPE ones; the NoPE layers attend globally.
    let chunk = c.attention_chunk_size;
    // The model's `layer` blocks: kinds attnc does not plan, NoPE layers, and RoPE other than the
    // model block's, each as ranges of the layers with that fact.
    let mut facts: Vec<(String, Vec<u64>)> = Vec::new();
    let mut unknown: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    for layer in 0..layers {
        let kind = kinds.get(layer as usize).map(String::as_str);
        let fact = match kind {
            Some("linear_attention") => Some("kind = linear_attention".to_string()),
            Some("mamba") => Some("kind = mamba".to_string()),
            Some(k) if !matches!(k, "sliding_attention" | "full_attention" | "chunked_attention" | "attention") => {
                unknown.entry(k).or_default().push(layer);
                None
            }
            _ if nope.contains(&layer) => Some("rope = none".to_string()),
            Some(t) => rope_for(t).filter(|r| Some(r) != model_rope.as_ref()),
            None => None,
        };
        if let Some(fact) = fact {
            match facts.iter_mut().find(|(f, _)| *f == fact) {
                Some((_, l)) => l.push(layer),
                None => facts.push((fact, vec![layer])),
            }
        }
    }
    if !facts.is_empty() {
        out.line("");
    }
    for (fact, layers) in &facts {
        for r in ranges(layers) {
            out.line(format!("  layer {r} {{ {fact} }}"));
        }
    }
    if !unknown.is_empty() {
        let listed: Vec<String> =
            unknown.iter().map(|(k, l)| format!("{k} on layers {}", ranges(l).join(", "))).collect();
        out.missing(
            &mut warnings,
            &path("layer_types"),
            format!("layer kinds attnc does not know ({}): planned as attention", listed.join("; ")),
        );
    }
    out.line("}");

    match (&options.cluster, options.seq) {
        (Some(cluster), Some(seq)) => {
            out.line("");
            let cluster_name = format!("gpus_{}x{}", cluster.nodes, cluster.gpus_per_node);
            out.line(format!("cluster {cluster_name} {{"));
            out.line(format!("  nodes         = {}", cluster.nodes));
            out.line(format!("  gpus_per_node = {}", cluster.gpus_per_node));
            out.line(format!("  gpu           = {}", cluster.gpu));
            out.line("}");
            out.line("");
            out.line("layout pretrain {");
            out.line(format!("  model    = {name}"));
            out.line(format!("  cluster  = {cluster_name}"));
            out.line("  format   = bshd");
            out.line("  dtype    = bf16");
            out.line(format!("  seq      = {seq}"));
            let full: Vec<u64> = (0..layers).filter(|l| !windowed.contains(l)).collect();
            let window = c.sliding_window.unwrap_or(0);
            let windowed_mask = format!("causal {{ window = {window} }}");
            // The layout's mask is the one most layers have; the others are overrides.
            let (default_mask, other, other_mask) = match (chunk, windowed.len() as u64 * 2 > layers) {
                (Some(ch), _) => (format!("causal {{ chunk = {ch} }}"), nope.clone(), "causal".to_string()),
                (None, true) => (windowed_mask.clone(), full.clone(), "causal".to_string()),
                (None, false) => ("causal".to_string(), windowed.clone(), windowed_mask.clone()),
            };
            out.line(format!("  mask     = {default_mask}"));
            out.line(format!("  cp       = {}", cluster.nodes * cluster.gpus_per_node));
            out.line("  strategy = auto");
            let overrides = ranges(&other);
            if !overrides.is_empty() {
                out.line("");
            }
            for r in overrides {
                out.line(format!("  layer {r} {{ mask = {other_mask} }}"));
            }
            out.line("}");
        }
        _ => {
            let mut first = true;
            let window = c.sliding_window.map(|w| format!("window {w} on layers {}", ranges(&windowed).join(", ")));
            let chunk = chunk.map(|ch| format!("chunk {ch} on the RoPE layers"));
            for fact in [window, chunk].into_iter().flatten() {
                // A blank line between the model block and the comments, as `attnc fmt` prints them.
                if std::mem::take(&mut first) {
                    out.line("");
                }
                out.line(format!("# per layer (a layout's `layer` overrides; give --cluster and --seq): {fact}"));
            }
        }
    }
    Ok(canonical(Imported { text: out.text, warnings }))
}

/// The text in `attnc fmt`'s canonical form (examples must be), each warning's line moved with
/// its comment. Text the parser rejects is left as written, for the caller's check to report.
fn canonical(imported: Imported) -> Imported {
    let (tree, diagnostics) = crate::front::parser::parse_file(Default::default(), &imported.text);
    if !diagnostics.is_empty() {
        return imported;
    }
    let text = crate::front::print_file(&tree);
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    let warnings = imported
        .warnings
        .into_iter()
        .map(|w| {
            let comment = format!("# not modelled: {}: ", w.field);
            let line = (from..lines.len()).find(|&i| lines[i].contains(&comment)).map_or(w.line, |i| {
                from = i + 1;
                i + 1
            });
            ImportWarning { line, ..w }
        })
        .collect();
    Imported { text, warnings }
}

#[derive(Default)]
struct Out {
    text: String,
    lines: usize,
}

impl Out {
    fn line(&mut self, s: impl AsRef<str>) {
        let _ = writeln!(self.text, "{}", s.as_ref());
        self.lines += 1;
    }

    /// A fact the spec cannot carry: a comment here and a warning naming the field and this line.
    fn missing(&mut self, warnings: &mut Vec<ImportWarning>, field: &str, message: String) {
        self.line(format!("  # not modelled: {field}: {message}"));
        warnings.push(ImportWarning { field: field.to_string(), line: self.lines, message });
    }
}

/// `, scaling = KIND { ... }` for RoPE parameters (empty for the default); a type attnc does not
/// rotate with (dynamic NTK, LongRoPE, ...) or an incomplete one is warned at `at`.
fn scaling_text(
    p: &RopeParams,
    max_positions: Option<u64>,
    at: &str,
    out: &mut Out,
    warnings: &mut Vec<ImportWarning>,
) -> String {
    let kind = p.kind();
    let original = p.original_max_position_embeddings.or(max_positions);
    let mut args: Vec<String> = Vec::new();
    let mut arg = |k: &str, v: Option<f64>| {
        if let Some(v) = v {
            args.push(format!("{k} = {}", number(v)));
        }
    };
    let complete = match kind {
        "default" => return String::new(),
        "linear" => {
            arg("factor", p.factor);
            p.factor.is_some()
        }
        "llama3" => {
            arg("factor", p.factor);
            arg("original", original.map(|o| o as f64));
            arg("low_freq_factor", p.low_freq_factor);
            arg("high_freq_factor", p.high_freq_factor);
            p.factor.is_some() && original.is_some() && p.low_freq_factor.is_some() && p.high_freq_factor.is_some()
        }
        "yarn" => {
            arg("factor", p.factor);
            arg("original", original.map(|o| o as f64));
            arg("beta_fast", p.beta_fast);
            arg("beta_slow", p.beta_slow);
            arg("attention_factor", p.attention_factor);
            arg("mscale", p.mscale);
            arg("mscale_all_dim", p.mscale_all_dim);
            if p.truncate == Some(false) {
                args.push("truncate = false".into());
            }
            p.factor.is_some() && original.is_some()
        }
        _ => false,
    };
    if complete {
        return format!(", scaling = {kind} {{ {} }}", args.join(", "));
    }
    let mut facts: Vec<String> = Vec::new();
    for (k, v) in
        [("factor", p.factor), ("low_freq_factor", p.low_freq_factor), ("high_freq_factor", p.high_freq_factor)]
    {
        if let Some(v) = v {
            facts.push(format!("{k} {}", number(v)));
        }
    }
    let why = if matches!(kind, "linear" | "llama3" | "yarn") {
        "incomplete: attnc rotates with the unscaled frequencies"
    } else {
        "attnc rotates with linear, llama3 and yarn scaling only; this layer rotates unscaled"
    };
    out.missing(warnings, at, format!("{kind} RoPE scaling ({}): {why}", facts.join(", ")));
    String::new()
}

/// The RoPE parameters of the config and their JSON path (5.x, else 4.x's scaling).
fn rope_params(c: &HfConfig, prefix: &str) -> (Option<RopeParams>, String) {
    match &c.rope_parameters {
        Some(RopeParameters::One(p)) => (Some(p.as_ref().clone()), format!("{prefix}.rope_parameters")),
        // Per layer type: the full-attention layers' parameters lead (they carry the long base).
        Some(RopeParameters::PerLayerType(per)) => {
            let (key, p) =
                per.iter().find(|(k, _)| k.as_str() == "full_attention").or_else(|| per.iter().next()).unzip();
            (p.cloned(), format!("{prefix}.rope_parameters.{}", key.map_or("", |k| k.as_str())))
        }
        None => (c.rope_scaling.clone(), format!("{prefix}.rope_scaling")),
    }
}

/// Layer indices as the language's ranges: the fewest of runs of consecutive layers and of one
/// `a..b step p` per residue of a period p (Qwen3-Next's three linear-attention layers in every
/// four: `0..45 step 4`, `1..46 step 4`, `2..47 step 4`).
fn ranges(layers: &[u64]) -> Vec<String> {
    let runs = runs(layers);
    let Some(&last) = layers.last() else { return runs };
    let mut best = runs;
    for period in 2..=last.max(2) {
        let mut groups: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        for &l in layers {
            groups.entry(l % period).or_default().push(l);
        }
        if groups.len() >= best.len() {
            continue;
        }
        let spaced = groups.values().all(|g| g.windows(2).all(|w| w[1] - w[0] == period));
        if spaced {
            let mut ordered: Vec<&Vec<u64>> = groups.values().collect();
            ordered.sort_by_key(|g| g[0]);
            best = ordered
                .iter()
                .map(|g| match g.as_slice() {
                    [one] => format!("{one}..{}", one + 1),
                    _ => format!("{}..{} step {period}", g[0], g[g.len() - 1] + 1),
                })
                .collect();
        }
    }
    best
}

/// Runs of consecutive layers, `a..b` each.
fn runs(layers: &[u64]) -> Vec<String> {
    let mut out = Vec::new();
    let Some(&first) = layers.first() else { return out };
    let mut start = first;
    for w in layers.windows(2) {
        if w[1] != w[0] + 1 {
            out.push(format!("{start}..{}", w[0] + 1));
            start = w[1];
        }
    }
    out.push(format!("{start}..{}", layers[layers.len() - 1] + 1));
    out
}

/// A model name the language reads: letters, digits and `_`, not starting with a digit.
fn identifier(s: &str) -> String {
    let mut id: String = s.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect();
    if id.is_empty() || id.starts_with(|ch: char| ch.is_ascii_digit()) {
        id.insert(0, 'm');
    }
    id
}

/// A number as the language writes it: integers without a fraction.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{}", x as i64) } else { format!("{x}") }
}

#[cfg(test)]
mod tests;
