//! Megatron-LM's checks of its arguments (`validate_args` in `megatron/training/arguments.py`,
//! `TransformerConfig.__post_init__` in `megatron/core/transformer/transformer_config.py`, and
//! `initialize_model_parallel` in `megatron/core/parallel_state.py`), transcribed for the
//! arguments attnc prints: each [`Violation`] names the assert it transcribes.
//!
//! Read at Megatron-LM commit d98e8a64 (the commit of `megatron-args.txt`). Only the checks
//! that concern the flags attnc prints are here: parallel sizes, layers and stages, heads and
//! query groups, sequence length, context-parallel communication, experts, RoPE and windows.

use std::collections::HashMap;

use super::{Arguments, known_flags};

/// One failed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Megatron-LM's message (or the condition, where the assert has none).
    pub megatron_says: String,
    /// `path:line` at d98e8a64.
    pub source: &'static str,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.megatron_says, self.source)
    }
}

/// Megatron-LM's checks of `args` on a job of `world_size` GPUs.
pub fn validate(args: &Arguments, world_size: u32) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut fail = |megatron_says: String, source: &'static str| out.push(Violation { megatron_says, source });
    let flags: HashMap<&str, &[String]> = args.args.iter().map(|a| (a.flag, a.values.as_slice())).collect();
    let has = |flag: &str| flags.contains_key(flag);
    let int = |flag: &str| -> Option<u64> { flags.get(flag).and_then(|v| v.first()).and_then(|v| v.parse().ok()) };
    let size = |flag: &str| int(flag).unwrap_or(1);

    // The parser: every flag is one Megatron defines.
    let known: Vec<&str> = known_flags().collect();
    for arg in &args.args {
        if !known.contains(&arg.flag) {
            fail(format!("error: unrecognized arguments: {}", arg.flag), "megatron/training/arguments.py (argparse)");
        }
    }
    // Required arguments (arguments.py:1314-1318, _check_arg_is_not_none).
    for flag in ["--num-layers", "--hidden-size", "--num-attention-heads", "--max-position-embeddings"] {
        if !has(flag) {
            fail(
                format!("{} argument is None", flag.trim_start_matches("--").replace('-', "_")),
                "megatron/training/arguments.py:1314",
            );
        }
    }
    let (tp, pp, cp) =
        (size("--tensor-model-parallel-size"), size("--pipeline-model-parallel-size"), size("--context-parallel-size"));
    let world = world_size as u64;
    // Total model size (arguments.py:432).
    if world % (tp * pp * cp) != 0 {
        fail(
            format!("world size ({world}) is not divisible by total_model_size ({})", tp * pp * cp),
            "megatron/training/arguments.py:432",
        );
    }
    let layers = int("--num-layers").unwrap_or(0);
    let heads = int("--num-attention-heads").unwrap_or(1);
    // kv_channels defaults to hidden / heads, which must be whole (arguments.py:1331-1333).
    if !has("--kv-channels")
        && let Some(hidden) = int("--hidden-size")
        && hidden % heads != 0
    {
        fail(
            "assert args.hidden_size % args.num_attention_heads == 0".to_string(),
            "megatron/training/arguments.py:1332",
        );
    }
    // Sequence length (arguments.py:1335-1338, 1353-1356).
    if let Some(seq) = int("--seq-length") {
        if cp > 1 && seq % (2 * cp) != 0 {
            fail(
                "seq-length should be a multiple of 2 * context-parallel-size if context-parallel-size > 1."
                    .to_string(),
                "megatron/training/arguments.py:1336",
            );
        }
        if int("--max-position-embeddings").is_some_and(|m| m < seq) {
            fail(
                "max_position_embeddings must be greater than or equal to seq_length".to_string(),
                "megatron/training/arguments.py:1354",
            );
        }
    }
    // Pipeline stages: even, or uneven first/last (arguments.py:985-998; transformer_config.py
    // 2295-2352).
    let first = int("--decoder-first-pipeline-num-layers");
    let last = int("--decoder-last-pipeline-num-layers");
    if first.is_none() && last.is_none() {
        if layers % pp != 0 {
            fail(
                "Number of layers should be divisible by the pipeline-model-parallel size".to_string(),
                "megatron/training/arguments.py:998",
            );
        }
    } else {
        let (mut middle_layers, mut middle_stages) = (layers as i64, pp as i64);
        for (stage, n, source) in [
            ("first", first, "megatron/core/transformer/transformer_config.py:2304"),
            ("last", last, "megatron/core/transformer/transformer_config.py:2323"),
        ] {
            if let Some(n) = n {
                if n == 0 {
                    fail(format!("num_layers_in_{stage}_pipeline_stage must be larger than 0"), source);
                }
                middle_layers -= n as i64;
                middle_stages -= 1;
            }
        }
        if (middle_layers != 0) != (middle_stages != 0) || middle_layers < 0 {
            fail(
                format!(
                    "Mismatch: {middle_layers} middle layers remaining but {middle_stages} middle PP stages available."
                ),
                "megatron/core/transformer/transformer_config.py:2341",
            );
        } else if middle_stages > 0 && middle_layers % middle_stages != 0 {
            fail(
                format!(
                    "number of layers at middle stage: {middle_layers} must be divisible by the middle pipeline model parallel size {middle_stages}"
                ),
                "megatron/core/transformer/transformer_config.py:2349",
            );
        }
    }
    // Heads and query groups over TP (transformer_config.py:1446, 1460-1467).
    if heads % tp != 0 {
        fail(
            format!("num_attention_heads ({heads}) must be a multiple of tensor_model_parallel_size ({tp})."),
            "megatron/core/transformer/transformer_config.py:1446",
        );
    }
    let groups = int("--num-query-groups").unwrap_or(heads);
    if groups % tp != 0 && tp % groups != 0 {
        fail(
            format!("num_query_groups ({groups}) must be a multiple or divisor of tensor_model_parallel_size ({tp})."),
            "megatron/core/transformer/transformer_config.py:1462",
        );
    }
    if has("--multi-latent-attention") && has("--group-query-attention") {
        fail(
            "Group query attention is mutually exclusive with multi latent attention.".to_string(),
            "megatron/training/arguments.py:1974",
        );
    }
    // Context-parallel communication (arguments.py:580-585; transformer_config.py:3103-3107).
    let comm: &[String] = flags.get("--cp-comm-type").copied().unwrap_or(&[]);
    if let Some(sizes) = flags.get("--hierarchical-context-parallel-sizes") {
        let product: u64 = sizes.iter().filter_map(|s| s.parse::<u64>().ok()).product();
        if product != cp {
            fail(
                "assert args.context_parallel_size == prod(args.hierarchical_context_parallel_sizes)".to_string(),
                "megatron/training/arguments.py:582",
            );
        }
    } else if comm.iter().any(|c| c == "a2a+p2p") {
        fail(
            "--hierarchical-context-parallel-sizes must be set when a2a+p2p is used in cp comm".to_string(),
            "megatron/training/arguments.py:585",
        );
    }
    if cp > 1 && comm.len() > 1 && comm.len() as u64 != layers {
        fail(
            format!(
                "Length of cp_comm_type ({}) should equal to the total number of transformer layers ({layers})!",
                comm.len()
            ),
            "megatron/core/transformer/transformer_config.py:3105",
        );
    }
    // Hybrid CP (arguments.py:1444-1449).
    if has("--hybrid-context-parallel") {
        if pp > 1 {
            fail(
                "Hybrid context parallelism not supported with pipeline parallelism".to_string(),
                "megatron/training/arguments.py:1445",
            );
        }
        if !has("--calculate-per-token-loss") {
            fail(
                "Hybrid context parallelism must be used with --calculate-per-token-loss".to_string(),
                "megatron/training/arguments.py:1449",
            );
        }
    }
    // Experts (arguments.py:1655-1658; parallel_state.py:874-883).
    let ep = size("--expert-model-parallel-size");
    if ep > 1 {
        match int("--num-experts") {
            None => fail(
                "num_experts must be non None to use expert model parallelism".to_string(),
                "megatron/training/arguments.py:1656",
            ),
            Some(experts) if experts % ep != 0 => fail(
                "Number of experts should be a multiple of expert model parallel_size.".to_string(),
                "megatron/training/arguments.py:1657",
            ),
            Some(_) => {}
        }
        if world % (tp * ep * pp) != 0 {
            fail(
                format!(
                    "world_size ({world}) is not divisible by expert_tensor_model_pipeline_parallel size ({})",
                    tp * ep * pp
                ),
                "megatron/core/parallel_state.py:881",
            );
        }
    }
    // NoPE layers (transformer_config.py:3138-3153).
    if let Some(freq) = flags.get("--no-rope-freq").and_then(|v| v.first()) {
        match freq.parse::<u64>() {
            Ok(n) if n == 0 || layers % n != 0 => fail(
                format!("no_rope_freq={n} should be divisible by num_layers={layers}."),
                "megatron/core/transformer/transformer_config.py:3141",
            ),
            Ok(_) => {}
            Err(_) => {
                if pattern_len(freq) != layers as usize {
                    fail(
                        format!(
                            "Length of no_rope list ({}) must match the number of layers ({layers})",
                            pattern_len(freq)
                        ),
                        "megatron/core/transformer/transformer_config.py:3150",
                    );
                }
            }
        }
    }
    // Window pattern: indexed by 1-based layer number (core/transformer/utils.py:531-542).
    if let Some(freq) = flags.get("--window-attn-skip-freq").and_then(|v| v.first())
        && freq.starts_with('[')
        && pattern_len(freq) < layers as usize
    {
        fail(
            format!(
                "window_attn_skip_freq[layer_number - 1]: list index out of range (a list of {} for {layers} layers)",
                pattern_len(freq)
            ),
            "megatron/core/transformer/utils.py:542",
        );
    }
    out
}

/// The entries of a `[1,0,1]` pattern.
fn pattern_len(text: &str) -> usize {
    text.trim_matches(|c| c == '[' || c == ']').split(',').filter(|s| !s.trim().is_empty()).count()
}
