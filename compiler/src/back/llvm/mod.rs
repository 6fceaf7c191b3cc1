//! The LLVM backend (feature `llvm`): the kernel IR of a [`KernelSpec`] as LLVM IR, optimised and
//! lowered by LLVM 19 to PTX for NVIDIA GPUs (`sm_80`, `sm_90a`) or to x86-64 with AVX2 + FMA.
//!
//! One pipeline for every target ([`compile`]): the lowering (`host.rs` for x86-64, `nvptx.rs` for
//! GPUs) writes LLVM IR text, LLVM parses and verifies it, `default<O3>` optimises it, and the
//! target machine emits assembly (PTX, or x86 assembly and an object file). `ATTNC_DUMP=DIR`
//! writes every stage: the kernel IR, the IR as lowered, the IR as optimised, the assembly.
//! Host kernels also run in process through MCJIT ([`HostJit`]), the `llvm-cpu` kernels of the
//! runtime. `ptxas.rs` assembles PTX with NVIDIA's ptxas and reads its resource report.

mod bounds;
mod host;
mod nvptx;
pub mod ptxas;
pub mod sass;
mod score;
mod text;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, Once};
use std::time::Instant;

use inkwell::OptimizationLevel;
use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target as LlvmTarget, TargetMachine, TargetTriple,
};
use serde::Serialize;

use crate::kernel::{self, KernelSpec};

pub use nvptx::{ADD2D, BWD_PARAMS, FWD_PARAMS, Launch};

#[derive(Debug, thiserror::Error)]
pub enum LlvmError {
    #[error("LLVM has no target {target}: {message}")]
    Target { target: String, message: String },
    #[error("kernel {kernel} for {target}: LLVM rejected the lowered IR: {message}")]
    Ir { kernel: String, target: String, message: String },
    #[error("kernel {kernel} for {target}: {stage}: {message}")]
    Codegen { kernel: String, target: String, stage: &'static str, message: String },
    #[error("kernel {kernel}: {message}")]
    Unsupported { kernel: String, message: String },
    #[error("ATTNC_DUMP: cannot write {path}: {message}")]
    Dump { path: String, message: String },
}

/// What the backend compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Target {
    /// Ampere: mma.sync, ldmatrix, cp.async.
    Sm80,
    /// Hopper with its architecture-specific instructions (wgmma).
    Sm90a,
    /// Hopper, the forward warp-specialized (TMA, mbarriers, a producer and two consumer
    /// warpgroups); selectable beside `Sm90a` until a GPU measures it faster.
    Sm90aWs,
    /// x86-64 with AVX2 and FMA (256-bit vectors).
    X86_64,
}

impl Target {
    pub const ALL: [Target; 4] = [Target::Sm80, Target::Sm90a, Target::Sm90aWs, Target::X86_64];

    pub fn name(self) -> &'static str {
        match self {
            Target::Sm80 => "sm_80",
            Target::Sm90a => "sm_90a",
            Target::Sm90aWs => "sm_90a-ws",
            Target::X86_64 => "x86-64",
        }
    }

    pub fn parse(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The architecture the machine code is for (`-arch` of ptxas; the CPU for x86-64).
    pub fn arch(self) -> &'static str {
        self.cpu_features().0
    }

    pub fn is_gpu(self) -> bool {
        !matches!(self, Target::X86_64)
    }

    fn triple(self) -> &'static str {
        match self {
            Target::Sm80 | Target::Sm90a | Target::Sm90aWs => "nvptx64-nvidia-cuda",
            Target::X86_64 => "x86_64-unknown-linux-gnu",
        }
    }

    fn cpu_features(self) -> (&'static str, &'static str) {
        match self {
            Target::Sm80 => ("sm_80", "+ptx75"),
            Target::Sm90a => ("sm_90a", "+ptx80"),
            // fence.proxy.tensormap is PTX 8.3.
            Target::Sm90aWs => ("sm_90a", "+ptx83"),
            Target::X86_64 => ("x86-64-v3", "+avx2,+fma"),
        }
    }

    /// The extension of its assembly.
    pub fn asm_ext(self) -> &'static str {
        if self.is_gpu() { "ptx" } else { "s" }
    }
}

/// Compiles the merge kernel of a head dim for a GPU target.
pub fn compile_merge(head_dim: u32, target: Target) -> Result<Output, LlvmError> {
    let mut timings = Timings::default();
    let start = Instant::now();
    let k = nvptx::merge_module(head_dim, target);
    timings.lower_s = start.elapsed().as_secs_f64();
    let name = format!("attn_merge_d{head_dim}");
    finish(&name, None, target, k.ir, Some(k.launch), timings)
}

/// Compiles the strided add kernel (`nvptx::ADD2D`) for a GPU target.
pub fn compile_add2d(target: Target) -> Result<Output, LlvmError> {
    let mut timings = Timings::default();
    let start = Instant::now();
    let k = nvptx::add2d_module(target);
    timings.lower_s = start.elapsed().as_secs_f64();
    finish(nvptx::ADD2D, None, target, k.ir, Some(k.launch), timings)
}

/// Compiles a spec's host kernel at 512 bits (what `HostJit` runs on an AVX-512 CPU), ahead of
/// time: tests check the lowering on any machine.
pub fn compile_host_avx512(spec: &KernelSpec) -> Result<Output, LlvmError> {
    let mut timings = Timings::default();
    let start = Instant::now();
    let ir = host::module_for(spec, &host::AVX512);
    timings.lower_s = start.elapsed().as_secs_f64();
    finish(&spec.name(), Some(spec), Target::X86_64, ir, None, timings)
}

/// Wall time of each stage of one compile.
pub use crate::back::manifest::Timings;

/// One compiled kernel.
#[derive(Clone, Debug)]
pub struct Output {
    /// The entry point's symbol.
    pub entry: String,
    /// The IR as the lowering wrote it.
    pub llvm_ir: String,
    /// The IR after `default<O3>`.
    pub optimized_ir: String,
    /// PTX, or x86 assembly.
    pub asm: String,
    /// The relocatable object (host targets).
    pub object: Option<Vec<u8>>,
    /// How GPU kernels are launched.
    pub launch: Option<Launch>,
    pub timings: Timings,
}

static INIT: Once = Once::new();

fn init() {
    INIT.call_once(|| {
        LlvmTarget::initialize_nvptx(&InitializationConfig::default());
        LlvmTarget::initialize_x86(&InitializationConfig::default());
        ExecutionEngine::link_in_mc_jit();
    });
}

fn machine(target: Target) -> Result<TargetMachine, LlvmError> {
    init();
    let triple = TargetTriple::create(target.triple());
    let t = LlvmTarget::from_triple(&triple)
        .map_err(|e| LlvmError::Target { target: target.name().into(), message: e.to_string() })?;
    let (cpu, features) = target.cpu_features();
    t.create_target_machine(&triple, cpu, features, OptimizationLevel::Aggressive, RelocMode::PIC, CodeModel::Default)
        .ok_or_else(|| LlvmError::Target { target: target.name().into(), message: "no target machine".into() })
}

/// The lowered IR text of a spec's kernel for a target (what `--emit llvm-ir` prints).
pub fn lower(spec: &KernelSpec, target: Target) -> Result<(String, Option<Launch>), LlvmError> {
    for (field, dim) in [("head_dim", spec.head_dim), ("v_head_dim", spec.dv())] {
        if dim % 4 != 0 {
            return Err(LlvmError::Unsupported {
                kernel: spec.name(),
                message: format!("{field} {dim} is not a multiple of 4"),
            });
        }
    }
    if target.is_gpu() {
        let k = nvptx::module(spec, target)?;
        Ok((k.ir, Some(k.launch)))
    } else {
        Ok((host::module(spec), None))
    }
}

/// Parses, verifies and optimises lowered IR in `ctx`.
fn optimise<'c>(
    ctx: &'c Context,
    name: &str,
    target: Target,
    ir: &str,
    tm: &TargetMachine,
    t: &mut Timings,
) -> Result<Module<'c>, LlvmError> {
    let start = Instant::now();
    let ir_err = |e: String| LlvmError::Ir { kernel: name.to_string(), target: target.name().into(), message: e };
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), name);
    let module = ctx.create_module_from_ir(buf).map_err(|e| ir_err(e.to_string()))?;
    module.verify().map_err(|e| ir_err(e.to_string()))?;
    t.parse_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module.run_passes("default<O3>", tm, PassBuilderOptions::create()).map_err(|e| LlvmError::Codegen {
        kernel: name.to_string(),
        target: target.name().into(),
        stage: "optimising",
        message: e.to_string(),
    })?;
    t.optimize_s = start.elapsed().as_secs_f64();
    Ok(module)
}

/// Compiles a spec's kernel for a target, through every stage; dumps them when `ATTNC_DUMP` is set.
pub fn compile(spec: &KernelSpec, target: Target) -> Result<Output, LlvmError> {
    let mut timings = Timings::default();
    let start = Instant::now();
    let (llvm_ir, launch) = lower(spec, target)?;
    timings.lower_s = start.elapsed().as_secs_f64();
    finish(&spec.name(), Some(spec), target, llvm_ir, launch, timings)
}

fn finish(
    name: &str,
    spec: Option<&KernelSpec>,
    target: Target,
    llvm_ir: String,
    launch: Option<Launch>,
    mut timings: Timings,
) -> Result<Output, LlvmError> {
    let tm = machine(target)?;
    let ctx = Context::create();
    let module = optimise(&ctx, name, target, &llvm_ir, &tm, &mut timings)?;
    let optimized_ir = module.print_to_string().to_string();
    let start = Instant::now();
    let cg = |kind: FileType| {
        tm.write_to_memory_buffer(&module, kind).map_err(|e| LlvmError::Codegen {
            kernel: name.to_string(),
            target: target.name().into(),
            stage: "code generation",
            message: e.to_string(),
        })
    };
    let asm = String::from_utf8_lossy(cg(FileType::Assembly)?.as_slice()).into_owned();
    let object = if target.is_gpu() { None } else { Some(cg(FileType::Object)?.as_slice().to_vec()) };
    timings.codegen_s = start.elapsed().as_secs_f64();
    let out = Output { entry: name.to_string(), llvm_ir, optimized_ir, asm, object, launch, timings };
    if let Ok(dir) = std::env::var("ATTNC_DUMP") {
        dump(Path::new(&dir), name, spec, target, &out)?;
    }
    Ok(out)
}

fn dump(dir: &Path, name: &str, spec: Option<&KernelSpec>, target: Target, out: &Output) -> Result<(), LlvmError> {
    let stem = format!("{name}.{}", target.name());
    let files = [
        (format!("{stem}.0.kernel-ir.txt"), spec.map(kernel::print).unwrap_or_else(|| format!("kernel {name}\n"))),
        (format!("{stem}.1.lowered.ll"), out.llvm_ir.clone()),
        (format!("{stem}.2.optimized.ll"), out.optimized_ir.clone()),
        (format!("{stem}.3.{}", target.asm_ext()), out.asm.clone()),
    ];
    std::fs::create_dir_all(dir)
        .map_err(|e| LlvmError::Dump { path: dir.display().to_string(), message: e.to_string() })?;
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| LlvmError::Dump { path: path.display().to_string(), message: e.to_string() })?;
    }
    Ok(())
}

/// Whether this CPU has an x86 feature (by `is_x86_feature_detected!`'s names).
#[cfg(target_arch = "x86_64")]
fn cpu_has(feature: &str) -> bool {
    match feature {
        "avx512f" => std::is_x86_feature_detected!("avx512f"),
        "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
        "avx512dq" => std::is_x86_feature_detected!("avx512dq"),
        "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
        _ => false,
    }
}

/// A host kernel compiled by MCJIT (the entry point type all host backends share).
pub type HostKernel = super::Compiled;

/// An execution engine kept alive for its code; never touched again once its function is found.
struct Engine(#[allow(dead_code)] ExecutionEngine<'static>);

// SAFETY: after the function address is taken the engine is only kept (its code memory stays
// mapped); no thread calls into it.
unsafe impl Send for Engine {}

/// The process-wide cache of host kernels compiled by LLVM (MCJIT). Each kernel's LLVM context
/// lives as long as the process (the code it owns must), as do Cranelift's modules.
#[derive(Default)]
pub struct HostJit {
    cache: Mutex<HashMap<KernelSpec, HostKernel>>,
    engines: Mutex<Vec<Engine>>,
    /// 256-bit kernels even on an AVX-512 CPU (what AVX2-only hosts and AOT objects run).
    avx2_only: bool,
}

impl HostJit {
    pub fn new() -> HostJit {
        HostJit::default()
    }

    /// A JIT that writes the 256-bit (AVX2) kernels on every CPU: the tests check them on an
    /// AVX-512 machine too.
    pub fn avx2_only() -> HostJit {
        HostJit { avx2_only: true, ..HostJit::default() }
    }

    /// The host kernel of `spec`, compiled on first use. Needs AVX2 and FMA.
    pub fn get(&self, spec: &KernelSpec) -> Result<HostKernel, LlvmError> {
        if let Some(k) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(spec) {
            return Ok(*k);
        }
        #[cfg(target_arch = "x86_64")]
        let supported = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        let supported = false;
        if !supported {
            return Err(LlvmError::Unsupported {
                kernel: spec.name(),
                message: "the llvm-cpu kernels need an x86-64 host with AVX2 and FMA".into(),
            });
        }
        let start = Instant::now();
        // Kernels use 512-bit vectors where the CPU has AVX-512 (ATTNC_HOST_AVX512=0 keeps
        // them at 256 bits); ahead-of-time x86-64 objects are 256-bit always.
        #[cfg(target_arch = "x86_64")]
        let wide = !self.avx2_only
            && ["avx512f", "avx512vl", "avx512dq", "avx512bw"].iter().all(|f| cpu_has(f))
            && std::env::var("ATTNC_HOST_AVX512").map_or(true, |v| v != "0");
        #[cfg(not(target_arch = "x86_64"))]
        let wide = false;
        let ir = if wide { host::module_for(spec, &host::AVX512) } else { lower(spec, Target::X86_64)?.0 };
        let tm = machine(Target::X86_64)?;
        let ctx: &'static Context = Box::leak(Box::new(Context::create()));
        let module = optimise(ctx, &spec.name(), Target::X86_64, &ir, &tm, &mut Timings::default())?;
        let err = |stage, message: String| LlvmError::Codegen {
            kernel: spec.name(),
            target: Target::X86_64.name().into(),
            stage,
            message,
        };
        let engine =
            module.create_jit_execution_engine(OptimizationLevel::Aggressive).map_err(|e| err("jit", e.to_string()))?;
        let code = engine.get_function_address(&spec.name()).map_err(|e| err("jit", e.to_string()))?;
        let k = HostKernel::new(code, start.elapsed(), spec.kind);
        self.engines.lock().unwrap_or_else(|e| e.into_inner()).push(Engine(engine));
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(*spec, k);
        Ok(k)
    }
}
