//! The `attnc` command line: one module per command, each with its arguments (`Args`) and its
//! `run`; this file only declares the commands and dispatches.
//!
//! Exit codes: 0 clean or warnings only, 1 errors in the input, 2 usage or I/O errors.
//! Diagnostics go to stderr, requested output (JSON, formatted text) to stdout.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// mimalloc for every allocation of the CLI (see `Cargo.toml`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench;
mod calibrate;
mod check;
mod compile;
mod device;
mod devices;
mod explain;
mod fmt;
mod groups;
mod import;
mod kernels;
mod launch;
mod matrix;
mod output;
mod partition;
mod plan;
mod progress;
mod run;
mod schedule;
mod simulate;
mod spec;
mod tune;

#[derive(Parser)]
#[command(name = "attnc", version, about = "A compiler for context-parallel attention")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check spec files and report every problem; exit 1 on errors.
    Check(check::Args),
    /// Print spec files in canonical form.
    Fmt(fmt::Args),
    /// Print every rank's tokens and RoPE positions under a layout's CP split.
    Partition(partition::Args),
    /// Compile a layout into per-rank plans (forward, and backward with --backward) and verify them.
    Plan(plan::Args),
    /// Execute a layout's plan on CPU ranks (threads), optionally checked against fp64 full attention.
    Run(run::Args),
    /// JIT-compile every kernel a layout's plans need and report each one's compile time.
    Compile(compile::Args),
    /// Benchmarks: `attnc bench kernels`.
    Bench(bench::Args),
    /// Report the CUDA driver, every device and NCCL's version.
    Devices(devices::Args),
    /// Start one process per local rank with torchrun's environment (RANK, LOCAL_RANK,
    /// WORLD_SIZE, MASTER_ADDR, MASTER_PORT): `attnc launch --nproc-per-node 8 -- attnc ...`.
    Launch(launch::Args),
    /// Run the numerics matrix (every strategy × mask × format × GQA × cp, forward and backward)
    /// against fp64 attention with one kernel set; exit 1 if a case fails.
    Matrix(matrix::Args),
    /// Compile, ahead of time, every GPU kernel the numerics matrix and the GPU benchmarks need.
    Kernels(kernels::Args),
    /// Play a layout's plans on the cost model: step time, exposed communication, idle time per rank.
    Simulate(simulate::Args),
    /// Evaluate every valid strategy per layer class on the cost model and choose the fastest.
    Tune(tune::Args),
    /// Measure this machine's kernels, memory and communicator; write a device profile for `--profile`.
    Calibrate(calibrate::Args),
    /// Hybrid CP: assign sub-samples to power-of-two CP groups, step by step.
    Schedule(schedule::Args),
    /// Print Megatron-Core's process groups for the given sizes.
    Groups(groups::Args),
    /// Print the long explanation of a diagnostic code, e.g. `attnc explain E0011`.
    Explain(explain::Args),
    /// Write a checked spec from a configuration people already have: `attnc import hf config.json`.
    Import(import::Args),
}

/// The exit status of a command that ran: input errors (1) are not failures of the tool.
pub enum Outcome {
    Clean,
    InputErrors,
    Usage,
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing to a closed pipe (`attnc plan ... | head`) fails and
    // `println!` panics. Like other command-line tools, end quietly instead: the default action.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match dispatch(Cli::parse().command) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::InputErrors) => ExitCode::from(1),
        Ok(Outcome::Usage) => ExitCode::from(2),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(command: Command) -> Result<Outcome> {
    match command {
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Partition(args) => partition::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Run(args) => run::command(args),
        Command::Compile(args) => compile::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Devices(args) => devices::run(args),
        Command::Launch(args) => launch::run(args),
        Command::Matrix(args) => matrix::run(args),
        Command::Kernels(args) => kernels::run(args),
        Command::Simulate(args) => simulate::command(args),
        Command::Tune(args) => tune::command(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Schedule(args) => schedule::command(args),
        Command::Groups(args) => groups::run(args),
        Command::Explain(args) => Ok(explain::run(args)),
        Command::Import(args) => import::run(args),
    }
}
