//! Hybrid-CP execution (Megatron's `--hybrid-context-parallel`): a batch's sub-samples run step by
//! step on their power-of-two groups of the pool. Within a step every group runs at once, each on
//! its own thread, its sub-samples one after another on the group's ranks; the next step starts
//! when every group of this one is done (the step's barrier). Each sub-sample is an ordinary
//! verified plan, run through the one executor.

use attnc_compiler::passes::hybrid::{HybridClass, SamplePlan};

use crate::device::Device;
use crate::exec::RunOptions;
use crate::tensor::Canonical;
use crate::{RunResult, RuntimeError};

/// One sub-sample's run: what the caller made of its outputs, or the run's error.
pub struct SampleRun<T> {
    pub id: u32,
    pub len: u64,
    pub result: Result<T, RuntimeError>,
}

/// One group's sub-samples of a step, in the order they ran.
pub struct GroupRun<T> {
    pub first_gpu: u32,
    pub size: u32,
    pub samples: Vec<SampleRun<T>>,
}

/// Runs every step of `class` on `device`: each sub-sample's inputs come from `inputs`, and
/// `then` turns its inputs and outputs into what the caller keeps (a check against fp64
/// attention, say), on the group's thread. Each step's groups go to `step` once the step's barrier
/// is passed. A failing sub-sample is its own error; the other groups and steps still run.
pub fn run_steps<D: Device, T: Send>(
    class: &HybridClass,
    device: &D,
    options: &RunOptions,
    inputs: impl Fn(&SamplePlan) -> Canonical + Sync,
    then: impl Fn(&SamplePlan, &Canonical, RunResult) -> T + Sync,
    mut step: impl FnMut(usize, Vec<GroupRun<T>>),
) {
    for (index, groups) in class.steps.iter().enumerate() {
        let runs: Vec<GroupRun<T>> = std::thread::scope(|scope| {
            let handles: Vec<_> = groups
                .iter()
                .map(|group| {
                    let (inputs, then) = (&inputs, &then);
                    let run_group = move || {
                        let samples = group
                            .samples
                            .iter()
                            .map(|sample| {
                                let data = inputs(sample);
                                let mut plans = sample.verified();
                                let forward = plans.next().expect("the forward plan is always built");
                                let result = crate::run(forward, plans.next(), device, &data, options)
                                    .map(|outputs| then(sample, &data, outputs));
                                SampleRun { id: sample.id, len: sample.len, result }
                            })
                            .collect();
                        GroupRun { first_gpu: group.first_gpu, size: group.size, samples }
                    };
                    std::thread::Builder::new()
                        .name(format!("hybrid-group-{}", group.first_gpu))
                        .spawn_scoped(scope, run_group)
                        .expect("the OS gives a thread for a hybrid-CP group")
                })
                .collect();
            // The barrier: the next step starts when every group of this one is done.
            handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
        });
        step(index, runs);
    }
}
