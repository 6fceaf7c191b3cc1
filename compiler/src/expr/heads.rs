//! Masks that read the query head `h` (a per-head window): for every head of the model the
//! expression is decided at that head — `h` replaced by the head, what no pair of positions can
//! change decided (`regions::simplify` over every position), `&`, `|` and `!` simplified — and
//! what remains is read as a named mask (`named.rs`).
//! Consecutive heads with the same mask form a class ([`HeadMasks`]). The planner and the
//! communication follow the classes' union; each class's launches apply its own mask
//! (`kernel::launch`), so no backend has code for heads either.

use super::{Expr, ExprKind, MaskExpr, Var, named};
use crate::spec::{END, HeadClass, HeadMasks, Mask};

/// Why a per-head mask is not one attnc compiles.
pub type Unsupported = named::Unsupported;

/// `e` with `h` replaced by `head`.
fn at_head(e: &Expr, head: i64) -> Expr {
    let kind = match &e.kind {
        ExprKind::Var(Var::H) => ExprKind::Int(head),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(at_head(a, head))),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, Box::new(at_head(a, head)), Box::new(at_head(b, head))),
        ExprKind::Call(f, args) => ExprKind::Call(*f, args.iter().map(|a| at_head(a, head)).collect()),
        other => other.clone(),
    };
    Expr::new(kind, e.span)
}

/// The causal order and window of `mask` at one head (`Err`: why not a named mask there).
fn at(mask: &MaskExpr, head: u32) -> Result<(bool, Option<u64>), Unsupported> {
    let at = |message: String| Unsupported { span: mask.0.span, message };
    // Every position at once: what the tile decides (comparisons of constants, and those that hold
    // for every pair of positions) goes, the rest is read as a named mask.
    let everywhere = super::interval::Tile {
        q: (0, END as i64 - 1),
        k: (0, END as i64 - 1),
        h: (head as i64, head as i64),
        doc_q: (0, 0),
        doc_k: (0, 0),
    };
    let rest = match super::regions::simplify(&at_head(&mask.0, head as i64), &everywhere) {
        Err(true) => return Ok((false, None)),
        Err(false) => return Err(at(format!("head {head} sees no key"))),
        Ok(rest) => rest,
    };
    match named::mask(&MaskExpr(rest)) {
        Ok(Mask::None) => Ok((false, None)),
        Ok(Mask::Causal { window, chunk: None }) => Ok((true, window)),
        Ok(_) => Err(at(format!("at head {head} it has chunks, which a per-head mask cannot vary"))),
        Err(u) => Err(Unsupported { span: u.span, message: format!("at head {head}, {}", u.message) }),
    }
}

/// The head classes of `mask` over the model's `heads` heads (`padding` under thd), when the
/// mask reads `h`; one class is a mask that does not depend on the head after all.
pub fn of(mask: &MaskExpr, heads: u32, padding: bool) -> Result<HeadMasks, Unsupported> {
    let mut classes: Vec<HeadClass> = Vec::new();
    for head in 0..heads {
        let (causal, window) = at(mask, head)?;
        match classes.last_mut() {
            Some(c) if c.causal == causal && c.window == window => c.end = head + 1,
            _ => classes.push(HeadClass { first: head, end: head + 1, causal, window }),
        }
    }
    Ok(HeadMasks { text: mask.0.to_string(), classes, padding })
}

/// The one `&'static` copy of `m`: masks hold head classes by reference so that they stay `Copy`.
pub fn intern(m: HeadMasks) -> &'static HeadMasks {
    static TABLE: std::sync::Mutex<Vec<&'static HeadMasks>> = std::sync::Mutex::new(Vec::new());
    super::intern(&TABLE, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (first head, end, causal, window) of each class.
    type Classes = Vec<(u32, u32, bool, Option<u64>)>;

    fn classes(text: &str, heads: u32) -> Result<Classes, String> {
        let mask = MaskExpr::new(super::super::parse::parse(text).unwrap()).unwrap();
        of(&mask, heads, false)
            .map(|m| m.classes.iter().map(|c| (c.first, c.end, c.causal, c.window)).collect())
            .map_err(|u| u.message)
    }

    #[test]
    fn heads_are_decided_one_by_one_and_grouped() {
        assert_eq!(classes("k <= q & (h < 4 | q - k < 128)", 8), Ok(vec![(0, 4, true, None), (4, 8, true, Some(128))]));
        // A window that grows with the head, and heads that see everything.
        assert_eq!(
            classes("h >= 6 | (k <= q & q - k < 64 * (h / 2 + 1))", 8),
            Ok(vec![(0, 2, true, Some(64)), (2, 4, true, Some(128)), (4, 6, true, Some(192)), (6, 8, false, None)])
        );
        assert_eq!(classes("k <= q & !(h == 1)", 3), Err("head 1 sees no key".into()));
        assert_eq!(
            classes("k <= q & (h < 1 | q / 8 == k / 8)", 2),
            Err("at head 1 it has chunks, which a per-head mask cannot vary".into())
        );
        let union =
            of(&MaskExpr::new(super::super::parse::parse("k <= q & (h < 4 | q - k < 128)").unwrap()).unwrap(), 8, true)
                .unwrap()
                .union();
        assert_eq!(union, Mask::PADDING_CAUSAL);
    }
}
