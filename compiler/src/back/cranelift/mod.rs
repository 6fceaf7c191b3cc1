//! The Cranelift backend: lowers the kernel IR of a [`KernelSpec`] to machine code in memory.
//!
//! f32x4 vectors with FMA (flags from `cranelift_native`). The forward kernel follows its steps:
//! per KV tile of 16 the keys are transposed into scratch; per query tile of 2 rows, scores use a
//! 2×16 register tile (8 accumulators, enough independent FMAs to hide their latency), masking
//! runs only on tiles that straddle the mask edge or end the run, the online softmax uses a
//! vectorised exp, and P·V uses a 2×16 register tile per 16 columns of the head. Full KV tiles
//! are unrolled; the last partial tile uses loops. The backward kernel vectorises each key pair
//! over the head dimension. No kernel allocates; compiled kernels are cached by spec, with their
//! compile time, for the life of the process.
//!
//! Vectorised exp: range reduction to r ∈ [−ln2/2, ln2/2] and a degree-6 polynomial; relative
//! error below 2e-7 for inputs above −87 (smaller inputs and −inf give exactly 0).

mod lower;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};

pub use super::Compiled;
use crate::kernel::KernelSpec;

#[derive(Debug, thiserror::Error)]
pub enum JitError {
    #[error("the host is not supported by Cranelift: {0}")]
    Host(String),
    #[error("kernel {kernel}: {message}")]
    Compile { kernel: String, message: String },
    #[error("kernel {kernel}: {field} {head_dim} is not a multiple of 4")]
    HeadDim { kernel: String, field: &'static str, head_dim: u32 },
}

/// A finished module: it owns the kernel's code memory for the life of the process.
struct Owned(#[allow(dead_code)] JITModule);

// SAFETY: after `finalize_definitions` the module is never used again except to keep its
// memory mapped; no thread touches its internals.
unsafe impl Send for Owned {}

/// The process-wide cache of compiled kernels.
#[derive(Default)]
pub struct Jit {
    cache: Mutex<HashMap<KernelSpec, Compiled>>,
    modules: Mutex<Vec<Owned>>,
}

impl Jit {
    pub fn new() -> Jit {
        Jit::default()
    }

    /// The kernel of `spec`, compiled on first use.
    pub fn get(&self, spec: &KernelSpec) -> Result<Compiled, JitError> {
        if let Some(c) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(spec) {
            return Ok(*c);
        }
        let start = Instant::now();
        let (module, code) = compile(spec)?;
        let compiled = Compiled::new(code, start.elapsed(), spec.kind);
        self.modules.lock().unwrap_or_else(|e| e.into_inner()).push(Owned(module));
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(*spec, compiled);
        Ok(compiled)
    }

    /// The machine code of a spec's kernel as Cranelift's disassembly (VCode), for inspection.
    pub fn disassembly(spec: &KernelSpec) -> Result<String, JitError> {
        let isa = isa()?;
        let mut ctx = cranelift_codegen::Context::new();
        lower::build(spec, &mut ctx.func, isa.pointer_type())
            .map_err(|m| JitError::Compile { kernel: spec.name(), message: m })?;
        ctx.set_disasm(true);
        let mut ctrl = cranelift_codegen::control::ControlPlane::default();
        let code = ctx
            .compile(isa.as_ref(), &mut ctrl)
            .map_err(|e| JitError::Compile { kernel: spec.name(), message: format!("{:?}", e.inner) })?;
        Ok(code.vcode.clone().unwrap_or_default())
    }

    /// The textual CLIF of a spec's kernel, for dumps and snapshots.
    pub fn clif(spec: &KernelSpec) -> Result<String, JitError> {
        let isa = isa()?;
        let mut func = cranelift_codegen::ir::Function::new();
        lower::build(spec, &mut func, isa.pointer_type())
            .map_err(|m| JitError::Compile { kernel: spec.name(), message: m })?;
        Ok(func.display().to_string())
    }
}

fn isa() -> Result<cranelift_codegen::isa::OwnedTargetIsa, JitError> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| f.set(k, v).map_err(|e| JitError::Host(e.to_string()));
    set(&mut flags, "opt_level", "none")?;
    set(&mut flags, "enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" })?;
    let builder = cranelift_native::builder().map_err(|e| JitError::Host(e.to_string()))?;
    builder.finish(settings::Flags::new(flags)).map_err(|e| JitError::Host(e.to_string()))
}

fn compile(spec: &KernelSpec) -> Result<(JITModule, usize), JitError> {
    let name = spec.name();
    for (field, dim) in [("head_dim", spec.head_dim), ("v_head_dim", spec.dv())] {
        if dim % 4 != 0 {
            return Err(JitError::HeadDim { kernel: name, field, head_dim: dim });
        }
    }
    let err = |m: String| JitError::Compile { kernel: name.clone(), message: m };
    let isa = isa()?;
    let pointer = isa.pointer_type();
    let mut module = JITModule::new(JITBuilder::with_isa(isa, cranelift_module::default_libcall_names()));
    let mut ctx = module.make_context();
    lower::build(spec, &mut ctx.func, pointer).map_err(err)?;
    let id = module.declare_function(&name, Linkage::Local, &ctx.func.signature).map_err(|e| err(e.to_string()))?;
    module.define_function(id, &mut ctx).map_err(|e| err(format!("{e:?}")))?;
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(|e| err(e.to_string()))?;
    let code = module.get_finalized_function(id) as usize;
    Ok((module, code))
}
