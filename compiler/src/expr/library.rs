//! The named masks as library expressions: `causal`, its `window` and `chunk`, and the
//! document rule of packed (THD) batches, each written once here as the text a user could write.
//! Padding is not part of a mask: padded tokens are outside every sequence (`Doc::len`), so no
//! expression sees them.

use super::{MaskExpr, parse};
use crate::spec::Mask;

/// The expression text of a mask (`None`: every pair of a sequence is allowed); a regional
/// mask's is the expression it was written as.
pub fn text(mask: Mask) -> Option<String> {
    let (causal, window, chunk) = match mask {
        Mask::None | Mask::Padding => return None,
        Mask::Regions { regions, .. } => return Some(regions.text.clone()),
        Mask::Causal { window, chunk } | Mask::PaddingCausal { window, chunk } => (true, window, chunk),
    };
    let mut parts = Vec::new();
    if causal {
        parts.push("k <= q".to_string());
    }
    if let Some(w) = window {
        parts.push(format!("q - k < {w}"));
    }
    if let Some(c) = chunk {
        parts.push(format!("q / {c} == k / {c}"));
    }
    Some(parts.join(" & "))
}

/// A named mask as a checked expression over positions within a sequence (`None`: no mask).
pub fn expr(mask: Mask) -> Option<MaskExpr> {
    text(mask).map(|t| {
        let e = parse::parse(&t).expect("the library's masks parse");
        MaskExpr::new(e).expect("the library's masks type-check")
    })
}

/// The same over packed sequences: a pair is allowed only within one sequence.
pub fn expr_in_documents(mask: Mask) -> MaskExpr {
    let t = match text(mask) {
        Some(t) => format!("doc(q) == doc(k) & ({t})"),
        None => "doc(q) == doc(k)".to_string(),
    };
    MaskExpr::new(parse::parse(&t).expect("the library's masks parse")).expect("the library's masks type-check")
}

/// `softcap = X` as the score expression it names.
pub fn softcap(cap: f64) -> String {
    format!("{cap} * tanh(s / {cap})")
}
