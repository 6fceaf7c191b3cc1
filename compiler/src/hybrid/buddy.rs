//! attnc's hybrid-CP scheduler: capacity-bounded steps of aligned power-of-two blocks, searched over step counts.
//!
//! Every sub-sample keeps its CP size `cp = gpus_needed(len)` (as in Megatron), so its proxy work
//! `len²` is fixed and only the placement varies. With `W = Σ len²`, `N` GPUs and the largest
//! per-GPU load `w_max = max len²/cp`, no schedule takes less than `max(w_max, W/N)`, and at least
//! `S₀ = ceil(W / (N·w_max))` steps if no step may exceed `w_max`. For each step count
//! `S ∈ S₀..S₀+3`, capacity slack (1, 1.05, 1.15) and fit rule (best, worst), steps `1..S-1` are
//! filled up to the capacity `slack · max(w_max, W/(N·S))` and later steps take the rest by LPT:
//! sub-samples go largest CP first (then largest load); each joins a group of its size (the
//! fullest that stays under the capacity, or the emptiest) or opens a new aligned block of free
//! GPUs (buddy allocation: with sizes non-increasing, lowest-index-first never fragments), or
//! waits for the next step. While GPUs are idle, the most loaded group that can doubles: into its
//! buddy block if free, else by moving to any free aligned block of twice its size (its
//! sub-samples then run at twice the CP). Of all candidates, the fastest (Σ over steps of the step's max load) wins; within 1% of
//! it, the one with the lowest mean max/mean imbalance. Groups are aligned blocks, hence always
//! among the pre-built hybrid subgroups. Comparison with Megatron: `docs/hybrid-cp.md`.

use super::{Sample, Step, gpus_needed, workload};

struct Item {
    sample: Sample,
    cp: usize,
    load: f64,
}

struct Block {
    first: usize,
    size: usize,
    load: f64,
    samples: Vec<u32>,
    lens: Vec<u64>,
}

pub fn schedule(samples: &[Sample], n_gpus: usize, per_rank: u64) -> Vec<Step> {
    let mut items: Vec<Item> = samples
        .iter()
        .map(|&sample| {
            let cp = gpus_needed(sample.len, per_rank) as usize;
            Item { sample, cp, load: workload(sample.len, cp as u64) }
        })
        .collect();
    // Largest CP first, then largest per-GPU load, then id: deterministic, and buddy allocation
    // in this order never fragments.
    items.sort_by(|a, b| b.cp.cmp(&a.cp).then(b.load.total_cmp(&a.load)).then(a.sample.id.cmp(&b.sample.id)));
    let total: f64 = items.iter().map(|item| item.load * item.cp as f64).sum();
    let w_max = items.iter().map(|item| item.load).fold(0.0, f64::max);
    let fewest = (total / (n_gpus as f64 * w_max)).ceil().max(1.0) as usize;
    let most = (fewest + 3).min(items.len());
    // Candidates: step counts from the fewest that can hold the work, capacities with some slack,
    // best or worst fit. The fastest (Σ step max) wins; within 1% of it, the best balanced.
    let mut candidates: Vec<(f64, f64, Vec<Step>)> = Vec::new();
    for n_steps in 1..=most {
        for slack in [1.0, 1.05, 1.15] {
            for fit in [Fit::Best, Fit::Worst] {
                let capacity = slack * w_max.max(total / (n_gpus as f64 * n_steps as f64));
                let steps = with_capacity(&items, n_gpus, capacity, n_steps, fit);
                let time: f64 = steps.iter().map(|(_, max, _)| max).sum();
                let imbalance = steps.iter().map(|(_, _, imbalance)| imbalance).sum::<f64>() / steps.len() as f64;
                candidates.push((time, imbalance, steps.into_iter().map(|(step, ..)| step).collect()));
            }
        }
    }
    let fastest = candidates.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    candidates
        .into_iter()
        .filter(|c| c.0 <= fastest * 1.01)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)).then(a.2.len().cmp(&b.2.len())))
        .map(|c| c.2)
        .unwrap_or_default()
}

#[derive(Clone, Copy, PartialEq)]
enum Fit {
    /// Into the fullest group that stays under the capacity.
    Best,
    /// Into the emptiest group (LPT).
    Worst,
}

/// Steps filled best-fit up to `capacity`, the `n_steps`-th and later ones by plain LPT.
fn with_capacity(items: &[Item], n_gpus: usize, capacity: f64, n_steps: usize, fit: Fit) -> Vec<(Step, f64, f64)> {
    let mut remaining: Vec<&Item> = items.iter().collect();
    let mut steps = Vec::new();
    while !remaining.is_empty() {
        let cap = if steps.len() + 1 < n_steps { capacity } else { f64::INFINITY };
        let (step, max, mean, deferred) = fill_step(remaining, n_gpus, cap, fit);
        steps.push((step, max, if mean > 0.0 { max / mean } else { 1.0 }));
        remaining = deferred;
    }
    steps
}

/// One step: each sub-sample onto a group of its CP size, best fit under `capacity` (least
/// loaded when the capacity is infinite), else onto a new aligned block of free GPUs, else it
/// waits. Returns the step, its largest and mean per-GPU load, and what waits.
fn fill_step(items: Vec<&Item>, n_gpus: usize, capacity: f64, fit: Fit) -> (Step, f64, f64, Vec<&Item>) {
    let mut blocks: Vec<Block> = Vec::new();
    let mut owner: Vec<Option<usize>> = vec![None; n_gpus];
    let mut deferred = Vec::new();
    let lpt = capacity.is_infinite() || fit == Fit::Worst;
    for item in items {
        let fitting = blocks
            .iter()
            .enumerate()
            .filter(|(_, block)| block.size == item.cp && block.load + item.load <= capacity * (1.0 + 1e-12));
        let existing = if lpt {
            fitting.min_by(|a, b| a.1.load.total_cmp(&b.1.load).then(a.0.cmp(&b.0)))
        } else {
            fitting.max_by(|a, b| a.1.load.total_cmp(&b.1.load).then(b.0.cmp(&a.0)))
        }
        .map(|(idx, _)| idx);
        let free =
            (0..n_gpus).step_by(item.cp).find(|&first| owner[first..first + item.cp].iter().all(Option::is_none));
        // LPT prefers an empty block (load 0); best fit prefers filling an open one.
        let target = match (existing, free) {
            (Some(idx), _) if fit == Fit::Best && !capacity.is_infinite() => Some(idx),
            (_, Some(first)) => {
                blocks.push(Block { first, size: item.cp, load: 0.0, samples: Vec::new(), lens: Vec::new() });
                let idx = blocks.len() - 1;
                owner[first..first + item.cp].iter_mut().for_each(|o| *o = Some(idx));
                Some(idx)
            }
            (existing, None) => existing,
        };
        match target {
            Some(idx) => {
                let block = &mut blocks[idx];
                block.load += item.load;
                block.samples.push(item.sample.id);
                block.lens.push(item.sample.len);
            }
            None => deferred.push(item),
        }
    }
    expand(&mut blocks, &mut owner);
    let mut gpus = vec![Vec::new(); n_gpus];
    for block in &blocks {
        for gpu in gpus.iter_mut().skip(block.first).take(block.size) {
            *gpu = block.samples.clone();
        }
    }
    let max = blocks.iter().map(|block| block.load).fold(0.0, f64::max);
    let mean = blocks.iter().map(|block| block.load * block.size as f64).sum::<f64>() / n_gpus as f64;
    (Step { gpus }, max, mean, deferred)
}

/// Doubles groups into their empty buddy blocks, most loaded first, until none can grow.
fn expand(blocks: &mut [Block], owner: &mut [Option<usize>]) {
    let n_gpus = owner.len();
    // Where block `idx` could grow to twice its size: its buddy if free, else any free aligned
    // block of twice the size (the group moves there: placement within a step is free).
    let target = |blocks: &[Block], owner: &[Option<usize>], idx: usize| -> Option<usize> {
        let block = &blocks[idx];
        let size = block.size * 2;
        if size > n_gpus {
            return None;
        }
        let free_or_own = |first: usize| owner[first..first + size].iter().all(|o| o.is_none_or(|o| o == idx));
        let home = block.first & !(size - 1);
        if free_or_own(home) {
            return Some(home);
        }
        (0..n_gpus).step_by(size).find(|&first| owner[first..first + size].iter().all(Option::is_none))
    };
    loop {
        let candidate = (0..blocks.len())
            .filter_map(|idx| target(blocks, owner, idx).map(|first| (idx, first)))
            .max_by(|a, b| blocks[a.0].load.total_cmp(&blocks[b.0].load).then(b.0.cmp(&a.0)));
        let Some((idx, first)) = candidate else { return };
        let block = &mut blocks[idx];
        owner[block.first..block.first + block.size].iter_mut().for_each(|o| *o = None);
        block.first = first;
        block.size *= 2;
        block.load = block.lens.iter().map(|&len| workload(len, block.size as u64)).sum();
        owner[block.first..block.first + block.size].iter_mut().for_each(|o| *o = Some(idx));
    }
}
