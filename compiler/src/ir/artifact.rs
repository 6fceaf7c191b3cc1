//! The plan artifact: the versioned JSON form of a plan that `attnc plan --emit json` writes and
//! runtimes load, so an ahead-of-time compiled plan runs unchanged.
//!
//! It is its own format, not a dump of the graph: ops are listed per rank and stream in issue
//! order with dense ids, and dependencies as lists of those ids. [`to_plan`] rebuilds the IR so
//! a loaded plan goes through the verifier before it runs.

use serde::{Deserialize, Serialize};

use crate::spec::{LayerKind, Layout};

use super::{Buffer, Dep, EventId, Group, Header, OpId, OpKind, Plan, Problem, Stream, TokenMap};

pub const ARTIFACT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Artifact {
    pub version: u32,
    pub header: Header,
    pub problem: Problem,
    pub partition: Vec<TokenMap>,
    pub groups: Vec<Group>,
    pub buffers: Vec<Buffer>,
    pub ops: Vec<ArtifactOp>,
    pub n_events: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArtifactOp {
    pub id: u32,
    pub rank: u32,
    pub stream: Stream,
    #[serde(flatten)]
    pub kind: OpKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waits: Vec<EventId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<EventId>,
    /// Ids of the ops this one depends on (data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<u32>,
    /// Ids of the ops whose storage this one reuses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reuses: Vec<u32>,
}

pub fn from_plan(plan: &Plan) -> Artifact {
    let order: Vec<OpId> = (0..plan.header.cp).flat_map(|r| plan.rank_ops(r).collect::<Vec<_>>()).collect();
    let dense: std::collections::HashMap<OpId, u32> = order.iter().enumerate().map(|(i, &o)| (o, i as u32)).collect();
    let ops = order
        .iter()
        .map(|&id| {
            let op = plan.op(id);
            let mut after = Vec::new();
            let mut reuses = Vec::new();
            for (from, dep) in plan.deps_of(id) {
                match dep {
                    Dep::Data => after.push(dense[&from]),
                    Dep::Reuse => reuses.push(dense[&from]),
                }
            }
            after.sort_unstable();
            reuses.sort_unstable();
            ArtifactOp {
                id: dense[&id],
                rank: op.rank,
                stream: op.stream,
                kind: op.kind.clone(),
                waits: op.waits.clone(),
                record: op.record,
                after,
                reuses,
            }
        })
        .collect();
    Artifact {
        version: ARTIFACT_VERSION,
        header: plan.header.clone(),
        problem: plan.problem.clone(),
        partition: plan.partition.clone(),
        groups: plan.groups.clone(),
        buffers: plan.buffers.clone(),
        ops,
        n_events: plan.n_events,
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ArtifactError {
    #[error("plan artifact version {found}; this attnc reads version {ARTIFACT_VERSION}")]
    Version { found: u32 },
    #[error("plan artifact: op {op} names rank {rank}, but the plan has {cp} ranks")]
    Rank { op: u32, rank: u32, cp: u32 },
    #[error("plan artifact: op {op} depends on op {missing}, which does not exist")]
    MissingOp { op: u32, missing: u32 },
}

/// Rebuilds the IR; the result still has to pass the verifier.
pub fn to_plan(artifact: &Artifact) -> Result<Plan, ArtifactError> {
    if artifact.version != ARTIFACT_VERSION {
        return Err(ArtifactError::Version { found: artifact.version });
    }
    let cp = artifact.header.cp;
    let mut plan = Plan::new(artifact.header.clone(), artifact.problem.clone(), artifact.partition.clone());
    plan.groups = artifact.groups.clone();
    plan.buffers = artifact.buffers.clone();
    plan.n_events = artifact.n_events;
    let mut ids = std::collections::HashMap::new();
    for op in &artifact.ops {
        if op.rank >= cp {
            return Err(ArtifactError::Rank { op: op.id, rank: op.rank, cp });
        }
        let id = plan.push_op(op.rank, op.kind.clone());
        let node = plan.op_mut(id);
        node.stream = op.stream;
        node.waits = op.waits.clone();
        node.record = op.record;
        if op.stream != op.kind.default_stream() {
            let programs = &mut plan.programs[op.rank as usize];
            programs[op.kind.default_stream().index()].retain(|&o| o != id);
            programs[op.stream.index()].push(id);
        }
        ids.insert(op.id, id);
    }
    for op in &artifact.ops {
        for (list, dep) in [(&op.after, Dep::Data), (&op.reuses, Dep::Reuse)] {
            for from in list {
                let Some(&f) = ids.get(from) else {
                    return Err(ArtifactError::MissingOp { op: op.id, missing: *from });
                };
                plan.add_dep(f, ids[&op.id], dep);
            }
        }
    }
    Ok(plan)
}

/// What `attnc plan --emit json` writes and `attnc run --plan` reads: every layer class of a
/// layout with its plans (and statistics with `--stats`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanFile {
    pub version: u32,
    pub layout: String,
    pub classes: Vec<PlanFileClass>,
    /// Layers of kinds attnc does not plan (`kind = linear_attention` ...): no plan, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_planned: Vec<NotPlanned>,
}

/// Layers of one kind that attnc plans no attention work for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NotPlanned {
    /// Half-open layer ranges.
    pub layers: Vec<super::Interval>,
    /// The layer kind as the spec writes it: `linear_attention`, `mamba`, `indexed_attention`.
    pub kind: String,
    pub reason: String,
}

/// One layer class of a [`PlanFile`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanFileClass {
    /// Half-open layer ranges.
    pub layers: Vec<super::Interval>,
    /// `p2p`, `all_gather`, `a2a` or `a2a+p2p`.
    pub strategy: String,
    /// The mask as a spec writes it, e.g. `causal { window = 4096 }`.
    pub mask: String,
    pub forward: Artifact,
    #[serde(default)]
    pub backward: Option<Artifact>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<PlanFileStats>,
}

/// `--stats` of one class: per rank, FLOPs, blocks, bytes sent and received per link level, buffers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanFileStats {
    pub forward: super::stats::Stats,
    #[serde(default)]
    pub backward: Option<super::stats::Stats>,
    /// For a windowed or chunked class: the saving against plain causal attention, forward and
    /// (when planned) backward.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against_causal: Vec<super::stats::Saving>,
}

/// `attnc plan --emit json` of a hybrid-CP layout for one batch: per layer class, the schedule's
/// steps, each a set of power-of-two groups with the verified plans of their sub-samples; a
/// barrier over the pool follows every step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridPlanFile {
    pub version: u32,
    pub layout: String,
    /// The DP×CP pool.
    pub dp_cp: u32,
    pub classes: Vec<HybridPlanClass>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridPlanClass {
    pub layers: Vec<super::Interval>,
    pub strategy: String,
    pub mask: String,
    pub steps: Vec<HybridPlanStep>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridPlanStep {
    pub groups: Vec<HybridPlanGroup>,
}

/// A group of GPUs `first_gpu .. first_gpu + size` (half-open) running sub-samples one after another.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridPlanGroup {
    pub first_gpu: u32,
    pub size: u32,
    pub samples: Vec<HybridPlanSample>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridPlanSample {
    /// The sub-sample's index in the batch.
    pub id: u32,
    /// Its length in tokens.
    pub len: u64,
    pub forward: Artifact,
    #[serde(default)]
    pub backward: Option<Artifact>,
}

/// The layers of each kind attnc does not plan, as ranges, in order of first use; each with why.
pub fn not_planned(layout: &Layout) -> Vec<NotPlanned> {
    let mut out: Vec<(LayerKind, Vec<super::Interval>)> = Vec::new();
    for (i, s) in layout.layers.iter().enumerate().filter(|(_, s)| !s.kind.is_attention()) {
        let i = i as u64;
        let ranges = match out.iter_mut().find(|(k, _)| *k == s.kind) {
            Some((_, ranges)) => ranges,
            None => {
                out.push((s.kind, Vec::new()));
                &mut out.last_mut().expect("just pushed").1
            }
        };
        match ranges.last_mut() {
            Some(last) if last.end == i => last.end = i + 1,
            _ => ranges.push(super::Interval::new(i, i + 1)),
        }
    }
    out.into_iter()
        .map(|(kind, layers)| NotPlanned {
            layers,
            kind: kind.name().to_string(),
            reason: kind.not_planned_because().to_string(),
        })
        .collect()
}
