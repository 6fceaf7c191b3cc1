//! The launches of a plan's attention ops: the one source of which kernels a plan needs.
//!
//! An attention op's rows become runs (consecutive rows of consecutive tokens of one sequence,
//! padding excluded); every same-sequence pair of a query run and a KV run is a *sequence* of a
//! launch, with the kernel mask the pair needs (none when fully visible, causal or windowed at
//! the diagonal, no sequence when fully hidden). Chunked attention cuts runs at chunk edges as
//! sequences cut them, so a kernel sees causal attention inside one chunk and never needs to
//! know about chunks. Pairs of one mask share launches; since a
//! launch's sequences are consecutive row ranges (`cu_q`, `cu_kv`, one position within the sequence each),
//! pairs are laid out in chains in which both runs move forward, with filler sequences over the
//! rows in between (no keys, or no queries). Every device launches exactly these tables (the GPU
//! kernels over them, the host kernel sets over their sequences), and ahead-of-time compilation
//! builds exactly their specs (`kernel::specs_of`).

use super::{Band, KernelKind, KernelSpec, TILE_KV, TILE_Q};
use crate::ir::{OpId, OpKind, Plan, Problem, RowSet, TokenMap};
use crate::spec::Regions;

/// One row of a block: its row in the buffer and what the mask needs of its token.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub row: usize,
    pub token: u64,
    /// The token's position in its sequence.
    pub pos: u64,
    pub doc: usize,
    /// The attention chunk of its token inside the sequence (0 without chunked attention); under
    /// a regional mask, the stretch between two of its cuts.
    pub chunk: u64,
    /// Past the sequence's real length: padding, which sees and is seen by nothing.
    pub pad: bool,
}

/// The mask by absolute tokens.
pub struct Mask {
    /// The band of every pair (a named mask's: causal, a window, or every pair).
    pub band: Band,
    /// A regional mask: each pair's band is its cell's (`band` then unused).
    pub regions: Option<Regions>,
}

impl Mask {
    pub fn of(p: &Problem) -> Mask {
        Mask { band: Band::of(p.causal, p.window), regions: p.regions.clone() }
    }

    /// The band of a pair of positions (`None`: the pair's cell is empty).
    fn band(&self, q_pos: u64, k_pos: u64) -> Option<Band> {
        match &self.regions {
            None => Some(self.band),
            Some(r) => r.rule_at(q_pos, k_pos).band(),
        }
    }

    /// Whether query row `q` sees key row `k`: same sequence and chunk, neither padding, and the
    /// band (of the pair's cell, under a regional mask).
    pub fn allows(&self, q: &Row, k: &Row) -> bool {
        if q.pad || k.pad || q.doc != k.doc || (self.regions.is_none() && q.chunk != k.chunk) {
            return false;
        }
        self.band(q.pos, k.pos).is_some_and(|b| b.visible(q.token as i64, k.token as i64))
    }
}

/// The rows of a buffer, with their tokens' sequences.
pub fn rows_of(p: &Problem, rows: impl Iterator<Item = (usize, u64)>) -> Vec<Row> {
    let cuts = p.regions.as_ref().map(Regions::all_cuts);
    rows.map(|(row, token)| {
        let doc = p.doc_index(token);
        let d = p.docs[doc];
        let pos = token - d.start;
        let chunk = match &cuts {
            Some(cuts) => cuts.partition_point(|&c| c <= pos) as u64,
            None => p.chunk.map_or(0, |c| pos / c),
        };
        Row { row, token, pos, doc, chunk, pad: token >= d.start + d.len }
    })
    .collect()
}

/// A run of rows: `len` rows from `row`, tokens from `token`, in sequence `doc` and its chunk
/// `chunk`.
#[derive(Clone, Copy, Debug)]
pub struct RowRun {
    pub row: usize,
    pub token: u64,
    /// The first row's position in its sequence.
    pub pos: u64,
    pub len: usize,
    pub doc: usize,
    pub chunk: u64,
}

pub fn runs(rows: &[Row]) -> Vec<RowRun> {
    let mut out: Vec<RowRun> = Vec::new();
    for r in rows.iter().filter(|r| !r.pad) {
        match out.last_mut() {
            Some(run)
                if run.doc == r.doc
                    && run.chunk == r.chunk
                    && run.row + run.len == r.row
                    && run.token + run.len as u64 == r.token =>
            {
                run.len += 1
            }
            _ => out.push(RowRun { row: r.row, token: r.token, pos: r.pos, len: 1, doc: r.doc, chunk: r.chunk }),
        }
    }
    out
}

/// Every mask [`pair_mask`] can give under the problem's mask: fully visible pairs, and the
/// bands that cut some pair (the diagonal's under causal masks, a regional mask's cells').
pub fn masks(p: &Problem) -> Vec<Band> {
    if let Some(h) = &p.head_masks {
        let mut out = vec![Band::NONE];
        for c in h.classes.iter().filter(|c| !c.band.is_none()) {
            if !out.contains(&c.band) {
                out.push(c.band);
            }
        }
        return out;
    }
    if let Some(r) = &p.regions {
        let mut out = r.bands();
        out.push(Band::NONE);
        return out;
    }
    let band = Band::of(p.causal, p.window);
    if band.is_none() { vec![band] } else { vec![band, Band::NONE] }
}

/// The mask of a run pair: `None` when fully hidden, else the spec mask it needs.
pub fn pair_mask(mask: &Mask, q: &RowRun, k: &RowRun) -> Option<Band> {
    if q.doc != k.doc || (mask.regions.is_none() && q.chunk != k.chunk) {
        return None;
    }
    // Runs do not cross a regional mask's cuts: the first rows' cell is the pair's.
    let band = mask.band(q.pos, k.pos)?;
    let (q_lo, q_hi) = (q.token as i64, (q.token + q.len as u64 - 1) as i64);
    let (k_lo, k_hi) = (k.token as i64, (k.token + k.len as u64 - 1) as i64);
    band.on((q_lo, q_hi), (k_lo, k_hi))
}

/// One launch of an attention op: a table of sequences over the rows of the op's buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchTable {
    pub spec: KernelSpec,
    /// `sequences + 1` row starts (batch element `b`'s row `r` is row `b·rows + r`).
    pub cu_q: Vec<i32>,
    pub cu_kv: Vec<i32>,
    /// Each sequence's first row's position within its sequence, from 0 (fillers: 0).
    pub pos_q: Vec<i64>,
    pub pos_kv: Vec<i64>,
    /// The real query row ranges (not fillers), for merging a later launch into the partial.
    pub q_ranges: Vec<(usize, usize)>,
    /// The query heads of the op's buffer this launch computes, `first..end` (a class of a mask
    /// that reads the head, `spec::HeadMasks`: each class its own launches); `None`: every head.
    pub heads: Option<(u32, u32)>,
    /// The one document (packed sequence) whose sequences the launch holds, for a score that
    /// reads `doc(q)`/`doc(k)` (its per-head values carry it); `None`: any.
    pub doc: Option<u64>,
}

impl LaunchTable {
    pub fn sequences(&self) -> usize {
        self.pos_q.len()
    }

    /// The query heads it computes among a buffer's `heads`: `heads`, or its class's.
    pub fn head_range(&self, heads: u32) -> (usize, usize) {
        let (a, b) = self.heads.unwrap_or((0, heads));
        (a as usize, b as usize)
    }

    pub fn max_seqlen_q(&self) -> usize {
        self.cu_q.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    pub fn max_seqlen_kv(&self) -> usize {
        self.cu_kv.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }
}

/// A query or KV run at its packed row: `start` counts rows of every earlier batch element.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    len: usize,
    /// The first row's position within its sequence.
    pos: i64,
}

/// The launches of an attention block: its run pairs grouped by mask spec, each group laid out in
/// chains of forward-moving pairs. `spec_of` gives the spec of a mask class.
pub fn launch_tables(
    mask: &Mask,
    batch: usize,
    q_rows: &[Row],
    q_buffer_rows: usize,
    kv_rows: &[Row],
    kv_buffer_rows: usize,
    spec_of: impl Fn(Band) -> KernelSpec,
) -> Vec<LaunchTable> {
    let (q_runs, kv_runs) = (runs(q_rows), runs(kv_rows));
    let mut groups: Vec<(Band, Vec<(Span, Span)>)> = Vec::new();
    for b in 0..batch {
        for q in &q_runs {
            for kv in &kv_runs {
                let Some(m) = pair_mask(mask, q, kv) else { continue };
                let qs = Span { start: b * q_buffer_rows + q.row, len: q.len, pos: q.pos as i64 };
                let ks = Span { start: b * kv_buffer_rows + kv.row, len: kv.len, pos: kv.pos as i64 };
                match groups.iter_mut().find(|g| g.0 == m) {
                    Some(g) => g.1.push((qs, ks)),
                    None => groups.push((m, vec![(qs, ks)])),
                }
            }
        }
    }
    let mut tables = Vec::new();
    for (m, mut pairs) in groups {
        pairs.sort_by_key(|(q, k)| (q.start, k.start));
        while !pairs.is_empty() {
            // Greedy chain: the next pair starts at or after the end of the last one on both sides.
            let mut chain = Vec::new();
            let mut rest = Vec::new();
            let (mut q_end, mut kv_end) = (0usize, 0usize);
            for (q, k) in pairs {
                if chain.is_empty() || (q.start >= q_end && k.start >= kv_end) {
                    (q_end, kv_end) = (q.start + q.len, k.start + k.len);
                    chain.push((q, k));
                } else {
                    rest.push((q, k));
                }
            }
            pairs = rest;
            let (q0, k0) = (chain[0].0.start as i32, chain[0].1.start as i32);
            let mut t = LaunchTable {
                spec: spec_of(m),
                cu_q: vec![q0],
                cu_kv: vec![k0],
                pos_q: Vec::new(),
                pos_kv: Vec::new(),
                q_ranges: Vec::new(),
                heads: None,
                doc: None,
            };
            for (q, k) in chain {
                let (qc, kc) = (*t.cu_q.last().unwrap() as usize, *t.cu_kv.last().unwrap() as usize);
                // Fillers: query rows without keys, then key rows without queries.
                if q.start > qc {
                    t.cu_q.push(q.start as i32);
                    t.cu_kv.push(kc as i32);
                    t.pos_q.push(0);
                    t.pos_kv.push(0);
                }
                if k.start > kc {
                    t.cu_q.push(q.start as i32);
                    t.cu_kv.push(k.start as i32);
                    t.pos_q.push(0);
                    t.pos_kv.push(0);
                }
                t.cu_q.push((q.start + q.len) as i32);
                t.cu_kv.push((k.start + k.len) as i32);
                t.pos_q.push(q.pos);
                t.pos_kv.push(k.pos);
                t.q_ranges.push((q.start, q.start + q.len));
            }
            tables.push(t);
        }
    }
    tables
}

/// The rows of a buffer's `rows` with their tokens, in row order.
fn row_tokens(map: &TokenMap, rows: &RowSet) -> Vec<(usize, u64)> {
    let all: Vec<u64> = map.runs.iter().flat_map(|r| r.start..r.end).collect();
    rows.0.iter().flat_map(|i| (i.start as usize..i.end as usize).map(|r| (r, all[r]))).collect()
}

/// The launch tables of an attention op (`None` for other ops).
pub fn op_tables(plan: &Plan, id: OpId) -> Option<Vec<LaunchTable>> {
    let p = &plan.problem;
    let (kind, q, q_rows, kv, kv_rows) = match &plan.op(id).kind {
        OpKind::AttnFwd { q, q_rows, kv, kv_rows, .. } => (KernelKind::Forward, *q, q_rows, *kv, kv_rows),
        OpKind::AttnBwd { q, q_rows, kv, kv_rows, .. } => (KernelKind::Backward, *q, q_rows, *kv, kv_rows),
        _ => return None,
    };
    let (qb, kb) = (plan.buf(q), plan.buf(kv));
    let qr = rows_of(p, row_tokens(&qb.tokens, q_rows).into_iter());
    let kr = rows_of(p, row_tokens(&kb.tokens, kv_rows).into_iter());
    let spec = |m| KernelSpec {
        kind,
        head_dim: p.head_dim,
        v_head_dim: p.v_head_dim,
        dtype: p.dtype,
        group: qb.heads / kb.heads,
        mask: m,
        score: p.score,
        tile_q: TILE_Q,
        tile_kv: TILE_KV,
    };
    let batch = p.batch as usize;
    // A score that reads the document: each document's rows launch on their own, so that the
    // launch's per-head values carry its index.
    let by_doc = |mask: &Mask| -> Vec<LaunchTable> {
        if !p.score.is_some_and(|s| s.reads_doc()) {
            return launch_tables(mask, batch, &qr, qb.rows as usize, &kr, kb.rows as usize, spec);
        }
        let mut docs: Vec<usize> = qr.iter().map(|r| r.doc).collect();
        docs.sort_unstable();
        docs.dedup();
        let mut tables = Vec::new();
        for d in docs {
            let (q, k): (Vec<Row>, Vec<Row>) = (
                qr.iter().filter(|r| r.doc == d).cloned().collect(),
                kr.iter().filter(|r| r.doc == d).cloned().collect(),
            );
            for mut t in launch_tables(mask, batch, &q, qb.rows as usize, &k, kb.rows as usize, spec) {
                t.doc = Some(d as u64);
                tables.push(t);
            }
        }
        tables
    };
    let Some(classes) = &p.head_masks else {
        return Some(by_doc(&Mask::of(p)));
    };
    // A mask that reads the head: each class of the buffer's heads launches with its own mask
    // (classes are whole GQA groups, so a class's KV heads are its own).
    let mut tables = Vec::new();
    for c in &classes.classes {
        let (first, end) = (c.first.max(qb.head0), c.end.min(qb.head0 + qb.heads));
        if first >= end {
            continue;
        }
        let mask = Mask { band: c.band, regions: None };
        for mut t in by_doc(&mask) {
            t.heads = Some((first - qb.head0, end - qb.head0));
            tables.push(t);
        }
    }
    Some(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{KernelKind, TILE_KV, TILE_Q};
    use crate::spec::Dtype;

    fn row(row: usize, token: u64, doc: usize) -> Row {
        Row { row, token, pos: token, doc, chunk: 0, pad: false }
    }

    /// Zigzag at cp 2: a rank holds chunks 0 and 3 of a 16-token sequence, for queries and KV.
    /// Of the four pairs, 0 × 3 is hidden, 0 × 0 and 3 × 3 straddle the diagonal (causal), 3 × 0 is
    /// fully visible (no mask): two launches.
    #[test]
    fn pairs_become_forward_moving_chains_with_fillers() {
        let q: Vec<Row> = (0..4).map(|i| row(i, i as u64, 0)).chain((4..8).map(|i| row(i, 8 + i as u64, 0))).collect();
        let mask = Mask { band: Band::CAUSAL, regions: None };
        let spec = |m| KernelSpec {
            kind: KernelKind::Forward,
            head_dim: 64,
            v_head_dim: None,
            dtype: Dtype::Bf16,
            group: 1,
            mask: m,
            score: None,
            tile_q: TILE_Q,
            tile_kv: TILE_KV,
        };
        let tables = launch_tables(&mask, 2, &q, 8, &q, 8, spec);
        // The diagonal pairs of both batch elements form one chain...
        let causal: Vec<&LaunchTable> = tables.iter().filter(|t| t.spec.mask == Band::CAUSAL).collect();
        let full: Vec<&LaunchTable> = tables.iter().filter(|t| t.spec.mask.is_none()).collect();
        assert_eq!(causal.len(), 1, "{tables:#?}");
        assert_eq!(causal[0].cu_q, [0, 4, 8, 12, 16]);
        assert_eq!(causal[0].cu_kv, [0, 4, 8, 12, 16]);
        assert_eq!(causal[0].pos_q, [0, 12, 0, 12]);
        // ...and chunk 3 × chunk 0 fully visible, per batch element, with fillers between them:
        // query rows 8..12 without keys, then key rows 4..8 without queries.
        assert_eq!(full.len(), 1, "{tables:#?}");
        assert_eq!(full[0].cu_q, [4, 8, 12, 12, 16]);
        assert_eq!(full[0].cu_kv, [0, 4, 4, 8, 12]);
        assert_eq!(full[0].pos_q, [12, 0, 0, 12]);
        assert_eq!(full[0].q_ranges, [(4, 8), (12, 16)]);
    }
}
