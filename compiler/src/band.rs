//! A band of diagonals, `lo ≤ q − k < end`: the one form of a mask inside a cell of a regional
//! mask and inside one kernel's run pair. The named masks are bands (`full`, `causal`, a window),
//! and so are masks no name covers (a two-sided window, keys only before the query); the planner
//! counts and bounds a band in closed form, and every backend lowers its two sides once.

use serde::{Deserialize, Serialize};

/// The mask a kernel applies inside one run pair: a band of diagonals, `lo ≤ q − k < end` for
/// query and key positions within their sequence, either side open (`None`). Every mask the
/// planner hands a kernel is one (`full`: both open, `causal`: `lo = 0`, a window of W:
/// `lo = 0, end = W`; a regional mask's cells are bands too), so each backend lowers the band's
/// two comparisons and the bounds they imply once, and no backend names a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "BandRecord", try_from = "BandRecord")]
pub struct Band {
    /// The least `q − k` allowed.
    pub lo: Option<i64>,
    /// One past the greatest `q − k` allowed.
    pub end: Option<i64>,
}

impl Band {
    /// Every pair allowed (full blocks, and documents once split into run pairs).
    pub const NONE: Band = Band { lo: None, end: None };
    /// Key position ≤ query position.
    pub const CAUSAL: Band = Band { lo: Some(0), end: None };

    /// Causal and `q − k < window`.
    pub const fn window(window: u64) -> Band {
        Band { lo: Some(0), end: Some(window as i64) }
    }

    /// Causal or not, with an optional window (the planner's reading of a named mask).
    pub const fn of(causal: bool, window: Option<u64>) -> Band {
        match (causal, window) {
            (false, _) => Band::NONE,
            (true, None) => Band::CAUSAL,
            (true, Some(w)) => Band::window(w),
        }
    }

    /// The named mask the band is, `(causal, window)` as [`Band::of`] takes it: every pair,
    /// causal, a causal window; `None` for a band no name covers (a two-sided window, `k < q`).
    pub fn named(self) -> Option<(bool, Option<u64>)> {
        match (self.lo, self.end) {
            (None, None) => Some((false, None)),
            (Some(0), None) => Some((true, None)),
            (Some(0), Some(w)) if w > 0 => Some((true, Some(w as u64))),
            _ => None,
        }
    }

    /// Whether every pair is allowed.
    pub fn is_none(self) -> bool {
        self == Band::NONE
    }

    /// Whether key position `k` is visible from query position `q` (positions within their
    /// sequence): the predicate every kernel applies, written once for the host-side kernels.
    pub fn visible(self, q: i64, k: i64) -> bool {
        let d = q - k;
        self.lo.is_none_or(|lo| d >= lo) && self.end.is_none_or(|end| d < end)
    }

    /// The band on the pairs of query positions `q_lo..=q_hi` and key positions `k_lo..=k_hi`:
    /// `None` when it allows none of them, [`Band::NONE`] when it allows every one, else
    /// itself.
    pub fn on(self, (q_lo, q_hi): (i64, i64), (k_lo, k_hi): (i64, i64)) -> Option<Band> {
        // q − k ranges over [q_lo − k_hi, q_hi − k_lo].
        let (least, most) = (q_lo - k_hi, q_hi - k_lo);
        let empty = self.lo.zip(self.end).is_some_and(|(lo, end)| lo >= end);
        if empty || self.lo.is_some_and(|lo| most < lo) || self.end.is_some_and(|end| least >= end) {
            return None;
        }
        let all = self.lo.is_none_or(|lo| least >= lo) && self.end.is_none_or(|end| most < end);
        Some(if all { Band::NONE } else { self })
    }

    /// The band as the language writes it: `-3 <= q - k < 5`, `q - k < 5`, `1 <= q - k`, `any`
    /// when both sides are open.
    pub fn inequality(self) -> String {
        match (self.lo, self.end) {
            (None, None) => "any".to_string(),
            (Some(lo), None) => format!("{lo} <= q - k"),
            (None, Some(end)) => format!("q - k < {end}"),
            (Some(lo), Some(end)) => format!("{lo} <= q - k < {end}"),
        }
    }

    /// The name kernels carry: `full`, `causal`, `window{W}`, else `band{lo}to{end}` (`x` for an
    /// open side, `m` for a minus sign).
    pub fn name(self) -> String {
        match BandRecord::from(self) {
            BandRecord::None => "full".to_string(),
            BandRecord::Causal => "causal".to_string(),
            BandRecord::Window { window } => format!("window{window}"),
            BandRecord::Band { lo, end } => {
                let side = |x: Option<i64>| x.map_or("x".to_string(), |x| x.to_string().replace('-', "m"));
                format!("band{}to{}", side(lo), side(end))
            }
        }
    }
}

/// Which named band a mask is, if any: how manifests spell it (the named bands as they always
/// were, `{"kind": "causal"}`, any other band by its two sides) and what its name says.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
enum BandRecord {
    None,
    Causal,
    Window {
        window: u64,
    },
    Band {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lo: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<i64>,
    },
}

impl From<Band> for BandRecord {
    fn from(m: Band) -> BandRecord {
        match m.named() {
            Some((false, _)) => BandRecord::None,
            Some((true, None)) => BandRecord::Causal,
            Some((true, Some(window))) => BandRecord::Window { window },
            None => BandRecord::Band { lo: m.lo, end: m.end },
        }
    }
}

impl TryFrom<BandRecord> for Band {
    type Error = String;
    fn try_from(r: BandRecord) -> Result<Band, String> {
        Ok(match r {
            BandRecord::None => Band::NONE,
            BandRecord::Causal => Band::CAUSAL,
            BandRecord::Window { window } if window > 0 && window <= i64::MAX as u64 => Band::window(window),
            BandRecord::Window { window } => {
                return Err(format!("a band's window must be in 1..=2^63-1, not {window}"));
            }
            BandRecord::Band { lo, end } => Band { lo, end },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The named bands keep their names and manifest spelling; others round-trip by their sides.
    #[test]
    fn bands_are_named_and_recorded() {
        let cases = [
            (Band::NONE, "full", r#"{"kind":"none"}"#),
            (Band::CAUSAL, "causal", r#"{"kind":"causal"}"#),
            (Band::window(128), "window128", r#"{"kind":"window","window":128}"#),
            (Band { lo: Some(-3), end: Some(5) }, "bandm3to5", r#"{"kind":"band","lo":-3,"end":5}"#),
            (Band { lo: None, end: Some(1) }, "bandxto1", r#"{"kind":"band","end":1}"#),
            (Band { lo: Some(1), end: None }, "band1tox", r#"{"kind":"band","lo":1}"#),
        ];
        for (m, name, json) in cases {
            assert_eq!(m.name(), name);
            assert_eq!(serde_json::to_string(&m).unwrap(), json);
            assert_eq!(serde_json::from_str::<Band>(json).unwrap(), m);
        }
        assert!(serde_json::from_str::<Band>(r#"{"kind":"window","window":0}"#).is_err());
        let written = [Band::NONE, Band::CAUSAL, Band::window(4), Band { lo: Some(-3), end: None }];
        assert_eq!(written.map(Band::inequality), ["any", "0 <= q - k", "0 <= q - k < 4", "-3 <= q - k"]);
        assert_eq!(Band { lo: None, end: Some(5) }.inequality(), "q - k < 5");
    }
}
