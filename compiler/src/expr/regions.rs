//! Masks that are a band of diagonals region by region: cuts on the query axis and on the key
//! axis (positions within the sequence) make a grid, and in each cell the mask is empty or a band
//! `lo ≤ q − k < end` (every pair, causal, a causal window, a two-sided window, ...). Prefix-LM
//! (`k <= q | k < P`: full keys below P, causal after), global tokens with a window
//! (`k < G | q < G | (k <= q & q - k < W)`) and Longformer's two-sided window
//! (`q - k < W & k - q < W`, one region) are such masks.
//!
//! The cuts come from the comparisons that read one position (`k < 64`); in each cell those
//! comparisons are decided, the expression is simplified, and what remains is read as a band
//! (`named::band`) — exactly, so each cell's rule equals the expression at every pair of the
//! cell. The planner counts, classifies and finds needed keys cell by cell with the bands' closed
//! forms, and the runtime cuts runs at the cuts, so each run pair gets one kernel band, which
//! every kernel set lowers: no backend has code for regions.

use super::{BinOp, Expr, ExprKind, MaskExpr, UnOp, Var, named};
use crate::spec::Band;
/// The regions' data types live with the masks that hold them (`spec`).
pub use crate::spec::{Cell, END, Regions};

/// The one `&'static` copy of `r`: masks hold regions by reference so that they stay `Copy`.
/// A process leaks one copy per distinct mask it reads.
pub fn intern(r: Regions) -> &'static Regions {
    static TABLE: std::sync::Mutex<Vec<&'static Regions>> = std::sync::Mutex::new(Vec::new());
    super::intern(&TABLE, r)
}

/// The cut points of the comparisons of `e` that read one position: where their truth may
/// change (either side of the root, so an integer root and a fractional one both cut).
fn cuts(e: &Expr, q: &mut Vec<u64>, k: &mut Vec<u64>) {
    match &e.kind {
        ExprKind::Unary(_, a) => cuts(a, q, k),
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            // a − b as a linear function (`named::linear`); a cut where it reads one position.
            let Some(d) = named::linear(a).ok().zip(named::linear(b).ok()).and_then(|(a, b)| a.add(b.scale(-1)?))
            else {
                return;
            };
            let (var, slope, c) = match (d.q, d.k) {
                (0, 0) => return,
                (s, 0) => (Var::Q, s as i128, d.c as i128),
                (0, s) => (Var::K, s as i128, d.c as i128),
                _ => return,
            };
            // slope·x + c crosses 0 at x = −c / slope.
            let root = (-c).div_euclid(slope);
            // The truth of a comparison changes at ⌊root⌋ (`<` at an integer root) or one after.
            for x in [root, root + 1] {
                if x > 0 && x < END as i128 {
                    if var == Var::Q { q.push(x as u64) } else { k.push(x as u64) }
                }
            }
        }
        ExprKind::Binary(_, a, b) => {
            cuts(a, q, k);
            cuts(b, q, k);
        }
        _ => {}
    }
}

/// `e` with every comparison that the cell decides replaced by its value (`None`: the whole
/// expression is decided, with that value in `Err`).
pub(super) fn simplify(e: &Expr, tile: &super::interval::Tile) -> Result<Expr, bool> {
    let decided = |x: &Expr| match super::interval::classify(&MaskExpr(x.clone()), tile) {
        super::interval::TileClass::Full => Some(true),
        super::interval::TileClass::Empty => Some(false),
        super::interval::TileClass::Partial => None,
    };
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => match simplify(a, tile) {
            Ok(a) => Ok(Expr::new(ExprKind::Unary(UnOp::Not, Box::new(a)), e.span)),
            Err(v) => Err(!v),
        },
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            let absorbing = *op == BinOp::Or;
            match (simplify(a, tile), simplify(b, tile)) {
                (Err(v), _) | (_, Err(v)) if v == absorbing => Err(absorbing),
                (Err(_), Err(_)) => Err(!absorbing),
                (Err(_), Ok(x)) | (Ok(x), Err(_)) => Ok(x),
                (Ok(x), Ok(y)) => Ok(Expr::new(ExprKind::Binary(*op, Box::new(x), Box::new(y)), e.span)),
            }
        }
        _ => match decided(e) {
            Some(v) => Err(v),
            None => Ok(e.clone()),
        },
    }
}

/// The regions of `mask`, when it is a named mask cell by cell (and not one named mask
/// everywhere: [`named::mask`] reads those).
pub fn of(mask: &MaskExpr) -> Result<Regions, named::Unsupported> {
    if let Some(e) = find(&mask.0, &|e| matches!(e.kind, ExprKind::Var(Var::H))) {
        return Err(named::Unsupported { span: e.span, message: "it depends on the head `h`".into() });
    }
    over_heads(mask, 1)
}

/// [`of`] for a mask that may read the head `h` among `heads` heads: each cell's band holds what
/// every head allows there, and a cell where the mask differs by head is no band, so the kernels
/// test the mask (with the head) at each pair. For a per-head mask that is no band at some head
/// (`expr::heads` reads those that are).
pub fn over_heads(mask: &MaskExpr, heads: u32) -> Result<Regions, named::Unsupported> {
    if let Some(e) = stray_doc(&mask.0) {
        return Err(named::Unsupported {
            span: e.span,
            message:
                "`doc(q)` or `doc(k)` outside a comparison of the two (pairs across packed sequences are never allowed)"
                    .into(),
        });
    }
    let (mut q_cuts, mut k_cuts) = (Vec::new(), Vec::new());
    cuts(&mask.0, &mut q_cuts, &mut k_cuts);
    for c in [&mut q_cuts, &mut k_cuts] {
        c.sort_unstable();
        c.dedup();
    }
    if q_cuts.len() * k_cuts.len() > 4096 {
        return Err(named::Unsupported { span: mask.0.span, message: "more than 4096 regions".into() });
    }
    if let Some(e) = cross_doc(&mask.0, true) {
        return Err(named::Unsupported {
            span: e.span,
            message: "attention across packed sequences (a mask may only require `doc(q) == doc(k)`, as one of the conditions joined by `&`)".into(),
        });
    }
    let (nq, nk) = (q_cuts.len() + 1, k_cuts.len() + 1);
    let mut cells = Vec::with_capacity(nq * nk);
    let mut predicate = false;
    for i in 0..nq {
        for j in 0..nk {
            let (q0, q1) = Regions::span(&q_cuts, i);
            let (k0, k1) = Regions::span(&k_cuts, j);
            let tile = super::interval::Tile {
                q: (q0 as i64, q1 as i64 - 1),
                k: (k0 as i64, k1 as i64 - 1),
                h: (0, heads.max(1) as i64 - 1),
                doc_q: (0, 0),
                doc_k: (0, 0),
            };
            let cell = match simplify(&mask.0, &tile) {
                Err(true) => Cell::FULL,
                Err(false) => Cell::Empty,
                Ok(rest) => {
                    let rest = MaskExpr(rest);
                    // No band here: a band holding every allowed pair, and the kernels test the mask.
                    let band = named::band(&rest).unwrap_or_else(|_| {
                        predicate = true;
                        named::hull(&rest)
                    });
                    band.map_or(Cell::Empty, |band| in_cell(band, (q0, q1 - 1), (k0, k1 - 1)))
                }
            };
            cells.push(cell);
        }
    }
    let mut r = Regions { text: mask.0.to_string(), q_cuts, k_cuts, cells, predicate };
    merge(&mut r);
    Ok(r)
}

/// Band `b` as the rule of the cell of query positions `q` × key positions `k` (inclusive):
/// empty or full where it hides all or none of the cell's pairs, else `b` with a side that cuts
/// no pair of the cell dropped, and the lower side written `k <= q` where every key of the cell
/// is at or before every query (so `q - k < W` there reads as the causal window it equals).
pub(super) fn in_cell(b: Band, q: (u64, u64), k: (u64, u64)) -> Cell {
    let (q, k) = ((q.0 as i64, q.1 as i64), (k.0 as i64, k.1 as i64));
    match b.on(q, k) {
        None => Cell::Empty,
        Some(b) if b.is_none() => Cell::FULL,
        Some(b) => {
            let (least, most) = (q.0 - k.1, q.1 - k.0);
            let end = b.end.filter(|&e| e <= most);
            let lo = b.lo.filter(|&l| l > least).or((least >= 0).then_some(0));
            Cell::Band(Band { lo, end })
        }
    }
}

/// The first node of `e` (preorder) that `f` picks.
fn find<'e>(e: &'e Expr, f: &impl Fn(&Expr) -> bool) -> Option<&'e Expr> {
    if f(e) {
        return Some(e);
    }
    match &e.kind {
        ExprKind::Unary(_, a) => find(a, f),
        ExprKind::Binary(_, a, b) => find(a, f).or_else(|| find(b, f)),
        ExprKind::Call(_, args) => args.iter().find_map(|a| find(a, f)),
        _ => None,
    }
}

/// A comparison of `doc(q)` with `doc(k)` other than `doc(q) == doc(k)` as a conjunct of the
/// whole mask (`top`: reached through `&` only): anything else would allow pairs across packed
/// sequences somewhere, which attnc never computes.
/// A comparison of `doc(q)` with `doc(k)` that would allow pairs across packed sequences (any
/// but a `doc(q) == doc(k)` that the whole mask requires).
pub fn across_docs(mask: &MaskExpr) -> Option<(usize, usize)> {
    cross_doc(&mask.0, true).map(|e| e.span)
}

/// `mask` within one packed sequence, the only pairs attnc computes: its comparisons of `doc(q)`
/// with `doc(k)` decided (`doc(q) == doc(k)` holds), and what holds for every pair of positions
/// and heads with them (`Err`: the mask is then decided, every pair or none).
pub fn within_one_doc(mask: &MaskExpr) -> Result<Expr, bool> {
    let every = (0, END as i64 - 1);
    simplify(&mask.0, &super::interval::Tile { q: every, k: every, h: every, doc_q: (0, 0), doc_k: (0, 0) })
}

fn cross_doc(e: &Expr, top: bool) -> Option<&Expr> {
    let is_doc = |x: &Expr| matches!(x.kind, ExprKind::Var(Var::DocQ | Var::DocK));
    match &e.kind {
        ExprKind::Binary(op, a, b) if op.is_comparison() && is_doc(a) && is_doc(b) => {
            (!(top && *op == BinOp::Eq)).then_some(e)
        }
        ExprKind::Binary(op, a, b) => {
            let top = top && *op == BinOp::And;
            cross_doc(a, top).or_else(|| cross_doc(b, top))
        }
        ExprKind::Unary(_, a) => cross_doc(a, false),
        _ => None,
    }
}

/// A `doc(q)` or `doc(k)` that is not one side of a comparison with the other.
fn stray_doc(e: &Expr) -> Option<&Expr> {
    let is_doc = |x: &Expr| matches!(x.kind, ExprKind::Var(Var::DocQ | Var::DocK));
    match &e.kind {
        ExprKind::Binary(op, a, b) if op.is_comparison() && is_doc(a) && is_doc(b) => None,
        ExprKind::Var(Var::DocQ | Var::DocK) => Some(e),
        ExprKind::Unary(_, a) => stray_doc(a),
        ExprKind::Binary(_, a, b) => stray_doc(a).or_else(|| stray_doc(b)),
        ExprKind::Call(_, args) => args.iter().find_map(stray_doc),
        _ => None,
    }
}

/// The distances `q - k` a rule allows, inclusive (`None`: none).
fn distances(cell: Cell) -> Option<(i128, i128)> {
    let b = cell.band()?;
    Some((b.lo.map_or(i128::MIN, i128::from), b.end.map_or(i128::MAX, |e| i128::from(e) - 1)))
}

/// Whether rules `a` and `b` agree at every pair of the rectangle `q` × `k` (half-open). Every
/// rule depends on `q - k` only and a rectangle holds every distance between its extremes, so
/// they agree when their distance sets meet that range alike.
fn agree(a: Cell, b: Cell, q: (u64, u64), k: (u64, u64)) -> bool {
    let (lo, hi) = (q.0 as i128 - (k.1 as i128 - 1), (q.1 as i128 - 1) - k.0 as i128);
    let clip = |c: Cell| distances(c).map(|(a, b)| (a.max(lo), b.min(hi))).filter(|(a, b)| a <= b);
    clip(a) == clip(b)
}

/// One rule for two neighbouring cells (`a` over `qa` × `ka`, `b` over `qb` × `kb`), if one of
/// theirs is exact over both.
fn unify(a: Cell, qa: (u64, u64), ka: (u64, u64), b: Cell, qb: (u64, u64), kb: (u64, u64)) -> Option<Cell> {
    if agree(a, b, qb, kb) {
        Some(a)
    } else if agree(b, a, qa, ka) {
        Some(b)
    } else {
        None
    }
}

/// Drops cuts whose two sides can share one rule, cell by cell.
fn merge(r: &mut Regions) {
    let mut i = 1;
    while i < r.q_cells() {
        let nk = r.k_cells();
        let (qa, qb) = (Regions::span(&r.q_cuts, i - 1), Regions::span(&r.q_cuts, i));
        let joined: Option<Vec<Cell>> = (0..nk)
            .map(|j| {
                let k = Regions::span(&r.k_cuts, j);
                unify(r.cell(i - 1, j), qa, k, r.cell(i, j), qb, k)
            })
            .collect();
        match joined {
            Some(cells) => {
                r.cells.splice((i - 1) * nk..(i + 1) * nk, cells);
                r.q_cuts.remove(i - 1);
            }
            None => i += 1,
        }
    }
    let mut j = 1;
    while j < r.k_cells() {
        let nk = r.k_cells();
        let (ka, kb) = (Regions::span(&r.k_cuts, j - 1), Regions::span(&r.k_cuts, j));
        let joined: Option<Vec<Cell>> = (0..r.q_cells())
            .map(|i| {
                let q = Regions::span(&r.q_cuts, i);
                unify(r.cell(i, j - 1), q, ka, r.cell(i, j), q, kb)
            })
            .collect();
        match joined {
            Some(cells) => {
                for (i, cell) in cells.into_iter().enumerate().rev() {
                    r.cells[i * nk + j - 1] = cell;
                    r.cells.remove(i * nk + j);
                }
                r.k_cuts.remove(j - 1);
            }
            None => j += 1,
        }
    }
}
