//! PTX kernels compiled ahead of time, read from a kernel directory, launched as the GPU kernel ABI.
//!
//! A kernel directory is what `attnc compile --target sm_80|sm_90a -o DIR` (or `attnc matrix
//! --compile-kernels DIR`) writes: one `.ptx` per kernel and `manifest.json` naming each kernel's
//! entry point, block size and dynamic shared memory. The runtime never compiles: a machine with a
//! GPU needs neither LLVM nor ptxas. Kernels are found by their spec's name and loaded on first use
//! (above 48 KiB of dynamic shared memory the function's limit is raised first). [`CudaLauncher`]
//! launches them on the compute stream: over device memory for the CUDA device's calls
//! (`cuda::device`), and over a launch of the kernel contract (`kernels::FwdLaunch`) uploaded
//! once for the kernel benchmark (`cuda::bench`).

use std::collections::HashMap;
use std::sync::Mutex;

use attnc_compiler::kernel::{KernelKind, KernelSpec};
use attnc_compiler::spec::Dtype;
use cudarc::driver::sys::CUfunction_attribute_enum;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;

use super::{CudaError, Gpu, driver};
use crate::kernels::{BwdLaunch, FwdLaunch, to_bits};

use crate::kernel_dir::KernelDir;
pub use crate::kernel_dir::ROWS_PER_CTA;

/// A loaded kernel and how to launch it.
#[derive(Clone)]
pub struct Loaded {
    pub function: CudaFunction,
    pub block: [u32; 3],
    pub shared: u32,
}

/// Device-resident arrays of one forward launch (inputs and outputs), for repeated launches.
pub struct FwdBuffers {
    q: CudaSlice<u16>,
    k: CudaSlice<u16>,
    v: CudaSlice<u16>,
    pub o: CudaSlice<f32>,
    pub lse: CudaSlice<f32>,
    cu_q: CudaSlice<i32>,
    cu_kv: CudaSlice<i32>,
    pos_q: CudaSlice<i64>,
    pos_kv: CudaSlice<i64>,
    /// The score's per-head values, when it reads the head (the kernel's last parameter).
    head_values: Option<CudaSlice<f32>>,
}

/// Device-resident arrays of one backward launch.
pub struct BwdBuffers {
    fwd: FwdBuffers,
    d_out: CudaSlice<u16>,
    lse: CudaSlice<f32>,
    delta: CudaSlice<f32>,
    pub dq: CudaSlice<f32>,
    pub dk: CudaSlice<f32>,
    pub dv: CudaSlice<f32>,
}

/// Launches the GPU kernel ABI with kernels from a directory, on one device's compute stream.
pub struct CudaLauncher {
    pub gpu: Gpu,
    pub dir: KernelDir,
    loaded: Mutex<HashMap<String, Loaded>>,
}

impl CudaLauncher {
    pub fn new(gpu: Gpu, dir: KernelDir) -> Result<CudaLauncher, CudaError> {
        let cc = gpu.info.compute_capability;
        let ok = match dir.target.as_str() {
            "sm_90a" => cc == (9, 0),
            _ => cc.0 >= 8,
        };
        if !ok {
            return Err(CudaError::KernelDir(crate::kernel_dir::KernelDirError {
                dir: dir.dir.display().to_string(),
                message: format!(
                    "kernels for {} cannot run on {} (compute capability {}.{}; compile for {})",
                    dir.target,
                    gpu.info.name,
                    cc.0,
                    cc.1,
                    gpu.info.target()
                ),
            }));
        }
        Ok(CudaLauncher { gpu, dir, loaded: Mutex::new(HashMap::new()) })
    }

    /// The kernel of a spec, loaded into the context on first use.
    pub fn function(&self, spec: &KernelSpec) -> Result<Loaded, CudaError> {
        let rows = match spec.kind {
            KernelKind::Forward => "ceil(max_seqlen_q / 64)",
            KernelKind::Backward => "ceil(max_seqlen_kv / 64)",
        };
        self.named(&spec.name(), [rows, "heads_q", "sequences"])
    }

    /// The merge kernel of a head dim.
    pub fn merge_function(&self, head_dim: usize) -> Result<Loaded, CudaError> {
        self.named(&format!("attn_merge_d{head_dim}"), ["ceil(tokens * heads_q / 128)", "1", "1"])
    }

    /// The strided add kernel (reduce-scatter and head sums on one GPU).
    pub fn add2d_function(&self) -> Result<Loaded, CudaError> {
        self.named("attn_add2d", ["ceil(width * height / 128)", "1", "1"])
    }

    fn named(&self, name: &str, grid: [&str; 3]) -> Result<Loaded, CudaError> {
        if let Some(k) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
            return Ok(k.clone());
        }
        let (k, ptx) = self.dir.get(name, grid)?;
        let launch = k.launch.clone().expect("checked by KernelDir::get");
        let module = driver(&format!("cuModuleLoadData ({})", k.file), self.gpu.ctx.load_module(Ptx::from_src(ptx)))?;
        let function = driver(&format!("cuModuleGetFunction ({})", k.entry), module.load_function(&k.entry))?;
        if launch.dynamic_shared_bytes > 48 * 1024 {
            driver(
                &format!("cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES ({})", k.entry),
                function.set_attribute(
                    CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    launch.dynamic_shared_bytes as i32,
                ),
            )?;
        }
        let loaded = Loaded { function, block: launch.block, shared: launch.dynamic_shared_bytes };
        self.loaded.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), loaded.clone());
        Ok(loaded)
    }

    /// Copies a forward launch's arrays to the device (inputs as `dtype`'s 16 bits), with zeroed
    /// outputs.
    pub fn upload_fwd(&self, dtype: Dtype, l: &FwdLaunch) -> Result<FwdBuffers, CudaError> {
        let s = &self.gpu.compute;
        let bits = |x: &[f32]| -> Vec<u16> { x.iter().map(|&v| to_bits(dtype, v)).collect() };
        Ok(FwdBuffers {
            q: driver("upload q", s.clone_htod(&bits(&l.q)))?,
            k: driver("upload k", s.clone_htod(&bits(&l.k)))?,
            v: driver("upload v", s.clone_htod(&bits(&l.v)))?,
            o: driver("alloc o", s.alloc_zeros::<f32>(l.tokens_q() * l.heads_q * l.v_head_dim))?,
            lse: driver("alloc lse", s.alloc_zeros::<f32>(l.tokens_q() * l.heads_q))?,
            cu_q: driver("upload cu_q", s.clone_htod(&l.cu_q))?,
            cu_kv: driver("upload cu_kv", s.clone_htod(&l.cu_kv))?,
            pos_q: driver("upload pos_q", s.clone_htod(&l.pos_q))?,
            pos_kv: driver("upload pos_kv", s.clone_htod(&l.pos_kv))?,
            head_values: match l.head_values.is_empty() {
                true => None,
                false => Some(driver("upload head_values", s.clone_htod(&l.head_values))?),
            },
        })
    }

    pub fn upload_bwd(&self, dtype: Dtype, b: &BwdLaunch) -> Result<BwdBuffers, CudaError> {
        let s = &self.gpu.compute;
        let l = &b.fwd;
        let d_out: Vec<u16> = b.d_out.iter().map(|&v| to_bits(dtype, v)).collect();
        Ok(BwdBuffers {
            fwd: self.upload_fwd(dtype, l)?,
            d_out: driver("upload do", s.clone_htod(&d_out))?,
            lse: driver("upload lse", s.clone_htod(&b.lse[..]))?,
            delta: driver("upload delta", s.clone_htod(&b.delta[..]))?,
            dq: driver("alloc dq", s.alloc_zeros::<f32>(l.tokens_q() * l.heads_q * l.head_dim))?,
            dk: driver("alloc dk", s.alloc_zeros::<f32>(l.tokens_kv() * l.heads_kv * l.head_dim))?,
            dv: driver("alloc dv", s.alloc_zeros::<f32>(l.tokens_kv() * l.heads_kv * l.v_head_dim))?,
        })
    }

    fn config(k: &Loaded, rows: usize, l: &FwdLaunch) -> LaunchConfig {
        LaunchConfig {
            grid_dim: (rows.div_ceil(ROWS_PER_CTA) as u32, l.heads_q as u32, l.sequences() as u32),
            block_dim: (k.block[0], k.block[1], k.block[2]),
            shared_mem_bytes: k.shared,
        }
    }

    /// Enqueues the forward kernel on the compute stream.
    pub fn launch_fwd(&self, spec: &KernelSpec, l: &FwdLaunch, b: &mut FwdBuffers) -> Result<(), CudaError> {
        let k = self.function(spec)?;
        let (q_row, kv_row) = ((l.heads_q * l.head_dim) as i64, (l.heads_kv * l.head_dim) as i64);
        // O rows hold the query heads at the value head dim.
        let o_row = (l.heads_q * l.v_head_dim) as i64;
        let cfg = Self::config(&k, l.max_seqlen_q(), l);
        let mut a = self.gpu.compute.launch_builder(&k.function);
        a.arg(&b.q).arg(&b.k).arg(&b.v).arg(&mut b.o).arg(&mut b.lse);
        a.arg(&b.cu_q).arg(&b.cu_kv).arg(&b.pos_q).arg(&b.pos_kv);
        a.arg(&q_row).arg(&kv_row).arg(&o_row).arg(&l.scale);
        if let Some(hv) = &b.head_values {
            a.arg(hv);
        }
        // SAFETY: the arguments follow the forward ABI of `docs/llvm-backend.md` in order and type;
        // every array holds the rows `cu_q`/`cu_kv` name, with the strides passed.
        driver(&format!("launch {}", spec.name()), unsafe { a.launch(cfg) }).map(|_| ())
    }

    /// Enqueues the backward kernel on the compute stream (dQ, dK, dV accumulate).
    pub fn launch_bwd(&self, spec: &KernelSpec, l: &BwdLaunch, b: &mut BwdBuffers) -> Result<(), CudaError> {
        let k = self.function(spec)?;
        let f = &l.fwd;
        let (q_row, kv_row) = ((f.heads_q * f.head_dim) as i64, (f.heads_kv * f.head_dim) as i64);
        let dkv_row = kv_row;
        let cfg = Self::config(&k, f.max_seqlen_kv(), f);
        let mut a = self.gpu.compute.launch_builder(&k.function);
        a.arg(&b.fwd.q).arg(&b.fwd.k).arg(&b.fwd.v).arg(&b.d_out).arg(&b.lse).arg(&b.delta);
        a.arg(&mut b.dq).arg(&mut b.dk).arg(&mut b.dv);
        a.arg(&b.fwd.cu_q).arg(&b.fwd.cu_kv).arg(&b.fwd.pos_q).arg(&b.fwd.pos_kv);
        a.arg(&q_row).arg(&kv_row).arg(&dkv_row).arg(&f.scale);
        if let Some(hv) = &b.fwd.head_values {
            a.arg(hv);
        }
        // SAFETY: as in `launch_fwd`, for the backward ABI.
        driver(&format!("launch {}", spec.name()), unsafe { a.launch(cfg) }).map(|_| ())
    }
}
