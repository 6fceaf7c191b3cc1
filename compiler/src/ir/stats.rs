//! Plan statistics: mask-aware FLOPs, bytes per link level, buffer memory, balance.
//!
//! FLOPs count only allowed pairs: 2·pairs·(head_dim + v_head_dim) per head (QKᵀ and PV) forward, 2.5× that
//! backward. Point-to-point bytes are the sent buffer; collectives count what a ring algorithm
//! moves per rank, (n−1)/n of the gathered size. A link is intra-node when both ends (all
//! members, for a collective) share a node of the cluster. Memory is the sum of the rank's
//! distinct storages: an upper bound of its peak.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::mask::{MaskRule, Side, allowed};
use super::{OpId, OpKind, Plan, RowSet};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct RankStats {
    pub rank: u32,
    pub flops: f64,
    pub blocks: u32,
    pub sent_intra_bytes: u64,
    pub sent_inter_bytes: u64,
    pub received_intra_bytes: u64,
    pub received_inter_bytes: u64,
    pub buffer_bytes: u64,
    /// The least any plan that keeps this rank's queries must receive (`ir::needed`).
    #[serde(default)]
    pub needed: super::needed::Needed,
}

impl RankStats {
    /// Bytes received over both link levels.
    pub fn received_bytes(&self) -> u64 {
        self.received_intra_bytes + self.received_inter_bytes
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Stats {
    pub ranks: Vec<RankStats>,
    /// max / mean FLOPs over ranks.
    pub balance: f64,
}

impl Stats {
    /// FLOPs of every rank.
    pub fn flops(&self) -> f64 {
        self.ranks.iter().map(|r| r.flops).sum()
    }

    /// Bytes every rank sends, over both link levels.
    pub fn sent_bytes(&self) -> u64 {
        self.ranks.iter().map(|r| r.sent_intra_bytes + r.sent_inter_bytes).sum()
    }
}

/// What a local mask (a window or chunks) saves: a plan's FLOPs and bytes sent, summed over
/// ranks, next to those of the same layer class planned with plain causal attention.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Saving {
    pub flops: f64,
    pub causal_flops: f64,
    pub sent_bytes: u64,
    pub causal_sent_bytes: u64,
}

impl Saving {
    pub fn new(plan: &Stats, causal: &Stats) -> Saving {
        Saving {
            flops: plan.flops(),
            causal_flops: causal.flops(),
            sent_bytes: plan.sent_bytes(),
            causal_sent_bytes: causal.sent_bytes(),
        }
    }
}

/// Mask-aware FLOPs of one attention op (0 for any other op): 2·pairs·(head_dim + v_head_dim)
/// per query head and batch entry (QKᵀ and PV), 2.5× that backward. Under a mask that reads the
/// head, each class of the op's heads counts its own pairs.
pub fn op_flops(plan: &Plan, id: OpId) -> f64 {
    let p = &plan.problem;
    let (q, q_rows, kv, kv_rows, factor) = match &plan.op(id).kind {
        OpKind::AttnFwd { q, q_rows, kv, kv_rows, .. } => (q, q_rows, kv, kv_rows, 1.0),
        OpKind::AttnBwd { q, q_rows, kv, kv_rows, .. } => (q, q_rows, kv, kv_rows, 2.5),
        _ => return 0.0,
    };
    let q_tokens = plan.buf(*q).tokens.tokens_of(q_rows);
    let kv_tokens = RowSet::from_intervals(plan.buf(*kv).tokens.tokens_of(kv_rows));
    let qb = plan.buf(*q);
    let per_pair = 2.0 * (p.head_dim + p.v_dim()) as f64 * p.batch as f64 * factor;
    let Some(classes) = &p.head_masks else {
        let pairs = allowed(p, MaskRule::of(p), Side::Q, &q_tokens, &kv_tokens) as f64;
        return pairs * qb.heads as f64 * per_pair;
    };
    let mut total = 0.0;
    for c in &classes.classes {
        let heads = c.end.min(qb.head0 + qb.heads).saturating_sub(c.first.max(qb.head0));
        if heads > 0 {
            let rule = MaskRule { band: c.band, chunk: None, regions: None };
            total += allowed(p, rule, Side::Q, &q_tokens, &kv_tokens) as f64 * heads as f64 * per_pair;
        }
    }
    total
}

pub fn stats(plan: &Plan) -> Stats {
    let mut ranks: Vec<RankStats> = (0..plan.header.cp).map(|rank| RankStats { rank, ..Default::default() }).collect();
    for id in plan.op_ids() {
        let op = plan.op(id);
        let r = &mut ranks[op.rank as usize];
        match &op.kind {
            OpKind::AttnFwd { .. } | OpKind::AttnBwd { .. } => {
                r.flops += op_flops(plan, id);
                r.blocks += 1;
            }
            OpKind::SendRecv { sends, recvs } => {
                let node = plan.node_of(op.rank);
                for t in sends {
                    let bytes = plan.bytes_of(t.buf);
                    if plan.node_of(t.peer) == node { r.sent_intra_bytes += bytes } else { r.sent_inter_bytes += bytes }
                }
                for t in recvs {
                    let bytes = plan.bytes_of(t.buf);
                    if plan.node_of(t.peer) == node {
                        r.received_intra_bytes += bytes
                    } else {
                        r.received_inter_bytes += bytes
                    }
                }
            }
            OpKind::AllGather { group, dst, .. }
            | OpKind::AllToAll { group, dst, .. }
            | OpKind::ReduceScatter { group, src: dst, .. } => {
                let g = plan.group(*group);
                let n = g.members.len() as u64;
                let bytes = plan.bytes_of(*dst) * (n - 1) / n.max(1);
                let nodes: BTreeSet<u32> = g.members.iter().map(|&m| plan.node_of(m)).collect();
                if nodes.len() <= 1 {
                    r.sent_intra_bytes += bytes;
                    r.received_intra_bytes += bytes;
                } else {
                    r.sent_inter_bytes += bytes;
                    r.received_inter_bytes += bytes;
                }
            }
            _ => {}
        }
    }
    // A storage is as large as the largest buffer it holds (a trimmed ring's steps differ).
    let mut storages: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    for (i, b) in plan.buffers.iter().enumerate() {
        let bytes = storages.entry((b.rank, b.storage)).or_default();
        *bytes = (*bytes).max(plan.bytes_of(super::BufId(i as u32)));
    }
    for ((rank, _), bytes) in storages {
        ranks[rank as usize].buffer_bytes += bytes;
    }
    for (r, n) in ranks.iter_mut().zip(super::needed::needed(plan)) {
        r.needed = n;
    }
    let max = ranks.iter().map(|r| r.flops).fold(0.0, f64::max);
    let mean = ranks.iter().map(|r| r.flops).sum::<f64>() / ranks.len().max(1) as f64;
    Stats { ranks, balance: if mean > 0.0 { max / mean } else { 1.0 } }
}
