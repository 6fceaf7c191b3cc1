//! `attnc matrix`: the numerics matrix (every strategy × mask × format × GQA × cp, forward and
//! backward) against fp64 attention with one kernel set; exit 1 if a case fails.

use std::time::Instant;

use anyhow::{Result, bail};
use attnc_compiler::sema::spec::Dtype;
use attnc_runtime::kernels::Kernels;
use attnc_runtime::matrix;
use clap::Args as ClapArgs;

use crate::Outcome;
#[cfg(feature = "cuda")]
use crate::device::cuda_device;
use crate::device::{GpuArgs, KernelChoice, kernel_set};

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
    /// Through the device executor (buffers in device memory, launch tables, events): on host
    /// memory with `--kernels gpu-emulated`, on the GPU with `--kernels cuda`.
    #[arg(long)]
    device_executor: bool,
    #[command(flatten)]
    gpu: GpuArgs,
}

/// How one case runs.
enum Runner {
    Kernels(Vec<(Dtype, Box<dyn Kernels>)>),
    Host,
    #[cfg(feature = "cuda")]
    Cuda(Box<attnc_runtime::cuda::device::CudaDevice>),
}

/// `attnc matrix`: the numerics matrix with one kernel set; exit 1 when a case fails. GPU kernel
/// sets (cuda, gpu-emulated) run the 16-bit matrix, the CPU ones the fp32 matrix. With
/// `--device-executor`, cases whose plans it cannot run are listed as such and not counted.
pub fn run(r: Args) -> Result<Outcome> {
    let gpu_abi = matches!(r.kernels, KernelChoice::GpuEmulated) || r.kernels.is_cuda();
    let mut cases = if gpu_abi { matrix::gpu_cases(r.head_dim) } else { matrix::cases("fp32", r.head_dim) };
    if let Some(f) = &r.filter {
        cases.retain(|c| c.name().contains(f.as_str()));
    }
    let mut runner = match (r.device_executor, r.kernels) {
        (false, _) => Runner::Kernels(Vec::new()),
        (true, KernelChoice::GpuEmulated) => Runner::Host,
        #[cfg(feature = "cuda")]
        (true, KernelChoice::Cuda) => Runner::Cuda(Box::new(cuda_device(&r.gpu)?)),
        (true, other) => bail!("--device-executor runs the GPU kernels (gpu-emulated or cuda), not {}", other.name()),
    };
    let (mut passed, mut failed, mut unsupported) = (0, 0, 0);
    let start = Instant::now();
    for c in &cases {
        let dtype = c.layout().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?.dtype;
        let t = Instant::now();
        let outcome = match &mut runner {
            Runner::Kernels(sets) => {
                if !sets.iter().any(|s| s.0 == dtype) {
                    sets.push((dtype, kernel_set(r.kernels, dtype, 1, &r.gpu)?));
                }
                c.check(sets.iter().find(|s| s.0 == dtype).expect("made above").1.as_ref())
            }
            device => {
                let (fwd, _) = c.plans().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?;
                if let Some(why) = attnc_runtime::device::exec::unsupported(&fwd, false) {
                    unsupported += 1;
                    println!("n/a   {:<60} {why}", c.name());
                    continue;
                }
                match device {
                    Runner::Host => c.check_on(&attnc_runtime::device::host::HostDevice::emulated(dtype)),
                    #[cfg(feature = "cuda")]
                    Runner::Cuda(d) => c.check_on(d.as_ref()),
                    Runner::Kernels(_) => unreachable!("matched above"),
                }
            }
        };
        match outcome {
            Ok(()) => {
                passed += 1;
                println!("ok    {:<60} {:>7.2} s", c.name(), t.elapsed().as_secs_f64());
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {:<60} {e}", c.name());
            }
        }
    }
    let executor = if r.device_executor { "device executor" } else { "CPU executor" };
    let not_run =
        if unsupported > 0 { format!(", {unsupported} not run by the device executor") } else { String::new() };
    println!(
        "matrix ({}, {executor}, head_dim {}): {passed} passed, {failed} failed{not_run} in {:.1} s",
        r.kernels.name(),
        r.head_dim,
        start.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 { Outcome::Clean } else { Outcome::InputErrors })
}
