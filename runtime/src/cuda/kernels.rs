//! PTX kernels compiled ahead of time, read from a kernel directory, launched as the GPU kernel ABI.
//!
//! A kernel directory is what `attnc compile --target sm_80|sm_90a -o DIR` (or `attnc matrix
//! --compile-kernels DIR`) writes: one `.ptx` per kernel and `manifest.json` naming each kernel's
//! entry point, block size and dynamic shared memory. The runtime never compiles: a machine with a
//! GPU needs neither LLVM nor ptxas. Kernels are found by their spec's name and loaded on first use
//! (above 48 KiB of dynamic shared memory the function's limit is raised first). [`CudaLauncher`]
//! launches them on the compute stream: over device memory for the CUDA device's calls
//! (`cuda::device`), whose calls the kernel benchmark times too (`cuda::bench`).

use std::collections::HashMap;
use std::sync::Mutex;

use attnc_compiler::kernel::KernelSpec;
use attnc_compiler::spec::Dtype;
use cudarc::driver::CudaFunction;
use cudarc::driver::sys::CUfunction_attribute_enum;
use cudarc::nvrtc::Ptx;

use super::{CudaError, Gpu, driver};

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
}
