//! The stable diagnostic codes and their long explanations (`attnc explain CODE`).
//!
//! A code is never renumbered or reused: retire one by leaving it here with
//! an explanation that says so. `E` codes are errors, `W` codes warnings or notes.

use super::Severity;

macro_rules! codes {
    ($( $variant:ident = $text:literal, $severity:ident, $title:literal, $explanation:literal; )*) => {
        /// A stable diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $text, )* }
            }

            pub fn severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }

            /// A one-line summary of what the code means.
            pub fn title(self) -> &'static str {
                match self { $( Code::$variant => $title, )* }
            }

            /// The long explanation, with an example and the fix.
            pub fn explanation(self) -> &'static str {
                match self { $( Code::$variant => $explanation, )* }
            }

            /// Looks a code up by its text, case-insensitively (`e0003`, `E0003`).
            pub fn parse(text: &str) -> Option<Code> {
                let upper = text.trim().to_ascii_uppercase();
                Code::ALL.iter().copied().find(|c| c.as_str() == upper)
            }
        }
    };
}

codes! {
    Syntax = "E0001", Error, "syntax error",
"The text does not follow the grammar of a spec file. A file holds items

    model NAME { ... }   cluster NAME { ... }   layout NAME { ... }

and a block holds fields `key = value`, nested blocks `key { ... }`, and in a
layout per-layer overrides `layer 0..4 [step 2] { ... }`. Fields are separated
by newlines or commas; `#` starts a comment that runs to the end of the line.

The parser recovers at the next field or item, so every syntax error of a file
is reported in one run.";

    DuplicateItem = "E0002", Error, "an item name is defined twice",
"Item names are global to a file (and to the files checked together): a layout
names its model and cluster by name, and `--set NAME.FIELD=VALUE` finds an item
by name, so two items may not share one.

    model llama { ... }
    cluster llama { ... }   # E0002: `llama` is already the model's name

Rename one of them.";

    UnknownField = "E0003", Error, "unknown field",
"The field is not one this item or block takes. The message lists the fields
that are allowed there, and suggests the nearest spelling.

    model m { layer = 32 }     # E0003: did you mean `layers`?

`docs/language.md` lists every field of every item.";

    DuplicateField = "E0004", Error, "a field is set twice",
"Each field may be set once per block; the second setting is reported with a
label on the first. To override a value for a sweep without editing the file,
use `--set ITEM.FIELD=VALUE`.";

    WrongType = "E0005", Error, "a value has the wrong type",
"The field takes a different kind of value: an integer, a number with a unit,
a name, a list, or `true`/`false`.

    model m { heads = many }   # E0005: expected an integer";

    MissingField = "E0006", Error, "a required field is missing",
"The item cannot be resolved without this field. `model` needs `layers`,
`heads` and `head_dim`; `cluster` needs `nodes`, `gpus_per_node` and `gpu`;
`layout` needs `model`, `cluster`, and `seq` (except with `format = thd`,
whose size is given by `max_tokens`).";

    UnknownReference = "E0007", Error, "a reference names no item of that kind",
"A layout's `model = NAME` and `cluster = NAME` must name a model and a cluster
defined in the files being checked. The nearest name is suggested.";

    OutOfRange = "E0008", Error, "a number is out of range",
"The number is outside the values the field allows (for example `cp = 0`, a
negative count, a fraction where a count is needed, or a value too large to
represent). The label gives the allowed range.";

    BadUnit = "E0009", Error, "a unit is missing, unknown, or of the wrong kind",
"Bandwidths take bytes per second, `B/s`, `KB/s`, `MB/s`, `GB/s` or `TB/s` (decimal, as
vendors quote links), or bits per second, `b/s`, `Kb/s`, `Mb/s`, `Gb/s` or `Tb/s`, as network
cards are sold (400 Gb/s NDR InfiniBand is 50 GB/s); latencies take `ns`, `us`, `ms` or `s`. Counts take no unit, but
may carry a binary suffix: `128K` is 131072, `1M` is 1048576.

    intra = nvlink { bandwidth = 450 GB/s, latency = 3 us }";

    UnknownValue = "E0010", Error, "a name is not one of the values the field takes",
"The field takes one of a fixed set of names, listed in the message, and the
nearest one is suggested.

    format = shbd   # E0010: did you mean `sbhd`?";

    SeqNotDivisible = "E0011", Error, "the sequence length cannot be split over the CP ranks",
"Zigzag balancing cuts the sequence into 2*cp chunks and gives rank r the chunks
r and 2*cp-1-r (Megatron-LM's `get_batch_on_this_cp_rank`), so `seq` must be a
multiple of 2*cp. Contiguous balancing needs a multiple of cp. With sequence
parallelism (tp > 1 and `sequence_parallel = true`) each rank's share is split
again over the tp ranks, so the multiple grows by tp (Megatron pads to
2*cp*tp). The help line gives the nearest valid lengths.";

    HierarchyProduct = "E0012", Error, "the CP hierarchy does not multiply to cp",
"`a2a+p2p { hierarchy = [a, b] }` runs all-to-all inside groups of `a` ranks and
a ring over `b` such groups, so a*b must equal cp (Megatron-LM asserts the
same of `--hierarchical-context-parallel-sizes`).";

    HierarchyMissing = "E0013", Error, "a2a+p2p needs a hierarchy",
"The hierarchical strategy needs the sizes of its two levels:

    strategy = a2a+p2p { hierarchy = [8, 2] }   # a2a inside 8, ring over 2

Megatron-LM rejects `--cp-comm-type a2a+p2p` without
`--hierarchical-context-parallel-sizes` for the same reason.";

    HierarchyLevels = "E0014", Error, "a2a+p2p takes exactly two levels",
"The first level is the all-to-all (Ulysses) group, the second the ring across
those groups; TransformerEngine's a2a+p2p takes exactly these two groups.";

    A2aHeads = "E0015", Error, "the heads cannot be split over the all-to-all group",
"Ulysses (a2a) turns sequence shards into head shards: each rank of the a2a group
of degree d gets heads/tp/d query heads, so heads/tp must be a multiple of d.
KV heads must be a multiple of d too, unless there are fewer KV heads than d and
d is a multiple of them, in which case the KV heads are replicated (W0002).
Fix it with a smaller a2a degree, a2a+p2p with a smaller first level, or p2p.";

    GqaGroups = "E0016", Error, "heads is not a multiple of kv_heads",
"Grouped-query attention shares each KV head among heads/kv_heads query heads,
so heads must be a multiple of kv_heads (kv_heads = heads is plain multi-head
attention, kv_heads = 1 multi-query attention).";

    HeadDim = "E0017", Error, "head_dim is not supported by the kernels",
"The generated kernels support head dimensions that are multiples of 8, from 8
to 256 (the tensor-core tile is 8 wide; 256 bounds the register and shared
memory budget). Common values are 64, 80, 96, 128 and 256. The same rule holds
for `v_head_dim`, the value and output head dim of MLA models:

    model deepseek_v3 { ... head_dim = 192  v_head_dim = 128 }";

    TpHeads = "E0018", Error, "heads or kv_heads cannot be split over tensor parallelism",
"Tensor parallelism gives each TP rank heads/tp query heads and kv_heads/tp KV
heads, so both must be multiples of tp (Megatron-LM asserts the same of
`num_attention_heads` and `num_query_groups`).";

    ClusterFit = "E0019", Error, "the parallel sizes do not fit the cluster",
"tp*cp*pp (times dp where given; with hybrid CP, tp*dp_cp*pp) must fit the
cluster's nodes*gpus_per_node GPUs. Where dp is not given it is derived as
GPUs/(tp*cp*pp), which must then be a whole number, as Megatron-LM derives the
data-parallel size from the world size.";

    HybridFormat = "E0020", Error, "hybrid CP needs the thd format",
"Hybrid CP gives every packed sub-sequence its own power-of-two CP group, so the
batch must be packed variable-length sequences: `format = thd { ... }`
(Megatron-LM's hybrid CP runs only on packed THD batches).";

    HybridPowerOfTwo = "E0021", Error, "hybrid CP group sizes must be powers of two",
"Hybrid CP pre-builds DP*CP subgroups of every power-of-two size
(Megatron-LM's `create_hybrid_dp_cp_groups`) and gives a sequence of length L
the size max(1, 2^ceil(log2(L / max_seqlen_per_rank))). `dp_cp` must therefore
be a power of two.";

    LayerRange = "E0022", Error, "a layer range is empty or outside the model",
"`layer a..b [step k]` is half-open like Rust's ranges and must lie inside
0..layers of the layout's model, with a < b and k >= 1.";

    LayerOverlap = "E0023", Error, "two layer ranges set the same layer",
"Each layer may be overridden by at most one `layer` block, so the settings of
every layer are unambiguous. The second label shows the other range; the
message names a layer both contain.";

    Window = "E0024", Error, "the sliding window must be at least one token",
"`causal { window = W }` lets query i see keys i-W+1 ..= i (W keys, Mistral's
`sliding_window`, FlashAttention's window_size = (W-1, 0)). W = 0 would see
nothing.";

    PaddingNeedsThd = "E0025", Error, "padding masks need the thd format",
"`padding` and `padding_causal` (TransformerEngine's names) keep attention inside
each packed sequence of a THD batch. Fixed-length formats (sbhd, bshd) have no
sequence boundaries: use `none` or `causal` there, or switch to
`format = thd { ... }`.";

    ThdMask = "E0026", Error, "thd needs a padding mask",
"In a packed THD batch, `none` and `causal` would let one sequence attend to its
neighbours in the pack. Use `padding` (no causal mask inside a sequence) or
`padding_causal`, which TransformerEngine also requires of packed inputs.";

    ThdSize = "E0027", Error, "the THD buffer cannot hold the padded sequences",
"Every packed sequence is padded to a multiple of 2*cp (2*cp*tp with sequence
parallelism) so it can be split zigzag by itself (TransformerEngine's
`thd_get_partitioned_indices`). The packed buffer `max_tokens` must therefore
be a multiple of that unit, and `max_seqlen` padded up must fit in it.";

    HybridConflict = "E0028", Error, "a setting does not combine with hybrid CP",
"With `cp = hybrid { dp_cp = N, ... }` the CP size varies per sequence inside a
pool of N GPUs, so `dp` (implied by the pool), `a2a+p2p` (whose hierarchy must
multiply to a fixed cp) and a `max_seqlen` longer than N*max_seqlen_per_rank
(no group could hold it) are errors.";

    ThdBalance = "E0029", Error, "thd is always split zigzag per sequence",
"A packed THD batch is split sequence by sequence: each sequence is padded to a
multiple of 2*cp and cut into 2*cp chunks, rank r holding chunks r and 2*cp-1-r
(TransformerEngine's `thd_get_partitioned_indices`). `balance = contiguous`
has no meaning there; remove it or write `balance = zigzag`.";

    Include = "E0030", Error, "an included file cannot be read, or includes form a cycle",
"`include \"PATH\"` reads another spec file's items into this one, so that one
model or cluster serves many layout files:

    # job.attn
    include \"models.attn\"
    layout pretrain { model = llama3_8b ... }

PATH is relative to the directory of the file that includes it. The file must
exist and be readable, and a file may not include itself, directly or through
others (a cycle). A file included twice along different paths is read once.";

    TeUnsupported = "E0031", Error, "TransformerEngine does not support this combination",
"`attnc check --for te[=VERSION]` checks a layout against TransformerEngine's
context-parallel support (`compiler/src/compat/te/`): which attention backend
(FlashAttention 2 or 3, FusedAttention) runs the layer on the cluster's GPU, and
which CP asserts fire on top (windows by `cp_comm_type`, THD, head counts, sinks,
MLA, sequence lengths), per TE version, each entry citing the TE assert or
backend filter it comes from. A combination TE rejects at run time is an error
here, with TE's own message in a note (a layout no backend runs: one note per
backend). Without `--for`, the same facts about the newest TE are warnings (W0006):
attnc's own runtime may still run the layout.

    layout l { strategy = p2p  mask = causal { window = 4096 } ... }
    # E0031 with --for te: TE runs sliding windows only with a2a or all_gather

`attnc tune --for te` chooses only among strategies TE supports.";

    RopeDims = "E0032", Error, "rope dims must be an even number of a head's dims",
"`rope { theta = T, dims = D }` rotates only the last D dims of each query and key
head (rotate-half within them, frequencies T^(-2i/D)), as DeepSeek's MLA does
with its decoupled RoPE part. D pairs dims, so it is even, and it is at most
`head_dim`; leaving `dims` out rotates the whole head.

    model m { head_dim = 192  rope { theta = 10000  dims = 64 } ... }";

    RopeNone = "E0033", Error, "`rope = none` belongs in a `layer` block of a model with RoPE",
"NoPE layers (Llama 4's every fourth layer) are written per layer class, in the model (a fact
of the model) or in a layout:

    model m { ... rope { theta = 500000 }  layer 3..48 step 4 { rope = none } }
    layout l { ... layer 3..48 step 4 { rope = none } }

The model's `rope { ... }` block says how the other layers rotate q and k. A
model without a `rope` block rotates nothing, so `rope = none` there, or in the
layout body, has no meaning.";

    Chunk = "E0034", Error, "an attention chunk is at least one token and excludes a window",
"`causal { chunk = C }` is chunked local attention (Llama 4): query i sees key j
iff j <= i and both lie in the same chunk of C tokens, counted from the start of
the sequence (`padding_causal { chunk = C }` for each packed sequence). A chunk
of 0 holds no tokens. A chunk and a sliding window are two different local
masks; a mask has one of them:

    layout l { ... mask = causal { chunk = 8192 } }";

    Softcap = "E0035", Error, "a logit soft cap is a positive number",
"`softcap = X` caps every attention score s = scale·q·k smoothly at ±X: the
score becomes X·tanh(s/X) before the mask and the softmax (Gemma 2 uses 50).
X must be greater than 0; a model without `softcap` has uncapped scores.

    model gemma2 { ... softcap = 50 }";

    Moe = "E0036", Error, "a mixture-of-experts setting does not fit",
"`moe { experts = N, topk = K, ffn_hidden = F }` describes a model's routed experts
(Megatron-LM's `--num-experts`, `--moe-router-topk`, `--moe-ffn-hidden-size`). Each token
goes to K of the N experts, so K <= N. A layout's `ep` (expert parallelism,
`--expert-model-parallel-size`) splits the experts over ep ranks: the model needs a `moe`
block, and ep must divide its experts (Megatron-LM asserts both in `validate_args`).

    model qwen3_235b { ... moe { experts = 128, topk = 8, ffn_hidden = 1536 } }
    layout pretrain { ... ep = 8 }";

    GpuKernels = "E0037", Error, "attnc's GPU kernels do not take this model",
"attnc's GPU kernels (`attnc compile --target sm_80|sm_90a`, `attnc run --device cuda`) take
bf16 or fp16 inputs and head dims (q·k and v) of 64, 128, 192 or 256. A layout whose
cluster has NVIDIA GPUs is checked against that: `attnc check` warns (W0008), and
`attnc compile --target sm_*` (or `attnc check --target sm_*`) refuses it at the model's
line. The same layout plans and runs on CPU ranks (`attnc run --kernels cranelift`).

    model m { ... head_dim = 128 }
    layout l { ... dtype = bf16 }";

    Memory = "E0038", Error, "a rank needs more memory than its GPU has",
"attnc bounds each rank's memory from below from the layout alone: q, k, v and the output
of the rank's tokens, what its strategy must hold besides (a received KV shard for p2p,
the gathered K and V for all_gather, every token of a share of the heads after a2a), and
each layer's input kept for the backward on the rank's pipeline stage (what Megatron-LM's
full recomputation keeps). Parameters, optimizer state and the MLP are not counted. When
the bound exceeds the GPU's memory no plan fits: a warning (W0009), an error under
`--for te` (TransformerEngine would run out of memory) and when compiling for the GPU.
More `cp` gives each rank fewer tokens, more `tp` fewer heads, more `pp` fewer layers;
`attnc plan --stats` gives a plan's exact working set and `attnc tune` each strategy's.

    layout l { ... cp = 16  tp = 8  pp = 4 }";

    RopeScaling = "E0039", Error, "a RoPE setting does not fit",
"A model's `rope` block says how q and k rotate:

    rope {
        theta = 150000          # the base; 10000 when not given
        fraction = 0.5          # rotate the first half of each head (or `dims = 64`: the last 64)
        scaling = yarn { factor = 32, original = 4096, beta_fast = 32, beta_slow = 1 }
    }

`fraction = F` (0 < F <= 1) rotates the first floor(head_dim*F) dims, as transformers'
`partial_rotary_factor` and Megatron-LM's `--rotary-percent`; `dims = D` rotates the last D
(MLA's decoupled RoPE). A block has one of the two. `scaling` is one of
`linear { factor }` (every frequency divided by the factor),
`llama3 { factor, original, low_freq_factor = 1, high_freq_factor = 4 }` (Llama 3.1's:
wavelengths longer than original/low_freq_factor divided, shorter than
original/high_freq_factor kept, blended between; low_freq_factor <= high_freq_factor) and
`yarn { factor, original, beta_fast = 32, beta_slow = 1, attention_factor, mscale,
mscale_all_dim, truncate = true }` (beta_slow < beta_fast; cos and sin scaled by the
attention factor, 0.1*ln(factor)+1 unless given). Factors are at least 1 and `original` is
the pre-training context in tokens. The frequencies are transformers' (`attnc run --rope
apply` rotates with them).

A `layer A..B [step S] { rope { ... } }` block in the model gives those layers their own
RoPE (Gemma 3: base 10K on the sliding layers, 1M with linear scaling on the others), and
`layer A..B { rope = none }` makes them NoPE layers.";

    SoftmaxScale = "E0040", Error, "a softmax scale is a positive number, given once",
"The scores are scale*q.k with scale = 1/sqrt(head_dim) unless the model says otherwise:
`softmax_scale = X` (X > 0), or `query_pre_attn_scalar = N` (Gemma 2 and 3: the scale is
N^(-1/2), 256^(-1/2) = 0.0625 for Gemma 3 27B, whose head_dim is 128). A model gives one of
the two. Every kernel set, the fp64 reference and Megatron-LM's `--softmax-scale` take it.

    model gemma3_27b { ... head_dim = 128  query_pre_attn_scalar = 256 }";

    LayerKind = "E0041", Error, "a model `layer` block sets what it cannot",
"A model's `layer A..B [step S] { ... }` block says what differs on those layers:
`kind = linear_attention | mamba | indexed_attention` (layers attnc does not plan: they
have no softmax attention work and `attnc plan` says why), `rope { ... }` (their own RoPE)
or `rope = none` (NoPE). Strategies and masks are the layout's: write them in a layout's
`layer` block. A layer is in at most one of the model's blocks, and a layer that is not
attention has no RoPE setting.

    model qwen3_next {
        ...
        # every fourth layer (3, 7, ...) is attention, the others linear attention
        layer 0..48 step 4 { kind = linear_attention }
        layer 1..48 step 4 { kind = linear_attention }
        layer 2..48 step 4 { kind = linear_attention }
    }";

    ExprType = "E0042", Error, "a mask or score expression is not well-typed",
"`mask = EXPR` (a layout or its `layer` block) is a condition over the integer terms
q and k (positions within the sequence), h (the query head), doc(q) and doc(k) (packed
sequence ids), with + - * / % (Euclidean), comparisons, & | and !. `score = EXPR` (a
model) is a float over s (the scaled score) and the same terms, with tanh, exp, log,
min, max and alibi(h, N) (ALiBi's slope of head h among N heads), and the model's learned
per-head parameters, declared `params = [NAME]` and read `NAME[h]`. A mask cannot read s or a
learned parameter, a mask must be a condition, comparisons do not chain, division is by a
positive constant, a learned parameter is read at the query head (`NAME[h]`), declared in the
model, and named apart from the language's terms and functions:

    layout l { ... mask = k <= q & q - k < 4096 }
    model m { ... score = 30 * tanh(s / 30) }
    model m { ... params = [slope], score = s - slope[h] * (q - k) }";

    ExprUnplanned = "E0043", Error, "attnc cannot compile this mask or score expression yet",
"attnc compiles an expression that says one of the masks its planner, verifier and
kernels have closed forms for, however it is spelt: every pair (`k >= 0`), causal
(`k <= q`), causal with a window of W keys (`k <= q & q - k < W`) and causal inside
chunks of C tokens (`k <= q & q / C == k / C`); and the scores of s, the positions q and
k, the query head h and constants with + - * / %, tanh, exp, log, min, max and alibi
(`X * tanh(s / X)` is the soft-cap, `s - (q - k) / 16` a distance bias,
`s - alibi(h, 32) * (q - k)` ALiBi). What reads only h and constants is computed once per
head on the host; h counts the model's query heads (under tensor parallelism from the
slice's first head: `attnc run --tp-rank R`, or the Python module's tp_group). Every query
head must give the per-head parts a value: `alibi(h, N)` needs N = the model's heads.
A learned parameter the model declares (`params = [NAME]`) must be read by the score
(`NAME[h]`): one never read would get a zero gradient in silence.

A mask is read as an intersection of linear constraints in q and k, so `q >= k`,
`!(k > q)` and `2*q - 2*k < 256` all say what they mean.

A mask that is a band of diagonals region by region also compiles: comparisons of one
position with a constant (`k < 64`, `q < 4`) cut the positions into regions, and in each
region the rest must be bounds on q - k, `lo <= q - k < end` (either side open: every
pair, causal, a causal window, a two-sided window `q - k < W & k - q < W`, `k < q`), or
none. Prefix-LM, global tokens with a window and Longformer's two-sided window are such
masks. A mask that is no band in some region (two bands in one region, `q + k < 100`, a
stride `(q - k) % 2 == 0`, chunks within regions) compiles as a hull and a predicate: each
region holds a band containing every allowed pair, which planning and communication follow,
and the kernels test the mask itself at each pair (f32 integers: every term must stay within
2^24 over the sequence). Comparisons of doc(q) with doc(k) other than `doc(q) == doc(k)` as
a condition of the whole mask are refused: packed sequences never attend across.

A mask that reads the query head h is decided head by head (h counts the model's heads):
at every head it must read as every pair or a band of bounds on q - k (causal, a causal
or two-sided window), and heads with the same band form a class whose kernels apply it,
while planning and communication follow the hull of the classes' bands. A mask that is no
band at some head, whose classes split a GQA group, or that runs under tp > 1 is planned by
its hull over every head and tested per pair with the head. No head may see nothing.

    mask = k <= q | k < 64                           # prefix-LM: compiled by region
    mask = k < 4 | q < 4 | (k <= q & q - k < 256)    # global tokens and a window
    mask = q - k < 256 & k - q < 256                 # a two-sided window: one band
    mask = k <= q & (q - k < 64 | q - k >= 4096)     # compiled: causal hull, tested per pair
    mask = k <= q & (h < 8 | q - k < 4096)           # compiled by head: 8 causal, the rest windowed
    mask = (h < 8 | k <= q) & q - k < 64 & k - q < 8 # by head: 8 two-sided, the rest windowed
    mask = k <= q & (h < 8 | q / 512 == k / 512)     # chunks by head: hull causal, tested per pair
    score = 2 * tanh(s / 2) + max(s - 1, 0) / 4      # compiled: s and constants
    score = s - (q - k) / 16                         # compiled: a distance bias, one slope
    score = s - alibi(h, 32) * (q - k)               # compiled: ALiBi, a slope per head
    score = s - log(1 + q - k) / 4                   # compiled: a log-distance bias
    score = s - (q - k) % 64 / 64                    # compiled: a sawtooth in the distance
    score = s * (1 + doc(q) / 8)                     # compiled: a value per packed sequence";

    A2aLevelExceedsNode = "W0001", Warning, "the all-to-all level spans nodes",
"The first level of a2a+p2p runs all-to-all, which sends (d-1)/d of every
activation; it belongs on the fast intra-node links. A first level larger than
`gpus_per_node` puts it on the inter-node network. Prefer a first level that
divides gpus_per_node and let the ring cross nodes.";

    KvReplicated = "W0002", Warning, "KV heads are replicated for all-to-all",
"There are fewer KV heads per TP rank than ranks in the all-to-all group, so each
KV head is sent to d/kv_heads ranks. This is correct but moves more bytes than
an even split would.";

    IdleGpus = "W0003", Warning, "the layout leaves GPUs of the cluster idle",
"tp*cp*dp*pp is smaller than the cluster's GPU count.";

    ThdPadding = "W0004", Note, "THD sequences are padded",
"Packed sequences are padded to a multiple of 2*cp (2*cp*tp with sequence
parallelism); this note reports the unit and the padded `max_seqlen`.";

    ContiguousCausal = "W0005", Warning, "contiguous balance under a causal mask is unbalanced",
"With a causal mask, rank r of cp in contiguous order does work proportional to
2r+1, so the slowest rank does (2cp-1)/cp times the mean. Zigzag balance gives
every rank one light and one heavy chunk.";

    TeAssumesCudnn = "W0007", Note, "TransformerEngine's verdict assumes a cuDNN version",
"`--for te` without `,cudnn=X.Y` checks against the newest cuDNN, under which every
cuDNN-gated FusedAttention feature is available. Where a verdict depends on it (THD with
grouped-query attention needs cuDNN 9.6, sliding windows 9.2, learned sinks 9.13.1, head dims
above 128 on Hopper 9.5, ...), this note names the least cuDNN the layout needs; check the
cuDNN your container ships with `--for te,cudnn=9.5` (NVIDIA's PyTorch containers list it in
their release notes).";

    GpuKernelsWarning = "W0008", Warning, "attnc's GPU kernels do not take this model",
"The warning form of E0037: the layout plans and runs on CPU ranks, but attnc's GPU
kernels (bf16 or fp16, head dims 64, 128, 192 or 256) cannot run it on the cluster's
GPUs; `attnc compile --target sm_*` refuses it.";

    MemoryWarning = "W0009", Warning, "a rank needs more memory than its GPU has",
"The warning form of E0038 (see `attnc explain E0038` for what the bound counts):
`--for te` and `attnc compile --target sm_*` make it an error.";

    TpBeyondNode = "W0010", Warning, "tensor parallelism spans nodes",
"Tensor parallelism all-reduces (or, with sequence parallelism, all-gathers and
reduce-scatters) activations in every layer, forward and backward; Megatron-LM places
its ranks on consecutive GPUs, so a tp larger than `gpus_per_node` puts those
collectives on the inter-node network. Keep tp <= gpus_per_node and give the rest of
the GPUs to cp, pp or dp.";

    ScorePositionsInexact = "W0011", Warning, "a score's positions are inexact at this length",
"A score that reads the positions q or k (`score = s - (q - k) / 16`) gets them as 32-bit
floats in every kernel, which hold integers exactly only up to 2^24 = 16,777,216: beyond
that a position, and a distance between two of them, is rounded to an even number (then
a multiple of 4, ...), so the bias steps instead of growing by one per token. The warning
names the sequence length that passes the limit. Keep sequences at or below 16,777,216
tokens for such a score, or make the score's terms insensitive to that rounding.";

    TeWarning = "W0006", Warning, "the newest TransformerEngine does not support this combination",
"The layout plans and runs under attnc, but the newest TransformerEngine in the
support matrix rejects it at run time (see E0031, which `--for te` turns this
into). Megatron-LM delegates context-parallel attention to TransformerEngine, so
a layout meant for Megatron should follow the help line.";
}
