//! Hybrid-CP scheduling: packed sub-samples onto power-of-two CP groups of the DP×CP pool, step by step.
//!
//! Each sub-sample of length `len` needs `gpus_needed(len) = max(1, 2^ceil(log2(len / M)))` GPUs,
//! `M` being `max_seqlen_per_rank`. A *step* partitions the pool into contiguous groups; every GPU
//! of a group runs the group's sub-samples one after another, and a barrier over the pool ends the
//! step (without it a fast group could enter the next step's collectives early and deadlock, see
//! `docs/hybrid-cp.md`). The workload proxy is Megatron-LM's: `len² / cp` per GPU.
//!
//! Two algorithms produce a [`Schedule`]: [`Algorithm::Megatron`] reproduces Megatron-LM's
//! `BalancedCPScheduler` group for group, quirks included ([`megatron`]); [`Algorithm::Buddy`] is
//! attnc's own ([`buddy`]). This module does not plan or run anything; the passes and the runtime
//! consume the schedule.

pub mod buddy;
pub mod megatron;

use std::collections::BTreeMap;

use serde::Serialize;

/// Which scheduler builds the steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Megatron-LM's `BalancedCPScheduler`: the same groups for the same input.
    Megatron,
    /// attnc's capacity-bounded buddy scheduler: aligned power-of-two blocks, LPT within a step.
    Buddy,
}

/// What cannot be scheduled.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ScheduleError {
    #[error("the DP×CP pool has {dp_cp} GPUs; hybrid CP needs a power of two")]
    PoolNotPowerOfTwo { dp_cp: u32 },
    #[error("`max_seqlen_per_rank` is 0")]
    ZeroPerRank,
    #[error("sub-sample {id} has length 0")]
    EmptySample { id: u32 },
    #[error(
        "sub-sample {id} (length {len}) needs {needed} GPUs at {per_rank} tokens per rank, but the DP×CP pool has {dp_cp}"
    )]
    TooLong { id: u32, len: u64, needed: u64, per_rank: u64, dp_cp: u32 },
    #[error("Megatron's scheduler fails on this input: {what}")]
    Megatron { what: String },
}

/// One sub-sample: its id (the line of the lengths file, from 0) and its length in tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub id: u32,
    pub len: u64,
}

/// One group step: per GPU of the pool, the sub-samples it runs, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    pub gpus: Vec<Vec<u32>>,
}

/// A contiguous CP group inside one step and the sub-samples it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub first_gpu: u32,
    pub size: u32,
    pub samples: Vec<u32>,
}

/// The steps of one global batch, with the lengths they refer to.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub dp_cp: u32,
    pub lengths: Vec<u64>,
    pub steps: Vec<Step>,
}

/// `max(1, 2^ceil(log2(len / per_rank)))`, computed as Megatron does (in floating point).
pub fn gpus_needed(len: u64, per_rank: u64) -> u64 {
    let ratio = len as f64 / per_rank as f64;
    let exponent = ratio.log2().ceil();
    if exponent <= 0.0 { 1 } else { 1u64 << (exponent as u32).min(63) }
}

/// Megatron's workload proxy of one sub-sample on each of `cp` GPUs.
pub fn workload(len: u64, cp: u64) -> f64 {
    (len as f64 * len as f64) / cp as f64
}

/// Checks the pool and the samples, then runs the chosen algorithm.
pub fn schedule(lengths: &[u64], dp_cp: u32, per_rank: u64, algorithm: Algorithm) -> Result<Schedule, ScheduleError> {
    if dp_cp == 0 || !dp_cp.is_power_of_two() {
        return Err(ScheduleError::PoolNotPowerOfTwo { dp_cp });
    }
    if per_rank == 0 {
        return Err(ScheduleError::ZeroPerRank);
    }
    let mut samples = Vec::with_capacity(lengths.len());
    for (id, &len) in lengths.iter().enumerate() {
        let id = id as u32;
        if len == 0 {
            return Err(ScheduleError::EmptySample { id });
        }
        let needed = gpus_needed(len, per_rank);
        if needed > dp_cp as u64 {
            return Err(ScheduleError::TooLong { id, len, needed, per_rank, dp_cp });
        }
        samples.push(Sample { id, len });
    }
    let steps = match algorithm {
        Algorithm::Megatron => megatron::schedule(&samples, dp_cp as usize, per_rank)?,
        Algorithm::Buddy => buddy::schedule(&samples, dp_cp as usize, per_rank),
    };
    Ok(Schedule { dp_cp, lengths: lengths.to_vec(), steps })
}

impl Step {
    /// The groups of this step, by first GPU: the GPUs that share a sub-sample form its group.
    pub fn groups(&self) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for (gpu, samples) in self.gpus.iter().enumerate() {
            match groups.last_mut() {
                Some(group) if !samples.is_empty() && group.samples == *samples => group.size += 1,
                _ if samples.is_empty() => {}
                _ => groups.push(Group { first_gpu: gpu as u32, size: 1, samples: samples.clone() }),
            }
        }
        groups
    }

    /// Per GPU: the sum of `len² / cp` over its sub-samples, `cp` being how many GPUs share each.
    pub fn workload(&self, lengths: &[u64]) -> Vec<f64> {
        let mut sharing: BTreeMap<u32, u64> = BTreeMap::new();
        for samples in &self.gpus {
            for &id in samples {
                *sharing.entry(id).or_default() += 1;
            }
        }
        self.gpus
            .iter()
            .map(|samples| samples.iter().map(|id| workload(lengths[*id as usize], sharing[id])).sum())
            .collect()
    }

    /// max/mean of the per-GPU workload (1 for an empty step).
    pub fn imbalance(&self, lengths: &[u64]) -> f64 {
        imbalance(&self.workload(lengths))
    }
}

/// max/mean of per-GPU loads (1 when all are zero).
pub fn imbalance(load: &[f64]) -> f64 {
    let max = load.iter().cloned().fold(0.0, f64::max);
    let mean = load.iter().sum::<f64>() / load.len() as f64;
    if mean > 0.0 { max / mean } else { 1.0 }
}

/// Figures of merit of a whole schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub steps: usize,
    /// Mean over steps of max/mean.
    pub mean_imbalance: f64,
    /// Σ over steps of the step's max workload, over the ideal Σ workload / GPUs: the time lost to imbalance.
    pub makespan_ratio: f64,
}

impl Schedule {
    pub fn summary(&self) -> Summary {
        let mut makespan = 0.0;
        let mut total = 0.0;
        let mut imbalance = 0.0;
        for step in &self.steps {
            let load = step.workload(&self.lengths);
            makespan += load.iter().cloned().fold(0.0, f64::max);
            total += load.iter().sum::<f64>();
            imbalance += self::imbalance(&load);
        }
        let ideal = total / self.dp_cp as f64;
        Summary {
            steps: self.steps.len(),
            mean_imbalance: if self.steps.is_empty() { 1.0 } else { imbalance / self.steps.len() as f64 },
            makespan_ratio: if ideal > 0.0 { makespan / ideal } else { 1.0 },
        }
    }

    /// Every property the runtime relies on: each sub-sample runs in exactly one step, on one
    /// contiguous group whose GPUs all run the same sub-samples in the same order; groups are
    /// powers of two no smaller than the sub-sample needs. Returns every violation.
    pub fn check(&self, per_rank: u64) -> Vec<String> {
        let mut problems = Vec::new();
        let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
        for (step_idx, step) in self.steps.iter().enumerate() {
            if step.gpus.len() != self.dp_cp as usize {
                problems.push(format!("step {step_idx}: {} GPUs, the pool has {}", step.gpus.len(), self.dp_cp));
            }
            let groups = step.groups();
            let mut holders: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
            for (gpu, samples) in step.gpus.iter().enumerate() {
                for &id in samples {
                    holders.entry(id).or_default().push(gpu);
                }
            }
            for (id, gpus) in &holders {
                let Some(group) = groups.iter().find(|g| g.first_gpu as usize == gpus[0]) else {
                    problems.push(format!("step {step_idx}: sub-sample {id} starts inside a group"));
                    continue;
                };
                let contiguous = gpus.windows(2).all(|w| w[1] == w[0] + 1);
                if !contiguous || gpus.len() != group.size as usize || !group.samples.contains(id) {
                    problems.push(format!(
                        "step {step_idx}: sub-sample {id} runs on GPUs {gpus:?}, not on exactly one contiguous group"
                    ));
                }
                let len = self.lengths.get(*id as usize).copied().unwrap_or(0);
                let needed = gpus_needed(len, per_rank);
                if !(gpus.len() as u64).is_power_of_two() || (gpus.len() as u64) < needed {
                    problems.push(format!(
                        "step {step_idx}: sub-sample {id} (length {len}) runs on {} GPUs, needs a power of two ≥ {needed}",
                        gpus.len()
                    ));
                }
                *seen.entry(*id).or_default() += 1;
            }
        }
        for id in 0..self.lengths.len() as u32 {
            match seen.get(&id) {
                None => problems.push(format!("sub-sample {id} is never scheduled")),
                Some(1) => {}
                Some(n) => problems.push(format!("sub-sample {id} is scheduled in {n} steps")),
            }
        }
        problems
    }
}

/// `attnc schedule --emit json`: per step, each GPU's sub-samples, its workload and the step's
/// imbalance; then the summary.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScheduleDocument {
    pub steps: Vec<ScheduleStep>,
    pub summary: ScheduleSummary,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScheduleStep {
    /// Per GPU, the ids (line numbers from 0) of the sub-samples it holds.
    pub gpus: Vec<Vec<u32>>,
    /// max / mean workload over the GPUs.
    pub imbalance: f64,
    /// Per GPU, len²/cp summed over its sub-samples, in Mtok².
    pub workload: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScheduleSummary {
    pub steps: usize,
    pub mean_imbalance: f64,
    pub makespan_ratio: f64,
}

impl Schedule {
    /// The schedule as `attnc schedule --emit json` prints it.
    pub fn document(&self) -> ScheduleDocument {
        let steps = self
            .steps
            .iter()
            .map(|step| {
                let workload = step.workload(&self.lengths);
                ScheduleStep { gpus: step.gpus.clone(), imbalance: imbalance(&workload), workload }
            })
            .collect();
        let summary = self.summary();
        ScheduleDocument {
            steps,
            summary: ScheduleSummary {
                steps: summary.steps,
                mean_imbalance: summary.mean_imbalance,
                makespan_ratio: summary.makespan_ratio,
            },
        }
    }
}
