//! The host lowering of the kernel IR: x86-64 with 256-bit vectors (AVX2 + FMA), the ABI of
//! `kernel::FwdArgs` / `kernel::BwdArgs`, so the runtime calls it exactly like Cranelift's code.
//!
//! Forward, per step of `kernel::program`: for each query block of `BLOCK_Q` rows, for each KV
//! tile of 24 keys within the mask, `TransposeKeys` writes Kᵀ into a stack buffer and copies the
//! tile's V rows next to it (contiguous: rows a KV stride apart would share a few cache sets);
//! the query tiles within the mask then run as tiles of 4 rows (a 2-row tile ends an odd pair
//! count). `Scores` is a 4×24 register tile (12 accumulators: one broadcast of q per row and
//! three loads of Kᵀ per head element), a loop over the head, 8 elements an iteration, the accumulators
//! carried in registers; `MaskEdge` runs only when the tile straddles the mask edge or ends the
//! run (integer compares of column offsets); `OnlineSoftmax` keeps m and l in the state rows and
//! computes P as exp2 with scale·log₂e folded into one FMA per score vector, every row's rescale
//! factor from one vector exp2; `AccumulatePv` walks the head in 24-wide chunks of 4 rows (12
//! accumulators), each a loop over the tile's keys (4 an iteration, then one at a time for a
//! partial tile, so no key beyond the run is read), the rescale folded into the load of the
//! accumulator and skipped when no row's maximum moved (the factor is then exactly 1). Loops, not
//! fully unrolled tiles: unrolled, a tile is tens of KiB of code, beyond the micro-op cache.
//! Backward: for each query row, for each key the mask allows, p, dS and the three gradient
//! updates vectorised over the head (8 lanes, a 4-lane tail when head_dim is not a multiple of 8).
//! Vectorised exp as in the Cranelift backend (range reduction, degree-6 polynomial).
//! On an AVX-512 CPU the JIT writes the forward kernel for 512-bit vectors ([`AVX512`]): 32-key
//! tiles, 8-row query tiles, tree reductions, `vscalefps` in exp2, query blocks of 1024 rows;
//! ahead-of-time objects and the golden IR are the 256-bit ([`AVX2`]) kernel.

use std::fmt::Write;

use super::bounds::{kv_bounds, needs_mask, q_bounds};
use super::text::{Fn, V, f32c, i32c, i64c, round_down};
use crate::kernel::{BLOCK_Q, KernelKind, KernelMask, KernelSpec, offsets};

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

/// The module of a spec's host kernel with the forward kernel written for `isa` (the backward
/// kernel is 256-bit either way).
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
            if isa.main_rows > 4 {
                out.push_str(&tile_fn(spec, isa.main_rows, isa));
            }
            out.push_str(&tile_fn(spec, 4, isa));
            out.push_str(&tile_fn(spec, 2, isa));
            out.push_str(&forward_fn(spec, isa));
        }
        KernelKind::Backward => {
            out.push_str(&exp_fn(8));
            out.push_str(&backward_fn(spec));
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
declare float @llvm.vector.reduce.fmax.v16f32(<16 x float>)
declare float @llvm.vector.reduce.fadd.v16f32(float, <16 x float>)
declare <16 x float> @llvm.x86.avx512.mask.scalef.ps.512(<16 x float>, <16 x float>, <16 x float>, i16, i32)
";

const V8: &str = "<8 x float>";

fn splat8(x: f32) -> V {
    splatw(x, 8)
}

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

/// `@exp{w}`: the vectorised exp over `w` lanes.
fn exp_fn(w: u32) -> String {
    let mut f = Fn::default();
    let vw = vty(w);
    let x = V::new("%x", &vw);
    let s = |x: f32| splatw(x, w);
    let (max, min, rint, fmai) = (
        format!("llvm.maxnum.v{w}f32"),
        format!("llvm.minnum.v{w}f32"),
        format!("llvm.rint.v{w}f32"),
        format!("llvm.fma.v{w}f32"),
    );
    let small = f.fcmp("olt", &x, &s(-87.0));
    let xc = f.call(&vw, &max, &[&x, &s(-87.0)]);
    let xc = f.call(&vw, &min, &[&xc, &s(88.0)]);
    let t = f.fast("fmul", &xc, &s(std::f32::consts::LOG2_E));
    let n = f.call(&vw, &rint, &[&t]);
    let r = f.call(&vw, &fmai, &[&n, &s(-0.693_145_75), &xc]);
    let r = f.call(&vw, &fmai, &[&n, &s(-1.428_606_8e-6), &r]);
    let coefficients = [1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0];
    let mut p = s(coefficients[0]);
    for &c in &coefficients[1..] {
        p = f.call(&vw, &fmai, &[&p, &r, &s(c)]);
    }
    let ni = f.cast("fptosi", &n, &format!("<{w} x i32>"));
    let e = f.bin("add", &ni, &i32s(127, w));
    let e = f.bin("shl", &e, &i32s(23, w));
    let two_n = f.cast("bitcast", &e, &vw);
    let y = f.fast("fmul", &p, &two_n);
    let out = f.select(&small, &s(0.0), &y);
    f.op(format!("ret {}", out.t()));
    let attrs = if w == 8 { ATTRS } else { AVX512.attrs };
    format!("\ndefine internal {vw} @exp{w}({vw} %x) alwaysinline {attrs} {{\n{}}}\n", f.finish())
}

/// `@exp2_{w}`: 2ˣ over `w` lanes for x ≤ 0 (the forward kernel's softmax, whose scale folds
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

fn exp1(f: &mut Fn, x: &V) -> V {
    let v = f.splat(x, 8);
    let e = f.call(V8, "exp8", &[&v]);
    f.extract(&e, 0)
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

fn vload_dyn(f: &mut Fn, base: &V, at: &V, w: u32) -> V {
    let p = f.gep("float", base, at);
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
/// key's (clamped to ±2³⁰); row `i` sees column `c` when `c ≤ diff + i` (causal) and
/// `c > diff + i − window`.
fn mask_edge(f: &mut Fn, mask: KernelMask, s: &mut [Vec<V>], cols: &V, diff: &V, masked: &V, w8: u32) {
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
        let mut out = Vec::new();
        for (h, sv) in pair.iter().enumerate() {
            let iota: Vec<String> = (0..w8 as usize).map(|c| format!("i32 {}", c + w8 as usize * h)).collect();
            let c = V::new(format!("<{}>", iota.join(", ")), format!("<{w8} x i32>"));
            let mut ok = f.icmp("slt", &c, &cols_v);
            if !matches!(mask, KernelMask::None) {
                let causal = f.icmp("sle", &c, &base_v);
                ok = f.bin("and", &ok, &causal);
            }
            if let KernelMask::Window { window } = mask {
                // q − k < window ⇔ c > base − window.
                let lo = f.bin("sub", &base, &i32c(window.min(1 << 30) as i64));
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
/// Arguments: q rows (contiguous, head_dim), state rows (head_dim + 2), Kᵀ (head_dim × tk), the
/// tile's V rows (contiguous, head_dim), columns in the tile, the first query position minus the
/// first key position (clamped to ±2³⁰), whether to mask, scale.
fn tile_fn(spec: &KernelSpec, r: usize, isa: &Isa) -> String {
    let d = spec.head_dim as i64;
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
    let p_buf = f.alloca(&format!("[{} x float]", r as i64 * tk), w8 * 4);

    let rows: Vec<V> = (0..r).map(|row| f.gep("float", &q, &i64c(row as i64 * d))).collect();
    let acc = scores(&mut f, &rows, &kt, d, tk, w8, isa.score_vectors);
    // The scores stay unscaled: the scale folds into the exponent of the softmax.
    let mut s = acc;

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
        let row_at = row as i64 * (d + 2);
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
        let mp = f.gep("float", &state, &i64c(row_at));
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
        let total = if isa.tree_reductions {
            f.let_("float", format!("call reassoc float @llvm.vector.reduce.fadd.v{w8}f32(float -0.0, {})", sum.t()))
        } else {
            f.call("float", &format!("llvm.vector.reduce.fadd.v{w8}f32"), &[&f32c(-0.0), &sum])
        };
        let dm = f.fast("fsub", &m_old, &base);
        let dm = f.fast("fmul", &dm, &log2e);
        let moved = f.fcmp("une", &m_new, &m_old);
        rows_state.push((row_at, m_new, total, dm, moved));
    }
    // The rescale factors of all rows through one vector exp2.
    let mut dms = splatw(0.0, w8);
    for (row, (_, _, _, dm, _)) in rows_state.iter().enumerate() {
        dms = f.let_(&vw, format!("insertelement {} {}, {}, i32 {row}", vw, dms.name, dm.t()));
    }
    let alphas = f.call(&vw, &format!("exp2_{w8}"), &[&dms]);
    let mut changed = V::new("false", "i1");
    for (row, (row_at, m_new, total, _, moved)) in rows_state.iter().enumerate() {
        let a = f.extract(&alphas, row as u32);
        let lp = f.gep("float", &state, &i64c(row_at + 1));
        let l = f.load("float", &lp, 4);
        let l = fma(&mut f, &l, &a, total);
        f.store(&l, &lp, 4);
        let mp = f.gep("float", &state, &i64c(*row_at));
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
    let ls = lanes_w(d, w8);
    let chunks: Vec<&[(i64, u32)]> = ls.chunks(per_chunk).collect();
    // When no row's maximum moved, every rescale factor is 1 (or the row is still empty): the
    // accumulators are updated without the multiply.
    // The keys of a full tile in iterations of PV_UNROLL, then one at a time for what is left of
    // a partial tile (no key beyond the run is read); the accumulators stay in registers.
    let mains = round_down(&mut f, &cols, PV_UNROLL);
    let (scaled, plain, done) = (f.label("pv_scaled"), f.label("pv_plain"), f.label("pv_done"));
    f.cond_br(&changed, &scaled, &plain);
    for (rescale, label) in [(true, &scaled), (false, &plain)] {
        f.place(label);
        for chunk in &chunks {
            let n = chunk.len();
            let mut init = Vec::new();
            for (row, a) in alpha.iter().enumerate() {
                for &(off, w) in chunk.iter() {
                    let x = vload(&mut f, &state, row as i64 * (d + 2) + 2 + off, w);
                    if rescale {
                        let aw = if w == w8 { a.clone() } else { narrow(&mut f, a, w) };
                        init.push(f.fast("fmul", &x, &aw));
                    } else {
                        init.push(x);
                    }
                }
            }
            let step = |f: &mut Fn, c: &V, accs: &mut [V]| {
                let krow = f.bin("mul", c, &i64c(d));
                let vs: Vec<V> = chunk
                    .iter()
                    .map(|&(off, w)| {
                        let at = f.bin("add", &krow, &i64c(off));
                        vload_dyn(f, &v, &at, w)
                    })
                    .collect();
                for row in 0..r {
                    let pa = f.bin("add", c, &i64c(row as i64 * tk));
                    let pp = f.gep("float", &p_buf, &pa);
                    let ps = f.load("float", &pp, 4);
                    let p8 = f.splat(&ps, w8);
                    for (i, &(_, w)) in chunk.iter().enumerate() {
                        let pw = if w == w8 { p8.clone() } else { narrow(f, &p8, w) };
                        accs[row * n + i] = fma(f, &pw, &vs[i], &accs[row * n + i]);
                    }
                }
            };
            let accs = f.for_carry(&i64c(0), &mains, PV_UNROLL, &init, |f, c0, mut cur| {
                for u in 0..PV_UNROLL {
                    let c = f.bin("add", c0, &i64c(u));
                    step(f, &c, &mut cur);
                }
                cur
            });
            let accs = f.for_carry(&mains, &cols, 1, &accs, |f, c, mut cur| {
                step(f, c, &mut cur);
                cur
            });
            for row in 0..r {
                for (i, &(off, _)) in chunk.iter().enumerate() {
                    vstore(&mut f, &accs[row * n + i], &state, row as i64 * (d + 2) + 2 + off);
                }
            }
        }
        f.br(&done);
    }
    f.place(&done);
    f.op("ret void");
    format!(
        "\ndefine internal void @tile{r}(ptr noalias %q, ptr noalias %state, ptr noalias %kt, ptr noalias %v, \
         i64 %cols, i64 %diff, i1 %masked, float %scale) {} {{\n{}}}\n",
        isa.attrs,
        f.finish()
    )
}

fn forward_fn(spec: &KernelSpec, isa: &Isa) -> String {
    let tk = isa.tk;
    let d = spec.head_dim as i64;
    let tq = spec.tile_q as i64;
    let mut f = Fn::default();
    let args = V::new("%args", "ptr");
    let q = field(&mut f, &args, offsets::FWD_Q, "ptr");
    let k = field(&mut f, &args, offsets::FWD_K, "ptr");
    let state = field(&mut f, &args, offsets::FWD_STATE, "ptr");
    // Kᵀ and V of a KV tile in the kernel's own stack buffers (tk keys; the ABI's scratch holds
    // 16): V rows a KV stride apart map to a few cache sets, contiguous ones spread over all.
    let kt = f.alloca(&format!("[{} x float]", d * tk), isa.w * 4);
    let vt = f.alloca(&format!("[{} x float]", d * tk), isa.w * 4);
    let stride = field(&mut f, &args, offsets::FWD_KV_STRIDE, "i64");
    let n_q = field(&mut f, &args, offsets::FWD_N_Q, "i64");
    let n_kv = field(&mut f, &args, offsets::FWD_N_KV, "i64");
    let q_pos = field(&mut f, &args, offsets::FWD_Q_POS, "i64");
    let kv_pos = field(&mut f, &args, offsets::FWD_KV_POS, "i64");
    let scale = field(&mut f, &args, offsets::FWD_SCALE, "float");
    let mask = spec.mask;
    let block_q = if isa.w == 8 { BLOCK_Q } else { 4 * BLOCK_Q };
    f.for_range(&i64c(0), &n_q, block_q, |f, rb0| {
        let e = f.bin("add", rb0, &i64c(block_q));
        let rb1 = f.min_i64(&e, &n_q);
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
                let vat = f.bin("mul", c, &i64c(d));
                let vdst = f.gep("float", &vt, &vat);
                for &(o, w) in &lanes_w(d, isa.w) {
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
            // Query tiles: 4 rows while they fit, then 2 (tq) rows.
            let call_tile = |f: &mut Fn, r0: &V, rows: i64| {
                let ql = f.bin("add", &q_pos, r0);
                let qh0 = f.bin("add", &ql, &i64c(rows));
                let qh = f.bin("sub", &qh0, &i64c(1));
                let m = needs_mask(f, mask, &ql, &qh, &k_lo, &k_hi, &partial);
                let diff = f.bin("sub", &ql, &k_lo);
                let diff = f.clamp_i64(&diff, &i64c(-(1 << 30)), &i64c(1 << 30));
                let qa = f.bin("mul", r0, &i64c(d));
                let qp = f.gep("float", &q, &qa);
                let sa = f.bin("mul", r0, &i64c(d + 2));
                let sp = f.gep("float", &state, &sa);
                f.call_void(&format!("tile{rows}"), &[&qp, &sp, &kt, &vt, &cols, &diff, &m, &scale]);
            };
            let span = f.bin("sub", &r_hi, &r_lo);
            let span = f.max_i64(&span, &i64c(0));
            let (r_lo, span) = if isa.main_rows > 4 {
                let main = isa.main_rows as i64;
                let mains = round_down(f, &span, main);
                let main_end = f.bin("add", &r_lo, &mains);
                f.for_range(&r_lo, &main_end, main, |f, r0| call_tile(f, r0, main));
                let rest = f.bin("sub", &span, &mains);
                (main_end, rest)
            } else {
                (r_lo, span)
            };
            let fours = round_down(f, &span, 4);
            let four_end = f.bin("add", &r_lo, &fours);
            f.for_range(&r_lo, &four_end, 4, |f, r0| call_tile(f, r0, 4));
            f.for_range(&four_end, &r_hi, tq, |f, r0| call_tile(f, r0, tq));
        });
    });
    f.op("ret void");
    format!("\ndefine void @{}(ptr noalias %args) {} {{\n{}}}\n", spec.name(), isa.attrs, f.finish())
}

fn backward_fn(spec: &KernelSpec) -> String {
    let d = spec.head_dim as i64;
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
    let mask = spec.mask;
    let ls = lanes(d);
    f.for_range(&i64c(0), &n_q, 1, |f, i| {
        let qa = f.bin("mul", i, &q_stride);
        let qr = f.gep("float", &q, &qa);
        let dor = f.gep("float", &qr, &i64c(2 * d));
        let lp = f.gep("float", &qr, &i64c(3 * d));
        let lse = f.load("float", &lp, 4);
        let live = f.fcmp("one", &lse, &f32c(f32::NEG_INFINITY));
        f.if_(&live, |f| {
            let dp = f.gep("float", &delta, i);
            let dl = f.load("float", &dp, 4);
            let dqa = f.bin("mul", i, &dq_stride);
            let dqr = f.gep("float", &dq, &dqa);
            let qi = f.bin("add", &q_pos, i);
            let (lo, hi) = kv_bounds(f, mask, &qi, &qi, &kv_pos, &n_kv);
            // The row's q and dO stay in registers across its keys.
            let qv: Vec<V> = ls.iter().map(|&(o, w)| vload(f, &qr, o, w)).collect();
            let dov: Vec<V> = ls.iter().map(|&(o, w)| vload(f, &dor, o, w)).collect();
            let dq_tmp = f.alloca(&format!("[{} x float]", d), 32);
            for &(o, w) in &ls {
                let z = if w == 8 { splat8(0.0) } else { V::new("zeroinitializer", vty(4)) };
                vstore(f, &z, &dq_tmp, o);
            }
            f.for_range(&lo, &hi, 1, |f, j| {
                let ka = f.bin("mul", j, &kv_stride);
                let kr = f.gep("float", &k, &ka);
                let vr = f.gep("float", &kr, &i64c(d));
                let da = f.bin("mul", j, &dkv_stride);
                let dkr = f.gep("float", &dkv, &da);
                let dvr = f.gep("float", &dkr, &i64c(d));
                let kv: Vec<V> = ls.iter().map(|&(o, w)| vload(f, &kr, o, w)).collect();
                let dot = |f: &mut Fn, a: &[V], b: &[V]| {
                    let mut s8 = splat8(0.0);
                    let mut s4: Option<V> = None;
                    for (x, y) in a.iter().zip(b) {
                        if x.ty.starts_with("<8") {
                            s8 = fma(f, x, y, &s8);
                        } else {
                            let z = V::new("zeroinitializer", vty(4));
                            s4 = Some(fma(f, x, y, s4.as_ref().unwrap_or(&z)));
                        }
                    }
                    let t = f.call("float", "llvm.vector.reduce.fadd.v8f32", &[&f32c(0.0), &s8]);
                    match s4 {
                        Some(s4) => f.call("float", "llvm.vector.reduce.fadd.v4f32", &[&t, &s4]),
                        None => t,
                    }
                };
                let qk = dot(f, &qv, &kv);
                let vv: Vec<V> = ls.iter().map(|&(o, w)| vload(f, &vr, o, w)).collect();
                let dov_v = dot(f, &dov, &vv);
                let x = f.fast("fmul", &qk, &scale);
                let x = f.fast("fsub", &x, &lse);
                let p = exp1(f, &x);
                let t = f.fast("fsub", &dov_v, &dl);
                let ds = f.fast("fmul", &p, &t);
                let dss = f.fast("fmul", &ds, &scale);
                let ds8 = f.splat(&dss, 8);
                let p8 = f.splat(&p, 8);
                for (n, &(o, w)) in ls.iter().enumerate() {
                    let (dsw, pw) = if w == 8 {
                        (ds8.clone(), p8.clone())
                    } else {
                        (f.shuffle(&ds8, &ds8, &[0, 1, 2, 3]), f.shuffle(&p8, &p8, &[0, 1, 2, 3]))
                    };
                    let a = vload(f, &dq_tmp, o, w);
                    let a = fma(f, &dsw, &kv[n], &a);
                    vstore(f, &a, &dq_tmp, o);
                    let b = vload(f, &dkr, o, w);
                    let b = fma(f, &dsw, &qv[n], &b);
                    vstore(f, &b, &dkr, o);
                    let c = vload(f, &dvr, o, w);
                    let c = fma(f, &pw, &dov[n], &c);
                    vstore(f, &c, &dvr, o);
                }
            });
            for &(o, w) in &ls {
                let a = vload(f, &dq_tmp, o, w);
                let b = vload(f, &dqr, o, w);
                let s = f.fast("fadd", &b, &a);
                vstore(f, &s, &dqr, o);
            }
        });
    });
    f.op("ret void");
    format!("\ndefine void @{}(ptr noalias %args) {ATTRS} {{\n{}}}\n", spec.name(), f.finish())
}
