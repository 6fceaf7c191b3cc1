//! Needed rows: the KV tokens that some query of a set may attend to, from the mask's closed form
//! (sequences, padding, causal order, windows, chunks), and the least a rank must receive.
//!
//! For one query x of a sequence the allowed keys are one interval ending at x (causal) or the
//! whole sequence, starting at the sequence's, the window's or the chunk's start; both ends grow
//! with x, so a run of queries needs one interval: from what its first query sees to its last
//! real query (under a regional mask, cell by cell: the first query's band to the last one's).
//! A rank that keeps its queries (p2p, all-gather, the ring level of a2a+p2p) must
//! receive every needed key it does not hold; backward, it must also receive the gradient of
//! every key it holds that a query elsewhere sees. That is the lower bound `attnc plan --stats`
//! sets next to what a plan moves.

use serde::{Deserialize, Serialize};

use super::mask::for_each_doc_piece;
use super::{BufKind, Direction, Doc, Input, Interval, OpKind, Plan, Problem, RowSet};
use crate::spec::Regions;

/// KV tokens any query token of `queries` may see.
pub fn needed_keys(problem: &Problem, queries: &RowSet) -> RowSet {
    let mut out = Vec::new();
    for &q in &queries.0 {
        for_each_doc_piece(problem, q, |doc, piece| {
            let real_end = piece.end.min(doc.start + doc.len);
            if piece.start >= real_end {
                return; // Padding queries see nothing.
            }
            if let Some(r) = &problem.regions {
                regional_keys(r, doc, Interval::new(piece.start, real_end), &mut out);
                return;
            }
            if !problem.causal {
                out.push(Interval::new(doc.start, doc.start + doc.len));
                return;
            }
            let mut lo = doc.start;
            if let Some(w) = problem.window {
                lo = lo.max((piece.start + 1).saturating_sub(w));
            }
            if let Some(c) = problem.chunk {
                lo = lo.max(doc.start + (piece.start - doc.start) / c * c);
            }
            out.push(Interval::new(lo, real_end));
        });
    }
    RowSet::from_intervals(out)
}

/// The keys of `doc` that the real queries `qs` see under a regional mask, cell by cell: from
/// what the first query's band reaches to what the last query's does.
fn regional_keys(r: &Regions, doc: Doc, qs: Interval, out: &mut Vec<Interval>) {
    let real_end = doc.start + doc.len;
    let at = |cuts: &[u64], i: usize| {
        let (a, b) = Regions::span(cuts, i);
        Interval::new((doc.start + a).min(real_end), doc.start.saturating_add(b).min(real_end))
    };
    for i in 0..r.q_cells() {
        let q = qs.intersect(at(&r.q_cuts, i));
        if q.is_empty() {
            continue;
        }
        for j in 0..r.k_cells() {
            let k = at(&r.k_cuts, j);
            let Some(band) = r.cell(i, j).band() else { continue };
            // Query x sees keys x − end < key ≤ x − lo; both ends grow with x by one per query,
            // so the cell's queries see one interval.
            let (first, last) = (q.start as i128, q.end as i128 - 1);
            let from = band.end.map_or(k.start as i128, |e| (k.start as i128).max(first - i128::from(e) + 1));
            let to = band.lo.map_or(k.end as i128, |l| (k.end as i128).min(last - i128::from(l) + 1));
            if from >= to {
                continue;
            }
            out.push(Interval::new(from as u64, to as u64));
        }
    }
}

/// One rank's lower bound, for a plan that keeps the rank's queries where they are.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Needed {
    /// KV rows (tokens) the rank's queries see that another rank holds.
    pub remote_rows: u64,
    /// Backward: rows the rank holds that a query on another rank sees (their dK, dV come back).
    #[serde(default)]
    pub seen_elsewhere_rows: u64,
    /// The bytes those rows take: K and V in, and backward also their dK and dV (fp32) in.
    pub min_received_bytes: u64,
}

/// The tokens each rank loads as queries and as keys (its share of the partition).
pub fn loaded(plan: &Plan) -> (Vec<RowSet>, Vec<RowSet>) {
    let cp = plan.header.cp as usize;
    let (mut q, mut kv) = (vec![RowSet::default(); cp], vec![RowSet::default(); cp]);
    for id in plan.op_ids() {
        let op = plan.op(id);
        if let OpKind::Load { input, dst, .. } = &op.kind {
            let side = match input {
                Input::Q | Input::QBundle => &mut q[op.rank as usize],
                Input::Kv => &mut kv[op.rank as usize],
            };
            *side = plan.buf(*dst).tokens.token_set();
        }
    }
    (q, kv)
}

/// Per rank, the least it must receive under the plan's partition and mask (see the module doc).
pub fn needed(plan: &Plan) -> Vec<Needed> {
    let (p, direction) = (&plan.problem, plan.header.direction);
    let (q, kv) = loaded(plan);
    let row =
        |kind: BufKind| kind.bytes_per_row_head(p.head_dim, p.v_dim(), p.dtype) * p.kv_heads as u64 * p.batch as u64;
    let needs: Vec<RowSet> = q.iter().map(|q| needed_keys(p, q)).collect();
    (0..q.len())
        .map(|r| {
            let remote_rows = needs[r].minus(&kv[r]).len();
            let seen_elsewhere_rows = match direction {
                Direction::Forward => 0,
                Direction::Backward => {
                    let others =
                        (0..q.len()).filter(|&s| s != r).fold(RowSet::default(), |acc, s| acc.union(&needs[s]));
                    others.intersect(&kv[r]).len()
                }
            };
            Needed {
                remote_rows,
                seen_elsewhere_rows,
                min_received_bytes: remote_rows * row(BufKind::Kv) + seen_elsewhere_rows * row(BufKind::DkvAcc),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Doc;

    fn problem(window: Option<u64>, chunk: Option<u64>, causal: bool) -> Problem {
        Problem {
            tokens: 40,
            docs: vec![Doc { start: 0, end: 24, len: 20 }, Doc { start: 24, end: 40, len: 16 }],
            causal,
            window,
            chunk,
            regions: None,
            head_masks: None,
            heads: 2,
            kv_heads: 1,
            head_dim: 8,
            v_head_dim: None,
            batch: 1,
            dtype: crate::spec::Dtype::Fp32,
            thd: true,
            rope: None,
            softmax_scale: None,
            score: None,
            sinks: false,
        }
    }

    /// The closed form against brute force over every allowed pair, for query sets that cross
    /// sequence edges and padding, under every mask.
    #[test]
    fn needed_keys_match_brute_force() {
        let cases = [
            problem(None, None, false),
            problem(None, None, true),
            problem(Some(3), None, true),
            problem(Some(30), None, true),
            problem(None, Some(6), true),
            problem(None, Some(1), true),
        ];
        let sets = [
            RowSet::range(0, 40),
            RowSet::range(10, 30),
            RowSet::from_intervals(vec![Interval::new(5, 7), Interval::new(18, 26), Interval::new(33, 34)]),
            RowSet::range(20, 24),
        ];
        for p in &cases {
            for qs in &sets {
                let brute: Vec<Interval> = (0..p.tokens)
                    .filter(|&j| {
                        qs.0.iter().flat_map(|i| i.start..i.end).any(|i| {
                            let (di, dj) = (p.doc_of(i), p.doc_of(j));
                            let real = i < di.start + di.len && j < dj.start + dj.len && di == dj;
                            let (pi, pj) = (i - di.start, j.saturating_sub(di.start));
                            real && (!p.causal
                                || (pj <= pi
                                    && p.window.is_none_or(|w| pi - pj < w)
                                    && p.chunk.is_none_or(|c| pi / c == pj / c)))
                        })
                    })
                    .map(|j| Interval::new(j, j + 1))
                    .collect();
                let want = RowSet::from_intervals(brute);
                assert_eq!(needed_keys(p, qs), want, "{:?} {:?} {:?} queries {qs:?}", p.window, p.chunk, p.causal);
            }
        }
    }

    #[test]
    fn minus_removes_what_is_held() {
        let a = RowSet::from_intervals(vec![Interval::new(0, 10), Interval::new(20, 30)]);
        let b = RowSet::from_intervals(vec![Interval::new(5, 22), Interval::new(25, 26)]);
        assert_eq!(
            a.minus(&b),
            RowSet::from_intervals(vec![Interval::new(0, 5), Interval::new(22, 25), Interval::new(26, 30)])
        );
    }
}
