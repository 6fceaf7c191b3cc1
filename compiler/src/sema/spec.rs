//! The resolved spec: every item checked, every reference resolved, every default filled in.
//!
//! This is what `attnc check --emit json` prints and what the planner consumes.
//! A layout carries copies of its model and cluster so it stands alone.

use serde::Serialize;

/// The format version of the JSON form of [`Spec`].
pub const SPEC_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spec {
    pub version: u32,
    pub models: Vec<Model>,
    pub clusters: Vec<Cluster>,
    pub layouts: Vec<Layout>,
}

/// `attnc check --emit json` of one file: its resolved spec and the file's path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileSpec<'a> {
    #[serde(flatten)]
    pub spec: &'a Spec,
    pub file: String,
}

impl Spec {
    pub fn layout(&self, name: &str) -> Option<&Layout> {
        self.layouts.iter().find(|l| l.name == name)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Model {
    pub name: String,
    pub layers: u32,
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    /// `v_head_dim = N`: the value (and output) head dim when it differs from `head_dim` (MLA:
    /// 192 for q and k, 128 for v); `None` when equal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v_head_dim: Option<u32>,
    /// The model's hidden size (`hidden = N`), when the spec says it: Megatron-LM's
    /// `--hidden-size` (not derived: heads × head_dim is not the hidden size of every model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<u64>,
    /// The dense MLP's hidden size (`ffn_hidden = N`): Megatron-LM's `--ffn-hidden-size`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffn_hidden: Option<u64>,
    /// `moe { experts = N, topk = K, ffn_hidden = F }`: a mixture-of-experts MLP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moe: Option<Moe>,
    pub rope: Option<Rope>,
    /// `sinks = learned`: one learned logit per query head in every row's softmax denominator
    /// (gpt-oss's attention sinks); input `sinks`, output `dsinks`.
    pub sinks: bool,
    /// `softcap = X`: logit soft-capping, s ↦ X·tanh(s/X) before the mask (Gemma 2: 50).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub softcap: Option<f64>,
}

impl Model {
    /// The value and output head dim: `v_head_dim`, else `head_dim`.
    pub fn v_dim(&self) -> u32 {
        self.v_head_dim.unwrap_or(self.head_dim)
    }
}

/// A mixture-of-experts MLP (attnc does not plan it; Megatron-LM's arguments need it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moe {
    /// Routed experts: `--num-experts`.
    pub experts: u32,
    /// Experts per token: `--moe-router-topk`.
    pub topk: u32,
    /// One expert's hidden size: `--moe-ffn-hidden-size` (the dense `ffn_hidden` when not given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffn_hidden: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rope {
    pub theta: f64,
    /// How many of each q and k head's dims rotate: the last `dims` (rotate-half within them,
    /// frequencies over `dims`), as MLA's decoupled RoPE; `head_dim` unless given.
    pub dims: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cluster {
    pub name: String,
    pub nodes: u32,
    pub gpus_per_node: u32,
    /// nodes * gpus_per_node.
    pub gpus: u32,
    pub gpu: Gpu,
    pub intra: Link,
    pub inter: Link,
}

/// A GPU preset's published figures (dense, without sparsity).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gpu {
    pub name: String,
    pub peak_bf16_tflops: f64,
    pub peak_fp32_tflops: f64,
    pub hbm_bytes_per_s: f64,
    pub memory_bytes: u64,
    /// The CUDA compute capability × 10 (90 for sm_90, Hopper); `None` for a GPU that is not
    /// NVIDIA's (TransformerEngine's checks and attnc's PTX kernels need one).
    pub sm: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Link {
    pub kind: String,
    /// One direction, bytes per second.
    pub bandwidth_bytes_per_s: f64,
    pub latency_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Format {
    Sbhd,
    Bshd,
    Thd { max_seqlen: u64, max_tokens: u64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dtype {
    Fp32,
    Bf16,
    Fp16,
}

impl Dtype {
    /// The dtype as the spec language writes it.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Dtype::Fp32 => 4,
            Dtype::Bf16 | Dtype::Fp16 => 2,
        }
    }
}

/// Which keys a query sees. Windows count keys: `window = W` sees keys i-W+1 ..= i. Chunks cut
/// the sequence: `chunk = C` lets i see j ≤ i with ⌊i/C⌋ = ⌊j/C⌋ (positions within the
/// sequence); a mask has a window or a chunk, not both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Mask {
    None,
    Causal {
        window: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        chunk: Option<u64>,
    },
    Padding,
    PaddingCausal {
        window: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        chunk: Option<u64>,
    },
}

impl Mask {
    /// Plain causal attention (no window, no chunk).
    pub const CAUSAL: Mask = Mask::Causal { window: None, chunk: None };
    /// Causal attention within each packed sequence, padding hidden.
    pub const PADDING_CAUSAL: Mask = Mask::PaddingCausal { window: None, chunk: None };

    /// The sliding window, if any.
    pub fn window(self) -> Option<u64> {
        match self {
            Mask::Causal { window, .. } | Mask::PaddingCausal { window, .. } => window,
            Mask::None | Mask::Padding => None,
        }
    }

    /// The attention chunk, if any.
    pub fn chunk(self) -> Option<u64> {
        match self {
            Mask::Causal { chunk, .. } | Mask::PaddingCausal { chunk, .. } => chunk,
            Mask::None | Mask::Padding => None,
        }
    }

    pub fn is_causal(self) -> bool {
        matches!(self, Mask::Causal { .. } | Mask::PaddingCausal { .. })
    }

    pub fn is_padding(self) -> bool {
        matches!(self, Mask::Padding | Mask::PaddingCausal { .. })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Cp {
    Fixed {
        size: u32,
    },
    /// Megatron-LM's hybrid CP: each packed sequence gets its own power-of-two group in a pool of `dp_cp` GPUs.
    Hybrid {
        dp_cp: u32,
        max_seqlen_per_rank: u64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Balance {
    Zigzag,
    Contiguous,
    /// Whichever of the two the cost model simulates faster for the layout's layers (`driver`);
    /// zigzag where unresolved, and always for thd.
    Auto,
}

impl Balance {
    /// The split the pipeline makes: `auto` not yet resolved splits zigzag.
    pub fn concrete(self) -> Balance {
        if self == Balance::Auto { Balance::Zigzag } else { self }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Strategy {
    P2p,
    AllGather,
    A2a,
    #[serde(rename = "a2a+p2p")]
    A2aP2p {
        hierarchy: Vec<u32>,
    },
    Auto,
}

impl Strategy {
    /// The name as written in a spec and as Megatron's `cp_comm_type` spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::P2p => "p2p",
            Strategy::AllGather => "all_gather",
            Strategy::A2a => "a2a",
            Strategy::A2aP2p { .. } => "a2a+p2p",
            Strategy::Auto => "auto",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Layout {
    pub name: String,
    pub model: Model,
    pub cluster: Cluster,
    pub format: Format,
    pub dtype: Dtype,
    /// 1 for thd, whose batch is one packed buffer.
    pub batch: u32,
    /// Tokens per sequence; for thd, the packed buffer's `max_tokens`.
    pub seq: u64,
    pub tp: u32,
    pub cp: Cp,
    pub dp: u32,
    pub pp: u32,
    pub ep: u32,
    pub sequence_parallel: bool,
    pub balance: Balance,
    /// The layout-wide defaults, before per-layer overrides.
    pub strategy: Strategy,
    pub mask: Mask,
    /// Exactly `model.layers` entries: the settings each layer runs with.
    pub layers: Vec<LayerSettings>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayerSettings {
    pub strategy: Strategy,
    pub mask: Mask,
    /// Whether the layer rotates q and k: the model has a `rope` block and the layer is not
    /// `rope = none` (NoPE).
    pub rope: bool,
    /// How KV moves under a local mask (not written in specs: the driver chooses it, or the
    /// CLI's `--exchange`).
    #[serde(skip_serializing_if = "Exchange::is_auto")]
    pub exchange: Exchange,
}

/// How a layer under a window or chunks moves its KV with `p2p`, `all_gather` or at the p2p level
/// of `a2a+p2p`: a halo exchange of exactly the needed rows, or the strategy's own communication
/// (the ring's shifts, trimmed forward to the rows later holders read; the all-gather). The
/// driver resolves `Auto` with the cost model (`tune::auto_exchange`); the pipeline reads an
/// unresolved `Auto` as "the halo when it moves no more rows".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    #[default]
    Auto,
    Halo,
    /// The strategy's own communication (the ring, the all-gather).
    Full,
}

impl Exchange {
    pub fn is_auto(&self) -> bool {
        *self == Exchange::Auto
    }
}
