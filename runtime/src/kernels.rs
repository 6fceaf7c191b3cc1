//! The one kernel contract: launches over a packed THD batch, on every device.
//!
//! A launch is what the GPU kernels take (`compiler::back::llvm::nvptx`, `docs/llvm-backend.md`):
//! `[tokens, heads, d]` input planes, `cu_q`/`cu_kv` sequence starts and one position per
//! sequence (its first row's, within the sequence) so that masks and scores follow the token
//! split, the kernel spec (mask, score, dims, GQA group) and the scale. A forward writes the
//! normalised O and the LSE of every query row into the caller's buffers, a backward accumulates
//! dQ, dK and dV into them from zero; planes are borrowed where the caller holds them as fp32
//! (the host device's planes, in place) and owned where they were converted.
//! Every kernel set implements [`Kernels`] over launches: the plain-Rust [`Reference`] here (the
//! oracle, following the ABI's documented semantics one row at a time), the generated host
//! kernels (`generated::Generated`: kernel-IR interpreter, Cranelift, LLVM host) and, on a GPU,
//! the PTX kernels themselves (the CUDA and PTX-interpreter devices launch the same tables from
//! device memory). Devices build launches from their planes and tables (`device::FwdCall`); the
//! executor merges partial outputs by LSE through [`merge`] (on the host) and folds sinks in
//! `exec::rows`: one place each.

use std::borrow::Cow;

use attnc_compiler::expr::score;
use attnc_compiler::kernel::{Band, KernelKind, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::spec::Dtype;

/// One forward launch: `tokens_q` packed query rows and `tokens_kv` packed KV rows.
#[derive(Clone, Debug, Default)]
pub struct FwdLaunch<'a> {
    pub heads_q: usize,
    pub heads_kv: usize,
    pub head_dim: usize,
    /// The value/output head dim `dv` (`head_dim` unless MLA).
    pub v_head_dim: usize,
    /// The inputs' values, already of the spec's dtype (16-bit values held exactly in fp32),
    /// `[tokens_q, heads_q, d]`.
    pub q: Cow<'a, [f32]>,
    /// `[tokens_kv, heads_kv, d]`.
    pub k: Cow<'a, [f32]>,
    /// `[tokens_kv, heads_kv, dv]`.
    pub v: Cow<'a, [f32]>,
    /// Sequence starts, `sequences + 1` entries.
    pub cu_q: Vec<i32>,
    pub cu_kv: Vec<i32>,
    /// Each sequence's first row's position within its sequence, from 0.
    pub pos_q: Vec<i64>,
    pub pos_kv: Vec<i64>,
    pub scale: f32,
    /// The score's per-head values, `[heads_q][n]` (empty unless the score reads the head).
    pub head_values: Vec<f32>,
}

impl FwdLaunch<'_> {
    /// The score's per-head values of query head `h`.
    pub fn heads_of(&self, spec: &KernelSpec, h: usize) -> &[f32] {
        spec.score.map_or(&[], |s| s.values_of_head(&self.head_values, h))
    }

    pub fn sequences(&self) -> usize {
        self.pos_q.len()
    }

    pub fn tokens_q(&self) -> usize {
        self.cu_q.last().copied().unwrap_or(0) as usize
    }

    pub fn tokens_kv(&self) -> usize {
        self.cu_kv.last().copied().unwrap_or(0) as usize
    }

    pub fn max_seqlen_q(&self) -> usize {
        self.cu_q.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    pub fn max_seqlen_kv(&self) -> usize {
        self.cu_kv.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    /// Sequence `s`: its query rows, its KV rows and their first positions.
    pub fn sequence(&self, s: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>, i64, i64) {
        (
            self.cu_q[s] as usize..self.cu_q[s + 1] as usize,
            self.cu_kv[s] as usize..self.cu_kv[s + 1] as usize,
            self.pos_q[s],
            self.pos_kv[s],
        )
    }
}

/// What a forward launch writes: the normalised partial output and its LSE (natural log).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FwdResult {
    /// fp32 `[tokens_q, heads_q, dv]`.
    pub o: Vec<f32>,
    /// fp32 `[tokens_q, heads_q]`; `−inf` for rows the mask hides entirely (with `o = 0`).
    pub lse: Vec<f32>,
}

impl FwdResult {
    /// Sized for the launch, every row hidden: O = 0, LSE = −inf (what a forward writes before
    /// any key is seen). Keeps the buffers' allocations.
    pub fn reset(&mut self, l: &FwdLaunch<'_>) {
        let rows = l.tokens_q() * l.heads_q;
        self.o.clear();
        self.o.resize(rows * l.v_head_dim, 0.0);
        self.lse.clear();
        self.lse.resize(rows, f32::NEG_INFINITY);
    }
}

/// One backward launch: the forward's packing plus the output gradient and per-row statistics.
#[derive(Clone, Debug, Default)]
pub struct BwdLaunch<'a> {
    pub fwd: FwdLaunch<'a>,
    /// The output gradient's values (of the spec's dtype), `[tokens_q, heads_q, dv]`.
    pub d_out: Cow<'a, [f32]>,
    /// fp32 `[tokens_q, heads_q]`: the forward's LSE and D = rowsum(dO ∘ O).
    pub lse: Cow<'a, [f32]>,
    pub delta: Cow<'a, [f32]>,
}

/// What a backward launch accumulates (from zero): fp32 dQ `[tokens_q, heads_q, d]`, dK
/// `[tokens_kv, heads_kv, d]` and dV `[tokens_kv, heads_kv, dv]`, and with learned score
/// parameters their gradients `[heads_q][params]` (Σ dS·∂score/∂param over the launch's pairs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BwdResult {
    pub dq: Vec<f32>,
    pub dk: Vec<f32>,
    pub dv: Vec<f32>,
    pub dparams: Vec<f32>,
}

impl BwdResult {
    /// Sized for the launch of `spec`, all zeros. Keeps the buffers' allocations.
    pub fn reset(&mut self, spec: &KernelSpec, l: &FwdLaunch<'_>) {
        let params = spec.score.map_or(0, |s| s.params.len());
        for (g, n) in [
            (&mut self.dq, l.tokens_q() * l.heads_q * l.head_dim),
            (&mut self.dk, l.tokens_kv() * l.heads_kv * l.head_dim),
            (&mut self.dv, l.tokens_kv() * l.heads_kv * l.v_head_dim),
            (&mut self.dparams, l.heads_q * params),
        ] {
            g.clear();
            g.resize(n, 0.0);
        }
    }
}

/// Attention kernels behind the launch ABI; every implementation computes what [`Reference`]
/// computes. A forward sizes `out` for the launch and writes every query row
/// (`FwdResult::reset` first); a backward sizes `out` and accumulates into it from zero. Errors
/// are the kernel's own words; the device adds the rank and the op.
pub trait Kernels: Sync {
    fn forward(&self, spec: &KernelSpec, launch: &FwdLaunch<'_>, out: &mut FwdResult) -> Result<(), String>;
    fn backward(&self, spec: &KernelSpec, launch: &BwdLaunch<'_>, out: &mut BwdResult) -> Result<(), String>;
}

impl<K: Kernels + ?Sized> Kernels for &K {
    fn forward(&self, spec: &KernelSpec, launch: &FwdLaunch<'_>, out: &mut FwdResult) -> Result<(), String> {
        (**self).forward(spec, launch, out)
    }

    fn backward(&self, spec: &KernelSpec, launch: &BwdLaunch<'_>, out: &mut BwdResult) -> Result<(), String> {
        (**self).backward(spec, launch, out)
    }
}

/// 16-bit bits of a value already rounded to `dtype` (exact).
pub fn to_bits(dtype: Dtype, x: f32) -> u16 {
    match dtype {
        Dtype::Fp16 => half::f16::from_f32(x).to_bits(),
        _ => half::bf16::from_f32(x).to_bits(),
    }
}

pub fn from_bits(dtype: Dtype, x: u16) -> f32 {
    match dtype {
        Dtype::Fp16 => half::f16::from_bits(x).to_f32(),
        _ => half::bf16::from_bits(x).to_f32(),
    }
}

/// The spec of a GPU benchmark kernel: one sequence, MHA, causal or unmasked.
pub fn bench_spec(kind: KernelKind, head_dim: usize, dtype: Dtype, causal: bool) -> KernelSpec {
    KernelSpec {
        kind,
        head_dim: head_dim as u32,
        v_head_dim: None,
        dtype,
        group: 1,
        mask: if causal { Band::CAUSAL } else { Band::NONE },
        score: None,
        tile_q: TILE_Q,
        tile_kv: TILE_KV,
    }
}

/// The specs a GPU benchmark run needs (so that they can be compiled ahead of time).
pub fn bench_specs(head_dims: &[usize], dtype: Dtype) -> Vec<KernelSpec> {
    let mut out = Vec::new();
    for &d in head_dims {
        for causal in [true, false] {
            for kind in [KernelKind::Forward, KernelKind::Backward] {
                out.push(bench_spec(kind, d, dtype, causal));
            }
        }
    }
    out
}

/// The launch ABI in plain loops, fp32 arithmetic on the launch's values: the oracle, one
/// (sequence, head, row) at a time.
pub struct Reference;

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl Reference {
    /// Calls `row(i, h, kh, keys, q_pos, kv_base)` for every query row `i` and head `h` of the
    /// launch: `keys` its sequence's KV rows, a key row `j`'s position `kv_base + j`.
    fn each_row(
        spec: &KernelSpec,
        l: &FwdLaunch<'_>,
        mut row: impl FnMut(usize, usize, usize, std::ops::Range<usize>, i64, i64),
    ) {
        for s in 0..l.sequences() {
            let (qs, ks, pq, pk) = l.sequence(s);
            for h in 0..l.heads_q {
                let kh = h / spec.group as usize;
                for i in qs.clone() {
                    row(i, h, kh, ks.clone(), pq + (i - qs.start) as i64, pk - ks.start as i64);
                }
            }
        }
    }

    /// The score of query row `i`, head `h` against key row `j` through the spec's
    /// modification, the modification's slope there (1 without) and its derivatives by the
    /// learned parameters.
    fn score(
        spec: &KernelSpec,
        l: &FwdLaunch<'_>,
        (i, h, kh): (usize, usize, usize),
        j: usize,
        (pq, pk): (i64, i64),
    ) -> (f32, f32, Vec<f32>) {
        let (d, hq, hk) = (l.head_dim, l.heads_q, l.heads_kv);
        let s = dot(&l.q[(i * hq + h) * d..][..d], &l.k[(j * hk + kh) * d..][..d]) * l.scale;
        match spec.score {
            Some(f) => score::eval_grads(f, s, (pq, pk), l.heads_of(spec, h)),
            None => (s, 1.0, Vec::new()),
        }
    }
}

impl Kernels for Reference {
    fn forward(&self, spec: &KernelSpec, l: &FwdLaunch<'_>, out: &mut FwdResult) -> Result<(), String> {
        let (dv, hq, hk) = (l.v_head_dim, l.heads_q, l.heads_kv);
        out.reset(l);
        let mut scores = Vec::new();
        Reference::each_row(spec, l, |i, h, kh, keys, pq, kv_base| {
            scores.clear();
            for j in keys.filter(|&j| spec.mask.visible(pq, kv_base + j as i64)) {
                scores.push((j, Reference::score(spec, l, (i, h, kh), j, (pq, kv_base + j as i64)).0));
            }
            let m = scores.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
            // No key, or every key −∞ (a mask the score tests): the row sees nothing here.
            if m == f32::NEG_INFINITY {
                return;
            }
            let mut sum = 0.0f32;
            let o = &mut out.o[(i * hq + h) * dv..][..dv];
            for &(j, s) in &scores {
                let p = (s - m).exp();
                sum += p;
                for (o, v) in o.iter_mut().zip(&l.v[(j * hk + kh) * dv..][..dv]) {
                    *o += p * v;
                }
            }
            o.iter_mut().for_each(|x| *x /= sum);
            out.lse[i * hq + h] = m + sum.ln();
        });
        Ok(())
    }

    fn backward(&self, spec: &KernelSpec, b: &BwdLaunch<'_>, out: &mut BwdResult) -> Result<(), String> {
        let l = &b.fwd;
        let (d, dv, hq, hk) = (l.head_dim, l.v_head_dim, l.heads_q, l.heads_kv);
        out.reset(spec, l);
        let n = spec.score.map_or(0, |s| s.params.len());
        Reference::each_row(spec, l, |i, h, kh, keys, pq, kv_base| {
            let (lse, delta) = (b.lse[i * hq + h], b.delta[i * hq + h]);
            if lse == f32::NEG_INFINITY {
                return;
            }
            let (q, d_out) = (&l.q[(i * hq + h) * d..][..d], &b.d_out[(i * hq + h) * dv..][..dv]);
            for j in keys.filter(|&j| spec.mask.visible(pq, kv_base + j as i64)) {
                let (at, at_v) = ((j * hk + kh) * d, (j * hk + kh) * dv);
                // The score modification f: s' = f(s), and dS is scaled by f'(s).
                let (s, slope, grads) = Reference::score(spec, l, (i, h, kh), j, (pq, kv_base + j as i64));
                let p = (s - lse).exp();
                let d_score = p * (dot(d_out, &l.v[at_v..][..dv]) - delta);
                // The learned parameters: Σ dS·∂score/∂param, dS by the score's value.
                for (g, x) in out.dparams[h * n..(h + 1) * n].iter_mut().zip(&grads) {
                    *g += d_score * x;
                }
                let ds = d_score * slope * l.scale;
                for (g, x) in out.dv[at_v..at_v + dv].iter_mut().zip(d_out) {
                    *g += p * x;
                }
                for (g, x) in out.dq[(i * hq + h) * d..][..d].iter_mut().zip(&l.k[at..at + d]) {
                    *g += ds * x;
                }
                for (g, x) in out.dk[at..at + d].iter_mut().zip(q) {
                    *g += ds * x;
                }
            }
        });
        Ok(())
    }
}

/// LSE-weighted combine (the online softmax's merge; the executor merges partial outputs on the
/// host through this one function) of a partial (o, lse) into an accumulator (o, lse).
pub(crate) fn merge(acc: &mut [f32], part: &[f32]) {
    let d = acc.len() - 1;
    let (la, lp) = (acc[d], part[d]);
    if lp == f32::NEG_INFINITY {
        return;
    }
    if la == f32::NEG_INFINITY {
        acc.copy_from_slice(part);
        return;
    }
    let l = la.max(lp) + (-(la - lp).abs()).exp().ln_1p();
    let (wa, wp) = ((la - l).exp(), (lp - l).exp());
    for i in 0..d {
        acc[i] = wa * acc[i] + wp * part[i];
    }
    acc[d] = l;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(dtype: Dtype, rows: &[(i32, i32, i64, i64)]) -> FwdLaunch<'static> {
        let d = 4;
        let mut l = FwdLaunch {
            heads_q: 2,
            heads_kv: 1,
            head_dim: d,
            v_head_dim: d,
            cu_q: vec![0],
            cu_kv: vec![0],
            scale: 0.5,
            ..Default::default()
        };
        for &(nq, nk, pq, pk) in rows {
            l.cu_q.push(l.cu_q.last().unwrap() + nq);
            l.cu_kv.push(l.cu_kv.last().unwrap() + nk);
            l.pos_q.push(pq);
            l.pos_kv.push(pk);
        }
        let value = |i: usize| from_bits(dtype, to_bits(dtype, ((i * 7 % 11) as f32 - 5.0) / 8.0));
        l.q = (0..l.tokens_q() * 2 * d).map(value).collect::<Vec<f32>>().into();
        l.k = (0..l.tokens_kv() * d).map(|i| value(i + 3)).collect::<Vec<f32>>().into();
        l.v = (0..l.tokens_kv() * d).map(|i| value(i + 5)).collect::<Vec<f32>>().into();
        l
    }

    #[test]
    fn hidden_rows_get_zero_output_and_minus_infinity() {
        // Sequence 0: queries at 0..2 see keys 10..13 only through the causal mask: none.
        let l = launch(Dtype::Bf16, &[(2, 3, 0, 10), (1, 2, 5, 0)]);
        let spec = KernelSpec { group: 2, ..bench_spec(KernelKind::Forward, 4, Dtype::Bf16, true) };
        let mut r = FwdResult::default();
        Reference.forward(&spec, &l, &mut r).unwrap();
        assert!(r.lse[..4].iter().all(|&x| x == f32::NEG_INFINITY), "{:?}", r.lse);
        assert!(r.o[..16].iter().all(|&x| x == 0.0));
        assert!(r.lse[4..].iter().all(|x| x.is_finite()), "{:?}", r.lse);
    }

    #[test]
    fn launch_sizes_follow_cu_seqlens() {
        let l = launch(Dtype::Fp16, &[(2, 3, 0, 0), (5, 1, 7, 7), (1, 4, 0, 0)]);
        assert_eq!((l.sequences(), l.tokens_q(), l.tokens_kv()), (3, 8, 8));
        assert_eq!((l.max_seqlen_q(), l.max_seqlen_kv()), (5, 4));
        assert_eq!(l.sequence(1), (2..7, 3..4, 7, 7));
        assert_eq!(from_bits(Dtype::Fp16, to_bits(Dtype::Fp16, 0.375)), 0.375);
    }

    #[test]
    fn merging_a_split_equals_the_whole() {
        // One query row against four keys, then against two and two, merged by LSE.
        let mut l = launch(Dtype::Fp32, &[(1, 4, 3, 0)]);
        l.heads_q = 1;
        l.q.to_mut().truncate(4);
        let spec = bench_spec(KernelKind::Forward, 4, Dtype::Fp32, true);
        let run = |l: &FwdLaunch<'_>| {
            let mut r = FwdResult::default();
            Reference.forward(&spec, l, &mut r).unwrap();
            r.o.into_iter().chain(r.lse).collect::<Vec<f32>>()
        };
        let half = |from: usize| FwdLaunch {
            k: l.k[from * 4..(from + 2) * 4].into(),
            v: l.v[from * 4..(from + 2) * 4].into(),
            cu_kv: vec![0, 2],
            pos_kv: vec![from as i64],
            ..l.clone()
        };
        let mut acc = run(&half(0));
        merge(&mut acc, &run(&half(2)));
        for (a, b) in acc.iter().zip(run(&l)) {
            assert!((a - b).abs() < 1e-6, "{acc:?}");
        }
    }
}
