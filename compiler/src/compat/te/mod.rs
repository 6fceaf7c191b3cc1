//! TransformerEngine's context-parallel attention as data: which attention backend TE would pick
//! for a layer on a given GPU, and which of TE's context-parallel asserts would then fire, per TE
//! version.
//!
//! TE decides in two stages, and so does this module. First `get_attention_backend` (in
//! `dot_product_attention/utils.py`, `attention.py` before 2.2) filters three backends —
//! FlashAttention 2, FlashAttention 3, FusedAttention (cuDNN; the C++
//! `nvte_get_fused_attn_backend` adds its own conditions) — by GPU architecture, dtype, head dims,
//! format, mask and window, softmax type and the CP settings, and prefers FusedAttention on Hopper
//! and later (`backends.rs`). Then `attn_forward_func_with_cp` (`context_parallel.py`) asserts on
//! the communication type, the format and the selected backend (`asserts.rs`). A layer runs when a
//! backend is left and no assert fires; [`evaluate`] returns every backend's reasons and every
//! assert, each citing the TE lines it was read from at the releases where it changed
//! (tags v1.12 to v2.18 and `main` at d0067d0da). It models what attnc's language can say; FP8,
//! attention bias, dropout, KV caching and determinism are outside it (attnc's arguments set
//! `--attention-dropout 0.0`, which the FusedAttention window rule needs).

mod asserts;
mod backends;
mod target;

pub use asserts::{ASSERTS, Assert, Check};
pub use backends::{Backend, FILTERS, Filter, When};
pub use target::{Cudnn, NEWEST, OLDEST, SNAPSHOT, Target, TargetError, TeVersion};

use crate::spec::{Cp, Dtype, Format, Layout, Mask, Strategy};

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

    pub fn name(self) -> &'static str {
        match self {
            Comm::P2p => "p2p",
            Comm::AllGather => "all_gather",
            Comm::A2a => "a2a",
            Comm::A2aP2p => "a2a+p2p",
        }
    }
}

/// One layer setting as TE sees it: everything its backend filters and CP asserts read.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// The strategy (concrete: `auto` is resolved first).
    pub strategy: Strategy,
    pub cp: Cp,
    pub mask: Mask,
    pub format: Format,
    pub dtype: Dtype,
    /// The GPU's CUDA compute capability × 10 (90 for H100); `None` for a GPU TE's CUDA backends
    /// do not run on.
    pub sm: Option<u32>,
    /// The GPU preset's name, for messages.
    pub gpu: String,
    pub head_dim: u32,
    pub v_head_dim: u32,
    /// Query and KV heads per TP rank (what TE's `num_heads` and `num_gqa_groups` are).
    pub heads: u32,
    pub kv_heads: u32,
    pub sinks: bool,
    /// `softcap = X` or `score = EXPR`.
    pub score: Option<&'static crate::spec::Score>,
    /// Tokens of one sequence (bshd, sbhd) or of the packed buffer (thd).
    pub seq: u64,
    /// The sequence is split zigzag (`balance = zigzag`, or `auto`, which TE's targets resolve to
    /// zigzag); `false` for a contiguous split.
    pub zigzag: bool,
}

impl Setting {
    /// The setting of one layer class of a resolved layout.
    pub fn of_layout(layout: &Layout, strategy: &Strategy, mask: Mask) -> Setting {
        let m = &layout.model;
        let tp = layout.tp.max(1);
        Setting {
            strategy: strategy.clone(),
            cp: layout.cp,
            mask,
            format: layout.format,
            dtype: layout.dtype,
            sm: layout.cluster.gpu.sm,
            gpu: layout.cluster.gpu.name.clone(),
            head_dim: m.head_dim,
            v_head_dim: m.v_dim(),
            heads: m.heads / tp,
            kv_heads: m.kv_heads / tp,
            sinks: m.sinks,
            score: m.score,
            seq: layout.seq,
            zigzag: layout.balance != crate::spec::Balance::Contiguous,
        }
    }

    pub fn comm(&self) -> Option<Comm> {
        Comm::of(&self.strategy)
    }

    /// The all-to-all degree: cp for a2a, the first level of a2a+p2p.
    pub fn a2a_degree(&self) -> Option<u32> {
        match (&self.strategy, self.cp) {
            (Strategy::A2a, Cp::Fixed { size }) => Some(size),
            (Strategy::A2a, Cp::Hybrid { dp_cp, .. }) => Some(dp_cp),
            (Strategy::A2aP2p { hierarchy }, _) => hierarchy.first().copied(),
            _ => None,
        }
    }

    /// Whether TE runs its context-parallel code at all (cp = 1 calls none of it).
    pub fn context_parallel(&self) -> bool {
        match self.cp {
            Cp::Fixed { size } => size > 1,
            Cp::Hybrid { .. } => true,
        }
    }

    pub fn cp_size(&self) -> u32 {
        match self.cp {
            Cp::Fixed { size } => size,
            Cp::Hybrid { dp_cp, .. } => dp_cp,
        }
    }

    pub fn thd(&self) -> bool {
        matches!(self.format, Format::Thd { .. })
    }

    pub fn window(&self) -> bool {
        self.mask.window().is_some()
    }

    pub fn mla(&self) -> bool {
        self.head_dim != self.v_head_dim
    }

    /// TE's `pad_between_seqs`: a packed batch under context parallelism carries
    /// `cu_seqlens_*_padded` (TE asserts it, `context_parallel.py:5050` at main), and TE reads any
    /// padded offsets as padding between sequences (`dot_product_attention.py:2014` at main;
    /// `attention.py:8035` at v1.12 compares them with the unpadded ones, which differ as soon as
    /// one sequence is not a multiple of 2·cp).
    pub fn pad_between_seqs(&self) -> bool {
        self.thd() && self.context_parallel()
    }
}

/// Why a backend is not available for a setting.
#[derive(Clone, Debug, PartialEq)]
pub enum Unavailable {
    /// A filter of `get_attention_backend` or the cuDNN backend selection disabled it.
    Filtered(&'static Filter),
    /// flash-attn 3 is not installed (the target says so).
    NotInstalled,
}

/// A cuDNN version a verdict relied on: the target named no cuDNN, so the newest was assumed, and
/// this rule passed only because of that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CudnnAssumption {
    pub at_least: Cudnn,
    pub what: &'static str,
}

/// What TE would do with one layer setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Each backend: available, or why not.
    pub backends: Vec<(Backend, Result<(), Vec<Unavailable>>)>,
    /// The backend TE selects (`None`: no backend runs the layer).
    pub selected: Option<Backend>,
    /// The CP asserts (and missing features) that fire with the selected backend.
    pub asserts: Vec<&'static Assert>,
    /// cuDNN versions the verdict assumed.
    pub assumed: Vec<CudnnAssumption>,
}

impl Verdict {
    /// Whether TE runs the setting.
    pub fn runs(&self) -> bool {
        self.selected.is_some() && self.asserts.is_empty()
    }

    /// Whether nothing that depends on the strategy refuses the setting: every assert is one no
    /// strategy changes, and every backend that is unavailable is so for a reason no strategy
    /// changes either.
    pub fn strategy_clean(&self) -> bool {
        let backend_fixed = |why: &Vec<Unavailable>| {
            why.iter().any(|u| match u {
                Unavailable::Filtered(f) => !f.when.strategy_dependent(),
                Unavailable::NotInstalled => true,
            })
        };
        self.asserts.iter().all(|a| a.check.strategy_independent())
            && (self.selected.is_some()
                || self.backends.iter().all(|(_, r)| r.as_ref().err().is_none_or(backend_fixed)))
    }

    /// One line per reason TE refuses the setting (empty when it runs).
    pub fn reasons(&self) -> Vec<String> {
        let mut out: Vec<String> = self.asserts.iter().map(|a| a.summary.to_string()).collect();
        if self.selected.is_none() {
            out.push(self.no_backend_summary());
        }
        out
    }

    /// "no backend: FlashAttention 2 (…), FusedAttention (…)".
    pub fn no_backend_summary(&self) -> String {
        let parts: Vec<String> = self
            .backends
            .iter()
            .filter_map(|(b, r)| r.as_ref().err().map(|why| (b, why)))
            .map(|(b, why)| {
                let first = why.first().map(|u| match u {
                    Unavailable::Filtered(f) => f.summary.to_string(),
                    Unavailable::NotInstalled => "not installed".to_string(),
                });
                format!("{} ({})", b.name(), first.unwrap_or_default())
            })
            .collect();
        format!("no attention backend runs it: {}", parts.join("; "))
    }
}

/// What TE `target` does with `setting`.
pub fn evaluate(setting: &Setting, target: &Target) -> Verdict {
    let mut assumed = Vec::new();
    if !setting.context_parallel() {
        // Without context parallelism TE runs none of its CP code, and UnfusedDotProductAttention
        // takes whatever the fused backends do not: only the features TE lacks altogether remain.
        let asserts = ASSERTS
            .iter()
            .filter(|a| a.without_cp && a.holds_in(target.version))
            .filter(|a| a.check.fires(setting, Some(Backend::Unfused), target, &mut assumed))
            .collect();
        return Verdict { backends: Vec::new(), selected: Some(Backend::Unfused), asserts, assumed };
    }
    let mut backends = Vec::new();
    let mut backend_assumed = Vec::new();
    for backend in Backend::UNDER_CP {
        let mut why: Vec<Unavailable> = Vec::new();
        let mut mine = Vec::new();
        for filter in FILTERS.iter().filter(|f| f.disables(backend) && f.holds_in(target.version)) {
            if filter.when.fires(setting, target, &mut mine) {
                why.push(Unavailable::Filtered(filter));
            }
        }
        if backend == Backend::FlashAttention3 && !target.flash_attn_3 {
            why.push(Unavailable::NotInstalled);
        }
        backends.push((backend, if why.is_empty() { Ok(()) } else { Err(why) }));
        backend_assumed.push((backend, mine));
    }
    let available = |b: Backend| backends.iter().any(|(x, r)| *x == b && r.is_ok());
    let flash = available(Backend::FlashAttention3) || available(Backend::FlashAttention2);
    let fused = available(Backend::FusedAttention);
    let selected = if fused && (!flash || backends::prefers_fused(setting, target.version)) {
        Some(Backend::FusedAttention)
    } else if available(Backend::FlashAttention3) {
        Some(Backend::FlashAttention3)
    } else if flash {
        Some(Backend::FlashAttention2)
    } else {
        None
    };
    // Only the selected backend's cuDNN assumptions shaped the verdict.
    assumed.extend(backend_assumed.into_iter().filter(|(b, _)| Some(*b) == selected).flat_map(|(_, a)| a));
    let asserts = ASSERTS
        .iter()
        .filter(|a| a.holds_in(target.version) && a.check.fires(setting, selected, target, &mut assumed))
        .collect();
    assumed.sort_by_key(|a| a.at_least);
    assumed.dedup();
    Verdict { backends, selected, asserts, assumed }
}

/// The strategies for `cp` whose all-to-all degree (if any) divides `heads` query heads per TP
/// rank: p2p, all_gather, a2a and a2a+p2p `[a, cp/a]`, in that order.
pub fn strategies(cp: Cp, heads: u32) -> Vec<Strategy> {
    let n = match cp {
        Cp::Fixed { size } => size,
        Cp::Hybrid { .. } => return vec![Strategy::P2p, Strategy::A2a],
    };
    let mut out = vec![Strategy::P2p, Strategy::AllGather];
    if n > 1 && heads % n == 0 {
        out.push(Strategy::A2a);
    }
    for a in 2..n {
        if n % a == 0 && heads % a == 0 {
            out.push(Strategy::A2aP2p { hierarchy: vec![a, n / a] });
        }
    }
    out
}

/// The strategies (of [`strategies`]) under which `target` runs `setting` otherwise unchanged.
pub fn runnable(setting: &Setting, target: &Target) -> Vec<Strategy> {
    strategies(setting.cp, setting.heads)
        .into_iter()
        .filter(|s| evaluate(&Setting { strategy: s.clone(), ..setting.clone() }, target).runs())
        .collect()
}

/// The strategies under which nothing that depends on the strategy refuses `setting`
/// ([`Verdict::strategy_clean`]), with whether `target` then runs it outright.
pub fn strategy_clean(setting: &Setting, target: &Target) -> Vec<(Strategy, bool)> {
    strategies(setting.cp, setting.heads)
        .into_iter()
        .filter_map(|s| {
            let verdict = evaluate(&Setting { strategy: s.clone(), ..setting.clone() }, target);
            verdict.strategy_clean().then(|| (s, verdict.runs()))
        })
        .collect()
}

/// The reasons, one line each, that TE `target` refuses a layer class of `layout` under
/// `strategy` (empty when it runs it).
pub fn refusals(layout: &Layout, strategy: &Strategy, mask: Mask, target: &Target) -> Vec<String> {
    evaluate(&Setting::of_layout(layout, strategy, mask), target).reasons()
}

/// Every citation of the tables, for the tests that check their form.
pub fn all_sources() -> impl Iterator<Item = (&'static str, &'static str)> {
    FILTERS
        .iter()
        .flat_map(|f| f.sources.iter().map(move |s| (f.id, *s)))
        .chain(ASSERTS.iter().flat_map(|a| a.sources.iter().map(move |s| (a.id, *s))))
}
