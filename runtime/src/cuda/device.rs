//! Every rank of a plan on one GPU: the [`Device`] the device executor drives, through cudarc.
//!
//! Each rank has its own compute stream and CP stream; events order them exactly where the plan
//! says (cudarc's implicit tracking is off, `Gpu::new`). Transfers between ranks are
//! device-to-device copies enqueued on the receiver's CP stream after the sender's ready event —
//! the one-GPU stand-in for NCCL's grouped send/recv, so every multi-rank plan can be checked on a
//! single GPU. Kernels come from a directory of PTX compiled ahead of time; the launch
//! configurations are the manifest's. Memory is allocated once per storage and never freed while
//! a plan runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::result::{memcpy_dtod_async, memcpy_dtoh_async, memcpy_htod_async, memset_d8_async, stream};
use cudarc::driver::{CudaEvent, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};

use super::driver;
use super::kernels::{CudaLauncher, Loaded, encode_map};
use crate::device::{BwdCall, Device, DeviceError, FwdCall, Param, Rows2d};

/// One allocation and its device address.
pub struct CudaMem {
    slice: CudaSlice<u8>,
    ptr: u64,
}

pub struct CudaDevice {
    pub launcher: CudaLauncher,
    /// Per rank: the compute and the CP stream.
    streams: Mutex<Vec<[Arc<CudaStream>; 2]>>,
    /// Buffers of −inf values for fills, grown on demand; the last is the largest (older ones
    /// stay alive: copies in flight may still read them).
    neg_inf: Mutex<Vec<CudaMem>>,
    /// Per rank, stream and kind (0: per-head score values, 1: tensor maps), the device buffer a
    /// launch's argument array is copied into, on the launch's own stream just before it: the
    /// stream's order keeps every earlier launch's reads before the next copy, so the memory stays
    /// the same however many batches and parameter values a run sees.
    args: Mutex<HashMap<(u32, usize, usize), CudaMem>>,
    /// Argument buffers outgrown (launches in flight may still read them).
    retired: Mutex<Vec<CudaMem>>,
    /// Held from an attention launch's staging of its argument arrays to its launch, so no other
    /// launch's arrays overwrite them in between (ranks call from their own threads).
    launching: Mutex<()>,
}

/// An event recorded on a stream.
pub struct CudaSignal(CudaEvent);

// SAFETY: a CUDA event handle may be recorded and waited on from any thread of the context.
unsafe impl Send for CudaSignal {}
unsafe impl Sync for CudaSignal {}

/// A CUDA error as the device reports it: a kernel directory's as a kernel error, the rest as
/// the driver's.
fn err(e: super::CudaError) -> DeviceError {
    match e {
        super::CudaError::KernelDir(_) => DeviceError::Kernel(e.to_string()),
        e => DeviceError::Driver(e.to_string()),
    }
}

impl CudaDevice {
    pub fn new(launcher: CudaLauncher) -> CudaDevice {
        CudaDevice {
            launcher,
            streams: Mutex::new(Vec::new()),
            neg_inf: Mutex::new(Vec::new()),
            args: Mutex::new(HashMap::new()),
            retired: Mutex::new(Vec::new()),
            launching: Mutex::new(()),
        }
    }

    /// The device address of the tensor maps a kernel reads over a call's planes (`None` when it
    /// reads none), encoded by the driver, staged for a launch on stream `which`.
    fn tensor_maps(
        &self,
        rank: u32,
        which: usize,
        k: &Loaded,
        c: &FwdCall<'_, CudaMem>,
    ) -> Result<Option<u64>, DeviceError> {
        if k.maps.is_empty() {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        for f in crate::device::map_fields(&k.maps, c, address)? {
            bytes.extend(encode_map(&f, c.table.spec.dtype).map_err(err)?);
        }
        self.stage(rank, which, 1, &bytes).map(Some)
    }

    /// The device address of a call's per-head score values (`None` when the score reads no head),
    /// staged for a launch on stream `which`.
    fn head_values(&self, rank: u32, which: usize, values: &[f32]) -> Result<Option<u64>, DeviceError> {
        if values.is_empty() {
            return Ok(None);
        }
        let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.stage(rank, which, 0, &bytes).map(Some)
    }

    /// Copies `bytes` into the argument buffer of (`rank`, stream `which`, `kind`), grown when
    /// too small, on that stream; returns its device address.
    fn stage(&self, rank: u32, which: usize, kind: usize, bytes: &[u8]) -> Result<u64, DeviceError> {
        let mut slots = self.args.lock().unwrap_or_else(|e| e.into_inner());
        let key = (rank, which, kind);
        if slots.get(&key).is_none_or(|m| m.slice.len() < bytes.len()) {
            let m = self.alloc(rank, bytes.len().next_power_of_two().max(512))?;
            if let Some(old) = slots.insert(key, m) {
                self.retired.lock().unwrap_or_else(|e| e.into_inner()).push(old);
            }
        }
        let ptr = slots[&key].ptr;
        let s = self.stream(rank, which)?;
        // SAFETY: the buffer is live (kept in `args` or `retired` for the device's life) and holds
        // `bytes`; a copy from pageable memory is staged before the call returns, and the stream
        // orders it after every launch enqueued on it before.
        unsafe { driver("cuMemcpyHtoDAsync", memcpy_htod_async(ptr, bytes, s.cu_stream())).map_err(err)? };
        Ok(ptr)
    }

    /// The rank's stream (`0` compute, `1` CP), created on first use.
    pub fn stream(&self, rank: u32, which: usize) -> Result<Arc<CudaStream>, DeviceError> {
        let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        while streams.len() <= rank as usize {
            let ctx = &self.launcher.gpu.ctx;
            let compute = driver("cuStreamCreate (compute)", ctx.new_stream()).map_err(err)?;
            let cp = driver("cuStreamCreate (cp)", ctx.new_stream()).map_err(err)?;
            streams.push([compute, cp]);
        }
        Ok(streams[rank as usize][which].clone())
    }

    fn launch(
        &self,
        rank: u32,
        which: usize,
        k: &Loaded,
        grid: (u32, u32, u32),
        args: &[&dyn Arg],
    ) -> Result<(), DeviceError> {
        let s = self.stream(rank, which)?;
        let mut b = s.launch_builder(&k.function);
        for a in args {
            a.push(&mut b);
        }
        let cfg = LaunchConfig {
            grid_dim: grid,
            block_dim: (k.block[0], k.block[1], k.block[2]),
            shared_mem_bytes: k.shared,
        };
        // SAFETY: every caller passes the kernel's parameters in the order and types of the GPU
        // kernel ABI (`docs/llvm-backend.md`), device addresses of live allocations for pointers.
        driver("cuLaunchKernel", unsafe { b.launch(cfg) }).map(|_| ()).map_err(err)
    }
}

/// A kernel argument pushed by value.
trait Arg {
    fn push<'a>(&'a self, b: &mut cudarc::driver::LaunchArgs<'a>);
}

impl Arg for u64 {
    fn push<'a>(&'a self, b: &mut cudarc::driver::LaunchArgs<'a>) {
        b.arg(self);
    }
}

impl Arg for i64 {
    fn push<'a>(&'a self, b: &mut cudarc::driver::LaunchArgs<'a>) {
        b.arg(self);
    }
}

impl Arg for f32 {
    fn push<'a>(&'a self, b: &mut cudarc::driver::LaunchArgs<'a>) {
        b.arg(self);
    }
}

impl Arg for Param {
    fn push<'a>(&'a self, b: &mut cudarc::driver::LaunchArgs<'a>) {
        match self {
            Param::Addr(x) => x.push(b),
            Param::I64(x) => x.push(b),
            Param::F32(x) => x.push(b),
        }
    }
}

/// The device address of a region.
pub fn address(region: (&CudaMem, usize)) -> u64 {
    region.0.ptr + region.1 as u64
}

impl Device for CudaDevice {
    type Mem = CudaMem;
    type Signal = CudaSignal;
    type Stamp = CudaSignal;

    fn alloc(&self, rank: u32, bytes: usize) -> Result<CudaMem, DeviceError> {
        let s = self.stream(rank, 0)?;
        let slice = driver("cuMemAlloc", s.alloc_zeros::<u8>(bytes)).map_err(err)?;
        // The zeroing is on this stream; every other stream may use the memory next.
        driver("cuStreamSynchronize", s.synchronize()).map_err(err)?;
        let ptr = slice.device_ptr(&s).0;
        Ok(CudaMem { slice, ptr })
    }

    fn upload(&self, rank: u32, which: usize, dst: (&CudaMem, usize), data: &[u8]) -> Result<(), DeviceError> {
        let s = self.stream(rank, which)?;
        // SAFETY: `dst` lies inside a live allocation (the executor sizes every region); the host
        // buffer outlives the copy, which completes before the synchronisation returns.
        unsafe {
            driver("cuMemcpyHtoDAsync", memcpy_htod_async(address(dst), data, s.cu_stream())).map_err(err)?;
            driver("cuStreamSynchronize", stream::synchronize(s.cu_stream())).map_err(err)
        }
    }

    fn download(&self, rank: u32, which: usize, src: (&CudaMem, usize), len: usize) -> Result<Vec<u8>, DeviceError> {
        let s = self.stream(rank, which)?;
        let mut out = vec![0u8; len];
        // SAFETY: as in `upload`.
        unsafe {
            driver("cuMemcpyDtoHAsync", memcpy_dtoh_async(&mut out, address(src), s.cu_stream())).map_err(err)?;
            driver("cuStreamSynchronize", stream::synchronize(s.cu_stream())).map_err(err)?;
        }
        Ok(out)
    }

    fn copy(
        &self,
        rank: u32,
        which: usize,
        src: (&CudaMem, usize),
        dst: (&CudaMem, usize),
        len: usize,
    ) -> Result<(), DeviceError> {
        let s = self.stream(rank, which)?;
        // SAFETY: both regions lie inside live allocations of this context.
        unsafe {
            driver("cuMemcpyDtoDAsync", memcpy_dtod_async(address(dst), address(src), len, s.cu_stream())).map_err(err)
        }
    }

    fn copy_2d(&self, rank: u32, which: usize, rows: Rows2d<'_, CudaMem>) -> Result<(), DeviceError> {
        use cudarc::driver::sys::cuMemcpy2DAsync_v2;
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        if width == 0 || height == 0 {
            return Ok(());
        }
        let s = self.stream(rank, which)?;
        let copy = memcpy_2d_descriptor((address(src), src_pitch), (address(dst), dst_pitch), width, height);
        // SAFETY: both regions (`height` rows of `width` bytes at their pitches) lie inside live
        // allocations; the descriptor is read before the call returns.
        let r = unsafe { cuMemcpy2DAsync_v2(&copy, s.cu_stream()) }.result();
        driver("cuMemcpy2DAsync", r).map_err(err)
    }

    fn add_2d(&self, rank: u32, which: usize, rows: Rows2d<'_, CudaMem>) -> Result<(), DeviceError> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        if width == 0 || height == 0 {
            return Ok(());
        }
        let k = self.launcher.add2d_function().map_err(err)?;
        let (d, sp) = (address(dst), address(src));
        let (dpi, spi, w, h) = (dst_pitch as i64, src_pitch as i64, width as i64, height as i64);
        let grid = ((width * height).div_ceil(k.block[0] as usize) as u32, 1, 1);
        self.launch(rank, which, &k, grid, &[&d, &dpi, &sp, &spi, &w, &h])
    }

    fn fill(
        &self,
        rank: u32,
        which: usize,
        dst: (&CudaMem, usize),
        count: usize,
        value: f32,
    ) -> Result<(), DeviceError> {
        let s = self.stream(rank, which)?;
        if value == 0.0 {
            // SAFETY: the region lies inside a live allocation.
            return unsafe {
                driver("cuMemsetD8Async", memset_d8_async(address(dst), 0, count * 4, s.cu_stream())).map_err(err)
            };
        }
        if value != f32::NEG_INFINITY {
            return Err(DeviceError::Unsupported(format!("fill with {value}: only 0 and −inf are used")));
        }
        let mut neg_inf = self.neg_inf.lock().unwrap_or_else(|e| e.into_inner());
        if neg_inf.last().is_none_or(|m| m.slice.len() < count * 4) {
            let mem = self.alloc(rank, count * 4)?;
            let bytes: Vec<u8> = bytemuck::cast_slice(&vec![f32::NEG_INFINITY; count]).to_vec();
            self.upload(rank, which, (&mem, 0), &bytes)?;
            neg_inf.push(mem);
        }
        let src = neg_inf.last().expect("made above");
        self.copy(rank, which, (src, 0), dst, count * 4)
    }

    fn signal(&self, rank: u32, which: usize) -> Result<CudaSignal, DeviceError> {
        let s = self.stream(rank, which)?;
        let event = driver("cuEventCreate", self.launcher.gpu.ctx.new_event(None)).map_err(err)?;
        driver("cuEventRecord", event.record(&s)).map_err(err)?;
        Ok(CudaSignal(event))
    }

    fn stamp(&self, rank: u32, which: usize) -> Result<CudaSignal, DeviceError> {
        use cudarc::driver::sys::CUevent_flags;
        let s = self.stream(rank, which)?;
        let flags = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let event = driver("cuEventCreate", self.launcher.gpu.ctx.new_event(flags)).map_err(err)?;
        driver("cuEventRecord", event.record(&s)).map_err(err)?;
        Ok(CudaSignal(event))
    }

    fn seconds(&self, from: &CudaSignal, to: &CudaSignal) -> Result<f64, DeviceError> {
        driver("cuEventSynchronize", to.0.synchronize()).map_err(err)?;
        driver("cuEventSynchronize", from.0.synchronize()).map_err(err)?;
        Ok(driver("cuEventElapsedTime", from.0.elapsed_ms(&to.0)).map_err(err)? as f64 * 1e-3)
    }

    fn wait(&self, rank: u32, which: usize, signal: &CudaSignal) -> Result<(), DeviceError> {
        let s = self.stream(rank, which)?;
        driver("cuStreamWaitEvent", s.wait(&signal.0)).map_err(err)
    }

    fn forward(&self, rank: u32, which: usize, c: &FwdCall<'_, CudaMem>) -> Result<(), DeviceError> {
        let _launching = self.launching.lock().unwrap_or_else(|e| e.into_inner());
        let t = c.table;
        if t.sequences() == 0 {
            return Ok(());
        }
        // A head range: the regions at its first head, the grid over its heads (16-bit inputs).
        let c = &c.at_heads(2);
        let k = self.launcher.function(&t.spec).map_err(err)?;
        let grid = (t.max_seqlen_q().div_ceil(k.rows) as u32, c.heads.1 as u32, t.sequences() as u32);
        let hv = self.head_values(rank, which, c.head_values)?;
        let maps = self.tensor_maps(rank, which, &k, c)?;
        let params = c.kernel_params(address);
        let mut args: Vec<&dyn Arg> = params.iter().map(|p| p as &dyn Arg).collect();
        // A score that reads the head: its values, the last parameter.
        if let Some(hv) = &hv {
            args.push(hv);
        }
        // A kernel that reads tensor maps: their array, the last parameter.
        if let Some(m) = &maps {
            args.push(m);
        }
        self.launch(rank, which, &k, grid, &args)
    }

    fn backward(&self, rank: u32, which: usize, c: &BwdCall<'_, CudaMem>) -> Result<(), DeviceError> {
        let _launching = self.launching.lock().unwrap_or_else(|e| e.into_inner());
        if c.fwd.table.sequences() == 0 {
            return Ok(());
        }
        let c = &c.at_heads(2);
        let f = &c.fwd;
        let t = f.table;
        let k = self.launcher.function(&t.spec).map_err(err)?;
        let grid = (t.max_seqlen_kv().div_ceil(k.rows) as u32, f.heads.1 as u32, t.sequences() as u32);
        let hv = self.head_values(rank, which, f.head_values)?;
        let dparams = c.dparams_region()?.map(address);
        let params = c.kernel_params(address);
        let mut args: Vec<&dyn Arg> = params.iter().map(|p| p as &dyn Arg).collect();
        if let Some(hv) = &hv {
            args.push(hv);
        }
        // A score with learned parameters: their gradients, the last parameter.
        if let Some(dp) = &dparams {
            args.push(dp);
        }
        self.launch(rank, which, &k, grid, &args)
    }

    fn merge(
        &self,
        rank: u32,
        which: usize,
        head_dim: usize,
        out: (&CudaMem, usize),
        out_lse: (&CudaMem, usize),
        part: (&CudaMem, usize),
        part_lse: (&CudaMem, usize),
        rows: usize,
    ) -> Result<(), DeviceError> {
        if rows == 0 {
            return Ok(());
        }
        let k = self.launcher.merge_function(head_dim).map_err(err)?;
        let ptrs = [address(out), address(out_lse), address(part), address(part_lse)];
        let n = rows as i64;
        let grid = (rows.div_ceil(k.block[0] as usize) as u32, 1, 1);
        self.launch(rank, which, &k, grid, &[&ptrs[0], &ptrs[1], &ptrs[2], &ptrs[3], &n])
    }
}

/// The driver's descriptor of a device-to-device 2-D copy: `height` rows of `width` bytes from
/// `src` at its pitch to `dst` at its pitch. Every field is written out: `CUmemorytype` has no
/// zero value, so a zeroed descriptor is not a valid Rust value (the first GPU run aborted on it).
fn memcpy_2d_descriptor(
    src: (u64, usize),
    dst: (u64, usize),
    width: usize,
    height: usize,
) -> cudarc::driver::sys::CUDA_MEMCPY2D {
    use cudarc::driver::sys::{CUDA_MEMCPY2D, CUmemorytype};
    CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: CUmemorytype::CU_MEMORYTYPE_DEVICE,
        srcHost: std::ptr::null(),
        srcDevice: src.0,
        srcArray: std::ptr::null_mut(),
        srcPitch: src.1,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: CUmemorytype::CU_MEMORYTYPE_DEVICE,
        dstHost: std::ptr::null_mut(),
        dstDevice: dst.0,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst.1,
        WidthInBytes: width,
        Height: height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_2d_copy_descriptor_is_built_without_a_device() {
        let copy = memcpy_2d_descriptor((0x1000, 256), (0x8000, 512), 128, 7);
        assert_eq!((copy.srcDevice, copy.srcPitch, copy.dstDevice, copy.dstPitch), (0x1000, 256, 0x8000, 512));
        assert_eq!((copy.WidthInBytes, copy.Height), (128, 7));
        assert!(copy.srcHost.is_null() && copy.dstHost.is_null());
    }
}
