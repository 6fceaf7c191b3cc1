//! TransformerEngine's context-parallel support matrix, as data: which `cp_comm_type` takes
//! sliding windows, THD, which head counts and dtypes, per TE version.
//!
//! Each entry is one restriction TE enforces at run time — an assert, or a backend filter that
//! leaves no attention backend — with the versions it holds in (half-open) and the TE source lines
//! it comes from. The matrix was read from TE's git history, tags v1.12 to v2.18 and `main` at
//! d0067d0da (2.20.0.dev0, 2026-08-22); versions after that are assumed to keep `main`'s rules.
//! It covers what attnc's language can express today; it is not a model of TE's backend
//! selection (cuDNN versions, GPU architectures, FP8), which depends on the machine.

use std::fmt;

use crate::sema::spec::{Cp, Dtype, Format, Mask, Strategy};

/// A TransformerEngine release, `MAJOR.MINOR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TeVersion {
    pub major: u32,
    pub minor: u32,
}

impl TeVersion {
    pub const fn new(major: u32, minor: u32) -> TeVersion {
        TeVersion { major, minor }
    }

    /// `2.10`, `2.10.1`, `2.20.0.dev0` (patch and pre-release parts are ignored: rules change
    /// between minor releases).
    pub fn parse(text: &str) -> Option<TeVersion> {
        let mut parts = text.trim().trim_start_matches('v').split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some(TeVersion { major, minor })
    }
}

impl fmt::Display for TeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The oldest release the matrix describes.
pub const OLDEST: TeVersion = TeVersion::new(1, 12);
/// The newest release whose sources the matrix was read from (`main` at d0067d0da was 2.20.0.dev0).
pub const NEWEST: TeVersion = TeVersion::new(2, 20);
/// Where the newest rules were read.
pub const SNAPSHOT: &str = "TransformerEngine main at d0067d0da (2.20.0.dev0, 2026-08-22)";

/// A layout checked against TE: `--for te` (the newest) or `--for te=VERSION`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub version: TeVersion,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("`{0}` is not a target\n  help: write `--for te` (the newest TransformerEngine) or `--for te=2.10`")]
    Unknown(String),
    #[error("`{0}` is not a TransformerEngine version\n  help: write MAJOR.MINOR, e.g. `--for te=2.10`")]
    BadVersion(String),
    #[error(
        "TransformerEngine {0} is older than the support matrix, which starts at {OLDEST}\n  help: write `--for te={OLDEST}` or newer"
    )]
    TooOld(TeVersion),
}

impl Target {
    /// `te`, `te=2.10`, `te=v2.10.1`.
    pub fn parse(text: &str) -> Result<Target, TargetError> {
        let (name, version) = match text.split_once('=') {
            Some((name, version)) => (name, Some(version)),
            None => (text, None),
        };
        if !name.eq_ignore_ascii_case("te") && !name.eq_ignore_ascii_case("transformer_engine") {
            return Err(TargetError::Unknown(name.to_string()));
        }
        let version = match version {
            None => NEWEST,
            Some(v) => TeVersion::parse(v).ok_or_else(|| TargetError::BadVersion(v.to_string()))?,
        };
        if version < OLDEST {
            return Err(TargetError::TooOld(version));
        }
        Ok(Target { version })
    }

    /// Said once when the version is newer than the sources the matrix was read from.
    pub fn assumption(&self) -> Option<String> {
        (self.version > NEWEST).then(|| {
            format!(
                "TransformerEngine {} is newer than the support matrix ({SNAPSHOT}); its rules are assumed",
                self.version
            )
        })
    }
}

/// TE's `cp_comm_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comm {
    P2p,
    AllGather,
    A2a,
    A2aP2p,
}

impl Comm {
    pub fn of(strategy: &Strategy) -> Option<Comm> {
        match strategy {
            Strategy::P2p => Some(Comm::P2p),
            Strategy::AllGather => Some(Comm::AllGather),
            Strategy::A2a => Some(Comm::A2a),
            Strategy::A2aP2p { .. } => Some(Comm::A2aP2p),
            Strategy::Auto => None,
        }
    }
}

/// What part of a layout an entry concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// A sliding window under one of these comm types.
    Window(&'static [Comm]),
    /// A sliding window under one of these comm types in the `sbhd` format.
    WindowSbhd(&'static [Comm]),
    /// The THD format under one of these comm types.
    Thd(&'static [Comm]),
    /// The all-to-all degree (cp for a2a, the first level for a2a+p2p) does not divide the query
    /// heads or the KV heads of one TP rank.
    A2aHeads,
    /// Odd query or KV heads per TP rank under a2a or a2a+p2p in `sbhd`.
    A2aOddHeadsSbhd,
    /// fp32 inputs.
    Fp32,
    /// Learned sinks (TE's `softmax_type = "learnable"`) under one of these comm types.
    Sinks(&'static [Comm]),
}

/// One restriction of TE's context parallelism.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A stable name for tests and docs.
    pub id: &'static str,
    /// The first release the restriction holds in (`OLDEST` when it predates the matrix).
    pub since: TeVersion,
    /// The first release without it.
    pub until: Option<TeVersion>,
    pub condition: Condition,
    /// What it means, in attnc's words.
    pub summary: &'static str,
    /// TE's own message (an assert's text, or the debug log of the backend filter).
    pub te_says: &'static str,
    /// `release path:line` of each place it was read.
    pub sources: &'static [&'static str],
    /// A fix that TE accepts.
    pub help: &'static str,
}

impl Entry {
    pub fn holds_in(&self, version: TeVersion) -> bool {
        self.since <= version && self.until.is_none_or(|until| version < until)
    }

    /// `since 1.12`, `1.12 to 2.9`.
    pub fn versions(&self) -> String {
        match self.until {
            None => format!("TE {} and later", self.since),
            Some(until) => format!("TE {} up to (not including) {until}", self.since),
        }
    }
}

/// The matrix. Paths before 2.3 are `transformer_engine/pytorch/attention.py`; from 2.2 the
/// backend filters live in `.../dot_product_attention/utils.py`.
pub const MATRIX: &[Entry] = &[
    Entry {
        id: "window-p2p",
        since: OLDEST,
        until: None,
        condition: Condition::Window(&[Comm::P2p, Comm::A2aP2p]),
        summary: "sliding windows run only with cp_comm_type a2a or all_gather",
        te_says: "Context parallelism does not support sliding window attention with cp_comm_type='p2p'!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:4327",
            "v2.0 transformer_engine/pytorch/attention.py:4695",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5060",
        ],
        help: "run windowed layers with `strategy = all_gather` or `a2a`, e.g. `layer 0..N step 2 { strategy = all_gather, mask = causal { window = W } }`",
    },
    Entry {
        id: "window-all-gather-sbhd",
        since: OLDEST,
        until: Some(TeVersion::new(2, 0)),
        condition: Condition::WindowSbhd(&[Comm::AllGather]),
        summary: "before 2.0, all_gather takes a sliding window only through FlashAttention, which CP does not run in sbhd",
        te_says: "The context parallel running configs cannot support sliding window attetnion!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:4326 (all_gather only without FusedAttention)",
            "v1.12 transformer_engine/pytorch/attention.py:4303 (FlashAttention does not support sbhd format!)",
        ],
        help: "use `format = bshd`, or `strategy = a2a` for the windowed layers",
    },
    Entry {
        id: "thd-a2a",
        since: OLDEST,
        until: Some(TeVersion::new(2, 10)),
        condition: Condition::Thd(&[Comm::A2a]),
        summary: "before 2.10, a2a does not take THD",
        te_says: "thd format is not supported!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:3846 (AttnFuncWithCPAndQKVOA2A)",
            "v2.9 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3193",
        ],
        help: "use `strategy = p2p` for THD on this TransformerEngine, or TE 2.10 or later",
    },
    Entry {
        id: "thd-all-gather",
        since: OLDEST,
        until: Some(TeVersion::new(2, 18)),
        condition: Condition::Thd(&[Comm::AllGather]),
        summary: "before 2.18, all_gather does not take THD",
        te_says: "No support for cp_comm_type='all_gather' and qkv_format='thd'.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:3418 (AttnFuncWithCPAndKVAllGather)",
            "v2.17 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3064",
        ],
        help: "use `strategy = p2p` for THD on this TransformerEngine, or TE 2.18 or later",
    },
    Entry {
        id: "thd-a2a+p2p",
        since: OLDEST,
        until: Some(TeVersion::new(2, 19)),
        condition: Condition::Thd(&[Comm::A2aP2p]),
        summary: "before 2.19, a2a+p2p does not take THD (enabled by TE commit 8ff60f8de, #3290)",
        te_says: "thd format is not supported with hierarchical CP implementation yet!",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:1690 (AttnFuncWithCPAndKVP2P)",
            "v2.18 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5023",
        ],
        help: "use `strategy = p2p` for THD on this TransformerEngine, or TE 2.19 or later",
    },
    Entry {
        id: "a2a-heads",
        since: OLDEST,
        until: None,
        condition: Condition::A2aHeads,
        summary: "the all-to-all splits both query and KV heads: the degree divides each per TP rank (TE does not replicate KV heads)",
        te_says: "cp_comm_type='a2a' requires num_heads % cp_size == 0 for Q, K, V.",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:3844 (The number of attention heads needs to be divisible by CP size!)",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:4247",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:466 (a2a+p2p: the view [.., cp, h//cp, d] of flash_attn_a2a_communicate)",
        ],
        help: "use an all-to-all degree that divides kv_heads/tp (a2a+p2p with a smaller first level), or `strategy = p2p`",
    },
    Entry {
        id: "a2a-odd-heads-sbhd",
        since: TeVersion::new(2, 15),
        until: None,
        condition: Condition::A2aOddHeadsSbhd,
        summary: "from 2.15, a2a needs even query and KV heads per TP rank for FusedAttention, the only CP backend for sbhd",
        te_says: "Disabling FusedAttention as cp_comm_type = a2a requires num_heads and num_gqa_groups divisible by 2",
        sources: &[
            "v2.15 transformer_engine/pytorch/attention/dot_product_attention/utils.py:1050",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1274",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5045 (Context parallelism does not support FlashAttention backend with qkv_format = 'sbhd'!)",
        ],
        help: "use `format = bshd` (FlashAttention runs it), or `strategy = p2p`",
    },
    Entry {
        id: "fp32",
        since: OLDEST,
        until: None,
        condition: Condition::Fp32,
        summary: "context parallelism runs on FusedAttention or FlashAttention, which take only bf16 and fp16",
        te_says: "Disabling UnfusedDotProductAttention as it does not support context parallelism",
        sources: &[
            "v1.12 transformer_engine/pytorch/attention.py:436 (qkv_dtype not in [bfloat16, float16])",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:1171",
            "main transformer_engine/pytorch/attention/dot_product_attention/utils.py:602 and :637 (FlashAttention and FusedAttention: unsupported qkv_dtype)",
        ],
        help: "use `dtype = bf16` (attnc accumulates in fp32 either way)",
    },
    Entry {
        id: "sinks-before-2.8",
        since: OLDEST,
        until: Some(TeVersion::new(2, 8)),
        condition: Condition::Sinks(&[Comm::P2p, Comm::AllGather, Comm::A2a, Comm::A2aP2p]),
        summary: "learned sinks need `softmax_type`, which TE has from 2.8",
        te_says: "DotProductAttention.__init__() got an unexpected keyword argument 'softmax_type'",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/dot_product_attention.py:313 (softmax_type first taken; absent in v2.7)",
        ],
        help: "use TransformerEngine 2.8 or later (`--for te=2.8`)",
    },
    Entry {
        id: "sinks-non-a2a",
        since: TeVersion::new(2, 8),
        until: None,
        condition: Condition::Sinks(&[Comm::P2p, Comm::AllGather, Comm::A2aP2p]),
        summary: "learned sinks (a non-vanilla softmax) run under context parallelism only with cp_comm_type a2a",
        te_says: "Context parallelism only supports softmax_type='learnable' with cp_comm_type = 'a2a'!",
        sources: &[
            "v2.8 transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:3762",
            "main transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py:5066",
        ],
        help: "run the layers with sinks under `strategy = a2a`",
    },
];

/// One attention setting of a layout, as TE sees it.
#[derive(Clone, Copy, Debug)]
pub struct Setting<'a> {
    pub strategy: &'a Strategy,
    pub mask: Mask,
    pub format: Format,
    pub dtype: Dtype,
    pub cp: Cp,
    pub tp: u32,
    pub heads: u32,
    pub kv_heads: u32,
    /// The model has learned sinks.
    pub sinks: bool,
}

impl Setting<'_> {
    fn a2a_degree(&self) -> Option<u32> {
        match (self.strategy, self.cp) {
            (Strategy::A2a, Cp::Fixed { size }) => Some(size),
            (Strategy::A2a, Cp::Hybrid { dp_cp, .. }) => Some(dp_cp),
            (Strategy::A2aP2p { hierarchy }, _) => hierarchy.first().copied(),
            _ => None,
        }
    }

    fn matches(&self, condition: Condition) -> bool {
        let comm = Comm::of(self.strategy);
        let window = self.mask.window().is_some();
        let tp = self.tp.max(1);
        let (heads, kv) = (self.heads / tp, self.kv_heads / tp);
        match condition {
            Condition::Window(comms) => window && comm.is_some_and(|c| comms.contains(&c)),
            Condition::WindowSbhd(comms) => {
                window && self.format == Format::Sbhd && comm.is_some_and(|c| comms.contains(&c))
            }
            Condition::Thd(comms) => {
                matches!(self.format, Format::Thd { .. }) && comm.is_some_and(|c| comms.contains(&c))
            }
            Condition::A2aHeads => self.a2a_degree().is_some_and(|d| d > 1 && (heads % d != 0 || kv % d != 0)),
            Condition::A2aOddHeadsSbhd => {
                self.a2a_degree().is_some_and(|d| d > 1)
                    && self.format == Format::Sbhd
                    && (heads % 2 != 0 || kv % 2 != 0)
            }
            Condition::Fp32 => self.dtype == Dtype::Fp32,
            Condition::Sinks(comms) => self.sinks && comm.is_some_and(|c| comms.contains(&c)),
        }
    }

    /// Whether TE runs context parallelism for this setting at all (cp = 1 calls no CP code).
    fn uses_cp(&self) -> bool {
        match self.cp {
            Cp::Fixed { size } => size > 1,
            Cp::Hybrid { .. } => true,
        }
    }
}

/// The entries of the matrix that reject `setting` in `version`.
pub fn violations(setting: &Setting<'_>, version: TeVersion) -> Vec<&'static Entry> {
    if !setting.uses_cp() {
        return Vec::new();
    }
    MATRIX.iter().filter(|e| e.holds_in(version) && setting.matches(e.condition)).collect()
}

/// Whether `version` runs `setting`.
pub fn supports(setting: &Setting<'_>, version: TeVersion) -> bool {
    violations(setting, version).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_order() {
        assert_eq!(TeVersion::parse("2.10"), Some(TeVersion::new(2, 10)));
        assert_eq!(TeVersion::parse("v2.20.0.dev0"), Some(TeVersion::new(2, 20)));
        assert!(TeVersion::new(2, 9) < TeVersion::new(2, 10));
        assert_eq!(Target::parse("te").unwrap().version, NEWEST);
        assert_eq!(Target::parse("te=1.12").unwrap().version, OLDEST);
        assert_eq!(Target::parse("te=1.11"), Err(TargetError::TooOld(TeVersion::new(1, 11))));
        assert!(matches!(Target::parse("megatron"), Err(TargetError::Unknown(_))));
        assert!(matches!(Target::parse("te=two"), Err(TargetError::BadVersion(_))));
        assert!(Target::parse("te=2.21").unwrap().assumption().is_some());
    }

    #[test]
    fn every_entry_cites_its_source_and_a_fix() {
        for e in MATRIX {
            assert!(!e.sources.is_empty() && !e.te_says.is_empty() && !e.help.is_empty(), "{}", e.id);
            assert!(e.until.is_none_or(|u| e.since < u), "{}", e.id);
            assert!(e.sources.iter().all(|s| s.contains(".py:")), "{}", e.id);
        }
    }
}
