//! Kernel throughput on the GPU (`attnc bench kernels --kernels cuda`): the device's forward and
//! backward launches of one long sequence (`device::bench`), timed by CUDA events around
//! repeated launches after one warm-up.

use attnc_compiler::spec::Dtype;

use super::device::CudaDevice;
use crate::device::bench::{Shape, launches};
use crate::device::{Device, DeviceError, Measured};

/// One measured kernel.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GpuBench {
    #[serde(flatten)]
    pub what: Measured,
    pub ms: f64,
    pub tflops: f64,
}

/// Forward and backward on one sequence of `shape`, each the mean of `repeats` launches.
pub fn measure(device: &CudaDevice, shape: Shape, dtype: Dtype, repeats: usize) -> Result<[GpuBench; 2], DeviceError> {
    let ms = launches(device, shape, dtype, |kernel, run| {
        run()?;
        let start = device.stamp(0, 0)?;
        for _ in 0..repeats {
            run()?;
        }
        let end = device.stamp(0, 0)?;
        Ok((kernel, device.seconds(&start, &end)? * 1e3 / repeats as f64))
    })?;
    // The backward's FLOPs are 2.5× the forward's.
    let flops = shape.forward_flops();
    Ok([(ms[0], flops), (ms[1], 2.5 * flops)].map(|((kernel, ms), f)| GpuBench {
        what: shape.measured(kernel, "cuda"),
        ms,
        tflops: f / (ms * 1e-3) / 1e12,
    }))
}
