//! A [`Device`] whose memory is the PTX interpreter's and whose kernels are the ahead-of-time PTX
//! of a kernel directory, interpreted (`ptx-sim`): the forward and backward attention kernels, the
//! merge and the 2-D add, launched with the grids and arguments the CUDA device computes. Every
//! rank of a plan shares it; calls run at once, one at a time (the interpreter's memory is behind
//! one lock). `--kernels ptx-sim --kernel-dir DIR` runs the executor on it, so a GPU run's every
//! kernel launch is checked on the CPU, with the interpreter's memory and barrier checks.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use attnc_compiler::kernel::KernelSpec;
use ptx_sim::{Arg, Global, Launch, Module};

use super::{BwdCall, Device, DeviceError, FwdCall, Param, Rows2d};
use crate::kernel_dir::{KernelDir, ManifestKernel, TensorMapUse};

/// An allocation: its address in the interpreter's memory and its size.
pub struct PtxMem {
    addr: u64,
    len: usize,
}

/// A kernel of the directory, parsed once: the module, its entry, block and dynamic shared memory,
/// and for an attention kernel the rows a CTA takes and the tensor maps it reads.
struct Parsed {
    module: Module,
    entry: String,
    block: [u32; 3],
    shared: usize,
    rows: usize,
    maps: Vec<TensorMapUse>,
}

pub struct PtxDevice {
    dir: KernelDir,
    global: Mutex<Global>,
    parsed: Mutex<HashMap<String, Arc<Parsed>>>,
    /// Thread instructions interpreted so far.
    pub instructions: AtomicU64,
    /// Per kind of launch argument array (0: per-head score values, 1: tensor maps), the buffer
    /// each launch's array is written into before it runs (launches run one at a time here), and
    /// its size.
    args: Mutex<HashMap<usize, PtxMem>>,
    /// Held from an attention launch's staging of its argument arrays to its launch, so no other
    /// launch's arrays overwrite them in between (ranks call from their own threads).
    launching: Mutex<()>,
}

fn address(region: (&PtxMem, usize)) -> u64 {
    region.0.addr + region.1 as u64
}

/// A kernel parameter as the interpreter takes it.
fn arg(p: Param) -> Arg {
    match p {
        Param::Addr(x) => Arg::U64(x),
        Param::I64(x) => Arg::I64(x),
        Param::F32(x) => Arg::F32(x),
    }
}

impl PtxDevice {
    pub fn new(dir: KernelDir) -> PtxDevice {
        PtxDevice {
            dir,
            global: Mutex::new(Global::new()),
            parsed: Mutex::new(HashMap::new()),
            instructions: AtomicU64::new(0),
            args: Mutex::new(HashMap::new()),
            launching: Mutex::new(()),
        }
    }

    /// The kernel `name`, checked to launch over `grid` (the manifest's formulas).
    fn kernel(&self, name: &str, grid: [&str; 3]) -> Result<Arc<Parsed>, DeviceError> {
        self.parse(name, || self.dir.get(name, grid).map(|(k, ptx)| (k, ptx, 0)))
    }

    /// A kernel from the directory (`find`), parsed on first use.
    fn parse<'d>(
        &'d self,
        name: &str,
        find: impl FnOnce() -> Result<(&'d ManifestKernel, String, usize), crate::kernel_dir::KernelDirError>,
    ) -> Result<Arc<Parsed>, DeviceError> {
        if let Some(k) = self.parsed.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
            return Ok(k.clone());
        }
        let (k, ptx, rows) = find().map_err(|e| DeviceError::Kernel(e.to_string()))?;
        let module = ptx_sim::parse(&ptx)
            .map_err(|e| DeviceError::Kernel(format!("{}/{}: {e}", self.dir.dir.display(), k.file)))?;
        let launch = k
            .launch
            .as_ref()
            .ok_or_else(|| DeviceError::Kernel(format!("kernel {name}: no launch in the manifest")))?;
        let parsed = Arc::new(Parsed {
            module,
            entry: k.name.clone(),
            block: launch.block,
            shared: launch.dynamic_shared_bytes as usize,
            rows,
            maps: launch.tensor_maps.clone(),
        });
        self.parsed.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), parsed.clone());
        Ok(parsed)
    }

    fn launch(&self, k: &Parsed, grid: [u32; 3], args: &[Arg]) -> Result<(), DeviceError> {
        if grid.contains(&0) {
            return Ok(());
        }
        let launch = Launch { grid, block: k.block, dynamic_shared: k.shared };
        let mut global = self.global.lock().unwrap_or_else(|e| e.into_inner());
        let stats = ptx_sim::run(&k.module, &k.entry, &launch, args, &mut global)
            .map_err(|e| DeviceError::Kernel(e.to_string()))?;
        self.instructions.fetch_add(stats.thread_instructions, Ordering::Relaxed);
        Ok(())
    }

    /// A call's per-head score values in the interpreter's memory, as the kernel's last parameter
    /// (`None` when the score reads no head).
    fn head_values(&self, values: &[f32]) -> Result<Option<Arg>, DeviceError> {
        if values.is_empty() {
            return Ok(None);
        }
        let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.stage(0, &bytes).map(|a| Some(Arg::U64(a)))
    }

    /// Writes `bytes` into the argument buffer of `kind` (grown when too small): its address.
    fn stage(&self, kind: usize, bytes: &[u8]) -> Result<u64, DeviceError> {
        let mut slots = self.args.lock().unwrap_or_else(|e| e.into_inner());
        if slots.get(&kind).is_none_or(|m| m.len < bytes.len()) {
            slots.insert(kind, self.alloc(0, bytes.len().next_power_of_two().max(512))?);
        }
        let m = &slots[&kind];
        self.upload(0, 0, (m, 0), bytes)?;
        Ok(m.addr)
    }

    fn spec_kernel(&self, spec: &KernelSpec) -> Result<Arc<Parsed>, DeviceError> {
        self.parse(&spec.name(), || self.dir.attention(spec))
    }

    /// The tensor maps a kernel reads, over a forward call's planes (`FwdCall::at_heads`), in the
    /// interpreter's encoding, as one global array (the kernel's `tmaps`).
    fn tensor_maps(&self, maps: &[TensorMapUse], c: &FwdCall<'_, PtxMem>) -> Result<Option<Arg>, DeviceError> {
        if maps.is_empty() {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        for f in super::map_fields(maps, c, address)? {
            let swizzle = match f.swizzle_bytes {
                0 => ptx_sim::Swizzle::None,
                32 => ptx_sim::Swizzle::B32,
                64 => ptx_sim::Swizzle::B64,
                _ => ptx_sim::Swizzle::B128,
            };
            let map = ptx_sim::TensorMap {
                base: f.base,
                elem_bytes: f.elem_bytes,
                dims: f.dims.to_vec(),
                strides: f.strides.to_vec(),
                box_dims: f.box_dims.to_vec(),
                swizzle,
                oob_nan: false,
            };
            map.check().map_err(|e| DeviceError::Kernel(format!("tensor map: {e}")))?;
            bytes.extend(map.encode());
        }
        self.stage(1, &bytes).map(|a| Some(Arg::U64(a)))
    }
}

impl Device for PtxDevice {
    type Mem = PtxMem;
    type Signal = ();
    type Stamp = Instant;

    fn alloc(&self, _rank: u32, bytes: usize) -> Result<PtxMem, DeviceError> {
        let addr = self.global.lock().unwrap_or_else(|e| e.into_inner()).alloc(bytes);
        Ok(PtxMem { addr, len: bytes })
    }

    fn upload(&self, _rank: u32, _stream: usize, dst: (&PtxMem, usize), data: &[u8]) -> Result<(), DeviceError> {
        let mut g = self.global.lock().unwrap_or_else(|e| e.into_inner());
        g.write(address(dst), data).ok_or_else(|| {
            DeviceError::Memory(format!(
                "upload of {} bytes at {} past an allocation of {}",
                data.len(),
                dst.1,
                dst.0.len
            ))
        })
    }

    fn download(&self, _rank: u32, _stream: usize, src: (&PtxMem, usize), len: usize) -> Result<Vec<u8>, DeviceError> {
        let g = self.global.lock().unwrap_or_else(|e| e.into_inner());
        g.read(address(src), len).map(<[u8]>::to_vec).ok_or_else(|| {
            DeviceError::Memory(format!("download of {len} bytes at {} past an allocation of {}", src.1, src.0.len))
        })
    }

    fn copy(
        &self,
        _rank: u32,
        _stream: usize,
        src: (&PtxMem, usize),
        dst: (&PtxMem, usize),
        len: usize,
    ) -> Result<(), DeviceError> {
        let mut g = self.global.lock().unwrap_or_else(|e| e.into_inner());
        let data = g
            .read(address(src), len)
            .ok_or_else(|| DeviceError::Memory(format!("copy of {len} bytes from outside an allocation")))?
            .to_vec();
        g.write(address(dst), &data)
            .ok_or_else(|| DeviceError::Memory(format!("copy of {len} bytes to outside an allocation")))
    }

    fn copy_2d(&self, _rank: u32, _stream: usize, rows: Rows2d<'_, PtxMem>) -> Result<(), DeviceError> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        let mut g = self.global.lock().unwrap_or_else(|e| e.into_inner());
        for r in 0..height {
            let from = address(src) + (r * src_pitch) as u64;
            let data = g
                .read(from, width)
                .ok_or_else(|| DeviceError::Memory("a 2-D copy from outside an allocation".into()))?
                .to_vec();
            g.write(address(dst) + (r * dst_pitch) as u64, &data)
                .ok_or_else(|| DeviceError::Memory("a 2-D copy to outside an allocation".into()))?;
        }
        Ok(())
    }

    fn add_2d(&self, _rank: u32, _stream: usize, rows: Rows2d<'_, PtxMem>) -> Result<(), DeviceError> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        if width == 0 || height == 0 {
            return Ok(());
        }
        let k = self.kernel("attn_add2d", ["ceil(width * height / 128)", "1", "1"])?;
        let grid = [(width * height).div_ceil(k.block[0] as usize) as u32, 1, 1];
        let args = [
            Arg::U64(address(dst)),
            Arg::I64(dst_pitch as i64),
            Arg::U64(address(src)),
            Arg::I64(src_pitch as i64),
            Arg::I64(width as i64),
            Arg::I64(height as i64),
        ];
        self.launch(&k, grid, &args)
    }

    fn fill(
        &self,
        _rank: u32,
        _stream: usize,
        dst: (&PtxMem, usize),
        count: usize,
        value: f32,
    ) -> Result<(), DeviceError> {
        let bytes: Vec<u8> = std::iter::repeat_n(value.to_le_bytes(), count).flatten().collect();
        self.upload(0, 0, dst, &bytes)
    }

    fn signal(&self, _rank: u32, _stream: usize) -> Result<(), DeviceError> {
        Ok(())
    }

    fn stamp(&self, _rank: u32, _stream: usize) -> Result<Instant, DeviceError> {
        Ok(Instant::now())
    }

    fn seconds(&self, from: &Instant, to: &Instant) -> Result<f64, DeviceError> {
        Ok(to.saturating_duration_since(*from).as_secs_f64())
    }

    fn wait(&self, _rank: u32, _stream: usize, _signal: &()) -> Result<(), DeviceError> {
        Ok(())
    }

    fn forward(&self, _rank: u32, _stream: usize, c: &FwdCall<'_, PtxMem>) -> Result<(), DeviceError> {
        let _launching = self.launching.lock().unwrap_or_else(|e| e.into_inner());
        let t = c.table;
        if t.sequences() == 0 {
            return Ok(());
        }
        // A head range: the regions at its first head, the grid over its heads (16-bit inputs).
        let c = &c.at_heads(2);
        let k = self.spec_kernel(&t.spec)?;
        let grid = [t.max_seqlen_q().div_ceil(k.rows) as u32, c.heads.1 as u32, t.sequences() as u32];
        let mut args: Vec<Arg> = c.kernel_params(address).into_iter().map(arg).collect();
        args.extend(self.head_values(c.head_values)?);
        args.extend(self.tensor_maps(&k.maps, c)?);
        self.launch(&k, grid, &args)
    }

    fn backward(&self, _rank: u32, _stream: usize, c: &BwdCall<'_, PtxMem>) -> Result<(), DeviceError> {
        let _launching = self.launching.lock().unwrap_or_else(|e| e.into_inner());
        if c.fwd.table.sequences() == 0 {
            return Ok(());
        }
        let c = &c.at_heads(2);
        let f = &c.fwd;
        let t = f.table;
        let k = self.spec_kernel(&t.spec)?;
        let grid = [t.max_seqlen_kv().div_ceil(k.rows) as u32, f.heads.1 as u32, t.sequences() as u32];
        let mut args: Vec<Arg> = c.kernel_params(address).into_iter().map(arg).collect();
        args.extend(self.head_values(f.head_values)?);
        // A score with learned parameters: their gradients, the last parameter.
        args.extend(c.dparams_region()?.map(|r| Arg::U64(address(r))));
        self.launch(&k, grid, &args)
    }

    fn merge(
        &self,
        _rank: u32,
        _stream: usize,
        head_dim: usize,
        out: (&PtxMem, usize),
        out_lse: (&PtxMem, usize),
        part: (&PtxMem, usize),
        part_lse: (&PtxMem, usize),
        rows: usize,
    ) -> Result<(), DeviceError> {
        if rows == 0 {
            return Ok(());
        }
        let k = self.kernel(&format!("attn_merge_d{head_dim}"), ["ceil(tokens * heads_q / 128)", "1", "1"])?;
        let grid = [rows.div_ceil(k.block[0] as usize) as u32, 1, 1];
        let args = [out, out_lse, part, part_lse].map(|r| Arg::U64(address(r)));
        let args = [args[0], args[1], args[2], args[3], Arg::I64(rows as i64)];
        self.launch(&k, grid, &args)
    }
}
