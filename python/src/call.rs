//! One attention call as a layout: the call's arguments become the text of a spec, which the
//! compiler checks like any `.attn` file. Every line of that text remembers the argument it came
//! from, so a diagnostic is reported as an error naming the argument.

use std::fmt::Write as _;

/// What decides a call's plan: shapes, format, mask, features, the group's size and strategy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    /// Query heads, KV heads, q/k head dim and v head dim of the local (tensor-parallel) slice.
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub v_head_dim: u32,
    /// sbhd/bshd: the batch and the full sequence length (cp × the local length).
    pub batch: u32,
    pub seq: u64,
    /// `sbhd`, `bshd` or `thd`.
    pub format: String,
    /// `fp32`, `bf16` or `fp16`.
    pub dtype: String,
    /// attnc's mask: `none`, `causal`, `padding` or `padding_causal`, or a mask expression (the
    /// call's `mask` argument, docs/language.md).
    pub mask: String,
    /// Keys per query of a sliding window (TE's `window_size = (W − 1, 0)`).
    pub window: Option<u64>,
    /// Soft-capping, as the bits of the f64 (so that calls hash).
    pub softcap_bits: Option<u64>,
    /// A score expression of `s` (the call's `score` argument, docs/language.md).
    pub score: Option<String>,
    /// The score's learned parameters, in order (the call's `score_params` names).
    pub params: Vec<String>,
    /// The softmax scale when it is not 1/√head_dim, as the bits of the f64.
    pub softmax_scale_bits: Option<u64>,
    pub sinks: bool,
    pub cp: u32,
    /// Tensor-parallel slices of `heads` query heads planned together, the call's slice among
    /// them (its `head_offset`): 1 unless a mask reads the head `h` at a head offset, where the
    /// plan is the one a spec with `tp` makes (the mask's hull over the slices' heads, tested per
    /// pair with the call's heads counted from its offset).
    pub tp: u32,
    /// `p2p`, `all_gather`, `a2a`, `a2a+p2p` or `auto`.
    pub strategy: String,
    /// a2a+p2p: the a2a group's size, then the p2p group's.
    pub hierarchy: Option<(u32, u32)>,
    /// thd: the packed buffer's padded tokens and its longest padded sequence.
    pub max_tokens: u64,
    pub max_seqlen: u64,
    /// The GPU preset the cost model prices `auto` with.
    pub gpu: String,
}

/// A call's spec text and, per line, the argument it came from.
pub struct SpecText {
    pub text: String,
    lines: Vec<&'static str>,
}

impl SpecText {
    /// The argument a byte offset of the text came from.
    pub fn argument_at(&self, offset: usize) -> &'static str {
        let line = self.text[..offset.min(self.text.len())].matches('\n').count();
        self.lines.get(line).copied().unwrap_or("the call")
    }
}

/// The name of the call's layout in its spec.
pub const LAYOUT: &str = "call";

impl Call {
    pub fn spec(&self) -> SpecText {
        let mut spec = SpecText { text: String::new(), lines: Vec::new() };
        let mut line = |argument: &'static str, text: String| {
            let _ = writeln!(spec.text, "{text}");
            spec.lines.push(argument);
        };
        line("the call", "model attention {".into());
        line("the call", "  layers = 1".into());
        line("q", format!("  heads = {}", self.heads * self.tp));
        line("k", format!("  kv_heads = {}", self.kv_heads * self.tp));
        line("q", format!("  head_dim = {}", self.head_dim));
        line("v", format!("  v_head_dim = {}", self.v_head_dim));
        if let Some(bits) = self.softcap_bits {
            line("softcap", format!("  softcap = {}", f64::from_bits(bits)));
        }
        if !self.params.is_empty() {
            line("score_params", format!("  params = [{}]", self.params.join(", ")));
        }
        if let Some(score) = &self.score {
            line("score", format!("  score = {score}"));
        }
        if self.sinks {
            line("sinks", "  sinks = learned".into());
        }
        if let Some(bits) = self.softmax_scale_bits {
            line("softmax_scale", format!("  softmax_scale = {}", f64::from_bits(bits)));
        }
        line("the call", "}".into());
        let (nodes, per_node) = match self.hierarchy {
            Some((a2a, p2p)) => (p2p, a2a),
            None => (1, self.cp),
        };
        line("the call", "cluster group {".into());
        line("cp_group", format!("  nodes = {nodes}"));
        line("cp_group", format!("  gpus_per_node = {}", per_node * self.tp));
        line("the call", format!("  gpu = {}", self.gpu));
        line("the call", "}".into());
        line("the call", format!("layout {LAYOUT} {{"));
        line("the call", "  model = attention".into());
        line("the call", "  cluster = group".into());
        if self.format == "thd" {
            line(
                "cu_seqlens_q_padded",
                format!("  format = thd {{ max_seqlen = {}, max_tokens = {} }}", self.max_seqlen, self.max_tokens),
            );
        } else {
            line("qkv_format", format!("  format = {}", self.format));
            line("q", format!("  batch = {}", self.batch));
            line("q", format!("  seq = {}", self.seq));
        }
        line("q", format!("  dtype = {}", self.dtype));
        let mask = match self.window {
            Some(w) => format!("{} {{ window = {w} }}", self.mask),
            None => self.mask.clone(),
        };
        // A mask expression (the call's `mask`) is not a name: its errors name that argument.
        let expression = !self.mask.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let argument = match (expression, self.window.is_some()) {
            (true, _) => "mask",
            (false, true) => "window_size",
            (false, false) => "attn_mask_type",
        };
        line(argument, format!("  mask = {mask}"));
        line("cp_group", format!("  cp = {}", self.cp));
        if self.tp > 1 {
            // The call's shards are its CP shards whole: no sequence parallelism splits them.
            line("head_offset", format!("  tp = {}", self.tp));
            line("head_offset", "  sequence_parallel = false".into());
        }
        let strategy = match self.hierarchy {
            Some((a2a, p2p)) => format!("a2a+p2p {{ hierarchy = [{a2a}, {p2p}] }}"),
            None => self.strategy.clone(),
        };
        line("cp_comm_type", format!("  strategy = {strategy}"));
        line("the call", "}".into());
        spec
    }
}
