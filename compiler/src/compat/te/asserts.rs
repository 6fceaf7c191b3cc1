//! TransformerEngine's context-parallel asserts, per version, and the model features TE has no
//! argument for: what fires after a backend has been selected.
//!
//! The asserts are `attn_forward_func_with_cp` and the three CP implementations
//! (`AttnFuncWithCPAndKVP2P`, `...KVAllGather`, `...QKVOA2A`) in `context_parallel.py`
//! (`attention.py` before 2.3). Some read the selected backend (`use_fused_attention`), so they
//! are checked with it. An entry that does not depend on context parallelism (`without_cp`) also
//! holds at cp = 1.

use super::backends::{Backend, cudnn_at_least, versions};
use super::target::{Cudnn, Target, TeVersion};
use super::{Comm, CudnnAssumption, Setting};

/// The condition of an assert.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// A sliding window under one of these communication types.
    WindowComm(&'static [Comm]),
    /// A sliding window under all_gather with FusedAttention selected.
    WindowAllGatherFused,
    /// THD under one of these communication types.
    Thd(&'static [Comm]),
    /// The all-to-all degree does not divide the query or the KV heads of a TP rank.
    A2aHeads,
    /// Learned sinks, which TE takes from 2.8 (`softmax_type`).
    SinksUnavailable,
    /// Learned sinks under a communication type other than a2a.
    SinksNotA2a,
    /// Learned sinks with THD; with a cuDNN bound, only below it.
    SinksThd { below_cudnn: Option<Cudnn> },
    /// MLA under one of these communication types.
    MlaComm(&'static [Comm]),
    /// bshd/sbhd whose per-rank sequence (seq / cp) is odd or not whole.
    SeqPerRankOdd,
    /// A contiguous split of bshd/sbhd sequences (TE's CP runs DualChunkSwap only).
    Contiguous,
    /// Chunked attention (no attn_mask_type for it).
    Chunk,
    /// A regional mask (prefix-LM, global tokens): only `arbitrary`, which does not run with CP.
    Regions,
    /// A mask that differs by head (a per-head window): likewise only `arbitrary`.
    Heads,
    /// A score modification other than ALiBi (no argument for it; soft-capping among them).
    Softcap,
    /// ALiBi (`s - alibi(h, N) * (q - k)`: TE's `core_attention_bias_type = "alibi"`) under CP.
    Alibi,
    /// A GPU TE's CUDA backends do not run on.
    NotCuda,
}

/// One assert of TE's context parallelism, or one feature TE lacks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assert {
    /// A stable name for tests and docs.
    pub id: &'static str,
    pub since: TeVersion,
    pub until: Option<TeVersion>,
    pub check: Check,
    /// Whether it holds without context parallelism too (a missing feature).
    pub without_cp: bool,
    /// What it means, in attnc's words.
    pub summary: &'static str,
    /// TE's message at these versions.
    pub te_says: &'static str,
    /// `release path:line` of each place it was read.
    pub sources: &'static [&'static str],
    /// A change TE accepts.
    pub help: &'static str,
}

impl Assert {
    pub fn holds_in(&self, version: TeVersion) -> bool {
        self.since <= version && self.until.is_none_or(|until| version < until)
    }

    /// `TE 1.12 and later`, `TE 1.12 up to (not including) 2.10`.
    pub fn versions(&self) -> String {
        versions(self.since, self.until)
    }
}

impl Check {
    /// Whether no choice of strategy makes the assert pass: a missing feature, the GPU, the split
    /// or the sequence length.
    pub fn strategy_independent(self) -> bool {
        matches!(
            self,
            Check::Chunk
                | Check::Softcap
                | Check::Alibi
                | Check::NotCuda
                | Check::SinksUnavailable
                | Check::SeqPerRankOdd
                | Check::Contiguous
        )
    }

    /// Whether the assert fires for `setting` with `selected` backend.
    pub fn fires(
        &self,
        setting: &Setting,
        selected: Option<Backend>,
        target: &Target,
        assumed: &mut Vec<CudnnAssumption>,
    ) -> bool {
        let comm = setting.comm();
        let cp = setting.context_parallel();
        match *self {
            Check::WindowComm(comms) => cp && setting.window() && comm.is_some_and(|c| comms.contains(&c)),
            Check::WindowAllGatherFused => {
                cp && setting.window() && comm == Some(Comm::AllGather) && selected == Some(Backend::FusedAttention)
            }
            Check::Thd(comms) => cp && setting.thd() && comm.is_some_and(|c| comms.contains(&c)),
            Check::A2aHeads => {
                cp && setting
                    .a2a_degree()
                    .is_some_and(|d| d > 1 && (setting.heads % d != 0 || setting.kv_heads % d != 0))
            }
            Check::SinksUnavailable => setting.sinks,
            Check::SinksNotA2a => cp && setting.sinks && comm != Some(Comm::A2a),
            Check::SinksThd { below_cudnn } => {
                cp && setting.sinks
                    && setting.thd()
                    && below_cudnn.is_none_or(|c| {
                        !cudnn_at_least(target, c, "context parallelism takes learned sinks with THD", assumed)
                    })
            }
            Check::MlaComm(comms) => cp && setting.mla() && comm.is_some_and(|c| comms.contains(&c)),
            Check::SeqPerRankOdd => {
                let unit = 2 * setting.cp_size() as u64;
                cp && !setting.thd() && matches!(setting.cp, crate::spec::Cp::Fixed { .. }) && setting.seq % unit != 0
            }
            Check::Contiguous => cp && !setting.thd() && !setting.zigzag,
            Check::Chunk => setting.mask.chunk().is_some(),
            Check::Regions => cp && setting.mask.regions().is_some(),
            Check::Heads => cp && setting.mask.heads().is_some(),
            Check::Softcap => setting.score.is_some_and(|s| crate::expr::score::alibi_of(s).is_none()),
            Check::Alibi => cp && setting.score.is_some_and(|s| crate::expr::score::alibi_of(s).is_some()),
            Check::NotCuda => setting.sm.is_none(),
        }
    }
}

const fn v(major: u32, minor: u32) -> TeVersion {
    TeVersion::new(major, minor)
}

/// The asserts and missing features.
pub const ASSERTS: &[Assert] = &[
    Assert {
        id: "not-cuda",
        since: v(1, 12),
        until: None,
        check: Check::NotCuda,
        without_cp: true,
        summary: "TransformerEngine's attention backends are CUDA's; this GPU is not an NVIDIA one",
        te_says: "Disabling FusedAttention for compute capability < sm80 (no CUDA device)",
        sources: &["main transformer_engine/pytorch/attention/dot_product_attention/utils.py:571"],
        help: "use an NVIDIA GPU preset (h100_sxm, h200, b200, a100_80g, ...); TE's ROCm port is not modelled",
    },
    Assert {
        id: "chunk",
        since: v(1, 12),
        until: None,
        check: Check::Chunk,
        without_cp: true,
        summary: "TransformerEngine has no chunked-attention mask (and Megatron-LM no argument for one)",
        te_says: "Attention mask type <chunked> is not supported! (attn_mask_type is one of no_mask, padding, causal, padding_causal, causal_bottom_right, padding_causal_bottom_right, arbitrary; arbitrary runs only without context parallelism)",
        sources: &[
            "v1.12 transformer_engine/pytorch/constants.py:25 (AttnMaskTypes)",
            "main transformer_engine/pytorch/constants.py:127 (AttnMaskTypes)",
            "main transformer_engine/pytorch/attention/dot_product_attention/dot_product_attention.py:1740",
        ],
        help: "a Megatron run needs its own attention for chunks; for TE, feed each chunk as its own THD sequence (`format = thd`, `mask = padding_causal`) with positions kept per sequence",
    },
    Assert {
        id: "regions",
        since: v(1, 12),
        until: None,
        check: Check::Regions,
        without_cp: false,
        summary: "TransformerEngine has no attn_mask_type for a mask that differs by region (a bidirectional prefix, global tokens) or is no band (a stride, an anti-diagonal) under context parallelism: only `arbitrary`, a dense mask tensor, which its CP does not take; and attnc does not map a band other than causal windows (a two-sided window) onto TE's `window_size`, so it is reported here too",
        te_says: "attn_mask_type is one of no_mask, padding, causal, padding_causal, causal_bottom_right, padding_causal_bottom_right, arbitrary; arbitrary runs only without context parallelism",
        sources: &[
            "v1.12 transformer_engine/pytorch/constants.py:25 (AttnMaskTypes)",
            "main transformer_engine/pytorch/constants.py:127 (AttnMaskTypes)",
            "main transformer_engine/pytorch/attention/dot_product_attention/dot_product_attention.py:1740",
        ],
        help: "run this mask with attnc's own runtime; for TE, write the nearest mask it has (`mask = causal`), which changes the model",
    },
    Assert {
        id: "per-head-mask",
        since: v(1, 12),
        until: None,
        check: Check::Heads,
        without_cp: false,
        summary: "TransformerEngine has no per-head mask: `window_size` and `attn_mask_type` are one per layer, and only `arbitrary`, a dense mask tensor, could differ by head, which its CP does not take",
        te_says: "attn_mask_type is one of no_mask, padding, causal, padding_causal, causal_bottom_right, padding_causal_bottom_right, arbitrary; arbitrary runs only without context parallelism",
        sources: &[
            "v1.12 transformer_engine/pytorch/constants.py:25 (AttnMaskTypes)",
            "main transformer_engine/pytorch/constants.py:127 (AttnMaskTypes)",
            "main transformer_engine/pytorch/attention/dot_product_attention/dot_product_attention.py:1740",
        ],
        help: "run this mask with attnc's own runtime; for TE, give every head the same mask (e.g. the widest window), which changes the model",
    },
    Assert {
        id: "softcap",
        since: v(1, 12),
        until: None,
        check: Check::Softcap,
        without_cp: true,
        summary: "TransformerEngine has no logit soft-capping argument (it passes softcap = 0.0 to flash-attn; its score_mod, from 2.17, is off under context parallelism), so no score modification, and Megatron-LM none either",
        te_says: "fa_forward_kwargs[\"softcap\"] = 0.0; score_mod: \"context parallelism is enabled\"",
        sources: &[
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:1667",
            "v2.17 transformer_engine/pytorch/attention/dot_product_attention/utils.py:715",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:797",
        ],
        help: "remove the score modification (`softcap = X`, or any `score = EXPR`) for a TransformerEngine run (the model then differs), or run this model with attnc's own runtime",
    },
    Assert {
        id: "alibi",
        since: v(1, 12),
        until: None,
        check: Check::Alibi,
        without_cp: false,
        summary: "TransformerEngine runs ALiBi (`core_attention_bias_type = \"alibi\"`) only without context parallelism: under CP it disables FlashAttention and FusedAttention for any bias but post_scale_bias, and UnfusedDotProductAttention has no CP; Megatron-LM has no ALiBi either",
        te_says: "Disabling FlashAttention as it does not support context parallelism with bias type of alibi; Disabling FusedAttention as it does not support context parallelism with bias type of alibi; Disabling UnfusedDotProductAttention as it does not support context parallelism",
        sources: &[
            "main (002a3e5) transformer_engine/pytorch/attention/dot_product_attention/utils.py, get_attention_backend, \"Filter: Context parallelism\"",
        ],
        help: "run ALiBi with attnc's own runtime, or without context parallelism under TransformerEngine (cp = 1)",
    },
    Assert {
        id: "sinks-before-2.8",
        since: v(1, 12),
        until: Some(v(2, 8)),
        check: Check::SinksUnavailable,
        without_cp: true,
        summary: "learned sinks need `softmax_type`, which TE takes from 2.8",
        te_says: "DotProductAttention.__init__() got an unexpected keyword argument 'softmax_type'",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/dot_product_attention.py:313 (softmax_type first taken; absent in v2.7)",
        ],
        help: "use TransformerEngine 2.8 or later (`--for te=2.8`)",
    },
    Assert {
        id: "window-p2p",
        since: v(1, 12),
        until: Some(v(2, 8)),
        check: Check::WindowComm(&[Comm::P2p, Comm::A2aP2p]),
        without_cp: false,
        summary: "sliding windows run only with cp_comm_type a2a or all_gather",
        te_says: "The context parallel running configs cannot support sliding window attetnion!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:4327",
            "v2.0 transformer_engine/pytorch/attention.py:4695",
            "v2.7 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3877",
        ],
        help: "run windowed layers with `strategy = all_gather` or `a2a`, e.g. `layer 0..N step 2 { strategy = a2a, mask = causal { window = W } }`",
    },
    Assert {
        id: "window-p2p",
        since: v(2, 8),
        until: None,
        check: Check::WindowComm(&[Comm::P2p, Comm::A2aP2p]),
        without_cp: false,
        summary: "sliding windows run only with cp_comm_type a2a or all_gather",
        te_says: "Context parallelism does not support sliding window attention with cp_comm_type='p2p'!",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3745",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5060",
        ],
        help: "run windowed layers with `strategy = all_gather` or `a2a`, e.g. `layer 0..N step 2 { strategy = a2a, mask = causal { window = W } }`",
    },
    Assert {
        id: "window-all-gather-fused",
        since: v(1, 12),
        until: Some(v(2, 0)),
        check: Check::WindowAllGatherFused,
        without_cp: false,
        summary: "before 2.0, all_gather takes a sliding window only when TE selects FlashAttention (it prefers FusedAttention on Hopper)",
        te_says: "The context parallel running configs cannot support sliding window attetnion!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:4323 (cp_comm_type == \"all_gather\" and not use_fused_attention)",
            "v1.12 transformer_engine/pytorch/attention.py:931 (FusedAttention preferred on sm90)",
        ],
        help: "use `strategy = a2a` for the windowed layers on this TransformerEngine, or TE 2.0 or later",
    },
    Assert {
        id: "thd-a2a",
        since: v(1, 12),
        until: Some(v(2, 10)),
        check: Check::Thd(&[Comm::A2a]),
        without_cp: false,
        summary: "before 2.10, a2a does not take THD",
        te_says: "thd format is not supported!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:3846 (AttnFuncWithCPAndQKVOA2A)",
            "v2.9 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3193",
        ],
        help: "use `strategy = p2p` for THD on this TransformerEngine, or TE 2.10 or later",
    },
    Assert {
        id: "thd-all-gather",
        since: v(1, 12),
        until: Some(v(2, 18)),
        check: Check::Thd(&[Comm::AllGather]),
        without_cp: false,
        summary: "before 2.18, all_gather does not take THD",
        te_says: "No support for cp_comm_type='all_gather' and qkv_format='thd'.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:3418 (AttnFuncWithCPAndKVAllGather)",
            "v2.17 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3064",
        ],
        help: "use `strategy = p2p` for THD on this TransformerEngine, or TE 2.18 or later",
    },
    Assert {
        id: "thd-a2a+p2p",
        since: v(1, 12),
        until: Some(v(2, 19)),
        check: Check::Thd(&[Comm::A2aP2p]),
        without_cp: false,
        summary: "before 2.19, a2a+p2p does not take THD (enabled by TE commit 8ff60f8de, #3290)",
        te_says: "thd format is not supported with hierarchical CP implementation yet!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:1690 (AttnFuncWithCPAndKVP2P)",
            "v2.18 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5023",
        ],
        help: "use `strategy = p2p` for THD on this TransformerEngine, or TE 2.19 or later",
    },
    Assert {
        id: "a2a-heads",
        since: v(1, 12),
        until: None,
        check: Check::A2aHeads,
        without_cp: false,
        summary: "the all-to-all splits both query and KV heads: the degree divides each per TP rank (TE does not replicate KV heads)",
        te_says: "cp_comm_type='a2a' requires num_heads % cp_size == 0 for Q, K, V.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:3844 (The number of attention heads needs to be divisible by CP size!)",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4247",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:466 (a2a+p2p: the view [.., cp, h//cp, d] of flash_attn_a2a_communicate)",
        ],
        help: "use an all-to-all degree that divides kv_heads/tp (a2a+p2p with a smaller first level), or `strategy = p2p`",
    },
    Assert {
        id: "sinks-non-a2a",
        since: v(2, 8),
        until: None,
        check: Check::SinksNotA2a,
        without_cp: false,
        summary: "learned sinks (a non-vanilla softmax) run under context parallelism only with cp_comm_type a2a",
        te_says: "Context parallelism only supports softmax_type='learnable' with cp_comm_type = 'a2a'!",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3762",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5066",
        ],
        help: "run the layers with sinks under `strategy = a2a`",
    },
    Assert {
        id: "sinks-thd",
        since: v(2, 8),
        until: Some(v(2, 12)),
        check: Check::SinksThd { below_cudnn: None },
        without_cp: false,
        summary: "learned sinks do not run with THD under context parallelism before TE 2.12",
        te_says: "Context parallelism does not support softmax_type='learnable' with qkv_format = 'thd'!",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3764",
            "v2.11 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4048",
        ],
        help: "use `format = bshd` for a model with sinks on this TransformerEngine, or TE 2.12 or later with cuDNN 9.18",
    },
    Assert {
        id: "sinks-thd",
        since: v(2, 12),
        until: None,
        check: Check::SinksThd { below_cudnn: Some(Cudnn::new(9, 18, 0)) },
        without_cp: false,
        summary: "learned sinks run with THD under context parallelism only from cuDNN 9.18",
        te_says: "Before cuDNN 9.18.0, context parallelism does not support softmax_type='learnable' with qkv_format = 'thd'!",
        sources: &[
            "v2.12 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4048",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5068",
        ],
        help: "use cuDNN 9.18 or later (`--for te,cudnn=9.18`), or `format = bshd`",
    },
    Assert {
        id: "mla-comm",
        since: v(2, 5),
        until: Some(v(2, 8)),
        check: Check::MlaComm(&[Comm::AllGather, Comm::A2a]),
        without_cp: false,
        summary: "MLA runs under context parallelism only with cp_comm_type p2p or a2a+p2p before TE 2.15",
        te_says: "The context parallel running configs cannot support MLA!",
        sources: &[
            "v2.5 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3879",
            "v2.7 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3883",
        ],
        help: "use `strategy = p2p` or `a2a+p2p` for MLA on this TransformerEngine, or TE 2.15 or later",
    },
    Assert {
        id: "mla-comm",
        since: v(2, 8),
        until: Some(v(2, 15)),
        check: Check::MlaComm(&[Comm::AllGather, Comm::A2a]),
        without_cp: false,
        summary: "MLA runs under context parallelism only with cp_comm_type p2p or a2a+p2p before TE 2.15",
        te_says: "Context parallelism does not support MLA with cp_comm_type='a2a'!",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3751",
            "v2.14 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4076",
        ],
        help: "use `strategy = p2p` or `a2a+p2p` for MLA on this TransformerEngine, or TE 2.15 or later",
    },
    Assert {
        id: "zigzag",
        since: v(1, 12),
        until: None,
        check: Check::Contiguous,
        without_cp: false,
        summary: "TransformerEngine's context parallelism expects the DualChunkSwap (zigzag) split of every sequence; a contiguous split computes a wrong causal attention there",
        te_says: "Context parallelism assigns two discontiguous sequence chunks to each GPU for load balancing. (DualChunkSwap; tokens re-ordered by get_batch_on_this_cp_rank)",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:1535",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4963",
        ],
        help: "use `balance = zigzag` (Megatron-LM's get_batch_on_this_cp_rank)",
    },
    Assert {
        id: "seq-per-rank-even",
        since: v(1, 12),
        until: None,
        check: Check::SeqPerRankOdd,
        without_cp: false,
        summary: "each rank's share of the sequence (seq / cp) must be even, whatever the mask and balance: seq a multiple of 2·cp",
        te_says: "Sequence length per GPU needs to be divisible by 2!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:1787 (p2p; :3424 all_gather, :3853 a2a)",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:1571 (p2p)",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3098 (all_gather: requires seq_len % 2 == 0)",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4243 (a2a: requires seq_len % 2 == 0)",
        ],
        help: "use a seq that is a multiple of 2·cp",
    },
];
