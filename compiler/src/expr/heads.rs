//! Masks that read the query head `h` (a per-head window): for every head of the model the
//! expression is decided at that head — `h` replaced by the head, what no pair of positions can
//! change decided (`regions::simplify` over every position), `&`, `|` and `!` simplified — and
//! what remains is read as a band of diagonals (`named::band`: `k <= q`, a causal or two-sided
//! window, every pair). Consecutive heads with the same band form a class ([`HeadMasks`]). The
//! planner and the communication follow the classes' hull; each class's launches apply its own
//! band (`kernel::launch`), so no backend has code for heads either.

use super::{Expr, ExprKind, MaskExpr, Var, named, regions};
use crate::spec::{Band, Cell, END, HeadClass, HeadMasks};

/// Why a per-head mask is not one attnc compiles.
pub type Unsupported = named::Unsupported;

/// Why a per-head mask has no classes of bands.
#[derive(Clone, Debug, PartialEq)]
pub enum NoClasses {
    /// A head sees no key: an error whatever the plan.
    SeesNothing(Unsupported),
    /// Some head's mask is no band (a stride, chunks): the kernels test it per pair instead.
    NoBand(Unsupported),
}

impl NoClasses {
    pub fn reason(self) -> Unsupported {
        match self {
            NoClasses::SeesNothing(u) | NoClasses::NoBand(u) => u,
        }
    }
}

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

/// The band of `mask` at one head (`Err`: why it is not a band there).
fn at(mask: &MaskExpr, head: u32) -> Result<Band, NoClasses> {
    let nothing =
        || NoClasses::SeesNothing(Unsupported { span: mask.0.span, message: format!("head {head} sees no key") });
    // Every position at once: what the tile decides (comparisons of constants, and those that hold
    // for every pair of positions) goes, the rest is read as a band.
    let everywhere = super::interval::Tile {
        q: (0, END as i64 - 1),
        k: (0, END as i64 - 1),
        h: (head as i64, head as i64),
        doc_q: (0, 0),
        doc_k: (0, 0),
    };
    let rest = match regions::simplify(&at_head(&mask.0, head as i64), &everywhere) {
        Err(true) => return Ok(Band::NONE),
        Err(false) => return Err(nothing()),
        Ok(rest) => MaskExpr(rest),
    };
    match named::band(&rest) {
        Ok(Some(band)) => match regions::in_cell(band, (0, END - 1), (0, END - 1)) {
            Cell::Band(band) => Ok(band),
            Cell::Empty => Err(nothing()),
        },
        Ok(None) => Err(nothing()),
        // A chunked mask reads as a named one; a per-head mask cannot vary it.
        Err(_) if named::mask(&rest).is_ok_and(|m| m.chunk().is_some()) => Err(NoClasses::NoBand(Unsupported {
            span: mask.0.span,
            message: format!("at head {head} it has chunks, which a per-head mask cannot vary"),
        })),
        Err(u) => Err(NoClasses::NoBand(Unsupported {
            span: u.span,
            message: format!("at head {head}, {}", u.message.replace(" inside a region", "")),
        })),
    }
}

/// The head classes of `mask` over the model's `heads` heads (`padding` under thd), when the
/// mask reads `h`; one class is a mask that does not depend on the head after all.
pub fn of(mask: &MaskExpr, heads: u32, padding: bool) -> Result<HeadMasks, NoClasses> {
    let mut classes: Vec<HeadClass> = Vec::new();
    for head in 0..heads {
        let band = at(mask, head)?;
        match classes.last_mut() {
            Some(c) if c.band == band => c.end = head + 1,
            _ => classes.push(HeadClass { first: head, end: head + 1, band }),
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

    /// (first head, end, band) of each class.
    type Classes = Vec<(u32, u32, Band)>;

    fn parse(text: &str) -> MaskExpr {
        MaskExpr::new(super::super::parse::parse(text).unwrap()).unwrap()
    }

    fn classes(text: &str, heads: u32) -> Result<Classes, String> {
        of(&parse(text), heads, false)
            .map(|m| m.classes.iter().map(|c| (c.first, c.end, c.band)).collect())
            .map_err(|u| u.reason().message)
    }

    #[test]
    fn heads_are_decided_one_by_one_and_grouped() {
        let (causal, window) = (Band::CAUSAL, Band::window);
        assert_eq!(classes("k <= q & (h < 4 | q - k < 128)", 8), Ok(vec![(0, 4, causal), (4, 8, window(128))]));
        // A window that grows with the head, and heads that see everything.
        assert_eq!(
            classes("h >= 6 | (k <= q & q - k < 64 * (h / 2 + 1))", 8),
            Ok(vec![(0, 2, window(64)), (2, 4, window(128)), (4, 6, window(192)), (6, 8, Band::NONE)])
        );
        // Two-sided windows, and keys strictly before the query.
        let two_sided = Band { lo: Some(-7), end: Some(40) };
        assert_eq!(
            classes("(h < 2 | k <= q) & q - k < 40 & k - q < 8", 4),
            Ok(vec![(0, 2, two_sided), (2, 4, window(40))])
        );
        assert_eq!(
            classes("k < q | h == 1", 3),
            Ok(vec![
                (0, 1, Band { lo: Some(1), end: None }),
                (1, 2, Band::NONE),
                (2, 3, Band { lo: Some(1), end: None })
            ])
        );
        assert_eq!(classes("k <= q & !(h == 1)", 3), Err("head 1 sees no key".into()));
        assert_eq!(classes("q - k < 4 & k - q < -4 | h == 0", 2), Err("head 1 sees no key".into()));
        assert_eq!(
            classes("k <= q & (h < 1 | q / 8 == k / 8)", 2),
            Err("at head 1 it has chunks, which a per-head mask cannot vary".into())
        );
        assert_eq!(
            classes("h < 1 | q + k < 64", 2),
            Err("at head 1, a constraint that is not a bound on `q - k` (a band of diagonals)".into())
        );
    }

    /// The planner follows the hull: a name where one covers it, else one regional cell.
    #[test]
    fn the_hull_holds_every_class() {
        let heads = of(&parse("k <= q & (h < 4 | q - k < 128)"), 8, true).unwrap();
        assert_eq!(
            (heads.hull(), heads.union(), heads.hull_regions()),
            (Band::CAUSAL, Some(crate::spec::Mask::PADDING_CAUSAL), None)
        );
        let heads = of(&parse("(h < 2 | k <= q) & q - k < 40 & k - q < 8"), 4, false).unwrap();
        let hull = Band { lo: Some(-7), end: Some(40) };
        assert_eq!((heads.hull(), heads.union()), (hull, None));
        let regions = heads.hull_regions().unwrap();
        assert_eq!(
            (regions.q_cuts.len(), regions.k_cuts.len(), regions.cells.as_slice()),
            (0, 0, &[Cell::Band(hull)][..])
        );
    }
}
