//! The named masks as library expressions: `causal`, its `window` and `chunk`, and the
//! document rule of packed (THD) batches, each written once here as the text a user could write.
//! Padding is not part of a mask: padded tokens are outside every sequence (`Doc::len`), so no
//! expression sees them.

use super::{MaskExpr, parse};
use crate::spec::Mask;

/// The expression text of a mask (`None`: every pair of a sequence is allowed); a regional or
/// per-head mask's is the expression it was written as.
pub fn text(mask: Mask) -> Option<String> {
    let (causal, window, chunk) = match mask {
        Mask::None | Mask::Padding => return None,
        Mask::Regions { regions, .. } => return Some(regions.text.clone()),
        Mask::Heads { heads } => return Some(heads.text.clone()),
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

/// ALiBi's slope of query head `head` among `heads` (Press et al., "Train Short, Test Long",
/// the `get_slopes` of its code, as Hugging Face's `build_alibi_tensor` computes it): with `n`
/// the largest power of two ≤ `heads`, heads below `n` take 2^(−8(h+1)/n) and the rest the odd
/// steps of the 2n series, 2^(−4(2j+1)/n) for `h = n + j`. `None` when `head` is not one of
/// the `heads`.
pub fn alibi_slope(head: i64, heads: i64) -> Option<f64> {
    if heads < 1 || !(0..heads).contains(&head) {
        return None;
    }
    let n = 1i64 << (63 - heads.leading_zeros());
    let exponent =
        if head < n { -8.0 * (head + 1) as f64 / n as f64 } else { -4.0 * (2 * (head - n) + 1) as f64 / n as f64 };
    Some(exponent.exp2())
}

#[cfg(test)]
mod tests {
    use super::alibi_slope;

    #[test]
    fn alibi_slopes_are_the_papers() {
        // get_slopes(8) and get_slopes(12) of the ALiBi code (ofirpress/attention_with_linear_biases).
        let eight: Vec<f64> = (0..8).map(|h| alibi_slope(h, 8).unwrap()).collect();
        assert_eq!(eight, [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]);
        let twelve: Vec<f64> = (8..12).map(|h| alibi_slope(h, 12).unwrap()).collect();
        // get_slopes(16)[0::2][:4]: 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
        let r = std::f64::consts::FRAC_1_SQRT_2;
        let expect = [r, r / 2.0, r / 4.0, r / 8.0];
        for (got, want) in twelve.iter().zip(expect) {
            assert!((got - want).abs() < 1e-15, "{got} vs {want}");
        }
        assert_eq!(alibi_slope(0, 12), Some(0.5));
        assert_eq!(alibi_slope(12, 12), None);
        assert_eq!(alibi_slope(-1, 12), None);
        assert_eq!(alibi_slope(0, 1), Some(2f64.powi(-8)));
    }
}
