//! Choosing attention blocks: which query rows meet which KV rows, and under which mask class.
//!
//! Shared by every lowering. Query rows are grouped into roles (both zigzag halves, or one
//! role for all rows); KV rows into pieces (halves, 2·cp chunks, or one). Each query role meets
//! the union of the KV pieces it has any allowed pair with; roles that meet the same rows become
//! one block. This is TransformerEngine's half-work rule derived rather than hard-coded: with
//! zigzag and a causal mask, a ring step from a lower rank gives "all Q × first KV half" and one
//! from a higher rank "second Q half × all KV". A block with no allowed pair is never emitted.

use crate::ir::mask::{any_allowed, classify};
use crate::ir::{Interval, MaskClass, Problem, RowSet, TokenMap};

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub q_rows: RowSet,
    pub kv_rows: RowSet,
    pub class: MaskClass,
}

/// How rows are split: `parts` equal parts of every sequence (1 = no split).
#[derive(Clone, Copy, Debug)]
pub struct Split {
    pub parts: u64,
}

impl Split {
    pub const ONE: Split = Split { parts: 1 };
    pub const HALVES: Split = Split { parts: 2 };
}

/// The rows of `map` whose tokens fall in part k of their sequence, for each k, with those
/// tokens (the same intervals in token order, as [`TokenMap::tokens_of`] gives them).
pub fn split_rows(problem: &Problem, map: &TokenMap, split: Split) -> Vec<(RowSet, RowSet)> {
    let n = split.parts;
    let mut parts: Vec<(Vec<Interval>, Vec<Interval>)> = vec![(Vec::new(), Vec::new()); n as usize];
    let mut row0 = 0u64;
    for run in &map.runs {
        let mut t = run.start;
        while t < run.end {
            let doc = problem.doc_of(t);
            let size = doc.end - doc.start;
            let k = ((t - doc.start) * n / size).min(n - 1);
            // The first token of part k + 1 is the smallest t with (t - start)·n / size ≥ k + 1.
            let next = (doc.start + ((k + 1) * size).div_ceil(n)).min(doc.end);
            let end = run.end.min(next);
            let rows = Interval::new(row0 + (t - run.start), row0 + (end - run.start));
            parts[k as usize].0.push(rows);
            parts[k as usize].1.push(Interval::new(t, end));
            t = end;
        }
        row0 += run.len();
    }
    parts.into_iter().map(|(rows, tokens)| (RowSet::from_intervals(rows), RowSet::from_intervals(tokens))).collect()
}

/// The blocks of [`blocks`], computed once per (queries, split, keys, split) of a layer class:
/// its forward and backward plans ask for the same ones (a THD batch of 45 sequences at cp 8
/// asks 128 times for 64 distinct pairs). One cache per `Setup`, so per class and problem; the
/// two directions are lowered on two threads, and the one that asks second waits for the first's
/// answer instead of computing it again.
#[derive(Default)]
pub struct BlockCache {
    cache: std::sync::Mutex<rustc_hash::FxHashMap<BlockKey, std::sync::Arc<std::sync::OnceLock<Vec<Block>>>>>,
}

/// Queries and their split, keys and their split.
type BlockKey = (TokenMap, u64, TokenMap, u64);

impl BlockCache {
    pub fn blocks(
        &self,
        problem: &Problem,
        q_map: &TokenMap,
        q_split: Split,
        kv_map: &TokenMap,
        kv_split: Split,
    ) -> Vec<Block> {
        let key = (q_map.clone(), q_split.parts, kv_map.clone(), kv_split.parts);
        let slot = self.cache.lock().unwrap_or_else(|e| e.into_inner()).entry(key).or_default().clone();
        slot.get_or_init(|| blocks(problem, q_map, q_split, kv_map, kv_split)).clone()
    }
}

/// The blocks of queries `q_map` against keys `kv_map`.
pub fn blocks(problem: &Problem, q_map: &TokenMap, q_split: Split, kv_map: &TokenMap, kv_split: Split) -> Vec<Block> {
    let kv_pieces: Vec<(RowSet, RowSet)> =
        split_rows(problem, kv_map, kv_split).into_iter().filter(|(rows, _)| !rows.is_empty()).collect();
    // Query roles that meet the same KV pieces (by index: the pieces are disjoint) are one block.
    let mut out: Vec<(RowSet, Vec<Interval>, Vec<usize>)> = Vec::new();
    for (q_rows, q_tokens) in split_rows(problem, q_map, q_split).into_iter().filter(|(r, _)| !r.is_empty()) {
        let met: Vec<usize> =
            (0..kv_pieces.len()).filter(|&i| any_allowed(problem, &q_tokens.0, &kv_pieces[i].1)).collect();
        if met.is_empty() {
            continue;
        }
        match out.iter_mut().find(|(_, _, m)| *m == met) {
            Some((rows, tokens, _)) => {
                *rows = rows.union(&q_rows);
                tokens.extend_from_slice(&q_tokens.0);
            }
            None => out.push((q_rows, q_tokens.0, met)),
        }
    }
    out.into_iter()
        .filter_map(|(q_rows, q_tokens, met)| {
            let kv_rows = RowSet::from_intervals(met.iter().flat_map(|&i| kv_pieces[i].0.0.iter().copied()).collect());
            let kv_tokens =
                RowSet::from_intervals(met.iter().flat_map(|&i| kv_pieces[i].1.0.iter().copied()).collect());
            classify(problem, &q_tokens, &kv_tokens).map(|class| Block { q_rows, kv_rows, class })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Doc;
    use crate::spec::Dtype;

    fn causal(seq: u64) -> Problem {
        Problem {
            tokens: seq,
            docs: vec![Doc { start: 0, end: seq, len: seq }],
            causal: true,
            window: None,
            chunk: None,
            regions: None,
            head_masks: None,
            heads: 1,
            kv_heads: 1,
            head_dim: 8,
            batch: 1,
            dtype: Dtype::Fp32,
            thd: false,
            rope: None,
            softmax_scale: None,
            v_head_dim: None,
            sinks: false,
            score: None,
        }
    }

    fn zigzag(cp: u64, chunk: u64, r: u64) -> TokenMap {
        let (a, b) = (r * chunk, (2 * cp - 1 - r) * chunk);
        TokenMap::new(vec![Interval::new(a, a + chunk), Interval::new(b, b + chunk)])
    }

    #[test]
    fn zigzag_ring_half_work() {
        // cp = 4, chunks of 8: rank 2 holds chunks 2 and 5.
        let p = causal(64);
        let q = zigzag(4, 8, 2);
        let local = blocks(&p, &q, Split::HALVES, &q, Split::HALVES);
        assert_eq!(local.len(), 2, "{local:?}");
        let from_lower = blocks(&p, &q, Split::HALVES, &zigzag(4, 8, 1), Split::HALVES);
        assert_eq!(
            from_lower,
            vec![Block { q_rows: RowSet::range(0, 16), kv_rows: RowSet::range(0, 8), class: MaskClass::Full }]
        );
        let from_higher = blocks(&p, &q, Split::HALVES, &zigzag(4, 8, 3), Split::HALVES);
        assert_eq!(
            from_higher,
            vec![Block { q_rows: RowSet::range(8, 16), kv_rows: RowSet::range(0, 16), class: MaskClass::Full }]
        );
    }

    #[test]
    fn all_gather_prefixes() {
        let p = causal(64);
        let q = zigzag(4, 8, 1);
        let all = TokenMap::new(vec![Interval::new(0, 64)]);
        let got = blocks(&p, &q, Split::HALVES, &all, Split { parts: 8 });
        let kv: Vec<RowSet> = got.iter().map(|b| b.kv_rows.clone()).collect();
        assert_eq!(kv, vec![RowSet::range(0, 16), RowSet::range(0, 56)]);
    }
}
