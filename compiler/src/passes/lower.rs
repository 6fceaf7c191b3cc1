//! Pass `lower`: a layout's strategy becomes every rank's ops, forward or backward.
//!
//! Loads and stores are common; each strategy's body is its own file (`lower_ring.rs`,
//! `lower_all_gather.rs`, `lower_a2a.rs`, `lower_hierarchical.rs`). Local attention is a ring of
//! one, so every strategy ends in the same block, merge and normalise code. Streams follow the
//! op kind (transfers and collectives on the CP stream); storage slots and events are later passes.

use super::blocks::Split;
use super::setup::Setup;
use super::{lower_a2a, lower_all_gather, lower_hierarchical, lower_ring};
use crate::ir::{BufId, BufKind, Builder, Direction, Header, Input, OpKind, Output, Plan, TokenMap};
use crate::spec::Strategy;

/// What lowering works with: the builder, the layout's setup and the direction.
pub struct Lowering<'a> {
    pub b: Builder,
    pub setup: &'a Setup,
    pub direction: Direction,
}

/// One rank's inputs: queries (or the backward bundle) and its KV shard.
#[derive(Clone, Copy)]
pub struct Inputs {
    pub q: BufId,
    pub kv: BufId,
}

impl Lowering<'_> {
    pub fn cp(&self) -> u32 {
        self.setup.cp
    }

    pub fn map(&self, rank: u32) -> &TokenMap {
        &self.setup.maps[rank as usize]
    }

    /// The query-side buffer kind of this direction.
    pub fn q_kind(&self) -> BufKind {
        match self.direction {
            Direction::Forward => BufKind::Q,
            Direction::Backward => BufKind::QBundle,
        }
    }

    /// How query rows split into roles: zigzag halves, or one role for a contiguous split.
    pub fn halves(&self) -> Split {
        if self.setup.zigzag { Split::HALVES } else { Split::ONE }
    }

    /// Loads every rank's q (or bundle) and kv rows, RoPE at the partition's positions.
    fn load_inputs(&mut self) -> Vec<Inputs> {
        let p = &self.setup.problem;
        (0..self.cp())
            .map(|rank| {
                let map = self.map(rank).clone();
                let runs = self.setup.runs[rank as usize].clone();
                let q_kind = self.q_kind();
                let q = self.b.buffer(rank, q_kind.name(), q_kind, map.clone(), p.heads);
                let kv = self.b.buffer(rank, "kv", BufKind::Kv, map, p.kv_heads);
                let input = if q_kind == BufKind::Q { Input::Q } else { Input::QBundle };
                self.b.push(rank, OpKind::Load { input, dst: q, runs: runs.clone() });
                self.b.push(rank, OpKind::Load { input: Input::Kv, dst: kv, runs });
                Inputs { q, kv }
            })
            .collect()
    }

    /// Stores `src` to `output`; with sinks, the O and dQ stores carry the sink term (each row is
    /// stored once, so it enters once).
    pub fn store(&mut self, rank: u32, output: Output, src: BufId) {
        let sink = self.setup.problem.sinks && matches!(output, Output::O | Output::Dq);
        self.b.push(rank, OpKind::Store { output, src, sink });
    }
}

/// Forward results per rank: the normalised output; backward: dQ and dKV.
pub enum Results {
    Forward(Vec<BufId>),
    Backward(Vec<(BufId, BufId)>),
}

pub fn run(setup: &Setup, header: Header, strategy: &Strategy) -> Plan {
    let direction = header.direction;
    let mut plan = Plan::new(header, setup.problem.clone(), setup.maps.clone());
    plan.add_group(setup.cp_group.clone());
    let mut l = Lowering { b: Builder::new(plan), setup, direction };
    let inputs = l.load_inputs();
    let results = match strategy {
        Strategy::P2p | Strategy::Auto => lower_ring::p2p(&mut l, &inputs),
        Strategy::AllGather => lower_all_gather::lower(&mut l, &inputs),
        Strategy::A2a => lower_a2a::lower(&mut l, &inputs),
        Strategy::A2aP2p { hierarchy } => lower_hierarchical::lower(&mut l, &inputs, hierarchy),
    };
    match results {
        Results::Forward(outs) => {
            for (rank, out) in outs.into_iter().enumerate() {
                l.store(rank as u32, Output::O, out);
            }
        }
        Results::Backward(grads) => {
            for (rank, (dq, dkv)) in grads.into_iter().enumerate() {
                l.store(rank as u32, Output::Dq, dq);
                l.store(rank as u32, Output::Dkv, dkv);
            }
        }
    }
    l.b.finish()
}
