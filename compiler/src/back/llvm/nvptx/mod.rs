//! The NVPTX lowering of the kernel IR: forward, backward and merge kernels for sm_80 and sm_90a.
//!
//! GPU kernels serve a whole launch: every query head (GQA by indexing: KV head = head / group)
//! of every sequence of a packed THD batch (`cu_seqlens` for Q and KV, one absolute start
//! position per sequence so masks follow the token split). Inputs are bf16 or fp16, accumulation
//! fp32. The forward kernel writes a normalised partial output and its LSE; the merge kernel
//! folds a partial into the running output (`out, lse ← merge(out, lse, part, part_lse)`), the
//! online softmax across ring steps.
//!
//! Forward (`ForQueryBlocks` → CTAs of 64 query rows, 4 warps of 16 rows; `ForKvTiles` → a loop
//! over KV tiles of 64 keys (32 at head_dim 256) within the mask bounds): `TransposeKeys` becomes
//! `cp.async` double-buffering of K/V tiles into XOR-swizzled shared memory, read by `ldmatrix`
//! (K as the column operand, V through `.trans`); `Scores` is `mma.sync.m16n8k16` (sm_80) or
//! `wgmma.mma_async.m64nNk16` on the warpgroup (sm_90a, inline PTX, K and V in the canonical
//! core-matrix layout); `MaskEdge` compares absolute positions only on tiles that straddle the mask
//! edge or end the run; `OnlineSoftmax` keeps m and l per row in registers (base-2 exponent,
//! quad shuffles for row max and sum); `AccumulatePv` reuses the S accumulators as the A operand.
//! Backward (`ForQueryRows`/`ForAllowedKeys` → CTAs of 64 keys, loop over query tiles): dK, dV in
//! registers, dQ by fp32 atomics; mma.sync on both targets.
//!
//! By concern: `abi.rs` (parameters, entry modules, launch configuration, merge and add kernels),
//! `smem.rs` (tiles, `cp.async`, `ldmatrix`), `mma.rs` (`mma.sync`), `wgmma.rs` (Hopper
//! warpgroup products and descriptors), `forward.rs`, `backward.rs`; this file holds the generator
//! they share (thread ids, registers, masks, a CTA's frame).

mod abi;
mod backward;
mod forward;
mod hopper;
mod mma;
mod smem;
mod wgmma;

use super::bounds::{clamp30, plus, two_sided};
use super::score::{Exp2, Llvm};
use super::text::{Fn, V, f32c, i32c, i64c};
use crate::expr::score::{Leaves, lower_grads};
use crate::kernel::KernelSpec;
use crate::spec::{Dtype, Score};
pub use abi::{ADD2D, BWD_PARAMS, FWD_PARAMS, Launch, add2d_module, merge_module, module};

const THREADS: u32 = 128;
const BM: i64 = 64;

fn bn(d: i64) -> i64 {
    if d > 128 { 16 } else { 64 }
}

/// Element offset of column `2t + col` of head `head` of token `token` in a [tokens, heads, d]
/// tensor with `row_stride` elements per token (`t`: the thread's lane % 4, as in C fragments).
fn frag_offset(f: &mut Fn, token: &V, row_stride: &V, head: &V, d: i64, t: &V, col: i64) -> V {
    let a = f.bin("mul", token, row_stride);
    let hd = f.bin("mul", head, &i64c(d));
    let a = f.bin("add", &a, &hd);
    let c = f.bin("mul", t, &i64c(2));
    let c = f.bin("add", &c, &i64c(col));
    f.bin("add", &a, &c)
}

/// `*p += x` in global fp32, atomically (relaxed).
fn atomic_add(f: &mut Fn, p: &V, x: &V) {
    f.op(format!("atomicrmw fadd {}, {} monotonic", p.t(), x.t()));
}

fn param(name: &str, ty: &str) -> V {
    V::new(format!("%{name}"), ty)
}

const P1: &str = "ptr addrspace(1)";
const P3: &str = "ptr addrspace(3)";

struct Gen {
    spec: KernelSpec,
    /// The query/key head dim.
    d: i64,
    /// The value/output head dim (MLA's differs).
    dv: i64,
    f: Fn,
    /// The score's per-head values of the CTA's head (`Score::head_values`), loaded by `frame`.
    heads: Vec<V>,
}

/// Per-thread ids of a CTA.
struct Ids {
    warp: V,
    /// lane / 4 and lane % 4 (the mma fragment coordinates).
    g: V,
    t: V,
    lane: V,
    tid: V,
}

/// A tile in shared memory: `rows` rows of `d` 16-bit elements.
#[derive(Clone)]
struct Tile {
    base: V,
    /// Elements per row.
    width: i64,
    /// The canonical core-matrix layout of wgmma instead of the XOR swizzle.
    core: bool,
}

impl Gen {
    pub(super) fn ids(&mut self) -> Ids {
        let f = &mut self.f;
        let tid32 = f.call("i32", "llvm.nvvm.read.ptx.sreg.tid.x", &[]);
        let tid = f.cast("zext", &tid32, "i64");
        let warp = f.bin("lshr", &tid, &i64c(5));
        let lane = f.bin("and", &tid, &i64c(31));
        let g = f.bin("lshr", &lane, &i64c(2));
        let t = f.bin("and", &lane, &i64c(3));
        Ids { warp, g, t, lane, tid }
    }

    pub(super) fn param(&self, name: &str, ty: &str) -> V {
        param(name, ty)
    }

    pub(super) fn load_i32_as_i64(&mut self, p: &V, idx: &V) -> V {
        let a = self.f.gep("i32", p, idx);
        let x = self.f.load("i32", &a, 4);
        self.f.cast("sext", &x, "i64")
    }

    /// A per-thread register array as a stack slot with constant indices (promoted to registers).
    pub(super) fn regs(&mut self, n: usize, init: f32) -> V {
        let slot = self.f.alloca(&format!("[{n} x float]"), 4);
        for i in 0..n {
            let p = self.f.gep("float", &slot, &i64c(i as i64));
            self.f.store(&f32c(init), &p, 4);
        }
        slot
    }

    pub(super) fn get(&mut self, regs: &V, i: usize) -> V {
        let p = self.f.gep("float", regs, &i64c(i as i64));
        self.f.load("float", &p, 4)
    }

    pub(super) fn set(&mut self, regs: &V, i: usize, x: &V) {
        let p = self.f.gep("float", regs, &i64c(i as i64));
        self.f.store(x, &p, 4);
    }

    pub(super) fn quad_reduce(&mut self, x: &V, max: bool) -> V {
        self.butterfly(x, &[1, 2], max)
    }

    /// The sum of `x` over the warp's 32 lanes (in every lane).
    pub(super) fn warp_sum(&mut self, x: &V) -> V {
        self.butterfly(x, &[16, 8, 4, 2, 1], false)
    }

    /// `x` reduced (max or sum) over the lanes whose ids differ in the bits of `masks`, by
    /// `shfl.sync.bfly`; every lane gets the result.
    fn butterfly(&mut self, x: &V, masks: &[i64], max: bool) -> V {
        let mut x = x.clone();
        for &m in masks {
            let y = self.f.call("float", "llvm.nvvm.shfl.sync.bfly.f32", &[&i32c(-1), &x, &i32c(m), &i32c(31)]);
            x = if max { self.f.call("float", "llvm.maxnum.f32", &[&x, &y]) } else { self.f.fast("fadd", &x, &y) };
        }
        x
    }

    /// A raw score x (q·k) through the spec's score modification f, in base-2 units for `ex2`:
    /// f(x·scale)·log₂e (`back/llvm/score.rs` lowers f); and f'(x·scale) when `slope`, which the
    /// backward multiplies into dS. `at` holds the pair's query and key positions (i64), read
    /// only by a score that reads positions (LLVM drops them otherwise).
    /// With `slope`, also the derivatives by the learned parameters (`Score::params`).
    pub(super) fn score(
        &mut self,
        score: &Score,
        x: &V,
        scale: &V,
        at: (&V, &V),
        slope: bool,
    ) -> (V, Option<V>, Vec<V>) {
        let xs = self.f.fast("fmul", x, scale);
        let leaves = if score.positions() {
            let q = self.f.cast("sitofp", at.0, "float");
            let k = self.f.cast("sitofp", at.1, "float");
            Leaves { s: xs, q: Some(q), k: Some(k), heads: &[] }
        } else {
            Leaves::s(xs)
        };
        let heads = self.heads.clone();
        let leaves = Leaves { heads: &heads, ..leaves };
        let (y, d, g) = lower_grads(score, &mut Llvm { f: &mut self.f, exp2: Exp2::Nvptx }, leaves, slope);
        (self.f.fast("fmul", &y, &f32c(std::f32::consts::LOG2_E)), d, g)
    }

    /// The per-sequence frame of a CTA: (seq, head, kv head, tile index) and the run's extents.
    pub(super) fn frame(&mut self) -> Frame {
        let f = &mut self.f;
        let x = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.x", &[]);
        let y = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.y", &[]);
        let z = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.z", &[]);
        let tile = f.cast("zext", &x, "i64");
        let head = f.cast("zext", &y, "i64");
        let seq = f.cast("zext", &z, "i64");
        let kv_head = f.bin("udiv", &head, &i64c(self.spec.group as i64));
        // A score that reads the head: its values for this head, `head_values[head · n + i]`.
        let n = self.spec.score.map_or(0, |s| s.head_count()) as i64;
        if n > 0 {
            let base = f.bin("mul", &head, &i64c(n));
            for i in 0..n {
                let at = f.bin("add", &base, &i64c(i));
                let p = f.gep("float", &param("head_values", P1), &at);
                let x = f.load("float", &p, 4);
                self.heads.push(x);
            }
        }
        let (cu_q, cu_kv) = (self.param("cu_q", P1), self.param("cu_kv", P1));
        let q0 = self.load_i32_as_i64(&cu_q, &seq);
        let s1 = self.f.bin("add", &seq, &i64c(1));
        let q1 = self.load_i32_as_i64(&cu_q, &s1);
        let kv0 = self.load_i32_as_i64(&cu_kv, &seq);
        let kv1 = self.load_i32_as_i64(&cu_kv, &s1);
        let f = &mut self.f;
        let q_len = f.bin("sub", &q1, &q0);
        let kv_len = f.bin("sub", &kv1, &kv0);
        let pp = f.gep("i64", &param("pos_q", P1), &seq);
        let q_pos = f.load("i64", &pp, 8);
        let pk = f.gep("i64", &param("pos_kv", P1), &seq);
        let kv_pos = f.load("i64", &pk, 8);
        Frame { tile, head, kv_head, q0, q_len, kv0, kv_len, q_pos, kv_pos }
    }

    /// The row stride of a `dv`-wide tensor (v, o, do, dv) whose `d`-wide twin (k or q) has
    /// stride `row`: the same heads, `row / d · dv` (the kernels take one stride per side).
    pub(super) fn v_stride(&mut self, row: &V) -> V {
        if self.dv == self.d {
            return row.clone();
        }
        let heads = self.f.bin("udiv", row, &i64c(self.d));
        self.f.bin("mul", &heads, &i64c(self.dv))
    }

    /// Base pointer of head `h` of a [tokens, heads, d] tensor starting at token `t0`.
    pub(super) fn head_base(&mut self, p: &V, t0: &V, row: &V, h: &V, heads_stride: i64) -> V {
        let f = &mut self.f;
        let a = f.bin("mul", t0, row);
        let b = f.bin("mul", h, &i64c(heads_stride));
        let a = f.bin("add", &a, &b);
        f.gep("i16", p, &a)
    }
}

/// ldmatrix lane coordinates: matrix `lane / 8` split into its low and high bit, row `lane % 8`.
struct Lanes {
    mi_lo: V,
    mi_hi: V,
    mj: V,
}

/// The query rows of a thread's fragments: the first and last query positions of its CTA's (or
/// warpgroup's) rows and the thread's first row among them (`warp · 16 + lane / 4`).
struct RowsAt {
    q_lo: V,
    q_hi: V,
    row_g: V,
}

/// A forward CTA's query rows and KV tiles (`Gen::cta_rows`): the first row `m0` of the run, how
/// many (`rows`), their positions `q_lo..=q_hi`, the KV tiles `lo..hi`, the exit label.
struct CtaRows {
    m0: V,
    rows: V,
    q_lo: V,
    q_hi: V,
    lo: V,
    hi: V,
    out: String,
}

/// The extents of a CTA's run pair.
struct Frame {
    tile: V,
    head: V,
    kv_head: V,
    q0: V,
    q_len: V,
    kv0: V,
    kv_len: V,
    q_pos: V,
    kv_pos: V,
}
