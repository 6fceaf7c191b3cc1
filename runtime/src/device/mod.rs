//! Plans on device memory: buffer layouts as planes, attention blocks as launch tables, and the
//! [`Device`] interface that the executor (`crate::exec`) drives.
//!
//! On a GPU a plan's buffers live in device memory, allocated once per plan (one allocation per
//! storage: the ring's two KV slots are two storages), in the layout the GPU kernel ABI reads:
//! each buffer is a few *planes* `[batch][rows][heads][w]` (16-bit q, k, v, do; fp32 o, lse,
//! delta, dq, dk, dv), so the kernels see a packed THD batch whose rows are the buffer's rows.
//! An attention op becomes one or more launches over a table of sequences (`cu_q`, `cu_kv`,
//! `pos_q`, `pos_kv`) built once when the plan is set up: every same-sequence pair of query and
//! KV runs is a sequence; since the ABI's sequences are consecutive row ranges, pairs are laid out
//! in chains whose query and KV runs both move forward, with empty filler sequences over the rows
//! between them (a filler has no keys or no queries, so it writes `o = 0, lse = −inf` or nothing).
//! A block that needs more than one launch merges the later launches' outputs into its partial
//! with the merge kernel.
//!
//! Implementations: [`host::HostDevice`] (memory on the host, the ABI's CPU emulation as kernels;
//! what CI runs) and, with the `cuda` feature, `cuda::device::CudaDevice` (every rank of a plan on
//! one GPU, a compute and a CP stream per rank, CUDA events). This module touches no device.

pub mod bench;
pub mod host;
pub mod ptx;
pub mod remote;

use attnc_compiler::ir::{BufKind, Buffer, Problem};
pub use attnc_compiler::kernel::launch::{LaunchTable, launch_tables};
use attnc_compiler::spec::Dtype;

/// The element type of a plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// The input dtype's 16 bits (bf16 or fp16).
    Half,
    F32,
}

impl Elem {
    pub fn bytes(self) -> usize {
        match self {
            Elem::Half => 2,
            Elem::F32 => 4,
        }
    }

    /// The element type of the input planes (q, k, v, do) for a dtype: its own 16 bits, or fp32.
    pub fn input(dtype: Dtype) -> Elem {
        match dtype {
            Dtype::Fp32 => Elem::F32,
            Dtype::Bf16 | Dtype::Fp16 => Elem::Half,
        }
    }
}

/// What the planes of a plan's buffers depend on: the batch, the head dims and the input planes'
/// element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub batch: usize,
    /// The query/key head dim.
    pub head_dim: usize,
    /// The value/output head dim (MLA's differs).
    pub v_head_dim: usize,
    pub input: Elem,
}

impl Dims {
    pub fn of(p: &Problem) -> Dims {
        Dims {
            batch: p.batch as usize,
            head_dim: p.head_dim as usize,
            v_head_dim: p.v_dim() as usize,
            input: Elem::input(p.dtype),
        }
    }
}

/// What a plane holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaneKind {
    Q,
    K,
    V,
    DOut,
    O,
    Lse,
    Delta,
    Dq,
    Dk,
    Dv,
}

impl PlaneKind {
    /// The plane's element type when the input planes hold `input`.
    pub fn elem(self, input: Elem) -> Elem {
        match self {
            PlaneKind::Q | PlaneKind::K | PlaneKind::V | PlaneKind::DOut => input,
            _ => Elem::F32,
        }
    }

    /// Values per row and head: the query/key head dim (q, k and their gradients), the value
    /// head dim (v, o, do, dv), or one for the per-row statistics.
    pub fn width(self, dims: Dims) -> usize {
        match self {
            PlaneKind::Lse | PlaneKind::Delta => 1,
            PlaneKind::Q | PlaneKind::K | PlaneKind::Dq | PlaneKind::Dk => dims.head_dim,
            PlaneKind::V | PlaneKind::DOut | PlaneKind::O | PlaneKind::Dv => dims.v_head_dim,
        }
    }
}

/// The planes of a buffer kind, in storage order.
pub fn planes(kind: BufKind) -> &'static [PlaneKind] {
    match kind {
        BufKind::Q => &[PlaneKind::Q],
        BufKind::Kv => &[PlaneKind::K, PlaneKind::V],
        BufKind::QBundle => &[PlaneKind::Q, PlaneKind::DOut, PlaneKind::Lse, PlaneKind::Delta],
        BufKind::OPart | BufKind::OAcc | BufKind::Out => &[PlaneKind::O, PlaneKind::Lse],
        BufKind::DqAcc => &[PlaneKind::Dq],
        BufKind::DkvAcc => &[PlaneKind::Dk, PlaneKind::Dv],
    }
}

/// Where one plane of a buffer sits in its storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    pub kind: PlaneKind,
    /// Byte offset in the storage.
    pub offset: usize,
    pub bytes: usize,
}

/// The planes of a buffer, packed from offset 0.
pub fn layout(buf: &Buffer, dims: Dims) -> Vec<Plane> {
    let rows_heads = dims.batch * buf.rows as usize * buf.heads as usize;
    let mut offset = 0;
    planes(buf.kind)
        .iter()
        .map(|&kind| {
            let bytes = rows_heads * kind.width(dims) * kind.elem(dims.input).bytes();
            let p = Plane { kind, offset, bytes };
            // Every plane starts 256-byte aligned (vector loads and cp.async need 16).
            offset += bytes.div_ceil(256) * 256;
            p
        })
        .collect()
}

/// Bytes a buffer takes in its storage.
pub fn buffer_bytes(buf: &Buffer, dims: Dims) -> usize {
    layout(buf, dims).last().map_or(0, |p| (p.offset + p.bytes).div_ceil(256) * 256)
}

pub fn plane(buf: &Buffer, dims: Dims, kind: PlaneKind) -> Plane {
    *layout(buf, dims).iter().find(|p| p.kind == kind).expect("the buffer kind has this plane")
}

/// A launch table as the bytes a device reads: cu_q, cu_kv (i32), then pos_q, pos_kv (i64), each
/// 8-byte aligned; returns the bytes and the four offsets.
pub fn encode(table: &LaunchTable) -> (Vec<u8>, [usize; 4]) {
    let mut bytes = Vec::new();
    let mut offsets = [0; 4];
    let align = |b: &mut Vec<u8>| b.resize(b.len().div_ceil(8) * 8, 0);
    offsets[0] = bytes.len();
    bytes.extend_from_slice(bytemuck::cast_slice(&table.cu_q));
    align(&mut bytes);
    offsets[1] = bytes.len();
    bytes.extend_from_slice(bytemuck::cast_slice(&table.cu_kv));
    align(&mut bytes);
    offsets[2] = bytes.len();
    bytes.extend_from_slice(bytemuck::cast_slice(&table.pos_q));
    offsets[3] = bytes.len();
    bytes.extend_from_slice(bytemuck::cast_slice(&table.pos_kv));
    align(&mut bytes);
    (bytes, offsets)
}

/// A strided region of `height` rows of `width`, rows `src_pitch` and `dst_pitch` apart, from
/// `src` to `dst` (buffer, byte offset); the units of width and pitches are the method's
/// (`Device::copy_2d`: bytes, `Device::add_2d`: fp32 values).
pub struct Rows2d<'a, M> {
    pub src: (&'a M, usize),
    pub src_pitch: usize,
    pub dst: (&'a M, usize),
    pub dst_pitch: usize,
    pub width: usize,
    pub height: usize,
}
/// Why a device call failed, by kind; the executor's error adds the rank and the op.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DeviceError {
    /// A region outside its allocation, misaligned, or overlapping another it must not: the
    /// plan's planes and the device's memory disagree.
    #[error("{0}")]
    Memory(String),
    /// A kernel that cannot be found, loaded or run (a kernel directory's, the PTX interpreter's
    /// fault, a host kernel set's refusal).
    #[error("{0}")]
    Kernel(String),
    /// The GPU driver refused a call.
    #[error("{0}")]
    Driver(String),
    /// What this device does not do (fp32 on the emulated 16-bit kernel ABI, a fill value other
    /// than 0 or −inf).
    #[error("{0}")]
    Unsupported(String),
}

/// A device the executor can run plans on. Each call names the rank and stream it is issued on;
/// calls are enqueued in order on that stream (a host device runs them at once). Regions are
/// `(memory, byte offset)`.
pub trait Device: Sync {
    /// One allocation (a storage of a plan, or a rank's launch tables).
    type Mem: Send + Sync;
    /// A point in a stream that another stream (of any rank of the device) can wait for.
    type Signal: Send + Sync;
    /// A point in a stream whose time can be read once the stream has passed it.
    type Stamp: Send + Sync;

    fn alloc(&self, rank: u32, bytes: usize) -> Result<Self::Mem, DeviceError>;
    /// Copies host bytes in; returns when the host buffer may be reused.
    fn upload(&self, rank: u32, stream: usize, dst: (&Self::Mem, usize), data: &[u8]) -> Result<(), DeviceError>;
    /// Copies device bytes out, after everything enqueued on the stream.
    fn download(&self, rank: u32, stream: usize, src: (&Self::Mem, usize), len: usize) -> Result<Vec<u8>, DeviceError>;
    /// Device-to-device copy (the source may be another rank's memory on the same device).
    fn copy(
        &self,
        rank: u32,
        stream: usize,
        src: (&Self::Mem, usize),
        dst: (&Self::Mem, usize),
        len: usize,
    ) -> Result<(), DeviceError>;
    /// `height` rows of `width` bytes, rows `src_pitch` and `dst_pitch` bytes apart (a head slice of
    /// every row: all-to-all, KV head repetition).
    fn copy_2d(&self, rank: u32, stream: usize, rows: Rows2d<'_, Self::Mem>) -> Result<(), DeviceError>;
    /// fp32 `dst += src` over `height` rows of `width` values, pitches in values (the sums of
    /// reduce-scatter and GQA head sums).
    fn add_2d(&self, rank: u32, stream: usize, rows: Rows2d<'_, Self::Mem>) -> Result<(), DeviceError>;
    /// Sets `count` fp32 values to `value` (0 or −inf).
    fn fill(
        &self,
        rank: u32,
        stream: usize,
        dst: (&Self::Mem, usize),
        count: usize,
        value: f32,
    ) -> Result<(), DeviceError>;
    fn signal(&self, rank: u32, stream: usize) -> Result<Self::Signal, DeviceError>;
    /// Marks the current point of a stream for timing.
    fn stamp(&self, rank: u32, stream: usize) -> Result<Self::Stamp, DeviceError>;
    /// Seconds from one stamp to another, waiting until both have been passed.
    fn seconds(&self, from: &Self::Stamp, to: &Self::Stamp) -> Result<f64, DeviceError>;
    fn wait(&self, rank: u32, stream: usize, signal: &Self::Signal) -> Result<(), DeviceError>;
    /// The forward kernel of `args.table.spec` over the table's sequences.
    fn forward(&self, rank: u32, stream: usize, args: &FwdCall<'_, Self::Mem>) -> Result<(), DeviceError>;
    /// The backward kernel (dQ, dK, dV accumulate).
    fn backward(&self, rank: u32, stream: usize, args: &BwdCall<'_, Self::Mem>) -> Result<(), DeviceError>;
    /// `out, out_lse ← merge(out, out_lse, part, part_lse)` over `rows` (token, head) rows of
    /// `head_dim` floats (the output's: a plan's value head dim).
    #[allow(clippy::too_many_arguments)]
    fn merge(
        &self,
        rank: u32,
        stream: usize,
        head_dim: usize,
        out: (&Self::Mem, usize),
        out_lse: (&Self::Mem, usize),
        part: (&Self::Mem, usize),
        part_lse: (&Self::Mem, usize),
        rows: usize,
    ) -> Result<(), DeviceError>;
}

/// The arguments of one forward launch: plane regions, the table's encoded arrays, the shape.
pub struct FwdCall<'a, M> {
    pub table: &'a LaunchTable,
    /// cu_q, cu_kv, pos_q, pos_kv in the rank's table memory.
    pub arrays: [(&'a M, usize); 4],
    pub q: (&'a M, usize),
    pub k: (&'a M, usize),
    pub v: (&'a M, usize),
    pub o: (&'a M, usize),
    pub lse: (&'a M, usize),
    pub heads_q: usize,
    pub heads_kv: usize,
    pub head_dim: usize,
    /// The value/output head dim (v, o, do, dv rows).
    pub v_head_dim: usize,
    pub scale: f32,
    /// The score's per-head values (`Score::head_values`) of the call's query heads, `[heads_q][n]`
    /// (empty unless the score reads the head); the kernels read them as a global array.
    pub head_values: &'a [f32],
    /// The query heads the launch computes, `first..end` of `heads_q` (a class of a mask that
    /// reads the head: `LaunchTable::heads`); whole GQA groups. Rows stay `heads_q` (and
    /// `heads_kv`) heads wide.
    pub heads: (usize, usize),
}

impl<'a, M> FwdCall<'a, M> {
    /// The KV heads of the launch's query heads, `first..end` of `heads_kv`.
    pub fn kv_heads(&self) -> (usize, usize) {
        let group = (self.heads_q / self.heads_kv.max(1)).max(1);
        (self.heads.0 / group, self.heads.1.div_ceil(group))
    }

    /// The call as the GPU kernels take a head range: every region moved to the range's first
    /// query (and KV) head, `heads` from 0, the per-head values of the range. Row strides stay
    /// the buffers' (`heads_q`, `heads_kv`); the grid launches `heads.1` heads. `elem`: the bytes
    /// of an input element.
    pub fn at_heads(&self, elem: usize) -> FwdCall<'a, M> {
        let ((h0, h1), kh0) = (self.heads, self.kv_heads().0);
        let n = self.head_values.len() / self.heads_q.max(1);
        let at = |r: (&'a M, usize), bytes: usize| (r.0, r.1 + bytes);
        FwdCall {
            table: self.table,
            arrays: self.arrays,
            q: at(self.q, h0 * self.head_dim * elem),
            k: at(self.k, kh0 * self.head_dim * elem),
            v: at(self.v, kh0 * self.v_head_dim * elem),
            o: at(self.o, h0 * self.v_head_dim * 4),
            lse: at(self.lse, h0 * 4),
            heads_q: self.heads_q,
            heads_kv: self.heads_kv,
            head_dim: self.head_dim,
            v_head_dim: self.v_head_dim,
            scale: self.scale,
            head_values: &self.head_values[h0 * n..h1 * n],
            heads: (0, h1 - h0),
        }
    }
}

/// A scalar parameter of the GPU kernel ABI (`compiler::back::llvm::nvptx::abi`, in order): a
/// device address, a 64-bit integer or an f32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param {
    Addr(u64),
    I64(i64),
    F32(f32),
}

impl<M> FwdCall<'_, M> {
    /// The forward kernel's parameters up to the scale: q, k, v, O, LSE and the table's four
    /// arrays at `address`, the row strides of q, k/v and O in elements, the scale. The per-head
    /// score values and the tensor maps follow where the kernel reads them, each device passing
    /// them its own way.
    pub fn kernel_params(&self, address: impl Fn((&M, usize)) -> u64) -> Vec<Param> {
        let regions = [self.q, self.k, self.v, self.o, self.lse].into_iter().chain(self.arrays);
        let mut params: Vec<Param> = regions.map(|r| Param::Addr(address(r))).collect();
        // O rows hold the query heads at the value head dim.
        let rows = [self.heads_q * self.head_dim, self.heads_kv * self.head_dim, self.heads_q * self.v_head_dim];
        params.extend(rows.map(|r| Param::I64(r as i64)));
        params.push(Param::F32(self.scale));
        params
    }
}

/// The fields of the tensor maps `maps` over a forward call's planes (`FwdCall::at_heads`: the
/// bases at the range's first heads): each plane's rows of the launch (its last `cu` row), the
/// range's heads, the buffer's row stride; `address` gives a region's device address. The
/// output plane `o` is the call's fp32 O.
pub fn map_fields<M>(
    maps: &[crate::kernel_dir::TensorMapUse],
    c: &FwdCall<'_, M>,
    address: impl Fn((&M, usize)) -> u64,
) -> Result<Vec<crate::kernel_dir::MapFields>, DeviceError> {
    let t = c.table;
    let rows = |cu: &[i32]| cu.last().copied().unwrap_or(0).max(0) as usize;
    let kv_heads = c.kv_heads();
    maps.iter()
        .map(|m| {
            let (region, heads, row, rows) = match m.tensor.as_str() {
                "q" => (c.q, c.heads.1 - c.heads.0, c.heads_q * c.head_dim, rows(&t.cu_q)),
                "k" => (c.k, kv_heads.1 - kv_heads.0, c.heads_kv * c.head_dim, rows(&t.cu_kv)),
                "v" => (c.v, kv_heads.1 - kv_heads.0, c.heads_kv * c.v_head_dim, rows(&t.cu_kv)),
                "o" => (c.o, c.heads.1 - c.heads.0, c.heads_q * c.v_head_dim, rows(&t.cu_q)),
                other => return Err(DeviceError::Kernel(format!("a tensor map of plane `{other}` (q, k, v or o)"))),
            };
            m.fields(address(region), heads, row, rows).map_err(DeviceError::Kernel)
        })
        .collect()
}

pub struct BwdCall<'a, M> {
    pub fwd: FwdCall<'a, M>,
    pub d_out: (&'a M, usize),
    pub delta: (&'a M, usize),
    pub dq: (&'a M, usize),
    pub dk: (&'a M, usize),
    pub dv: (&'a M, usize),
    /// With learned score parameters: their gradients, fp32 `[heads_q][params]` (the call's query
    /// heads), accumulated (Σ dS·∂score/∂param over the call's pairs).
    pub dparams: Option<(&'a M, usize)>,
}

impl<'a, M> BwdCall<'a, M> {
    /// [`FwdCall::at_heads`] for a backward launch (the gradients' regions moved likewise).
    pub fn at_heads(&self, elem: usize) -> BwdCall<'a, M> {
        let f = &self.fwd;
        let (h0, kh0) = (f.heads.0, f.kv_heads().0);
        let at = |r: (&'a M, usize), bytes: usize| (r.0, r.1 + bytes);
        BwdCall {
            fwd: f.at_heads(elem),
            d_out: at(self.d_out, h0 * f.v_head_dim * elem),
            delta: at(self.delta, h0 * 4),
            dq: at(self.dq, h0 * f.head_dim * 4),
            dk: at(self.dk, kh0 * f.head_dim * 4),
            dv: at(self.dv, kh0 * f.v_head_dim * 4),
            dparams: self.dparams.map(|r| at(r, h0 * self.params() * 4)),
        }
    }

    /// The backward kernel's parameters up to the scale: q, k, v, dO, LSE, D, dQ, dK, dV and the
    /// table's four arrays at `address`, the row strides of q, k/v and dK/dV, the scale (the
    /// per-head values and the learned parameters' gradients follow).
    pub fn kernel_params(&self, address: impl Fn((&'a M, usize)) -> u64) -> Vec<Param> {
        let f = &self.fwd;
        let regions = [f.q, f.k, f.v, self.d_out, f.lse, self.delta, self.dq, self.dk, self.dv].into_iter();
        let mut params: Vec<Param> = regions.chain(f.arrays).map(|r| Param::Addr(address(r))).collect();
        let (q_row, kv_row) = ((f.heads_q * f.head_dim) as i64, (f.heads_kv * f.head_dim) as i64);
        params.extend([Param::I64(q_row), Param::I64(kv_row), Param::I64(kv_row), Param::F32(f.scale)]);
        params
    }

    /// How many learned parameters the call's score has.
    pub fn params(&self) -> usize {
        self.fwd.table.spec.score.map_or(0, |s| s.params.len())
    }

    /// The region the GPU kernels add the learned parameters' gradients into: `None` for a score
    /// without parameters, an error when the call lacks it.
    pub fn dparams_region(&self) -> Result<Option<(&'a M, usize)>, DeviceError> {
        match (self.params(), self.dparams) {
            (0, _) => Ok(None),
            (_, Some(r)) => Ok(Some(r)),
            (_, None) => {
                Err(DeviceError::Unsupported("the score has learned parameters and the call no gradient buffer".into()))
            }
        }
    }
}

/// What a GPU kernel measurement (CUDA or the PTX interpreter) measured: the kernel, the backend
/// and the shape; flattened into each record's JSON.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Measured {
    pub kernel: &'static str,
    pub backend: &'static str,
    pub seq: usize,
    pub head_dim: usize,
    pub heads: usize,
    pub causal: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnc_compiler::kernel::{Band, KernelKind, KernelSpec, TILE_KV, TILE_Q};
    use attnc_compiler::spec::Dtype;

    /// Five sequences (i32 starts, i64 positions): each array 8-byte aligned.
    #[test]
    fn tables_encode_aligned() {
        let table = LaunchTable {
            spec: KernelSpec {
                kind: KernelKind::Forward,
                head_dim: 64,
                v_head_dim: None,
                dtype: Dtype::Bf16,
                group: 1,
                mask: Band::NONE,
                score: None,
                tile_q: TILE_Q,
                tile_kv: TILE_KV,
            },
            cu_q: vec![4, 8, 12, 12, 16],
            cu_kv: vec![0, 4, 4, 8, 12],
            pos_q: vec![12, 0, 0, 12],
            pos_kv: vec![0, 0, 4, 0],
            q_ranges: vec![(4, 8), (12, 16)],
            heads: None,
            doc: None,
        };
        let (bytes, offsets) = encode(&table);
        assert_eq!(offsets, [0, 24, 48, 80]);
        assert_eq!(bytes.len(), 112);
        assert_eq!(&bytes[24..28], &0i32.to_le_bytes());
        assert_eq!(&bytes[48..56], &12i64.to_le_bytes());
    }

    /// The parameters every GPU device passes follow the kernels' ABI (`nvptx::FWD_PARAMS`,
    /// `BWD_PARAMS`) in kind and order: region addresses where a pointer is, strides as i64.
    #[cfg(feature = "llvm")]
    #[test]
    fn kernel_params_follow_the_kernel_abi() {
        use attnc_compiler::back::llvm::{BWD_PARAMS, FWD_PARAMS};
        let table = LaunchTable {
            spec: crate::kernels::bench_spec(KernelKind::Forward, 64, Dtype::Bf16, true),
            cu_q: vec![0, 4],
            cu_kv: vec![0, 4],
            pos_q: vec![0],
            pos_kv: vec![0],
            q_ranges: vec![(0, 4)],
            heads: None,
            doc: None,
        };
        let mem = [0u8; 1];
        // Each region's address is its offset, distinct per region.
        let r = |i: usize| (&mem, 1000 * (i + 1));
        let fwd = FwdCall {
            table: &table,
            arrays: [r(5), r(6), r(7), r(8)],
            q: r(0),
            k: r(1),
            v: r(2),
            o: r(3),
            lse: r(4),
            heads_q: 8,
            heads_kv: 2,
            head_dim: 64,
            v_head_dim: 32,
            scale: 0.125,
            head_values: &[],
            heads: (0, 8),
        };
        let bwd = BwdCall { fwd, d_out: r(9), delta: r(10), dq: r(11), dk: r(12), dv: r(13), dparams: None };
        let kinds = |ps: &[Param]| -> Vec<&str> {
            ps.iter()
                .map(|p| match p {
                    Param::Addr(_) => "ptr addrspace(1)",
                    Param::I64(_) => "i64",
                    Param::F32(_) => "float",
                })
                .collect()
        };
        let address = |(_, at): (&[u8; 1], usize)| at as u64;
        let (f, b) = (bwd.fwd.kernel_params(address), bwd.kernel_params(address));
        assert_eq!(kinds(&f), FWD_PARAMS.iter().map(|p| p.1).collect::<Vec<_>>());
        assert_eq!(kinds(&b), BWD_PARAMS.iter().map(|p| p.1).collect::<Vec<_>>());
        // Strides: q rows 8 heads × 64, k/v rows 2 × 64, O rows 8 × 32; dK/dV as k.
        assert_eq!(f[9..], [Param::I64(512), Param::I64(128), Param::I64(256), Param::F32(0.125)]);
        assert_eq!(b[13..], [Param::I64(512), Param::I64(128), Param::I64(128), Param::F32(0.125)]);
        // The backward's regions: q, k, v, dO, LSE, D, dQ, dK, dV, then the arrays.
        let at = [0, 1, 2, 9, 4, 10, 11, 12, 13, 5, 6, 7, 8].map(|i| Param::Addr(1000 * (i + 1)));
        assert_eq!(b[..13], at);
    }
}
