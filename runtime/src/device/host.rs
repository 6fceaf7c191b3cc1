//! A [`Device`] in host memory: allocations are byte vectors, every call runs at once, and the
//! kernels are the CPU emulation of the GPU kernel ABI (`packed::Emulated`), reading and writing
//! the same planes and launch tables a GPU would. CI runs the device executor on it, so the
//! layouts, tables, fillers, merges and transfers are tested without a GPU; on a GPU only the
//! kernels and the driver calls differ.
//!
//! Every call copies what it reads out of an allocation before it writes another, so no two locks
//! are ever held together.

use std::sync::Mutex;

use attnc_compiler::sema::spec::Dtype;

use super::{BwdCall, Device, FwdCall, Rows2d};
use crate::packed::{BwdLaunch, Emulated, FwdLaunch, Launcher};

pub struct HostDevice {
    /// The dtype of the 16-bit planes.
    pub dtype: Dtype,
}

pub struct HostMem(Mutex<Vec<u8>>);

fn read(region: (&HostMem, usize), len: usize) -> Result<Vec<u8>, String> {
    let m = region.0.0.lock().unwrap_or_else(|e| e.into_inner());
    m.get(region.1..region.1 + len)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| format!("read of {len} bytes at {} past an allocation of {}", region.1, m.len()))
}

fn write(region: (&HostMem, usize), data: &[u8]) -> Result<(), String> {
    let mut m = region.0.0.lock().unwrap_or_else(|e| e.into_inner());
    let n = m.len();
    m.get_mut(region.1..region.1 + data.len())
        .ok_or_else(|| format!("write of {} bytes at {} past an allocation of {n}", data.len(), region.1))?
        .copy_from_slice(data);
    Ok(())
}

// Memory is bytes at any alignment: `pod_collect_to_vec` copies into aligned values.
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

impl HostDevice {
    /// The launch as the emulator takes it: whole planes up to the table's last row, the table's
    /// arrays read back from the table memory.
    fn launch(&self, c: &FwdCall<'_, HostMem>) -> Result<FwdLaunch, String> {
        let n = c.table.sequences();
        let cu_q = i32s(&read(c.arrays[0], (n + 1) * 4)?);
        let cu_kv = i32s(&read(c.arrays[1], (n + 1) * 4)?);
        let (tq, tk) = (*cu_q.last().unwrap_or(&0) as usize, *cu_kv.last().unwrap_or(&0) as usize);
        let (dq, dk) = (c.heads_q * c.head_dim, c.heads_kv * c.head_dim);
        Ok(FwdLaunch {
            heads_q: c.heads_q,
            heads_kv: c.heads_kv,
            head_dim: c.head_dim,
            q: u16s(&read(c.q, tq * dq * 2)?),
            k: u16s(&read(c.k, tk * dk * 2)?),
            v: u16s(&read(c.v, tk * dk * 2)?),
            cu_q,
            cu_kv,
            pos_q: i64s(&read(c.arrays[2], n * 8)?),
            pos_kv: i64s(&read(c.arrays[3], n * 8)?),
            scale: c.scale,
        })
    }
}

/// Adds `values[from..]` into the fp32 region's elements `from..` (what atomics do on a GPU).
fn accumulate(region: (&HostMem, usize), values: &[f32], from: usize) -> Result<(), String> {
    let at = (region.0, region.1 + from * 4);
    let mut current = f32s(&read(at, (values.len() - from) * 4)?);
    for (c, v) in current.iter_mut().zip(&values[from..]) {
        *c += v;
    }
    write(at, &bytes_of(&current))
}

impl Device for HostDevice {
    type Mem = HostMem;
    type Signal = ();
    type Stamp = std::time::Instant;

    fn alloc(&self, _rank: u32, bytes: usize) -> Result<HostMem, String> {
        Ok(HostMem(Mutex::new(vec![0; bytes])))
    }

    fn upload(&self, _rank: u32, _stream: usize, dst: (&HostMem, usize), data: &[u8]) -> Result<(), String> {
        write(dst, data)
    }

    fn download(&self, _rank: u32, _stream: usize, src: (&HostMem, usize), len: usize) -> Result<Vec<u8>, String> {
        read(src, len)
    }

    fn copy(
        &self,
        _rank: u32,
        _stream: usize,
        src: (&HostMem, usize),
        dst: (&HostMem, usize),
        len: usize,
    ) -> Result<(), String> {
        let data = read(src, len)?;
        write(dst, &data)
    }

    fn copy_2d(&self, _rank: u32, _stream: usize, rows: Rows2d<'_, HostMem>) -> Result<(), String> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        for r in 0..height {
            let row = read((src.0, src.1 + r * src_pitch), width)?;
            write((dst.0, dst.1 + r * dst_pitch), &row)?;
        }
        Ok(())
    }

    fn add_2d(&self, _rank: u32, _stream: usize, rows: Rows2d<'_, HostMem>) -> Result<(), String> {
        let Rows2d { src, src_pitch, dst, dst_pitch, width, height } = rows;
        for r in 0..height {
            let add = f32s(&read((src.0, src.1 + r * src_pitch * 4), width * 4)?);
            accumulate((dst.0, dst.1 + r * dst_pitch * 4), &add, 0)?;
        }
        Ok(())
    }

    fn fill(&self, _rank: u32, _stream: usize, dst: (&HostMem, usize), count: usize, value: f32) -> Result<(), String> {
        write(dst, &bytes_of(&vec![value; count]))
    }

    fn signal(&self, _rank: u32, _stream: usize) -> Result<(), String> {
        Ok(())
    }

    fn wait(&self, _rank: u32, _stream: usize, _signal: &()) -> Result<(), String> {
        Ok(())
    }

    fn stamp(&self, _rank: u32, _stream: usize) -> Result<std::time::Instant, String> {
        Ok(std::time::Instant::now())
    }

    fn seconds(&self, from: &std::time::Instant, to: &std::time::Instant) -> Result<f64, String> {
        Ok(to.saturating_duration_since(*from).as_secs_f64())
    }

    fn forward(&self, _rank: u32, _stream: usize, c: &FwdCall<'_, HostMem>) -> Result<(), String> {
        let l = self.launch(c)?;
        let r = Emulated.forward(&c.table.spec, &l)?;
        let (from, h, d) = (l.cu_q[0] as usize, c.heads_q, c.head_dim);
        write((c.o.0, c.o.1 + from * h * d * 4), &bytes_of(&r.o[from * h * d..]))?;
        write((c.lse.0, c.lse.1 + from * h * 4), &bytes_of(&r.lse[from * h..]))
    }

    fn backward(&self, _rank: u32, _stream: usize, c: &BwdCall<'_, HostMem>) -> Result<(), String> {
        let fwd = self.launch(&c.fwd)?;
        let (tq, hq, hk, d) = (fwd.tokens_q(), c.fwd.heads_q, c.fwd.heads_kv, c.fwd.head_dim);
        let launch = BwdLaunch {
            d_out: u16s(&read(c.d_out, tq * hq * d * 2)?),
            lse: f32s(&read(c.fwd.lse, tq * hq * 4)?),
            delta: f32s(&read(c.delta, tq * hq * 4)?),
            fwd,
        };
        let r = Emulated.backward(&c.fwd.table.spec, &launch)?;
        let (q0, k0) = (launch.fwd.cu_q[0] as usize, launch.fwd.cu_kv[0] as usize);
        accumulate(c.dq, &r.dq, q0 * hq * d)?;
        accumulate(c.dk, &r.dk, k0 * hk * d)?;
        accumulate(c.dv, &r.dv, k0 * hk * d)
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
    ) -> Result<(), String> {
        let (mut o, mut ol) = (f32s(&read(out, rows * d * 4)?), f32s(&read(out_lse, rows * 4)?));
        let (p, pl) = (f32s(&read(part, rows * d * 4)?), f32s(&read(part_lse, rows * 4)?));
        let mut acc = vec![0.0f32; d + 1];
        let mut add = vec![0.0f32; d + 1];
        for r in 0..rows {
            acc[..d].copy_from_slice(&o[r * d..(r + 1) * d]);
            acc[d] = ol[r];
            add[..d].copy_from_slice(&p[r * d..(r + 1) * d]);
            add[d] = pl[r];
            crate::exec::merge(&mut acc, &add);
            o[r * d..(r + 1) * d].copy_from_slice(&acc[..d]);
            ol[r] = acc[d];
        }
        write(out, &bytes_of(&o))?;
        write(out_lse, &bytes_of(&ol))
    }
}
