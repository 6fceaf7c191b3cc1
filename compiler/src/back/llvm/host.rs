//! The host lowering of the kernel IR: x86-64 with 256-bit vectors (AVX2 + FMA), the ABI of
//! `kernel::FwdArgs` / `kernel::BwdArgs`, so the runtime calls it exactly like Cranelift's code.
//!
//! Forward, per step of `kernel::program`: for each query block of `BLOCK_Q` rows, its state
//! rows started in the ABI's scratch (`StartState`), then for each KV tile of 24 keys within the
//! mask, `TransposeKeys` writes Kᵀ into a stack buffer and copies the tile's V rows next to it
//! (contiguous: rows a KV stride apart would share a few cache sets);
//! the query rows within the mask then run as tiles of 4 rows, the last one partial (its missing
//! rows read the first row and keep their state in spare rows, so one tile function serves every
//! count). `Scores` is a 4×24 register tile (12 accumulators: one broadcast of q per row and
//! three loads of Kᵀ per head element), a loop over the head, 8 elements an iteration, the
//! accumulators carried in registers; `MaskEdge` runs only when the tile straddles the mask edge
//! or ends the run (integer compares of column offsets); `OnlineSoftmax` keeps m and l in the
//! state rows and computes P as exp2 with scale·log₂e folded into one FMA per score vector, every
//! row's rescale factor from one vector exp2; `AccumulatePv` walks the head in 24-wide chunks of 4
//! rows (12 accumulators), each a loop over the tile's keys (4 an iteration, then one at a time
//! for a partial tile, so no key beyond the run is read), the rescale folded into the load of the
//! accumulator and skipped when no row's maximum moved (the factor is then exactly 1); at the
//! block's end `WriteOut` stores O and LSE of its rows at the caller's strides. Loops, not
//! fully unrolled tiles: unrolled, a tile is tens of KiB of code, beyond the micro-op cache.
//! Backward, in FlashAttention-2's order: for each KV tile, Kᵀ, Vᵀ and the K rows into stack
//! buffers and the tile's dK, dV accumulated in stack tiles while the query rows that see it pass
//! in tiles (the same `Scores` for S = QKᵀ and dP = dO Vᵀ, P and dS into stack tiles, then dV, dK
//! and dQ as register-tiled loops over the keys); the tile's dK and dV are added to the dKV rows.
//! On an AVX-512 CPU the JIT writes both kernels for 512-bit vectors ([`AVX512`]): 32-key tiles,
//! 8-row query tiles, tree reductions, `vscalefps` in exp2, forward query blocks of 1024 rows;
//! ahead-of-time objects and the golden IR are the 256-bit ([`AVX2`]) kernels.

use std::fmt::Write;

use super::bounds::{clamp30, kv_bounds, needs_mask, q_bounds};
use super::score::{Exp2, Llvm};
use super::text::{Fn, V, f32c, i32c, i64c, round_down};
use crate::expr::score::{Leaves, Lower, Prim, lower_grads};
use crate::kernel::{BLOCK_Q, BLOCK_Q_WIDE, Band, KernelKind, KernelSpec, offsets};
use crate::spec::Score;

/// Keys per iteration of the P·V loops.
const PV_UNROLL: i64 = 4;

/// Head elements per iteration of the score loop: 8, or 4 when head_dim is not a multiple of 8.
fn head_unroll(d: i64) -> i64 {
    if d % 8 == 0 { 8 } else { 4 }
}

/// Score vectors per pass over the head at 256 bits: 3 × 8 keys × 4 rows, 12 accumulators (with
/// 3 Kᵀ vectors and a broadcast, the 16 registers). 24-key tiles measured 10% faster than 16-key
/// ones once the head became a loop (fully unrolled, they spilled and were slower).
const SCORE_VECTORS: usize = 3;

/// The attributes every host function carries: AVX2 + FMA code, no unwinding.
pub const ATTRS: &str = "\"target-cpu\"=\"x86-64-v3\" \"target-features\"=\"+avx2,+fma\" nounwind";

/// The vector width the forward kernel is written for: 256-bit (AVX2, what ahead-of-time objects
/// and every x86-64-v3 host run) or 512-bit (AVX-512, chosen at JIT time where the CPU has it).
pub struct Isa {
    /// Lanes per vector.
    pub w: u32,
    /// Keys per KV tile (a multiple of `w`).
    pub tk: i64,
    /// Head vectors per P·V chunk for 4-row tiles (accumulators: 4 × this).
    pub per_chunk: usize,
    /// Score vectors per pass over the head (accumulators: rows × this).
    pub score_vectors: usize,
    /// Query rows of the main tile (4, or 8 with 32 vector registers).
    pub main_rows: usize,
    /// Row maxima and sums as tree reductions (`nnan reassoc`), not lane by lane.
    pub tree_reductions: bool,
    /// 2ⁿ by `vscalefps` (AVX-512) rather than by building the exponent bits.
    pub scalef: bool,
    pub attrs: &'static str,
}

pub const AVX2: Isa = Isa {
    w: 8,
    tk: 24,
    per_chunk: 3,
    score_vectors: SCORE_VECTORS,
    main_rows: 4,
    tree_reductions: false,
    scalef: false,
    attrs: ATTRS,
};

/// 512-bit vectors and 32 registers: 32-key tiles, 4 × 4 accumulators in P·V.
pub const AVX512: Isa = Isa {
    w: 16,
    tk: 32,
    per_chunk: 4,
    score_vectors: 2,
    main_rows: 8,
    tree_reductions: true,
    scalef: true,
    attrs: "\"target-cpu\"=\"x86-64-v4\" \"target-features\"=\"+avx2,+fma,+avx512f,+avx512vl,+avx512dq,+avx512bw\" \
            \"prefer-vector-width\"=\"512\" \"min-legal-vector-width\"=\"512\" nounwind",
};

/// The module text of a spec's host kernel, with entry point `spec.name()` (256-bit).
pub fn module(spec: &KernelSpec) -> String {
    module_for(spec, &AVX2)
}

/// The module of a spec's host kernel written for `isa`.
pub fn module_for(spec: &KernelSpec, isa: &Isa) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "; attnc host kernel {}", spec.name());
    let _ = writeln!(out, "target triple = \"x86_64-unknown-linux-gnu\"");
    out.push_str(DECLS);
    match spec.kind {
        KernelKind::Forward => {
            if isa.w != 8 {
                out.push_str(DECLS16);
            }
            out.push_str(&exp2_fn(isa));
            out.push_str(&tile_fn(spec, isa.main_rows, isa));
            out.push_str(&forward_fn(spec, isa));
        }
        KernelKind::Backward => {
            if isa.w != 8 {
                out.push_str(DECLS16);
            }
            out.push_str(&exp2_fn(isa));
            out.push_str(&btile_fn(spec, isa.main_rows, isa));
            out.push_str(&backward_fn(spec, isa));
        }
    }
    out
}

const DECLS: &str = "
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare <8 x float> @llvm.maxnum.v8f32(<8 x float>, <8 x float>)
declare <8 x float> @llvm.minnum.v8f32(<8 x float>, <8 x float>)
declare <8 x float> @llvm.rint.v8f32(<8 x float>)
declare <8 x float> @llvm.floor.v8f32(<8 x float>)
declare float @llvm.vector.reduce.fmax.v8f32(<8 x float>)
declare float @llvm.vector.reduce.fadd.v8f32(float, <8 x float>)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.fma.f32(float, float, float)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
";

/// The 512-bit intrinsics (in modules written for AVX-512 only).
const DECLS16: &str = "
declare <16 x float> @llvm.fma.v16f32(<16 x float>, <16 x float>, <16 x float>)
declare <16 x float> @llvm.maxnum.v16f32(<16 x float>, <16 x float>)
declare <16 x float> @llvm.minnum.v16f32(<16 x float>, <16 x float>)
declare <16 x float> @llvm.rint.v16f32(<16 x float>)
declare <16 x float> @llvm.floor.v16f32(<16 x float>)
declare float @llvm.vector.reduce.fmax.v16f32(<16 x float>)
declare float @llvm.vector.reduce.fadd.v16f32(float, <16 x float>)
declare <16 x float> @llvm.x86.avx512.mask.scalef.ps.512(<16 x float>, <16 x float>, <16 x float>, i16, i32)
";

/// `x` in every one of `w` lanes, as a constant.
fn splatw(x: f32, w: u32) -> V {
    let c = f32c(x).name;
    let lanes: Vec<String> = (0..w).map(|_| format!("float {c}")).collect();
    V::new(format!("<{}>", lanes.join(", ")), vty(w))
}

/// An i32 constant vector of `w` lanes.
fn i32s(x: i64, w: u32) -> V {
    let lanes: Vec<String> = (0..w).map(|_| format!("i32 {x}")).collect();
    V::new(format!("<{}>", lanes.join(", ")), format!("<{w} x i32>"))
}

/// The first `w` lanes of a vector.
fn narrow(f: &mut Fn, v: &V, w: u32) -> V {
    let lanes: Vec<u32> = (0..w).collect();
    f.shuffle(v, v, &lanes)
}

/// `@exp2_{w}`: 2ˣ over `w` lanes for x ≤ 127 (the forward kernel's softmax, whose scale folds
/// log₂e into one FMA per score vector). Below −125 (e^−86.6) the result is exactly 0, so
/// masked scores (−∞) vanish and no result is subnormal. n = rint(x), r = x − n exact in
/// [−½, ½], 2ʳ by its degree-6 Taylor polynomial (relative error ≤ 1.7e−7), then scaled by 2ⁿ:
/// `vscalefps` on AVX-512, the exponent bits otherwise.
fn exp2_fn(isa: &Isa) -> String {
    let w = isa.w;
    let mut f = Fn::default();
    let vw = vty(w);
    let x = V::new("%x", &vw);
    let s = |x: f32| splatw(x, w);
    let small = f.fcmp("olt", &x, &s(-125.0));
    let xc = f.call(&vw, &format!("llvm.maxnum.v{w}f32"), &[&x, &s(-125.0)]);
    let n = f.call(&vw, &format!("llvm.rint.v{w}f32"), &[&xc]);
    let r = f.fast("fsub", &xc, &n);
    let ln2 = std::f64::consts::LN_2;
    let mut coefficients = [0f32; 7];
    let mut c = 1f64;
    for (k, slot) in coefficients.iter_mut().enumerate() {
        if k > 0 {
            c *= ln2 / k as f64;
        }
        *slot = c as f32;
    }
    let mut p = s(coefficients[6]);
    for &c in coefficients[..6].iter().rev() {
        p = f.call(&vw, &format!("llvm.fma.v{w}f32"), &[&p, &r, &s(c)]);
    }
    let y = if isa.scalef {
        f.let_(
            &vw,
            format!(
                "call {vw} @llvm.x86.avx512.mask.scalef.ps.512({}, {}, {vw} zeroinitializer, i16 -1, i32 4)",
                p.t(),
                n.t()
            ),
        )
    } else {
        let ni = f.cast("fptosi", &n, &format!("<{w} x i32>"));
        let e = f.bin("add", &ni, &i32s(127, w));
        let e = f.bin("shl", &e, &i32s(23, w));
        let two_n = f.cast("bitcast", &e, &vw);
        f.fast("fmul", &p, &two_n)
    };
    let out = f.select(&small, &s(0.0), &y);
    f.op(format!("ret {}", out.t()));
    format!("\ndefine internal {vw} @exp2_{w}({vw} %x) alwaysinline {} {{\n{}}}\n", isa.attrs, f.finish())
}

/// The tile columns of vector `h` of a row, `h·w .. h·w + w`, as an i32 vector constant.
fn lane_columns(w: u32, h: usize) -> V {
    let lanes: Vec<String> = (0..w as usize).map(|c| format!("i32 {}", c + w as usize * h)).collect();
    V::new(format!("<{}>", lanes.join(", ")), format!("<{w} x i32>"))
}

/// The score modification of a tile's raw scores (unscaled: the scale folds into the softmax's
/// exponent): raw ↦ f(raw·scale)/scale, f the score's code (`back/llvm/score.rs`). Returns
/// f'(raw·scale) per score vector when `slope` (the backward multiplies it into dS). A score that
/// reads positions gets them from the tile's `%qpos` (its first row's) and `%kpos` (its first
/// key's): row `r`, lane `c` of vector `h` is the pair (qpos + r, kpos + h·w + c). With `slope`,
/// also the derivatives by the learned parameters, `[row][vector][param]`.
#[allow(clippy::type_complexity)]
fn score_tile(
    f: &mut Fn,
    s: &mut [Vec<V>],
    scale: &V,
    score: &Score,
    w: u32,
    slope: bool,
) -> (Vec<Vec<V>>, Vec<Vec<Vec<V>>>) {
    let sc = f.splat(scale, w);
    let inv = f.fast("fdiv", &f32c(1.0), scale);
    let inv = f.splat(&inv, w);
    let (qpos, kpos) = (V::new("%qpos", "i64"), V::new("%kpos", "i64"));
    let heads: Vec<V> = (0..score.head_count())
        .map(|i| {
            let p = f.gep("float", &V::new("%hv", "ptr"), &i64c(i as i64));
            let x = f.load("float", &p, 4);
            f.splat(&x, w)
        })
        .collect();
    let (mut slopes, mut grads) = (Vec::new(), Vec::new());
    for (r, row) in s.iter_mut().enumerate() {
        let (mut dr, mut gr) = (Vec::new(), Vec::new());
        for (h, x) in row.iter_mut().enumerate() {
            let xs = f.fast("fmul", x, &sc);
            let leaves = if score.positions() {
                let qp = f.bin("add", &qpos, &i64c(r as i64));
                let qf = f.cast("sitofp", &qp, "float");
                let q = f.splat(&qf, w);
                let k0 = f.cast("trunc", &kpos, "i32");
                let k0 = f.splat(&k0, w);
                let kv = f.bin("add", &k0, &lane_columns(w, h));
                let k = f.cast("sitofp", &kv, &format!("<{w} x float>"));
                Leaves { s: xs, q: Some(q), k: Some(k), heads: &heads }
            } else {
                Leaves { heads: &heads, ..Leaves::s(xs) }
            };
            let (y, d, g) = lower_grads(score, &mut Llvm { f: &mut *f, exp2: Exp2::Host(w) }, leaves, slope);
            *x = f.fast("fmul", &y, &inv);
            dr.extend(d);
            gr.push(g);
        }
        slopes.push(dr);
        grads.push(gr);
    }
    (slopes, grads)
}

/// The sum of a `w`-lane vector: a tree (`reassoc`) where the ISA's kernels take one, else in
/// lane order.
fn reduce_fadd(f: &mut Fn, v: &V, w: u32, tree: bool) -> V {
    match tree {
        true => f.let_("float", format!("call reassoc float @llvm.vector.reduce.fadd.v{w}f32(float -0.0, {})", v.t())),
        false => f.call("float", &format!("llvm.vector.reduce.fadd.v{w}f32"), &[&f32c(-0.0), v]),
    }
}

/// Loads an i64 or f32 field of the argument struct.
fn field(f: &mut Fn, args: &V, offset: i32, ty: &str) -> V {
    let p = f.gep("i8", args, &i64c(offset as i64));
    f.load(ty, &p, if ty == "i64" || ty == "ptr" { 8 } else { 4 })
}

/// The vector widths covering `d` head elements with vectors of up to `w` lanes: `w`s, then 8s and
/// a 4 for what is left (head_dim is a multiple of 4).
fn lanes_w(d: i64, w: u32) -> Vec<(i64, u32)> {
    let w = w as i64;
    let mut out: Vec<(i64, u32)> = (0..d / w).map(|i| (w * i, w as u32)).collect();
    out.extend(lanes(d - d / w * w).into_iter().map(|(o, n)| (d / w * w + o, n)));
    out
}

/// The vector widths covering `d` head elements: 8s, then a 4 (head_dim is a multiple of 4).
fn lanes(d: i64) -> Vec<(i64, u32)> {
    let mut out: Vec<(i64, u32)> = (0..d / 8).map(|i| (8 * i, 8)).collect();
    if d % 8 != 0 {
        out.push((d / 8 * 8, 4));
    }
    out
}

fn vty(w: u32) -> String {
    format!("<{w} x float>")
}

fn fma(f: &mut Fn, a: &V, b: &V, c: &V) -> V {
    if a.ty == "float" {
        return f.call("float", "llvm.fma.f32", &[a, b, c]);
    }
    let w: u32 = a.ty.trim_start_matches('<').split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(4);
    f.call(&vty(w), &format!("llvm.fma.v{w}f32"), &[a, b, c])
}

fn vload(f: &mut Fn, base: &V, at: i64, w: u32) -> V {
    let p = f.gep("float", base, &i64c(at));
    f.load(&vty(w), &p, 4)
}

fn vstore(f: &mut Fn, v: &V, base: &V, at: i64) {
    let p = f.gep("float", base, &i64c(at));
    f.store(v, &p, 4);
}

/// `Scores`: `rows.len()` × `tk` dot products of the rows at `rows` (head_dim floats each) with
/// the keys of Kᵀ at `kt` (head_dim × tk), unscaled, in passes of `score_vectors` × `w` columns;
/// each pass a loop over the head, `head_unroll(d)` elements per iteration, its accumulators
/// carried in registers (a fully unrolled head is tens of KiB of code per tile, more than the
/// micro-op cache holds).
fn scores(f: &mut Fn, rows: &[V], kt: &V, d: i64, tk: i64, w: u32, score_vectors: usize) -> Vec<Vec<V>> {
    let r = rows.len();
    let zero = splatw(0.0, w);
    let mut acc: Vec<Vec<V>> = (0..r).map(|_| Vec::new()).collect();
    let vectors: Vec<i64> = (0..tk / w as i64).collect();
    let unroll = head_unroll(d);
    for pass in vectors.chunks(score_vectors) {
        let n = pass.len();
        let init = vec![zero.clone(); r * n];
        let out = f.for_carry(&i64c(0), &i64c(d), unroll, &init, |f, e0, mut cur| {
            let kbase = f.bin("mul", e0, &i64c(tk));
            let kp = f.gep("float", kt, &kbase);
            let rp: Vec<V> = rows.iter().map(|p| f.gep("float", p, e0)).collect();
            for u in 0..unroll {
                let ks: Vec<V> = pass.iter().map(|&h| vload(f, &kp, u * tk + w as i64 * h, w)).collect();
                for (row, p) in rp.iter().enumerate() {
                    let at = f.gep("float", p, &i64c(u));
                    let x = f.load("float", &at, 4);
                    let b = f.splat(&x, w);
                    for (j, k) in ks.iter().enumerate() {
                        cur[row * n + j] = fma(f, &b, k, &cur[row * n + j]);
                    }
                }
            }
            cur
        });
        for (row, a) in acc.iter_mut().enumerate() {
            a.extend_from_slice(&out[row * n..(row + 1) * n]);
        }
    }
    acc
}

/// `MaskEdge`: only when `masked` (tiles on the mask edge or partial), scores of keys outside
/// the tile's `cols` or the mask become −∞. `diff` is the first row's position minus the first
/// key's (clamped to ±2³⁰); row `i` sees column `c` when `c ≤ diff + i − lo` and
/// `c > diff + i − end` (the band's sides that are set).
fn mask_edge(f: &mut Fn, mask: Band, s: &mut [Vec<V>], cols: &V, diff: &V, masked: &V, w8: u32) {
    let vw = vty(w8);
    let (yes, done, entry) = (f.label("mask"), f.label("masked"), f.label("nomask"));
    f.br(&entry);
    f.place(&entry);
    f.cond_br(masked, &yes, &done);
    f.place(&yes);
    let cols32 = f.cast("trunc", cols, "i32");
    let cols_v = f.splat(&cols32, w8);
    let diff32 = f.cast("trunc", diff, "i32");
    let mut masked_s = Vec::new();
    for (row, pair) in s.iter().enumerate() {
        let base = f.bin("add", &diff32, &i32c(row as i64));
        let base_v = f.splat(&base, w8);
        // q − k ≥ lo ⇔ c ≤ base − lo.
        let top_v = mask.lo.map(|lo| match clamp30(lo) {
            0 => base_v.clone(),
            lo => {
                let top = f.bin("sub", &base, &i32c(lo));
                f.splat(&top, w8)
            }
        });
        let mut out = Vec::new();
        for (h, sv) in pair.iter().enumerate() {
            let c = lane_columns(w8, h);
            let mut ok = f.icmp("slt", &c, &cols_v);
            if let Some(top_v) = &top_v {
                let seen = f.icmp("sle", &c, top_v);
                ok = f.bin("and", &ok, &seen);
            }
            if let Some(end) = mask.end {
                // q − k < end ⇔ c > base − end.
                let lo = f.bin("sub", &base, &i32c(clamp30(end)));
                let lo_v = f.splat(&lo, w8);
                let inside = f.icmp("sgt", &c, &lo_v);
                ok = f.bin("and", &ok, &inside);
            }
            out.push(f.select(&ok, sv, &splatw(f32::NEG_INFINITY, w8)));
        }
        masked_s.push(out);
    }
    f.br(&done);
    f.place(&done);
    for (row, pair) in s.iter_mut().enumerate() {
        for (h, x) in pair.iter_mut().enumerate() {
            let m = &masked_s[row][h];
            *x = f.let_(&vw, format!("phi {vw} [ {}, %{entry} ], [ {}, %{yes} ]", x.name, m.name));
        }
    }
}

/// `@tileR`: one query tile of `r` rows × one KV tile: scores, edge mask, online softmax, P·V.
///
/// Arguments: q rows (contiguous, head_dim), state rows (v_head_dim + 2), Kᵀ (head_dim × tk), the
/// tile's V rows (contiguous, v_head_dim), columns in the tile, the first query position minus the
/// first key position (clamped to ±2³⁰), whether to mask, scale, the rows that exist (≤ r), r
/// spare state rows for the others.
fn tile_fn(spec: &KernelSpec, r: usize, isa: &Isa) -> String {
    let (d, dv) = (spec.head_dim as i64, spec.dv() as i64);
    let (w8, tk) = (isa.w, isa.tk);
    let vw = vty(w8);
    let mut f = Fn::default();
    let q = V::new("%q", "ptr");
    let state = V::new("%state", "ptr");
    let kt = V::new("%kt", "ptr");
    let v = V::new("%v", "ptr");
    let cols = V::new("%cols", "i64");
    let diff = V::new("%diff", "i64");
    let masked = V::new("%masked", "i1");
    let scale = V::new("%scale", "float");
    let (nrows, spare) = (V::new("%nrows", "i64"), V::new("%spare", "ptr"));
    let p_buf = f.alloca(&format!("[{} x float]", r as i64 * tk), w8 * 4);

    // Rows past `nrows` (the tail of the block) read the first row's q and keep their state in
    // `spare`: one tile shape serves every row count.
    let valid: Vec<V> = (0..r).map(|row| f.icmp("slt", &i64c(row as i64), &nrows)).collect();
    let rows: Vec<V> = (0..r)
        .map(|row| {
            let p = f.gep("float", &q, &i64c(row as i64 * d));
            f.select(&valid[row], &p, &q)
        })
        .collect();
    let st: Vec<V> = (0..r)
        .map(|row| {
            let p = f.gep("float", &state, &i64c(row as i64 * (dv + 2)));
            let sp = f.gep("float", &spare, &i64c(row as i64 * (dv + 2)));
            f.select(&valid[row], &p, &sp)
        })
        .collect();
    let acc = scores(&mut f, &rows, &kt, d, tk, w8, isa.score_vectors);
    // The scores stay unscaled: the scale folds into the exponent of the softmax.
    let mut s = acc;
    // Score, before the mask.
    if let Some(score) = spec.score {
        score_tile(&mut f, &mut s, &scale, score, w8, false);
    }

    mask_edge(&mut f, spec.mask, &mut s, &cols, &diff, &masked, w8);

    // OnlineSoftmax: per row, m and l in the state row (natural units, scaled scores); P into the
    // stack tile as P = 2^(s·scale·log₂e − m'·log₂e), one FMA per score vector before the exp2.
    // The row maximum of the raw scores times scale is that of the scaled ones (scale > 0).
    let log2e = f32c(std::f32::consts::LOG2_E);
    let neg_log2e = f32c(-std::f32::consts::LOG2_E);
    let c = f.fast("fmul", &scale, &log2e);
    let cv = f.splat(&c, w8);
    let mut alpha = Vec::new();
    let mut rows_state = Vec::new();
    for (row, pair) in s.iter().enumerate() {
        let mut mx = pair[0].clone();
        for x in &pair[1..] {
            mx = f.call(&vw, &format!("llvm.maxnum.v{w8}f32"), &[&mx, x]);
        }
        let raw_max = if isa.tree_reductions {
            f.let_("float", format!("call nnan reassoc float @llvm.vector.reduce.fmax.v{w8}f32({})", mx.t()))
        } else {
            f.call("float", &format!("llvm.vector.reduce.fmax.v{w8}f32"), &[&mx])
        };
        let tile_max = f.fast("fmul", &raw_max, &scale);
        let mp = st[row].clone();
        let m_old = f.load("float", &mp, 4);
        let m_new = f.call("float", "llvm.maxnum.f32", &[&m_old, &tile_max]);
        let is_inf = f.fcmp("oeq", &m_new, &f32c(f32::NEG_INFINITY));
        let base = f.select(&is_inf, &f32c(0.0), &m_new);
        let nb = f.fast("fmul", &base, &neg_log2e);
        let nbv = f.splat(&nb, w8);
        let mut sum: Option<V> = None;
        for (h, sv) in pair.iter().enumerate() {
            let x = fma(&mut f, sv, &cv, &nbv);
            let p = f.call(&vw, &format!("exp2_{w8}"), &[&x]);
            vstore(&mut f, &p, &p_buf, row as i64 * tk + w8 as i64 * h as i64);
            sum = Some(match sum {
                None => p,
                Some(acc) => f.fast("fadd", &acc, &p),
            });
        }
        let sum = sum.expect("a tile has at least one score vector");
        let total = reduce_fadd(&mut f, &sum, w8, isa.tree_reductions);
        let dm = f.fast("fsub", &m_old, &base);
        let dm = f.fast("fmul", &dm, &log2e);
        let moved = f.fcmp("une", &m_new, &m_old);
        rows_state.push((m_new, total, dm, moved));
    }
    // The rescale factors of all rows through one vector exp2.
    let mut dms = splatw(0.0, w8);
    for (row, (_, _, dm, _)) in rows_state.iter().enumerate() {
        dms = f.let_(&vw, format!("insertelement {} {}, {}, i32 {row}", vw, dms.name, dm.t()));
    }
    let alphas = f.call(&vw, &format!("exp2_{w8}"), &[&dms]);
    let mut changed = V::new("false", "i1");
    for (row, (m_new, total, _, moved)) in rows_state.iter().enumerate() {
        let a = f.extract(&alphas, row as u32);
        let lp = f.gep("float", &st[row], &i64c(1));
        let l = f.load("float", &lp, 4);
        let l = fma(&mut f, &l, &a, total);
        f.store(&l, &lp, 4);
        let mp = st[row].clone();
        f.store(m_new, &mp, 4);
        alpha.push(f.splat(&a, w8));
        changed = f.bin("or", &changed, moved);
    }

    // AccumulatePv: chunks of the head × all rows, over the tile's keys.
    // Vectors of the head per chunk: 4 rows × 3 (12 accumulators, enough independent FMAs to
    // cover their latency; 2 per row leaves exactly 8 and measured 10–15% slower), 2 rows × 4.
    // 8-row tiles: 2 vectors of the head per row (16 accumulators).
    let per_chunk = if r > 4 {
        2
    } else if r == 4 {
        isa.per_chunk
    } else {
        4
    };
    let ls = lanes_w(dv, w8);
    let chunks: Vec<&[(i64, u32)]> = ls.chunks(per_chunk).collect();
    // When no row's maximum moved, every rescale factor is 1 (or the row is still empty): the
    // accumulators are updated without the multiply.
    let (scaled, plain, done) = (f.label("pv_scaled"), f.label("pv_plain"), f.label("pv_done"));
    f.cond_br(&changed, &scaled, &plain);
    for (rescale, label) in [(true, &scaled), (false, &plain)] {
        f.place(label);
        for chunk in &chunks {
            let n = chunk.len();
            let mut init = Vec::new();
            for (row, a) in alpha.iter().enumerate() {
                for &(off, w) in chunk.iter() {
                    let x = vload(&mut f, &st[row], 2 + off, w);
                    if rescale {
                        let aw = if w == w8 { a.clone() } else { narrow(&mut f, a, w) };
                        init.push(f.fast("fmul", &x, &aw));
                    } else {
                        init.push(x);
                    }
                }
            }
            let accs = accumulate_rows(&mut f, &init, &p_buf, tk, &v, dv, chunk, w8, &cols);
            for row in 0..r {
                for (i, &(off, _)) in chunk.iter().enumerate() {
                    vstore(&mut f, &accs[row * n + i], &st[row], 2 + off);
                }
            }
        }
        f.br(&done);
    }
    f.place(&done);
    f.op("ret void");
    format!(
        "\ndefine internal void @tile{r}(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, \
         i64 %cols, i64 %diff, i1 %masked, float %scale, i64 %nrows, ptr noalias %spare{}) {} {{\n{}}}\n",
        position_params(spec),
        isa.attrs,
        f.finish()
    )
}

/// The tile functions' last parameters: the first row's and the first key's positions, for a
/// score that reads them (`score_tile`); none otherwise, so other kernels are unchanged.
/// Then the score's per-head values (`ptr %hv`), for a score that reads the head.
fn position_params(spec: &KernelSpec) -> &'static str {
    match spec.score.map(|s| (s.positions(), s.reads_head())) {
        Some((true, true)) => ", i64 %qpos, i64 %kpos, ptr noalias %hv",
        Some((true, false)) => ", i64 %qpos, i64 %kpos",
        Some((false, true)) => ", ptr noalias %hv",
        _ => "",
    }
}

/// The tile call's position arguments (`position_params`): the tile's first query position and
/// first key position, then the per-head values `hv` (loaded from the arguments by
/// `head_values_field`).
fn position_args(f: &mut Fn, spec: &KernelSpec, q_pos: &V, r0: &V, k_lo: &V, hv: &Option<V>) -> Vec<V> {
    let mut out = Vec::new();
    if spec.score.is_some_and(|s| s.positions()) {
        out = vec![f.bin("add", q_pos, r0), k_lo.clone()];
    }
    out.extend(hv.clone());
    out
}

/// The argument struct's pointer to the score's per-head values, for a score that reads the head.
fn head_values_field(f: &mut Fn, spec: &KernelSpec, args: &V, offset: i32) -> Option<V> {
    spec.score.filter(|s| s.reads_head()).map(|_| field(f, args, offset, "ptr"))
}

/// `buf[c + off]` in every one of `w` lanes.
fn broadcast_at(f: &mut Fn, buf: &V, c: &V, off: i64, w: u32) -> V {
    let at = f.bin("add", c, &i64c(off));
    let p = f.gep("float", buf, &at);
    let x = f.load("float", &p, 4);
    f.splat(&x, w)
}

/// `acc[row·n + i] += Σ_c weights[row·tk + c] · src[c·d + chunk[i]]` over the keys `0..cols`
/// (P·V and dQ = dS·K): a loop of PV_UNROLL keys an iteration, then one at a time for what is
/// left of a partial tile (no key beyond the run is read); the accumulators stay in registers.
#[allow(clippy::too_many_arguments)]
fn accumulate_rows(
    f: &mut Fn,
    init: &[V],
    weights: &V,
    tk: i64,
    src: &V,
    d: i64,
    chunk: &[(i64, u32)],
    w: u32,
    cols: &V,
) -> Vec<V> {
    let n = chunk.len();
    let r = init.len() / n;
    let step = |f: &mut Fn, c: &V, acc: &mut [V]| {
        let base = f.bin("mul", c, &i64c(d));
        let sp = f.gep("float", src, &base);
        let xs: Vec<V> = chunk.iter().map(|&(o, wi)| vload(f, &sp, o, wi)).collect();
        for row in 0..r {
            let b = broadcast_at(f, weights, c, row as i64 * tk, w);
            for (i, &(_, wi)) in chunk.iter().enumerate() {
                let bw = if wi == w { b.clone() } else { narrow(f, &b, wi) };
                acc[row * n + i] = fma(f, &bw, &xs[i], &acc[row * n + i]);
            }
        }
    };
    let mains = round_down(f, cols, PV_UNROLL);
    let acc = f.for_carry(&i64c(0), &mains, PV_UNROLL, init, |f, c0, mut cur| {
        for u in 0..PV_UNROLL {
            let c = f.bin("add", c0, &i64c(u));
            step(f, &c, &mut cur);
        }
        cur
    });
    f.for_carry(&mains, cols, 1, &acc, |f, c, mut cur| {
        step(f, c, &mut cur);
        cur
    })
}

/// Query rows `r_lo..r_hi` in tiles of `main` rows, the last one partial: `call(f, first row,
/// rows in the tile)` (the tile functions take the row count, so one shape serves every tail).
fn row_tiles(f: &mut Fn, r_lo: &V, r_hi: &V, main: i64, call: impl std::ops::Fn(&mut Fn, &V, &V)) {
    let span = f.bin("sub", r_hi, r_lo);
    let span = f.max_i64(&span, &i64c(0));
    let mains = round_down(f, &span, main);
    let main_end = f.bin("add", r_lo, &mains);
    f.for_range(r_lo, &main_end, main, |f, r0| call(f, r0, &i64c(main)));
    let rest = f.bin("sub", &span, &mains);
    let any_rest = f.icmp("sgt", &rest, &i64c(0));
    f.if_(&any_rest, |f| call(f, &main_end, &rest));
}

/// Whether a query tile of `rows` rows from row `r0` needs the edge mask against the KV tile of
/// positions `k_lo..=k_hi`, and its first query position minus `k_lo`, clamped to ±2³⁰.
#[allow(clippy::too_many_arguments)]
fn tile_mask(f: &mut Fn, mask: Band, q_pos: &V, r0: &V, rows: &V, k_lo: &V, k_hi: &V, partial: &V) -> (V, V) {
    let ql = f.bin("add", q_pos, r0);
    let qh0 = f.bin("add", &ql, rows);
    let qh = f.bin("sub", &qh0, &i64c(1));
    let m = needs_mask(f, mask, &ql, &qh, k_lo, k_hi, partial);
    let diff = f.bin("sub", &ql, k_lo);
    let diff = f.clamp_i64(&diff, &i64c(-(1 << 30)), &i64c(1 << 30));
    (m, diff)
}

/// Where a forward writes O and LSE: pointers and row strides in floats.
struct Out {
    o: V,
    lse: V,
    o_stride: V,
    lse_stride: V,
}

/// `WriteOut`: O = acc / l and LSE = m + ln l of rows `rb0..rb1` from their state rows, or O = 0
/// and LSE = −inf where l = 0 (the row saw no key); ln as `score::log_by_bits`, on `w` lanes.
fn write_out(f: &mut Fn, state: &V, rb0: &V, rb1: &V, out: &Out, dv: i64, w: u32) {
    f.for_range(rb0, rb1, 1, |f, row| {
        let in_block = f.bin("sub", row, rb0);
        let at = f.bin("mul", &in_block, &i64c(dv + 2));
        let st = f.gep("float", state, &at);
        let m = f.load("float", &st, 4);
        let lp = f.gep("float", &st, &i64c(1));
        let l = f.load("float", &lp, 4);
        let seen = f.fcmp("ogt", &l, &f32c(0.0));
        let o_at = f.bin("mul", row, &out.o_stride);
        let o = f.gep("float", &out.o, &o_at);
        for &(off, wi) in &lanes_w(dv, w) {
            let acc = vload(f, &st, 2 + off, wi);
            let lv = f.splat(&l, wi);
            let x = f.bin("fdiv", &acc, &lv);
            let seen_v = f.splat(&seen, wi);
            let x = f.select(&seen_v, &x, &V::new("zeroinitializer", vty(wi)));
            vstore(f, &x, &o, off);
        }
        let lv = f.splat(&l, w);
        let ln = Llvm { f: &mut *f, exp2: Exp2::Host(w) }.apply(Prim::Log, &[lv]);
        let ln = f.extract(&ln, 0);
        let lse = f.bin("fadd", &m, &ln);
        let lse = f.select(&seen, &lse, &f32c(f32::NEG_INFINITY));
        let lse_at = f.bin("mul", row, &out.lse_stride);
        let p = f.gep("float", &out.lse, &lse_at);
        f.store(&lse, &p, 4);
    });
}

fn forward_fn(spec: &KernelSpec, isa: &Isa) -> String {
    let tk = isa.tk;
    let (d, dv) = (spec.head_dim as i64, spec.dv() as i64);
    let tq = spec.tile_q as i64;
    let mut f = Fn::default();
    let args = V::new("%args", "ptr");
    let q = field(&mut f, &args, offsets::FWD_Q, "ptr");
    let k = field(&mut f, &args, offsets::FWD_K, "ptr");
    // The softmax state of a query block, in the ABI's scratch (`StartState`, `WriteOut`).
    let scratch = field(&mut f, &args, offsets::FWD_SCRATCH, "ptr");
    let state = f.gep("float", &scratch, &i64c(spec.state_offset() as i64));
    let out = Out {
        o: field(&mut f, &args, offsets::FWD_O, "ptr"),
        lse: field(&mut f, &args, offsets::FWD_LSE, "ptr"),
        o_stride: field(&mut f, &args, offsets::FWD_O_STRIDE, "i64"),
        lse_stride: field(&mut f, &args, offsets::FWD_LSE_STRIDE, "i64"),
    };
    // Kᵀ and V of a KV tile in the kernel's own stack buffers (tk keys; the ABI's scratch holds
    // 16): V rows a KV stride apart map to a few cache sets, contiguous ones spread over all.
    let kt = f.alloca(&format!("[{} x float]", d * tk), isa.w * 4);
    let vt = f.alloca(&format!("[{} x float]", dv * tk), isa.w * 4);
    // The state of a partial tile's missing rows: initialised (m = −∞, l = 0, acc = 0), so they
    // never compute on garbage (a subnormal costs a microcode assist).
    let spare = f.alloca(&format!("[{} x float]", (dv + 2) * isa.main_rows as i64), isa.w * 4);
    f.for_range(&i64c(0), &i64c((dv + 2) * isa.main_rows as i64), 1, |f, i| {
        let p = f.gep("float", &spare, i);
        f.store(&f32c(0.0), &p, 4);
    });
    for row in 0..isa.main_rows as i64 {
        let p = f.gep("float", &spare, &i64c(row * (dv + 2)));
        f.store(&f32c(f32::NEG_INFINITY), &p, 4);
    }
    let stride = field(&mut f, &args, offsets::FWD_KV_STRIDE, "i64");
    let n_q = field(&mut f, &args, offsets::FWD_N_Q, "i64");
    let n_kv = field(&mut f, &args, offsets::FWD_N_KV, "i64");
    let q_pos = field(&mut f, &args, offsets::FWD_Q_POS, "i64");
    let kv_pos = field(&mut f, &args, offsets::FWD_KV_POS, "i64");
    let scale = field(&mut f, &args, offsets::FWD_SCALE, "float");
    let hv = head_values_field(&mut f, spec, &args, offsets::FWD_HEAD_VALUES);
    let mask = spec.mask;
    let block_q = if isa.w == 8 { BLOCK_Q } else { BLOCK_Q_WIDE };
    f.for_range(&i64c(0), &n_q, block_q, |f, rb0| {
        let e = f.bin("add", rb0, &i64c(block_q));
        let rb1 = f.min_i64(&e, &n_q);
        // StartState: the tiles' rows stay below rb1 (a partial tile's others are `spare`).
        let rows = f.bin("sub", &rb1, rb0);
        f.for_range(&i64c(0), &rows, 1, |f, r| {
            let at = f.bin("mul", r, &i64c(dv + 2));
            let st = f.gep("float", &state, &at);
            f.store(&f32c(f32::NEG_INFINITY), &st, 4);
            let l = f.gep("float", &st, &i64c(1));
            f.store(&f32c(0.0), &l, 4);
            for &(o, w) in &lanes_w(dv, isa.w) {
                vstore(f, &V::new("zeroinitializer", vty(w)), &st, 2 + o);
            }
        });
        let q_lo = f.bin("add", &q_pos, rb0);
        let q_hi0 = f.bin("add", &q_pos, &rb1);
        let q_hi = f.bin("sub", &q_hi0, &i64c(1));
        let (kv_lo, kv_hi) = kv_bounds(f, mask, &q_lo, &q_hi, &kv_pos, &n_kv);
        f.for_range(&kv_lo, &kv_hi, tk, |f, c0| {
            let left = f.bin("sub", &kv_hi, c0);
            let cols = f.min_i64(&left, &i64c(tk));
            // TransposeKeys, and V copied next to it.
            f.for_range(&i64c(0), &cols, 1, |f, c| {
                let row = f.bin("add", c0, c);
                let at = f.bin("mul", &row, &stride);
                let src = f.gep("float", &k, &at);
                for e in 0..d {
                    let x = {
                        let p = f.gep("float", &src, &i64c(e));
                        f.load("float", &p, 4)
                    };
                    let dst_at = f.bin("add", c, &i64c(e * tk));
                    let p = f.gep("float", &kt, &dst_at);
                    f.store(&x, &p, 4);
                }
                let vsrc = f.gep("float", &src, &i64c(d));
                let vat = f.bin("mul", c, &i64c(dv));
                let vdst = f.gep("float", &vt, &vat);
                for &(o, w) in &lanes_w(dv, isa.w) {
                    let x = vload(f, &vsrc, o, w);
                    vstore(f, &x, &vdst, o);
                }
            });
            let k_lo = f.bin("add", &kv_pos, c0);
            let k_hi0 = f.bin("add", &k_lo, &cols);
            let k_hi = f.bin("sub", &k_hi0, &i64c(1));
            let (r_lo, r_hi) = q_bounds(f, mask, &k_lo, &k_hi, &q_pos, &n_q, tq);
            let r_lo = f.max_i64(&r_lo, rb0);
            let r_hi = f.min_i64(&r_hi, &rb1);
            let partial = f.icmp("slt", &cols, &i64c(tk));
            let main = isa.main_rows as i64;
            row_tiles(f, &r_lo, &r_hi, main, |f, r0, rows| {
                let (m, diff) = tile_mask(f, mask, &q_pos, r0, rows, &k_lo, &k_hi, &partial);
                let qa = f.bin("mul", r0, &i64c(d));
                let qp = f.gep("float", &q, &qa);
                let in_block = f.bin("sub", r0, rb0);
                let sa = f.bin("mul", &in_block, &i64c(dv + 2));
                let sp = f.gep("float", &state, &sa);
                let pos = position_args(f, spec, &q_pos, r0, &k_lo, &hv);
                let mut args = vec![&qp, &sp, &kt, &vt, &cols, &diff, &m, &scale, rows, &spare];
                args.extend(pos.iter());
                f.call_void(&format!("tile{main}"), &args);
            });
        });
        write_out(f, &state, rb0, &rb1, &out, dv, isa.w);
    });
    f.op("ret void");
    format!("\ndefine void @{}(ptr noalias %args) {} {{\n{}}}\n", spec.name(), isa.attrs, f.finish())
}

/// `@btileR`: the backward of one query tile of `r` rows × one KV tile (FlashAttention-2's order:
/// the KV tile's dK and dV stay in stack tiles while query tiles pass).
///
/// S = Q Kᵀ and dP = dO Vᵀ as two score passes (`scores`, Kᵀ and Vᵀ in stack buffers), the edge
/// mask, P = 2^(S·scale·log₂e − lse·log₂e) (0 for rows whose lse is −∞), dS·scale =
/// P ∘ (dP − D)·scale into stack tiles; then dV += Pᵀ dO and dK += (dS·scale)ᵀ Q into the KV
/// tile's accumulators (each row's dO or Q chunk held in registers across the keys) and
/// dQ += (dS·scale) K into the query rows (accumulators in registers across the keys).
///
/// Arguments: the first query row of the bundle (q, o, dO, lse), its stride, the first dQ row,
/// its stride, D of the first row, Kᵀ (head_dim × tk) and Vᵀ (v_head_dim × tk), the tile's K rows
/// (tk × head_dim), the dK and dV tiles (tk × head_dim, tk × v_head_dim), columns in the tile, the first query position minus the
/// first key position (clamped to ±2³⁰), whether to mask, scale, the rows that exist (≤ r), a
/// spare dQ area of r rows for the others.
fn btile_fn(spec: &KernelSpec, r: usize, isa: &Isa) -> String {
    let (d, dv) = (spec.head_dim as i64, spec.dv() as i64);
    let (w, tk) = (isa.w, isa.tk);
    let vw = vty(w);
    let mut f = Fn::default();
    let arg = |n: &str, t: &str| V::new(format!("%{n}"), t);
    let (q, qs, dq, dqs, delta) =
        (arg("q", "ptr"), arg("qs", "i64"), arg("dq", "ptr"), arg("dqs", "i64"), arg("delta", "ptr"));
    let (kt, vt, kc, dkt, dvt) =
        (arg("kt", "ptr"), arg("vt", "ptr"), arg("kc", "ptr"), arg("dkt", "ptr"), arg("dvt", "ptr"));
    let (cols, diff, masked, scale) =
        (arg("cols", "i64"), arg("diff", "i64"), arg("masked", "i1"), arg("scale", "float"));
    let (nrows, spare) = (arg("nrows", "i64"), arg("spare", "ptr"));
    let p_buf = f.alloca(&format!("[{} x float]", r as i64 * tk), w * 4);
    let ds_buf = f.alloca(&format!("[{} x float]", r as i64 * tk), w * 4);

    // Rows past `nrows` (the tail of the run) read the first row, count for nothing (P = 0) and
    // write their dQ into `spare`: one tile shape serves every row count.
    let valid: Vec<V> = (0..r).map(|row| f.icmp("slt", &i64c(row as i64), &nrows)).collect();
    let rows: Vec<V> = (0..r)
        .map(|row| {
            let at = f.bin("mul", &qs, &i64c(row as i64));
            let p = f.gep("float", &q, &at);
            f.select(&valid[row], &p, &q)
        })
        .collect();
    // Bundle rows: q (d), o and dO (dv each), lse.
    let do_rows: Vec<V> = rows.iter().map(|p| f.gep("float", p, &i64c(d + dv))).collect();
    let mut s = scores(&mut f, &rows, &kt, d, tk, w, isa.score_vectors);
    let dp = scores(&mut f, &do_rows, &vt, dv, tk, w, isa.score_vectors);
    // RecomputeP's score modification (and, for Ds, its slope and the learned parameters').
    let (slopes, grads) = match spec.score {
        Some(score) => {
            let (sl, g) = score_tile(&mut f, &mut s, &scale, score, w, true);
            (Some(sl), g)
        }
        None => (None, Vec::new()),
    };
    let n_params = spec.score.map_or(0, |s| s.params.len());
    let mut gacc: Vec<V> = (0..n_params).map(|_| V::new("zeroinitializer", vty(w))).collect();
    mask_edge(&mut f, spec.mask, &mut s, &cols, &diff, &masked, w);

    // P and dS·scale into the stack tiles.
    let c = f.fast("fmul", &scale, &f32c(std::f32::consts::LOG2_E));
    let cv = f.splat(&c, w);
    let sv = f.splat(&scale, w);
    for (row, p) in rows.iter().enumerate() {
        let lp = f.gep("float", p, &i64c(d + 2 * dv));
        let lse = f.load("float", &lp, 4);
        let empty = f.fcmp("oeq", &lse, &f32c(f32::NEG_INFINITY));
        let nl = f.fast("fmul", &lse, &f32c(-std::f32::consts::LOG2_E));
        let nl = f.select(&empty, &f32c(f32::NEG_INFINITY), &nl);
        let nl = f.select(&valid[row], &nl, &f32c(f32::NEG_INFINITY));
        let nlv = f.splat(&nl, w);
        let dp_ = f.gep("float", &delta, &i64c(row as i64));
        let dp_ = f.select(&valid[row], &dp_, &delta);
        let dl = f.load("float", &dp_, 4);
        let dlv = f.splat(&dl, w);
        for (h, x) in s[row].iter().enumerate() {
            let at = row as i64 * tk + w as i64 * h as i64;
            let e = fma(&mut f, x, &cv, &nlv);
            let pv = f.call(&vw, &format!("exp2_{w}"), &[&e]);
            vstore(&mut f, &pv, &p_buf, at);
            let t = f.fast("fsub", &dp[row][h], &dlv);
            let t = f.fast("fmul", &t, &pv);
            // Σ dS·∂score/∂param, dS before the slope by s (masked lanes and missing rows: P = 0).
            for (j, acc) in gacc.iter_mut().enumerate() {
                *acc = fma(&mut f, &t, &grads[row][h][j], acc);
            }
            let t = f.fast("fmul", &t, &sv);
            let t = match &slopes {
                Some(slopes) => f.fast("fmul", &t, &slopes[row][h]),
                None => t,
            };
            vstore(&mut f, &t, &ds_buf, at);
        }
    }

    for (j, acc) in gacc.iter().enumerate() {
        let x = reduce_fadd(&mut f, acc, w, isa.tree_reductions);
        let p = f.gep("float", &V::new("%dpar", "ptr"), &i64c(j as i64));
        let old = f.load("float", &p, 4);
        let new = f.fast("fadd", &old, &x);
        f.store(&new, &p, 4);
    }

    // dV += Pᵀ dO and dK += (dS·scale)ᵀ Q: per chunk of two head vectors, every row's chunk held
    // in registers while the keys pass; the KV tile's accumulators are loaded and stored.
    let ls = lanes_w(d, w);
    for (buf, src, tile, width) in [(&p_buf, &do_rows, &dvt, dv), (&ds_buf, &rows, &dkt, d)] {
        for chunk in lanes_w(width, w).chunks(2) {
            let held: Vec<Vec<V>> =
                src.iter().map(|p| chunk.iter().map(|&(o, wi)| vload(&mut f, p, o, wi)).collect()).collect();
            f.for_range(&i64c(0), &cols, 1, |f, c| {
                let base = f.bin("mul", c, &i64c(width));
                let tp = f.gep("float", tile, &base);
                let mut acc: Vec<V> = chunk.iter().map(|&(o, wi)| vload(f, &tp, o, wi)).collect();
                for (row, h) in held.iter().enumerate() {
                    let b = broadcast_at(f, buf, c, row as i64 * tk, w);
                    for (i, &(_, wi)) in chunk.iter().enumerate() {
                        let bw = if wi == w { b.clone() } else { narrow(f, &b, wi) };
                        acc[i] = fma(f, &bw, &h[i], &acc[i]);
                    }
                }
                for (i, &(o, _)) in chunk.iter().enumerate() {
                    vstore(f, &acc[i], &tp, o);
                }
            });
        }
    }

    // dQ += (dS·scale) K: accumulators for every row × a chunk of the head across the keys.
    let per_chunk = if r > 4 {
        2
    } else if r == 4 {
        isa.per_chunk
    } else {
        4
    };
    let dq_rows: Vec<V> = (0..r)
        .map(|row| {
            let at = f.bin("mul", &dqs, &i64c(row as i64));
            let p = f.gep("float", &dq, &at);
            let sp = f.gep("float", &spare, &i64c(row as i64 * d));
            f.select(&valid[row], &p, &sp)
        })
        .collect();
    for chunk in ls.chunks(per_chunk) {
        let n = chunk.len();
        let init: Vec<V> = dq_rows
            .iter()
            .flat_map(|p| chunk.iter().map(|&(o, wi)| vload(&mut f, p, o, wi)).collect::<Vec<_>>())
            .collect();
        let acc = accumulate_rows(&mut f, &init, &ds_buf, tk, &kc, d, chunk, w, &cols);
        for (row, p) in dq_rows.iter().enumerate() {
            for (i, &(o, _)) in chunk.iter().enumerate() {
                vstore(&mut f, &acc[row * n + i], p, o);
            }
        }
    }
    f.op("ret void");
    format!(
        "\ndefine internal void @btile{r}(ptr noalias %q, i64 %qs, ptr noalias %dq, i64 %dqs, ptr noalias %delta, \
         ptr noalias %kt, ptr noalias %vt, ptr noalias %kc, ptr noalias %dkt, ptr noalias %dvt, i64 %cols, i64 %diff, \
         i1 %masked, float %scale, i64 %nrows, ptr noalias %spare{}{}) {} {{\n{}}}\n",
        position_params(spec),
        if n_params > 0 { ", ptr noalias %dpar" } else { "" },
        isa.attrs,
        f.finish()
    )
}

/// The backward kernel: for each KV tile of `tk` keys within the mask, Kᵀ, Vᵀ and the K rows into
/// stack buffers and zeroed dK, dV tiles; the query rows that see the tile in tiles of
/// `main_rows` (the last one partial); the tile's dK and dV added into the dKV rows.
fn backward_fn(spec: &KernelSpec, isa: &Isa) -> String {
    let (d, dv) = (spec.head_dim as i64, spec.dv() as i64);
    let (w, tk) = (isa.w, isa.tk);
    let mut f = Fn::default();
    let args = V::new("%args", "ptr");
    let q = field(&mut f, &args, offsets::BWD_Q, "ptr");
    let k = field(&mut f, &args, offsets::BWD_K, "ptr");
    let dq = field(&mut f, &args, offsets::BWD_DQ, "ptr");
    let dkv = field(&mut f, &args, offsets::BWD_DKV, "ptr");
    let delta = field(&mut f, &args, offsets::BWD_DELTA, "ptr");
    let q_stride = field(&mut f, &args, offsets::BWD_Q_STRIDE, "i64");
    let kv_stride = field(&mut f, &args, offsets::BWD_KV_STRIDE, "i64");
    let dq_stride = field(&mut f, &args, offsets::BWD_DQ_STRIDE, "i64");
    let dkv_stride = field(&mut f, &args, offsets::BWD_DKV_STRIDE, "i64");
    let n_q = field(&mut f, &args, offsets::BWD_N_Q, "i64");
    let n_kv = field(&mut f, &args, offsets::BWD_N_KV, "i64");
    let q_pos = field(&mut f, &args, offsets::BWD_Q_POS, "i64");
    let kv_pos = field(&mut f, &args, offsets::BWD_KV_POS, "i64");
    let scale = field(&mut f, &args, offsets::BWD_SCALE, "float");
    let hv = head_values_field(&mut f, spec, &args, offsets::BWD_HEAD_VALUES);
    let dpar = spec.score.filter(|s| s.has_params()).map(|_| field(&mut f, &args, offsets::BWD_DPARAMS, "ptr"));
    let mask = spec.mask;
    // Tiles of K (d wide) and of V (dv wide).
    let tile = |f: &mut Fn, width: i64| f.alloca(&format!("[{} x float]", width * tk), w * 4);
    let (kt, vt, kc) = (tile(&mut f, d), tile(&mut f, dv), tile(&mut f, d));
    let (dkt, dvt) = (tile(&mut f, d), tile(&mut f, dv));
    let ls = lanes_w(d, w);
    let zero_rows = |f: &mut Fn, buf: &V, n: &V, width: i64| {
        f.for_range(&i64c(0), n, 1, |f, i| {
            let at = f.bin("mul", i, &i64c(width));
            let p = f.gep("float", buf, &at);
            for &(o, wi) in &lanes_w(width, w) {
                let z = V::new("zeroinitializer", vty(wi));
                vstore(f, &z, &p, o);
            }
        });
    };
    // dQ of a partial tile's missing rows: zeroed once (they only ever add 0 to it), so they
    // never compute on stack garbage (a subnormal costs a microcode assist).
    let spare = f.alloca(&format!("[{} x float]", d * isa.main_rows as i64), w * 4);
    zero_rows(&mut f, &spare, &i64c(isa.main_rows as i64), d);
    let (q_lo_all, q_hi_all) = {
        let lo = q_pos.clone();
        let hi0 = f.bin("add", &q_pos, &n_q);
        let hi = f.bin("sub", &hi0, &i64c(1));
        (lo, hi)
    };
    let (kv_lo, kv_hi) = kv_bounds(&mut f, mask, &q_lo_all, &q_hi_all, &kv_pos, &n_kv);
    f.for_range(&kv_lo, &kv_hi, tk, |f, c0| {
        let left = f.bin("sub", &kv_hi, c0);
        let cols = f.min_i64(&left, &i64c(tk));
        let k_lo = f.bin("add", &kv_pos, c0);
        let k_hi0 = f.bin("add", &k_lo, &cols);
        let k_hi = f.bin("sub", &k_hi0, &i64c(1));
        let (r_lo, r_hi) = q_bounds(f, mask, &k_lo, &k_hi, &q_pos, &n_q, 1);
        let any = f.icmp("slt", &r_lo, &r_hi);
        f.if_(&any, |f| {
            let partial = f.icmp("slt", &cols, &i64c(tk));
            f.if_(&partial, |f| {
                // Kᵀ and Vᵀ columns past the run score 0 (then −∞ by the mask), never garbage.
                zero_rows(f, &kt, &i64c(d), tk);
                zero_rows(f, &vt, &i64c(dv), tk);
            });
            zero_rows(f, &dkt, &cols, d);
            zero_rows(f, &dvt, &cols, dv);
            f.for_range(&i64c(0), &cols, 1, |f, c| {
                let row = f.bin("add", c0, c);
                let at = f.bin("mul", &row, &kv_stride);
                let src = f.gep("float", &k, &at);
                for e in 0..d.max(dv) {
                    let dst_at = f.bin("add", c, &i64c(e * tk));
                    let (k_e, v_e) = ((e < d).then_some((e, &kt)), (e < dv).then_some((d + e, &vt)));
                    for (from, to) in [k_e, v_e].into_iter().flatten() {
                        let p = f.gep("float", &src, &i64c(from));
                        let x = f.load("float", &p, 4);
                        let p = f.gep("float", to, &dst_at);
                        f.store(&x, &p, 4);
                    }
                }
                let kat = f.bin("mul", c, &i64c(d));
                let kdst = f.gep("float", &kc, &kat);
                for &(o, wi) in &ls {
                    let x = vload(f, &src, o, wi);
                    vstore(f, &x, &kdst, o);
                }
            });
            let partial = f.icmp("slt", &cols, &i64c(tk));
            let main = isa.main_rows as i64;
            row_tiles(f, &r_lo, &r_hi, main, |f, r0, rows| {
                let (m, diff) = tile_mask(f, mask, &q_pos, r0, rows, &k_lo, &k_hi, &partial);
                let qa = f.bin("mul", r0, &q_stride);
                let qp = f.gep("float", &q, &qa);
                let dqa = f.bin("mul", r0, &dq_stride);
                let dqp = f.gep("float", &dq, &dqa);
                let dp = f.gep("float", &delta, r0);
                let pos = position_args(f, spec, &q_pos, r0, &k_lo, &hv);
                let mut args = vec![
                    &qp, &q_stride, &dqp, &dq_stride, &dp, &kt, &vt, &kc, &dkt, &dvt, &cols, &diff, &m, &scale, rows,
                    &spare,
                ];
                args.extend(pos.iter());
                args.extend(dpar.iter());
                f.call_void(&format!("btile{main}"), &args);
            });
            // The tile's dK and dV into the dKV rows.
            f.for_range(&i64c(0), &cols, 1, |f, c| {
                let row = f.bin("add", c0, c);
                let at = f.bin("mul", &row, &dkv_stride);
                let dst = f.gep("float", &dkv, &at);
                for (tile, off, width) in [(&dkt, 0, d), (&dvt, d, dv)] {
                    let tat = f.bin("mul", c, &i64c(width));
                    let tp = f.gep("float", tile, &tat);
                    for &(o, wi) in &lanes_w(width, w) {
                        let x = vload(f, &tp, o, wi);
                        let y = vload(f, &dst, off + o, wi);
                        let z = f.fast("fadd", &y, &x);
                        vstore(f, &z, &dst, off + o);
                    }
                }
            });
        });
    });
    f.op("ret void");
    format!("\ndefine void @{}(ptr noalias %args) {} {{\n{}}}\n", spec.name(), isa.attrs, f.finish())
}
