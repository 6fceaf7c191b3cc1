//! The plan verifier: collects every error, each with the rank and op it concerns.
//!
//! Checks, in order (later ones run only on what earlier ones let through):
//! - `structure.rs`: ids, ranks, shapes and program order are consistent;
//! - `partition.rs`: the partition covers every token once and loads apply RoPE at the
//!   tokens' true positions;
//! - `comm.rs`: every send meets a recv (peer, shape, dtype) and every member enters each
//!   group's collectives in the same order;
//! - `halo.rs`: every row received into a halo buffer is one the receiver's queries read;
//! - `simulate.rs`: every rank's program runs with blocking NCCL semantics — no deadlock — while
//!   tracking which tokens and heads each buffer holds; at each store, `coverage.rs` proves by
//!   interval arithmetic that every query (or key, for dK/dV) met exactly the keys the mask allows;
//! - `hazards.rs` (scheduled plans): dependencies are kept by streams and events, and no storage
//!   is written while another op may still use it.
//!
//! A plan that passes gets a [`Verified`] proof, which backends and runtimes ask for. The proof
//! carries what verification established — which send meets which recv, and each group's
//! collectives in the order every member enters them — so that replays (the runtime's executors,
//! the cost model's timeline) use it instead of deriving the matching again.

mod comm;
mod coverage;
mod halo;
mod hazards;
pub mod hybrid;
mod partition;
mod simulate;
mod structure;

use std::collections::BTreeMap;

use crate::ir::{GroupId, OpId, Plan, print};

/// How far the pipeline has got: only scheduled plans have events to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Lowered,
    Scheduled,
}

/// One problem, located.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyError {
    pub rank: Option<u32>,
    pub op: Option<String>,
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.rank, &self.op) {
            (Some(r), Some(op)) => write!(f, "rank {r}, op {op}: {}", self.message),
            (Some(r), None) => write!(f, "rank {r}: {}", self.message),
            (None, Some(op)) => write!(f, "op {op}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

/// Proof that a plan passed the verifier, with the communication matching it proved complete.
/// It owns the plan it was made for and records the stage it was checked at, so nothing can
/// pair a plan with another plan's proof: the executor and the cost model's timeline take the
/// proof alone and read the plan from it (`Verified` dereferences to its [`Plan`]).
#[derive(Debug)]
pub struct Verified {
    plan: Plan,
    stage: Stage,
    pairs: Pairs,
}

impl std::ops::Deref for Verified {
    type Target = Plan;

    fn deref(&self) -> &Plan {
        &self.plan
    }
}

impl Verified {
    /// The verified plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The stage the plan was verified at (only a scheduled plan can run).
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The plan, giving up the proof (to edit it: an edited plan is verified again).
    pub fn into_plan(self) -> Plan {
        self.plan
    }

    /// The matching of the plan's sends to recvs and of its collectives.
    pub fn pairs(&self) -> &Pairs {
        &self.pairs
    }

    /// Per group and member: that member's collectives on the group, in the order it enters them.
    pub fn collectives(&self) -> &BTreeMap<(GroupId, u32), Vec<OpId>> {
        &self.pairs.collectives
    }

    /// Which of its rank's collectives on its group `id` is (the k-th; every member's k-th meet).
    pub fn instance(&self, id: OpId) -> usize {
        let op = self.plan.op(id);
        let group = op.kind.collective_group().expect("a collective");
        self.collectives()[&(group, op.rank)].iter().position(|&o| o == id).expect("a verified collective")
    }

    /// The op of `member` that meets collective `id`.
    pub fn partner(&self, id: OpId, member: u32) -> OpId {
        let group = self.plan.op(id).kind.collective_group().expect("a collective");
        self.collectives()[&(group, member)][self.instance(id)]
    }
}

/// Errors as they are found.
pub(crate) struct Errors<'a> {
    plan: &'a Plan,
    pub list: Vec<VerifyError>,
}

impl<'a> Errors<'a> {
    fn new(plan: &'a Plan) -> Errors<'a> {
        Errors { plan, list: Vec::new() }
    }

    pub fn at_op(&mut self, op: OpId, message: impl Into<String>) {
        let rank = self.plan.graph.node_weight(op.0).map(|o| o.rank);
        let described = print::describe(self.plan, op);
        let op = match described.split_once(' ') {
            Some((id, what)) => format!("{id} ({what})"),
            None => described,
        };
        self.list.push(VerifyError { rank, op: Some(op), message: message.into() });
    }

    pub fn at_rank(&mut self, rank: u32, message: impl Into<String>) {
        self.list.push(VerifyError { rank: Some(rank), op: None, message: message.into() });
    }

    pub fn global(&mut self, message: impl Into<String>) {
        self.list.push(VerifyError { rank: None, op: None, message: message.into() });
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

pub fn verify(plan: &Plan, stage: Stage) -> Result<Verified, Vec<VerifyError>> {
    let pairs = check(plan, stage)?;
    Ok(Verified { plan: plan.clone(), stage, pairs })
}

/// [`verify`] without copying the plan: the proof takes it over (the pipeline's final check).
pub fn prove(plan: Plan, stage: Stage) -> Result<Verified, Vec<VerifyError>> {
    let pairs = check(&plan, stage)?;
    Ok(Verified { plan, stage, pairs })
}

/// Every check of the verifier; the communication matching when the plan passes.
pub fn check(plan: &Plan, stage: Stage) -> Result<Pairs, Vec<VerifyError>> {
    let mut errors = Errors::new(plan);
    structure::check(plan, &mut errors);
    if !errors.is_empty() {
        return Err(errors.list);
    }
    partition::check(plan, &mut errors);
    let pairs = comm::check(plan, &mut errors);
    halo::check(plan, &mut errors);
    if errors.is_empty() {
        simulate::run(plan, &pairs, &mut errors);
    }
    if stage == Stage::Scheduled {
        hazards::check(plan, &mut errors);
    }
    if errors.is_empty() { Ok(pairs) } else { Err(errors.list) }
}

pub use comm::Pairs;
