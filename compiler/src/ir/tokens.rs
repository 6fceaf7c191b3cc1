//! Interval arithmetic on token indices and buffer rows: the currency of plans and of the verifier.
//!
//! A plan never lists tokens one by one: a rank's tokens are a few runs (two zigzag chunks, two
//! per THD sequence), a kernel block reads a few row ranges. This module deliberately knows
//! nothing of masks; `verify/coverage.rs` counts allowed pairs over these intervals.

use serde::{Deserialize, Serialize};

/// A half-open range `[start, end)` of token indices or rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Interval {
    pub start: u64,
    pub end: u64,
}

impl Interval {
    pub fn new(start: u64, end: u64) -> Interval {
        Interval { start, end }
    }

    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }

    pub fn intersect(self, other: Interval) -> Interval {
        Interval { start: self.start.max(other.start), end: self.end.min(other.end) }
    }

    /// Whether `x` lies in the half-open interval.
    pub fn contains(self, x: u64) -> bool {
        self.start <= x && x < self.end
    }
}

impl std::fmt::Display for Interval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// Writes intervals as `0..4, 12..16`.
pub fn display_intervals(intervals: &[Interval]) -> String {
    intervals.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

/// `layer` ranges covering `layers` (sorted, distinct): one `a..b step k` when they are evenly
/// spaced at a stride over 1, else one `a..b` per run of consecutive layers.
pub fn layer_ranges(layers: &[u64]) -> Vec<String> {
    if layers.len() > 2 {
        let step = layers[1] - layers[0];
        if step > 1 && layers.windows(2).all(|w| w[1] - w[0] == step) {
            return vec![format!("{}..{} step {step}", layers[0], layers[layers.len() - 1] + 1)];
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < layers.len() {
        let start = layers[i];
        while i + 1 < layers.len() && layers[i + 1] == layers[i] + 1 {
            i += 1;
        }
        out.push(format!("{start}..{}", layers[i] + 1));
        i += 1;
    }
    out
}

/// Layer intervals as a spec writes them: `3..48 step 4`, or `0..3, 4..7` ([`layer_ranges`]).
pub fn display_layers(intervals: &[Interval]) -> String {
    let layers: Vec<u64> = intervals.iter().flat_map(|i| i.start..i.end).collect();
    layer_ranges(&layers).join(", ")
}

/// A set of rows (or tokens) as ordered, disjoint, non-adjacent intervals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RowSet(pub Vec<Interval>);

impl RowSet {
    /// Builds a set from any intervals: sorts, drops empties, merges overlapping and adjacent ones.
    pub fn from_intervals(mut intervals: Vec<Interval>) -> RowSet {
        intervals.retain(|i| !i.is_empty());
        intervals.sort();
        let mut out: Vec<Interval> = Vec::with_capacity(intervals.len());
        for i in intervals {
            match out.last_mut() {
                Some(last) if i.start <= last.end => last.end = last.end.max(i.end),
                _ => out.push(i),
            }
        }
        RowSet(out)
    }

    pub fn range(start: u64, end: u64) -> RowSet {
        RowSet::from_intervals(vec![Interval::new(start, end)])
    }

    pub fn len(&self) -> u64 {
        self.0.iter().map(|i| i.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn union(&self, other: &RowSet) -> RowSet {
        RowSet::from_intervals(self.0.iter().chain(&other.0).copied().collect())
    }

    pub fn intersect(&self, other: &RowSet) -> RowSet {
        let (mut a, mut b) = (0, 0);
        let mut out = Vec::new();
        while a < self.0.len() && b < other.0.len() {
            let i = self.0[a].intersect(other.0[b]);
            if !i.is_empty() {
                out.push(i);
            }
            if self.0[a].end < other.0[b].end {
                a += 1;
            } else {
                b += 1;
            }
        }
        RowSet(out)
    }

    /// The intervals of this set that overlap `range`, clipped to it (binary search, then a scan).
    pub fn clipped(&self, range: Interval) -> impl Iterator<Item = Interval> + '_ {
        let first = self.0.partition_point(|i| i.end <= range.start);
        self.0[first..]
            .iter()
            .take_while(move |i| i.start < range.end)
            .map(move |i| i.intersect(range))
            .filter(|i| !i.is_empty())
    }

    pub fn max_end(&self) -> u64 {
        self.0.last().map_or(0, |i| i.end)
    }

    /// The tokens of this set that are not in `other`.
    pub fn minus(&self, other: &RowSet) -> RowSet {
        let mut out = Vec::new();
        for &i in &self.0 {
            let mut start = i.start;
            for o in other.clipped(i) {
                out.push(Interval::new(start, o.start));
                start = o.end;
            }
            out.push(Interval::new(start, i.end));
        }
        RowSet::from_intervals(out)
    }
}

impl std::fmt::Display for RowSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("{}");
        }
        f.write_str(&display_intervals(&self.0))
    }
}

/// The tokens of a buffer in row order: row r holds token `map(r)`.
///
/// Stored as consecutive token intervals; row 0 is the first token of the first interval.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TokenMap {
    pub runs: Vec<Interval>,
}

impl TokenMap {
    pub fn new(runs: Vec<Interval>) -> TokenMap {
        let mut merged: Vec<Interval> = Vec::with_capacity(runs.len());
        for run in runs.into_iter().filter(|r| !r.is_empty()) {
            match merged.last_mut() {
                Some(last) if last.end == run.start => last.end = run.end,
                _ => merged.push(run),
            }
        }
        TokenMap { runs: merged }
    }

    pub fn rows(&self) -> u64 {
        self.runs.iter().map(|r| r.len()).sum()
    }

    /// The token set of this map.
    pub fn token_set(&self) -> RowSet {
        RowSet::from_intervals(self.runs.clone())
    }

    /// The map sorted by token: the "natural order" of the same tokens.
    pub fn sorted(&self) -> TokenMap {
        TokenMap::new(self.token_set().0)
    }

    /// The token intervals of a row subset, in row order.
    pub fn tokens_of(&self, rows: &RowSet) -> Vec<Interval> {
        let mut out = Vec::with_capacity(rows.0.len());
        let mut row0 = 0u64;
        // One walk over both (runs and rows are in row order): a THD rank has ~100 of each.
        let mut j = 0;
        for run in &self.runs {
            let here = Interval::new(row0, row0 + run.len());
            while j < rows.0.len() && rows.0[j].end <= here.start {
                j += 1;
            }
            for r in rows.0[j..].iter().take_while(|r| r.start < here.end).map(|r| r.intersect(here)) {
                if !r.is_empty() {
                    out.push(Interval::new(run.start + (r.start - row0), run.start + (r.end - row0)));
                }
            }
            row0 = here.end;
        }
        out
    }

    /// The rows holding the tokens of `tokens` (which must be present), as a row set.
    pub fn rows_of(&self, tokens: &RowSet) -> RowSet {
        let mut out = Vec::new();
        let mut row0 = 0u64;
        for run in &self.runs {
            for t in tokens.clipped(*run) {
                out.push(Interval::new(row0 + (t.start - run.start), row0 + (t.end - run.start)));
            }
            row0 += run.len();
        }
        RowSet::from_intervals(out)
    }

    /// The concatenation of several maps, in order.
    pub fn concat<'a>(maps: impl IntoIterator<Item = &'a TokenMap>) -> TokenMap {
        TokenMap::new(maps.into_iter().flat_map(|m| m.runs.iter().copied()).collect())
    }
}

/// Token runs of a load: `len` tokens from `token`, with RoPE positions from `position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub token: u64,
    pub position: u64,
    pub len: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_lists_read_as_spec_ranges() {
        let one = |a: u64| Interval::new(a, a + 1);
        assert_eq!(display_layers(&[one(3), one(7), one(11)]), "3..12 step 4");
        assert_eq!(display_layers(&[one(0), one(2)]), "0..1, 2..3");
        assert_eq!(display_layers(&[one(0), one(2), one(5)]), "0..1, 2..3, 5..6");
        assert_eq!(
            display_layers(&[Interval::new(0, 3), Interval::new(4, 7), Interval::new(8, 11)]),
            "0..3, 4..7, 8..11"
        );
    }

    #[test]
    fn sets_merge_and_intersect() {
        let a = RowSet::from_intervals(vec![Interval::new(5, 8), Interval::new(0, 2), Interval::new(2, 3)]);
        assert_eq!(a.0, vec![Interval::new(0, 3), Interval::new(5, 8)]);
        let b = RowSet::range(1, 6);
        assert_eq!(a.intersect(&b).0, vec![Interval::new(1, 3), Interval::new(5, 6)]);
        assert_eq!(a.clipped(Interval::new(2, 7)).collect::<Vec<_>>(), vec![Interval::new(2, 3), Interval::new(5, 7)]);
    }

    #[test]
    fn maps_translate_rows_and_tokens() {
        // Zigzag rank 0 of cp 2 over 8 tokens: chunks 0 and 3.
        let map = TokenMap::new(vec![Interval::new(0, 2), Interval::new(6, 8)]);
        assert_eq!(map.tokens_of(&RowSet::range(1, 3)), vec![Interval::new(1, 2), Interval::new(6, 7)]);
        assert_eq!(map.rows_of(&RowSet::range(6, 8)), RowSet::range(2, 4));
        assert_eq!(map.sorted(), map);
    }
}
