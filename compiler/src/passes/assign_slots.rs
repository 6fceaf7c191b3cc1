//! Pass `assign_slots`: the ring's per-step buffers share two storage slots per rank and kind.
//!
//! Step buffers j and j+2 of one kind (KV, or the travelling dK/dV accumulator) share a slot, as
//! TransformerEngine's two `p2p_comm_buffers` do. Each reuse adds `Reuse` dependencies: every op
//! that touches buffer j comes before the first write of buffer j+2. Only buffers marked
//! `rotating` move; everything else keeps its own storage.

use std::collections::BTreeMap;

use crate::ir::{BufId, BufKind, Dep, OpId, Plan};

pub const SLOTS: usize = 2;

pub fn run(plan: &mut Plan) {
    // Per (rank, kind): rotating buffers in creation order, which is step order.
    let mut families: BTreeMap<(u32, u8), Vec<BufId>> = BTreeMap::new();
    for (i, b) in plan.buffers.iter().enumerate() {
        if b.rotating {
            let kind = if b.kind == BufKind::Kv { 0 } else { 1 };
            families.entry((b.rank, kind)).or_default().push(BufId(i as u32));
        }
    }
    let mut touching: BTreeMap<BufId, Vec<OpId>> = BTreeMap::new();
    let mut first_write: BTreeMap<BufId, OpId> = BTreeMap::new();
    for rank in 0..plan.header.cp {
        for id in plan.rank_ops(rank).collect::<Vec<_>>() {
            let kind = &plan.op(id).kind;
            for b in kind.reads().into_iter().chain(kind.writes()) {
                touching.entry(b).or_default().push(id);
            }
            for b in kind.writes() {
                first_write.entry(b).or_insert(id);
            }
        }
    }
    for bufs in families.values() {
        for (j, &b) in bufs.iter().enumerate() {
            if j < SLOTS {
                continue;
            }
            let previous = bufs[j - SLOTS];
            let storage = plan.buf(previous).storage;
            plan.buffers[b.0 as usize].storage = storage;
            if let Some(&writer) = first_write.get(&b) {
                for &op in touching.get(&previous).into_iter().flatten() {
                    plan.add_dep(op, writer, Dep::Reuse);
                }
            }
        }
    }
}
