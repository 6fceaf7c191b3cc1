//! `attnc bench kernels` on a device: forward and backward launches of one sequence through the
//! device's own calls (the planes, launch tables and argument arrays the executor passes, tensor
//! maps and all), inputs resident on the device, each launch timed by the caller: CUDA events
//! around repeated launches (`cuda::bench`), or the interpreter's instruction count ([`ptx_sim`]).
//!
//! FLOPs are counted as `attnc bench kernels` counts them on the CPU: 4 · allowed pairs ·
//! head_dim · heads, the backward 2.5× the forward, so GPU and CPU figures compare directly.

use std::sync::atomic::Ordering;
use std::time::Instant;

use attnc_compiler::kernel::KernelKind;
use attnc_compiler::kernel::launch::LaunchTable;
use attnc_compiler::spec::Dtype;
use rand::{Rng, SeedableRng};

use super::ptx::PtxDevice;
use super::{BwdCall, Device, DeviceError, FwdCall, Measured, encode};
use crate::kernels::{bench_spec, to_bits};
use crate::tensor::round;

/// One sequence of `seq` tokens and `heads` heads (MHA), causal or not.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub seq: usize,
    pub head_dim: usize,
    pub heads: usize,
    pub causal: bool,
}

impl Shape {
    /// The forward's FLOPs: 4 · allowed pairs · head_dim · heads.
    pub fn forward_flops(self) -> f64 {
        let pairs = if self.causal { self.seq * (self.seq + 1) / 2 } else { self.seq * self.seq };
        4.0 * pairs as f64 * self.head_dim as f64 * self.heads as f64
    }

    pub fn measured(self, kernel: &'static str, backend: &'static str) -> Measured {
        Measured { kernel, backend, seq: self.seq, head_dim: self.head_dim, heads: self.heads, causal: self.causal }
    }
}

/// Sets up one sequence of `shape` on rank 0 of `device` (uniform inputs in [−1, 1) of `dtype`,
/// seeded) and hands `time` the forward's launch, then the backward's (with the forward's LSE and
/// D = rowsum(dO ∘ O) from its output). `time` runs its launch as often as it likes; the
/// backward's gradients accumulate over the runs.
pub fn launches<D: Device, R>(
    device: &D,
    shape: Shape,
    dtype: Dtype,
    mut time: impl FnMut(&'static str, &mut dyn FnMut() -> Result<(), DeviceError>) -> Result<R, DeviceError>,
) -> Result<[R; 2], DeviceError> {
    let Shape { seq, head_dim, heads, causal } = shape;
    let n = seq * heads * head_dim;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut random = |n: usize| -> Vec<f32> { (0..n).map(|_| round(dtype, rng.random_range(-1.0f32..1.0))).collect() };
    let with = |bytes: &[u8]| -> Result<D::Mem, DeviceError> {
        let m = device.alloc(0, bytes.len())?;
        device.upload(0, 0, (&m, 0), bytes)?;
        Ok(m)
    };
    let table = |kind| LaunchTable {
        spec: bench_spec(kind, head_dim, dtype, causal),
        cu_q: vec![0, seq as i32],
        cu_kv: vec![0, seq as i32],
        pos_q: vec![0],
        pos_kv: vec![0],
        q_ranges: vec![(0, seq)],
        heads: None,
        doc: None,
    };
    let (ft, bt) = (table(KernelKind::Forward), table(KernelKind::Backward));
    let (bytes, offsets) = encode(&ft);
    let arrays = with(&bytes)?;
    // An input plane: the values' 16 bits.
    let input =
        |values: &[f32]| with(bytemuck::cast_slice(&values.iter().map(|&v| to_bits(dtype, v)).collect::<Vec<u16>>()));
    let (q, k, v) = (input(&random(n))?, input(&random(n))?, input(&random(n))?);
    let d_out_values = random(n);
    let d_out = input(&d_out_values)?;
    let rows = seq * heads;
    let zeros = vec![0u8; n * 4];
    let (o, lse, delta) = (with(&zeros)?, with(&zeros[..rows * 4])?, with(&zeros[..rows * 4])?);
    let (dq, dk, dv) = (with(&zeros)?, with(&zeros)?, with(&zeros)?);
    let fwd = |table| FwdCall {
        table,
        arrays: offsets.map(|at| (&arrays, at)),
        q: (&q, 0),
        k: (&k, 0),
        v: (&v, 0),
        o: (&o, 0),
        lse: (&lse, 0),
        heads_q: heads,
        heads_kv: heads,
        head_dim,
        v_head_dim: head_dim,
        scale: 1.0 / (head_dim as f32).sqrt(),
        head_values: &[],
        heads: (0, heads),
    };
    let forward = time("fwd", &mut || device.forward(0, 0, &fwd(&ft)))?;
    // D = rowsum(dO ∘ O) of the forward's output.
    let out: Vec<f32> = bytemuck::pod_collect_to_vec(&device.download(0, 0, (&o, 0), n * 4)?);
    let d: Vec<f32> = out
        .chunks(head_dim)
        .zip(d_out_values.chunks(head_dim))
        .map(|(o, g)| o.iter().zip(g).map(|(a, b)| a * b).sum())
        .collect();
    device.upload(0, 0, (&delta, 0), bytemuck::cast_slice(&d))?;
    let call = BwdCall {
        fwd: fwd(&bt),
        d_out: (&d_out, 0),
        delta: (&delta, 0),
        dq: (&dq, 0),
        dk: (&dk, 0),
        dv: (&dv, 0),
        dparams: None,
    };
    let backward = time("bwd", &mut || device.backward(0, 0, &call))?;
    Ok([forward, backward])
}

/// One interpreted kernel launch (`attnc bench kernels --kernels ptx-sim`): the interpreter's
/// speed, not the kernel's (what a GPU does in microseconds takes it seconds).
#[derive(Clone, Debug, serde::Serialize)]
pub struct PtxBench {
    #[serde(flatten)]
    pub what: Measured,
    /// PTX thread instructions the launch executed.
    pub instructions: u64,
    pub seconds: f64,
    /// Millions of thread instructions per second.
    pub minstr_per_s: f64,
}

/// Forward, then backward, over one bf16 sequence of `shape`, each launched once on the
/// interpreter.
pub fn ptx_sim(device: &PtxDevice, shape: Shape) -> Result<[PtxBench; 2], DeviceError> {
    launches(device, shape, Dtype::Bf16, |kernel, run| {
        let before = device.instructions.load(Ordering::Relaxed);
        let start = Instant::now();
        run()?;
        let seconds = start.elapsed().as_secs_f64();
        let instructions = device.instructions.load(Ordering::Relaxed) - before;
        Ok(PtxBench {
            what: shape.measured(kernel, "ptx-sim"),
            instructions,
            seconds,
            minstr_per_s: instructions as f64 / seconds / 1e6,
        })
    })
}
