//! Pass `assign_slots`: the ring's per-step buffers share two storage slots per rank and kind,
//! and every buffer that shares a storage waits for the one before it.
//!
//! Step buffers j and j+2 of one kind (KV, or the travelling dK/dV accumulator) share a slot, as
//! TransformerEngine's two `p2p_comm_buffers` do. Only buffers marked `rotating` move here; a
//! lowering may also place a buffer in another's storage (a halo's returning dK/dV in the KV cut
//! sent to that peer). For every storage, in creation order, each reuse adds `Reuse`
//! dependencies: every op that touches a buffer comes before the first write of the next.

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
    for bufs in families.values() {
        for (j, &b) in bufs.iter().enumerate().skip(SLOTS) {
            let storage = plan.buf(bufs[j - SLOTS]).storage;
            plan.buffers[b.0 as usize].storage = storage;
        }
    }
    // Per buffer (by id): the ops that touch it, and the first that writes it.
    let n = plan.buffers.len();
    let mut touching: Vec<Vec<OpId>> = vec![Vec::new(); n];
    let mut first_write: Vec<Option<OpId>> = vec![None; n];
    for rank in 0..plan.header.cp {
        for id in plan.rank_ops(rank).collect::<Vec<_>>() {
            let kind = &plan.op(id).kind;
            for b in kind.reads().into_iter().chain(kind.writes()) {
                touching[b.0 as usize].push(id);
            }
            for b in kind.writes() {
                first_write[b.0 as usize].get_or_insert(id);
            }
        }
    }
    // Per storage (a buffer id, so one rank's): its buffers in creation order.
    let mut sharing: Vec<Vec<BufId>> = vec![Vec::new(); n];
    for (i, b) in plan.buffers.iter().enumerate() {
        sharing[b.storage as usize].push(BufId(i as u32));
    }
    for bufs in &sharing {
        for pair in bufs.windows(2) {
            let Some(writer) = first_write[pair[1].0 as usize] else { continue };
            for &op in &touching[pair[0].0 as usize] {
                plan.add_dep(op, writer, Dep::Reuse);
            }
        }
    }
}
