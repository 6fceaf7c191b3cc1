//! A re-implementation of Megatron-LM's `BalancedCPScheduler` (hybrid_cp_schedule.py), step for step.
//!
//! The aim is *the same groups for the same input*, so the quirks are kept on purpose and named
//! where they happen: the bucket-closing rule, the balance check that only starts once the CP size
//! drops, trimming only the most loaded group's last sub-sample, and the expansion of the smallest
//! group into empty GPUs (which shifts later groups right and re-estimates the expanded group's
//! load from its first sub-sample only). Python floats are IEEE doubles and every arithmetic step
//! below happens in the same order, so comparisons come out the same. Where Megatron raises (an
//! index past the pool), this returns [`ScheduleError::Megatron`] instead.

use std::collections::VecDeque;

use super::{Sample, ScheduleError, Step, gpus_needed, workload};

/// Megatron's slack: a step is balanced when max − min ≤ 5% of max.
const DELTA: f64 = 0.05;

struct Scheduler {
    per_rank: u64,
    n_gpus: usize,
}

/// Sorts by length, longest first (stably, as Python's `sorted`), and forms steps until none is left.
pub fn schedule(samples: &[Sample], n_gpus: usize, per_rank: u64) -> Result<Vec<Step>, ScheduleError> {
    let scheduler = Scheduler { per_rank, n_gpus };
    let mut remaining: Vec<Sample> = samples.to_vec();
    remaining.sort_by_key(|sample| std::cmp::Reverse(sample.len));
    let mut steps = Vec::new();
    while !remaining.is_empty() {
        let (step, leftovers) = scheduler.next_group(&remaining)?;
        if leftovers.len() == remaining.len() {
            // Megatron would loop forever here; the length check in `schedule` rules it out.
            return Err(ScheduleError::Megatron { what: "no sub-sample could be placed".to_string() });
        }
        steps.push(step);
        remaining = leftovers;
    }
    Ok(steps)
}

impl Scheduler {
    fn needed(&self, len: u64) -> u64 {
        gpus_needed(len, self.per_rank)
    }

    fn estimate(&self, len: u64) -> f64 {
        workload(len, self.needed(len))
    }

    /// `make_buckets_equal`: as many buckets as distinct CP sizes, closed at 1.1× the mean work.
    fn buckets(&self, samples: &[Sample]) -> Vec<VecDeque<Sample>> {
        let mut sizes: Vec<u64> = samples.iter().map(|s| self.needed(s.len)).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let k = sizes.len() as i64;
        let total: f64 = samples.iter().map(|s| self.estimate(s.len)).sum();
        let target = total / k as f64;
        let mut buckets: Vec<VecDeque<Sample>> = Vec::new();
        let mut current: Vec<Sample> = Vec::new();
        let mut current_work = 0.0;
        let mut remaining_k = k;
        for (i, sample) in samples.iter().enumerate() {
            let work = self.estimate(sample.len);
            let projected = current_work + work;
            // Quirk: `remaining_k` falls and `len(buckets)` grows at each close, so the reserve
            // for later buckets shrinks twice as fast as it reads.
            let reserve = remaining_k - buckets.len() as i64;
            if !current.is_empty() && (projected > target * 1.1 || (samples.len() - i) as i64 <= reserve) {
                buckets.push(std::mem::take(&mut current).into());
                current_work = 0.0;
                remaining_k -= 1;
            }
            current.push(*sample);
            current_work += work;
        }
        if !current.is_empty() {
            buckets.push(current.into());
        }
        buckets
    }

    /// `next_hdp_group`: one step and the sub-samples left for later steps.
    fn next_group(&self, samples: &[Sample]) -> Result<(Step, Vec<Sample>), ScheduleError> {
        let n = self.n_gpus;
        let mut buckets = self.buckets(samples);
        let mut lens: Vec<Vec<u64>> = vec![Vec::new(); n];
        let mut exec: Vec<f64> = vec![0.0; n];
        let mut ids: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut gpu_group: Vec<Option<usize>> = vec![None; n];
        // Per group id (creation order, like the Python dicts): size and members.
        let mut group_size: Vec<u64> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut prev_needed: Option<u64> = None;
        let mut check_balance = false;

        while !buckets.is_empty() {
            // Step 1: the first bucket whose head fits an existing group or enough free GPUs.
            let free_count = gpu_group.iter().filter(|g| g.is_none()).count();
            let Some(bucket_idx) = buckets.iter().position(|bucket| {
                bucket.front().is_some_and(|head| {
                    let needed = self.needed(head.len);
                    group_size.contains(&needed) || free_count as u64 >= needed
                })
            }) else {
                break;
            };
            let sample = buckets[bucket_idx][0];
            let needed = self.needed(sample.len);
            let prev = *prev_needed.get_or_insert(needed);

            // (a) the least loaded existing group of exactly this size (first on ties).
            let mut best: Option<(usize, f64)> = None;
            for (gid, &size) in group_size.iter().enumerate() {
                if size == needed {
                    let load = members[gid].iter().map(|&r| exec[r]).fold(f64::NEG_INFINITY, f64::max);
                    if best.is_none_or(|(_, best_load)| load < best_load) {
                        best = Some((gid, load));
                    }
                }
            }
            let best_load = best.map_or(f64::INFINITY, |(_, load)| load);
            // (b) a new group from the free GPUs, least loaded first (a stable sort).
            let mut free: Vec<usize> = (0..n).filter(|&r| gpu_group[r].is_none()).collect();
            let chosen_gid = if free.len() as u64 >= needed {
                free.sort_by(|&a, &b| exec[a].total_cmp(&exec[b]));
                free.truncate(needed as usize);
                let new_load = exec[*free.last().expect("needed ≥ 1")];
                if new_load < best_load {
                    let gid = group_size.len();
                    group_size.push(needed);
                    for &r in &free {
                        gpu_group[r] = Some(gid);
                    }
                    members.push(free);
                    gid
                } else {
                    best.expect("best_load is finite").0
                }
            } else {
                best.expect("step 1 found a group").0
            };

            // Step 3: the sub-sample runs on every member.
            let cost = self.estimate(sample.len);
            for &r in &members[chosen_gid] {
                lens[r].push(sample.len);
                exec[r] += cost;
                ids[r].push(sample.id);
            }
            buckets[bucket_idx].pop_front();

            // Step 4: drop empty leading buckets; check balance once the CP size has dropped.
            while buckets.first().is_some_and(VecDeque::is_empty) {
                buckets.remove(0);
            }
            if needed < prev {
                check_balance = true;
            }
            let (max, min) = max_min(&exec);
            if check_balance && !buckets.is_empty() && max - min <= DELTA * max {
                break;
            }
        }

        let mut leftovers: Vec<Sample> = buckets.into_iter().flatten().collect();

        // trim_overload: pop the most loaded GPU's last sub-sample while that lowers the slack.
        loop {
            let (max, min) = max_min(&exec);
            let slack = max - min;
            if slack <= DELTA * max || min == 0.0 {
                break;
            }
            let max_r = exec.iter().position(|&e| e == max).expect("max is an element");
            let gid = gpu_group[max_r].expect("a loaded GPU is in a group");
            if lens[max_r].len() <= 1 {
                break;
            }
            let len = *lens[max_r].last().expect("non-empty");
            let cost = self.estimate(len);
            let mut projected = exec.clone();
            for &r in &members[gid] {
                projected[r] -= cost;
            }
            let (pmax, pmin) = max_min(&projected);
            if pmax - pmin < slack {
                let id = *ids[max_r].last().expect("non-empty");
                for &r in &members[gid] {
                    lens[r].pop();
                    exec[r] -= cost;
                    ids[r].pop();
                }
                leftovers.push(Sample { id, len });
            } else {
                break;
            }
        }

        // fill_empty_gpus: double the first smallest group until no GPU is empty.
        while lens.iter().any(Vec::is_empty) {
            let Some(&min_size) = group_size.iter().min() else {
                return Err(ScheduleError::Megatron { what: "empty GPUs and no group to expand".to_string() });
            };
            let next_power = (min_size * 2).min(n as u64);
            let gid = group_size.iter().position(|&s| s == min_size).expect("min is an element");
            let needed_count = (next_power - min_size) as usize;
            let start = members[gid][0];
            let end = *members[gid].last().expect("groups are non-empty");
            let empty = lens.iter().position(Vec::is_empty).expect("checked above");
            let overflow = || ScheduleError::Megatron {
                what: format!("expanding the group on GPUs {start}..{} pushes work past GPU {}", end + 1, n - 1),
            };
            if end + needed_count >= n {
                return Err(overflow());
            }
            let mut new_lens = vec![Vec::new(); n];
            let mut new_exec = vec![0.0; n];
            let mut new_ids = vec![Vec::new(); n];
            new_lens[..start].clone_from_slice(&lens[..start]);
            new_exec[..start].copy_from_slice(&exec[..start]);
            new_ids[..start].clone_from_slice(&ids[..start]);
            // Quirk: the expanded group's load is re-estimated from its first sub-sample alone.
            let expanded_load = workload(lens[end][0], next_power);
            for r in start..=end + needed_count {
                new_lens[r] = lens[end].clone();
                new_exec[r] = expanded_load;
                new_ids[r] = ids[end].clone();
            }
            // Work between the group and the first empty GPU moves right by `needed_count`.
            for (i, r) in (end + 1..empty).enumerate() {
                let to = end + needed_count + 1 + i;
                if to >= n {
                    return Err(overflow());
                }
                new_lens[to] = lens[r].clone();
                new_exec[to] = exec[r];
                new_ids[to] = ids[r].clone();
            }
            group_size[gid] = next_power;
            members[gid] = (start..=end + needed_count).collect();
            for later in members.iter_mut().skip(gid + 1) {
                for r in later.iter_mut() {
                    *r += needed_count;
                }
            }
            lens = new_lens;
            exec = new_exec;
            ids = new_ids;
        }
        Ok((Step { gpus: ids }, leftovers))
    }
}

fn max_min(values: &[f64]) -> (f64, f64) {
    let max = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = values.iter().cloned().fold(f64::INFINITY, f64::min);
    (max, min)
}
