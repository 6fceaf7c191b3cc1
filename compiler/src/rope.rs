//! RoPE's frequencies and attention factor for a resolved `rope` block, scaling included.
//!
//! The definitions are those of transformers' RoPE initialisation functions
//! (`modeling_rope_utils`: default, linear, llama3, yarn), evaluated in fp64; the Python tests
//! compare these values with what those functions compute for the same config. The executor
//! and the fp64 reference rotate with them (`runtime::exec::rows`, `runtime::reference`).

use crate::spec::{Rope, RopeScaling};
use std::f64::consts::PI;

impl Rope {
    /// The inverse frequency of each rotated pair i < dims/2: θ^(−2i/dims), then scaled.
    pub fn inv_freqs(&self) -> Vec<f64> {
        let dims = self.dims as f64;
        let base: Vec<f64> = (0..self.dims / 2).map(|i| self.theta.powf(-2.0 * i as f64 / dims)).collect();
        match self.scaling {
            None => base,
            Some(RopeScaling::Linear { factor }) => base.iter().map(|f| f / factor).collect(),
            Some(RopeScaling::Llama3 { factor, original, low_freq_factor, high_freq_factor }) => {
                let original = original as f64;
                let (low_wavelen, high_wavelen) = (original / low_freq_factor, original / high_freq_factor);
                base.iter()
                    .map(|&f| {
                        let wavelen = 2.0 * PI / f;
                        if wavelen > low_wavelen {
                            f / factor
                        } else if wavelen < high_wavelen || low_freq_factor == high_freq_factor {
                            f
                        } else {
                            let smooth = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor);
                            (1.0 - smooth) * f / factor + smooth * f
                        }
                    })
                    .collect()
            }
            Some(RopeScaling::Yarn { factor, original, beta_fast, beta_slow, truncate, .. }) => {
                // The dim whose pair turns `rotations` times over `original` positions.
                let dim_of =
                    |rotations: f64| dims * (original as f64 / (rotations * 2.0 * PI)).ln() / (2.0 * self.theta.ln());
                let (mut low, mut high) = (dim_of(beta_fast), dim_of(beta_slow));
                if truncate {
                    (low, high) = (low.floor(), high.ceil());
                }
                let (low, mut high) = (low.max(0.0), high.min(dims - 1.0));
                if low == high {
                    high += 0.001;
                }
                base.iter()
                    .enumerate()
                    .map(|(i, &f)| {
                        // 1 keeps the original frequency (fast pairs), 0 interpolates.
                        let keep = 1.0 - ((i as f64 - low) / (high - low)).clamp(0.0, 1.0);
                        f / factor * (1.0 - keep) + f * keep
                    })
                    .collect()
            }
        }
    }

    /// The factor multiplying cos and sin (YaRN's; 1 otherwise): the rotated dims of q and k
    /// are scaled by it, so their scores by its square.
    pub fn attention_factor(&self) -> f64 {
        let Some(RopeScaling::Yarn { factor, attention_factor, mscale, mscale_all_dim, .. }) = &self.scaling else {
            return 1.0;
        };
        if let Some(a) = attention_factor {
            return *a;
        }
        match (mscale, mscale_all_dim) {
            (Some(m), Some(all)) if *m != 0.0 && *all != 0.0 => yarn_mscale(*factor, *m) / yarn_mscale(*factor, *all),
            _ => yarn_mscale(*factor, 1.0),
        }
    }

    /// The dims of a `head_dim`-wide q or k head that rotate.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset as usize..(self.offset + self.dims) as usize
    }

    /// Per pair: (cos, sin) of `sign` × position × frequency, times the attention factor.
    pub fn angles(inv_freqs: &[f64], factor: f64, position: u64, sign: f64) -> impl Iterator<Item = (f64, f64)> + '_ {
        inv_freqs.iter().map(move |f| {
            let (s, c) = (sign * position as f64 * f).sin_cos();
            (c * factor, s * factor)
        })
    }
}

/// YaRN's magnitude correction 0.1·m·ln(s) + 1 (1 for s ≤ 1), as transformers and DeepSeek
/// define it.
pub fn yarn_mscale(scale: f64, m: f64) -> f64 {
    if scale <= 1.0 { 1.0 } else { 0.1 * m * scale.ln() + 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rope(scaling: Option<RopeScaling>) -> Rope {
        Rope { theta: 10_000.0, dims: 8, offset: 0, fraction: None, scaling }
    }

    #[test]
    fn unscaled_frequencies_are_powers_of_the_base() {
        let f = rope(None).inv_freqs();
        assert_eq!(f.len(), 4);
        for (i, f) in f.iter().enumerate() {
            assert!((f - 10_000f64.powf(-((2 * i) as f64) / 8.0)).abs() < 1e-15);
        }
        assert_eq!(rope(None).attention_factor(), 1.0);
    }

    #[test]
    fn linear_scaling_divides_every_frequency() {
        let (plain, scaled) = (rope(None).inv_freqs(), rope(Some(RopeScaling::Linear { factor: 4.0 })).inv_freqs());
        for (p, s) in plain.iter().zip(&scaled) {
            assert!((p / 4.0 - s).abs() < 1e-15);
        }
    }

    #[test]
    fn llama3_keeps_short_wavelengths_and_divides_long_ones() {
        let r = Rope {
            theta: 500_000.0,
            dims: 128,
            offset: 0,
            fraction: None,
            scaling: Some(RopeScaling::Llama3 {
                factor: 8.0,
                original: 8192,
                low_freq_factor: 1.0,
                high_freq_factor: 4.0,
            }),
        };
        let (plain, scaled) = (Rope { scaling: None, ..r.clone() }.inv_freqs(), r.inv_freqs());
        assert_eq!(scaled[0], plain[0]);
        assert!((scaled[63] - plain[63] / 8.0).abs() < 1e-18);
        // Monotone: no frequency grows, none shrinks by more than the factor.
        for (p, s) in plain.iter().zip(&scaled) {
            assert!(*s <= *p && *s >= p / 8.0 - 1e-18);
        }
    }

    #[test]
    fn yarn_attention_factor_follows_the_paper_and_deepseek() {
        let yarn = |mscale, mscale_all_dim| {
            rope(Some(RopeScaling::Yarn {
                factor: 40.0,
                original: 4096,
                beta_fast: 32.0,
                beta_slow: 1.0,
                attention_factor: None,
                mscale,
                mscale_all_dim,
                truncate: true,
            }))
        };
        assert!((yarn(None, None).attention_factor() - (0.1 * 40f64.ln() + 1.0)).abs() < 1e-15);
        // DeepSeek-V3: mscale = mscale_all_dim = 1 → ratio 1 (the scale moves to the softmax).
        assert_eq!(yarn(Some(1.0), Some(1.0)).attention_factor(), 1.0);
        let f = yarn(None, None).inv_freqs();
        let plain = rope(None).inv_freqs();
        // The fastest pair keeps its frequency, the slowest is interpolated.
        assert_eq!(f[0], plain[0]);
        assert!((f[3] - plain[3] / 40.0).abs() < 1e-18);
    }
}
