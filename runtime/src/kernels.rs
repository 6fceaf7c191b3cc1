//! Attention block kernels behind one interface, and the plain-Rust reference implementation.
//!
//! A block is a set of query rows against a set of KV rows of two buffers; masking is by the
//! rows' absolute tokens (sequence, padding, causal order, window), so a block is right wherever
//! the plan put its rows. The reference accumulates in fp32 and stays the oracle: the Cranelift
//! and LLVM kernels of later issues implement [`Kernels`] and are tested against it.

use attnc_compiler::expr::score;
/// Rows and masks by absolute tokens: the launch tables' (`compiler::kernel::launch`).
pub use attnc_compiler::kernel::launch::{Mask, Row, rows_of};
use attnc_compiler::spec::Score;

/// A buffer's shape: `[batch][rows][heads][elems]`, fp32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub batch: usize,
    pub rows: usize,
    pub heads: usize,
    pub elems: usize,
}

impl Shape {
    pub fn at(&self, b: usize, row: usize, head: usize) -> usize {
        ((b * self.rows + row) * self.heads + head) * self.elems
    }

    pub fn len(&self) -> usize {
        self.batch * self.rows * self.heads * self.elems
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What both block kernels read.
pub struct Block<'a> {
    /// The query/key head dim.
    pub head_dim: usize,
    /// The value/output head dim (`head_dim` unless MLA).
    pub v_head_dim: usize,
    pub scale: f32,
    /// The scores' modification (`softcap = X`, `score = EXPR`), if the model has one.
    pub score: Option<&'static Score>,
    /// The score's per-head values of the block's query heads, `[heads][n]` (empty unless the
    /// score reads the head).
    pub head_values: &'a [f32],
    pub mask: &'a Mask,
    /// Query-side buffer and the offsets of q (and, backward, o, do, lse) in its elements.
    pub q: &'a [f32],
    pub q_shape: Shape,
    pub q_rows: &'a [Row],
    /// KV buffer: k at element 0, v (`v_head_dim`) at `head_dim`.
    pub kv: &'a [f32],
    pub kv_shape: Shape,
    pub kv_rows: &'a [Row],
    /// Backward: D = rowsum(dO ∘ O) of query row `r`, head `h` at `(b·rows + r)·heads + h`, when
    /// the caller has it (the device planes carry D, not O); `None`: computed from the bundle's o.
    pub delta: Option<&'a [f32]>,
}

impl Block<'_> {
    /// The score's per-head values of query head `h` of the block.
    pub fn heads_of(&self, h: usize) -> &[f32] {
        self.score.map_or(&[], |s| s.values_of_head(self.head_values, h))
    }

    /// D of a query row and head (backward).
    pub fn delta(&self, b: usize, row: usize, h: usize) -> f32 {
        match self.delta {
            Some(delta) => delta[(b * self.q_shape.rows + row) * self.q_shape.heads + h],
            None => {
                let (at, d, dv) = (self.q_shape.at(b, row, h), self.head_dim, self.v_head_dim);
                dot(&self.q[at + d..at + d + dv], &self.q[at + d + dv..at + d + 2 * dv])
            }
        }
    }
}

/// Attention kernels; every implementation computes the same function as [`Reference`].
pub trait Kernels: Sync {
    /// O and LSE of the block's query rows into `part` (`[.., o(dv), lse]`), fully masked rows O = 0, LSE = −inf.
    fn forward(&self, block: &Block<'_>, part: &mut [f32], part_shape: Shape) -> Result<(), String>;
    /// Adds the block's dQ into `dq` (`[.., d]`) and dK, dV into `dkv` (`[.., dk(d), dv(dv)]`).
    /// The query buffer holds q (`d`), o, do (each `dv`) and lse.
    fn backward(
        &self,
        block: &Block<'_>,
        dq: &mut [f32],
        dq_shape: Shape,
        dkv: &mut [f32],
        dkv_shape: Shape,
    ) -> Result<(), String>;
}

/// Plain loops, fp32 accumulation: the oracle.
pub struct Reference;

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A score of query head `h` through the block's modification, and the modification's slope
/// there (1 without).
fn score(blk: &Block<'_>, h: usize, q: &[f32], k: &[f32], (qr, kr): (&Row, &Row)) -> (f32, f32) {
    let s = blk.scale * dot(q, k);
    match blk.score {
        Some(f) => score::eval(f, s, (qr.pos as i64, kr.pos as i64), blk.heads_of(h)),
        None => (s, 1.0),
    }
}

impl Kernels for Reference {
    fn forward(&self, blk: &Block<'_>, part: &mut [f32], ps: Shape) -> Result<(), String> {
        let (d, dv) = (blk.head_dim, blk.v_head_dim);
        let (nq, nk) = (blk.q_shape.heads, blk.kv_shape.heads);
        let group = nq / nk;
        let mut scores = vec![0.0f32; blk.kv_rows.len()];
        for b in 0..blk.q_shape.batch {
            for h in 0..nq {
                let kh = h / group;
                for qr in blk.q_rows {
                    let q = &blk.q[blk.q_shape.at(b, qr.row, h)..][..d];
                    let mut max = f32::NEG_INFINITY;
                    for (s, kr) in scores.iter_mut().zip(blk.kv_rows) {
                        *s = if blk.mask.allows(qr, kr) {
                            let k = &blk.kv[blk.kv_shape.at(b, kr.row, kh)..][..d];
                            score(blk, h, q, k, (qr, kr)).0
                        } else {
                            f32::NEG_INFINITY
                        };
                        max = max.max(*s);
                    }
                    let out = &mut part[ps.at(b, qr.row, h)..][..dv + 1];
                    out.fill(0.0);
                    if max == f32::NEG_INFINITY {
                        out[dv] = f32::NEG_INFINITY;
                        continue;
                    }
                    let mut sum = 0.0f32;
                    for (s, kr) in scores.iter().zip(blk.kv_rows) {
                        if *s == f32::NEG_INFINITY {
                            continue;
                        }
                        let p = (s - max).exp();
                        sum += p;
                        let v = &blk.kv[blk.kv_shape.at(b, kr.row, kh) + d..][..dv];
                        for (o, x) in out[..dv].iter_mut().zip(v) {
                            *o += p * x;
                        }
                    }
                    for o in &mut out[..dv] {
                        *o /= sum;
                    }
                    out[dv] = max + sum.ln();
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
        let (d, dv) = (blk.head_dim, blk.v_head_dim);
        let (nq, nk) = (blk.q_shape.heads, blk.kv_shape.heads);
        let group = nq / nk;
        for b in 0..blk.q_shape.batch {
            for h in 0..nq {
                let kh = h / group;
                for qr in blk.q_rows {
                    let base = blk.q_shape.at(b, qr.row, h);
                    let q = &blk.q[base..][..d];
                    let d_o = &blk.q[base + d + dv..][..dv];
                    let lse = blk.q[base + d + 2 * dv];
                    if lse == f32::NEG_INFINITY {
                        continue;
                    }
                    let delta = blk.delta(b, qr.row, h);
                    for kr in blk.kv_rows {
                        if !blk.mask.allows(qr, kr) {
                            continue;
                        }
                        let kbase = blk.kv_shape.at(b, kr.row, kh);
                        let k = &blk.kv[kbase..][..d];
                        let v = &blk.kv[kbase + d..][..dv];
                        let (s, t) = score(blk, h, q, k, (qr, kr));
                        let p = (s - lse).exp();
                        let ds = p * (dot(d_o, v) - delta) * t;
                        let dq_row = &mut dq[dqs.at(b, qr.row, h)..][..d];
                        for (g, x) in dq_row.iter_mut().zip(k) {
                            *g += blk.scale * ds * x;
                        }
                        let dkv_row = &mut dkv[dkvs.at(b, kr.row, kh)..][..d + dv];
                        for i in 0..d {
                            dkv_row[i] += blk.scale * ds * q[i];
                        }
                        for i in 0..dv {
                            dkv_row[d + i] += p * d_o[i];
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// LSE-weighted combine (the online softmax's merge; every executor path and kernel adapter
/// merges partial outputs through this one function) of a partial (o, lse) into an accumulator (o, lse).
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
