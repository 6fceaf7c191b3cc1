//! `attnc matrix`: the numerics matrix (every strategy × mask × format × GQA × cp, forward and
//! backward) against fp64 attention with one kernel set; exit 1 if a case fails.

use std::time::Instant;

use anyhow::Result;
use attnc_runtime::kernels::Kernels;
use attnc_runtime::matrix;
use clap::Args as ClapArgs;

use crate::Outcome;
#[cfg(feature = "cuda")]
use crate::device::cuda_device;
use crate::device::{GpuArgs, KernelChoice, host_device, kernel_set};

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long, value_enum, default_value_t = KernelChoice::Reference)]
    kernels: KernelChoice,
    /// Head dim of every case (the GPU kernels take 64, 128, 192, 256).
    #[arg(long, default_value_t = 8)]
    head_dim: u32,
    /// Only cases whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    #[command(flatten)]
    gpu: GpuArgs,
}

/// Where the cases run: the host device with a CPU kernel set, or the CUDA device, or the PTX
/// interpreter's.
enum Runner {
    Host(Box<dyn Kernels>),
    #[cfg(feature = "cuda")]
    Cuda(Box<attnc_runtime::cuda::device::CudaDevice>),
    #[cfg(feature = "cuda")]
    Ptx(Box<attnc_runtime::device::ptx::PtxDevice>),
}

/// `attnc matrix`: the numerics matrix through the executor, on the host device with a CPU kernel
/// set or on the CUDA device (`--kernels cuda`); exit 1 when a case fails. GPU kernel sets (cuda,
/// gpu-emulated) run the 16-bit matrix, the CPU ones the fp32 matrix.
pub fn run(r: Args) -> Result<Outcome> {
    let gpu_abi = r.kernels.is_gpu_abi();
    let mut cases = if gpu_abi { matrix::gpu_cases(r.head_dim) } else { matrix::cases("fp32", r.head_dim) };
    if let Some(f) = &r.filter {
        cases.retain(|c| c.name().contains(f.as_str()));
    }
    let mut runner = match r.kernels {
        #[cfg(feature = "cuda")]
        KernelChoice::Cuda => Runner::Cuda(Box::new(cuda_device(&r.gpu, "--kernels cuda")?)),
        #[cfg(feature = "cuda")]
        KernelChoice::PtxSim => Runner::Ptx(Box::new(crate::device::ptx_device(&r.gpu)?)),
        _ => Runner::Host(kernel_set(r.kernels, 1)?),
    };
    let (mut passed, mut failed) = (0, 0);
    let start = Instant::now();
    let bar = crate::progress::bar(cases.len() as u64, "cases");
    for c in &cases {
        bar.inc(1);
        let dtype = c.layout().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?.dtype;
        let t = Instant::now();
        let outcome = match &mut runner {
            Runner::Host(kernels) => c.check_on(&host_device(r.kernels, dtype, kernels.as_ref())),
            #[cfg(feature = "cuda")]
            Runner::Cuda(d) => c.check_on(d.as_ref()),
            #[cfg(feature = "cuda")]
            Runner::Ptx(d) => c.check_on(d.as_ref()),
        };
        match outcome {
            Ok(()) => {
                passed += 1;
                bar.suspend(|| println!("ok    {:<60} {:>7.2} s", c.name(), t.elapsed().as_secs_f64()));
            }
            Err(e) => {
                failed += 1;
                bar.suspend(|| println!("FAIL  {:<60} {e}", c.name()));
            }
        }
    }
    bar.finish_and_clear();
    #[cfg(feature = "cuda")]
    if let Runner::Ptx(d) = &runner {
        // The interpreter's speed, over the whole run (executor and reference included).
        let n = d.instructions.load(std::sync::atomic::Ordering::Relaxed);
        let s = start.elapsed().as_secs_f64();
        println!("ptx-sim: {n} thread instructions interpreted, {:.1} M/s", n as f64 / s / 1e6);
    }
    println!(
        "matrix ({}, head_dim {}): {passed} passed, {failed} failed in {:.1} s",
        r.kernels.name(),
        r.head_dim,
        start.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 { Outcome::Clean } else { Outcome::InputErrors })
}
