//! TransformerEngine's attention backend filters under context parallelism, per version: the
//! conditions under which `get_attention_backend` (and the cuDNN backend selection
//! `nvte_get_fused_attn_backend` behind FusedAttention) disables FlashAttention 2,
//! FlashAttention 3 or FusedAttention, and which backend it then prefers.
//!
//! Each [`Filter`] is one `if` of TE's, with the versions it holds in (half-open) and its log
//! message at those versions; where TE changed a message or a condition the filter is split, so
//! that every entry is true for every version it covers. Paths before 2.2 are
//! `transformer_engine/pytorch/attention.py`; 2.2 moved the filters to
//! `pytorch/dot_product_attention/utils.py` and 2.3 to `pytorch/attention/dot_product_attention/
//! utils.py`; the cuDNN conditions are `transformer_engine/common/fused_attn/fused_attn.cpp`.
//! UnfusedDotProductAttention is never available under context parallelism (every version:
//! "Disabling UnfusedDotProductAttention as it does not support context parallelism",
//! v1.12 attention.py:534, main utils.py:1171), so it is not a row here.

use super::target::{Cudnn, Target, TeVersion};
use super::{Comm, CudnnAssumption, Setting};

/// An attention backend of TE's `DotProductAttention`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    FlashAttention2,
    FlashAttention3,
    /// cuDNN's fused attention (sub-backend 1, F16_arbitrary_seqlen, for bf16/fp16).
    FusedAttention,
    /// UnfusedDotProductAttention: runs only without context parallelism.
    Unfused,
}

impl Backend {
    /// The backends TE may select under context parallelism.
    pub const UNDER_CP: [Backend; 3] = [Backend::FlashAttention2, Backend::FlashAttention3, Backend::FusedAttention];

    pub fn name(self) -> &'static str {
        match self {
            Backend::FlashAttention2 => "FlashAttention 2",
            Backend::FlashAttention3 => "FlashAttention 3",
            Backend::FusedAttention => "FusedAttention (cuDNN)",
            Backend::Unfused => "UnfusedDotProductAttention",
        }
    }
}

/// Which backends a filter disables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disables {
    /// TE's `use_flash_attention` (FlashAttention 2 and 3 together, as before 2.2).
    Flash,
    Flash2,
    Flash3,
    Fused,
}

/// The condition of a filter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum When {
    /// The compute capability is below this (× 10).
    ArchBelow(u32),
    /// The compute capability is not this.
    ArchNot(u32),
    /// fp32 inputs.
    Fp32,
    /// Different query/key and value head dims (MLA).
    Mla,
    /// FlashAttention 2's head-dim rule: d > 256, d not a multiple of 8, or d > 192 on an
    /// architecture outside `big`. `padded`: d = max(d_qk, d_v) (2.17: TE pads the smaller); else
    /// d = d_qk.
    Fa2HeadDim { padded: bool, big: &'static [u32] },
    /// d_qk or d_v above 128.
    HeadDimAbove128,
    /// `_is_fa3_supported` is false: d_qk > 256, or MLA outside (128 < d_qk <= 192,
    /// 96 < d_v <= 128) and (d_qk <= 64, d_v <= 512).
    Fa3Shape,
    /// THD with padding between sequences (always under context parallelism).
    ThdPadding,
    /// A sliding window.
    Window,
    /// A sliding window with THD (and its padding mask).
    WindowThd,
    /// Learned sinks (`softmax_type = "learnable"`).
    Sinks,
    /// Learned sinks with THD; with a cuDNN bound, only below it.
    SinksThd { below_cudnn: Option<Cudnn> },
    /// Learned sinks under a communication type other than a2a.
    SinksNotA2a,
    /// A sliding window under one of these communication types.
    WindowComm(&'static [Comm]),
    /// Odd query or KV heads per TP rank under a2a or a2a+p2p.
    OddHeadsA2a,
    /// cuDNN: an architecture of 10.0 or later needs this cuDNN.
    CudnnBlackwell(Cudnn),
    /// cuDNN before TE 2.5: Blackwell with a head dim above 128.
    CudnnBlackwellBigHead,
    /// cuDNN before TE 2.5: head dims multiples of 8, at most 128, or at most 256 from sm90 (cuDNN 9.0).
    CudnnHeadDimOld,
    /// cuDNN from TE 2.5 (training): head dims multiples of 8; at most 128; at most 256 on sm90
    /// from cuDNN 9.5; (192, 128) on sm100+ from cuDNN 9.11; with `d256_blackwell`, (256, 256) on
    /// sm100–sm109 from cuDNN 9.23 (9.25 for THD).
    CudnnHeadDim { d256_blackwell: bool },
    /// cuDNN's MLA bug on Hopper (training, 128 <= d_qk, d_v, d_qk != d_v, not (192, 128)) for
    /// cuDNN from `from` up to (not including) `until`.
    CudnnMlaHopper { from: Cudnn, until: Option<Cudnn> },
    /// cuDNN: THD needs sm90+ and cuDNN 9.1 for MHA; GQA needs `gqa` (never when `None`).
    CudnnThd { gqa: Option<Cudnn> },
    /// cuDNN: a sliding window needs cuDNN 9.2 with bshd/sbhd and a causal mask; with THD (and its
    /// padding mask) it needs `thd` (never when `None`).
    CudnnWindow { thd: Option<Cudnn> },
    /// cuDNN: learned sinks need cuDNN 9.13.1.
    CudnnSinks,
}

/// One filter of TE's backend selection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    /// A stable name for tests and docs.
    pub id: &'static str,
    pub disables: Disables,
    /// The first release the filter holds in.
    pub since: TeVersion,
    /// The first release without it.
    pub until: Option<TeVersion>,
    pub when: When,
    /// What it means, in attnc's words.
    pub summary: &'static str,
    /// TE's log line at these versions (`NVTE_DEBUG=1 NVTE_DEBUG_LEVEL=2`); for cuDNN conditions,
    /// the log line and the C++ comment of the condition.
    pub te_says: &'static str,
    /// `release path:line` of each place it was read.
    pub sources: &'static [&'static str],
    /// A change TE accepts.
    pub help: &'static str,
}

const fn v(major: u32, minor: u32) -> TeVersion {
    TeVersion::new(major, minor)
}

const fn cudnn(major: u32, minor: u32, patch: u32) -> Cudnn {
    Cudnn::new(major, minor, patch)
}

impl Filter {
    pub fn holds_in(&self, version: TeVersion) -> bool {
        self.since <= version && self.until.is_none_or(|until| version < until)
    }

    pub fn disables(&self, backend: Backend) -> bool {
        matches!(
            (self.disables, backend),
            (Disables::Flash, Backend::FlashAttention2 | Backend::FlashAttention3)
                | (Disables::Flash2, Backend::FlashAttention2)
                | (Disables::Flash3, Backend::FlashAttention3)
                | (Disables::Fused, Backend::FusedAttention)
        )
    }

    /// `TE 1.12 and later`, `TE 1.12 up to (not including) 2.10`.
    pub fn versions(&self) -> String {
        versions(self.since, self.until)
    }
}

pub(crate) fn versions(since: TeVersion, until: Option<TeVersion>) -> String {
    match until {
        None => format!("TE {since} and later"),
        Some(until) => format!("TE {since} up to (not including) {until}"),
    }
}

/// Whether `target`'s cuDNN is at least `at_least`; with no cuDNN named, the newest is assumed
/// and the assumption recorded.
pub(crate) fn cudnn_at_least(
    target: &Target,
    at_least: Cudnn,
    what: &'static str,
    assumed: &mut Vec<CudnnAssumption>,
) -> bool {
    match target.cudnn {
        Some(c) => c >= at_least,
        None => {
            assumed.push(CudnnAssumption { at_least, what });
            true
        }
    }
}

fn sm(setting: &Setting) -> u32 {
    setting.sm.unwrap_or(0)
}

impl When {
    /// Whether a choice of strategy (the communication type) decides the condition.
    pub fn strategy_dependent(self) -> bool {
        matches!(self, When::SinksNotA2a | When::WindowComm(_) | When::OddHeadsA2a)
    }

    /// Whether the condition holds for `setting` (so the filter disables its backends).
    pub fn fires(&self, setting: &Setting, target: &Target, assumed: &mut Vec<CudnnAssumption>) -> bool {
        let (qk, vd) = (setting.head_dim, setting.v_head_dim);
        let sm = sm(setting);
        match *self {
            When::ArchBelow(min) => sm < min,
            When::ArchNot(only) => sm != only,
            When::Fp32 => setting.dtype == crate::spec::Dtype::Fp32,
            When::Mla => setting.mla(),
            When::Fa2HeadDim { padded, big } => {
                let d = if padded { qk.max(vd) } else { qk };
                d > 256 || d % 8 != 0 || (d > 192 && !big.contains(&sm))
            }
            When::HeadDimAbove128 => qk > 128 || vd > 128,
            When::Fa3Shape => {
                let mla_ok = (128 < qk && qk <= 192 && 96 < vd && vd <= 128) || (qk <= 64 && vd <= 512);
                qk > 256 || setting.heads % setting.kv_heads.max(1) != 0 || (qk != vd && !mla_ok)
            }
            When::ThdPadding => setting.pad_between_seqs(),
            When::Window => setting.window(),
            When::WindowThd => setting.window() && setting.thd(),
            When::Sinks => setting.sinks,
            When::SinksThd { below_cudnn } => {
                setting.sinks
                    && setting.thd()
                    && below_cudnn.is_none_or(|c| {
                        !cudnn_at_least(target, c, "FusedAttention takes learned sinks with THD", assumed)
                    })
            }
            When::SinksNotA2a => setting.sinks && setting.comm() != Some(Comm::A2a),
            When::WindowComm(comms) => setting.window() && setting.comm().is_some_and(|c| comms.contains(&c)),
            When::OddHeadsA2a => {
                matches!(setting.comm(), Some(Comm::A2a | Comm::A2aP2p))
                    && (setting.heads % 2 != 0 || setting.kv_heads % 2 != 0)
            }
            When::CudnnBlackwell(c) => {
                sm >= 100 && !cudnn_at_least(target, c, "FusedAttention runs on Blackwell", assumed)
            }
            When::CudnnBlackwellBigHead => sm >= 100 && (qk > 128 || vd > 128),
            When::CudnnHeadDimOld => {
                let small = qk <= 128 && vd <= 128;
                let big = sm >= 90 && qk <= 256 && vd <= 256;
                qk % 8 != 0 || vd % 8 != 0 || !(small || big)
            }
            When::CudnnHeadDim { d256_blackwell } => {
                if qk % 8 != 0 || vd % 8 != 0 {
                    return true;
                }
                if qk <= 128 && vd <= 128 {
                    return false;
                }
                if qk <= 256 && vd <= 256 && sm == 90 {
                    return !cudnn_at_least(
                        target,
                        cudnn(9, 5, 0),
                        "FusedAttention trains head dims above 128 on Hopper",
                        assumed,
                    );
                }
                if qk == 192 && vd == 128 && sm >= 100 {
                    return !cudnn_at_least(
                        target,
                        cudnn(9, 11, 0),
                        "FusedAttention trains d_qk 192 / d_v 128 on Blackwell",
                        assumed,
                    );
                }
                if d256_blackwell && qk == 256 && vd == 256 && (100..110).contains(&sm) && !setting.sinks {
                    let need = if setting.thd() { cudnn(9, 25, 0) } else { cudnn(9, 23, 0) };
                    return !cudnn_at_least(target, need, "FusedAttention trains head dim 256 on Blackwell", assumed);
                }
                true
            }
            When::CudnnMlaHopper { from, until } => {
                let shape = sm == 90 && qk >= 128 && vd >= 128 && qk != vd && !(qk == 192 && vd == 128);
                shape
                    && match target.cudnn {
                        // The newest cuDNN: inside the range unless it has an end.
                        None => until.is_none(),
                        Some(c) => c >= from && until.is_none_or(|u| c < u),
                    }
            }
            When::CudnnThd { gqa } => {
                if !setting.thd() {
                    return false;
                }
                if sm < 90 {
                    return true;
                }
                let mha = setting.heads == setting.kv_heads;
                if mha {
                    return !cudnn_at_least(target, cudnn(9, 1, 0), "FusedAttention takes THD", assumed);
                }
                match gqa {
                    None => true,
                    Some(c) => {
                        !cudnn_at_least(target, c, "FusedAttention takes THD with grouped-query attention", assumed)
                    }
                }
            }
            When::CudnnWindow { thd } => {
                if !setting.window() {
                    return false;
                }
                if setting.thd() {
                    return match thd {
                        None => true,
                        Some(c) => {
                            !cudnn_at_least(target, c, "FusedAttention takes a sliding window with THD", assumed)
                        }
                    };
                }
                !cudnn_at_least(target, cudnn(9, 2, 0), "FusedAttention takes a sliding window", assumed)
            }
            When::CudnnSinks => {
                setting.sinks && !cudnn_at_least(target, cudnn(9, 13, 1), "FusedAttention takes learned sinks", assumed)
            }
        }
    }
}

/// TE prefers FusedAttention over FlashAttention when both are available on Hopper (1.x: sm90
/// only, for the F16_arbitrary_seqlen sub-backend, v1.12 attention.py:931) and later (2.0:
/// `device_compute_capability >= (9, 0)`, v2.0 attention.py:942; main utils.py:1648).
pub fn prefers_fused(setting: &Setting, version: TeVersion) -> bool {
    let sm = sm(setting);
    if version < v(2, 0) { sm == 90 } else { sm >= 90 }
}

/// THD under context parallelism has padding between sequences, which only FusedAttention (sm90+)
/// and, from TE 2.16, FlashAttention 3 (sm90) take.
const THD_HELP: &str = "THD under context parallelism runs on a Hopper or later GPU (`gpu = h100_sxm`, or h200, b200): FusedAttention there takes it (and FlashAttention 3 from TE 2.16, `--for te,fa3` when installed)";

/// The filters, in TE's order.
pub const FILTERS: &[Filter] = &[
    // --- Compute capability.
    Filter {
        id: "fa-arch",
        disables: Disables::Flash,
        since: v(1, 12),
        until: Some(v(2, 2)),
        when: When::ArchBelow(80),
        summary: "FlashAttention needs compute capability 8.0 or later",
        te_says: "Disabling FlashAttention as it requires compute capability sm80+",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:425",
            "v2.1 transformer_engine/pytorch/attention.py:455",
        ],
        help: "use an Ampere or later GPU (a100_80g, h100_sxm, ...)",
    },
    Filter {
        id: "fa2-arch",
        disables: Disables::Flash2,
        since: v(2, 2),
        until: None,
        when: When::ArchBelow(80),
        summary: "FlashAttention 2 needs compute capability 8.0 or later",
        te_says: "Disabling FlashAttention 2 for compute capability < sm80",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:363",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:571",
        ],
        help: "use an Ampere or later GPU (a100_80g, h100_sxm, ...)",
    },
    Filter {
        id: "fa3-arch",
        disables: Disables::Flash3,
        since: v(1, 12),
        until: Some(v(2, 2)),
        when: When::ArchBelow(90),
        summary: "FlashAttention 3 needs compute capability 9.0 or later",
        te_says: "Disabling FlashAttention 3 as it requires compute capability sm90+",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:432",
            "v2.1 transformer_engine/pytorch/attention.py:462",
        ],
        help: "FlashAttention 3 runs on Hopper (h100_sxm, h200, ...)",
    },
    Filter {
        id: "fa3-arch",
        disables: Disables::Flash3,
        since: v(2, 2),
        until: None,
        when: When::ArchNot(90),
        summary: "FlashAttention 3 runs only on compute capability 9.0 (Hopper)",
        te_says: "Disabling FlashAttention 3 for compute capability != sm90",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:370",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:578",
        ],
        help: "FlashAttention 3 runs on Hopper (h100_sxm, h200, ...)",
    },
    Filter {
        id: "fused-arch",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(2, 2)),
        when: When::ArchBelow(80),
        summary: "FusedAttention needs compute capability 8.0 or later",
        te_says: "Disabling FusedAttention as it requires compute capability sm80+",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:428",
            "v2.1 transformer_engine/pytorch/attention.py:458",
        ],
        help: "use an Ampere or later GPU (a100_80g, h100_sxm, ...)",
    },
    Filter {
        id: "fused-arch",
        disables: Disables::Fused,
        since: v(2, 2),
        until: None,
        when: When::ArchBelow(80),
        summary: "FusedAttention needs compute capability 8.0 or later",
        te_says: "Disabling FusedAttention for compute capability < sm80",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:366",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:574",
        ],
        help: "use an Ampere or later GPU (a100_80g, h100_sxm, ...)",
    },
    // --- Data type.
    Filter {
        id: "fa-dtype",
        disables: Disables::Flash,
        since: v(1, 12),
        until: Some(v(2, 2)),
        when: When::Fp32,
        summary: "FlashAttention takes only bf16 and fp16",
        te_says: "Disabling FlashAttention due to unsupported QKV data type. Supported: qkv_dtype = {torch.bfloat16, torch.float16}.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:442",
            "v2.1 transformer_engine/pytorch/attention.py:472",
        ],
        help: "use `dtype = bf16` (attnc accumulates in fp32 either way)",
    },
    Filter {
        id: "fa2-dtype",
        disables: Disables::Flash2,
        since: v(2, 2),
        until: None,
        when: When::Fp32,
        summary: "FlashAttention 2 takes only bf16 and fp16",
        te_says: "Disabling FlashAttention 2 for unsupported qkv_dtype = torch.float32. Supported: qkv_dtype = {torch.bfloat16, torch.float16}.",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:377",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:602",
        ],
        help: "use `dtype = bf16` (attnc accumulates in fp32 either way)",
    },
    Filter {
        id: "fa3-dtype",
        disables: Disables::Flash3,
        since: v(2, 2),
        until: None,
        when: When::Fp32,
        summary: "FlashAttention 3 takes only bf16, fp16 and fp8",
        te_says: "Disabling FlashAttention 3 for unsupported qkv_dtype = torch.float32, qkv_type = <class 'torch.Tensor'>.",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:388",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:621",
        ],
        help: "use `dtype = bf16` (attnc accumulates in fp32 either way)",
    },
    Filter {
        id: "fused-dtype",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(2, 2)),
        when: When::Fp32,
        summary: "FusedAttention takes only bf16 and fp16",
        te_says: "Disabling FusedAttention due to unsupported QKV data type. Supported: qkv_dtype = {torch.bfloat16, torch.float16}.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:450",
            "v2.1 transformer_engine/pytorch/attention.py:480",
        ],
        help: "use `dtype = bf16` (attnc accumulates in fp32 either way)",
    },
    Filter {
        id: "fused-dtype",
        disables: Disables::Fused,
        since: v(2, 2),
        until: None,
        when: When::Fp32,
        summary: "FusedAttention takes only bf16, fp16 and fp8",
        te_says: "Disabling FusedAttention for unsupported qkv_dtype = torch.float32, qkv_type = <class 'torch.Tensor'>.",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:397",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:637",
        ],
        help: "use `dtype = bf16` (attnc accumulates in fp32 either way)",
    },
    // --- Head dims.
    Filter {
        id: "fa-mla",
        disables: Disables::Flash,
        since: v(1, 12),
        until: Some(v(2, 8)),
        when: When::Mla,
        summary: "FlashAttention does not take a value head dim of its own (MLA)",
        te_says: "Disabling FlashAttention as it does not support MLA.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:475",
            "v2.7 transformer_engine/pytorch/attention/dot_product_attention/utils.py:483",
        ],
        help: "MLA runs under context parallelism from TE 2.5 through FusedAttention (`--for te=2.5` or later)",
    },
    Filter {
        id: "fa2-mla",
        disables: Disables::Flash2,
        since: v(2, 8),
        until: Some(v(2, 17)),
        when: When::Mla,
        summary: "FlashAttention 2 does not take a value head dim of its own (MLA) before TE 2.17",
        te_says: "Disabling FlashAttention 2 as it does not support MLA.",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/utils.py:535",
            "v2.16 transformer_engine/pytorch/attention/dot_product_attention/utils.py:726",
        ],
        help: "MLA runs through FusedAttention (or FlashAttention 2 from TE 2.17, which pads the smaller head dim)",
    },
    Filter {
        id: "fa-head-dim",
        disables: Disables::Flash,
        since: v(1, 12),
        until: Some(v(2, 1)),
        when: When::Fa2HeadDim { padded: false, big: &[80, 90] },
        summary: "FlashAttention takes head dims that are multiples of 8 up to 256 (above 192 only on sm80 and sm90)",
        te_says: "Disabling FlashAttention due to unsupported head_dim_qk and head_dim_v. Supported: head_dim_qk = head_dim_v, head_dim_qk %8 = 0, head_dim_qk <= 256 (>192 requires sm80/90).",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:484",
            "v2.0 transformer_engine/pytorch/attention.py:510",
        ],
        help: "use a head dim that is a multiple of 8, at most 256",
    },
    Filter {
        id: "fa-head-dim",
        disables: Disables::Flash,
        since: v(2, 1),
        until: Some(v(2, 2)),
        when: When::Fa2HeadDim { padded: false, big: &[80, 90, 100, 120] },
        summary: "FlashAttention takes head dims that are multiples of 8 up to 256 (above 192 only on sm80, sm90, sm100 and sm120)",
        te_says: "Disabling FlashAttention due to unsupported head_dim_qk and head_dim_v. Supported: head_dim_qk = head_dim_v, head_dim_qk %8 = 0, head_dim_qk <= 256 (>192 requires sm80/90/100+).",
        sources: &["v2.1 transformer_engine/pytorch/attention.py:517"],
        help: "use a head dim that is a multiple of 8, at most 256",
    },
    Filter {
        id: "fa2-head-dim",
        disables: Disables::Flash2,
        since: v(2, 2),
        until: Some(v(2, 17)),
        when: When::Fa2HeadDim { padded: false, big: &[80, 90, 100, 120] },
        summary: "FlashAttention 2 takes head dims that are multiples of 8 up to 256 (above 192 only on sm80, sm90, sm100 and sm120)",
        te_says: "Disabling FlashAttention 2 due to unsupported head_dim_qk and head_dim_v. Supported: head_dim_qk = head_dim_v, head_dim_qk %8 = 0, head_dim_qk <= 256 (>192 requires sm80/90/100+).",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:489",
            "v2.16 transformer_engine/pytorch/attention/dot_product_attention/utils.py:763",
        ],
        help: "use a head dim that is a multiple of 8, at most 256",
    },
    Filter {
        id: "fa2-head-dim",
        disables: Disables::Flash2,
        since: v(2, 17),
        until: None,
        when: When::Fa2HeadDim { padded: true, big: &[80, 90, 100, 120] },
        summary: "FlashAttention 2 takes head dims (the larger of q/k and v) that are multiples of 8 up to 256 (above 192 only on sm80, sm90, sm100 and sm120)",
        te_says: "Disabling FlashAttention 2 due to unsupported head_dim_qk and head_dim_v. Supported after padding: padded head_dim %8 = 0, padded head_dim <= 256 (>192 requires sm80/90/100+).",
        sources: &[
            "v2.17 transformer_engine/pytorch/attention/dot_product_attention/utils.py:858",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:940",
        ],
        help: "use head dims that are multiples of 8, at most 256",
    },
    Filter {
        id: "fa3-head-dim",
        disables: Disables::Flash3,
        since: v(2, 2),
        until: Some(v(2, 8)),
        when: When::HeadDimAbove128,
        summary: "FlashAttention 3 takes head dims up to 128 before TE 2.8",
        te_says: "Disabling FlashAttention 3 for head_dim > 128",
        sources: &[
            "v2.2 transformer_engine/pytorch/dot_product_attention/utils.py:500",
            "v2.7 transformer_engine/pytorch/attention/dot_product_attention/utils.py:513",
        ],
        help: "use a head dim of at most 128, or TE 2.8 or later",
    },
    Filter {
        id: "fa3-shape",
        disables: Disables::Flash3,
        since: v(2, 8),
        until: None,
        when: When::Fa3Shape,
        summary: "FlashAttention 3 takes d_qk up to 256 and, for MLA, d_qk in (128, 192] with d_v in (96, 128], or d_qk <= 64 with d_v <= 512",
        te_says: "Disabling FlashAttention 3 due to unsupported num_heads, num_gqa_groups, head_dim_qk, head_dim_v or qkv_dtype.",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/utils.py:582",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:968",
        ],
        help: "use head dims FlashAttention 3 takes, or rely on FusedAttention",
    },
    Filter {
        id: "fused-cp-mla",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(2, 5)),
        when: When::Mla,
        summary: "FusedAttention does not run MLA under context parallelism before TE 2.5",
        te_says: "Disabling FusedAttention as it does not support context parallelism with MLA",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:602",
            "v2.4 transformer_engine/pytorch/attention/dot_product_attention/utils.py:613",
        ],
        help: "MLA under context parallelism needs TE 2.5 or later (`--for te=2.5`)",
    },
    // --- Format.
    Filter {
        id: "fa-thd-padding",
        disables: Disables::Flash,
        since: v(1, 12),
        until: Some(v(2, 16)),
        when: When::ThdPadding,
        summary: "FlashAttention does not take THD with padding between sequences, which context parallelism always has",
        te_says: "Disabling FlashAttention for qkv_format = thd when there is padding between sequences, i.e. [a, a, PAD, b, b, b, PAD, c, PAD]",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:510",
            "v2.15 transformer_engine/pytorch/attention/dot_product_attention/utils.py:852",
        ],
        help: THD_HELP,
    },
    Filter {
        id: "fa2-thd-padding",
        disables: Disables::Flash2,
        since: v(2, 16),
        until: None,
        when: When::ThdPadding,
        summary: "FlashAttention 2 does not take THD with padding between sequences, which context parallelism always has",
        te_says: "Disabling FlashAttention 2 and 4 for qkv_format = thd when there is padding between sequences, i.e. [a, a, PAD, b, b, b, PAD, c, PAD]",
        sources: &[
            "v2.16 transformer_engine/pytorch/attention/dot_product_attention/utils.py:887",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1078",
        ],
        help: THD_HELP,
    },
    // --- Sliding window.
    Filter {
        id: "fa3-window",
        disables: Disables::Flash3,
        since: v(1, 12),
        until: Some(v(2, 2)),
        when: When::Window,
        summary: "FlashAttention 3 takes no sliding window before TE 2.2",
        te_says: "Disabling FlashAttention 3 as it does not support sliding window attention",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:728",
            "v2.1 transformer_engine/pytorch/attention.py:746",
        ],
        help: "sliding windows run on FlashAttention 2 or FusedAttention here",
    },
    Filter {
        id: "fused-window-thd",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(2, 0)),
        when: When::WindowThd,
        summary: "FusedAttention takes a sliding window only with bshd or sbhd and a causal mask before TE 2.0",
        te_says: "Disabling FusedAttention as it only supports sliding window attention with causal mask, no dropout, and qkv_format = bshd/sbhd",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:703",
            "v1.13 transformer_engine/pytorch/attention.py:703",
        ],
        help: "use `format = bshd` for windowed layers on this TransformerEngine, or TE 2.0 or later",
    },
    // --- Learned sinks (softmax_type, from 2.8).
    Filter {
        id: "fa-sinks",
        disables: Disables::Flash,
        since: v(2, 8),
        until: None,
        when: When::Sinks,
        summary: "FlashAttention takes only the vanilla softmax, not learned sinks",
        te_says: "Disabling FlashAttention for softmax_type = learnable",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/utils.py:630",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1123",
        ],
        help: "learned sinks run on FusedAttention only, under `strategy = a2a`",
    },
    Filter {
        id: "fused-sinks-thd",
        disables: Disables::Fused,
        since: v(2, 8),
        until: Some(v(2, 12)),
        when: When::SinksThd { below_cudnn: None },
        summary: "FusedAttention takes learned sinks only with bshd or sbhd before TE 2.12",
        te_says: "Disabling FusedAttention for softmax_type = learnable and qkv_format = thd",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/utils.py:641",
            "v2.11 transformer_engine/pytorch/attention/dot_product_attention/utils.py:720",
        ],
        help: "use `format = bshd` for a model with sinks on this TransformerEngine, or TE 2.12 or later with cuDNN 9.18",
    },
    Filter {
        id: "fused-sinks-thd",
        disables: Disables::Fused,
        since: v(2, 12),
        until: None,
        when: When::SinksThd { below_cudnn: Some(cudnn(9, 18, 0)) },
        summary: "FusedAttention takes learned sinks with THD only from cuDNN 9.18",
        te_says: "Disabling FusedAttention for softmax_type = learnable, qkv_format = thd and cuDNN version < 9.18",
        sources: &[
            "v2.12 transformer_engine/pytorch/attention/dot_product_attention/utils.py:728",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1143",
        ],
        help: "use cuDNN 9.18 or later (`--for te,cudnn=9.18`), or `format = bshd`",
    },
    Filter {
        id: "fused-sinks-cp",
        disables: Disables::Fused,
        since: v(2, 8),
        until: None,
        when: When::SinksNotA2a,
        summary: "FusedAttention runs learned sinks under context parallelism only with cp_comm_type a2a",
        te_says: "Disabling FusedAttention for context parallelism with softmax_type = learnable and cp_comm_type = <cp_comm_type>",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/utils.py:658",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1150",
        ],
        help: "run the layers with sinks under `strategy = a2a`",
    },
    // --- Context parallelism (FusedAttention's CP filter).
    Filter {
        id: "fused-cp-window",
        disables: Disables::Fused,
        since: v(2, 15),
        until: None,
        when: When::WindowComm(&[Comm::P2p, Comm::A2aP2p]),
        summary: "FusedAttention takes no sliding window under p2p or a2a+p2p",
        te_says: "Disabling FusedAttention as it does not support context parallelism with sliding window attention and cp_comm_type = <cp_comm_type>",
        sources: &[
            "v2.15 transformer_engine/pytorch/attention/dot_product_attention/utils.py:1044",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1268",
        ],
        help: "run windowed layers with `strategy = all_gather` or `a2a`",
    },
    Filter {
        id: "fused-cp-odd-heads",
        disables: Disables::Fused,
        since: v(2, 15),
        until: None,
        when: When::OddHeadsA2a,
        summary: "FusedAttention under a2a or a2a+p2p needs an even number of query and KV heads per TP rank",
        te_says: "Disabling FusedAttention as cp_comm_type = <cp_comm_type> requires num_heads and num_gqa_groups divisible by 2",
        sources: &[
            "v2.15 transformer_engine/pytorch/attention/dot_product_attention/utils.py:1050",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1274",
        ],
        help: "use a tp that leaves an even number of query and KV heads per rank, or `strategy = p2p`",
    },
    // --- cuDNN (nvte_get_fused_attn_backend; TE logs "Disabling FusedAttention as no backend
    // supports the provided input", v1.12 attention.py:826, main utils.py:1491).
    Filter {
        id: "cudnn-blackwell",
        disables: Disables::Fused,
        since: v(2, 5),
        until: None,
        when: When::CudnnBlackwell(cudnn(9, 7, 0)),
        summary: "FusedAttention runs on Blackwell (sm100) only from cuDNN 9.7",
        te_says: "Disabling FusedAttention as no backend supports the provided input (architecture: cudnn_runtime_version >= 90700 && sm_arch_ >= 80)",
        sources: &[
            "v2.5 transformer_engine/common/fused_attn/fused_attn.cpp:219",
            "main transformer_engine/common/fused_attn/fused_attn.cpp:300",
        ],
        help: "use cuDNN 9.7 or later on Blackwell",
    },
    Filter {
        id: "cudnn-blackwell-head-dim",
        disables: Disables::Fused,
        since: v(2, 0),
        until: Some(v(2, 5)),
        when: When::CudnnBlackwellBigHead,
        summary: "FusedAttention takes head dims up to 128 on Blackwell before TE 2.5",
        te_says: "Disabling FusedAttention as no backend supports the provided input (special conditions for blackwell: !(sm_arch_ >= 100 && (head_dim_qk > 128 || head_dim_v > 128)))",
        sources: &[
            "v2.0 transformer_engine/common/fused_attn/fused_attn.cpp:156",
            "v2.4 transformer_engine/common/fused_attn/fused_attn.cpp:221",
        ],
        help: "use a head dim of at most 128 on Blackwell, or TE 2.5 or later",
    },
    Filter {
        id: "cudnn-head-dim",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(2, 5)),
        when: When::CudnnHeadDimOld,
        summary: "FusedAttention takes head dims that are multiples of 8, up to 128 (up to 256 on sm90 and later)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (head dimension: <= 128, or <= 256 with sm_arch_ >= 90 and cuDNN 9.0)",
        sources: &[
            "v1.12 transformer_engine/common/fused_attn/fused_attn.cpp:133",
            "v2.4 transformer_engine/common/fused_attn/fused_attn.cpp:231",
        ],
        help: "use head dims that are multiples of 8, at most 128 (256 on Hopper)",
    },
    Filter {
        id: "cudnn-head-dim",
        disables: Disables::Fused,
        since: v(2, 5),
        until: Some(v(2, 18)),
        when: When::CudnnHeadDim { d256_blackwell: false },
        summary: "FusedAttention trains head dims that are multiples of 8 up to 128, up to 256 on sm90 (cuDNN 9.5), and d_qk 192 / d_v 128 on sm100 (cuDNN 9.11)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (head dimension: 9.5: <= 256 + Hopper + bprop; 9.11: d_qk = 192, d_v = 128 + Blackwell + bprop)",
        sources: &[
            "v2.5 transformer_engine/common/fused_attn/fused_attn.cpp:229",
            "v2.17 transformer_engine/common/fused_attn/fused_attn.cpp:308",
        ],
        help: "use head dims FusedAttention trains on this GPU (at most 128; up to 256 on Hopper)",
    },
    Filter {
        id: "cudnn-head-dim",
        disables: Disables::Fused,
        since: v(2, 18),
        until: None,
        when: When::CudnnHeadDim { d256_blackwell: true },
        summary: "FusedAttention trains head dims that are multiples of 8 up to 128, up to 256 on sm90 (cuDNN 9.5), d_qk 192 / d_v 128 on sm100 (cuDNN 9.11) and 256 on sm100 (cuDNN 9.23)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (head dimension: 9.5: <= 256 + Hopper + bprop; 9.11: d_qk = 192, d_v = 128 + Blackwell + bprop; 9.23: d_qk = d_v = 256 + SM10x + bprop)",
        sources: &[
            "v2.18 transformer_engine/common/fused_attn/fused_attn.cpp:333",
            "main transformer_engine/common/fused_attn/fused_attn.cpp:310",
        ],
        help: "use head dims FusedAttention trains on this GPU (at most 128; up to 256 on Hopper)",
    },
    Filter {
        id: "cudnn-mla-hopper",
        disables: Disables::Fused,
        since: v(2, 6),
        until: Some(v(2, 7)),
        when: When::CudnnMlaHopper { from: cudnn(9, 11, 0), until: Some(cudnn(9, 13, 0)) },
        summary: "FusedAttention does not train MLA with both head dims of 128 or more on Hopper with cuDNN 9.11 and 9.12 (except d_qk 192 / d_v 128)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (9.11/9.12 bug: 128 < d_qk <= 256, 128 < d_v <= 256 + Hopper + bprop + MLA)",
        sources: &["v2.6 transformer_engine/common/fused_attn/fused_attn.cpp:254"],
        help: "use d_qk 192 with d_v 128, or another cuDNN",
    },
    Filter {
        id: "cudnn-mla-hopper",
        disables: Disables::Fused,
        since: v(2, 7),
        until: Some(v(2, 8)),
        when: When::CudnnMlaHopper { from: cudnn(9, 11, 0), until: Some(cudnn(9, 14, 0)) },
        summary: "FusedAttention does not train MLA with both head dims of 128 or more on Hopper with cuDNN 9.11 to 9.13 (except d_qk 192 / d_v 128)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (9.11/9.12 bug: 128 < d_qk <= 256, 128 < d_v <= 256 + Hopper + bprop + MLA; 9.13 added)",
        sources: &["v2.7 transformer_engine/common/fused_attn/fused_attn.cpp:254"],
        help: "use d_qk 192 with d_v 128, or another cuDNN",
    },
    Filter {
        id: "cudnn-mla-hopper",
        disables: Disables::Fused,
        since: v(2, 8),
        until: None,
        when: When::CudnnMlaHopper { from: cudnn(9, 11, 0), until: None },
        summary: "FusedAttention does not train MLA with both head dims of 128 or more on Hopper from cuDNN 9.11 (except d_qk 192 / d_v 128)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (9.11+ bug: 128 < d_qk <= 256, 128 < d_v <= 256 + Hopper + bprop + MLA)",
        sources: &[
            "v2.8 transformer_engine/common/fused_attn/fused_attn.cpp:257",
            "main transformer_engine/common/fused_attn/fused_attn.cpp:349",
        ],
        help: "use d_qk 192 with d_v 128 (DeepSeek's shape), or a cuDNN before 9.11",
    },
    Filter {
        id: "cudnn-thd",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(1, 13)),
        when: When::CudnnThd { gqa: None },
        summary: "FusedAttention takes THD only on sm90 and later, from cuDNN 9.1, and only without grouped-query attention",
        te_says: "Disabling FusedAttention as no backend supports the provided input (qkv format: sm_arch_ >= 90 && cudnn_runtime_version >= 90100 && num_attn_heads == num_gqa_groups && qkv_format == NVTE_THD)",
        sources: &["v1.12 transformer_engine/common/fused_attn/fused_attn.cpp:170"],
        help: "THD under context parallelism needs a Hopper or later GPU and, on TE 1.12, heads = kv_heads (TE 1.13 takes GQA with cuDNN 9.6)",
    },
    Filter {
        id: "cudnn-thd",
        disables: Disables::Fused,
        since: v(1, 13),
        until: None,
        when: When::CudnnThd { gqa: Some(cudnn(9, 6, 0)) },
        summary: "FusedAttention takes THD only on sm90 and later (cuDNN 9.1; with grouped-query attention cuDNN 9.6)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (qkv format: qkv_format == NVTE_THD && sm_arch_ >= 90 && ((cudnn_runtime_version >= 90100 && num_attn_heads == num_gqa_groups) || cudnn_runtime_version >= 90600))",
        sources: &[
            "v1.13 transformer_engine/common/fused_attn/fused_attn.cpp:184",
            "main transformer_engine/common/fused_attn/fused_attn.cpp:417",
        ],
        help: "THD under context parallelism runs on FusedAttention on a Hopper or later GPU (`gpu = h100_sxm`, or h200, b200) with cuDNN 9.1, or 9.6 with grouped-query attention (`--for te,cudnn=9.6`)",
    },
    Filter {
        id: "cudnn-window",
        disables: Disables::Fused,
        since: v(1, 12),
        until: Some(v(2, 0)),
        when: When::CudnnWindow { thd: None },
        summary: "FusedAttention takes a sliding window from cuDNN 9.2, with bshd or sbhd and a causal mask",
        te_says: "Disabling FusedAttention as no backend supports the provided input (sliding window: 9.2, (left, 0) with a causal mask and qkv_format bshd/sbhd)",
        sources: &["v1.12 transformer_engine/common/fused_attn/fused_attn.cpp:175"],
        help: "use `format = bshd` with a window on this TransformerEngine, or TE 2.0 or later",
    },
    Filter {
        id: "cudnn-window",
        disables: Disables::Fused,
        since: v(2, 0),
        until: None,
        when: When::CudnnWindow { thd: Some(cudnn(9, 6, 0)) },
        summary: "FusedAttention takes a sliding window from cuDNN 9.2 (with THD from cuDNN 9.6)",
        te_says: "Disabling FusedAttention as no backend supports the provided input (sliding window: 9.2: (left, 0) + top-left diagonal + {bshd, sbhd}; 9.6: + {thd})",
        sources: &[
            "v2.0 transformer_engine/common/fused_attn/fused_attn.cpp:220",
            "main transformer_engine/common/fused_attn/fused_attn.cpp:430",
        ],
        help: "use cuDNN 9.6 or later for windows with THD (`--for te,cudnn=9.6`)",
    },
    Filter {
        id: "cudnn-sinks",
        disables: Disables::Fused,
        since: v(2, 8),
        until: None,
        when: When::CudnnSinks,
        summary: "FusedAttention takes learned sinks from cuDNN 9.13.1",
        te_says: "Disabling FusedAttention as no backend supports the provided input (softmax type: pre-9.13.1: vanilla; 9.13.1+: vanilla, off-by-one, learnable)",
        sources: &[
            "v2.8 transformer_engine/common/fused_attn/fused_attn.cpp:370",
            "main transformer_engine/common/fused_attn/fused_attn.cpp:470",
        ],
        help: "use cuDNN 9.13.1 or later for learned sinks",
    },
];
