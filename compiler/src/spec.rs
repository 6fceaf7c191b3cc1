//! The resolved spec: every item checked, every reference resolved, every default filled in.
//!
//! This is what `attnc check --emit json` prints and what the planner consumes.
//! A layout carries copies of its model and cluster so it stands alone.

use serde::Serialize;

pub use crate::band::Band;

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
    /// `softcap = X` (logit soft-capping, s ↦ X·tanh(s/X), Gemma 2: 50) or `score = EXPR`: each
    /// scaled score's modification before the mask and the softmax.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<&'static Score>,
    /// The softmax scale multiplying q·k: `softmax_scale = X`, or `query_pre_attn_scalar = N`
    /// read as N^(−1/2) (Gemma 2 and 3); `None`: 1/√head_dim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub softmax_scale: Option<f64>,
    /// The model's `layer A..B [step S] { ... }` blocks: layers whose kind or RoPE differs from
    /// the model's (in source order; no layer is in two).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layer_blocks: Vec<ModelLayers>,
}

/// A model's `layer A..B [step S] { kind = K, rope { ... } | rope = none }` block.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelLayers {
    pub start: u32,
    pub end: u32,
    pub step: u32,
    /// What these layers are; attnc plans only `attention`.
    #[serde(skip_serializing_if = "LayerKind::is_attention")]
    pub kind: LayerKind,
    /// These layers' own RoPE (replacing the model's block: Gemma 3's 10K base on its sliding
    /// layers), `None` with `nope` or when they rotate as the model does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rope: Option<Rope>,
    /// `rope = none`: these layers do not rotate q and k (NoPE).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nope: bool,
}

impl ModelLayers {
    pub fn contains(&self, layer: u32) -> bool {
        (self.start..self.end).contains(&layer) && (layer - self.start) % self.step == 0
    }
}

/// What a layer computes. attnc plans softmax attention; the other kinds (layers of hybrid
/// models) have no attention work and no CP communication in attnc's plans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LayerKind {
    #[default]
    Attention,
    /// Linear attention (Qwen3-Next's gated DeltaNet layers).
    LinearAttention,
    /// A state-space layer (Mamba, as in Nemotron-H, Jamba).
    Mamba,
    /// DeepSeek-V3.2's sparse attention over indexer-selected keys.
    IndexedAttention,
}

impl LayerKind {
    pub const ALL: [LayerKind; 4] =
        [LayerKind::Attention, LayerKind::LinearAttention, LayerKind::Mamba, LayerKind::IndexedAttention];

    /// The name as the language writes it.
    pub fn name(self) -> &'static str {
        match self {
            LayerKind::Attention => "attention",
            LayerKind::LinearAttention => "linear_attention",
            LayerKind::Mamba => "mamba",
            LayerKind::IndexedAttention => "indexed_attention",
        }
    }

    pub fn is_attention(&self) -> bool {
        *self == LayerKind::Attention
    }

    /// Why attnc does not plan a layer of this kind (`attnc plan` prints it).
    pub fn not_planned_because(self) -> &'static str {
        match self {
            LayerKind::Attention => "",
            LayerKind::LinearAttention => {
                "linear attention carries a recurrent state, not a softmax over keys: attnc's ring, \
                 all-to-all and LSE merge do not apply (its CP is a prefix scan of the state)"
            }
            LayerKind::Mamba => "a state-space layer has no attention; its CP is a scan of the state",
            LayerKind::IndexedAttention => {
                "sparse attention over indexer-selected keys: which KV rows a query reads is decided \
                 at run time, so attnc cannot prove a split or derive its communication"
            }
        }
    }
}

impl Model {
    /// The value and output head dim: `v_head_dim`, else `head_dim`.
    pub fn v_dim(&self) -> u32 {
        self.v_head_dim.unwrap_or(self.head_dim)
    }

    /// The softmax scale: `softmax_scale`, else 1/√head_dim.
    pub fn scale(&self) -> f64 {
        self.softmax_scale.unwrap_or(1.0 / (self.head_dim as f64).sqrt())
    }

    /// The model's `layer` block that sets `layer`, if any.
    pub fn block_of(&self, layer: u32) -> Option<&ModelLayers> {
        self.layer_blocks.iter().find(|b| b.contains(layer))
    }

    /// How `layer` rotates q and k by the model (a layout's `rope = none` aside): its block's
    /// RoPE, none for a NoPE block or a layer that is not attention, else the model's.
    pub fn rope_of(&self, layer: u32) -> Option<&Rope> {
        match self.block_of(layer) {
            Some(b) if b.nope || !b.kind.is_attention() => None,
            Some(ModelLayers { rope: Some(rope), .. }) => Some(rope),
            _ => self.rope.as_ref(),
        }
    }

    /// What `layer` computes.
    pub fn kind_of(&self, layer: u32) -> LayerKind {
        self.block_of(layer).map_or(LayerKind::Attention, |b| b.kind)
    }

    /// Whether some layer rotates q and k.
    pub fn has_rope(&self) -> bool {
        self.rope.is_some() || self.layer_blocks.iter().any(|b| b.rope.is_some())
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

/// How q and k rotate (rotate-half convention within the rotated dims; `crate::rope` computes
/// the frequencies).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Rope {
    pub theta: f64,
    /// How many of each q and k head's dims rotate (frequencies over `dims`); `head_dim` unless
    /// `dims` or `fraction` is given.
    pub dims: u32,
    /// The first rotated dim: 0 with `fraction` (the first ⌊head_dim·fraction⌋ dims, as
    /// transformers' `partial_rotary_factor` and Megatron's `--rotary-percent`), head_dim − dims
    /// with `dims` (the last, as MLA's decoupled RoPE).
    #[serde(default)]
    pub offset: u32,
    /// `fraction = F` as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fraction: Option<f64>,
    /// `scaling = linear | llama3 | yarn { ... }`: context-extension scaling of the frequencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling: Option<RopeScaling>,
}

/// RoPE scaling, as transformers' `rope_scaling` / `rope_parameters` (`rope_type`) define it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RopeScaling {
    /// Position interpolation: every frequency divided by `factor`.
    Linear { factor: f64 },
    /// Llama 3.1's: long wavelengths (beyond original/low_freq_factor) divided by `factor`,
    /// short ones (below original/high_freq_factor) kept, a smooth blend between.
    Llama3 { factor: f64, original: u64, low_freq_factor: f64, high_freq_factor: f64 },
    /// YaRN: a ramp between interpolated and original frequencies over the dims whose
    /// rotations at `original` positions lie between beta_slow and beta_fast, and cos/sin
    /// multiplied by the attention factor.
    Yarn {
        factor: f64,
        original: u64,
        beta_fast: f64,
        beta_slow: f64,
        /// Given: the attention factor itself; else 0.1·ln(factor)+1, or with `mscale` and
        /// `mscale_all_dim` their ratio (DeepSeek's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attention_factor: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mscale: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mscale_all_dim: Option<f64>,
        /// Round the ramp's bounds outwards to whole dims (transformers' default: true;
        /// gpt-oss: false).
        truncate: bool,
    },
}

impl RopeScaling {
    /// The name as the language (and transformers' `rope_type`) writes it.
    pub fn name(&self) -> &'static str {
        match self {
            RopeScaling::Linear { .. } => "linear",
            RopeScaling::Llama3 { .. } => "llama3",
            RopeScaling::Yarn { .. } => "yarn",
        }
    }

    pub fn factor(&self) -> f64 {
        match self {
            RopeScaling::Linear { factor } | RopeScaling::Llama3 { factor, .. } | RopeScaling::Yarn { factor, .. } => {
                *factor
            }
        }
    }
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
    /// A mask written as an expression that is a named mask region by region
    /// (`expr::regions`: prefix-LM, global tokens with a window); `padding` under thd, where it
    /// applies within each packed sequence. Interned (`expr::regions::intern`), so masks stay
    /// `Copy`.
    Regions {
        regions: &'static Regions,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        padding: bool,
    },
    /// A mask written as an expression that reads the query head `h` (a per-head window): a
    /// band of diagonals per class of heads (`expr::heads`). Planning and communication follow
    /// the classes' hull (`window`, `is_causal`, `HeadMasks::hull_regions`); each class's
    /// kernels apply its own band. Under thd every class is within each packed sequence.
    /// Interned, so masks stay `Copy`.
    Heads {
        heads: &'static HeadMasks,
    },
}

impl Mask {
    /// Plain causal attention (no window, no chunk).
    pub const CAUSAL: Mask = Mask::Causal { window: None, chunk: None };
    /// Causal attention within each packed sequence, padding hidden.
    pub const PADDING_CAUSAL: Mask = Mask::PaddingCausal { window: None, chunk: None };

    /// The sliding window, if any (of a per-head mask: the hull's, the widest class's when every
    /// class is causal).
    pub fn window(self) -> Option<u64> {
        match self {
            Mask::Causal { window, .. } | Mask::PaddingCausal { window, .. } => window,
            Mask::Heads { heads } => heads.union().and_then(Mask::window),
            Mask::None | Mask::Padding | Mask::Regions { .. } => None,
        }
    }

    /// The attention chunk, if any.
    pub fn chunk(self) -> Option<u64> {
        match self {
            Mask::Causal { chunk, .. } | Mask::PaddingCausal { chunk, .. } => chunk,
            Mask::None | Mask::Padding | Mask::Regions { .. } | Mask::Heads { .. } => None,
        }
    }

    /// Whether keys after the query are hidden somewhere (causal, or a region that is).
    pub fn is_causal(self) -> bool {
        match self {
            Mask::Regions { regions, .. } => regions.is_causal(),
            Mask::Heads { heads } => heads.hull().lo.is_some_and(|lo| lo >= 0),
            m => matches!(m, Mask::Causal { .. } | Mask::PaddingCausal { .. }),
        }
    }

    pub fn is_padding(self) -> bool {
        match self {
            Mask::Heads { heads } => heads.padding,
            m => matches!(m, Mask::Padding | Mask::PaddingCausal { .. } | Mask::Regions { padding: true, .. }),
        }
    }

    /// Whether queries may skip far keys (a window, chunks, or regions): the halo exchange and
    /// the trimmed ring apply.
    pub fn is_local(self) -> bool {
        match self {
            // A hull no name covers is planned as a regional mask of one cell.
            Mask::Heads { heads } => heads.union().is_none_or(Mask::is_local),
            m => m.window().is_some() || m.chunk().is_some() || m.regions().is_some(),
        }
    }

    /// The named mask a band is (`padding`: within each packed sequence), `None` for a band no
    /// name covers (a two-sided window, keys only before the query).
    pub fn of_band(band: Band, padding: bool) -> Option<Mask> {
        Some(match (band.named()?, padding) {
            ((false, _), false) => Mask::None,
            ((false, _), true) => Mask::Padding,
            ((true, window), false) => Mask::Causal { window, chunk: None },
            ((true, window), true) => Mask::PaddingCausal { window, chunk: None },
        })
    }

    /// The regions of a mask written as a regional expression.
    pub fn regions(self) -> Option<&'static Regions> {
        match self {
            Mask::Regions { regions, .. } => Some(regions),
            _ => None,
        }
    }

    /// The head classes of a mask that reads the query head.
    pub fn heads(self) -> Option<&'static HeadMasks> {
        match self {
            Mask::Heads { heads } => Some(heads),
            _ => None,
        }
    }
}

/// A mask that depends on the query head, by classes of consecutive heads (`expr::heads` reads it
/// from an expression that reads `h`): each class a band of diagonals (every pair, `k <= q`, a
/// causal window, a two-sided window, ...; within each packed sequence under thd: `padding`).
/// Heads are the model's, from 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct HeadMasks {
    /// The expression as written (printed), which the fp64 reference evaluates on its own.
    pub text: String,
    /// In head order, covering every head of the model once.
    pub classes: Vec<HeadClass>,
    /// Within each packed sequence (thd).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub padding: bool,
}

/// Heads `first..end` and the band their queries see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct HeadClass {
    pub first: u32,
    pub end: u32,
    pub band: Band,
}

impl HeadMasks {
    /// The least band holding every class's (from the lowest `lo` to the highest `end`, a side
    /// open if some class's is): what planning and communication follow.
    pub fn hull(&self) -> Band {
        let lo = self.classes.iter().map(|c| c.band.lo).try_fold(i64::MAX, |m, x| x.map(|x| m.min(x)));
        let end = self.classes.iter().map(|c| c.band.end).try_fold(i64::MIN, |m, x| x.map(|x| m.max(x)));
        Band { lo, end }
    }

    /// The hull as a named mask (`None`: no name covers it; [`HeadMasks::hull_regions`] then).
    pub fn union(&self) -> Option<Mask> {
        Mask::of_band(self.hull(), self.padding)
    }

    /// The hull as a regional mask of one cell, when no name covers it (a class with a two-sided
    /// window): how the planner, which follows the hull, is told it.
    pub fn hull_regions(&self) -> Option<Regions> {
        let hull = self.hull();
        Mask::of_band(hull, self.padding).is_none().then(|| Regions {
            text: self.text.clone(),
            q_cuts: Vec::new(),
            k_cuts: Vec::new(),
            cells: vec![Cell::Band(hull)],
            predicate: false,
        })
    }

    /// The class of model head `head`.
    pub fn of(&self, head: u32) -> &HeadClass {
        self.classes.iter().find(|c| c.first <= head && head < c.end).unwrap_or(&self.classes[self.classes.len() - 1])
    }
}

/// What the mask is inside one cell: no pair, or a band of diagonals `lo ≤ q − k < end` (every
/// pair, `k <= q`, a causal window and any other band). Plans spell a cell as its band does
/// (`{"kind": "causal"}`, `{"kind": "band", "lo": -3, "end": 4}`), an empty one as `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(from = "Option<Band>", into = "Option<Band>")]
pub enum Cell {
    Empty,
    Band(Band),
}

impl Cell {
    pub const FULL: Cell = Cell::Band(Band::NONE);
    pub const CAUSAL: Cell = Cell::Band(Band::CAUSAL);

    /// `k <= q & q - k < window`.
    pub const fn window(window: u64) -> Cell {
        Cell::Band(Band::window(window))
    }

    /// The cell's band (`None`: empty).
    pub fn band(self) -> Option<Band> {
        match self {
            Cell::Empty => None,
            Cell::Band(b) => Some(b),
        }
    }
}

impl From<Cell> for Option<Band> {
    fn from(c: Cell) -> Option<Band> {
        c.band()
    }
}

impl From<Option<Band>> for Cell {
    fn from(b: Option<Band>) -> Cell {
        b.map_or(Cell::Empty, Cell::Band)
    }
}

/// A mask that is a band of diagonals region by region, as a grid of cells (`expr::regions`
/// reads it from an expression). Query cell `i` is positions `[q_cuts[i-1], q_cuts[i])` (from
/// 0, the last one unbounded), key cells likewise; `cells[i * (k_cuts.len() + 1) + j]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Regions {
    /// The expression as written (printed), which the fp64 reference evaluates on its own.
    pub text: String,
    pub q_cuts: Vec<u64>,
    pub k_cuts: Vec<u64>,
    pub cells: Vec<Cell>,
    /// The mask is no band in some cell (`q + k < N`, a union of bands, `(q - k) % 2 == 0`): the
    /// cells hold bands that contain every allowed pair (`expr::named::hull`), which planning,
    /// communication and tile bounds follow, and the kernels test the mask itself at each pair,
    /// in their score code (`Score::mask`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub predicate: bool,
}

/// One step of a score's straight-line code (`kernel::score` builds and lowers it); operands
/// are earlier steps. `Pick(a, b, x, y)` is `x` where `a ≤ b`, else `y` (the slope of min and max).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreOp {
    /// The scaled score.
    S,
    /// The query's and the key's positions within their sequence (from 0), as f32: exact below
    /// 2^24 tokens.
    Q,
    K,
    /// The query head (from 0, among the heads the attention computes), as f32. Steps that read
    /// only heads and constants are per-head values ([`Score::head_values`]): the host computes
    /// them and the kernels read them as leaves.
    H,
    /// The pair's packed sequence (`doc(q)`, `doc(k)`: equal wherever a pair is scored), as f32: a
    /// value per launch (`kernel::launch` gives each document of such a score its own launches),
    /// read as a per-head value; 0 under sbhd and bshd.
    Doc,
    /// The model's learned parameter `j` (`params = [...]`, declaration order) at the query head: a
    /// per-head value read from the caller's tensor, with a gradient (`Score::params`).
    Param(u16),
    /// ALiBi's slope of head `a` among `n` heads (`expr::alibi_slope`; `n` is a count, not a step).
    Alibi(u16, u16),
    /// An f32 constant, as its bits.
    Const(u32),
    Neg(u16),
    Add(u16, u16),
    Sub(u16, u16),
    Mul(u16, u16),
    Div(u16, u16),
    Tanh(u16),
    Exp(u16),
    /// The natural logarithm (`expr::score::log_by_bits` on the CPU, `lg2.approx` on the GPU).
    Log(u16),
    /// The largest integer not above (`%` is `x - c·floor(x / c)`).
    Floor(u16),
    Min(u16, u16),
    Max(u16, u16),
    Pick(u16, u16, u16, u16),
}

/// `score = EXPR` (or `softcap = X`, the expression `X * tanh(s / X)`): the modification of each
/// scaled score before the mask and the softmax, as written and as kernel code with its slope.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// The expression as written (printed), which the fp64 reference evaluates on its own.
    pub text: String,
    /// The value's steps (`ops[..values]`), then its derivative by `s`.
    pub ops: Vec<ScoreOp>,
    pub values: usize,
    /// The steps holding the value and the derivative.
    pub value: usize,
    pub slope: usize,
    /// How the kernels treat each step: per pair, a per-head value, or not at all.
    pub roles: Vec<ScoreRole>,
    /// The model's learned parameters in declaration order (`params = [...]`), and per parameter
    /// the step holding the score's derivative by it (after the value's steps, as `slope`): the
    /// backward kernels add dS·∂score/∂param over their pairs into the head's gradient.
    pub param_names: Vec<String>,
    pub params: Vec<usize>,
    /// A mask the kernels test as part of the score (one that is no band region by region, as
    /// written): where it does not hold the value is −∞ and the slopes 0
    /// (`expr::score::of_masked`). The fp64 reference reads the mask from the problem's regions,
    /// not from here.
    pub mask: Option<String>,
}

/// How the kernels treat a step of a score (`expr::score` assigns them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreRole {
    /// Computed at every pair.
    Pair,
    /// Read per head: slot `i` of `Score::head_values` (a step of only heads and constants
    /// that a per-pair step, or the result, reads).
    Head(usize),
    /// Not needed by the kernels (a part of a per-head value the host computes).
    Unused,
}

impl Score {
    /// Whether the score reads the query's or the key's position (a backend then provides them).
    pub fn positions(&self) -> bool {
        self.ops.iter().any(|o| matches!(o, ScoreOp::Q | ScoreOp::K))
    }

    /// Whether the score reads the query head (ALiBi's slope), a learned parameter or the
    /// document: the kernels then read [`Score::head_values`] of their head (and launch).
    pub fn reads_head(&self) -> bool {
        self.ops.iter().any(|o| matches!(o, ScoreOp::H | ScoreOp::Param(_) | ScoreOp::Doc))
    }

    /// Whether the score reads the document (`doc(q)`, `doc(k)`): each launch then holds one
    /// document's sequences, whose index its per-head values carry.
    pub fn reads_doc(&self) -> bool {
        self.ops.contains(&ScoreOp::Doc)
    }

    /// Whether the model declares learned parameters: the backward kernels then accumulate their
    /// gradients (`dparams`, `[heads][params]`).
    pub fn has_params(&self) -> bool {
        !self.params.is_empty()
    }
}

/// A score's serialised form: its text, or with learned parameters its text and their names in
/// declaration order (so that a plan read back indexes the same tensor), and the mask it tests.
#[derive(Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ScoreText {
    Text(String),
    WithParams {
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        params: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mask: Option<String>,
    },
}

impl Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.param_names.is_empty() && self.mask.is_none() {
            true => s.serialize_str(&self.text),
            false => ScoreText::WithParams {
                text: self.text.clone(),
                params: self.param_names.clone(),
                mask: self.mask.clone(),
            }
            .serialize(s),
        }
    }
}

/// Positions are below this (2^40 tokens); the last cell of each axis ends here.
pub const END: u64 = 1 << 40;

impl Regions {
    fn cell_index(cuts: &[u64], pos: u64) -> usize {
        cuts.partition_point(|&c| c <= pos)
    }

    /// `[start, end)` of query cell `i` (or key cell, with `k_cuts`).
    pub fn span(cuts: &[u64], i: usize) -> (u64, u64) {
        let start = if i == 0 { 0 } else { cuts[i - 1] };
        (start, cuts.get(i).copied().unwrap_or(END))
    }

    pub fn q_cells(&self) -> usize {
        self.q_cuts.len() + 1
    }

    pub fn k_cells(&self) -> usize {
        self.k_cuts.len() + 1
    }

    pub fn cell(&self, i: usize, j: usize) -> Cell {
        self.cells[i * self.k_cells() + j]
    }

    /// The rule at query position `q` and key position `k`.
    pub fn rule_at(&self, q: u64, k: u64) -> Cell {
        self.cell(Regions::cell_index(&self.q_cuts, q), Regions::cell_index(&self.k_cuts, k))
    }

    /// Whether the pair is allowed.
    pub fn allows(&self, q: u64, k: u64) -> bool {
        self.rule_at(q, k).band().is_some_and(|b| b.visible(q as i64, k as i64))
    }

    /// Every cut of either axis, sorted: runs of rows cut there see one cell per axis.
    pub fn all_cuts(&self) -> Vec<u64> {
        let mut cuts: Vec<u64> = self.q_cuts.iter().chain(&self.k_cuts).copied().collect();
        cuts.sort_unstable();
        cuts.dedup();
        cuts
    }

    /// Whether some cell hides every key after its query (`lo ≥ 0`: causal, a causal window).
    pub fn is_causal(&self) -> bool {
        self.cells.iter().any(|c| c.band().is_some_and(|b| b.lo.is_some_and(|lo| lo >= 0)))
    }

    /// The distinct bands of its cells that hide some pair, windows first (by width), then
    /// those without an upper side.
    pub fn bands(&self) -> Vec<Band> {
        let mut out: Vec<Band> = self.cells.iter().filter_map(|c| c.band()).filter(|b| !b.is_none()).collect();
        out.sort_unstable_by_key(|b| (b.end.is_none(), b.end, b.lo));
        out.dedup();
        out
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
    /// The strategy as reports write it: the name, and `a2a+p2p [4, 2]` with its hierarchy.
    pub fn label(&self) -> String {
        match self {
            Strategy::A2aP2p { hierarchy } => {
                format!("a2a+p2p [{}]", hierarchy.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
            }
            other => other.name().to_string(),
        }
    }

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

impl Layout {
    /// Why `layer` has no plan, when it is of a kind attnc does not plan: "layer N of model `M`
    /// is K, which attnc does not plan: ...".
    pub fn not_planned(&self, layer: u64) -> Option<String> {
        let kind = self.layers.get(layer as usize)?.kind;
        (!kind.is_attention()).then(|| {
            format!(
                "layer {layer} of model `{}` is {}, which attnc does not plan: {}",
                self.model.name,
                kind.name(),
                kind.not_planned_because()
            )
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayerSettings {
    /// What the layer computes (the model's); only `attention` layers are planned.
    #[serde(skip_serializing_if = "LayerKind::is_attention")]
    pub kind: LayerKind,
    pub strategy: Strategy,
    pub mask: Mask,
    /// Whether the layer rotates q and k: the model gives it RoPE (`Model::rope_of`) and the
    /// layout does not say `rope = none` (NoPE).
    pub rope: bool,
    /// How KV moves under a local mask (not written in specs: the driver chooses it, or the
    /// CLI's `--exchange`).
    #[serde(skip_serializing_if = "Exchange::is_auto")]
    pub exchange: Exchange,
}

/// How a layer under a window, chunks or regions moves its KV with `p2p`, `all_gather` or at the p2p level
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
