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

use attnc_compiler::kernel::KernelSpec;
use attnc_compiler::spec::Dtype;
use cudarc::driver::sys::CUfunction_attribute_enum;
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;

use super::{CudaError, Gpu, driver};
use crate::kernels::{BwdLaunch, FwdLaunch, to_bits};

use crate::kernel_dir::{KernelDir, KernelDirError, ManifestKernel, MapFields, TensorMapUse};

/// A loaded kernel and how to launch it: for an attention kernel, the rows of a run one CTA
/// takes and the tensor maps it reads.
#[derive(Clone)]
pub struct Loaded {
    pub function: CudaFunction,
    pub block: [u32; 3],
    pub shared: u32,
    pub rows: usize,
    pub maps: Vec<TensorMapUse>,
}

/// A tensor map as the driver encodes it (`cuTensorMapEncodeTiled`): `dtype`'s 16-bit elements
/// (fp32 for a map of 4-byte elements, the output), no interleave, the fields' swizzle, L2
/// promotion of 128 bytes, zeros outside the tensor.
pub fn encode_map(f: &MapFields, dtype: Dtype) -> Result<[u8; 128], CudaError> {
    use cudarc::driver::sys::{
        CUtensorMap, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave, CUtensorMapL2promotion,
        CUtensorMapSwizzle, cuTensorMapEncodeTiled,
    };
    let data = match (f.elem_bytes, dtype) {
        (4, _) => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        (_, Dtype::Fp16) => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        _ => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
    };
    let swizzle = match f.swizzle_bytes {
        0 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
        32 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        64 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        _ => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
    };
    let mut map = CUtensorMap { opaque: [0; 16] };
    let element_strides = [1u32; 3];
    // SAFETY: every array holds the rank's (3) entries (strides: rank − 1) and `map` is a
    // writable CUtensorMap; the driver only reads the global address, never dereferences it.
    let r = unsafe {
        cuTensorMapEncodeTiled(
            &mut map,
            data,
            3,
            f.base as *mut std::ffi::c_void,
            f.dims.as_ptr(),
            f.strides.as_ptr(),
            f.box_dims.as_ptr(),
            element_strides.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    driver("cuTensorMapEncodeTiled", r.result())?;
    let mut out = [0u8; 128];
    for (i, w) in map.opaque.iter().enumerate() {
        out[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
    }
    Ok(out)
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
    /// The tensor maps over q, k, v of a kernel that reads them (built on its first launch).
    tmaps: Option<CudaSlice<u8>>,
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
            "sm_90a" | "sm_90a-ws" => cc == (9, 0),
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
        self.load(&spec.name(), || self.dir.attention(spec))
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
        self.load(name, || self.dir.get(name, grid).map(|(k, ptx)| (k, ptx, 0)))
    }

    /// A kernel from the directory (`find`), loaded on first use.
    fn load<'d>(
        &'d self,
        name: &str,
        find: impl FnOnce() -> Result<(&'d ManifestKernel, String, usize), KernelDirError>,
    ) -> Result<Loaded, CudaError> {
        if let Some(k) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
            return Ok(k.clone());
        }
        let (k, ptx, rows) = find()?;
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
        let loaded = Loaded {
            function,
            block: launch.block,
            shared: launch.dynamic_shared_bytes,
            rows,
            maps: launch.tensor_maps.clone(),
        };
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
            tmaps: None,
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
            grid_dim: (rows.div_ceil(k.rows) as u32, l.heads_q as u32, l.sequences() as u32),
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
        // A kernel that reads tensor maps: over these buffers, built on its first launch.
        if !k.maps.is_empty() && b.tmaps.is_none() {
            let planes =
                [("q", &b.q, l.heads_q, l.head_dim, l.tokens_q()), ("k", &b.k, l.heads_kv, l.head_dim, l.tokens_kv())];
            let planes = [planes[0], planes[1], ("v", &b.v, l.heads_kv, l.v_head_dim, l.tokens_kv())];
            let mut bytes = Vec::new();
            for m in &k.maps {
                let Some(&(_, plane, heads, width, rows)) = planes.iter().find(|p| p.0 == m.tensor) else {
                    return Err(CudaError::Check(format!("{}: a tensor map of plane `{}`", spec.name(), m.tensor)));
                };
                let (base, _sync) = cudarc::driver::DevicePtr::device_ptr(plane, &self.gpu.compute);
                let f = m.fields(base, heads, heads * width, rows).map_err(CudaError::Check)?;
                bytes.extend(encode_map(&f, spec.dtype)?);
            }
            b.tmaps = Some(driver("upload tensor maps", self.gpu.compute.clone_htod(&bytes))?);
        }
        if let Some(t) = &b.tmaps {
            a.arg(t);
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
