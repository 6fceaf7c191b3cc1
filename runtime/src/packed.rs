//! Attention blocks as launches of the GPU kernel ABI, and a CPU emulation of that ABI.
//!
//! The GPU kernels (`compiler::back::llvm::nvptx`, `docs/llvm-backend.md`) serve one launch over
//! a packed THD batch: 16-bit `[tokens, heads, d]` inputs, `cu_q`/`cu_kv` sequence starts and one
//! position per sequence (its first row's, within the sequence) so masks and scores follow the
//! token split. [`Packed`] turns a block of
//! the runtime's [`Kernels`] interface into such launches: every same-sequence pair of query and
//! KV runs (split as the CPU adapter splits them, `generated::run_pairs`) becomes one packed
//! "sequence", pairs with the same mask class share a launch, and the partial outputs of a query
//! run's pairs are merged by LSE on the host. A [`Launcher`] runs the launches: [`Emulated`]
//! (plain Rust, following the ABI's documented semantics) or, with the `cuda` feature, the PTX
//! kernels on a GPU (`cuda::CudaLauncher`). The emulation is what CI runs: it checks the packing,
//! the layouts and the ABI's meaning through the numerics matrix, so a GPU run differs from it
//! only in the kernels themselves. This module touches no device.

use attnc_compiler::expr::score;
use attnc_compiler::kernel::{KernelKind, KernelMask, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::spec::Dtype;

use crate::kernels::{Block, Kernels, Shape};
use attnc_compiler::kernel::launch::{RowRun, pair_mask, runs};

/// One forward launch: `tokens_q` packed query rows and `tokens_kv` packed KV rows.
#[derive(Clone, Debug, Default)]
pub struct FwdLaunch {
    pub heads_q: usize,
    pub heads_kv: usize,
    pub head_dim: usize,
    /// The value/output head dim `dv` (`head_dim` unless MLA).
    pub v_head_dim: usize,
    /// bf16 or fp16 bits (the spec's dtype), `[tokens_q, heads_q, d]`.
    pub q: Vec<u16>,
    /// `[tokens_kv, heads_kv, d]`.
    pub k: Vec<u16>,
    /// `[tokens_kv, heads_kv, dv]`.
    pub v: Vec<u16>,
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

impl FwdLaunch {
    /// The score's per-head values of query head `h`.
    pub fn heads_of(&self, score: &attnc_compiler::spec::Score, h: usize) -> &[f32] {
        score.values_of_head(&self.head_values, h)
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
}

/// What a forward launch writes: the normalised partial output and its LSE (natural log).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FwdResult {
    /// fp32 `[tokens_q, heads_q, dv]`.
    pub o: Vec<f32>,
    /// fp32 `[tokens_q, heads_q]`; `−inf` for rows the mask hides entirely (with `o = 0`).
    pub lse: Vec<f32>,
}

/// One backward launch: the forward's packing plus the output gradient and per-row statistics.
#[derive(Clone, Debug, Default)]
pub struct BwdLaunch {
    pub fwd: FwdLaunch,
    /// The output gradient, 16-bit `[tokens_q, heads_q, dv]`.
    pub d_out: Vec<u16>,
    /// fp32 `[tokens_q, heads_q]`: the forward's LSE and D = rowsum(dO ∘ O).
    pub lse: Vec<f32>,
    pub delta: Vec<f32>,
}

/// What a backward launch accumulates (from zero): fp32 dQ `[tokens_q, heads_q, d]`, dK
/// `[tokens_kv, heads_kv, d]` and dV `[tokens_kv, heads_kv, dv]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BwdResult {
    pub dq: Vec<f32>,
    pub dk: Vec<f32>,
    pub dv: Vec<f32>,
}

/// Runs launches of the GPU kernel ABI for a spec.
pub trait Launcher: Sync {
    fn forward(&self, spec: &KernelSpec, launch: &FwdLaunch) -> Result<FwdResult, String>;
    fn backward(&self, spec: &KernelSpec, launch: &BwdLaunch) -> Result<BwdResult, String>;
}

impl<L: Launcher + ?Sized> Launcher for &L {
    fn forward(&self, spec: &KernelSpec, launch: &FwdLaunch) -> Result<FwdResult, String> {
        (**self).forward(spec, launch)
    }

    fn backward(&self, spec: &KernelSpec, launch: &BwdLaunch) -> Result<BwdResult, String> {
        (**self).backward(spec, launch)
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

/// Whether key position `k` is visible from query position `q` under a spec's mask.
fn visible(mask: KernelMask, q: i64, k: i64) -> bool {
    match mask {
        KernelMask::None => true,
        KernelMask::Causal => k <= q,
        KernelMask::Window { window } => k <= q && q - k < window as i64,
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
        mask: if causal { KernelMask::Causal } else { KernelMask::None },
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

/// The GPU kernel ABI in plain Rust (fp32 arithmetic on the 16-bit inputs): the semantics the
/// PTX kernels implement, one (sequence, head, row) at a time.
pub struct Emulated;

impl Emulated {
    fn each_row(spec: &KernelSpec, l: &FwdLaunch, mut row: impl FnMut(usize, usize, usize, usize, usize, i64, i64)) {
        for s in 0..l.sequences() {
            let (q0, q1) = (l.cu_q[s] as usize, l.cu_q[s + 1] as usize);
            let (k0, k1) = (l.cu_kv[s] as usize, l.cu_kv[s + 1] as usize);
            for h in 0..l.heads_q {
                let kh = h / spec.group as usize;
                for i in q0..q1 {
                    let pq = l.pos_q[s] + (i - q0) as i64;
                    row(i, h, kh, k0, k1, pq, l.pos_kv[s] - k0 as i64);
                }
            }
        }
    }
}

impl Launcher for Emulated {
    fn forward(&self, spec: &KernelSpec, l: &FwdLaunch) -> Result<FwdResult, String> {
        let (d, dv) = (l.head_dim, l.v_head_dim);
        let (hq, hk) = (l.heads_q, l.heads_kv);
        let f = |x: &[u16], at: usize, w: usize| -> Vec<f32> {
            x[at..at + w].iter().map(|&b| from_bits(spec.dtype, b)).collect()
        };
        let mut out =
            FwdResult { o: vec![0.0; l.tokens_q() * hq * dv], lse: vec![f32::NEG_INFINITY; l.tokens_q() * hq] };
        Emulated::each_row(spec, l, |i, h, kh, k0, k1, pq, kv_base| {
            let q = f(&l.q, (i * hq + h) * d, d);
            let scores: Vec<(usize, f32)> = (k0..k1)
                .filter(|&j| visible(spec.mask, pq, kv_base + j as i64))
                .map(|j| {
                    let k = f(&l.k, (j * hk + kh) * d, d);
                    let s = q.iter().zip(&k).map(|(a, b)| a * b).sum::<f32>() * l.scale;
                    (j, spec.score.map_or(s, |f| score::eval(f, s, (pq, kv_base + j as i64), l.heads_of(f, h)).0))
                })
                .collect();
            if scores.is_empty() {
                return;
            }
            let m = scores.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0f32;
            let o = &mut out.o[(i * hq + h) * dv..][..dv];
            for &(j, s) in &scores {
                let p = (s - m).exp();
                sum += p;
                for (o, v) in o.iter_mut().zip(f(&l.v, (j * hk + kh) * dv, dv)) {
                    *o += p * v;
                }
            }
            o.iter_mut().for_each(|x| *x /= sum);
            out.lse[i * hq + h] = m + sum.ln();
        });
        Ok(out)
    }

    fn backward(&self, spec: &KernelSpec, b: &BwdLaunch) -> Result<BwdResult, String> {
        let l = &b.fwd;
        let (d, dv) = (l.head_dim, l.v_head_dim);
        let (hq, hk) = (l.heads_q, l.heads_kv);
        let f = |x: &[u16], at: usize, w: usize| -> Vec<f32> {
            x[at..at + w].iter().map(|&v| from_bits(spec.dtype, v)).collect()
        };
        let mut out = BwdResult {
            dq: vec![0.0; l.tokens_q() * hq * d],
            dk: vec![0.0; l.tokens_kv() * hk * d],
            dv: vec![0.0; l.tokens_kv() * hk * dv],
        };
        Emulated::each_row(spec, l, |i, h, kh, k0, k1, pq, kv_base| {
            let (q, d_out) = (f(&l.q, (i * hq + h) * d, d), f(&b.d_out, (i * hq + h) * dv, dv));
            let (lse, delta) = (b.lse[i * hq + h], b.delta[i * hq + h]);
            for j in (k0..k1).filter(|&j| visible(spec.mask, pq, kv_base + j as i64)) {
                let (at, at_v) = ((j * hk + kh) * d, (j * hk + kh) * dv);
                let (k, v) = (f(&l.k, at, d), f(&l.v, at_v, dv));
                let s = q.iter().zip(&k).map(|(a, b)| a * b).sum::<f32>() * l.scale;
                // The score modification f: s' = f(s), and dS is scaled by f'(s).
                let (s, dcap) = match spec.score {
                    Some(f) => score::eval(f, s, (pq, kv_base + j as i64), l.heads_of(f, h)),
                    None => (s, 1.0),
                };
                let p = (s - lse).exp();
                let dp: f32 = d_out.iter().zip(&v).map(|(a, b)| a * b).sum();
                let ds = p * (dp - delta) * dcap * l.scale;
                for (g, x) in out.dv[at_v..at_v + dv].iter_mut().zip(&d_out) {
                    *g += p * x;
                }
                for e in 0..d {
                    out.dq[(i * hq + h) * d + e] += ds * k[e];
                    out.dk[at + e] += ds * q[e];
                }
            }
        });
        Ok(out)
    }
}

/// The runtime's kernel interface over launches of the GPU kernel ABI.
pub struct Packed<L> {
    pub launcher: L,
    /// bf16 or fp16: the GPU kernels take 16-bit inputs.
    pub dtype: Dtype,
}

/// One packed sequence: a query run and a KV run of the same sequence, at batch element `b`.
#[derive(Clone, Copy, Debug)]
struct Pair {
    b: usize,
    q: RowRun,
    kv: RowRun,
}

/// The block's run pairs grouped by the mask spec they need (one launch per group).
fn pairs_by_mask(blk: &Block<'_>) -> Vec<(KernelMask, Vec<Pair>)> {
    let (q_runs, kv_runs) = (runs(blk.q_rows), runs(blk.kv_rows));
    let mut groups: Vec<(KernelMask, Vec<Pair>)> = Vec::new();
    for b in 0..blk.q_shape.batch {
        for q in &q_runs {
            for kv in &kv_runs {
                let Some(mask) = pair_mask(blk.mask, q, kv) else { continue };
                let pair = Pair { b, q: *q, kv: *kv };
                match groups.iter_mut().find(|g| g.0 == mask) {
                    Some(g) => g.1.push(pair),
                    None => groups.push((mask, vec![pair])),
                }
            }
        }
    }
    groups
}

impl<L: Launcher> Packed<L> {
    fn spec(&self, kind: KernelKind, blk: &Block<'_>, mask: KernelMask) -> KernelSpec {
        KernelSpec {
            kind,
            head_dim: blk.head_dim as u32,
            v_head_dim: (blk.v_head_dim != blk.head_dim).then_some(blk.v_head_dim as u32),
            dtype: self.dtype,
            group: (blk.q_shape.heads / blk.kv_shape.heads) as u32,
            mask,
            score: blk.score,
            tile_q: TILE_Q,
            tile_kv: TILE_KV,
        }
    }

    /// Packs the pairs' query rows (the first `d` floats of each head's row) and KV rows (k, `d`
    /// at 0, and v, `dv` at `d`, of each KV head's row).
    fn pack(&self, blk: &Block<'_>, pairs: &[Pair]) -> FwdLaunch {
        let (d, dv) = (blk.head_dim, blk.v_head_dim);
        let (hq, hk) = (blk.q_shape.heads, blk.kv_shape.heads);
        let mut l = FwdLaunch {
            heads_q: hq,
            heads_kv: hk,
            head_dim: d,
            v_head_dim: dv,
            cu_q: vec![0],
            cu_kv: vec![0],
            scale: blk.scale,
            head_values: blk.head_values.to_vec(),
            ..FwdLaunch::default()
        };
        for p in pairs {
            for i in 0..p.q.len {
                for h in 0..hq {
                    let at = blk.q_shape.at(p.b, p.q.row + i, h);
                    l.q.extend(blk.q[at..at + d].iter().map(|&x| to_bits(self.dtype, x)));
                }
            }
            for i in 0..p.kv.len {
                for (dst, off, w) in [(&mut l.k, 0, d), (&mut l.v, d, dv)] {
                    for h in 0..hk {
                        let at = blk.kv_shape.at(p.b, p.kv.row + i, h) + off;
                        dst.extend(blk.kv[at..at + w].iter().map(|&x| to_bits(self.dtype, x)));
                    }
                }
            }
            l.cu_q.push(l.cu_q.last().unwrap() + p.q.len as i32);
            l.cu_kv.push(l.cu_kv.last().unwrap() + p.kv.len as i32);
            l.pos_q.push(p.q.pos as i64);
            l.pos_kv.push(p.kv.pos as i64);
        }
        l
    }

    fn check_dtype(&self) -> Result<(), String> {
        match self.dtype {
            Dtype::Bf16 | Dtype::Fp16 => Ok(()),
            Dtype::Fp32 => Err("GPU kernels take bf16 or fp16 inputs; this layout's dtype is fp32".to_string()),
        }
    }
}

impl<L: Launcher> Kernels for Packed<L> {
    fn forward(&self, blk: &Block<'_>, part: &mut [f32], ps: Shape) -> Result<(), String> {
        self.check_dtype()?;
        let d = blk.v_head_dim;
        let hq = blk.q_shape.heads;
        for b in 0..blk.q_shape.batch {
            for r in blk.q_rows {
                for h in 0..hq {
                    let o = &mut part[ps.at(b, r.row, h)..][..d + 1];
                    o[..d].fill(0.0);
                    o[d] = f32::NEG_INFINITY;
                }
            }
        }
        for (mask, pairs) in pairs_by_mask(blk) {
            let launch = self.pack(blk, &pairs);
            let spec = self.spec(KernelKind::Forward, blk, mask);
            let result = self.launcher.forward(&spec, &launch)?;
            for (p, &start) in pairs.iter().zip(&launch.cu_q) {
                for i in 0..p.q.len {
                    for h in 0..hq {
                        let packed = (start as usize + i) * hq + h;
                        let mut row = result.o[packed * d..(packed + 1) * d].to_vec();
                        row.push(result.lse[packed]);
                        crate::kernels::merge(&mut part[ps.at(p.b, p.q.row + i, h)..][..d + 1], &row);
                    }
                }
            }
        }
        Ok(())
    }

    fn backward(
        &self,
        blk: &Block<'_>,
        dq: &mut [f32],
        dqs: Shape,
        dkv: &mut [f32],
        dkvs: Shape,
    ) -> Result<(), String> {
        self.check_dtype()?;
        let (d, dv) = (blk.head_dim, blk.v_head_dim);
        let (hq, hk) = (blk.q_shape.heads, blk.kv_shape.heads);
        for (mask, pairs) in pairs_by_mask(blk) {
            // The query buffer is a bundle: q (d), o, do (dv each) and lse per row and head.
            let fwd = self.pack(blk, &pairs);
            let mut launch = BwdLaunch { fwd, ..BwdLaunch::default() };
            for p in &pairs {
                for i in 0..p.q.len {
                    for h in 0..hq {
                        let at = blk.q_shape.at(p.b, p.q.row + i, h);
                        let d_out = &blk.q[at + d + dv..at + d + 2 * dv];
                        launch.d_out.extend(d_out.iter().map(|&x| to_bits(self.dtype, x)));
                        launch.delta.push(blk.delta(p.b, p.q.row + i, h));
                        launch.lse.push(blk.q[at + d + 2 * dv]);
                    }
                }
            }
            let spec = self.spec(KernelKind::Backward, blk, mask);
            let result = self.launcher.backward(&spec, &launch)?;
            for (s, p) in pairs.iter().enumerate() {
                let (q0, k0) = (launch.fwd.cu_q[s] as usize, launch.fwd.cu_kv[s] as usize);
                for i in 0..p.q.len {
                    for h in 0..hq {
                        let from = ((q0 + i) * hq + h) * d;
                        let to = dqs.at(p.b, p.q.row + i, h);
                        for e in 0..d {
                            dq[to + e] += result.dq[from + e];
                        }
                    }
                }
                for i in 0..p.kv.len {
                    for h in 0..hk {
                        let (from, from_v) = (((k0 + i) * hk + h) * d, ((k0 + i) * hk + h) * dv);
                        let to = dkvs.at(p.b, p.kv.row + i, h);
                        for e in 0..d {
                            dkv[to + e] += result.dk[from + e];
                        }
                        for e in 0..dv {
                            dkv[to + d + e] += result.dv[from_v + e];
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(dtype: Dtype, rows: &[(i32, i32, i64, i64)]) -> FwdLaunch {
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
        let value = |i: usize| to_bits(dtype, ((i * 7 % 11) as f32 - 5.0) / 8.0);
        l.q = (0..l.tokens_q() * 2 * d).map(value).collect();
        l.k = (0..l.tokens_kv() * d).map(|i| value(i + 3)).collect();
        l.v = (0..l.tokens_kv() * d).map(|i| value(i + 5)).collect();
        l
    }

    #[test]
    fn hidden_rows_get_zero_output_and_minus_infinity() {
        // Sequence 0: queries at 0..2 see keys 10..13 only through the causal mask: none.
        let l = launch(Dtype::Bf16, &[(2, 3, 0, 10), (1, 2, 5, 0)]);
        let spec = KernelSpec {
            kind: KernelKind::Forward,
            head_dim: 4,
            v_head_dim: None,
            dtype: Dtype::Bf16,
            group: 2,
            mask: KernelMask::Causal,
            score: None,
            tile_q: TILE_Q,
            tile_kv: TILE_KV,
        };
        let r = Emulated.forward(&spec, &l).unwrap();
        assert!(r.lse[..4].iter().all(|&x| x == f32::NEG_INFINITY), "{:?}", r.lse);
        assert!(r.o[..16].iter().all(|&x| x == 0.0));
        assert!(r.lse[4..].iter().all(|x| x.is_finite()), "{:?}", r.lse);
    }

    #[test]
    fn launch_sizes_follow_cu_seqlens() {
        let l = launch(Dtype::Fp16, &[(2, 3, 0, 0), (5, 1, 7, 7), (1, 4, 0, 0)]);
        assert_eq!((l.sequences(), l.tokens_q(), l.tokens_kv()), (3, 8, 8));
        assert_eq!((l.max_seqlen_q(), l.max_seqlen_kv()), (5, 4));
        assert_eq!(from_bits(Dtype::Fp16, to_bits(Dtype::Fp16, 0.375)), 0.375);
    }
}
