//! Ring attention (`p2p`), forward and backward, over any ring of CP ranks.
//!
//! Step i of member p computes against the KV of the member i places behind it; KV moves one
//! place (or, after steps empty on every rank, as many places as were skipped) per step on the
//! CP stream, issued one step ahead so the transfer of step i+1 overlaps the compute of step i.
//! Backward sends the dK/dV accumulator of each KV block along with it and returns it to its
//! owner after the last step. A ring of one member is plain local attention, which is how the
//! other strategies reuse this file. Slots for the per-step buffers are assigned later.

use super::blocks::{Block, Split, blocks};
use super::lower::{Inputs, Lowering, Results};
use crate::ir::{BufId, BufKind, Direction, OpKind, TokenMap, Transfer};

/// One ring member: its rank, its query-side buffer and its KV block, with their tokens.
pub struct Member {
    pub rank: u32,
    pub q: BufId,
    pub q_map: TokenMap,
    pub kv: BufId,
    pub kv_map: TokenMap,
}

/// `p2p` over the whole CP group.
pub fn p2p(l: &mut Lowering<'_>, inputs: &[Inputs]) -> Results {
    let members: Vec<Member> = inputs
        .iter()
        .enumerate()
        .map(|(r, i)| Member {
            rank: r as u32,
            q: i.q,
            q_map: l.map(r as u32).clone(),
            kv: i.kv,
            kv_map: l.map(r as u32).clone(),
        })
        .collect();
    let split = l.halves();
    // Under a window or chunks, a halo exchange of exactly the needed rows when it moves fewer
    // KV rows than the ring's shifts.
    let rows = ring_rows(l, &members, split);
    if let Some(halo) = super::lower_halo::instead(l, &members, split, rows) {
        return halo;
    }
    ring(l, &members, split, split)
}

/// The KV rows a ring over `members` moves: each member receives one whole block per shift, and
/// the ring shifts once per kept step after the first.
pub fn ring_rows(l: &Lowering<'_>, members: &[Member], split: Split) -> u64 {
    let (_, kept) = plan_steps(l, members, split, split);
    members.iter().map(|m| m.kv_map.rows()).sum::<u64>() * (kept.len() as u64 - 1)
}

/// The ring in the plan's direction.
pub fn ring(l: &mut Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split) -> Results {
    match l.direction {
        Direction::Forward => Results::Forward(forward(l, members, q_split, kv_split)),
        Direction::Backward => Results::Backward(backward(l, members, q_split, kv_split)),
    }
}

/// Blocks per member and step, and the steps kept: step 0 and every step with a block somewhere.
fn plan_steps(
    l: &Lowering<'_>,
    members: &[Member],
    q_split: Split,
    kv_split: Split,
) -> (Vec<Vec<Vec<Block>>>, Vec<usize>) {
    let n = members.len();
    let problem = &l.setup.problem;
    let steps: Vec<Vec<Vec<Block>>> = (0..n)
        .map(|p| {
            (0..n)
                .map(|i| {
                    let owner = &members[(p + n - i) % n];
                    blocks(problem, &members[p].q_map, q_split, &owner.kv_map, kv_split)
                })
                .collect()
        })
        .collect();
    let kept = (0..n).filter(|&i| i == 0 || steps.iter().any(|s| !s[i].is_empty())).collect();
    (steps, kept)
}

/// Per kept step, the buffer holding the KV of that step's owner (step 0: the member's own).
fn step_buffers(
    l: &mut Lowering<'_>,
    members: &[Member],
    p: usize,
    kept: &[usize],
    kind: BufKind,
    first: Option<BufId>,
) -> Vec<BufId> {
    let n = members.len();
    kept.iter()
        .enumerate()
        .map(|(j, &s)| match (j, first) {
            (0, Some(buf)) => buf,
            _ => {
                let owner = &members[(p + n - s) % n];
                let heads = l.b.plan.buf(owner.kv).heads;
                let prefix = if kind == BufKind::Kv { "kv" } else { "dkv" };
                let id = l.b.buffer(members[p].rank, format!("{prefix}.step{s}"), kind, owner.kv_map.clone(), heads);
                l.b.plan.buffers[id.0 as usize].rotating = true;
                id
            }
        })
        .collect()
}

/// Transfer before kept step j (j ≥ 1): pass the buffer of step j−1 on, receive that of step j.
fn shift(l: &mut Lowering<'_>, members: &[Member], p: usize, kept: &[usize], j: usize, bufs: &[BufId]) {
    let n = members.len();
    let d = kept[j] - kept[j - 1];
    let send = Transfer { peer: members[(p + d) % n].rank, buf: bufs[j - 1] };
    let recv = Transfer { peer: members[(p + n - d) % n].rank, buf: bufs[j] };
    l.b.push(members[p].rank, OpKind::SendRecv { sends: vec![send], recvs: vec![recv] });
}

fn forward(l: &mut Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split) -> Vec<BufId> {
    let (steps, kept) = plan_steps(l, members, q_split, kv_split);
    let mut outs = Vec::new();
    for (p, m) in members.iter().enumerate() {
        let (rows, heads) = (m.q_map.clone(), l.b.plan.buf(m.q).heads);
        let kv = step_buffers(l, members, p, &kept, BufKind::Kv, Some(m.kv));
        let acc = l.b.buffer(m.rank, "o.acc", BufKind::OAcc, rows.clone(), heads);
        let part = l.b.buffer(m.rank, "o.part", BufKind::OPart, rows.clone(), heads);
        l.b.push(m.rank, OpKind::Zero { dst: acc, like: m.q });
        for j in 0..kept.len() {
            if j + 1 < kept.len() {
                shift(l, members, p, &kept, j + 1, &kv);
            }
            for block in &steps[p][kept[j]] {
                let Block { q_rows, kv_rows, class } = block.clone();
                l.b.push(m.rank, OpKind::AttnFwd { q: m.q, q_rows: q_rows.clone(), kv: kv[j], kv_rows, part, class });
                l.b.push(m.rank, OpKind::Merge { acc, part, rows: q_rows });
            }
        }
        let out = l.b.buffer(m.rank, "out", BufKind::Out, rows, heads);
        l.b.push(m.rank, OpKind::Normalize { acc, dst: out });
        outs.push(out);
    }
    outs
}

fn backward(l: &mut Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split) -> Vec<(BufId, BufId)> {
    let n = members.len();
    let (steps, kept) = plan_steps(l, members, q_split, kv_split);
    let mut grads = Vec::new();
    for (p, m) in members.iter().enumerate() {
        let (rows, heads) = (m.q_map.clone(), l.b.plan.buf(m.q).heads);
        let kv = step_buffers(l, members, p, &kept, BufKind::Kv, Some(m.kv));
        let dkv = step_buffers(l, members, p, &kept, BufKind::DkvAcc, None);
        let dq = l.b.buffer(m.rank, "dq.acc", BufKind::DqAcc, rows, heads);
        l.b.push(m.rank, OpKind::Zero { dst: dq, like: m.q });
        l.b.push(m.rank, OpKind::Zero { dst: dkv[0], like: m.kv });
        for j in 0..kept.len() {
            if j + 1 < kept.len() {
                shift(l, members, p, &kept, j + 1, &kv);
            }
            if j > 0 {
                // The accumulator of this step's KV block arrives from the member that had it last.
                shift(l, members, p, &kept, j, &dkv);
            }
            for block in &steps[p][kept[j]] {
                let Block { q_rows, kv_rows, class } = block.clone();
                l.b.push(m.rank, OpKind::AttnBwd { q: m.q, q_rows, kv: kv[j], kv_rows, dq, dkv: dkv[j], class });
            }
        }
        let last = *kept.last().unwrap_or(&0);
        let own = if last == 0 {
            dkv[0]
        } else {
            let heads = l.b.plan.buf(m.kv).heads;
            let own = l.b.buffer(m.rank, "dkv", BufKind::DkvAcc, m.kv_map.clone(), heads);
            let send = Transfer { peer: members[(p + n - last) % n].rank, buf: dkv[kept.len() - 1] };
            let recv = Transfer { peer: members[(p + last) % n].rank, buf: own };
            l.b.push(m.rank, OpKind::SendRecv { sends: vec![send], recvs: vec![recv] });
            own
        };
        grads.push((dq, own));
    }
    grads
}
