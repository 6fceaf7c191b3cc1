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

use std::sync::Mutex;

use attnc_compiler::sema::spec::Dtype;

use attnc_compiler::kernel::KernelMask;

use super::{BwdCall, Device, Elem, FwdCall, Rows2d};
use crate::kernels::{Block, Kernels, Mask, Row, Shape};
use crate::packed::{BwdLaunch, Emulated, FwdLaunch, Launcher, from_bits};

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
}

impl HostDevice<'static> {
    /// The GPU kernel ABI's CPU emulation as kernels.
    pub fn emulated(dtype: Dtype) -> HostDevice<'static> {
        HostDevice { dtype, kernels: HostKernels::Abi(&Emulated) }
    }
}

impl<'k> HostDevice<'k> {
    /// Launches of the GPU kernel ABI through `launcher`.
    pub fn with_launcher(dtype: Dtype, launcher: &'k dyn Launcher) -> HostDevice<'k> {
        HostDevice { dtype, kernels: HostKernels::Abi(launcher) }
    }

    /// A host kernel set as kernels.
    pub fn with_kernels(dtype: Dtype, kernels: &'k dyn Kernels) -> HostDevice<'k> {
        HostDevice { dtype, kernels: HostKernels::Blocks(kernels) }
    }
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

/// A launch's sequence table, read back from the table memory.
struct Table {
    cu_q: Vec<i32>,
    cu_kv: Vec<i32>,
    pos_q: Vec<i64>,
    pos_kv: Vec<i64>,
}

impl Table {
    fn read(c: &FwdCall<'_, HostMem>) -> Result<Table, String> {
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
    /// run meets only its own sequence's keys.
    fn rows(&self) -> (Vec<Row>, Vec<Row>) {
        let (mut q_rows, mut kv_rows) = (Vec::new(), Vec::new());
        for (doc, (q, kv, pq, pk)) in self.real().enumerate() {
            let at = |pos: u64, first: usize| {
                move |row: usize| Row { row, token: pos + (row - first) as u64, doc, pad: false }
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
        KernelMask::None => Mask { causal: false, window: None },
        KernelMask::Causal => Mask { causal: true, window: None },
        KernelMask::Window { window } => Mask { causal: true, window: Some(window) },
    }
}

impl HostDevice<'_> {
    /// An input plane's values (16-bit or fp32) as fp32.
    fn inputs(&self, region: (&HostMem, usize), count: usize) -> Result<Vec<f32>, String> {
        Ok(match Elem::input(self.dtype) {
            Elem::Half => u16s(&read(region, count * 2)?).into_iter().map(|x| from_bits(self.dtype, x)).collect(),
            Elem::F32 => f32s(&read(region, count * 4)?),
        })
    }

    /// K and V planes interleaved per row and head (`[rows][heads][k(d), v(d)]`), as the host
    /// kernels read them.
    fn kv_rows(&self, c: &FwdCall<'_, HostMem>, rows: usize) -> Result<Vec<f32>, String> {
        let (n, d) = (rows * c.heads_kv, c.head_dim);
        let (k, v) = (self.inputs(c.k, n * d)?, self.inputs(c.v, n * d)?);
        let mut kv = vec![0.0f32; n * 2 * d];
        for (i, row) in kv.chunks_mut(2 * d).enumerate() {
            row[..d].copy_from_slice(&k[i * d..(i + 1) * d]);
            row[d..].copy_from_slice(&v[i * d..(i + 1) * d]);
        }
        Ok(kv)
    }

    fn blocks_forward(&self, kernels: &dyn Kernels, c: &FwdCall<'_, HostMem>) -> Result<(), String> {
        let table = Table::read(c)?;
        let (tq, tk) = table.extent();
        let (h, hk, d) = (c.heads_q, c.heads_kv, c.head_dim);
        let q = self.inputs(c.q, tq * h * d)?;
        let kv = self.kv_rows(c, tk)?;
        let (q_rows, kv_rows) = table.rows();
        let mask = mask_of(c.table.spec.mask);
        let block = Block {
            head_dim: d,
            scale: c.scale,
            mask: &mask,
            q: &q,
            q_shape: Shape { batch: 1, rows: tq, heads: h, elems: d },
            q_rows: &q_rows,
            kv: &kv,
            kv_shape: Shape { batch: 1, rows: tk, heads: hk, elems: 2 * d },
            kv_rows: &kv_rows,
            delta: None,
        };
        let part_shape = Shape { batch: 1, rows: tq, heads: h, elems: d + 1 };
        let mut part = vec![0.0f32; part_shape.len()];
        kernels.forward(&block, &mut part, part_shape)?;
        // Only the real sequences' rows: filler rows keep what the executor put there.
        for (rows, ..) in table.real() {
            let n = rows.len() * h;
            let (mut o, mut lse) = (Vec::with_capacity(n * d), Vec::with_capacity(n));
            for row in part[rows.start * h * (d + 1)..rows.end * h * (d + 1)].chunks(d + 1) {
                o.extend_from_slice(&row[..d]);
                lse.push(row[d]);
            }
            write((c.o.0, c.o.1 + rows.start * h * d * 4), &bytes_of(&o))?;
            write((c.lse.0, c.lse.1 + rows.start * h * 4), &bytes_of(&lse))?;
        }
        Ok(())
    }

    fn blocks_backward(&self, kernels: &dyn Kernels, c: &BwdCall<'_, HostMem>) -> Result<(), String> {
        let f = &c.fwd;
        let table = Table::read(f)?;
        let (tq, tk) = table.extent();
        let (h, hk, d) = (f.heads_q, f.heads_kv, f.head_dim);
        let (q, d_out) = (self.inputs(f.q, tq * h * d)?, self.inputs(c.d_out, tq * h * d)?);
        let (lse, delta) = (f32s(&read(f.lse, tq * h * 4)?), f32s(&read(c.delta, tq * h * 4)?));
        // The host kernels' query bundle: q, o (unread: D is given), do, lse per row and head.
        let mut bundle = vec![0.0f32; tq * h * (3 * d + 1)];
        for (i, row) in bundle.chunks_mut(3 * d + 1).enumerate() {
            row[..d].copy_from_slice(&q[i * d..(i + 1) * d]);
            row[2 * d..3 * d].copy_from_slice(&d_out[i * d..(i + 1) * d]);
            row[3 * d] = lse[i];
        }
        let kv = self.kv_rows(f, tk)?;
        let (q_rows, kv_rows) = table.rows();
        let mask = mask_of(f.table.spec.mask);
        let q_shape = Shape { batch: 1, rows: tq, heads: h, elems: 3 * d + 1 };
        let kv_shape = Shape { batch: 1, rows: tk, heads: hk, elems: 2 * d };
        let block = Block {
            head_dim: d,
            scale: f.scale,
            mask: &mask,
            q: &bundle,
            q_shape,
            q_rows: &q_rows,
            kv: &kv,
            kv_shape,
            kv_rows: &kv_rows,
            delta: Some(&delta),
        };
        let dq_shape = Shape { batch: 1, rows: tq, heads: h, elems: d };
        let (mut dq, mut dkv) = (vec![0.0f32; dq_shape.len()], vec![0.0f32; kv_shape.len()]);
        kernels.backward(&block, &mut dq, dq_shape, &mut dkv, kv_shape)?;
        accumulate(c.dq, &dq, 0)?;
        let (mut dk, mut dv) = (Vec::with_capacity(tk * hk * d), Vec::with_capacity(tk * hk * d));
        for row in dkv.chunks(2 * d) {
            dk.extend_from_slice(&row[..d]);
            dv.extend_from_slice(&row[d..]);
        }
        accumulate(c.dk, &dk, 0)?;
        accumulate(c.dv, &dv, 0)
    }

    /// The emulated ABI takes 16-bit inputs, as the GPU kernels do.
    fn emulable(&self) -> Result<(), String> {
        match Elem::input(self.dtype) {
            Elem::Half => Ok(()),
            Elem::F32 => Err(format!(
                "the GPU kernel ABI takes bf16 or fp16 inputs, not {}; fp32 runs on the host kernels (--kernels reference|interpreter|cranelift|llvm-cpu)",
                self.dtype.name()
            )),
        }
    }

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

impl Device for HostDevice<'_> {
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
        let launcher = match &self.kernels {
            HostKernels::Blocks(kernels) => return self.blocks_forward(*kernels, c),
            HostKernels::Abi(launcher) => *launcher,
        };
        self.emulable()?;
        let l = self.launch(c)?;
        let r = launcher.forward(&c.table.spec, &l)?;
        let (from, h, d) = (l.cu_q[0] as usize, c.heads_q, c.head_dim);
        write((c.o.0, c.o.1 + from * h * d * 4), &bytes_of(&r.o[from * h * d..]))?;
        write((c.lse.0, c.lse.1 + from * h * 4), &bytes_of(&r.lse[from * h..]))
    }

    fn backward(&self, _rank: u32, _stream: usize, c: &BwdCall<'_, HostMem>) -> Result<(), String> {
        let launcher = match &self.kernels {
            HostKernels::Blocks(kernels) => return self.blocks_backward(*kernels, c),
            HostKernels::Abi(launcher) => *launcher,
        };
        self.emulable()?;
        let fwd = self.launch(&c.fwd)?;
        let (tq, hq, hk, d) = (fwd.tokens_q(), c.fwd.heads_q, c.fwd.heads_kv, c.fwd.head_dim);
        let launch = BwdLaunch {
            d_out: u16s(&read(c.d_out, tq * hq * d * 2)?),
            lse: f32s(&read(c.fwd.lse, tq * hq * 4)?),
            delta: f32s(&read(c.delta, tq * hq * 4)?),
            fwd,
        };
        let r = launcher.backward(&c.fwd.table.spec, &launch)?;
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
