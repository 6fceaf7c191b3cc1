//! Interval analysis of a mask over a tile: every term ranges over an interval (positions of the
//! tile's query and key rows, its heads, its sequences), integer operations map intervals to
//! intervals that contain every value, and a comparison is true over the whole tile, false over
//! the whole tile, or undecided. A tile marked empty never holds an allowed pair and one marked
//! full holds only allowed pairs (sound for every expression); undecided tiles are bisected a few
//! times before they are called partial, which makes the named masks exact.

use super::{BinOp, Expr, ExprKind, MaskExpr, UnOp, Var};

/// Inclusive ranges of the terms over a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub q: (i64, i64),
    pub k: (i64, i64),
    pub h: (i64, i64),
    pub doc_q: (i64, i64),
    pub doc_k: (i64, i64),
}

/// What a mask does over a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileClass {
    /// Every pair is allowed.
    Full,
    /// Some pairs are allowed, some not (or the analysis could not tell).
    Partial,
    /// No pair is allowed.
    Empty,
}

/// A condition over a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tri {
    True,
    False,
    Unknown,
}

/// An integer interval, inclusive; `None` is "any value" (an overflow or a division the
/// analysis does not bound).
type Range = Option<(i128, i128)>;

fn int(e: &Expr, t: &Tile) -> Range {
    let r = |(a, b): (i64, i64)| Some((a as i128, b as i128));
    match &e.kind {
        ExprKind::Var(Var::Q) => r(t.q),
        ExprKind::Var(Var::K) => r(t.k),
        ExprKind::Var(Var::H) => r(t.h),
        ExprKind::Var(Var::DocQ) => r(t.doc_q),
        ExprKind::Var(Var::DocK) => r(t.doc_k),
        ExprKind::Int(i) => Some((*i as i128, *i as i128)),
        ExprKind::Unary(UnOp::Neg, a) => int(a, t).map(|(lo, hi)| (-hi, -lo)),
        ExprKind::Binary(op, a, b) => {
            let ((a0, a1), (b0, b1)) = (int(a, t)?, int(b, t)?);
            let corners = |f: &dyn Fn(i128, i128) -> Option<i128>| -> Range {
                let v = [f(a0, b0)?, f(a0, b1)?, f(a1, b0)?, f(a1, b1)?];
                Some((*v.iter().min()?, *v.iter().max()?))
            };
            match op {
                BinOp::Add => Some((a0 + b0, a1 + b1)),
                BinOp::Sub => Some((a0 - b1, a1 - b0)),
                BinOp::Mul => corners(&|x, y| x.checked_mul(y)),
                // Floor division by a positive divisor is monotone in each argument, so its
                // extremes are at the corners.
                BinOp::Div if b0 > 0 => corners(&|x, y| Some(x.div_euclid(y))),
                BinOp::Rem if b0 > 0 => {
                    if b0 == b1 && a0.div_euclid(b0) == a1.div_euclid(b0) {
                        Some((a0.rem_euclid(b0), a1.rem_euclid(b0)))
                    } else {
                        Some((0, b1 - 1))
                    }
                }
                _ => None,
            }
        }
        // Floats and conditions are not integers; a checked mask never asks.
        _ => None,
    }
}

/// The largest magnitude an integer term of `e` (or any part of one) takes over `tile`
/// (`None`: some term is unbounded): below 2^24 the kernels' f32 steps for the mask are exact.
pub fn magnitude(e: &Expr, t: &Tile) -> Option<i128> {
    let own = match &e.kind {
        ExprKind::Unary(UnOp::Not, _) => 0,
        ExprKind::Binary(op, ..) if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) => 0,
        _ => int(e, t).map(|(lo, hi)| lo.abs().max(hi.abs()))?,
    };
    let children = match &e.kind {
        ExprKind::Unary(_, a) => magnitude(a, t)?,
        ExprKind::Binary(_, a, b) => magnitude(a, t)?.max(magnitude(b, t)?),
        _ => 0,
    };
    Some(own.max(children))
}

fn compare(op: BinOp, a: Range, b: Range) -> Tri {
    let (Some((a0, a1)), Some((b0, b1))) = (a, b) else { return Tri::Unknown };
    let (always, never) = match op {
        BinOp::Lt => (a1 < b0, a0 >= b1),
        BinOp::Le => (a1 <= b0, a0 > b1),
        BinOp::Gt => (a0 > b1, a1 <= b0),
        BinOp::Ge => (a0 >= b1, a1 < b0),
        BinOp::Eq => (a0 == a1 && b0 == b1 && a0 == b0, a1 < b0 || b1 < a0),
        BinOp::Ne => (a1 < b0 || b1 < a0, a0 == a1 && b0 == b1 && a0 == b0),
        _ => (false, false),
    };
    if always {
        Tri::True
    } else if never {
        Tri::False
    } else {
        Tri::Unknown
    }
}

fn cond(e: &Expr, t: &Tile) -> Tri {
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => match cond(a, t) {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        },
        ExprKind::Binary(BinOp::And, a, b) => match (cond(a, t), cond(b, t)) {
            (Tri::False, _) | (_, Tri::False) => Tri::False,
            (Tri::True, Tri::True) => Tri::True,
            _ => Tri::Unknown,
        },
        ExprKind::Binary(BinOp::Or, a, b) => match (cond(a, t), cond(b, t)) {
            (Tri::True, _) | (_, Tri::True) => Tri::True,
            (Tri::False, Tri::False) => Tri::False,
            _ => Tri::Unknown,
        },
        ExprKind::Binary(op, a, b) => compare(*op, int(a, t), int(b, t)),
        _ => Tri::Unknown,
    }
}

/// How many times an undecided tile is halved (along its longer position axis) before it is
/// called partial.
pub const BISECTIONS: u32 = 12;

/// The mask's class over `tile`.
pub fn classify(mask: &MaskExpr, tile: &Tile) -> TileClass {
    classify_within(&mask.0, tile, BISECTIONS)
}

fn classify_within(e: &Expr, t: &Tile, depth: u32) -> TileClass {
    match cond(e, t) {
        Tri::True => TileClass::Full,
        Tri::False => TileClass::Empty,
        Tri::Unknown if depth == 0 => TileClass::Partial,
        Tri::Unknown => {
            // Halve the longer of the two position ranges; a single pair cannot be undecided
            // for a checked mask unless a division is unbounded, which stays partial.
            let (ql, kl) = (t.q.1 - t.q.0, t.k.1 - t.k.0);
            if ql == 0 && kl == 0 {
                return TileClass::Partial;
            }
            let (a, b) = if ql >= kl {
                let m = t.q.0 + ql / 2;
                (Tile { q: (t.q.0, m), ..*t }, Tile { q: (m + 1, t.q.1), ..*t })
            } else {
                let m = t.k.0 + kl / 2;
                (Tile { k: (t.k.0, m), ..*t }, Tile { k: (m + 1, t.k.1), ..*t })
            };
            // A partial half makes the tile partial: the other half need not be looked at.
            match classify_within(e, &a, depth - 1) {
                TileClass::Partial => TileClass::Partial,
                first if classify_within(e, &b, depth - 1) == first => first,
                _ => TileClass::Partial,
            }
        }
    }
}

/// Whether every pair of a tile is allowed, counted pair by pair through the interpreter (the
/// tests' brute force; `None` when an evaluation fails).
pub fn brute(mask: &MaskExpr, tile: &Tile) -> Option<TileClass> {
    let (mut any, mut all) = (false, true);
    for q in tile.q.0..=tile.q.1 {
        for k in tile.k.0..=tile.k.1 {
            for h in tile.h.0..=tile.h.1 {
                for doc_q in tile.doc_q.0..=tile.doc_q.1 {
                    for doc_k in tile.doc_k.0..=tile.doc_k.1 {
                        let at = super::eval::Point { q, k, h, doc_q, doc_k, s: 0.0 };
                        let ok = super::eval::truth(&mask.0, &at).ok()?;
                        any |= ok;
                        all &= ok;
                    }
                }
            }
        }
    }
    Some(match (any, all) {
        (true, true) => TileClass::Full,
        (false, _) => TileClass::Empty,
        _ => TileClass::Partial,
    })
}

/// Whether some part of `q` (bisected) makes every pair with the keys of `t` allowed: then
/// every key of the tile is needed by some query.
fn some_query_sees_all(e: &Expr, t: &Tile, depth: u32) -> bool {
    match cond(e, t) {
        Tri::True => true,
        Tri::False => false,
        Tri::Unknown if depth == 0 || t.q.0 == t.q.1 => false,
        Tri::Unknown => {
            let m = t.q.0 + (t.q.1 - t.q.0) / 2;
            some_query_sees_all(e, &Tile { q: (t.q.0, m), ..*t }, depth - 1)
                || some_query_sees_all(e, &Tile { q: (m + 1, t.q.1), ..*t }, depth - 1)
        }
    }
}

/// The keys of `keys` (inclusive) that some query of `queries` (inclusive ranges) may attend,
/// the other terms ranging as in `base`: what a rank holding those queries must receive. Sound
/// for every mask (an undecided key is kept: an extra row sent, never one missing) and exact
/// where the analysis is (the named masks). Ranges come back sorted and merged.
pub fn needed_keys(mask: &MaskExpr, queries: &[(i64, i64)], keys: (i64, i64), base: &Tile) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    needed_within(&mask.0, queries, keys, base, &mut out);
    out
}

fn needed_within(e: &Expr, queries: &[(i64, i64)], keys: (i64, i64), base: &Tile, out: &mut Vec<(i64, i64)>) {
    if keys.0 > keys.1 {
        return;
    }
    let tiles: Vec<Tile> = queries.iter().map(|&q| Tile { q, k: keys, ..*base }).collect();
    let classes: Vec<TileClass> = tiles.iter().map(|t| classify_within(e, t, BISECTIONS)).collect();
    let all = classes.contains(&TileClass::Full)
        || tiles
            .iter()
            .zip(&classes)
            .any(|(t, c)| *c == TileClass::Partial && some_query_sees_all(e, t, 2 * BISECTIONS));
    if all || (keys.0 == keys.1 && classes.contains(&TileClass::Partial)) {
        match out.last_mut() {
            Some(last) if last.1 + 1 >= keys.0 => last.1 = last.1.max(keys.1),
            _ => out.push(keys),
        }
        return;
    }
    if classes.iter().all(|c| *c == TileClass::Empty) {
        return;
    }
    let m = keys.0 + (keys.1 - keys.0) / 2;
    needed_within(e, queries, (keys.0, m), base, out);
    needed_within(e, queries, (m + 1, keys.1), base, out);
}
