//! A [`Device`] in host memory: allocations are byte vectors and every call runs at once. Its
//! kernels are either the CPU emulation of the GPU kernel ABI (`packed::Emulated`), reading and
//! writing the same 16-bit planes and launch tables a GPU would, or any of the runtime's host
//! kernel sets (reference, kernel-IR interpreter, Cranelift, LLVM host: [`Kernels`]), fed from
//! the same planes and tables: each launch's real sequences become one block whose rows carry the
//! sequence as their document, so a query run meets exactly the KV run of its sequence. Every CPU
//! run goes through the device executor on this device, so CI exercises what a GPU run executes;
//! on a GPU only the kernels and the driver calls differ.
//!
//! Every call copies what it reads out of an allocation before it writes another, so no two locks
//! are ever held together.

use std::borrow::Cow;
use std::sync::{RwLock, RwLockReadGuard};

use attnc_compiler::spec::Dtype;

use attnc_compiler::kernel::KernelMask;

use super::{BwdCall, Device, DeviceError, Elem, FwdCall, Rows2d};
use crate::kernels::{Block, Kernels, Mask, Row, Shape};
use crate::packed::{BwdLaunch, Emulated, FwdLaunch, Launcher, from_bits};
use crate::pool::Pool;

/// The kernels a host device runs.
pub enum HostKernels<'k> {
    /// Launches of the GPU kernel ABI (16-bit input planes only): its CPU emulation, or another
    /// launcher of the same ABI.
    Abi(&'k dyn Launcher),
    /// A host kernel set, fed from the launch's planes and sequences.
    Blocks(&'k dyn Kernels),
}

pub struct HostDevice<'k> {
    /// The input dtype (the q, k, v and do planes hold its values: 16 bits, or fp32).
    pub dtype: Dtype,
    pub kernels: HostKernels<'k>,
    pool: Pool,
}

impl HostDevice<'static> {
    /// The GPU kernel ABI's CPU emulation as kernels.
    pub fn emulated(dtype: Dtype) -> HostDevice<'static> {
        HostDevice { dtype, kernels: HostKernels::Abi(&Emulated), pool: Pool::default() }
    }
}

impl<'k> HostDevice<'k> {
    /// Launches of the GPU kernel ABI through `launcher`.
    pub fn with_launcher(dtype: Dtype, launcher: &'k dyn Launcher) -> HostDevice<'k> {
        HostDevice { dtype, kernels: HostKernels::Abi(launcher), pool: Pool::default() }
    }

    /// A host kernel set as kernels.
    pub fn with_kernels(dtype: Dtype, kernels: &'k dyn Kernels) -> HostDevice<'k> {
        HostDevice { dtype, kernels: HostKernels::Blocks(kernels), pool: Pool::default() }
    }
}

/// One allocation: bytes kept in 8-byte words, so that fp32, i32 and i64 regions at aligned
/// offsets (every plane starts 256-byte aligned) are viewed in place, never copied out.
pub struct HostMem {
    words: RwLock<Vec<u64>>,
    len: usize,
}

impl HostMem {
    fn new(len: usize) -> HostMem {
        HostMem { words: RwLock::new(vec![0; len.div_ceil(8)]), len }
    }

    fn range(&self, at: usize, len: usize, what: &str) -> Result<std::ops::Range<usize>, DeviceError> {
        (at + len <= self.len).then_some(at..at + len).ok_or_else(|| {
            DeviceError::Memory(format!("{what} of {len} bytes at {at} past an allocation of {}", self.len))
        })
    }

    /// A copy of a region's bytes: for a transport that hands them to another library (the
    /// Python package's torch.distributed), not for kernels, which view regions in place.
    pub fn read_bytes(&self, at: usize, len: usize) -> Result<Vec<u8>, DeviceError> {
        self.view(at, len, <[u8]>::to_vec)
    }

    /// Writes `data` into the region at `at` (what a transport received).
    pub fn write_bytes(&self, at: usize, data: &[u8]) -> Result<(), DeviceError> {
        self.view_mut(at, data.len(), |b| b.copy_from_slice(data))
    }

    /// `f` on the bytes of a region (read-locked).
    fn view<R>(&self, at: usize, len: usize, f: impl FnOnce(&[u8]) -> R) -> Result<R, DeviceError> {
        let range = self.range(at, len, "read")?;
        let words = self.words.read().unwrap_or_else(|e| e.into_inner());
        Ok(f(&bytemuck::cast_slice::<u64, u8>(&words)[range]))
    }

    /// `f` on the bytes of a region (write-locked).
    fn view_mut<R>(&self, at: usize, len: usize, f: impl FnOnce(&mut [u8]) -> R) -> Result<R, DeviceError> {
        let range = self.range(at, len, "write")?;
        let mut words = self.words.write().unwrap_or_else(|e| e.into_inner());
        Ok(f(&mut bytemuck::cast_slice_mut::<u64, u8>(&mut words)[range]))
    }
}

/// Read views of several allocations at once, each locked once and in address order. A verified
/// plan never writes what a kernel reads, so the locks never wait; they make the sharing safe.
struct Views<'a> {
    locked: Vec<(&'a HostMem, RwLockReadGuard<'a, Vec<u64>>)>,
}

impl<'a> Views<'a> {
    fn new(mut mems: Vec<&'a HostMem>) -> Views<'a> {
        mems.sort_by_key(|m| *m as *const HostMem);
        mems.dedup_by(|a, b| std::ptr::eq(*a, *b));
        Views { locked: mems.into_iter().map(|m| (m, m.words.read().unwrap_or_else(|e| e.into_inner()))).collect() }
    }

    fn bytes(&self, region: (&HostMem, usize), len: usize) -> Result<&[u8], DeviceError> {
        let (mem, words) = self
            .locked
            .iter()
            .find(|(m, _)| std::ptr::eq(*m, region.0))
            .ok_or_else(|| DeviceError::Memory("a region outside the views".into()))?;
        let range = mem.range(region.1, len, "read")?;
        Ok(&bytemuck::cast_slice::<u64, u8>(words)[range])
    }

    fn f32s(&self, region: (&HostMem, usize), count: usize) -> Result<&[f32], DeviceError> {
        values(self.bytes(region, count * 4)?)
    }
}

/// A region's bytes as values (aligned: planes and table arrays start at aligned offsets).
fn values<T: bytemuck::Pod>(bytes: &[u8]) -> Result<&[T], DeviceError> {
    bytemuck::try_cast_slice(bytes).map_err(|e| DeviceError::Memory(format!("a region at an unaligned offset: {e}")))
}

fn values_mut<T: bytemuck::Pod>(bytes: &mut [u8]) -> Result<&mut [T], DeviceError> {
    bytemuck::try_cast_slice_mut(bytes)
        .map_err(|e| DeviceError::Memory(format!("a region at an unaligned offset: {e}")))
}

fn read(region: (&HostMem, usize), len: usize) -> Result<Vec<u8>, DeviceError> {
    region.0.read_bytes(region.1, len)
}

fn write(region: (&HostMem, usize), data: &[u8]) -> Result<(), DeviceError> {
    region.0.write_bytes(region.1, data)
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytemuck::pod_collect_to_vec(bytes)
}

fn u16s(bytes: &[u8]) -> Vec<u16> {
    bytemuck::pod_collect_to_vec(bytes)
}

fn i32s(bytes: &[u8]) -> Vec<i32> {
    bytemuck::pod_collect_to_vec(bytes)
}

fn i64s(bytes: &[u8]) -> Vec<i64> {
    bytemuck::pod_collect_to_vec(bytes)
}

fn bytes_of(values: &[f32]) -> Vec<u8> {
    bytemuck::cast_slice(values).to_vec()
}

/// A launch's sequence table, read back from the table memory.
struct Table {
    cu_q: Vec<i32>,
    cu_kv: Vec<i32>,
    pos_q: Vec<i64>,
    pos_kv: Vec<i64>,
}

impl Table {
    fn read(c: &FwdCall<'_, HostMem>) -> Result<Table, DeviceError> {
        let n = c.table.sequences();
        Ok(Table {
            cu_q: i32s(&read(c.arrays[0], (n + 1) * 4)?),
            cu_kv: i32s(&read(c.arrays[1], (n + 1) * 4)?),
            pos_q: i64s(&read(c.arrays[2], n * 8)?),
            pos_kv: i64s(&read(c.arrays[3], n * 8)?),
        })
    }

    /// Rows up to the last sequence's end: (query rows, KV rows).
    fn extent(&self) -> (usize, usize) {
        (*self.cu_q.last().unwrap_or(&0) as usize, *self.cu_kv.last().unwrap_or(&0) as usize)
    }

    /// The sequences with queries and keys: (query rows, KV rows, query position, KV position).
    fn real(&self) -> impl Iterator<Item = (std::ops::Range<usize>, std::ops::Range<usize>, u64, u64)> + '_ {
        (0..self.pos_q.len()).filter_map(|i| {
            let q = self.cu_q[i] as usize..self.cu_q[i + 1] as usize;
            let kv = self.cu_kv[i] as usize..self.cu_kv[i + 1] as usize;
            (!q.is_empty() && !kv.is_empty()).then(|| (q, kv, self.pos_q[i] as u64, self.pos_kv[i] as u64))
        })
    }

    /// The block rows of the real sequences: sequence `i`'s rows are document `i`, so a query
    /// run meets only its own sequence's keys (and its own chunk's: tables never pair chunks).
    fn rows(&self) -> (Vec<Row>, Vec<Row>) {
        let (mut q_rows, mut kv_rows) = (Vec::new(), Vec::new());
        for (doc, (q, kv, pq, pk)) in self.real().enumerate() {
            let at = |pos: u64, first: usize| {
                move |row: usize| {
                    let token = pos + (row - first) as u64;
                    Row { row, token, pos: token, doc, chunk: 0, pad: false }
                }
            };
            q_rows.extend(q.clone().map(at(pq, q.start)));
            kv_rows.extend(kv.clone().map(at(pk, kv.start)));
        }
        (q_rows, kv_rows)
    }
}

/// The mask of a launch's kernel spec, by positions.
fn mask_of(mask: KernelMask) -> Mask {
    match mask {
        KernelMask::None => Mask { causal: false, window: None, regions: None },
        KernelMask::Causal => Mask { causal: true, window: None, regions: None },
        KernelMask::Window { window } => Mask { causal: true, window: Some(window), regions: None },
    }
}

impl HostDevice<'_> {
    /// An input plane's values (16-bit or fp32) as fp32: fp32 planes in place.
    fn inputs<'v>(
        &self,
        views: &'v Views<'_>,
        region: (&HostMem, usize),
        count: usize,
    ) -> Result<Cow<'v, [f32]>, DeviceError> {
        Ok(match Elem::input(self.dtype) {
            Elem::Half => Cow::Owned(
                values::<u16>(views.bytes(region, count * 2)?)?.iter().map(|&x| from_bits(self.dtype, x)).collect(),
            ),
            Elem::F32 => Cow::Borrowed(views.f32s(region, count)?),
        })
    }

    /// K and V planes interleaved per row and head (`[rows][heads][k(d), v(dv)]`), as the host
    /// kernels read them, in a pooled buffer.
    fn kv_rows(&self, views: &Views<'_>, c: &FwdCall<'_, HostMem>, rows: usize) -> Result<Vec<f32>, DeviceError> {
        let (n, d, dv) = (rows * c.heads_kv, c.head_dim, c.v_head_dim);
        let (k, v) = (self.inputs(views, c.k, n * d)?, self.inputs(views, c.v, n * dv)?);
        let mut kv = self.pool.take(n * (d + dv));
        for (i, row) in kv.chunks_mut(d + dv).enumerate() {
            row[..d].copy_from_slice(&k[i * d..(i + 1) * d]);
            row[d..].copy_from_slice(&v[i * dv..(i + 1) * dv]);
        }
        Ok(kv)
    }

    fn blocks_forward(&self, kernels: &dyn Kernels, c: &FwdCall<'_, HostMem>) -> Result<(), DeviceError> {
        let table = Table::read(c)?;
        let (tq, tk) = table.extent();
        let (h, hk, d, dv) = (c.heads_q, c.heads_kv, c.head_dim, c.v_head_dim);
        let (q_rows, kv_rows) = table.rows();
        let mask = mask_of(c.table.spec.mask);
        let part_shape = Shape { batch: 1, rows: tq, heads: h, elems: dv + 1 };
        // Every row the kernels write is a real sequence's, and only those are read back.
        let mut part = self.pool.take(part_shape.len());
        {
            let views = Views::new(vec![c.q.0, c.k.0, c.v.0]);
            let q = self.inputs(&views, c.q, tq * h * d)?;
            let kv = self.kv_rows(&views, c, tk)?;
            let block = Block {
                head_dim: d,
                v_head_dim: dv,
                scale: c.scale,
                score: c.table.spec.score,
                head_values: c.head_values,
                mask: &mask,
                q: &q,
                q_shape: Shape { batch: 1, rows: tq, heads: h, elems: d },
                q_rows: &q_rows,
                kv: &kv,
                kv_shape: Shape { batch: 1, rows: tk, heads: hk, elems: d + dv },
                kv_rows: &kv_rows,
                delta: None,
            };
            kernels.forward(&block, &mut part, part_shape).map_err(DeviceError::Kernel)?;
            self.pool.give(kv);
        }
        // Only the real sequences' rows: filler rows keep what the executor put there. Each row
        // range goes to the O plane, then the LSE plane, each written in place under its own lock.
        for (rows, ..) in table.real() {
            let part = &part[rows.start * h * (dv + 1)..rows.end * h * (dv + 1)];
            c.o.0.view_mut(c.o.1 + rows.start * h * dv * 4, rows.len() * h * dv * 4, |bytes| {
                let o: &mut [f32] = values_mut(bytes)?;
                for (dst, src) in o.chunks_mut(dv).zip(part.chunks(dv + 1)) {
                    dst.copy_from_slice(&src[..dv]);
                }
                Ok::<(), DeviceError>(())
            })??;
            c.lse.0.view_mut(c.lse.1 + rows.start * h * 4, rows.len() * h * 4, |bytes| {
                let lse: &mut [f32] = values_mut(bytes)?;
                for (dst, src) in lse.iter_mut().zip(part.chunks(dv + 1)) {
                    *dst = src[dv];
                }
                Ok::<(), DeviceError>(())
            })??;
        }
        self.pool.give(part);
        Ok(())
    }

    fn blocks_backward(&self, kernels: &dyn Kernels, c: &BwdCall<'_, HostMem>) -> Result<(), DeviceError> {
        let f = &c.fwd;
        let table = Table::read(f)?;
        let (tq, tk) = table.extent();
        let (h, hk, d, dv) = (f.heads_q, f.heads_kv, f.head_dim, f.v_head_dim);
        let (q_rows, kv_rows) = table.rows();
        let mask = mask_of(f.table.spec.mask);
        let q_shape = Shape { batch: 1, rows: tq, heads: h, elems: d + 2 * dv + 1 };
        let kv_shape = Shape { batch: 1, rows: tk, heads: hk, elems: d + dv };
        let dq_shape = Shape { batch: 1, rows: tq, heads: h, elems: d };
        let (mut dq, mut dkv) = (self.pool.zeros(dq_shape.len()), self.pool.zeros(kv_shape.len()));
        {
            let views = Views::new(vec![f.q.0, f.k.0, f.v.0, c.d_out.0, f.lse.0, c.delta.0]);
            let (q, d_out) = (self.inputs(&views, f.q, tq * h * d)?, self.inputs(&views, c.d_out, tq * h * dv)?);
            let (lse, delta) = (views.f32s(f.lse, tq * h)?, views.f32s(c.delta, tq * h)?);
            // The host kernels' query bundle: q, o (unread: D is given), do, lse per row and head.
            let mut bundle = self.pool.take(q_shape.len());
            for (i, row) in bundle.chunks_mut(d + 2 * dv + 1).enumerate() {
                row[..d].copy_from_slice(&q[i * d..(i + 1) * d]);
                row[d..d + dv].fill(0.0);
                row[d + dv..d + 2 * dv].copy_from_slice(&d_out[i * dv..(i + 1) * dv]);
                row[d + 2 * dv] = lse[i];
            }
            let kv = self.kv_rows(&views, f, tk)?;
            let block = Block {
                head_dim: d,
                v_head_dim: dv,
                scale: f.scale,
                score: f.table.spec.score,
                head_values: f.head_values,
                mask: &mask,
                q: &bundle,
                q_shape,
                q_rows: &q_rows,
                kv: &kv,
                kv_shape,
                kv_rows: &kv_rows,
                delta: Some(delta),
            };
            kernels.backward(&block, &mut dq, dq_shape, &mut dkv, kv_shape).map_err(DeviceError::Kernel)?;
            self.pool.give(bundle);
            self.pool.give(kv);
        }
        accumulate(c.dq, &dq, 0)?;
        // dK and dV are planes of one allocation: added in place, row by row (dK the first `d` of
        // each dkv row, dV the `dv` after them).
        let add = |mem: &mut [u8], at: usize, part: usize| -> Result<(), DeviceError> {
            let (w, from) = if part == 0 { (d, 0) } else { (dv, d) };
            let dst: &mut [f32] = values_mut(&mut mem[at..at + tk * hk * w * 4])?;
            for (x, row) in dst.chunks_mut(w).zip(dkv.chunks(d + dv)) {
                for (a, b) in x.iter_mut().zip(&row[from..from + w]) {
                    *a += b;
                }
            }
            Ok(())
        };
        if std::ptr::eq(c.dk.0, c.dv.0) {
            c.dk.0.view_mut(0, c.dk.0.len, |mem| add(mem, c.dk.1, 0).and_then(|()| add(mem, c.dv.1, 1)))??;
        } else {
            c.dk.0.view_mut(0, c.dk.0.len, |mem| add(mem, c.dk.1, 0))??;
            c.dv.0.view_mut(0, c.dv.0.len, |mem| add(mem, c.dv.1, 1))??;
        }
        self.pool.give(dq);
        self.pool.give(dkv);
        Ok(())
    }

    /// The emulated ABI takes 16-bit inputs, as the GPU kernels do.
    fn emulable(&self) -> Result<(), DeviceError> {
        match Elem::input(self.dtype) {
            Elem::Half => Ok(()),
            Elem::F32 => Err(DeviceError::Unsupported(format!(
                "the GPU kernel ABI takes bf16 or fp16 inputs, not {}; fp32 runs on the host kernels (--kernels reference|interpreter|cranelift|llvm-cpu)",
                self.dtype.name()
            ))),
        }
    }

    /// The launch as the emulator takes it: whole planes up to the table's last row, the table's
    /// arrays read back from the table memory.
    fn launch(&self, c: &FwdCall<'_, HostMem>) -> Result<FwdLaunch, DeviceError> {
        let table = Table::read(c)?;
        let (tq, tk) = table.extent();
        let (dq, dk, dv) = (c.heads_q * c.head_dim, c.heads_kv * c.head_dim, c.heads_kv * c.v_head_dim);
        Ok(FwdLaunch {
            heads_q: c.heads_q,
            heads_kv: c.heads_kv,
            head_dim: c.head_dim,
            v_head_dim: c.v_head_dim,
            q: u16s(&read(c.q, tq * dq * 2)?),
            k: u16s(&read(c.k, tk * dk * 2)?),
            v: u16s(&read(c.v, tk * dv * 2)?),
            cu_q: table.cu_q,
            cu_kv: table.cu_kv,
            pos_q: table.pos_q,
            pos_kv: table.pos_kv,
            scale: c.scale,
            head_values: c.head_values.to_vec(),
        })
    }
}

/// Adds `values[from..]` into the fp32 region's elements `from..` (what atomics do on a GPU).
fn accumulate(region: (&HostMem, usize), values: &[f32], from: usize) -> Result<(), DeviceError> {
    let n = values.len() - from;
    region.0.view_mut(region.1 + from * 4, n * 4, |bytes| {
        let dst: &mut [f32] = values_mut(bytes)?;
        for (c, v) in dst.iter_mut().zip(&values[from..]) {
            *c += v;
        }
        Ok(())
    })?
}

/// `f(src, dst)` on two regions: one lock when they share an allocation (`src` copied out
/// first), else the source read-locked and the destination write-locked.
fn with_pair(
    src: (&HostMem, usize),
    src_len: usize,
    dst: (&HostMem, usize),
    dst_len: usize,
    f: impl FnOnce(&[u8], &mut [u8]) -> Result<(), DeviceError>,
) -> Result<(), DeviceError> {
    if std::ptr::eq(src.0, dst.0) {
        let from = read(src, src_len)?;
        return dst.0.view_mut(dst.1, dst_len, |d| f(&from, d))?;
    }
    src.0.view(src.1, src_len, |s| dst.0.view_mut(dst.1, dst_len, |d| f(s, d)))??
}

impl Device for HostDevice<'_> {
    type Mem = HostMem;
    type Signal = ();
    type Stamp = std::time::Instant;

    fn alloc(&self, _rank: u32, bytes: usize) -> Result<HostMem, DeviceError> {
        Ok(HostMem::new(bytes))
    }

    fn upload(&self, _rank: u32, _stream: usize, dst: (&HostMem, usize), data: &[u8]) -> Result<(), DeviceError> {
        write(dst, data)
    }

    fn download(&self, _rank: u32, _stream: usize, src: (&HostMem, usize), len: usize) -> Result<Vec<u8>, DeviceError> {
        read(src, len)
    }

    fn copy(
        &self,
        _rank: u32,
        _stream: usize,
        src: (&HostMem, usize),
        dst: (&HostMem, usize),
        len: usize,
    ) -> Result<(), DeviceError> {
        with_pair(src, len, dst, len, |s, d| {
            d.copy_from_slice(s);
            Ok(())
        })
    }

    fn copy_2d(&self, _rank: u32, _stream: usize, rows: Rows2d<'_, HostMem>) -> Result<(), DeviceError> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        if height == 0 {
            return Ok(());
        }
        let (src_len, dst_len) = ((height - 1) * src_pitch + width, (height - 1) * dst_pitch + width);
        with_pair(src, src_len, dst, dst_len, |s, d| {
            for r in 0..height {
                d[r * dst_pitch..][..width].copy_from_slice(&s[r * src_pitch..][..width]);
            }
            Ok(())
        })
    }

    fn add_2d(&self, _rank: u32, _stream: usize, rows: Rows2d<'_, HostMem>) -> Result<(), DeviceError> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        if height == 0 {
            return Ok(());
        }
        let (src_len, dst_len) = (((height - 1) * src_pitch + width) * 4, ((height - 1) * dst_pitch + width) * 4);
        with_pair(src, src_len, dst, dst_len, |s, d| {
            let (s, d): (&[f32], &mut [f32]) = (values(s)?, values_mut(d)?);
            for r in 0..height {
                for (a, b) in d[r * dst_pitch..][..width].iter_mut().zip(&s[r * src_pitch..][..width]) {
                    *a += b;
                }
            }
            Ok(())
        })
    }

    fn fill(
        &self,
        _rank: u32,
        _stream: usize,
        dst: (&HostMem, usize),
        count: usize,
        value: f32,
    ) -> Result<(), DeviceError> {
        dst.0.view_mut(dst.1, count * 4, |b| values_mut::<f32>(b).map(|v| v.fill(value)))?
    }

    fn signal(&self, _rank: u32, _stream: usize) -> Result<(), DeviceError> {
        Ok(())
    }

    fn wait(&self, _rank: u32, _stream: usize, _signal: &()) -> Result<(), DeviceError> {
        Ok(())
    }

    fn stamp(&self, _rank: u32, _stream: usize) -> Result<std::time::Instant, DeviceError> {
        Ok(std::time::Instant::now())
    }

    fn seconds(&self, from: &std::time::Instant, to: &std::time::Instant) -> Result<f64, DeviceError> {
        Ok(to.saturating_duration_since(*from).as_secs_f64())
    }

    fn forward(&self, _rank: u32, _stream: usize, c: &FwdCall<'_, HostMem>) -> Result<(), DeviceError> {
        let launcher = match &self.kernels {
            HostKernels::Blocks(kernels) => return self.blocks_forward(*kernels, c),
            HostKernels::Abi(launcher) => *launcher,
        };
        self.emulable()?;
        let l = self.launch(c)?;
        let r = launcher.forward(&c.table.spec, &l).map_err(DeviceError::Kernel)?;
        let (from, h, dv) = (l.cu_q[0] as usize, c.heads_q, c.v_head_dim);
        write((c.o.0, c.o.1 + from * h * dv * 4), &bytes_of(&r.o[from * h * dv..]))?;
        write((c.lse.0, c.lse.1 + from * h * 4), &bytes_of(&r.lse[from * h..]))
    }

    fn backward(&self, _rank: u32, _stream: usize, c: &BwdCall<'_, HostMem>) -> Result<(), DeviceError> {
        let launcher = match &self.kernels {
            HostKernels::Blocks(kernels) => return self.blocks_backward(*kernels, c),
            HostKernels::Abi(launcher) => *launcher,
        };
        self.emulable()?;
        let fwd = self.launch(&c.fwd)?;
        let (tq, hq, hk, d, dv) = (fwd.tokens_q(), c.fwd.heads_q, c.fwd.heads_kv, c.fwd.head_dim, c.fwd.v_head_dim);
        let launch = BwdLaunch {
            d_out: u16s(&read(c.d_out, tq * hq * dv * 2)?),
            lse: f32s(&read(c.fwd.lse, tq * hq * 4)?),
            delta: f32s(&read(c.delta, tq * hq * 4)?),
            fwd,
        };
        let r = launcher.backward(&c.fwd.table.spec, &launch).map_err(DeviceError::Kernel)?;
        let (q0, k0) = (launch.fwd.cu_q[0] as usize, launch.fwd.cu_kv[0] as usize);
        accumulate(c.dq, &r.dq, q0 * hq * d)?;
        accumulate(c.dk, &r.dk, k0 * hk * d)?;
        accumulate(c.dv, &r.dv, k0 * hk * dv)
    }

    fn merge(
        &self,
        _rank: u32,
        _stream: usize,
        d: usize,
        out: (&HostMem, usize),
        out_lse: (&HostMem, usize),
        part: (&HostMem, usize),
        part_lse: (&HostMem, usize),
        rows: usize,
    ) -> Result<(), DeviceError> {
        let (p, pl) = (f32s(&read(part, rows * d * 4)?), f32s(&read(part_lse, rows * 4)?));
        let merged = |o: &mut [f32], ol: &mut [f32]| {
            let mut acc = vec![0.0f32; d + 1];
            let mut add = vec![0.0f32; d + 1];
            for r in 0..rows {
                acc[..d].copy_from_slice(&o[r * d..(r + 1) * d]);
                acc[d] = ol[r];
                add[..d].copy_from_slice(&p[r * d..(r + 1) * d]);
                add[d] = pl[r];
                crate::kernels::merge(&mut acc, &add);
                o[r * d..(r + 1) * d].copy_from_slice(&acc[..d]);
                ol[r] = acc[d];
            }
        };
        if std::ptr::eq(out.0, out_lse.0) {
            // O and LSE are planes of one allocation: one lock, two disjoint regions.
            let (o_range, l_range) =
                (out.0.range(out.1, rows * d * 4, "write")?, out.0.range(out_lse.1, rows * 4, "write")?);
            if o_range.start < l_range.end && l_range.start < o_range.end {
                return Err(DeviceError::Memory("merge: the output and its LSE overlap".to_string()));
            }
            return out.0.view_mut(0, out.0.len, |mem| {
                let (lo, hi) = mem.split_at_mut(o_range.start.max(l_range.start));
                let (o, l) = if o_range.start < l_range.start {
                    (&mut lo[o_range], &mut hi[..l_range.len()])
                } else {
                    (&mut hi[..o_range.len()], &mut lo[l_range])
                };
                merged(values_mut(o)?, values_mut(l)?);
                Ok(())
            })?;
        }
        let (mut o, mut ol) = (f32s(&read(out, rows * d * 4)?), f32s(&read(out_lse, rows * 4)?));
        merged(&mut o, &mut ol);
        write(out, &bytes_of(&o))?;
        write(out_lse, &bytes_of(&ol))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_errors_say_their_kind() {
        let device = HostDevice::emulated(Dtype::Fp32);
        let mem = device.alloc(0, 16).unwrap();
        match device.download(0, 0, (&mem, 8), 16) {
            Err(DeviceError::Memory(m)) => assert_eq!(m, "read of 16 bytes at 8 past an allocation of 16"),
            other => panic!("{other:?}"),
        }
        match device.emulable() {
            Err(DeviceError::Unsupported(m)) => assert!(m.contains("takes bf16 or fp16 inputs, not fp32"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(HostDevice::emulated(Dtype::Bf16).emulable(), Ok(()));
    }
}
