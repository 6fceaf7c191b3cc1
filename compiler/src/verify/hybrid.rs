//! The pool-level check of a hybrid-CP batch: every GPU's sequence of sub-samples and step
//! barriers, played as rendezvous. A sub-sample runs when every GPU of its group has reached
//! it; a barrier when every GPU of the pool has. What cannot run is a deadlock, reported per
//! GPU with what it waits for. Groups must also be pre-built communicators: aligned blocks of
//! a power-of-two size (or the whole pool).
//!
//! Each sub-sample's own plan is verified by the ordinary verifier; this checks only how the
//! plans of one batch interleave on the pool.

use std::collections::{BTreeMap, BTreeSet};

use crate::hybrid::Schedule;

/// One entry of a GPU's sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Sample(u32),
    /// The barrier that ends this step.
    Barrier(usize),
}

/// Per GPU, in order: its sub-samples step by step, each step closed by a barrier when
/// `barriers` is set.
pub fn sequences(schedule: &Schedule, barriers: bool) -> Vec<Vec<Entry>> {
    let mut out = vec![Vec::new(); schedule.dp_cp as usize];
    for (step_idx, step) in schedule.steps.iter().enumerate() {
        for (gpu, samples) in step.gpus.iter().enumerate() {
            out[gpu].extend(samples.iter().map(|&id| Entry::Sample(id)));
            if barriers {
                out[gpu].push(Entry::Barrier(step_idx));
            }
        }
    }
    out
}

/// Plays the sequences; returns every problem (empty: they all run to the end).
pub fn check(sequences: &[Vec<Entry>]) -> Vec<String> {
    let n = sequences.len();
    let mut problems = Vec::new();
    // The GPUs that run each sub-sample: its group.
    let mut members: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    for (gpu, sequence) in sequences.iter().enumerate() {
        for entry in sequence {
            if let Entry::Sample(id) = entry {
                members.entry(*id).or_default().insert(gpu);
            }
        }
    }
    for (id, gpus) in &members {
        let first = *gpus.first().expect("non-empty");
        let size = gpus.len();
        let aligned = size.is_power_of_two() && first % size == 0 && gpus.iter().copied().eq(first..first + size);
        if !aligned {
            problems.push(format!(
                "sub-sample {id} runs on GPUs {gpus:?}, which is not a pre-built hybrid group (an aligned power-of-two block)"
            ));
        }
    }
    let mut pc = vec![0usize; n];
    loop {
        let mut progress = false;
        for gpu in 0..n {
            let Some(&entry) = sequences[gpu].get(pc[gpu]) else { continue };
            let partners: Vec<usize> = match entry {
                Entry::Sample(id) => members[&id].iter().copied().collect(),
                Entry::Barrier(_) => (0..n).collect(),
            };
            if partners.iter().all(|&p| sequences[p].get(pc[p]) == Some(&entry)) {
                for p in partners {
                    pc[p] += 1;
                }
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    for gpu in 0..n {
        let Some(&entry) = sequences[gpu].get(pc[gpu]) else { continue };
        let (what, partners): (String, Vec<usize>) = match entry {
            Entry::Sample(id) => (format!("sub-sample {id}"), members[&id].iter().copied().collect()),
            Entry::Barrier(step) => (format!("the barrier after step {step}"), (0..n).collect()),
        };
        let waiting: Vec<String> = partners
            .iter()
            .filter(|&&p| sequences[p].get(pc[p]) != Some(&entry))
            .map(|&p| match sequences[p].get(pc[p]) {
                Some(Entry::Sample(other)) => format!("GPU {p} (at sub-sample {other})"),
                Some(Entry::Barrier(step)) => format!("GPU {p} (at the barrier after step {step})"),
                None => format!("GPU {p} (finished)"),
            })
            .collect();
        problems.push(format!("deadlock: GPU {gpu} waits at {what} for {}", waiting.join(", ")));
    }
    problems
}
