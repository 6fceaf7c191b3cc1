//! tmp
use super::{LlvmError, Target};
use crate::kernel::KernelSpec;
use serde::Serialize;
#[derive(Clone, Debug, Serialize)]
pub struct Launch {
    pub block: [u32; 3],
}
pub struct GpuKernel {
    pub ir: String,
    pub launch: Launch,
}
pub fn gpu_kernels() {}
pub fn module(spec: &KernelSpec, _t: Target) -> Result<GpuKernel, LlvmError> {
    Err(LlvmError::Unsupported { kernel: spec.name(), message: "x".into() })
}
