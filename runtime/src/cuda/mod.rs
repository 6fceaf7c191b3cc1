//! The CUDA side of the runtime (feature `cuda`): the driver, PTX kernels and NCCL through cudarc.
//!
//! cudarc loads `libcuda.so` and `libnccl.so` when first used (its `dynamic-loading` feature), so
//! this builds and its no-device paths run on machines without CUDA. cudarc panics when a library
//! is missing; every entry point here asks first ([`probe`], [`nccl::version`]) and turns a missing
//! library into a [`CudaError`] that says what was looked for. Layers:
//! - `mod.rs`: errors, the driver probe, [`Gpu`] (one device's context, compute stream and CP
//!   stream, with cudarc's implicit event tracking off: only the plan orders streams);
//! - `kernels.rs`: a directory of PTX compiled ahead of time (`attnc compile`, `attnc matrix
//!   --compile-kernels`) and their launcher (`kernels::CudaLauncher`);
//! - `nccl.rs`: NCCL's version, communicators from a rendezvous, grouped send/recv, all-gather,
//!   reduce-scatter and all-to-all (from grouped send/recv), and a self-test;
//! - `device.rs`: every rank of a plan on one GPU (a compute and a CP stream per rank, events,
//!   device-to-device transfers): the `device::Device` the device executor drives;
//! - `bench.rs`: kernel throughput on the device, timed by CUDA events.
//!
//! Not here yet: the device executor across processes with NCCL transfers (the communicator and
//! its operations are here and self-tested; `docs/cuda-runtime.md` says what exists).

pub mod bench;
pub mod device;
pub mod kernels;
pub mod nccl;

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, DriverError};

/// Why a CUDA operation failed.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    #[error(
        "no CUDA driver found: libcuda.so could not be loaded (is this a machine with an NVIDIA GPU and its driver?)"
    )]
    NoDriver,
    #[error("no CUDA device {ordinal}: the driver reports {count} device(s)")]
    NoDevice { ordinal: usize, count: i32 },
    #[error(
        "NCCL not found: libnccl.so could not be loaded (scripts/setup installs it under .tools/; put its lib directory on LD_LIBRARY_PATH)"
    )]
    NoNccl,
    #[error("CUDA driver: {operation}: {error:?}")]
    Driver { operation: String, error: DriverError },
    #[error("NCCL: {operation}: {message}")]
    Nccl { operation: String, message: String },
    #[error(transparent)]
    KernelDir(#[from] crate::kernel_dir::KernelDirError),
    #[error("{0}")]
    Check(String),
}

/// Attaches the operation's name to a driver error.
pub(crate) fn driver<T>(operation: &str, r: Result<T, DriverError>) -> Result<T, CudaError> {
    r.map_err(|error| CudaError::Driver { operation: operation.to_string(), error })
}

/// What the driver says about one device.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub ordinal: usize,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub total_mem: usize,
}

impl DeviceInfo {
    /// The PTX target of attnc's kernels for this device: sm_90a on Hopper, sm_80 otherwise.
    pub fn target(&self) -> &'static str {
        if self.compute_capability.0 == 9 { "sm_90a" } else { "sm_80" }
    }
}

/// Whether the driver library loads.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library by name.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// The devices the driver sees; `NoDriver` when there is no driver library.
pub fn probe() -> Result<Vec<DeviceInfo>, CudaError> {
    if !driver_present() {
        return Err(CudaError::NoDriver);
    }
    let count = driver("cuDeviceGetCount", CudaContext::device_count())?;
    (0..count.max(0) as usize).map(|ordinal| Gpu::new(ordinal).map(|g| g.info)).collect()
}

/// One device: its context, the compute stream and the dedicated CP stream.
pub struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub compute: Arc<CudaStream>,
    pub cp: Arc<CudaStream>,
    pub info: DeviceInfo,
}

impl Gpu {
    pub fn new(ordinal: usize) -> Result<Gpu, CudaError> {
        if !driver_present() {
            return Err(CudaError::NoDriver);
        }
        let count = driver("cuDeviceGetCount", CudaContext::device_count())?;
        if ordinal as i32 >= count {
            return Err(CudaError::NoDevice { ordinal, count });
        }
        let ctx = driver("cuDevicePrimaryCtxRetain", CudaContext::new(ordinal))?;
        // SAFETY: attnc orders its streams itself, with the events the plan names; no slice is
        // shared between streams without them.
        unsafe { ctx.disable_event_tracking() };
        let info = DeviceInfo {
            ordinal,
            name: driver("cuDeviceGetName", ctx.name())?,
            compute_capability: driver("cuDeviceGetAttribute", ctx.compute_capability())?,
            total_mem: driver("cuDeviceTotalMem", ctx.total_mem())?,
        };
        let compute = driver("cuStreamCreate (compute)", ctx.new_stream())?;
        let cp = driver("cuStreamCreate (cp)", ctx.new_stream())?;
        Ok(Gpu { ctx, compute, cp, info })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a machine without a driver (CI), the probe says so instead of panicking inside cudarc.
    #[test]
    fn probe_without_a_driver_is_an_error_not_a_panic() {
        match probe() {
            Err(CudaError::NoDriver) => assert!(!driver_present()),
            Err(other) => assert!(driver_present(), "{other}"),
            Ok(devices) => assert!(driver_present() && devices.iter().all(|d| !d.name.is_empty())),
        }
        if !driver_present() {
            let e = Gpu::new(0).err().expect("no driver, no device");
            assert!(e.to_string().starts_with("no CUDA driver found: "), "{e}");
        }
    }

    #[test]
    fn hopper_gets_sm_90a() {
        let info = |cc| DeviceInfo { ordinal: 0, name: "x".into(), compute_capability: cc, total_mem: 0 };
        assert_eq!(info((9, 0)).target(), "sm_90a");
        assert_eq!(info((8, 0)).target(), "sm_80");
        assert_eq!(info((8, 9)).target(), "sm_80");
    }
}
