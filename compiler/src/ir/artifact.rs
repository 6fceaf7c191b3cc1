//! The plan artifact: the versioned JSON form of a plan that `attnc plan --emit json` writes and
//! runtimes load, so an ahead-of-time compiled plan runs unchanged.
//!
//! It is its own format, not a dump of the graph: ops are listed per rank and stream in issue
//! order with dense ids, and dependencies as lists of those ids. [`to_plan`] rebuilds the IR so
//! a loaded plan goes through the verifier before it runs.

use serde::{Deserialize, Serialize};

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
