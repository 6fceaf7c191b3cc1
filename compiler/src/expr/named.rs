//! Which named mask (or soft-cap) an expression is: the planner, the verifier and every kernel
//! set have closed forms for `causal` with its `window` or `chunk`, so an expression that says
//! one of them is compiled as that mask. The test is by normal form, not by spelling: a mask is
//! read as a conjunction of linear constraints `a·q + b·k + c ≤ 0` (integers, so `<` becomes
//! `≤` with the constant moved by one, and each constraint is divided by the gcd of its
//! coefficients) and chunk tests `q / C == k / C`; `!` is pushed into comparisons. Constraints
//! that hold for every pair of positions (`k >= 0`, `doc(q) == doc(k)`, which the format
//! already enforces) drop out. The set that remains is compared with the named masks' sets.
//!
//! What is not one of them comes back as [`Unsupported`] with the reason: the general
//! expression path (every backend lowering the expression) is issue 30's next part.

use std::collections::BTreeSet;

use super::{BinOp, Expr, ExprKind, Func, MaskExpr, UnOp, Var};
use crate::spec::{Band, Mask};

/// Why an expression is not a mask or score the kernels have, with the span it is about.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Unsupported {
    pub span: (usize, usize),
    pub message: String,
}

fn unsupported<T>(e: &Expr, message: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported { span: e.span, message: message.into() })
}

/// `a·q + b·k + c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Linear {
    pub(super) q: i64,
    pub(super) k: i64,
    pub(super) c: i64,
}

impl Linear {
    pub(super) fn scale(self, n: i64) -> Option<Linear> {
        Some(Linear { q: self.q.checked_mul(n)?, k: self.k.checked_mul(n)?, c: self.c.checked_mul(n)? })
    }

    pub(super) fn add(self, o: Linear) -> Option<Linear> {
        Some(Linear { q: self.q.checked_add(o.q)?, k: self.k.checked_add(o.k)?, c: self.c.checked_add(o.c)? })
    }

    fn constant(self) -> Option<i64> {
        (self.q == 0 && self.k == 0).then_some(self.c)
    }
}

/// One constraint of the normal form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    /// `q·a + k·b + c ≤ 0`, `gcd(|a|, |b|) = 1`.
    Le { q: i64, k: i64, c: i64 },
    /// `q / C == k / C`.
    SameChunk(u64),
    /// Never holds.
    False,
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// `l ≤ 0` as an atom (`None`: it always holds for positions q, k ≥ 0).
fn le(l: Linear) -> Option<Atom> {
    let g = gcd(l.q, l.k);
    if g == 0 {
        return (l.c > 0).then_some(Atom::False);
    }
    // g·(a'q + b'k) ≤ −c  ⇔  a'q + b'k ≤ ⌊−c / g⌋ for integers.
    let bound = (-(l.c as i128)).div_euclid(g as i128) as i64;
    let (q, k) = (l.q / g, l.k / g);
    // Non-positive coefficients and a non-negative bound hold at every q, k ≥ 0.
    if q <= 0 && k <= 0 && bound >= 0 {
        return None;
    }
    // Non-negative coefficients and a negative bound hold at none.
    if q >= 0 && k >= 0 && bound < 0 {
        return Some(Atom::False);
    }
    Some(Atom::Le { q, k, c: -bound })
}

pub(super) fn linear(e: &Expr) -> Result<Linear, Unsupported> {
    let overflow = |e: &Expr| unsupported(e, "the constants overflow a 64-bit integer");
    match &e.kind {
        ExprKind::Var(Var::Q) => Ok(Linear { q: 1, k: 0, c: 0 }),
        ExprKind::Var(Var::K) => Ok(Linear { q: 0, k: 1, c: 0 }),
        ExprKind::Var(Var::H) => unsupported(e, "it depends on the head `h`"),
        ExprKind::Var(Var::DocQ | Var::DocK) => {
            unsupported(e, "`doc(q)` or `doc(k)` outside `doc(q) == doc(k)` (which packed batches already apply)")
        }
        ExprKind::Int(i) => Ok(Linear { q: 0, k: 0, c: *i }),
        ExprKind::Unary(UnOp::Neg, a) => linear(a)?.scale(-1).map_or_else(|| overflow(e), Ok),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (a, mut b) = (linear(a)?, linear(b)?);
            if *op == BinOp::Sub {
                b = b.scale(-1).map_or_else(|| overflow(e), Ok)?;
            }
            a.add(b).map_or_else(|| overflow(e), Ok)
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (a, b) = (linear(a)?, linear(b)?);
            let product = match (a.constant(), b.constant()) {
                (Some(n), _) => b.scale(n),
                (_, Some(n)) => a.scale(n),
                _ => return unsupported(e, "a product of positions (not linear in q and k)"),
            };
            product.map_or_else(|| overflow(e), Ok)
        }
        ExprKind::Binary(op @ (BinOp::Div | BinOp::Rem), a, b) => {
            match (linear(a)?.constant(), linear(b)?.constant()) {
                (Some(x), Some(y)) if y > 0 => {
                    Ok(Linear { q: 0, k: 0, c: if *op == BinOp::Div { x.div_euclid(y) } else { x.rem_euclid(y) } })
                }
                _ => {
                    unsupported(e, format!("`{}` of positions other than the chunk test `q / C == k / C`", op.symbol()))
                }
            }
        }
        _ => unsupported(e, "this operation"),
    }
}

/// `q / C` or `k / C` with a positive constant C: (which position, C).
fn chunk_of(e: &Expr) -> Option<(Var, u64)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Div, a, b) => match (&a.kind, linear(b).ok()?.constant()) {
            (ExprKind::Var(v @ (Var::Q | Var::K)), Some(c)) if c > 0 => Some((*v, c as u64)),
            _ => None,
        },
        _ => None,
    }
}

/// The atoms of `e` (negated where `negate`) into `out`: a conjunction.
fn atoms(e: &Expr, negate: bool, out: &mut BTreeSet<Atom>) -> Result<(), Unsupported> {
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => atoms(a, !negate, out),
        ExprKind::Binary(BinOp::And, a, b) if !negate => {
            atoms(a, false, out)?;
            atoms(b, false, out)
        }
        ExprKind::Binary(BinOp::Or, a, b) if negate => {
            atoms(a, true, out)?;
            atoms(b, true, out)
        }
        ExprKind::Binary(BinOp::And | BinOp::Or, ..) => unsupported(
            e,
            "a union of conditions (`|`, or `!` of an `&`) that no comparison of one position with a constant splits into regions",
        ),
        ExprKind::Binary(op, a, b) => {
            // doc(q) == doc(k): packed batches never attend across sequences, so it always holds.
            if matches!(
                (&a.kind, &b.kind),
                (ExprKind::Var(Var::DocQ), ExprKind::Var(Var::DocK))
                    | (ExprKind::Var(Var::DocK), ExprKind::Var(Var::DocQ))
            ) {
                match (op, negate) {
                    (BinOp::Eq, false) | (BinOp::Ne, true) => return Ok(()),
                    _ => return unsupported(e, "attention across packed sequences"),
                }
            }
            if let (Some((va, ca)), Some((vb, cb))) = (chunk_of(a), chunk_of(b)) {
                if va != vb && ca == cb && matches!((op, negate), (BinOp::Eq, false) | (BinOp::Ne, true)) {
                    out.insert(Atom::SameChunk(ca));
                    return Ok(());
                }
            }
            let (a, b) = (linear(a)?, linear(b)?);
            let overflow = || Unsupported { span: e.span, message: "the constants overflow a 64-bit integer".into() };
            // a OP b as constraints d ≤ 0 over d = a − b (or b − a).
            let diff = |x: Linear, y: Linear| x.add(y.scale(-1)?);
            let (ab, ba) = (diff(a, b).ok_or_else(overflow)?, diff(b, a).ok_or_else(overflow)?);
            let one = Linear { q: 0, k: 0, c: 1 };
            let op = if negate {
                match op {
                    BinOp::Lt => BinOp::Ge,
                    BinOp::Le => BinOp::Gt,
                    BinOp::Gt => BinOp::Le,
                    BinOp::Ge => BinOp::Lt,
                    BinOp::Eq => BinOp::Ne,
                    _ => BinOp::Eq,
                }
            } else {
                *op
            };
            let constraints: Vec<Linear> = match op {
                BinOp::Le => vec![ab],
                BinOp::Lt => vec![ab.add(one).ok_or_else(overflow)?],
                BinOp::Ge => vec![ba],
                BinOp::Gt => vec![ba.add(one).ok_or_else(overflow)?],
                BinOp::Eq => vec![ab, ba],
                _ => return unsupported(e, "`!=` between positions (a union of two half-planes)"),
            };
            out.extend(constraints.into_iter().filter_map(le));
            Ok(())
        }
        _ => unsupported(e, "this condition"),
    }
}

/// The named mask `mask` says, `Mask::None` when it allows every pair. Under a packed (thd)
/// format the caller turns `causal` into `padding_causal` and `none` into `padding`.
pub fn mask(mask: &MaskExpr) -> Result<Mask, Unsupported> {
    let mut set = BTreeSet::new();
    atoms(&mask.0, false, &mut set)?;
    let whole = || Unsupported { span: mask.0.span, message: String::new() };
    if set.contains(&Atom::False) {
        return Err(Unsupported { message: "it allows no pair at all".into(), ..whole() });
    }
    let causal = Atom::Le { q: -1, k: 1, c: 0 };
    if set.is_empty() {
        return Ok(Mask::None);
    }
    if !set.remove(&causal) {
        return Err(Unsupported {
            message: "it has no causal constraint `k <= q` and is not every pair".into(),
            ..whole()
        });
    }
    let (mut window, mut chunk) = (None, None);
    for atom in set {
        match atom {
            // q − k ≤ W − 1: a window of W keys.
            Atom::Le { q: 1, k: -1, c } if c <= 0 => {
                let w = 1 - c as i128;
                window = Some(window.map_or(w, |v: i128| v.min(w)));
            }
            // k − q ≤ c with c ≤ 0 is implied by `k <= q`.
            Atom::Le { q: -1, k: 1, c } if c <= 0 => {}
            Atom::SameChunk(c) if chunk.is_none() => chunk = Some(c),
            Atom::SameChunk(_) => {
                return Err(Unsupported { message: "two chunk sizes in one mask".into(), ..whole() });
            }
            Atom::Le { .. } | Atom::False => {
                return Err(Unsupported {
                    message: "a constraint other than `k <= q`, a window `q - k < W` and a chunk `q / C == k / C`"
                        .into(),
                    ..whole()
                });
            }
        }
    }
    Ok(Mask::Causal { window: window.map(|w| w.min(u64::MAX as i128) as u64), chunk })
}

/// The band of diagonals `mask` says, `lo ≤ q − k < end`: a conjunction of bounds on `q - k`
/// (`None`: it allows no pair). Regions read each cell's rule with it, once the comparisons the
/// cell decides are gone.
pub fn band(mask: &MaskExpr) -> Result<Option<Band>, Unsupported> {
    let mut set = BTreeSet::new();
    atoms(&mask.0, false, &mut set)?;
    let (mut lo, mut end): (Option<i64>, Option<i64>) = (None, None);
    for atom in set {
        match atom {
            Atom::False => return Ok(None),
            // q − k + c ≤ 0: q − k < 1 − c.
            Atom::Le { q: 1, k: -1, c } => {
                let e = 1i64.saturating_sub(c);
                end = Some(end.map_or(e, |x| x.min(e)));
            }
            // k − q + c ≤ 0: q − k ≥ c.
            Atom::Le { q: -1, k: 1, c } => lo = Some(lo.map_or(c, |x| x.max(c))),
            Atom::SameChunk(_) => return unsupported(&mask.0, "chunks in a mask of several regions"),
            Atom::Le { .. } => {
                return unsupported(
                    &mask.0,
                    "a constraint that is not a bound on `q - k` (a band of diagonals) inside a region",
                );
            }
        }
    }
    if lo.zip(end).is_some_and(|(lo, end)| lo >= end) {
        return Ok(None);
    }
    Ok(Some(Band { lo, end }))
}

/// A band holding every pair `mask` allows (`None`: it allows none), for a mask that is no band:
/// what the planner and the kernels' tile bounds follow while the kernels test the mask itself
/// ([`super::score::of_masked`]). Bounds on `q - k` narrow it, `&` intersects, `|` joins (from
/// the lower of the lowest sides to the higher of the highest), and any other condition (`q + k
/// < N`, `(q - k) % 2 == 0`, a chunk test) is taken as every pair, so the band is sound for any
/// mask and exact for a band.
pub fn hull(mask: &MaskExpr) -> Option<Band> {
    fn meet(a: Option<Band>, b: Option<Band>) -> Option<Band> {
        let (a, b) = (a?, b?);
        let lo = match (a.lo, b.lo) {
            (Some(x), Some(y)) => Some(x.max(y)),
            (x, y) => x.or(y),
        };
        let end = match (a.end, b.end) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        (lo.zip(end).is_none_or(|(lo, end)| lo < end)).then_some(Band { lo, end })
    }
    fn join(a: Option<Band>, b: Option<Band>) -> Option<Band> {
        match (a, b) {
            (Some(a), Some(b)) => {
                Some(Band { lo: a.lo.zip(b.lo).map(|(x, y)| x.min(y)), end: a.end.zip(b.end).map(|(x, y)| x.max(y)) })
            }
            (a, b) => a.or(b),
        }
    }
    fn walk(e: &Expr, negate: bool) -> Option<Band> {
        match &e.kind {
            ExprKind::Unary(UnOp::Not, a) => walk(a, !negate),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let (a, b) = (walk(a, negate), walk(b, negate));
                if (*op == BinOp::And) != negate { meet(a, b) } else { join(a, b) }
            }
            // One comparison: the band its atoms say when they are bounds on q − k, else every
            // pair.
            _ => {
                let mut set = BTreeSet::new();
                if atoms(e, negate, &mut set).is_err() {
                    return Some(Band::NONE);
                }
                let mut band = Some(Band::NONE);
                for atom in set {
                    let side = match atom {
                        Atom::False => return None,
                        Atom::Le { q: 1, k: -1, c } => Band { lo: None, end: Some(1i64.saturating_sub(c)) },
                        Atom::Le { q: -1, k: 1, c } => Band { lo: Some(c), end: None },
                        Atom::Le { .. } | Atom::SameChunk(_) => Band::NONE,
                    };
                    band = meet(band, Some(side));
                }
                band
            }
        }
    }
    walk(&mask.0, false)
}

/// The soft-cap a score expression says: `None` for the plain score `s`, `Some(X)` for
/// `X * tanh(s / X)` (either order of the product).
pub fn softcap(score: &Expr) -> Result<Option<f64>, Unsupported> {
    let constant = |e: &Expr| match &e.kind {
        ExprKind::Int(i) => Some(*i as f64),
        ExprKind::Float(f) => Some(*f),
        _ => None,
    };
    let capped = |cap: &Expr, call: &Expr| -> Option<f64> {
        let x = constant(cap)?;
        let ExprKind::Call(Func::Tanh, args) = &call.kind else { return None };
        let ExprKind::Binary(BinOp::Div, s, d) = &args[0].kind else { return None };
        (matches!(s.kind, ExprKind::Var(Var::S)) && constant(d) == Some(x) && x > 0.0).then_some(x)
    };
    match &score.kind {
        ExprKind::Var(Var::S) => Ok(None),
        ExprKind::Binary(BinOp::Mul, a, b) => match capped(a, b).or_else(|| capped(b, a)) {
            Some(x) => Ok(Some(x)),
            None => unsupported(score, "it is not `s` or the soft-cap `X * tanh(s / X)`"),
        },
        _ => unsupported(score, "it is not `s` or the soft-cap `X * tanh(s / X)`"),
    }
}
