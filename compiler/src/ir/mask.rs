//! Counting allowed (query, key) pairs over token intervals, in closed form.
//!
//! For one row token x the allowed columns are one interval `[lo(x), hi(x))` whose ends are
//! piecewise linear in x with slope 0 or 1 (sequence start and end, and the two edges of the
//! band of diagonals the mask is there: the causal diagonal and a window's lower edge, or any
//! band's `lo ≤ q − k < end` inside a regional mask's cell). Between breakpoints the count is
//! linear in x, so a sum over a million rows costs a handful of evaluations. Rows are queries ([`Side::Q`], for O and dQ) or keys
//! ([`Side::Kv`], for dK and dV: the transposed mask). Used by the lowering to classify and prune
//! blocks and by the verifier to prove coverage; it does not know about plans.
//!
//! A chunked mask (`causal { chunk = C }`) is causal attention inside each C-token chunk of a
//! sequence: each chunk is counted as a sequence of its own, only the chunks that both the rows
//! and the columns reach count, and the whole ones among them are counted once and multiplied.

use super::{Doc, Interval, MaskClass, Problem, RowSet};
use crate::spec::{Band, Regions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Q,
    Kv,
}

/// Which parts of the mask apply; the classifier drops some to see what cuts a block.
#[derive(Clone, Copy, Debug)]
pub struct MaskRule<'a> {
    /// The band of a named mask (or of one class of a per-head mask); [`Band::NONE`] under a
    /// regional mask, whose cells have their own.
    pub band: Band,
    pub chunk: Option<u64>,
    /// A regional mask, and what the classifier drops of its cells.
    pub regions: Option<(&'a Regions, Strip)>,
}

/// What of a regional mask's cells is dropped: nothing, windows (each band's upper side: a
/// window becomes causal), or causality (both sides: every non-empty cell becomes full).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strip {
    Nothing,
    Windows,
    Causality,
}

impl<'a> MaskRule<'a> {
    pub fn of(problem: &'a Problem) -> MaskRule<'a> {
        MaskRule {
            band: Band::of(problem.causal && problem.regions.is_none(), problem.window),
            chunk: problem.chunk,
            regions: problem.regions.as_ref().map(|r| (r, Strip::Nothing)),
        }
    }

    /// Every band of the rule: its own, and its regions' cells'.
    fn bands(&self) -> impl Iterator<Item = Band> {
        std::iter::once(self.band).chain(self.regions.into_iter().flat_map(|(r, _)| r.bands()))
    }

    /// Whether some pairs are cut by a window's lower edge (a band's upper side, `q - k < end`).
    fn windowed(&self) -> bool {
        self.bands().any(|b| b.end.is_some())
    }

    /// Whether some pairs are cut by the causal order (a band's lower side, `q - k >= lo`).
    fn sided(&self) -> bool {
        self.bands().any(|b| b.lo.is_some())
    }

    /// The same rule with `strip` dropped (windows, or windows and causality).
    fn without(self, strip: Strip) -> MaskRule<'a> {
        let regions = self.regions.map(|(r, _)| (r, strip));
        match strip {
            Strip::Nothing => self,
            Strip::Windows => MaskRule { band: Band { end: None, ..self.band }, regions, ..self },
            Strip::Causality => MaskRule { band: Band::NONE, regions, ..self },
        }
    }
}

/// Allowed pairs of a regional mask between query tokens `qs` and key tokens `ks` of `doc`,
/// cell by cell with the bands' closed forms.
fn count_regions(doc: Doc, r: &Regions, strip: Strip, qs: Interval, ks: Interval) -> u128 {
    let real = Interval::new(doc.start, doc.start + doc.len);
    let (qs, ks) = (qs.intersect(real), ks.intersect(real));
    if qs.is_empty() || ks.is_empty() {
        return 0;
    }
    let cells = |cuts: &[u64], n: usize, x: Interval| -> Vec<(usize, Interval)> {
        (0..n)
            .filter_map(|i| {
                let (a, b) = Regions::span(cuts, i);
                let part = x.intersect(Interval::new(doc.start + a, doc.start.saturating_add(b)));
                (!part.is_empty()).then_some((i, part))
            })
            .collect()
    };
    let mut total = 0;
    for (i, q) in cells(&r.q_cuts, r.q_cells(), qs) {
        for (j, k) in cells(&r.k_cuts, r.k_cells(), ks) {
            let Some(band) = r.cell(i, j).band() else { continue };
            let band = match strip {
                Strip::Nothing => band,
                Strip::Windows => Band { end: None, ..band },
                Strip::Causality => Band::NONE,
            };
            total += count_band(doc, band, Side::Q, q, k);
        }
    }
    total
}

/// Chunk `k` of `doc` under `chunk` tokens per chunk: a sequence of its own, its padding the
/// doc's padding that falls inside it.
fn chunk_doc(doc: Doc, chunk: u64, k: u64) -> Doc {
    let start = doc.start + k * chunk;
    Doc { start, end: (start + chunk).min(doc.end), len: doc.len.saturating_sub(k * chunk).min(chunk) }
}

/// `[lo, hi)` allowed for row x of `doc` (x inside the doc) under `band`, as i128 to keep the
/// algebra simple: query x sees keys `x − end < k ≤ x − lo`, key x is seen by queries
/// `x + lo ≤ q < x + end`, inside the sequence's real tokens.
fn bounds(doc: Doc, band: Band, side: Side, x: i128) -> (i128, i128) {
    let (ds, dv) = (doc.start as i128, (doc.start + doc.len) as i128);
    if x >= dv {
        return (0, 0); // Padding sees nothing and is seen by nothing.
    }
    let (lo, end) = (band.lo.map(i128::from), band.end.map(i128::from));
    match side {
        Side::Q => (end.map_or(ds, |e| ds.max(x - e + 1)), lo.map_or(dv, |l| dv.min(x - l + 1))),
        Side::Kv => (lo.map_or(ds, |l| ds.max(x + l)), end.map_or(dv, |e| dv.min(x + e))),
    }
}

fn count_at(doc: Doc, band: Band, side: Side, x: i128, cols: Interval) -> i128 {
    let (lo, hi) = bounds(doc, band, side, x);
    (hi.min(cols.end as i128) - lo.max(cols.start as i128)).max(0)
}

/// Allowed pairs between rows `rows` (inside `doc`) and columns `cols`.
fn count_in_doc(doc: Doc, rule: MaskRule, side: Side, rows: Interval, cols: Interval) -> u128 {
    if rows.is_empty() || cols.is_empty() {
        return 0;
    }
    if let Some((r, strip)) = rule.regions {
        let (qs, ks) = if side == Side::Q { (rows, cols) } else { (cols, rows) };
        return count_regions(doc, r, strip, qs, ks);
    }
    if let Some(c) = rule.chunk {
        // Only chunks that hold both some rows and some columns count. A chunk wholly inside
        // both, with no padding, counts the same as any other such chunk (the mask is the same
        // up to translation), so those are counted once and multiplied: a handful of
        // evaluations however small the chunk.
        let k = |x: u64| (x - doc.start) / c;
        let plain = MaskRule { chunk: None, ..rule };
        let (first, last) = (k(rows.start).max(k(cols.start)), k(rows.end - 1).min(k(cols.end - 1)));
        if first > last {
            return 0;
        }
        let count = |k: u64| {
            let sub = chunk_doc(doc, c, k);
            let span = Interval::new(sub.start, sub.end);
            count_in_doc(sub, plain, side, rows.intersect(span), cols.intersect(span))
        };
        let whole = |k: u64| {
            let sub = chunk_doc(doc, c, k);
            let span = Interval::new(sub.start, sub.end);
            sub.len == c && rows.intersect(span) == span && cols.intersect(span) == span
        };
        // Whole chunks form one consecutive range of k (rows and columns are intervals and only
        // a doc's last chunk holds padding); the partial ones are at its two ends.
        let (mut lo, mut hi) = (first, last + 1);
        let mut total = 0;
        while lo < hi && !whole(lo) {
            total += count(lo);
            lo += 1;
        }
        while lo < hi && !whole(hi - 1) {
            total += count(hi - 1);
            hi -= 1;
        }
        if lo < hi {
            total += count(lo) * (hi - lo) as u128;
        }
        return total;
    }
    count_band(doc, rule.band, side, rows, cols)
}

/// Allowed pairs between rows `rows` (inside `doc`) and columns `cols` under one band. The count
/// of one row is piecewise linear in the row: its kinks are where an edge of the band (the row
/// plus a constant) meets the sequence's or the columns' ends, so a sum over any number of rows
/// is a few trapezoids.
fn count_band(doc: Doc, band: Band, side: Side, rows: Interval, cols: Interval) -> u128 {
    if rows.is_empty() || cols.is_empty() {
        return 0;
    }
    if band == Band::NONE || band == Band::CAUSAL {
        return count_unwindowed(doc, band == Band::CAUSAL, side, rows, cols);
    }
    let (ra, rb) = (rows.start as i128, rows.end as i128);
    // Each edge of the band as the row plus a constant.
    let (lo, end) = (band.lo.map(i128::from), band.end.map(i128::from));
    let offsets = match side {
        Side::Q => [lo.map(|l| 1 - l), end.map(|e| 1 - e)],
        Side::Kv => [lo, end],
    };
    let constants = [doc.start, doc.start + doc.len, cols.start, cols.end].map(|v| v as i128);
    // Padding starts at ds + len: a jump, not a kink, so it is a breakpoint of its own. At most
    // 3 + 2·4 points, kept on the stack (the planner and the verifier count millions of pieces).
    let mut points = [0i128; 11];
    let mut n = 0;
    let pad = (doc.start + doc.len) as i128;
    for x in [ra, rb].into_iter().chain((pad > ra && pad < rb).then_some(pad)) {
        points[n] = x;
        n += 1;
    }
    for c in offsets.into_iter().flatten() {
        for &v in &constants {
            let x = v - c;
            if x > ra && x < rb {
                points[n] = x;
                n += 1;
            }
        }
    }
    let points = &mut points[..n];
    points.sort_unstable();
    let mut total: i128 = 0;
    let mut p = points[0];
    for &q in &points[1..] {
        if q > p {
            total += (q - p) * (count_at(doc, band, side, p, cols) + count_at(doc, band, side, q - 1, cols)) / 2;
            p = q;
        }
    }
    total as u128
}

/// [`count_in_doc`] without a window or chunks, as sums of arithmetic series: the per-row count
/// is a ramp (0, then one more per row, then flat) under causality, a constant without it.
fn count_unwindowed(doc: Doc, causal: bool, side: Side, rows: Interval, cols: Interval) -> u128 {
    let (ds, dv) = (doc.start as i128, (doc.start + doc.len) as i128);
    // Padding rows see nothing.
    let (lo, hi) = (rows.start as i128, (rows.end as i128).min(dv));
    let (cs, ce) = (cols.start as i128, cols.end as i128);
    if lo >= hi {
        return 0;
    }
    let clamp = |x: i128| x.clamp(lo, hi);
    // Σ over x in [s, e) of (x + c): e > s.
    let series = |s: i128, e: i128, c: i128| if e > s { (e - s) * (s + c) + (e - s) * (e - s - 1) / 2 } else { 0 };
    let total = match (causal, side) {
        (false, _) => (hi - lo) * (ce.min(dv) - cs.max(ds)).max(0),
        // Query x sees keys [max(ds, cs), min(x + 1, ce)): none below a, x + 1 - a up to b - a.
        (true, Side::Q) => {
            let (a, b) = (cs.max(ds), ce);
            if b <= a {
                return 0;
            }
            let (ramp, flat) = (clamp(a), clamp(b - 1));
            series(ramp, flat, 1 - a) + (hi - flat.max(ramp)) * (b - a)
        }
        // Key x is seen by queries [max(x, cs), min(dv, ce)): b - a up to x = a, then one fewer per row.
        (true, Side::Kv) => {
            let (a, b) = (cs, ce.min(dv));
            if b <= a {
                return 0;
            }
            let (flat, ramp) = (clamp(a + 1), clamp(b));
            (flat - lo) * (b - a) - series(flat, ramp, -b)
        }
    };
    total as u128
}

/// Splits `rows` at sequence boundaries and calls `f(doc, piece)` for each piece.
pub fn for_each_doc_piece(problem: &Problem, rows: Interval, mut f: impl FnMut(Doc, Interval)) {
    let mut start = rows.start;
    while start < rows.end {
        let doc = problem.doc_of(start);
        let end = rows.end.min(doc.end);
        f(doc, Interval::new(start, end));
        start = end;
    }
}

/// Allowed pairs between row tokens and column tokens (both sets of intervals).
pub fn allowed(problem: &Problem, rule: MaskRule, side: Side, rows: &[Interval], cols: &RowSet) -> u128 {
    let mut total = 0;
    for &r in rows {
        for_each_doc_piece(problem, r, |doc, piece| {
            for c in cols.clipped(Interval::new(doc.start, doc.end)) {
                total += count_in_doc(doc, rule, side, piece, c);
            }
        });
    }
    total
}

/// Whether any pair of row tokens × column tokens is allowed: [`allowed`] ≠ 0, stopping at the
/// first piece that allows one (the planner asks this of every candidate block).
pub fn any_allowed(problem: &Problem, rows: &[Interval], cols: &RowSet) -> bool {
    let rule = MaskRule::of(problem);
    rows.iter().any(|&r| {
        let mut found = false;
        for_each_doc_piece(problem, r, |doc, piece| {
            found = found
                || cols
                    .clipped(Interval::new(doc.start, doc.end))
                    .any(|c| count_in_doc(doc, rule, Side::Q, piece, c) > 0);
        });
        found
    })
}

/// Allowed pairs of one row piece (inside `doc`) against one column interval.
pub fn allowed_piece(doc: Doc, rule: MaskRule, side: Side, rows: Interval, cols: Interval) -> u128 {
    let c = cols.intersect(Interval::new(doc.start, doc.end));
    count_in_doc(doc, rule, side, rows, c)
}

/// The mask class of a block of query tokens × key tokens, or `None` when nothing is allowed.
///
/// One walk over the block's pieces counts the allowed pairs under the mask, without its window,
/// and without causality; the class follows from which of those differ.
pub fn classify(problem: &Problem, q: &[Interval], kv: &RowSet) -> Option<MaskClass> {
    let rule = MaskRule::of(problem);
    let no_window = rule.without(Strip::Windows);
    // Chunk edges stay: a block that only they cut is classed like one that document edges cut.
    let non_causal = rule.without(Strip::Causality);
    let (windowed, sided) = (rule.windowed(), rule.sided());
    let (mut allowed_pairs, mut without_window, mut without_causal) = (0u128, 0u128, 0u128);
    for &r in q {
        for_each_doc_piece(problem, r, |doc, piece| {
            for c in kv.clipped(Interval::new(doc.start, doc.end)) {
                allowed_pairs += count_in_doc(doc, rule, Side::Q, piece, c);
                if windowed {
                    without_window += count_in_doc(doc, no_window, Side::Q, piece, c);
                }
                if sided {
                    without_causal += count_in_doc(doc, non_causal, Side::Q, piece, c);
                }
            }
        });
    }
    if allowed_pairs == 0 {
        return None;
    }
    let rect = q.iter().map(|i| i.len() as u128).sum::<u128>() * kv.len() as u128;
    if allowed_pairs == rect {
        return Some(MaskClass::Full);
    }
    if !windowed {
        without_window = allowed_pairs;
    } else if without_window != allowed_pairs {
        return Some(MaskClass::Window);
    }
    if sided && without_causal != without_window {
        return Some(MaskClass::Causal);
    }
    Some(MaskClass::Document)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Dtype;

    fn problem(docs: &[(u64, u64, u64)], causal: bool, window: Option<u64>) -> Problem {
        Problem {
            tokens: docs.last().map_or(0, |d| d.1),
            docs: docs.iter().map(|&(start, end, len)| Doc { start, end, len }).collect(),
            causal,
            window,
            chunk: None,
            regions: None,
            head_masks: None,
            heads: 1,
            kv_heads: 1,
            head_dim: 8,
            batch: 1,
            dtype: Dtype::Fp32,
            thd: docs.len() > 1,
            rope: None,
            softmax_scale: None,
            v_head_dim: None,
            sinks: false,
            score: None,
        }
    }

    /// Counts by brute force, one pair at a time.
    fn brute(p: &Problem, side: Side, rows: Interval, cols: Interval) -> u128 {
        let mut n = 0;
        for x in rows.start..rows.end {
            for y in cols.start..cols.end {
                let (q, k) = if side == Side::Q { (x, y) } else { (y, x) };
                let (dq, dk) = (p.doc_of(q), p.doc_of(k));
                let ok = dq == dk
                    && q < dq.start + dq.len
                    && k < dk.start + dk.len
                    && (!p.causal || (k <= q && p.window.is_none_or(|w| q - k < w)))
                    && p.chunk.is_none_or(|c| (q - dq.start) / c == (k - dk.start) / c);
                n += ok as u128;
            }
        }
        n
    }

    #[test]
    fn closed_form_matches_brute_force() {
        let docs = [(0, 16, 13), (16, 24, 8), (24, 40, 1)];
        // One long sequence with small chunks: whole chunks in the middle are counted in bulk.
        let long = Problem { chunk: Some(3), ..problem(&[(0, 40, 38)], true, None) };
        for side in [Side::Q, Side::Kv] {
            for (ra, rb, ca, cb) in [(0, 40, 0, 40), (1, 38, 2, 40), (7, 8, 0, 40), (4, 31, 5, 29)] {
                let (rows, cols) = (Interval::new(ra, rb), Interval::new(ca, cb));
                let got = allowed(&long, MaskRule::of(&long), side, &[rows], &RowSet::range(ca, cb));
                assert_eq!(got, brute(&long, side, rows, cols), "{side:?} {rows} x {cols}");
            }
        }
        let chunked = [(true, None, Some(1)), (true, None, Some(3)), (true, None, Some(5)), (true, None, Some(64))];
        let plain = [(false, None), (true, None), (true, Some(1)), (true, Some(3)), (true, Some(20))];
        for (causal, window, chunk) in plain.into_iter().map(|(c, w)| (c, w, None)).chain(chunked) {
            let p = Problem { chunk, ..problem(&docs, causal, window) };
            for side in [Side::Q, Side::Kv] {
                for (ra, rb) in [(0, 40), (3, 9), (14, 30), (16, 17), (25, 40)] {
                    for (ca, cb) in [(0, 40), (0, 5), (5, 14), (12, 26), (24, 25)] {
                        let rows = Interval::new(ra, rb);
                        let cols = Interval::new(ca, cb);
                        let got = allowed(&p, MaskRule::of(&p), side, &[rows], &RowSet::range(ca, cb));
                        assert_eq!(
                            got,
                            brute(&p, side, rows, cols),
                            "{causal} {window:?} {chunk:?} {side:?} {rows} x {cols}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn unwindowed_series_match_brute_force_everywhere() {
        // Every row and column interval over two sequences, the second padded: the closed forms
        // of `count_unwindowed` against counting pair by pair.
        for causal in [false, true] {
            let p = problem(&[(0, 7, 7), (7, 16, 6)], causal, None);
            for side in [Side::Q, Side::Kv] {
                for (ra, rb) in (0..16).flat_map(|a| (a + 1..=16).map(move |b| (a, b))) {
                    for (ca, cb) in (0..16).flat_map(|a| (a + 1..=16).map(move |b| (a, b))) {
                        let (rows, cols) = (Interval::new(ra, rb), Interval::new(ca, cb));
                        let got = allowed(&p, MaskRule::of(&p), side, &[rows], &RowSet::range(ca, cb));
                        assert_eq!(got, brute(&p, side, rows, cols), "{causal} {side:?} {rows} x {cols}");
                    }
                }
            }
        }
    }

    /// Every band with sides in −4..=4 or open (empty ones among them), counted in closed form
    /// against brute force: queries and keys as rows, intervals across a padded sequence's edges.
    #[test]
    fn bands_count_in_closed_form() {
        let doc = Doc { start: 3, end: 17, len: 11 };
        let sides = || std::iter::once(None).chain((-4..=4).map(Some));
        let spans = [(3, 17), (3, 4), (5, 12), (10, 17), (13, 16), (8, 9)];
        for band in sides().flat_map(|lo| sides().map(move |end| Band { lo, end })) {
            for side in [Side::Q, Side::Kv] {
                for (ra, rb) in spans {
                    for (ca, cb) in spans {
                        let got = count_band(doc, band, side, Interval::new(ra, rb), Interval::new(ca, cb));
                        let mut want = 0u128;
                        for x in ra..rb {
                            for y in ca..cb {
                                let (q, k) = if side == Side::Q { (x, y) } else { (y, x) };
                                let real = q < doc.start + doc.len && k < doc.start + doc.len;
                                want += (real && band.visible(q as i64, k as i64)) as u128;
                            }
                        }
                        assert_eq!(got, want, "{band:?} {side:?} rows {ra}..{rb} cols {ca}..{cb}");
                    }
                }
            }
        }
    }

    #[test]
    fn classes() {
        let p = problem(&[(0, 32, 32)], true, None);
        let q = [Interval::new(8, 16)];
        assert_eq!(classify(&p, &q, &RowSet::range(0, 8)), Some(MaskClass::Full));
        for kv in [RowSet::range(0, 8), RowSet::range(8, 16), RowSet::range(16, 24)] {
            assert_eq!(any_allowed(&p, &q, &kv), classify(&p, &q, &kv).is_some());
        }
        assert_eq!(classify(&p, &q, &RowSet::range(8, 16)), Some(MaskClass::Causal));
        assert_eq!(classify(&p, &q, &RowSet::range(16, 24)), None);
        let w = problem(&[(0, 32, 32)], true, Some(4));
        assert_eq!(classify(&w, &q, &RowSet::range(0, 8)), Some(MaskClass::Window));
        let docs = problem(&[(0, 16, 16), (16, 32, 10)], false, None);
        assert_eq!(classify(&docs, &[Interval::new(0, 32)], &RowSet::range(0, 32)), Some(MaskClass::Document));
        // Chunks of 8: a block across two chunks below the diagonal is cut by the chunk edge only;
        // a block of one chunk against an earlier one is empty.
        let c = Problem { chunk: Some(8), ..problem(&[(0, 32, 32)], true, None) };
        assert_eq!(classify(&c, &[Interval::new(16, 24)], &RowSet::range(0, 8)), None);
        assert_eq!(classify(&c, &[Interval::new(4, 12)], &RowSet::range(0, 4)), Some(MaskClass::Document));
        assert_eq!(classify(&c, &[Interval::new(8, 16)], &RowSet::range(8, 16)), Some(MaskClass::Causal));
    }
}
