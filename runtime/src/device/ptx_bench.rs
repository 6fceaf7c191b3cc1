//! `attnc bench kernels --kernels ptx-sim`: the AOT forward and backward kernels of one sequence
//! interpreted by ptx-sim, measured as PTX thread instructions per second of the interpreter (its
//! speed, not the kernels': what a GPU does in microseconds takes it seconds).

use std::sync::atomic::Ordering;
use std::time::Instant;

use attnc_compiler::kernel::KernelKind;
use attnc_compiler::kernel::launch::LaunchTable;
use attnc_compiler::spec::Dtype;

use super::ptx::PtxDevice;
use super::{BwdCall, Device, DeviceError, FwdCall, encode};
use crate::kernels::bench_spec;

/// One interpreted kernel launch.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PtxBench {
    #[serde(flatten)]
    pub what: crate::device::Measured,
    /// PTX thread instructions the launch executed.
    pub instructions: u64,
    pub seconds: f64,
    /// Millions of thread instructions per second.
    pub minstr_per_s: f64,
}

/// Forward, then backward, over one sequence of `seq` tokens and `heads` heads (bf16 inputs from a
/// fixed pattern), on the interpreter.
pub fn measure(
    device: &PtxDevice,
    seq: usize,
    head_dim: usize,
    heads: usize,
    causal: bool,
) -> Result<Vec<PtxBench>, DeviceError> {
    let n = seq * heads * head_dim;
    let plane = |salt: usize| -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                let x = ((i * 7 + salt * 13) % 17) as f32 / 17.0 - 0.5;
                half::bf16::from_f32(x).to_bits().to_le_bytes()
            })
            .collect()
    };
    let alloc_with = |bytes: Vec<u8>| -> Result<_, DeviceError> {
        let m = device.alloc(0, bytes.len())?;
        device.upload(0, 0, (&m, 0), &bytes)?;
        Ok(m)
    };
    let table = |kind| LaunchTable {
        spec: bench_spec(kind, head_dim, Dtype::Bf16, causal),
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
    let arrays = alloc_with(bytes)?;
    let (q, k, v, d_out) = (alloc_with(plane(1))?, alloc_with(plane(2))?, alloc_with(plane(3))?, alloc_with(plane(4))?);
    let rows = seq * heads;
    let (o, lse) = (device.alloc(0, n * 4)?, device.alloc(0, rows * 4)?);
    let delta = alloc_with(vec![0; rows * 4])?;
    let (dq, dk, dv) = (alloc_with(vec![0; n * 4])?, alloc_with(vec![0; n * 4])?, alloc_with(vec![0; n * 4])?);
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
    let timed = |kernel: &'static str, run: &dyn Fn() -> Result<(), DeviceError>| -> Result<PtxBench, DeviceError> {
        let before = device.instructions.load(Ordering::Relaxed);
        let start = Instant::now();
        run()?;
        let seconds = start.elapsed().as_secs_f64();
        let instructions = device.instructions.load(Ordering::Relaxed) - before;
        Ok(PtxBench {
            what: crate::device::Measured { kernel, backend: "ptx-sim", seq, head_dim, heads, causal },
            instructions,
            seconds,
            minstr_per_s: instructions as f64 / seconds / 1e6,
        })
    };
    let forward = timed("fwd", &|| device.forward(0, 0, &fwd(&ft)))?;
    let backward = timed("bwd", &|| {
        let call = BwdCall {
            fwd: fwd(&bt),
            d_out: (&d_out, 0),
            delta: (&delta, 0),
            dq: (&dq, 0),
            dk: (&dk, 0),
            dv: (&dv, 0),
            dparams: None,
        };
        device.backward(0, 0, &call)
    })?;
    Ok(vec![forward, backward])
}
