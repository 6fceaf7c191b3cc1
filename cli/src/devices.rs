//! `attnc devices`: the CUDA driver, every device and NCCL's version; with `--nccl-test`, a
//! communicator joined through the rendezvous (torchrun's environment, or one rank without it)
//! and every NCCL operation checked on known data.

#[cfg(feature = "cuda")]
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args as ClapArgs;

use crate::Outcome;

#[derive(ClapArgs)]
pub struct Args {
    /// Also join an NCCL communicator (one rank, or the ranks of `attnc launch`/torchrun) and
    /// check all-gather, reduce-scatter, grouped send/recv and all-to-all on known data.
    #[arg(long)]
    nccl_test: bool,
}

/// `attnc devices`.
#[cfg(feature = "cuda")]
pub fn run(args: Args) -> Result<Outcome> {
    let nccl_test = args.nccl_test;
    use attnc_runtime::cuda::{self, nccl};
    let mut ok = true;
    match cuda::probe() {
        Ok(devices) => {
            println!("CUDA driver: {} device(s)", devices.len());
            for d in &devices {
                let (major, minor) = d.compute_capability;
                println!(
                    "  {}: {} (compute capability {major}.{minor}, {:.1} GiB, kernels for {})",
                    d.ordinal,
                    d.name,
                    d.total_mem as f64 / (1u64 << 30) as f64,
                    d.target()
                );
            }
        }
        Err(e) => {
            println!("CUDA driver: none ({e})");
            ok = false;
        }
    }
    match nccl::version() {
        Ok((major, minor, patch)) => println!("NCCL: {major}.{minor}.{patch}"),
        Err(e) => {
            println!("NCCL: none ({e})");
            ok = false;
        }
    }
    if !nccl_test {
        return Ok(Outcome::Clean);
    }
    if !ok {
        bail!("--nccl-test needs a CUDA driver, a device and NCCL (see above)");
    }
    // Under `attnc launch` or torchrun the job's environment names the ranks; alone, one rank.
    let env = if std::env::var_os("RANK").is_some() {
        attnc_runtime::rendezvous::JobEnv::from_env()?
    } else {
        attnc_runtime::rendezvous::JobEnv {
            rank: 0,
            world_size: 1,
            local_rank: 0,
            master_addr: "127.0.0.1".into(),
            master_port: 0,
        }
    };
    let gpu = cuda::Gpu::new(env.local_rank as usize)?;
    let id = if env.world_size == 1 {
        nccl::unique_id()?
    } else {
        let mine = if env.rank == 0 { Some(nccl::unique_id()?) } else { None };
        attnc_runtime::rendezvous::broadcast(&env, mine.as_deref(), Duration::from_secs(60))?
    };
    let comm = nccl::NcclComm::new(&gpu, env.rank as usize, env.world_size as usize, &id)?;
    for line in nccl::self_test(&gpu, &comm)? {
        println!("{line}");
    }
    Ok(Outcome::Clean)
}

#[cfg(not(feature = "cuda"))]
pub fn run(_args: Args) -> Result<Outcome> {
    bail!("attnc devices: this attnc was built without the CUDA runtime (feature `cuda`)")
}
