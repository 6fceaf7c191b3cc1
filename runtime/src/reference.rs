//! The oracle: plain full attention on one device in fp64, forward and backward, RoPE over the
//! whole sequence; and the comparison of a run's outputs against it with written tolerances.
//!
//! Inputs are rounded to the layout's dtype first, exactly as the runtime rounds them on load,
//! so a bf16 run is compared with the fp64 attention of the same bf16 values.

use attnc_compiler::ir::Problem;
use attnc_compiler::sema::spec::Dtype;

use crate::exec::ExecOutputs;
use crate::tensor::{Canonical, Dims, round};

/// fp64 outputs of full attention, canonical layout.
pub struct Reference {
    pub o: Vec<f64>,
    pub lse: Vec<f64>,
    pub dq: Vec<f64>,
    pub dk: Vec<f64>,
    pub dv: Vec<f64>,
    /// With learned sinks: each head's sink gradient, and its term of each row
    /// (`[batch][tokens][heads]`, so that a rank's share can be checked).
    pub dsinks: Vec<f64>,
    pub dsink_terms: Vec<f64>,
}

/// RoPE on one head `x`: its last `dims` rotate (all of it when `dims` is `None`), rotate-half
/// within them, frequencies over `dims`.
fn rotate(x: &mut [f64], position: u64, theta: Option<f64>, dims: Option<u32>, sign: f64) {
    let Some(theta) = theta else { return };
    let d = x.len();
    let x = &mut x[d - dims.map_or(d, |r| r as usize)..];
    let half = x.len() / 2;
    for (i, c, s) in crate::kernels::rope_rotation(x.len(), position, theta, sign) {
        let (a, b) = (x[i], x[i + half]);
        x[i] = a * c - b * s;
        x[i + half] = b * c + a * s;
    }
}

/// Whether token `i` attends to token `j`, written from the problem's definition (and
/// independently of the planner's and the kernels' mask code): same sequence, neither padding,
/// and with a causal mask `j ≤ i`, inside the window, inside the same chunk of the sequence.
fn sees(p: &Problem, i: u64, j: u64) -> bool {
    let (di, dj) = (p.doc_of(i), p.doc_of(j));
    if di != dj || i >= di.start + di.len || j >= dj.start + dj.len {
        return false;
    }
    if !p.causal {
        return true;
    }
    let (pi, pj) = (i - di.start, j - di.start);
    pj <= pi && p.window.is_none_or(|w| pi - pj < w) && p.chunk.is_none_or(|c| pi / c == pj / c)
}

pub fn full_attention(p: &Problem, inputs: &Canonical, backward: bool) -> Reference {
    let dims = Dims::of(p);
    let (bn, t, h, hk, d) = (dims.batch, dims.tokens, dims.heads, dims.kv_heads, dims.head_dim);
    // q and k rows are `d` wide, v, o and do rows `dv` (MLA's value head dim).
    let dv = dims.v_head_dim;
    let group = h / hk;
    let scale = 1.0 / (d as f64).sqrt();
    let load = |src: &[f32], heads: usize, b: usize, tok: usize, head: usize, rope: bool| -> Vec<f64> {
        let w = if rope { d } else { dv };
        let at = ((b * t + tok) * heads + head) * w;
        let mut x: Vec<f64> = src[at..at + w].iter().map(|&v| round(p.dtype, v) as f64).collect();
        if rope {
            rotate(&mut x, p.position(tok as u64), p.rope_theta, p.rope_dims, 1.0);
        }
        x
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut r = Reference {
        o: vec![0.0; bn * t * h * dv],
        lse: vec![f64::NEG_INFINITY; bn * h * t],
        dq: vec![0.0; bn * t * h * d],
        dk: vec![0.0; bn * t * hk * d],
        dv: vec![0.0; bn * t * hk * dv],
        dsinks: vec![0.0; if p.sinks { h } else { 0 }],
        dsink_terms: vec![0.0; if p.sinks { bn * t * h } else { 0 }],
    };
    // A learned sink is one more term of each row's softmax denominator, exp(sink_h), with no
    // value: p_sink = exp(sink_h − lse).
    let sink = |head: usize| -> Option<f64> {
        p.sinks.then(|| inputs.sinks.as_ref().expect("a problem with sinks has them")[head] as f64)
    };
    for b in 0..bn {
        for head in 0..h {
            let kh = head / group;
            let q: Vec<Vec<f64>> = (0..t).map(|i| load(&inputs.q, h, b, i, head, true)).collect();
            let k: Vec<Vec<f64>> = (0..t).map(|j| load(&inputs.k, hk, b, j, kh, true)).collect();
            let v: Vec<Vec<f64>> = (0..t).map(|j| load(&inputs.v, hk, b, j, kh, false)).collect();
            let mut probs: Vec<Vec<(usize, f64, f64)>> = vec![Vec::new(); t];
            for i in 0..t {
                let allowed: Vec<usize> = (0..t).filter(|&j| sees(p, i as u64, j as u64)).collect();
                if allowed.is_empty() && sink(head).is_none() {
                    continue;
                }
                // Soft-capping: s ↦ cap·tanh(s/cap), before the mask (masked pairs are not here).
                let s: Vec<f64> = allowed
                    .iter()
                    .map(|&j| {
                        let s = scale * dot(&q[i], &k[j]);
                        p.softcap.map_or(s, |cap| cap * (s / cap).tanh())
                    })
                    .collect();
                let max = s.iter().cloned().chain(sink(head)).fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = s.iter().cloned().chain(sink(head)).map(|x| (x - max).exp()).sum();
                let lse = max + sum.ln();
                r.lse[(b * h + head) * t + i] = lse;
                let o = &mut r.o[((b * t + i) * h + head) * dv..][..dv];
                for (&j, &sj) in allowed.iter().zip(&s) {
                    let pij = (sj - lse).exp();
                    // The cap's derivative at this pair, 1 − tanh², for the backward.
                    let dcap = p.softcap.map_or(1.0, |cap| 1.0 - (sj / cap).powi(2));
                    probs[i].push((j, pij, dcap));
                    for (x, y) in o.iter_mut().zip(&v[j]) {
                        *x += pij * y;
                    }
                }
            }
            if !backward {
                continue;
            }
            let d_out: Vec<Vec<f64>> =
                (0..t).map(|i| load(inputs.d_out.as_ref().expect("do"), h, b, i, head, false)).collect();
            for i in 0..t {
                let o = &r.o[((b * t + i) * h + head) * dv..][..dv];
                let delta = dot(&d_out[i], o);
                if let Some(s) = sink(head) {
                    // The sink's value is 0, so its dP is 0: d sink = p_sink · (0 − D).
                    let term = -(s - r.lse[(b * h + head) * t + i]).exp() * delta;
                    r.dsink_terms[(b * t + i) * h + head] = term;
                    r.dsinks[head] += term;
                }
                let mut dq = vec![0.0f64; d];
                for &(j, pij, dcap) in &probs[i] {
                    let ds = pij * (dot(&d_out[i], &v[j]) - delta) * dcap;
                    let at = ((b * t + j) * hk + kh) * d;
                    for e in 0..d {
                        dq[e] += scale * ds * k[j][e];
                        r.dk[at + e] += scale * ds * q[i][e];
                    }
                    let at = ((b * t + j) * hk + kh) * dv;
                    for (g, x) in r.dv[at..at + dv].iter_mut().zip(&d_out[i]) {
                        *g += pij * x;
                    }
                }
                rotate(&mut dq, p.position(i as u64), p.rope_theta, p.rope_dims, -1.0);
                r.dq[((b * t + i) * h + head) * d..][..d].copy_from_slice(&dq);
            }
        }
        for j in 0..t {
            for kh in 0..hk {
                let at = ((b * t + j) * hk + kh) * d;
                rotate(&mut r.dk[at..at + d], p.position(j as u64), p.rope_theta, p.rope_dims, -1.0);
            }
        }
    }
    r
}

/// One tensor's comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub tensor: &'static str,
    pub max_abs: f64,
    /// max |x − ref| / max |ref|.
    pub max_rel: f64,
    pub tolerance: f64,
    /// Non-finite values where the reference is finite (NaN, or ±inf that should not be).
    pub non_finite: usize,
}

impl Comparison {
    pub fn passed(&self) -> bool {
        self.max_abs <= self.tolerance && self.non_finite == 0
    }
}

/// The tolerance on max abs error (docs/numerics.md), by tensor and input dtype.
pub fn tolerance(tensor: &str, dtype: Dtype) -> f64 {
    match (dtype, tensor) {
        (Dtype::Fp32, "o") => 2e-5,
        (Dtype::Fp32, "lse") => 1e-5,
        (Dtype::Fp32, _) => 1e-4,
        (_, "o") => 2e-2,
        (_, "lse") => 2e-2,
        (_, _) => 5e-2,
    }
}

fn compare(tensor: &'static str, got: &[f32], want: &[f64], dtype: Dtype) -> Comparison {
    let mut max_abs = 0.0f64;
    let mut max_ref = 0.0f64;
    let mut non_finite = 0;
    for (&g, &w) in got.iter().zip(want) {
        let g = g as f64;
        if w == f64::NEG_INFINITY {
            // Fully masked rows: LSE must be −inf exactly.
            if g != f64::NEG_INFINITY {
                non_finite += 1;
            }
            continue;
        }
        if !g.is_finite() {
            non_finite += 1;
            continue;
        }
        max_abs = max_abs.max((g - w).abs());
        max_ref = max_ref.max(w.abs());
    }
    Comparison {
        tensor,
        max_abs,
        max_rel: if max_ref > 0.0 { max_abs / max_ref } else { max_abs },
        tolerance: tolerance(tensor, dtype),
        non_finite,
    }
}

/// Compares what a run produced with the reference; backward tensors only when `backward`.
pub fn check(p: &Problem, out: &ExecOutputs, reference: &Reference, backward: bool) -> Vec<Comparison> {
    let mut rows = vec![compare("o", &out.o, &reference.o, p.dtype), compare("lse", &out.lse, &reference.lse, p.dtype)];
    if backward {
        rows.push(compare("dq", &out.dq, &reference.dq, p.dtype));
        rows.push(compare("dk", &out.dk, &reference.dk, p.dtype));
        rows.push(compare("dv", &out.dv, &reference.dv, p.dtype));
        if p.sinks {
            // One term per row of each head: the gradients' tolerance grown as a sum of
            // independent errors, × √(batch · tokens).
            let mut c = compare("dsinks", &out.dsinks, &reference.dsinks, p.dtype);
            c.tolerance *= ((p.batch as u64 * p.tokens) as f64).sqrt();
            rows.push(c);
        }
    }
    rows
}

/// Keeps only the rows of `tokens` in both a run's outputs and the reference (every other row is
/// zeroed in both), so that a rank of a job of one process per rank checks what it stores.
pub fn restrict(p: &Problem, out: &mut ExecOutputs, reference: &mut Reference, tokens: &[u64]) {
    fn clear<T: Copy + Default>(x: &mut [T], at: usize, n: usize) {
        if let Some(rows) = x.get_mut(at..at + n) {
            rows.fill(T::default());
        }
    }
    let dims = Dims::of(p);
    let (b, t, h, hk, d, dv) = (dims.batch, dims.tokens, dims.heads, dims.kv_heads, dims.head_dim, dims.v_head_dim);
    let mut keep = vec![false; t];
    for &tok in tokens {
        keep[tok as usize] = true;
    }
    for bi in 0..b {
        for tok in (0..t).filter(|&tok| !keep[tok]) {
            // Each tensor's rows at its own width: q, k, dq, dk `d`; v, o, dv `dv`.
            let row = |heads: usize, w: usize| ((bi * t + tok) * heads * w, heads * w);
            // o, dq, dk, dv, in the run's outputs (fp32) and the reference (fp64).
            let spans = [row(h, dv), row(h, d), row(hk, d), row(hk, dv)];
            for (x, &(at, n)) in [&mut out.o, &mut out.dq, &mut out.dk, &mut out.dv].into_iter().zip(&spans) {
                clear(x, at, n);
            }
            for (x, &(at, n)) in
                [&mut reference.o, &mut reference.dq, &mut reference.dk, &mut reference.dv].into_iter().zip(&spans)
            {
                clear(x, at, n);
            }
            for head in 0..h {
                clear(&mut out.lse, (bi * h + head) * t + tok, 1);
                clear(&mut reference.lse, (bi * h + head) * t + tok, 1);
                // A rank's dsinks sum only the rows it stores.
                if let Some(term) = reference.dsink_terms.get_mut((bi * t + tok) * h + head) {
                    if let Some(total) = reference.dsinks.get_mut(head) {
                        *total -= *term;
                    }
                    *term = 0.0;
                }
            }
        }
    }
}
