//! The attnc runtime: executes compiled plans. Only this crate touches devices and threads.
//!
//! - `comm.rs`: the [`comm::Communicator`] trait (NCCL's semantics) and the CPU implementation;
//! - `exec/`: the executor, a verified plan on a device: a compute and a CP-stream thread per rank,
//!   events, transfers and collectives, faults and the watchdog; `exec/rows.rs` its host-side rows;
//! - `kernels.rs`: the one kernel contract (launches over a packed THD batch, as the GPU kernels
//!   take them) and its plain-Rust reference kernels (the oracle);
//! - `generated.rs`: the generated host kernels (kernel-IR interpreter, Cranelift, LLVM) behind it;
//! - `tensor.rs`: safetensors in and out, formats, dtypes, random inputs;
//! - `reference.rs`: fp64 full attention and the tolerances a run is checked against;
//! - `pool.rs`: staging buffers kept between kernel calls;
//! - `device/`: plans on device memory (planes, launch tables), the [`device::Device`] interface
//!   and the host device (host memory, any kernel set of the launch ABI);
//! - `rendezvous.rs`: torchrun's environment and a TCP rendezvous (NCCL unique ids);
//! - `cuda/` (feature `cuda`): the CUDA driver, PTX kernels and NCCL through cudarc.
//!
//! [`run`] executes a forward plan and, if given, its backward plan on the forward's outputs.

pub mod bench;
pub mod calibrate;
pub mod comm;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod device;
pub mod exec;
pub mod generated;
pub mod hybrid;
pub mod kernel_dir;
pub mod kernels;
pub mod matrix;
mod pool;
pub mod reference;
pub mod rendezvous;
pub mod tensor;

// Files (safetensors) and device memory are little-endian; the runtime views them as native values.
#[cfg(target_endian = "big")]
compile_error!("attnc-runtime reads and writes little-endian data (safetensors, device memory) as native values");

/// The compiler crate this runtime executes plans of.
pub use attnc_compiler as compiler;
use attnc_compiler::verify::Verified;

use exec::{ExecInputs, ExecOutputs, RunOptions, Span};
use tensor::Canonical;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuntimeError {
    #[error("input `{name}` {message}")]
    Input { name: String, message: String },
    #[error("output `{name}`: {message}")]
    Output { name: String, message: String },
    #[error("rank {rank}, op {op}: {message}")]
    Rank { rank: u32, op: String, message: String },
    #[error(
        "watchdog: rank {rank}, op {op} waited {waited:.1} s for {what}; every rank:\n{}",
        ranks.iter().map(|r| format!("  {r}")).collect::<Vec<_>>().join("\n")
    )]
    Watchdog { rank: u32, op: String, what: String, waited: f64, ranks: Vec<String> },
    #[error("plan: {0}")]
    Plan(String),
    #[error("aborted because another rank failed")]
    Aborted,
}

/// What a run produced, with each plan's timeline.
pub struct RunResult {
    pub outputs: ExecOutputs,
    pub forward_spans: Vec<Span>,
    pub backward_spans: Vec<Span>,
}

/// Runs the forward plan, then the backward plan (if any) on the forward's O and LSE, every rank
/// on `device` (the host device with a CPU kernel set, or a GPU).
pub fn run<D: device::Device>(
    forward: &Verified,
    backward: Option<&Verified>,
    device: &D,
    inputs: &Canonical,
    options: &RunOptions,
) -> Result<RunResult, RuntimeError> {
    let all = exec::Ranks::All;
    run_with(forward, backward, inputs, |proof, i| exec::execute(proof, device, i, options, &all))
}

/// [`run`] for one rank of a job of one process per rank: transfers through `remote`; the outputs
/// hold the rows this rank stores.
pub fn run_rank<D: device::Device>(
    forward: &Verified,
    backward: Option<&Verified>,
    device: &D,
    inputs: &Canonical,
    options: &RunOptions,
    rank: u32,
    remote: &dyn exec::Remote<D>,
) -> Result<RunResult, RuntimeError> {
    let one = exec::Ranks::One { rank, remote };
    run_with(forward, backward, inputs, |proof, i| exec::execute(proof, device, i, options, &one))
}

type Executed = (ExecOutputs, Vec<Span>);

fn run_with(
    forward: &Verified,
    backward: Option<&Verified>,
    inputs: &Canonical,
    execute: impl Fn(&Verified, &ExecInputs<'_>) -> Result<Executed, RuntimeError>,
) -> Result<RunResult, RuntimeError> {
    let sinks = inputs.sinks.as_deref();
    let params = inputs.params.as_deref();
    let head_offset = inputs.head_offset;
    let fwd_inputs = ExecInputs {
        q: &inputs.q,
        k: &inputs.k,
        v: &inputs.v,
        o: None,
        lse: None,
        d_out: None,
        sinks,
        params,
        head_offset,
        extent: None,
    };
    let (mut outputs, forward_spans) = execute(forward, &fwd_inputs)?;
    let mut backward_spans = Vec::new();
    if let Some(proof) = backward {
        let d_out = inputs.d_out.as_deref().ok_or_else(|| RuntimeError::Input {
            name: "do".to_string(),
            message: "is missing: the backward pass needs the output gradient".to_string(),
        })?;
        let bwd_inputs = ExecInputs {
            q: &inputs.q,
            k: &inputs.k,
            v: &inputs.v,
            o: Some(&outputs.o),
            lse: Some(&outputs.lse),
            d_out: Some(d_out),
            sinks,
            params,
            head_offset,
            extent: None,
        };
        let (grads, spans) = execute(proof, &bwd_inputs)?;
        outputs.dq = grads.dq;
        outputs.dk = grads.dk;
        outputs.dv = grads.dv;
        outputs.dsinks = grads.dsinks;
        outputs.dparams = grads.dparams;
        backward_spans = spans;
    }
    Ok(RunResult { outputs, forward_spans, backward_spans })
}

/// Per rank: time busy on each stream and how much of the communication overlapped compute.
#[derive(Clone, Debug, PartialEq)]
pub struct RankTimings {
    pub rank: u32,
    pub compute_s: f64,
    pub comm_s: f64,
    /// Communication time during which the compute stream was also busy.
    pub hidden_s: f64,
}

pub fn timings(spans: &[Span], cp: u32) -> Vec<RankTimings> {
    let step = spans.iter().map(|s| s.end).fold(0.0, f64::max);
    (0..cp)
        .map(|rank| {
            let summary = attnc_compiler::cost::timeline::summarize(spans, rank, step);
            RankTimings {
                rank,
                compute_s: summary.compute_s,
                comm_s: summary.comm_s,
                hidden_s: summary.comm_s - summary.exposed_comm_s,
            }
        })
        .collect()
}
