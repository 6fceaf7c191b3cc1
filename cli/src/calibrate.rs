//! `attnc calibrate`: this machine's kernels, memory, RoPE and communicator measured, written as a
//! device profile for `attnc simulate --profile` and `attnc tune --profile`.

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::device::{KernelChoice, kernel_set};

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long, value_enum, default_value_t = KernelChoice::Cranelift)]
    kernels: KernelChoice,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[arg(long, default_value_t = 128)]
    head_dim: usize,
    #[arg(long, default_value_t = 8)]
    heads: usize,
    /// Tokens per attention block measured (query and key rows).
    #[arg(long, default_value_t = 1024)]
    block: usize,
    /// The profile to write (JSON).
    #[arg(short, long)]
    out: PathBuf,
}

/// `attnc calibrate`: measures this machine and writes a device profile.
pub fn run(args: Args) -> Result<Outcome> {
    let Args { kernels, threads, head_dim, heads, block, out } = args;
    use attnc_runtime::calibrate::{self, Request};
    let set = kernel_set(kernels, threads)?;
    let name = kernels.name();
    let request = Request { kernels: set.as_ref(), kernels_name: name, head_dim, heads, block };
    let (profile, notes) = calibrate::calibrate(&request).map_err(|e| anyhow::anyhow!("calibrate: {e}"))?;
    for note in notes {
        println!("{note}");
    }
    std::fs::write(&out, serde_json::to_string_pretty(&profile)?).with_context(|| format!("-o {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(Outcome::Clean)
}
