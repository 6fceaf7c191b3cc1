//! `attnc schedule`: hybrid-CP group steps for a file of sub-sample lengths, as text or JSON.

use std::path::Path;

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use attnc_compiler::hybrid::{self, Algorithm, Schedule};
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;
use crate::output::TextOrJson;

#[derive(ClapArgs)]
pub struct Args {
    /// One sub-sample length per line; the sample id is the line number from 0.
    #[arg(long)]
    lengths: PathBuf,
    /// The DP×CP pool (a power of two).
    #[arg(long)]
    dp_cp: u32,
    /// The most tokens one rank holds; a sub-sample of length L gets max(1, 2^ceil(log2(L/M))) GPUs.
    #[arg(long)]
    max_seqlen_per_rank: u64,
    /// `buddy` (attnc's) or `megatron` (the same groups as Megatron-LM's BalancedCPScheduler).
    #[arg(long, value_enum, default_value_t = ScheduleAlgorithm::Buddy)]
    algorithm: ScheduleAlgorithm,
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    emit: TextOrJson,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ScheduleAlgorithm {
    /// attnc's scheduler: capacity-bounded steps, aligned blocks, LPT.
    Buddy,
    /// Megatron-LM's BalancedCPScheduler, group for group.
    Megatron,
}

pub fn command(args: Args) -> Result<Outcome> {
    let algorithm = match args.algorithm {
        ScheduleAlgorithm::Buddy => Algorithm::Buddy,
        ScheduleAlgorithm::Megatron => Algorithm::Megatron,
    };
    let json = args.emit == TextOrJson::Json;
    let ok = run(&args.lengths, args.dp_cp, args.max_seqlen_per_rank, algorithm, json)?;
    Ok(if ok { Outcome::Clean } else { Outcome::InputErrors })
}

/// A lengths file that does not parse: file, line and column, and what to write instead.
pub struct LengthsError {
    pub message: String,
}

/// One positive integer per line; the sample id is the line number from 0.
pub fn read_lengths(path: &Path) -> Result<Result<Vec<u64>, LengthsError>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("--lengths {}", path.display()))?;
    let mut lengths = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (line_idx, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let column = line.len() - line.trim_start().len() + 1;
        let at = format!("{}:{}:{}", path.display(), line_idx + 1, column);
        let help = "help: one positive sub-sample length (tokens) per line; sample ids are line numbers from 0";
        if trimmed.is_empty() {
            return Ok(Err(LengthsError {
                message: format!("{at}: empty line (sample {line_idx} has no length)\n  {help}"),
            }));
        }
        match trimmed.parse::<u64>() {
            Ok(0) => {
                return Ok(Err(LengthsError { message: format!("{at}: sample {line_idx} has length 0\n  {help}") }));
            }
            Ok(len) => lengths.push(len),
            Err(_) => {
                return Ok(Err(LengthsError {
                    message: format!("{at}: `{trimmed}` is not a sub-sample length\n  {help}"),
                }));
            }
        }
    }
    if lengths.is_empty() {
        return Ok(Err(LengthsError {
            message: format!("{}: no sub-sample lengths\n  help: write one length per line", path.display()),
        }));
    }
    Ok(Ok(lengths))
}

pub fn text_of(schedule: &Schedule, per_rank: u64, algorithm: Algorithm) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let name = match algorithm {
        Algorithm::Megatron => "megatron",
        Algorithm::Buddy => "buddy",
    };
    let _ = writeln!(
        out,
        "{} sub-samples on {} GPUs, at most {per_rank} tokens per rank, algorithm {name}; workload = len²/cp in Mtok²",
        schedule.lengths.len(),
        schedule.dp_cp
    );
    for (step_idx, step) in schedule.steps.iter().enumerate() {
        let load = step.workload(&schedule.lengths);
        let _ = writeln!(out, "step {step_idx}: imbalance {:.3} (max/mean)", hybrid::imbalance(&load));
        for group in step.groups() {
            let gpus = if group.size == 1 {
                format!("GPU {}", group.first_gpu)
            } else {
                format!("GPUs {}..{}", group.first_gpu, group.first_gpu + group.size)
            };
            let samples: Vec<String> =
                group.samples.iter().map(|id| format!("{id} ({})", schedule.lengths[*id as usize])).collect();
            let _ = writeln!(
                out,
                "  {gpus:<11} cp {:<3} load {:>10.3}  samples {}",
                group.size,
                load[group.first_gpu as usize] / 1e6,
                samples.join(", ")
            );
        }
        for (gpu, samples) in step.gpus.iter().enumerate() {
            if samples.is_empty() {
                let _ = writeln!(out, "  GPU {gpu:<7} idle");
            }
        }
    }
    let summary = schedule.summary();
    let _ = writeln!(
        out,
        "{} steps, mean imbalance {:.3}, time {:.3}× the ideal (Σ step max / (Σ work / GPUs))",
        summary.steps, summary.mean_imbalance, summary.makespan_ratio
    );
    out
}

/// Runs the scheduler; `Ok(false)` when the input cannot be scheduled (reported on stderr).
pub fn run(lengths_path: &Path, dp_cp: u32, per_rank: u64, algorithm: Algorithm, json: bool) -> Result<bool> {
    let lengths = match read_lengths(lengths_path)? {
        Ok(lengths) => lengths,
        Err(error) => {
            eprintln!("error: {}", error.message);
            return Ok(false);
        }
    };
    let schedule = match hybrid::schedule(&lengths, dp_cp, per_rank, algorithm) {
        Ok(schedule) => schedule,
        Err(error) => {
            eprintln!("error: {error}");
            eprintln!("  help: {}", help_for(&error));
            return Ok(false);
        }
    };
    let problems = schedule.check(per_rank);
    if !problems.is_empty() {
        anyhow::bail!("internal error: the schedule breaks its invariants:\n  {}", problems.join("\n  "));
    }
    if json {
        println!("{}", serde_json::to_string(&schedule.document())?);
    } else {
        print!("{}", text_of(&schedule, per_rank, algorithm));
    }
    Ok(true)
}

fn help_for(error: &hybrid::ScheduleError) -> &'static str {
    use hybrid::ScheduleError as E;
    match error {
        E::PoolNotPowerOfTwo { .. } => "--dp-cp takes the DP×CP group size, a power of two such as 8 or 16",
        E::ZeroPerRank => "--max-seqlen-per-rank takes the most tokens one rank holds, e.g. 8192",
        E::EmptySample { .. } => "drop empty sub-samples from the lengths file",
        E::TooLong { .. } => "raise --max-seqlen-per-rank or --dp-cp, or split the sub-sample",
        E::Megatron { .. } => "Megatron-LM would raise here too; `--algorithm buddy` schedules this input",
    }
}
