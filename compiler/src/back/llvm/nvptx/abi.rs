//! The GPU kernel ABI and launch configuration: the parameters of the forward and backward
//! kernels, the module of a spec's kernel (its entry, annotations and launch), and the two
//! elementwise kernels (merge, strided add). `docs/llvm-backend.md` states the ABI.

use std::fmt::Write;

use super::super::{LlvmError, Target};
use super::*;
use crate::kernel::KernelKind;

/// How a GPU kernel is launched (the manifest's record).
pub use crate::back::manifest::Launch;

pub struct GpuKernel {
    pub ir: String,
    pub launch: Launch,
}

/// The forward kernel's parameters (name, LLVM type), in order; the per-head score values, the
/// tensor maps (sm_90a-ws) follow where the kernel reads them.
pub const FWD_PARAMS: &[(&str, &str)] = &[
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

/// The backward kernel's parameters, in order; the per-head score values and the learned
/// parameters' gradients follow where the kernel reads them.
pub const BWD_PARAMS: &[(&str, &str)] = &[
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

/// Dynamic shared memory, aligned to `{ALIGN}` bytes.
const SMEM: &str = "@smem = external addrspace(3) global [0 x i8], align {ALIGN}";

const DECLS: &str = "
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
declare float @llvm.nvvm.rcp.approx.ftz.f(float)
declare float @llvm.nvvm.lg2.approx.ftz.f(float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.floor.f32(float)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
";

/// The module of a spec's kernel for a GPU target.
pub fn module(spec: &KernelSpec, target: Target) -> Result<GpuKernel, LlvmError> {
    let d = spec.head_dim as i64;
    let unsupported = |message: String| LlvmError::Unsupported { kernel: spec.name(), message };
    if !crate::kernel::gpu_dtype_supported(spec.dtype) {
        return Err(unsupported(format!("GPU kernels take bf16 or fp16 inputs, not {:?}", spec.dtype)));
    }
    let dv = spec.dv() as i64;
    for (field, dim) in [("head_dim", d), ("v_head_dim", dv)] {
        if !crate::kernel::gpu_head_dim_supported(dim as u32) {
            return Err(unsupported(format!(
                "GPU kernels need a {field} of {}, not {dim}",
                crate::kernel::GPU_HEAD_DIMS
            )));
        }
    }
    let mut g = Gen { spec: *spec, d, dv, f: Fn::default(), heads: Vec::new() };
    let mut shape = Shape { threads: THREADS, smem_align: 128, tensor_maps: Vec::new() };
    let (body, params, smem, grid0) = match spec.kind {
        KernelKind::Forward if target == Target::Sm90aWs && super::hopper::takes(d, dv) => {
            g.forward_ws();
            // 128-byte swizzled TMA boxes land on 1024-byte boundaries.
            shape = Shape {
                threads: super::hopper::WS_THREADS,
                smem_align: 1024,
                tensor_maps: super::hopper::tensor_maps(d, dv),
            };
            (g.f.finish(), FWD_PARAMS, super::hopper::shared(d, dv).total, "ceil(max_seqlen_q / 128)")
        }
        KernelKind::Forward => {
            if matches!(target, Target::Sm90a | Target::Sm90aWs) {
                g.forward_hopper();
            } else {
                g.forward();
            }
            // Q, then two K (d wide) and V (dv wide) tiles.
            let smem = BM * d * 2 + 2 * bn(d.max(dv)) * (d + dv) * 2;
            (g.f.finish(), FWD_PARAMS, smem, "ceil(max_seqlen_q / 64)")
        }
        KernelKind::Backward => {
            if matches!(target, Target::Sm90a | Target::Sm90aWs) {
                g.backward_hopper();
            } else {
                g.backward();
            }
            // K, V, Q, dO tiles, dSᵀ, then lse and D.
            (g.f.finish(), BWD_PARAMS, 2 * BM * (d + dv) * 2 + BM * BM * 2 + 2 * BM * 4, "ceil(max_seqlen_kv / 64)")
        }
    };
    let name = spec.name();
    let header = format!("; attnc GPU kernel {name} for {}", target.name());
    // A score that reads the head takes its per-head values: [heads_q][n] floats.
    let mut params = params.to_vec();
    if spec.score.is_some_and(|s| s.reads_head()) {
        params.push(("head_values", "ptr addrspace(1)"));
    }
    // A backward whose score has learned parameters adds their gradients: [heads_q][params] floats.
    if spec.kind == KernelKind::Backward && spec.score.is_some_and(|s| s.has_params()) {
        params.push(("dparams", "ptr addrspace(1)"));
    }
    // A kernel that reads tensor maps takes them last, in global memory.
    if !shape.tensor_maps.is_empty() {
        params.push(("tmaps", "ptr addrspace(1)"));
    }
    Ok(kernel(&header, &name, &params, &body, shape, [grid0, "heads_q", "sequences"], smem as u32))
}

/// An attention kernel's block: its threads (0: an elementwise kernel of `THREADS` threads with no
/// occupancy annotation), the alignment of its dynamic shared memory and the tensor maps it reads.
struct Shape {
    threads: u32,
    smem_align: u32,
    tensor_maps: Vec<crate::back::manifest::TensorMapUse>,
}

/// A kernel module — `header`, `body` defined as `@name(params)` (pointers `noalias`), its
/// annotations (`minctasm 1` for an attention kernel) — and its launch: the shape's threads a
/// block, `grid`, `smem` bytes of dynamic shared memory, the same `params`, the tensor maps.
fn kernel(
    header: &str,
    name: &str,
    params: &[(&str, &str)],
    body: &str,
    shape: Shape,
    grid: [&str; 3],
    smem: u32,
) -> GpuKernel {
    let min_ctas = shape.threads != 0;
    let threads = if min_ctas { shape.threads } else { THREADS };
    let mut ir = String::new();
    let _ = writeln!(ir, "{header}");
    ir.push_str("target triple = \"nvptx64-nvidia-cuda\"\n\n");
    ir.push_str(&SMEM.replace("{ALIGN}", &shape.smem_align.to_string()));
    ir.push_str(DECLS);
    let list: Vec<String> = params
        .iter()
        .map(|(n, t)| if t.starts_with("ptr") { format!("{t} noalias %{n}") } else { format!("{t} %{n}") })
        .collect();
    let _ = write!(ir, "\ndefine ptx_kernel void @{name}({}) {{\n{body}}}\n", list.join(", "));
    let annotations = if min_ctas { "!{!0, !1, !2}" } else { "!{!0, !1}" };
    let _ = write!(
        ir,
        "\n!nvvm.annotations = {annotations}\n!0 = !{{ptr @{name}, !\"kernel\", i32 1}}\n\
         !1 = !{{ptr @{name}, !\"maxntidx\", i32 {threads}}}\n"
    );
    if min_ctas {
        let _ = writeln!(ir, "!2 = !{{ptr @{name}, !\"minctasm\", i32 1}}");
    }
    let launch = Launch {
        grid: grid.map(String::from),
        block: [threads, 1, 1],
        dynamic_shared_bytes: smem,
        params: param_names(params),
        tensor_maps: shape.tensor_maps,
    };
    GpuKernel { ir, launch }
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
    let params = [
        ("out", "ptr addrspace(1)"),
        ("out_lse", "ptr addrspace(1)"),
        ("part", "ptr addrspace(1)"),
        ("part_lse", "ptr addrspace(1)"),
        ("rows", "i64"),
    ];
    elementwise(&name, "merge", target, &params, &f, "ceil(tokens * heads_q / 128)")
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

/// A one-thread-per-element kernel: `grid0` blocks of `THREADS`, no shared memory.
fn elementwise(name: &str, what: &str, target: Target, params: &[(&str, &str)], body: &Fn, grid0: &str) -> GpuKernel {
    let header = format!("; attnc GPU {what} kernel {name} for {}", target.name());
    let shape = Shape { threads: 0, smem_align: 128, tensor_maps: Vec::new() };
    kernel(&header, name, params, &body.finish(), shape, [grid0, "1", "1"], 0)
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
    let params = [
        ("dst", "ptr addrspace(1)"),
        ("dst_pitch", "i64"),
        ("src", "ptr addrspace(1)"),
        ("src_pitch", "i64"),
        ("width", "i64"),
        ("height", "i64"),
    ];
    elementwise(ADD2D, "add", target, &params, &f, "ceil(width * height / 128)")
}
