//! What a layout means to a plan: the attention problem, the token partition and the CP group.
//!
//! Not a pass: this turns a resolved layout into the starting point every lowering shares. The
//! partition comes from `plan/partition.rs`, so tokens and RoPE positions follow one split.

use super::{PlanError, PlanOptions};
use crate::ir::{Doc, Group, Interval, Problem, Run, TokenMap};
use crate::plan::groups::{self, GroupSizes};
use crate::plan::partition::{self, Partition, ThdBatch, ThdLimits};
use crate::spec::{Balance, Cp, Exchange, Format, Layout, Mask};

/// A layout's problem and partition, before any strategy is chosen.
pub struct Setup {
    pub problem: Problem,
    /// Per rank, its tokens in local order.
    pub maps: Vec<TokenMap>,
    /// Per rank, its load runs with RoPE positions.
    pub runs: Vec<Vec<Run>>,
    pub cp_group: Group,
    pub cp: u32,
    /// Zigzag split (always for THD): query rows form two roles, the halves of each sequence.
    pub zigzag: bool,
    /// Under a window, chunks or regions: the halo exchange or the strategy's own communication.
    pub exchange: Exchange,
    /// The blocks the class's plans ask for, computed once for both directions.
    pub blocks: super::blocks::BlockCache,
}

/// The model's score with a mask that is no band region by region tested in it
/// (`expr::score::of_masked`), once the mask's integer terms are known to stay exact in f32 over
/// the positions of `docs`' sequences.
fn masked_score(
    layout: &Layout,
    r: &crate::spec::Regions,
    docs: &[Doc],
) -> Result<&'static crate::spec::Score, PlanError> {
    use crate::expr;
    let positions = docs.iter().map(|d| d.end - d.start).max().unwrap_or(0);
    let failed = |reason: String| PlanError::MaskPredicate {
        layout: layout.name.clone(),
        mask: r.text.clone(),
        positions,
        reason,
    };
    let e = expr::parse::parse(&r.text).map_err(|err| failed(err.message))?;
    let last = positions.saturating_sub(1) as i64;
    let heads = (0, layout.model.heads.max(1) as i64 - 1);
    let tile = expr::interval::Tile { q: (0, last), k: (0, last), h: heads, doc_q: (0, 0), doc_k: (0, 0) };
    match expr::interval::magnitude(&e, &tile) {
        Some(m) if m <= 1 << 24 => {}
        Some(m) => return Err(failed(format!("a term reaches {m}"))),
        None => return Err(failed("a term has no bound".into())),
    }
    expr::score::of_masked(layout.model.score, &e).map(expr::score::intern).map_err(|u| failed(u.message))
}

/// A fixed-CP layout's token split: a THD batch of `options.seqlens` (and padded lengths), each
/// sequence split zigzag by itself, or the whole sequence split zigzag or contiguously.
pub fn partition_of(layout: &Layout, options: &PlanOptions) -> Result<Partition, PlanError> {
    let name = &layout.name;
    let Cp::Fixed { size: cp } = layout.cp else {
        return Err(PlanError::Hybrid { layout: name.clone() });
    };
    let sp_tp = if layout.sequence_parallel { layout.tp as u64 } else { 1 };
    match (layout.format, &options.seqlens) {
        (Format::Thd { max_tokens, max_seqlen }, Some(lens)) => {
            let batch = ThdBatch { seqlens: lens.clone(), padded: options.padded_seqlens.clone() };
            let limits =
                ThdLimits { unit: 2 * cp as u64 * sp_tp, max_seqlen: Some(max_seqlen), max_tokens: Some(max_tokens) };
            partition::thd(&batch, cp, &limits)
        }
        (Format::Thd { .. }, None) => return Err(PlanError::NeedSeqlens { layout: name.clone() }),
        (_, Some(_)) => return Err(PlanError::SeqlensNotThd { layout: name.clone() }),
        (_, None) => match layout.balance.concrete() {
            Balance::Zigzag | Balance::Auto => partition::zigzag(layout.seq, cp),
            Balance::Contiguous => partition::contiguous(layout.seq, cp),
        },
    }
    .map_err(|error| PlanError::Partition { layout: name.clone(), error })
}

/// The problem of one layer class over the layout's token split (`partition`, from
/// [`partition_of`], computed once per layout and batch); `rope`: how its layers rotate q and k.
pub fn setup(
    layout: &Layout,
    mask: Mask,
    rope: Option<&crate::spec::Rope>,
    exchange: Exchange,
    options: &PlanOptions,
    partition: &Partition,
) -> Result<Setup, PlanError> {
    let name = &layout.name;
    let Cp::Fixed { size: cp } = layout.cp else {
        return Err(PlanError::Hybrid { layout: name.clone() });
    };
    let tp = layout.tp;
    // THD: one document per sequence, over its padded range of the packed buffer.
    let docs = match (&options.seqlens, &partition.cu_seqlens_padded) {
        (Some(lens), Some(cu)) => {
            lens.iter().enumerate().map(|(i, &len)| Doc { start: cu[i], end: cu[i + 1], len }).collect()
        }
        _ => vec![Doc { start: 0, end: layout.seq, len: layout.seq }],
    };
    let (causal, window, chunk) = (mask.is_causal(), mask.window(), mask.chunk());
    let score = match mask.regions().filter(|r| r.predicate) {
        None => layout.model.score,
        Some(r) => Some(masked_score(layout, r, &docs)?),
    };
    let thd = matches!(layout.format, Format::Thd { .. });
    let problem = Problem {
        tokens: docs.last().map_or(0, |d: &Doc| d.end),
        docs,
        causal,
        window,
        chunk,
        // A per-head mask whose hull no name covers is planned as that hull, one regional cell.
        regions: mask.regions().cloned().or_else(|| mask.heads().and_then(|h| h.hull_regions())),
        head_masks: mask.heads().cloned(),
        heads: layout.model.heads / tp,
        kv_heads: layout.model.kv_heads / tp,
        head_dim: layout.model.head_dim,
        v_head_dim: layout.model.v_head_dim,
        batch: layout.batch,
        dtype: layout.dtype,
        thd,
        rope: rope.cloned(),
        softmax_scale: layout.model.softmax_scale,
        sinks: layout.model.sinks,
        score,
    };
    let maps = partition.ranks.iter().map(|r| TokenMap::new(runs_of(&r.tokens).collect())).collect();
    let runs = partition.ranks.iter().map(|r| load_runs(&r.tokens, &r.positions)).collect();
    let sizes = GroupSizes {
        world: tp * cp * layout.dp * layout.pp,
        tp,
        cp,
        pp: layout.pp,
        ep: layout.ep,
        order: "tp-cp-ep-dp-pp".to_string(),
        hierarchy: None,
        hybrid: false,
    };
    let global = groups::build(&sizes)
        .ok()
        .and_then(|g| g.groups.get("cp").and_then(|cps| cps.first().cloned()))
        .unwrap_or_else(|| (0..cp).collect());
    let cp_group = Group { name: "cp".to_string(), members: (0..cp).collect(), global };
    let zigzag = thd || layout.balance.concrete() == Balance::Zigzag;
    Ok(Setup { problem, maps, runs, cp_group, cp, zigzag, exchange, blocks: Default::default() })
}

/// Maximal runs of consecutive token indices.
fn runs_of(tokens: &[u64]) -> impl Iterator<Item = Interval> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        if i >= tokens.len() {
            return None;
        }
        let start = i;
        while i + 1 < tokens.len() && tokens[i + 1] == tokens[i] + 1 {
            i += 1;
        }
        i += 1;
        Some(Interval::new(tokens[start], tokens[i - 1] + 1))
    })
}

/// Maximal runs where both the token and its position advance by one.
fn load_runs(tokens: &[u64], positions: &[u64]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (&token, &position) in tokens.iter().zip(positions) {
        match out.last_mut() {
            Some(run) if run.token + run.len == token && run.position + run.len == position => run.len += 1,
            _ => out.push(Run { token, position, len: 1 }),
        }
    }
    out
}
