//! The kernel IR's mask bounds (`kernel::kv_bounds`, `q_bounds`, `needs_mask`) written as LLVM IR,
//! shared by the host and GPU lowerings so that every backend visits the same tiles. A mask is a
//! band `lo ≤ q − k < end` (`Band`); each open side adds nothing.

use super::text::{Fn, V, i64c, round_down, round_up};
use crate::kernel::Band;

/// A side of a mask's band in the 32-bit lanes of the edge masks (positions are far below 2³⁰).
pub fn clamp30(x: i64) -> i64 {
    x.clamp(-(1 << 30), 1 << 30)
}

/// A band with both sides within ±2²⁹ as (lo, width = end − lo): then `lo ≤ d < end` is one
/// unsigned test `d − lo < width` (a `d` below `lo` wraps past any width), with nothing that
/// wraps in 32 bits for `d` within ±2³⁰ (positions and tile offsets clamped to that). `None`
/// for one-sided bands, empty ones and far sides, which keep their one or two signed tests.
pub fn two_sided(mask: Band) -> Option<(i64, i64)> {
    const LIMIT: i64 = 1 << 29;
    let (lo, end) = mask.lo.zip(mask.end)?;
    (lo < end && lo.abs() <= LIMIT && end.abs() <= LIMIT).then_some((lo, end - lo))
}

/// `x + c` in `x`'s integer type (no instruction when `c` is 0).
pub fn plus(f: &mut Fn, x: &V, c: i64) -> V {
    if c == 0 { x.clone() } else { f.bin("add", x, &V::new(c.to_string(), x.ty.clone())) }
}

/// `kernel::kv_bounds` in IR: keys from `q_lo − end + 1` to `q_hi − lo`.
pub fn kv_bounds(f: &mut Fn, mask: Band, q_lo: &V, q_hi: &V, kv_pos: &V, n_kv: &V) -> (V, V) {
    let zero = i64c(0);
    // The KV row of position `q + c`, clamped to the run.
    let row = |f: &mut Fn, q: &V, c: i64| {
        let k = f.bin("add", q, &i64c(c));
        let k = f.bin("sub", &k, kv_pos);
        f.clamp_i64(&k, &zero, n_kv)
    };
    let hi = mask.lo.map_or_else(|| n_kv.clone(), |lo| row(f, q_hi, 1 - lo));
    let lo = mask.end.map_or_else(|| zero.clone(), |end| row(f, q_lo, 1 - end));
    (lo, hi)
}

/// `kernel::q_bounds` in IR: queries from `k_lo + lo` to `k_hi + end − 1`.
pub fn q_bounds(f: &mut Fn, mask: Band, k_lo: &V, k_hi: &V, q_pos: &V, n_q: &V, tile: i64) -> (V, V) {
    let zero = i64c(0);
    let lo = match mask.lo {
        None => zero.clone(),
        Some(lo) => {
            let first = plus(f, k_lo, lo);
            let l = f.bin("sub", &first, q_pos);
            f.clamp_i64(&l, &zero, n_q)
        }
    };
    let hi = match mask.end {
        Some(end) => {
            let h = f.bin("add", k_hi, &i64c(end));
            let h = f.bin("sub", &h, q_pos);
            f.clamp_i64(&h, &zero, n_q)
        }
        None => n_q.clone(),
    };
    (round_down(f, &lo, tile), round_up(f, &hi, tile))
}

/// `kernel::needs_mask` in IR: the tile is partial, or crosses the band's lower edge
/// (`k_hi + lo > q_lo`) or its upper one (`q_hi − k_lo ≥ end`).
pub fn needs_mask(f: &mut Fn, mask: Band, q_lo: &V, q_hi: &V, k_lo: &V, k_hi: &V, partial: &V) -> V {
    let below = mask.lo.map(|lo| {
        let k = plus(f, k_hi, lo);
        f.icmp("sgt", &k, q_lo)
    });
    let above = mask.end.map(|end| {
        let span = f.bin("sub", q_hi, k_lo);
        f.icmp("sge", &span, &i64c(end))
    });
    [below, above].into_iter().flatten().fold(partial.clone(), |a, c| f.bin("or", &a, &c))
}
