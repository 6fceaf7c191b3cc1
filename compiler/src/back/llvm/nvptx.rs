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

use std::fmt::Write;

use super::text::{Fn, V, f32c, i32c, i64c};
use super::{LlvmError, Target};
use crate::kernel::{KernelKind, KernelMask, KernelSpec};
use crate::sema::spec::Dtype;

/// How a GPU kernel is launched (the manifest's record).
pub use crate::back::manifest::Launch;

pub struct GpuKernel {
    pub ir: String,
    pub launch: Launch,
}

const THREADS: u32 = 128;
const BM: i64 = 64;

fn bn(d: i64) -> i64 {
    if d > 128 { 16 } else { 64 }
}

const FWD_PARAMS: &[(&str, &str)] = &[
    ("q", "ptr addrspace(1)"),
    ("k", "ptr addrspace(1)"),
    ("v", "ptr addrspace(1)"),
    ("o", "ptr addrspace(1)"),
    ("lse", "ptr addrspace(1)"),
    ("cu_q", "ptr addrspace(1)"),
    ("cu_kv", "ptr addrspace(1)"),
    ("pos_q", "ptr addrspace(1)"),
    ("pos_kv", "ptr addrspace(1)"),
    ("q_row", "i64"),
    ("kv_row", "i64"),
    ("o_row", "i64"),
    ("scale", "float"),
];

const BWD_PARAMS: &[(&str, &str)] = &[
    ("q", "ptr addrspace(1)"),
    ("k", "ptr addrspace(1)"),
    ("v", "ptr addrspace(1)"),
    ("do", "ptr addrspace(1)"),
    ("lse", "ptr addrspace(1)"),
    ("delta", "ptr addrspace(1)"),
    ("dq", "ptr addrspace(1)"),
    ("dk", "ptr addrspace(1)"),
    ("dv", "ptr addrspace(1)"),
    ("cu_q", "ptr addrspace(1)"),
    ("cu_kv", "ptr addrspace(1)"),
    ("pos_q", "ptr addrspace(1)"),
    ("pos_kv", "ptr addrspace(1)"),
    ("q_row", "i64"),
    ("kv_row", "i64"),
    ("dkv_row", "i64"),
    ("scale", "float"),
];

fn param_names(ps: &[(&str, &str)]) -> Vec<String> {
    ps.iter()
        .map(|(n, t)| {
            let t = match *t {
                "ptr addrspace(1)" => "global pointer",
                other => other,
            };
            format!("{n}: {t}")
        })
        .collect()
}

const DECLS: &str = "
@smem = external addrspace(3) global [0 x i8], align 128
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare void @llvm.nvvm.barrier0()
declare {i32, i32, i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3))
declare {i32, i32, i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3))
declare {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float)
declare {float, float, float, float} @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
declare void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare float @llvm.nvvm.ex2.approx.ftz.f(float)
declare float @llvm.nvvm.lg2.approx.ftz.f(float)
declare float @llvm.maxnum.f32(float, float)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
";

/// The module of a spec's kernel for a GPU target.
pub fn module(spec: &KernelSpec, target: Target) -> Result<GpuKernel, LlvmError> {
    let d = spec.head_dim as i64;
    let unsupported = |message: String| LlvmError::Unsupported { kernel: spec.name(), message };
    if !matches!(spec.dtype, Dtype::Bf16 | Dtype::Fp16) {
        return Err(unsupported(format!("GPU kernels take bf16 or fp16 inputs, not {:?}", spec.dtype)));
    }
    if d % 64 != 0 || d > 256 {
        return Err(unsupported(format!("GPU kernels need head_dim 64, 128, 192 or 256, not {d}")));
    }
    let mut g = Gen { spec: *spec, d, f: Fn::default() };
    let (body, params, smem, grid0) = match spec.kind {
        KernelKind::Forward => {
            if target == Target::Sm90a {
                g.forward_hopper();
            } else {
                g.forward();
            }
            let smem = (BM + 4 * bn(d)) * d * 2;
            (g.f.finish(), FWD_PARAMS, smem, "ceil(max_seqlen_q / 64)")
        }
        KernelKind::Backward => {
            g.backward();
            (g.f.finish(), BWD_PARAMS, 4 * BM * d * 2 + BM * BM * 2 + 2 * BM * 4, "ceil(max_seqlen_kv / 64)")
        }
    };
    let name = spec.name();
    let mut ir = String::new();
    let _ = writeln!(ir, "; attnc GPU kernel {name} for {}", target.name());
    ir.push_str("target triple = \"nvptx64-nvidia-cuda\"\n");
    ir.push_str(DECLS);
    let list: Vec<String> = params
        .iter()
        .map(|(n, t)| if t.starts_with("ptr") { format!("{t} noalias %{n}") } else { format!("{t} %{n}") })
        .collect();
    let _ = write!(ir, "\ndefine ptx_kernel void @{name}({}) {{\n{body}}}\n", list.join(", "));
    let _ = write!(
        ir,
        "\n!nvvm.annotations = !{{!0, !1, !2}}\n!0 = !{{ptr @{name}, !\"kernel\", i32 1}}\n\
         !1 = !{{ptr @{name}, !\"maxntidx\", i32 {THREADS}}}\n!2 = !{{ptr @{name}, !\"minctasm\", i32 1}}\n"
    );
    let launch = Launch {
        grid: [grid0.into(), "heads_q".into(), "sequences".into()],
        block: [THREADS, 1, 1],
        dynamic_shared_bytes: smem as u32,
        params: param_names(params),
    };
    Ok(GpuKernel { ir, launch })
}

/// The merge kernel of a head dim: one thread per (token, head) row of `d` floats.
pub fn merge_module(d: u32, target: Target) -> GpuKernel {
    let name = format!("attn_merge_d{d}");
    let mut f = Fn::default();
    let row = global_thread(&mut f);
    let rows = V::new("%rows", "i64");
    let inside = f.icmp("slt", &row, &rows);
    let (out, out_lse, part, part_lse) = (
        V::new("%out", "ptr addrspace(1)"),
        V::new("%out_lse", "ptr addrspace(1)"),
        V::new("%part", "ptr addrspace(1)"),
        V::new("%part_lse", "ptr addrspace(1)"),
    );
    f.if_(&inside, |f| {
        let pa = f.gep("float", &out_lse, &row);
        let a = f.load("float", &pa, 4);
        let pb = f.gep("float", &part_lse, &row);
        let b = f.load("float", &pb, 4);
        // lse = max + log(exp(a − max) + exp(b − max)); a side at −inf has weight 0.
        let m = f.call("float", "llvm.maxnum.f32", &[&a, &b]);
        let dead = f.fcmp("oeq", &m, &f32c(f32::NEG_INFINITY));
        let live = f.bin("xor", &dead, &V::new("true", "i1"));
        f.if_(&live, |f| {
            let log2e = f32c(std::f32::consts::LOG2_E);
            let da = f.fast("fsub", &a, &m);
            let da = f.fast("fmul", &da, &log2e);
            let wa = f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&da]);
            let db = f.fast("fsub", &b, &m);
            let db = f.fast("fmul", &db, &log2e);
            let wb = f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&db]);
            let sum = f.fast("fadd", &wa, &wb);
            let inv = f.fast("fdiv", &f32c(1.0), &sum);
            let wa = f.fast("fmul", &wa, &inv);
            let wb = f.fast("fmul", &wb, &inv);
            let lg = f.call("float", "llvm.nvvm.lg2.approx.ftz.f", &[&sum]);
            let ln = f.fast("fmul", &lg, &f32c(std::f32::consts::LN_2));
            let lse = f.fast("fadd", &m, &ln);
            f.store(&lse, &pa, 4);
            let at = f.bin("mul", &row, &i64c(d as i64));
            let o = f.gep("float", &out, &at);
            let p = f.gep("float", &part, &at);
            for e in 0..d as i64 {
                let po = f.gep("float", &o, &i64c(e));
                let x = f.load("float", &po, 4);
                let pp = f.gep("float", &p, &i64c(e));
                let y = f.load("float", &pp, 4);
                let x = f.fast("fmul", &x, &wa);
                let y = f.fast("fmul", &y, &wb);
                let z = f.fast("fadd", &x, &y);
                f.store(&z, &po, 4);
            }
        });
    });
    f.op("ret void");
    let params = "ptr addrspace(1) noalias %out, ptr addrspace(1) noalias %out_lse, \
                  ptr addrspace(1) noalias %part, ptr addrspace(1) noalias %part_lse, i64 %rows";
    let ir = elementwise_module(&name, "merge", target, params, &f);
    let launch = Launch {
        grid: ["ceil(tokens * heads_q / 128)".into(), "1".into(), "1".into()],
        block: [THREADS, 1, 1],
        dynamic_shared_bytes: 0,
        params: [
            "out: global pointer",
            "out_lse: global pointer",
            "part: global pointer",
            "part_lse: global pointer",
            "rows: i64",
        ]
        .map(String::from)
        .to_vec(),
    };
    GpuKernel { ir, launch }
}

/// `ctaid.x · 128 + tid.x`: the index of a thread of a one-dimensional launch.
fn global_thread(f: &mut Fn) -> V {
    let tid = f.call("i32", "llvm.nvvm.read.ptx.sreg.tid.x", &[]);
    let cta = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.x", &[]);
    let t = f.cast("zext", &tid, "i64");
    let c = f.cast("zext", &cta, "i64");
    let base = f.bin("mul", &c, &i64c(THREADS as i64));
    f.bin("add", &base, &t)
}

/// The module of a one-thread-per-element kernel: header, `body` as `@name(params)`, annotations.
fn elementwise_module(name: &str, what: &str, target: Target, params: &str, body: &Fn) -> String {
    let mut ir = String::new();
    let _ = writeln!(ir, "; attnc GPU {what} kernel {name} for {}", target.name());
    ir.push_str("target triple = \"nvptx64-nvidia-cuda\"\n");
    ir.push_str(DECLS);
    let _ = write!(ir, "\ndefine ptx_kernel void @{name}({params}) {{\n{}}}\n", body.finish());
    let _ = write!(
        ir,
        "\n!nvvm.annotations = !{{!0, !1}}\n!0 = !{{ptr @{name}, !\"kernel\", i32 1}}\n\
         !1 = !{{ptr @{name}, !\"maxntidx\", i32 {THREADS}}}\n"
    );
    ir
}

/// The name of the strided add kernel.
pub const ADD2D: &str = "attn_add2d";

/// `dst[r·dst_pitch + c] += src[r·src_pitch + c]` for `r < height`, `c < width` (fp32, pitches in
/// elements), one thread per element: the sums of the device executor's reduce-scatter and
/// GQA head sums on one GPU.
pub fn add2d_module(target: Target) -> GpuKernel {
    let mut f = Fn::default();
    let i = global_thread(&mut f);
    let (width, height) = (V::new("%width", "i64"), V::new("%height", "i64"));
    let n = f.bin("mul", &width, &height);
    let inside = f.icmp("slt", &i, &n);
    f.if_(&inside, |f| {
        let row = f.bin("udiv", &i, &width);
        let col = f.bin("urem", &i, &width);
        let at = |f: &mut Fn, pitch: &str| {
            let r = f.bin("mul", &row, &V::new(pitch, "i64"));
            f.bin("add", &r, &col)
        };
        let (sa, da) = (at(f, "%src_pitch"), at(f, "%dst_pitch"));
        let ps = f.gep("float", &V::new("%src", "ptr addrspace(1)"), &sa);
        let pd = f.gep("float", &V::new("%dst", "ptr addrspace(1)"), &da);
        let x = f.load("float", &ps, 4);
        let y = f.load("float", &pd, 4);
        let z = f.fast("fadd", &x, &y);
        f.store(&z, &pd, 4);
    });
    f.op("ret void");
    let params = "ptr addrspace(1) noalias %dst, i64 %dst_pitch, ptr addrspace(1) noalias %src, i64 %src_pitch, \
                  i64 %width, i64 %height";
    let ir = elementwise_module(ADD2D, "add", target, params, &f);
    let launch = Launch {
        grid: ["ceil(width * height / 128)".into(), "1".into(), "1".into()],
        block: [THREADS, 1, 1],
        dynamic_shared_bytes: 0,
        params: [
            "dst: global pointer",
            "dst_pitch: i64",
            "src: global pointer",
            "src_pitch: i64",
            "width: i64",
            "height: i64",
        ]
        .map(String::from)
        .to_vec(),
    };
    GpuKernel { ir, launch }
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
    d: i64,
    f: Fn,
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
    fn ids(&mut self) -> Ids {
        let f = &mut self.f;
        let tid32 = f.call("i32", "llvm.nvvm.read.ptx.sreg.tid.x", &[]);
        let tid = f.cast("zext", &tid32, "i64");
        let warp = f.bin("lshr", &tid, &i64c(5));
        let lane = f.bin("and", &tid, &i64c(31));
        let g = f.bin("lshr", &lane, &i64c(2));
        let t = f.bin("and", &lane, &i64c(3));
        Ids { warp, g, t, lane, tid }
    }

    fn param(&self, name: &str, ty: &str) -> V {
        param(name, ty)
    }

    fn load_i32_as_i64(&mut self, p: &V, idx: &V) -> V {
        let a = self.f.gep("i32", p, idx);
        let x = self.f.load("i32", &a, 4);
        self.f.cast("sext", &x, "i64")
    }

    /// Byte offset of element (row, col) of a tile, col a multiple of 8.
    fn offset(&mut self, tile: &Tile, row: &V, col: &V) -> V {
        let d = tile.width;
        let f = &mut self.f;
        if tile.core {
            // Core matrices of 8 rows × 16 bytes, contiguous; (row/8, col/8) in row-major order.
            let rb = f.bin("lshr", row, &i64c(3));
            let cb = f.bin("lshr", col, &i64c(3));
            let cm = f.bin("mul", &rb, &i64c(d / 8));
            let cm = f.bin("add", &cm, &cb);
            let cm = f.bin("mul", &cm, &i64c(128));
            let r8 = f.bin("and", row, &i64c(7));
            let r8 = f.bin("mul", &r8, &i64c(16));
            f.bin("add", &cm, &r8)
        } else {
            let rb = f.bin("mul", row, &i64c(2 * d));
            let ch = f.bin("lshr", col, &i64c(3));
            let sw = f.bin("and", row, &i64c(7));
            let ch = f.bin("xor", &ch, &sw);
            let ch = f.bin("mul", &ch, &i64c(16));
            f.bin("add", &rb, &ch)
        }
    }

    fn smem_at(&mut self, tile: &Tile, off: &V) -> V {
        self.f.gep("i8", &tile.base, off)
    }

    /// Issues `cp.async` copies of `rows` rows (16-bit elements, `d` per row) starting at global
    /// row `start` (of `len` valid rows; the rest is zero-filled) into `tile`.
    #[allow(clippy::too_many_arguments)]
    fn load_tile(&mut self, ids: &Ids, tile: &Tile, src: &V, row_stride: &V, start: &V, len: &V, rows: i64) {
        let d = tile.width;
        let per_thread = rows * d / 8 / THREADS as i64;
        for i in 0..per_thread {
            let c = self.f.bin("add", &ids.tid, &i64c(i * THREADS as i64));
            let row = self.f.bin("udiv", &c, &i64c(d / 8));
            let ch = self.f.bin("urem", &c, &i64c(d / 8));
            let col = self.f.bin("mul", &ch, &i64c(8));
            let off = self.offset(tile, &row, &col);
            let dst = self.smem_at(tile, &off);
            let f = &mut self.f;
            let r = f.bin("add", start, &row);
            let ok = f.icmp("slt", &r, len);
            let size = f.select(&ok, &i32c(16), &i32c(0));
            let r = f.select(&ok, &r, &i64c(0));
            let at = f.bin("mul", &r, row_stride);
            let at = f.bin("add", &at, &col);
            let s = f.gep("i16", src, &at);
            f.call_void("llvm.nvvm.cp.async.cg.shared.global.16.s", &[&dst, &s, &size]);
        }
    }

    fn ldmatrix(&mut self, tile: &Tile, row: &V, col: &V, trans: bool) -> [V; 4] {
        let off = self.offset(tile, row, col);
        let p = self.smem_at(tile, &off);
        let name = if trans {
            "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3"
        } else {
            "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3"
        };
        let ty = "{i32, i32, i32, i32}";
        let r = self.f.call(ty, name, &[&p]);
        [0, 1, 2, 3].map(|i| self.f.let_("i32", format!("extractvalue {} {}, {i}", ty, r.name)))
    }

    /// c += a·b (16×8×16), a and b as packed 16-bit pairs.
    fn mma(&mut self, a: &[V; 4], b: [&V; 2], c: &[V]) -> Vec<V> {
        let ty = "{float, float, float, float}";
        let r = if self.spec.dtype == Dtype::Fp16 {
            let h: Vec<V> = a.iter().chain(b).map(|x| self.f.cast("bitcast", x, "<2 x half>")).collect();
            let args: Vec<&V> = h.iter().chain(c.iter()).collect();
            self.f.call(ty, "llvm.nvvm.mma.m16n8k16.row.col.f32.f32", &args)
        } else {
            let args: Vec<&V> = a.iter().chain(b).chain(c.iter()).collect();
            self.f.call(ty, "llvm.nvvm.mma.m16n8k16.row.col.bf16", &args)
        };
        (0..4).map(|i| self.f.let_("float", format!("extractvalue {ty} {}, {i}", r.name))).collect()
    }

    /// Two f32 into one packed pair of the input type.
    fn pack(&mut self, lo: &V, hi: &V) -> V {
        let (ht, vt) = if self.spec.dtype == Dtype::Fp16 { ("half", "<2 x half>") } else { ("bfloat", "<2 x bfloat>") };
        let f = &mut self.f;
        let a = f.cast("fptrunc", lo, ht);
        let b = f.cast("fptrunc", hi, ht);
        let v0 = f.let_(vt, format!("insertelement {vt} poison, {}, i32 0", a.t()));
        let v1 = f.let_(vt, format!("insertelement {vt} {}, {}, i32 1", v0.name, b.t()));
        f.cast("bitcast", &v1, "i32")
    }

    /// A per-thread register array as a stack slot with constant indices (promoted to registers).
    fn regs(&mut self, n: usize, init: f32) -> V {
        let slot = self.f.alloca(&format!("[{n} x float]"), 4);
        for i in 0..n {
            let p = self.f.gep("float", &slot, &i64c(i as i64));
            self.f.store(&f32c(init), &p, 4);
        }
        slot
    }

    fn get(&mut self, regs: &V, i: usize) -> V {
        let p = self.f.gep("float", regs, &i64c(i as i64));
        self.f.load("float", &p, 4)
    }

    fn set(&mut self, regs: &V, i: usize, x: &V) {
        let p = self.f.gep("float", regs, &i64c(i as i64));
        self.f.store(x, &p, 4);
    }

    fn quad_reduce(&mut self, x: &V, max: bool) -> V {
        let mut x = x.clone();
        for m in [1, 2] {
            let y = self.f.call("float", "llvm.nvvm.shfl.sync.bfly.f32", &[&i32c(-1), &x, &i32c(m), &i32c(31)]);
            x = if max { self.f.call("float", "llvm.maxnum.f32", &[&x, &y]) } else { self.f.fast("fadd", &x, &y) };
        }
        x
    }

    /// Whether key position `k` is visible from query position `q` (and `k` inside the run).
    fn allowed(&mut self, q: &V, k: &V, k_rel: &V, kv_len: &V) -> V {
        let f = &mut self.f;
        let mut ok = f.icmp("slt", k_rel, kv_len);
        if !matches!(self.spec.mask, KernelMask::None) {
            let c = f.icmp("sle", k, q);
            ok = f.bin("and", &ok, &c);
        }
        if let KernelMask::Window { window } = self.spec.mask {
            let diff = f.bin("sub", q, k);
            let c = f.icmp("slt", &diff, &i64c(window as i64));
            ok = f.bin("and", &ok, &c);
        }
        ok
    }

    /// The per-sequence frame of a CTA: (seq, head, kv head, tile index) and the run's extents.
    fn frame(&mut self) -> Frame {
        let f = &mut self.f;
        let x = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.x", &[]);
        let y = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.y", &[]);
        let z = f.call("i32", "llvm.nvvm.read.ptx.sreg.ctaid.z", &[]);
        let tile = f.cast("zext", &x, "i64");
        let head = f.cast("zext", &y, "i64");
        let seq = f.cast("zext", &z, "i64");
        let kv_head = f.bin("udiv", &head, &i64c(self.spec.group as i64));
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

    /// Base pointer of head `h` of a [tokens, heads, d] tensor starting at token `t0`.
    fn head_base(&mut self, p: &V, t0: &V, row: &V, h: &V, heads_stride: i64) -> V {
        let f = &mut self.f;
        let a = f.bin("mul", t0, row);
        let b = f.bin("mul", h, &i64c(heads_stride));
        let a = f.bin("add", &a, &b);
        f.gep("i16", p, &a)
    }

    fn forward(&mut self) {
        self.forward_impl(false);
    }

    fn forward_hopper(&mut self) {
        self.forward_impl(true);
    }

    fn forward_impl(&mut self, hopper: bool) {
        let d = self.d;
        let bn = bn(d);
        let mask = self.spec.mask;
        let ids = self.ids();
        let fr = self.frame();
        let f = &mut self.f;
        let m0 = f.bin("mul", &fr.tile, &i64c(BM));
        let live = f.icmp("slt", &m0, &fr.q_len);
        let (go, out) = (f.label("live"), f.label("exit"));
        f.cond_br(&live, &go, &out);
        f.place(&go);
        let q_lo = f.bin("add", &fr.q_pos, &m0);
        let rows_left = f.bin("sub", &fr.q_len, &m0);
        let rows = f.min_i64(&rows_left, &i64c(BM));
        let q_hi = f.bin("add", &q_lo, &rows);
        let q_hi = f.bin("sub", &q_hi, &i64c(1));
        let (lo, hi) = super::bounds::kv_bounds(f, mask, &q_lo, &q_hi, &fr.kv_pos, &fr.kv_len);
        let lo = super::text::round_down(f, &lo, bn);
        // Shared memory: Q, then K and V double-buffered.
        let smem = V::new("@smem", P3);
        let q_tile = Tile { base: smem.clone(), width: d, core: false };
        let tile_bytes = bn * d * 2;
        let kv_tiles: Vec<(Tile, Tile)> = (0..2)
            .map(|b| {
                let kb = f.gep("i8", &smem, &i64c(BM * d * 2 + (2 * b) * tile_bytes));
                let vb = f.gep("i8", &smem, &i64c(BM * d * 2 + (2 * b + 1) * tile_bytes));
                (Tile { base: kb, width: d, core: hopper }, Tile { base: vb, width: d, core: hopper })
            })
            .collect();
        let (q_row, kv_row) = (self.param("q_row", "i64"), self.param("kv_row", "i64"));
        let hs = d;
        let q_start = self.f.bin("add", &fr.q0, &m0);
        let qb = self.head_base(&self.param("q", P1), &q_start, &q_row, &fr.head, hs);
        let kb = self.head_base(&self.param("k", P1), &fr.kv0, &kv_row, &fr.kv_head, hs);
        let vb = self.head_base(&self.param("v", P1), &fr.kv0, &kv_row, &fr.kv_head, hs);
        self.load_tile(&ids, &q_tile, &qb, &q_row, &i64c(0), &rows, BM);
        self.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
        let load_kv = |g: &mut Gen, j: &V, buf: usize| {
            g.load_tile(&ids, &kv_tiles[buf].0, &kb, &kv_row, j, &fr.kv_len, bn);
            g.load_tile(&ids, &kv_tiles[buf].1, &vb, &kv_row, j, &fr.kv_len, bn);
            g.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
        };
        // The first KV tile (a tile past the end only zero-fills).
        load_kv(self, &lo, 0);
        let nacc = (d / 8 * 4) as usize;
        let acc = self.regs(nacc, 0.0);
        let ml = self.regs(4, 0.0); // m (base 2) for rows g and g+8, then l.
        self.set(&ml, 0, &f32c(f32::NEG_INFINITY));
        self.set(&ml, 1, &f32c(f32::NEG_INFINITY));
        let scale = self.param("scale", "float");
        let scale2 = self.f.fast("fmul", &scale, &f32c(std::f32::consts::LOG2_E));
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let row_g = self.f.bin("add", &warp_row, &ids.g);
        // ldmatrix lane addressing: matrix i = lane / 8, row j = lane % 8.
        let lanes = self.lanes(&ids);
        let buf_slot = self.f.alloca("i64", 8);
        self.f.store(&i64c(0), &buf_slot, 8);
        let kv_tiles2 = kv_tiles.clone();
        let kv_loop = self.f.begin_for(&lo, &hi, bn);
        let j = kv_loop.i.clone();
        {
            let g = &mut *self;
            let buf = g.f.load("i64", &buf_slot, 8);
            let next = g.f.bin("add", &j, &i64c(bn));
            let has_next = g.f.icmp("slt", &next, &hi);
            let other = g.f.bin("xor", &buf, &i64c(1));
            // Prefetch the next tile into the other buffer, then wait for this one.
            let (pf, nopf, joined) = (g.f.label("prefetch"), g.f.label("last"), g.f.label("ready"));
            g.f.cond_br(&has_next, &pf, &nopf);
            g.f.place(&pf);
            let is0 = g.f.icmp("eq", &other, &i64c(0));
            let (b0, b1, bj) = (g.f.label("pf0"), g.f.label("pf1"), g.f.label("pfdone"));
            g.f.cond_br(&is0, &b0, &b1);
            g.f.place(&b0);
            load_kv(g, &next, 0);
            g.f.br(&bj);
            g.f.place(&b1);
            load_kv(g, &next, 1);
            g.f.br(&bj);
            g.f.place(&bj);
            g.f.call_void("llvm.nvvm.cp.async.wait.group", &[&i32c(1)]);
            g.f.br(&joined);
            g.f.place(&nopf);
            g.f.call_void("llvm.nvvm.cp.async.wait.group", &[&i32c(0)]);
            g.f.br(&joined);
            g.f.place(&joined);
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            // This tile's buffers (selected by address arithmetic on the buffer index).
            let kbase = {
                let off = g.f.bin("mul", &buf, &i64c(2 * tile_bytes));
                g.f.gep("i8", &kv_tiles2[0].0.base, &off)
            };
            let vbase = {
                let off = g.f.bin("mul", &buf, &i64c(2 * tile_bytes));
                g.f.gep("i8", &kv_tiles2[0].1.base, &off)
            };
            let (kt, vt) = (Tile { base: kbase, width: d, core: hopper }, Tile { base: vbase, width: d, core: hopper });
            // Scores.
            let nb = (bn / 8) as usize;
            let mut s: Vec<V> = vec![f32c(0.0); nb * 4];
            if hopper {
                s = g.wgmma_scores(&q_tile, &kt, &ids, &lanes, bn);
            } else {
                for kk in 0..d / 16 {
                    let a = g.frag_a(&q_tile, &lanes, &warp_row, kk * 16);
                    for pair in 0..nb / 2 {
                        // Keys pair·16 + (mi/2)·8 + j, head elements kk·16 + (mi%2)·8.
                        let b = g.frag_b_nk(&kt, &lanes, pair as i64 * 16, kk * 16);
                        for h in 0..2 {
                            let n = pair * 2 + h;
                            let c = s[n * 4..n * 4 + 4].to_vec();
                            let r = g.mma(&a, [&b[2 * h], &b[2 * h + 1]], &c);
                            s[n * 4..n * 4 + 4].clone_from_slice(&r);
                        }
                    }
                }
            }
            for x in s.iter_mut() {
                *x = g.f.fast("fmul", x, &scale2);
            }
            // MaskEdge: only on tiles that straddle the mask edge or end the run.
            let k_lo = g.f.bin("add", &fr.kv_pos, &j);
            let k_hi = g.f.bin("add", &k_lo, &i64c(bn - 1));
            let end = g.f.bin("add", &j, &i64c(bn));
            let partial = g.f.icmp("sgt", &end, &fr.kv_len);
            let edge = super::bounds::needs_mask(&mut g.f, mask, &q_lo, &q_hi, &k_lo, &k_hi, &partial);
            let slot = g.f.alloca(&format!("[{} x float]", nb * 4), 4);
            for (i, x) in s.iter().enumerate() {
                let p = g.f.gep("float", &slot, &i64c(i as i64));
                g.f.store(x, &p, 4);
            }
            let (mk, mdone) = (g.f.label("edge"), g.f.label("edgedone"));
            g.f.cond_br(&edge, &mk, &mdone);
            g.f.place(&mk);
            // In 32-bit offsets from the tile: column c is allowed iff c < kv_len − j, and (causal)
            // c − r ≤ q_lo − kv_pos − j, and (window) r − c + that < window, r the row in the CTA.
            let lim = g.f.bin("sub", &fr.kv_len, &j);
            let lim = g.f.clamp_i64(&lim, &i64c(0), &i64c(bn));
            let lim = g.f.cast("trunc", &lim, "i32");
            let delta = g.f.bin("sub", &q_lo, &k_lo);
            let delta = g.f.clamp_i64(&delta, &i64c(-(1 << 30)), &i64c(1 << 30));
            let delta = g.f.cast("trunc", &delta, "i32");
            let t2 = g.f.cast("trunc", &ids.t, "i32");
            let t2 = g.f.bin("shl", &t2, &i32c(1));
            let rg = g.f.cast("trunc", &row_g, "i32");
            for n in 0..nb {
                for e in 0..4 {
                    let c = g.f.bin("add", &t2, &i32c(n as i64 * 8 + (e % 2) as i64));
                    let r = g.f.bin("add", &rg, &i32c(8 * (e / 2) as i64));
                    let mut ok = g.f.icmp("slt", &c, &lim);
                    if !matches!(mask, KernelMask::None) {
                        let cr = g.f.bin("sub", &c, &r);
                        let vis = g.f.icmp("sle", &cr, &delta);
                        ok = g.f.bin("and", &ok, &vis);
                        if let KernelMask::Window { window } = mask {
                            let back = g.f.bin("sub", &delta, &cr);
                            let near = g.f.icmp("slt", &back, &i32c(window.min(1 << 30) as i64));
                            ok = g.f.bin("and", &ok, &near);
                        }
                    }
                    let p = g.f.gep("float", &slot, &i64c((n * 4 + e) as i64));
                    let x = g.f.load("float", &p, 4);
                    let y = g.f.select(&ok, &x, &f32c(f32::NEG_INFINITY));
                    g.f.store(&y, &p, 4);
                }
            }
            g.f.br(&mdone);
            g.f.place(&mdone);
            let s: Vec<V> = (0..nb * 4)
                .map(|i| {
                    let p = g.f.gep("float", &slot, &i64c(i as i64));
                    g.f.load("float", &p, 4)
                })
                .collect();
            // OnlineSoftmax, two rows per thread.
            let mut p = s.clone();
            for h in 0..2 {
                let mut mx = f32c(f32::NEG_INFINITY);
                for n in 0..nb {
                    for e in 0..2 {
                        mx = g.f.call("float", "llvm.maxnum.f32", &[&mx, &s[n * 4 + 2 * h + e]]);
                    }
                }
                let mx = g.quad_reduce(&mx, true);
                let m_old = g.get(&ml, h);
                let m_new = g.f.call("float", "llvm.maxnum.f32", &[&m_old, &mx]);
                let dead = g.f.fcmp("oeq", &m_new, &f32c(f32::NEG_INFINITY));
                let base = g.f.select(&dead, &f32c(0.0), &m_new);
                let mut sum = f32c(0.0);
                for n in 0..nb {
                    for e in 0..2 {
                        let i = n * 4 + 2 * h + e;
                        let x = g.f.fast("fsub", &s[i], &base);
                        p[i] = g.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&x]);
                        sum = g.f.fast("fadd", &sum, &p[i]);
                    }
                }
                let dm = g.f.fast("fsub", &m_old, &base);
                let alpha = g.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&dm]);
                let l = g.get(&ml, 2 + h);
                let l = g.f.fast("fmul", &l, &alpha);
                let l = g.f.fast("fadd", &l, &sum);
                g.set(&ml, 2 + h, &l);
                g.set(&ml, h, &m_new);
                for db in 0..(d / 8) as usize {
                    for e in 0..2 {
                        let i = db * 4 + 2 * h + e;
                        let x = g.get(&acc, i);
                        let x = g.f.fast("fmul", &x, &alpha);
                        g.set(&acc, i, &x);
                    }
                }
            }
            // AccumulatePv: P (the S accumulators, packed) as A; V through ldmatrix.trans.
            // At head_dim 256 the m64n256 accumulators of one wgmma leave too few registers: P·V
            // then uses mma.sync (which Hopper runs too) on the same shared-memory layout.
            if hopper && d <= 128 {
                g.wgmma_pv(&p, &vt, &acc, bn);
            } else {
                for kk in 0..(bn / 16) as usize {
                    let a = [
                        g.pack(&p[(2 * kk) * 4], &p[(2 * kk) * 4 + 1]),
                        g.pack(&p[(2 * kk) * 4 + 2], &p[(2 * kk) * 4 + 3]),
                        g.pack(&p[(2 * kk + 1) * 4], &p[(2 * kk + 1) * 4 + 1]),
                        g.pack(&p[(2 * kk + 1) * 4 + 2], &p[(2 * kk + 1) * 4 + 3]),
                    ];
                    for pair in 0..(d / 16) as usize {
                        // Keys kk·16 + (mi%2)·8 + j, head elements pair·16 + (mi/2)·8.
                        let b = g.frag_b_kn(&vt, &lanes, kk as i64 * 16, pair as i64 * 16);
                        for h in 0..2 {
                            let n = pair * 2 + h;
                            let c: Vec<V> = (0..4).map(|e| g.get(&acc, n * 4 + e)).collect();
                            let r = g.mma(&a, [&b[2 * h], &b[2 * h + 1]], &c);
                            for (e, x) in r.iter().enumerate() {
                                g.set(&acc, n * 4 + e, x);
                            }
                        }
                    }
                }
            }
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            g.f.store(&other, &buf_slot, 8);
        }
        self.f.end_for(kv_loop);
        // Epilogue: O = acc / l, LSE = (m + log2 l)·ln 2; rows past the run are not stored.
        let (o, lse, o_row) = (self.param("o", P1), self.param("lse", P1), self.param("o_row", "i64"));
        for h in 0..2 {
            let l = self.get(&ml, 2 + h);
            let l = self.quad_reduce(&l, false);
            let m = self.get(&ml, h);
            let f = &mut self.f;
            let r = f.bin("add", &row_g, &i64c(8 * h as i64));
            let inside = f.icmp("slt", &r, &rows);
            let zero = f.fcmp("oeq", &l, &f32c(0.0));
            let inv = f.fast("fdiv", &f32c(1.0), &l);
            let inv = f.select(&zero, &f32c(0.0), &inv);
            let lg = f.call("float", "llvm.nvvm.lg2.approx.ftz.f", &[&l]);
            let lv = f.fast("fadd", &m, &lg);
            let lv = f.fast("fmul", &lv, &f32c(std::f32::consts::LN_2));
            let lv = f.select(&zero, &f32c(f32::NEG_INFINITY), &lv);
            let token = f.bin("add", &fr.q0, &m0);
            let token = f.bin("add", &token, &r);
            let at = f.bin("mul", &token, &o_row);
            let hd = f.bin("mul", &fr.head, &i64c(d));
            let at = f.bin("add", &at, &hd);
            let orow = f.gep("float", &o, &at);
            let heads = f.bin("udiv", &o_row, &i64c(d));
            let la = f.bin("mul", &token, &heads);
            let la = f.bin("add", &la, &fr.head);
            let lp = f.gep("float", &lse, &la);
            let mut vals = Vec::new();
            for db in 0..(d / 8) as usize {
                for e in 0..2 {
                    vals.push((db, e));
                }
            }
            let scaled: Vec<(V, usize, usize)> = vals
                .iter()
                .map(|&(db, e)| {
                    let x = self.get(&acc, db * 4 + 2 * h + e);
                    (self.f.fast("fmul", &x, &inv), db, e)
                })
                .collect();
            let t = ids.t.clone();
            self.f.if_(&inside, |f| {
                let t0 = f.icmp("eq", &t, &i64c(0));
                f.if_(&t0, |f| f.store(&lv, &lp, 4));
                for (x, db, e) in &scaled {
                    let col = f.bin("mul", &t, &i64c(2));
                    let col = f.bin("add", &col, &i64c(*db as i64 * 8 + *e as i64));
                    let p = f.gep("float", &orow, &col);
                    f.store(x, &p, 4);
                }
            });
        }
        self.f.br(&out);
        self.f.place(&out);
        self.f.op("ret void");
    }

    /// S = Q Kᵀ on the warpgroup with `wgmma.mma_async.m64n{bn}k16`: Q fragments from registers
    /// (ldmatrix, as on sm_80), Kᵀ from shared memory through a matrix descriptor (K-major, no
    /// swizzle: core matrices of 8 keys × 16 bytes, 128 bytes apart along the head, d·16 bytes
    /// apart along the keys).
    fn wgmma_scores(&mut self, q: &Tile, kt: &Tile, ids: &Ids, l: &Lanes, bn: i64) -> Vec<V> {
        let d = self.d;
        let n_out = (bn / 2) as usize; // bn·64 / 128 floats per thread.
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let mut acc: Vec<V> = vec![f32c(0.0); n_out];
        self.f.op("call void asm sideeffect \"wgmma.fence.sync.aligned;\", \"~{memory}\"()");
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        for kk in 0..d / 16 {
            let a = self.frag_a(q, l, &warp_row, kk * 16);
            // Descriptor of the 16-column slab kk of Kᵀ: start, LBO (along K) 128 B, SBO (along N).
            let off = self.offset(kt, &i64c(0), &i64c(kk * 16));
            let p = self.smem_at(kt, &off);
            let desc = self.descriptor(&p, 128, d * 16);
            acc = self.wgmma(
                &format!("wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{dt}.{dt}"),
                &a,
                &desc,
                &acc,
                kk > 0,
                false,
            );
            if d > 128 {
                // An async wgmma keeps its A registers until it completes: at head_dim 256 waiting
                // only at the end would hold all 16 slabs of Q fragments (64 registers).
                self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
                self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
            }
        }
        self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
        self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
        acc
    }

    /// O += P V on the warpgroup: P packed from the score registers, V (keys × head, the head
    /// contiguous: MN-major, transposed B) through a descriptor.
    fn wgmma_pv(&mut self, p: &[V], vt: &Tile, acc: &V, bn: i64) {
        let d = self.d;
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        let n_acc = (d / 2) as usize;
        let mut c: Vec<V> = (0..n_acc).map(|i| self.get(acc, i)).collect();
        self.f.op("call void asm sideeffect \"wgmma.fence.sync.aligned;\", \"~{memory}\"()");
        for kk in 0..(bn / 16) as usize {
            let a = [
                self.pack(&p[(2 * kk) * 4], &p[(2 * kk) * 4 + 1]),
                self.pack(&p[(2 * kk) * 4 + 2], &p[(2 * kk) * 4 + 3]),
                self.pack(&p[(2 * kk + 1) * 4], &p[(2 * kk + 1) * 4 + 1]),
                self.pack(&p[(2 * kk + 1) * 4 + 2], &p[(2 * kk + 1) * 4 + 3]),
            ];
            let off = self.offset(vt, &i64c(kk as i64 * 16), &i64c(0));
            let ptr = self.smem_at(vt, &off);
            // Along K (keys) core matrices are d·16 bytes apart; along N (head) 128 bytes.
            let desc = self.descriptor(&ptr, d * 16, 128);
            c = self.wgmma(
                &format!("wgmma.mma_async.sync.aligned.m64n{d}k16.f32.{dt}.{dt}"),
                &a,
                &desc,
                &c,
                true,
                true,
            );
        }
        self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
        self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
        for (i, x) in c.iter().enumerate() {
            self.set(acc, i, x);
        }
    }

    /// A shared-memory matrix descriptor: address, leading and stride byte offsets (no swizzle).
    fn descriptor(&mut self, p: &V, lbo: i64, sbo: i64) -> V {
        let f = &mut self.f;
        let a = f.cast("ptrtoint", p, "i64");
        let a = f.bin("and", &a, &i64c(0x3FFFF));
        let a = f.bin("lshr", &a, &i64c(4));
        let hi = ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
        f.bin("or", &a, &i64c(hi))
    }

    /// One `wgmma` with A from registers (4 packed pairs), B by descriptor, `c` accumulated.
    fn wgmma(&mut self, op: &str, a: &[V; 4], desc: &V, c: &[V], accumulate: bool, trans_b: bool) -> Vec<V> {
        let n = c.len();
        let outs: Vec<String> = (0..n).map(|i| format!("${i}")).collect();
        let ins_a: Vec<String> = (0..4).map(|i| format!("${}", n + i)).collect();
        let scale_d = if accumulate { 1 } else { 0 };
        let text = format!(
            "{op} {{{}}}, {{{}}}, ${}, {scale_d}, 1, 1, {};",
            outs.join(", "),
            ins_a.join(", "),
            n + 4,
            if trans_b { 1 } else { 0 }
        );
        let mut constraints: Vec<String> = (0..n).map(|_| "=f".to_string()).collect();
        constraints.extend((0..4).map(|_| "r".to_string()));
        constraints.push("l".into());
        constraints.extend((0..n).map(|i| i.to_string()));
        let ty = format!("{{{}}}", vec!["float"; n].join(", "));
        let mut args: Vec<String> = a.iter().map(|x| x.t()).collect();
        args.push(desc.t());
        args.extend(c.iter().map(|x| x.t()));
        let r = self.f.let_(
            &ty,
            format!("call {ty} asm sideeffect \"{text}\", \"{}\"({})", constraints.join(","), args.join(", ")),
        );
        (0..n).map(|i| self.f.let_("float", format!("extractvalue {ty} {}, {i}", r.name))).collect()
    }

    /// ldmatrix.x4 with lane addresses `row = row_sel·8 + lane % 8 + row0`, `col = col_sel·8 + col0`
    /// (`row_sel`, `col_sel`: one bit each of the lane's matrix index).
    fn frag(&mut self, tile: &Tile, l: &Lanes, rows: (bool, &V), cols: (bool, &V), trans: bool) -> [V; 4] {
        let pick = |hi: bool| if hi { l.mi_hi.clone() } else { l.mi_lo.clone() };
        let r = self.f.bin("mul", &pick(rows.0), &i64c(8));
        let r = self.f.bin("add", &r, &l.mj);
        let r = self.f.bin("add", &r, rows.1);
        let c = self.f.bin("mul", &pick(cols.0), &i64c(8));
        let c = self.f.bin("add", &c, cols.1);
        self.ldmatrix(tile, &r, &c, trans)
    }

    /// A-operand fragments (16 rows × 16 columns at `row0`, `col0`) of a row-major tile.
    fn frag_a(&mut self, tile: &Tile, l: &Lanes, row0: &V, col0: i64) -> [V; 4] {
        self.frag(tile, l, (false, row0), (true, &i64c(col0)), false)
    }

    /// B-operand fragments of two n-blocks from a row-major [n][k] tile (n rows at `n0`, k at `k0`).
    fn frag_b_nk(&mut self, tile: &Tile, l: &Lanes, n0: i64, k0: i64) -> [V; 4] {
        self.frag(tile, l, (true, &i64c(n0)), (false, &i64c(k0)), false)
    }

    /// B-operand fragments of two n-blocks from a row-major [k][n] tile (ldmatrix.trans).
    fn frag_b_kn(&mut self, tile: &Tile, l: &Lanes, k0: i64, n0: i64) -> [V; 4] {
        self.frag(tile, l, (false, &i64c(k0)), (true, &i64c(n0)), true)
    }

    /// A-operand fragments of the transpose of a row-major [k][m] tile: rows m at `m0`, k at `k0`.
    fn frag_a_t(&mut self, tile: &Tile, l: &Lanes, m0: &V, k0: i64) -> [V; 4] {
        self.frag(tile, l, (true, &i64c(k0)), (false, m0), true)
    }

    fn lanes(&mut self, ids: &Ids) -> Lanes {
        let mi = self.f.bin("lshr", &ids.lane, &i64c(3));
        let mj = self.f.bin("and", &ids.lane, &i64c(7));
        let mi_lo = self.f.bin("and", &mi, &i64c(1));
        let mi_hi = self.f.bin("lshr", &mi, &i64c(1));
        Lanes { mi_lo, mi_hi, mj }
    }

    /// C fragments (nb n-blocks × 4 floats) of `a` (16 × 16·ka) times B from a [n][k] tile.
    fn gemm_nk(&mut self, a: &[[V; 4]], b: &Tile, l: &Lanes, nb: usize, c: &mut [V]) {
        for (kk, a) in a.iter().enumerate() {
            for pair in 0..nb / 2 {
                let f = self.frag_b_nk(b, l, pair as i64 * 16, kk as i64 * 16);
                for h in 0..2 {
                    let n = pair * 2 + h;
                    let r = self.mma(a, [&f[2 * h], &f[2 * h + 1]], &c[n * 4..n * 4 + 4]);
                    c[n * 4..n * 4 + 4].clone_from_slice(&r);
                }
            }
        }
    }

    /// Packs C fragments (16 rows × 16·k columns) into A operands.
    fn pack_a(&mut self, c: &[V]) -> Vec<[V; 4]> {
        (0..c.len() / 8)
            .map(|kk| {
                [
                    self.pack(&c[(2 * kk) * 4], &c[(2 * kk) * 4 + 1]),
                    self.pack(&c[(2 * kk) * 4 + 2], &c[(2 * kk) * 4 + 3]),
                    self.pack(&c[(2 * kk + 1) * 4], &c[(2 * kk + 1) * 4 + 1]),
                    self.pack(&c[(2 * kk + 1) * 4 + 2], &c[(2 * kk + 1) * 4 + 3]),
                ]
            })
            .collect()
    }

    /// acc (registers, d/8 n-blocks) += A (16 × 16·ka) times B from a [k][n] tile.
    fn gemm_kn_acc(&mut self, a: &[[V; 4]], b: &Tile, l: &Lanes, acc: &V) {
        let d = self.d;
        for (kk, a) in a.iter().enumerate() {
            for pair in 0..(d / 16) as usize {
                let f = self.frag_b_kn(b, l, kk as i64 * 16, pair as i64 * 16);
                for h in 0..2 {
                    let n = pair * 2 + h;
                    let c: Vec<V> = (0..4).map(|e| self.get(acc, n * 4 + e)).collect();
                    let r = self.mma(a, [&f[2 * h], &f[2 * h + 1]], &c);
                    for (e, x) in r.iter().enumerate() {
                        self.set(acc, n * 4 + e, x);
                    }
                }
            }
        }
    }

    /// Backward: a CTA per 64 keys of one query head of one sequence; each warp owns 16 keys.
    /// Per query tile within the mask: Sᵀ = K Qᵀ, Pᵀ = exp2(Sᵀ·scale·log2e − lse·log2e) (masked),
    /// dV += Pᵀ dO, dPᵀ = V dOᵀ, dSᵀ = Pᵀ ∘ (dPᵀ − D), dK += dSᵀ Q; dSᵀ goes through shared memory
    /// so each warp forms 16 query rows of dQ = dS K, added to global fp32 by atomics. dK·scale and
    /// dV are added by atomics at the end (GQA heads and ring steps accumulate).
    fn backward_impl(&mut self) {
        let d = self.d;
        let mask = self.spec.mask;
        let ids = self.ids();
        let l = self.lanes(&ids);
        let fr = self.frame();
        let f = &mut self.f;
        let n0 = f.bin("mul", &fr.tile, &i64c(BM));
        let live = f.icmp("slt", &n0, &fr.kv_len);
        let (go, out) = (f.label("live"), f.label("exit"));
        f.cond_br(&live, &go, &out);
        f.place(&go);
        let left = f.bin("sub", &fr.kv_len, &n0);
        let keys = f.min_i64(&left, &i64c(BM));
        let k_lo = f.bin("add", &fr.kv_pos, &n0);
        let k_hi = f.bin("add", &k_lo, &keys);
        let k_hi = f.bin("sub", &k_hi, &i64c(1));
        let (qlo, qhi) = super::bounds::q_bounds(f, mask, &k_lo, &k_hi, &fr.q_pos, &fr.q_len, 1);
        let qlo = super::text::round_down(f, &qlo, BM);
        let smem = V::new("@smem", P3);
        let at = |f: &mut Fn, off: i64| f.gep("i8", &smem, &i64c(off));
        let tb = BM * d * 2;
        let kt = Tile { base: at(f, 0), width: d, core: false };
        let vt = Tile { base: at(f, tb), width: d, core: false };
        let qt = Tile { base: at(f, 2 * tb), width: d, core: false };
        let dot = Tile { base: at(f, 3 * tb), width: d, core: false };
        let dst = Tile { base: at(f, 4 * tb), width: BM, core: false };
        let stats = at(f, 4 * tb + BM * BM * 2);
        let (q_row, kv_row, dkv_row) =
            (self.param("q_row", "i64"), self.param("kv_row", "i64"), self.param("dkv_row", "i64"));
        let kn = self.f.bin("add", &fr.kv0, &n0);
        let kb = self.head_base(&self.param("k", P1), &kn, &kv_row, &fr.kv_head, d);
        let vb = self.head_base(&self.param("v", P1), &kn, &kv_row, &fr.kv_head, d);
        self.load_tile(&ids, &kt, &kb, &kv_row, &i64c(0), &keys, BM);
        self.load_tile(&ids, &vt, &vb, &kv_row, &i64c(0), &keys, BM);
        self.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
        let dk = self.regs((d / 2) as usize, 0.0);
        let dv = self.regs((d / 2) as usize, 0.0);
        let scale = self.param("scale", "float");
        let log2e = f32c(std::f32::consts::LOG2_E);
        let scale2 = self.f.fast("fmul", &scale, &log2e);
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let key_rel = [self.f.bin("add", &warp_row, &ids.g), {
            let r = self.f.bin("add", &warp_row, &ids.g);
            self.f.bin("add", &r, &i64c(8))
        }];
        let heads = self.f.bin("udiv", &q_row, &i64c(d));
        let qb0 = self.head_base(&self.param("q", P1), &fr.q0, &q_row, &fr.head, d);
        let dob0 = self.head_base(&self.param("do", P1), &fr.q0, &q_row, &fr.head, d);
        let ql = self.f.begin_for(&qlo, &qhi, BM);
        let m0 = ql.i.clone();
        {
            let g = &mut *self;
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            g.load_tile(&ids, &qt, &qb0, &q_row, &m0, &fr.q_len, BM);
            g.load_tile(&ids, &dot, &dob0, &q_row, &m0, &fr.q_len, BM);
            g.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
            // lse·log2e and D of the tile's rows (rows past the run: lse = +inf, so P = 0).
            let f = &mut g.f;
            let lt = f.icmp("ult", &ids.tid, &i64c(BM));
            let rr = f.bin("add", &m0, &ids.tid);
            let (lse_p, delta_p) = (V::new("%lse", P1), V::new("%delta", P1));
            f.if_(&lt, |f| {
                let ok = f.icmp("slt", &rr, &fr.q_len);
                let rs = f.select(&ok, &rr, &i64c(0));
                let tok = f.bin("add", &fr.q0, &rs);
                let a = f.bin("mul", &tok, &heads);
                let a = f.bin("add", &a, &fr.head);
                let pl = f.gep("float", &lse_p, &a);
                let x = f.load("float", &pl, 4);
                let x = f.fast("fmul", &x, &log2e);
                let x = f.select(&ok, &x, &f32c(f32::INFINITY));
                let pd = f.gep("float", &delta_p, &a);
                let y = f.load("float", &pd, 4);
                let sl = f.gep("float", &stats, &ids.tid);
                f.store(&x, &sl, 4);
                let ti = f.bin("add", &ids.tid, &i64c(BM));
                let sd = f.gep("float", &stats, &ti);
                f.store(&y, &sd, 4);
            });
            g.f.call_void("llvm.nvvm.cp.async.wait.group", &[&i32c(0)]);
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            let nb = (BM / 8) as usize;
            // Sᵀ = K Qᵀ (16 keys × 64 queries per warp).
            let ka: Vec<[V; 4]> = (0..d / 16).map(|kk| g.frag_a(&kt, &l, &warp_row, kk * 16)).collect();
            let mut s = vec![f32c(0.0); nb * 4];
            g.gemm_nk(&ka, &qt, &l, nb, &mut s);
            let mut p = s.clone();
            let mut cols = Vec::new();
            for n in 0..nb {
                for e in 0..4 {
                    let f = &mut g.f;
                    let c = f.bin("mul", &ids.t, &i64c(2));
                    let c = f.bin("add", &c, &i64c(n as i64 * 8 + (e % 2) as i64));
                    cols.push(c);
                }
            }
            for n in 0..nb {
                for e in 0..4 {
                    let i = n * 4 + e;
                    let c = cols[i].clone();
                    let lp = g.f.gep("float", &stats, &c);
                    let lse2 = g.f.load("float", &lp, 4);
                    let x = g.f.fast("fmul", &s[i], &scale2);
                    let x = g.f.fast("fsub", &x, &lse2);
                    let e2 = g.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&x]);
                    let q_rel = g.f.bin("add", &m0, &c);
                    let qa = g.f.bin("add", &fr.q_pos, &q_rel);
                    let kr = g.f.bin("add", &n0, &key_rel[e / 2]);
                    let ka = g.f.bin("add", &fr.kv_pos, &kr);
                    let ok = g.allowed(&qa, &ka, &kr, &fr.kv_len);
                    p[i] = g.f.select(&ok, &e2, &f32c(0.0));
                }
            }
            // dV += Pᵀ dO.
            let pa = g.pack_a(&p);
            g.gemm_kn_acc(&pa, &dot, &l, &dv);
            // dPᵀ = V dOᵀ; dSᵀ = Pᵀ ∘ (dPᵀ − D).
            let va: Vec<[V; 4]> = (0..d / 16).map(|kk| g.frag_a(&vt, &l, &warp_row, kk * 16)).collect();
            let mut dp = vec![f32c(0.0); nb * 4];
            g.gemm_nk(&va, &dot, &l, nb, &mut dp);
            let mut ds = dp.clone();
            for i in 0..nb * 4 {
                let c = g.f.bin("add", &cols[i], &i64c(BM));
                let dp_ = g.f.gep("float", &stats, &c);
                let dl = g.f.load("float", &dp_, 4);
                let x = g.f.fast("fsub", &dp[i], &dl);
                ds[i] = g.f.fast("fmul", &p[i], &x);
            }
            // dK += dSᵀ Q.
            let dsa = g.pack_a(&ds);
            g.gemm_kn_acc(&dsa, &qt, &l, &dk);
            // dSᵀ to shared memory as [key][query], then dQ = dS K per warp's 16 queries.
            for n in 0..nb {
                for h in 0..2 {
                    let packed = g.pack(&ds[n * 4 + 2 * h], &ds[n * 4 + 2 * h + 1]);
                    let row = g.f.bin("add", &key_rel[h], &i64c(0));
                    let col = g.f.bin("mul", &ids.t, &i64c(2));
                    let col = g.f.bin("add", &col, &i64c(n as i64 * 8));
                    let cb = g.f.bin("and", &col, &i64c(!7));
                    let off = g.offset(&dst, &row, &cb);
                    let within = g.f.bin("and", &col, &i64c(7));
                    let within = g.f.bin("mul", &within, &i64c(2));
                    let off = g.f.bin("add", &off, &within);
                    let ptr = g.smem_at(&dst, &off);
                    g.f.store(&packed, &ptr, 4);
                }
            }
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            let dqa: Vec<[V; 4]> = (0..BM / 16).map(|kk| g.frag_a_t(&dst, &l, &warp_row, kk * 16)).collect();
            let dq_acc = g.regs((d / 2) as usize, 0.0);
            g.gemm_kn_acc(&dqa, &kt, &l, &dq_acc);
            let dq = g.param("dq", P1);
            for n in 0..(d / 8) as usize {
                for e in 0..4 {
                    let x = g.get(&dq_acc, n * 4 + e);
                    let x = g.f.fast("fmul", &x, &scale);
                    let f = &mut g.f;
                    let qr = f.bin("add", &warp_row, &ids.g);
                    let qr = f.bin("add", &qr, &i64c(8 * (e / 2) as i64));
                    let qr = f.bin("add", &m0, &qr);
                    let ok = f.icmp("slt", &qr, &fr.q_len);
                    let tok = f.bin("add", &fr.q0, &qr);
                    let a = frag_offset(f, &tok, &q_row, &fr.head, d, &ids.t, n as i64 * 8 + (e % 2) as i64);
                    let ptr = f.gep("float", &dq, &a);
                    f.if_(&ok, |f| atomic_add(f, &ptr, &x));
                }
            }
        }
        self.f.end_for(ql);
        // dK·scale and dV into global fp32 (accumulated: GQA heads and ring steps add up).
        let (dkp, dvp) = (self.param("dk", P1), self.param("dv", P1));
        for n in 0..(d / 8) as usize {
            for e in 0..4 {
                let xk = self.get(&dk, n * 4 + e);
                let xk = self.f.fast("fmul", &xk, &scale);
                let xv = self.get(&dv, n * 4 + e);
                let f = &mut self.f;
                let kr = f.bin("add", &n0, &key_rel[e / 2]);
                let ok = f.icmp("slt", &kr, &fr.kv_len);
                let tok = f.bin("add", &fr.kv0, &kr);
                let a = frag_offset(f, &tok, &dkv_row, &fr.kv_head, d, &ids.t, n as i64 * 8 + (e % 2) as i64);
                let pk = f.gep("float", &dkp, &a);
                let pv = f.gep("float", &dvp, &a);
                f.if_(&ok, |f| {
                    atomic_add(f, &pk, &xk);
                    atomic_add(f, &pv, &xv);
                });
            }
        }
        self.f.br(&out);
        self.f.place(&out);
        self.f.op("ret void");
    }

    fn backward(&mut self) {
        self.backward_impl();
    }
}

/// ldmatrix lane coordinates: matrix `lane / 8` split into its low and high bit, row `lane % 8`.
struct Lanes {
    mi_lo: V,
    mi_hi: V,
    mj: V,
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
