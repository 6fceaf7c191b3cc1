//! A [`Device`] in host memory: allocations are byte vectors and every call runs at once. Its
//! kernels are any kernel set of the launch ABI ([`Kernels`]: the reference, the kernel-IR
//! interpreter, Cranelift, LLVM host), fed the same planes and launch tables a GPU is: every
//! launch reads its planes up to the table's last row, runs, and writes O and LSE (or adds dQ,
//! dK, dV) back over the table's rows. Every CPU run goes through the device executor on this
//! device, so CI exercises what a GPU run executes; on a GPU only the kernels and the driver
//! calls differ. The GPU ABI's emulation is this device with the reference kernels and the GPU's
//! rule on inputs (16-bit only).
//!
//! Every call copies what it reads out of an allocation before it writes another, so no two locks
//! are ever held together.

use std::borrow::Cow;
use std::sync::{RwLock, RwLockReadGuard};

use attnc_compiler::spec::Dtype;

use super::{BwdCall, Device, DeviceError, Elem, FwdCall, Rows2d};
use crate::kernels::{BwdLaunch, BwdResult, FwdLaunch, FwdResult, Kernels, Reference, from_bits};
use crate::pool::Pool;

pub struct HostDevice<'k> {
    /// The input dtype (the q, k, v and do planes hold its values: 16 bits, or fp32).
    pub dtype: Dtype,
    pub kernels: &'k dyn Kernels,
    /// The GPU kernel ABI's rule: 16-bit inputs only (`emulated`).
    gpu_inputs: bool,
    pool: Pool,
}

impl HostDevice<'static> {
    /// The GPU kernel ABI emulated: the reference kernels, 16-bit inputs only.
    pub fn emulated(dtype: Dtype) -> HostDevice<'static> {
        HostDevice { dtype, kernels: &Reference, gpu_inputs: true, pool: Pool::default() }
    }
}

impl<'k> HostDevice<'k> {
    /// A kernel set of the launch ABI.
    pub fn with_kernels(dtype: Dtype, kernels: &'k dyn Kernels) -> HostDevice<'k> {
        HostDevice { dtype, kernels, gpu_inputs: false, pool: Pool::default() }
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

fn i32s(bytes: &[u8]) -> Vec<i32> {
    bytemuck::pod_collect_to_vec(bytes)
}

fn i64s(bytes: &[u8]) -> Vec<i64> {
    bytemuck::pod_collect_to_vec(bytes)
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
}

/// Which part of each row of a plane a launch reads or writes: `width` values of heads
/// `range` of `heads` (all of them, unless the launch computes a class of a per-head mask).
#[derive(Clone, Copy)]
struct Cols {
    heads: usize,
    range: (usize, usize),
    width: usize,
}

impl Cols {
    fn all(&self) -> bool {
        self.range == (0, self.heads)
    }

    /// Values of one row in the launch.
    fn len(&self) -> usize {
        (self.range.1 - self.range.0) * self.width
    }

    /// Row `r`'s part, as element offsets into the plane.
    fn of(&self, r: usize) -> std::ops::Range<usize> {
        let start = (r * self.heads + self.range.0) * self.width;
        start..start + self.len()
    }
}

impl HostDevice<'_> {
    /// `rows` rows of a plane (an input's, 16-bit or fp32, when `input`; else fp32) as fp32: the
    /// whole rows of fp32 planes in place, else copied into a pooled buffer.
    fn plane<'v>(
        &self,
        views: &'v Views<'_>,
        region: (&HostMem, usize),
        rows: usize,
        cols: Cols,
        input: bool,
    ) -> Result<Cow<'v, [f32]>, DeviceError> {
        let count = rows * cols.heads * cols.width;
        let half = input && Elem::input(self.dtype) == Elem::Half;
        if !half && cols.all() {
            return Ok(Cow::Borrowed(views.f32s(region, count)?));
        }
        let mut out = self.pool.take(rows * cols.len());
        let at = |r: usize| (r * cols.len())..((r + 1) * cols.len());
        if half {
            let bits = values::<u16>(views.bytes(region, count * 2)?)?;
            for r in 0..rows {
                for (x, &b) in out[at(r)].iter_mut().zip(&bits[cols.of(r)]) {
                    *x = from_bits(self.dtype, b);
                }
            }
        } else {
            let all = views.f32s(region, count)?;
            for r in 0..rows {
                out[at(r)].copy_from_slice(&all[cols.of(r)]);
            }
        }
        Ok(Cow::Owned(out))
    }

    /// The GPU ABI's emulation takes 16-bit inputs, as the GPU kernels do.
    fn emulable(&self) -> Result<(), DeviceError> {
        match (self.gpu_inputs, Elem::input(self.dtype)) {
            (true, Elem::F32) => Err(DeviceError::Unsupported(format!(
                "the GPU kernel ABI takes bf16 or fp16 inputs, not {}; fp32 runs on the host kernels (--kernels reference|interpreter|cranelift|llvm-cpu)",
                self.dtype.name()
            ))),
            _ => Ok(()),
        }
    }

    /// The launch the kernels take: the planes up to the table's last row (viewed under `views`)
    /// at the call's heads, the table's arrays.
    fn launch<'v>(
        &self,
        views: &'v Views<'_>,
        c: &FwdCall<'_, HostMem>,
        table: Table,
    ) -> Result<FwdLaunch<'v>, DeviceError> {
        let (tq, tk) = table.extent();
        let (q, k, v) = (q_cols(c, c.head_dim), kv_cols(c, c.head_dim), kv_cols(c, c.v_head_dim));
        let n = c.head_values.len() / c.heads_q.max(1);
        Ok(FwdLaunch {
            heads_q: q.range.1 - q.range.0,
            heads_kv: k.range.1 - k.range.0,
            head_dim: c.head_dim,
            v_head_dim: c.v_head_dim,
            q: self.plane(views, c.q, tq, q, true)?,
            k: self.plane(views, c.k, tk, k, true)?,
            v: self.plane(views, c.v, tk, v, true)?,
            cu_q: table.cu_q,
            cu_kv: table.cu_kv,
            pos_q: table.pos_q,
            pos_kv: table.pos_kv,
            scale: c.scale,
            head_values: c.head_values[c.heads.0 * n..c.heads.1 * n].to_vec(),
        })
    }

    /// Converted planes back to the pool.
    fn give<'p>(&self, planes: impl IntoIterator<Item = Cow<'p, [f32]>>) {
        for plane in planes {
            if let Cow::Owned(v) = plane {
                self.pool.give(v);
            }
        }
    }
}

/// The columns of a call's query-side planes (q, o, do; lse and delta at `width` 1).
fn q_cols(c: &FwdCall<'_, HostMem>, width: usize) -> Cols {
    Cols { heads: c.heads_q, range: c.heads, width }
}

/// The columns of a call's KV-side planes (k, v, dk, dv).
fn kv_cols(c: &FwdCall<'_, HostMem>, width: usize) -> Cols {
    Cols { heads: c.heads_kv, range: c.kv_heads(), width }
}

/// Writes (or adds, for gradients: what atomics do on a GPU) `values`, rows `from..` of a
/// launch's output at `cols`, into the fp32 plane's rows `from..`.
fn put(region: (&HostMem, usize), values: &[f32], from: usize, cols: Cols, add: bool) -> Result<(), DeviceError> {
    let rows = values.len() / cols.len().max(1);
    if rows <= from {
        return Ok(());
    }
    let first = cols.of(from).start;
    let span = cols.of(rows - 1).end - first;
    region.0.view_mut(region.1 + first * 4, span * 4, |bytes| {
        let dst: &mut [f32] = values_mut(bytes)?;
        for r in from..rows {
            let (d, src) = (cols.of(r), &values[r * cols.len()..(r + 1) * cols.len()]);
            let dst = &mut dst[d.start - first..d.end - first];
            if add {
                dst.iter_mut().zip(src).for_each(|(x, v)| *x += v);
            } else {
                dst.copy_from_slice(src);
            }
        }
        Ok(())
    })?
}

/// Adds `values` into the fp32 region, in place.
fn add(region: (&HostMem, usize), values: &[f32]) -> Result<(), DeviceError> {
    region.0.view_mut(region.1, values.len() * 4, |bytes| {
        values_mut::<f32>(bytes)?.iter_mut().zip(values).for_each(|(x, v)| *x += v);
        Ok(())
    })?
}

/// Writes `values` into the fp32 region, in place.
fn store(region: (&HostMem, usize), values: &[f32]) -> Result<(), DeviceError> {
    region.0.view_mut(region.1, values.len() * 4, |bytes| {
        values_mut::<f32>(bytes)?.copy_from_slice(values);
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
        self.emulable()?;
        let table = Table::read(c)?;
        let (o, lse) = (q_cols(c, c.v_head_dim), q_cols(c, 1));
        let tq = table.extent().0;
        // Every row from the first sequence's on is a sequence's (fillers included: no keys, so
        // O = 0 and LSE = −inf), as the GPU kernels write them.
        let from = table.cu_q.first().copied().unwrap_or(0) as usize;
        let mut out = FwdResult { o: self.pool.take(tq * o.len()), lse: self.pool.take(tq * lse.len()) };
        {
            let views = Views::new(vec![c.q.0, c.k.0, c.v.0]);
            let l = self.launch(&views, c, table)?;
            let r = self.kernels.forward(&c.table.spec, &l, &mut out);
            self.give([l.q, l.k, l.v]);
            r.map_err(DeviceError::Kernel)?;
        }
        put(c.o, &out.o, from, o, false)?;
        put(c.lse, &out.lse, from, lse, false)?;
        self.pool.give(out.o);
        self.pool.give(out.lse);
        Ok(())
    }

    fn backward(&self, _rank: u32, _stream: usize, c: &BwdCall<'_, HostMem>) -> Result<(), DeviceError> {
        self.emulable()?;
        let f = &c.fwd;
        let table = Table::read(f)?;
        let (d, dv) = (f.head_dim, f.v_head_dim);
        let ((tq, tk), q0, k0) = (table.extent(), table.cu_q[0] as usize, table.cu_kv[0] as usize);
        let (dq, dk, dvc, stat) = (q_cols(f, d), kv_cols(f, d), kv_cols(f, dv), q_cols(f, 1));
        let mut out = BwdResult {
            dq: self.pool.take(tq * dq.len()),
            dk: self.pool.take(tk * dk.len()),
            dv: self.pool.take(tk * dvc.len()),
            dparams: Vec::new(),
        };
        {
            let views = Views::new(vec![f.q.0, f.k.0, f.v.0, c.d_out.0, f.lse.0, c.delta.0]);
            let launch = BwdLaunch {
                d_out: self.plane(&views, c.d_out, tq, q_cols(f, dv), true)?,
                lse: self.plane(&views, f.lse, tq, stat, false)?,
                delta: self.plane(&views, c.delta, tq, stat, false)?,
                fwd: self.launch(&views, f, table)?,
            };
            let r = self.kernels.backward(&f.table.spec, &launch, &mut out);
            self.give([launch.d_out, launch.lse, launch.delta, launch.fwd.q, launch.fwd.k, launch.fwd.v]);
            r.map_err(DeviceError::Kernel)?;
        }
        put(c.dq, &out.dq, q0, dq, true)?;
        put(c.dk, &out.dk, k0, dk, true)?;
        put(c.dv, &out.dv, k0, dvc, true)?;
        if let Some(region) = c.dparams {
            // The call's heads' gradients, `[heads][params]` from the range's first head.
            let at = (region.0, region.1 + f.heads.0 * c.params() * 4);
            add(at, &out.dparams)?;
        }
        for g in [out.dq, out.dk, out.dv] {
            self.pool.give(g);
        }
        Ok(())
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
        store(out, &o)?;
        store(out_lse, &ol)
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
