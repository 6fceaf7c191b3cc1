//! Hybrid-CP layouts: the scheduler's steps, and one verified fixed-CP plan per sub-sample on
//! its group.
//!
//! A hybrid layout is planned per global batch, from its sub-sample lengths: the scheduler
//! (`crate::hybrid`) assigns each sub-sample a contiguous power-of-two group per step, and each
//! sub-sample is planned as a one-sequence THD problem over its group's ranks with the layout's
//! strategy and mask, through the ordinary pipeline (so every sub-plan is verified to compute
//! exactly its attention). Steps end with a barrier over the pool: the runtime enters step
//! `s + 1` only when every group of step `s` is done, as Megatron's
//! `hybrid_context_parallel_forward_backward` does. Groups must be aligned blocks (first GPU a
//! multiple of the size): those are the pre-built hybrid subgroups.

use crate::hybrid::{self, Algorithm, Schedule};
use crate::ir::Interval;
use crate::spec::{Cp, Format, Layout, Mask, Strategy};
use crate::verify::Verified;

use super::{LayerClass, PlanError, PlanOptions, compile_class};

/// One sub-sample's plans on its group.
#[derive(Debug)]
pub struct SamplePlan {
    pub id: u32,
    pub len: u64,
    /// The plans as verified (each proof owns its plan).
    pub forward: Verified,
    pub backward: Option<Verified>,
}

impl SamplePlan {
    /// Each verified plan: forward, then backward if planned.
    pub fn verified(&self) -> impl Iterator<Item = &Verified> {
        std::iter::once(&self.forward).chain(&self.backward)
    }
}

/// A group of one step: GPUs `first_gpu..first_gpu + size`, its sub-samples in order.
#[derive(Debug)]
pub struct GroupPlan {
    pub first_gpu: u32,
    pub size: u32,
    pub samples: Vec<SamplePlan>,
}

/// The plans of one layer class of a hybrid layout, step by step.
#[derive(Debug)]
pub struct HybridClass {
    pub layers: Vec<Interval>,
    pub strategy: Strategy,
    pub mask: Mask,
    pub schedule: Schedule,
    pub steps: Vec<Vec<GroupPlan>>,
}

/// Schedules `lengths` and plans every sub-sample of every layer class.
pub fn compile_hybrid(
    layout: &Layout,
    lengths: &[u64],
    algorithm: Algorithm,
    backward: bool,
) -> Result<Vec<HybridClass>, PlanError> {
    let Cp::Hybrid { dp_cp, max_seqlen_per_rank } = layout.cp else {
        return Err(PlanError::NotHybrid { layout: layout.name.clone() });
    };
    let schedule = hybrid::schedule(lengths, dp_cp, max_seqlen_per_rank, algorithm)
        .map_err(|error| PlanError::Schedule { layout: layout.name.clone(), error })?;
    for (step_idx, step) in schedule.steps.iter().enumerate() {
        if let Some(group) = step.groups().into_iter().find(|g| g.first_gpu % g.size != 0) {
            return Err(PlanError::UnalignedGroup {
                layout: layout.name.clone(),
                step: step_idx,
                first: group.first_gpu,
                end: group.first_gpu + group.size,
            });
        }
    }
    // How the sub-plans interleave on the pool: rendezvous per group, a barrier per step.
    let problems = crate::verify::hybrid::check(&crate::verify::hybrid::sequences(&schedule, true));
    if !problems.is_empty() {
        return Err(PlanError::HybridVerify { layout: layout.name.clone(), problems });
    }
    let mut classes = Vec::new();
    for (layers, strategy, mask) in super::layer_classes(layout) {
        let mut steps = Vec::new();
        for step in &schedule.steps {
            let mut groups = Vec::new();
            for group in step.groups() {
                let mut samples = Vec::new();
                for &id in &group.samples {
                    let len = lengths[id as usize];
                    let class = plan_sample(layout, &layers, &strategy, mask, group.size, len, backward)?;
                    samples.push(SamplePlan { id, len, forward: class.forward, backward: class.backward });
                }
                groups.push(GroupPlan { first_gpu: group.first_gpu, size: group.size, samples });
            }
            steps.push(groups);
        }
        classes.push(HybridClass { layers, strategy, mask, schedule: schedule.clone(), steps });
    }
    Ok(classes)
}

/// One sub-sample as a one-sequence THD layout over `cp` ranks.
fn plan_sample(
    layout: &Layout,
    layers: &[Interval],
    strategy: &Strategy,
    mask: Mask,
    cp: u32,
    len: u64,
    backward: bool,
) -> Result<LayerClass, PlanError> {
    let sub = sample_layout(layout, cp, len);
    let strategy = if *strategy == Strategy::Auto { Strategy::P2p } else { strategy.clone() };
    let options = PlanOptions { seqlens: Some(vec![len]), backward, ..Default::default() };
    compile_class(&sub, layers.to_vec(), strategy, mask, &options)
}

/// The fixed-CP layout a sub-sample of `len` tokens runs as on a group of `cp` ranks: one THD
/// sequence padded to a multiple of 2·cp (times tp with sequence parallelism), `auto` as p2p.
pub fn sample_layout(layout: &Layout, cp: u32, len: u64) -> Layout {
    let sp_tp = if layout.sequence_parallel { layout.tp as u64 } else { 1 };
    let unit = 2 * cp as u64 * sp_tp;
    let padded = len.div_ceil(unit) * unit;
    let mut sub = layout.clone();
    sub.cp = Cp::Fixed { size: cp };
    sub.format = Format::Thd { max_seqlen: padded, max_tokens: padded };
    sub.seq = padded;
    for setting in &mut sub.layers {
        if setting.strategy == Strategy::Auto {
            setting.strategy = Strategy::P2p;
        }
    }
    sub
}
