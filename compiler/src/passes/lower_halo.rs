//! The halo exchange under a local mask (a window or chunks), for `p2p`, `all_gather` and the p2p
//! level of `a2a+p2p`: instead of passing whole KV shards around, each rank receives, in one grouped exchange, exactly the KV rows its
//! queries see that other ranks hold (`ir::needed`), computes against its own shard and those
//! halos, and — backward — returns the halos' dK and dV to their owners, who add them in.
//!
//! The owner cuts each halo it sends from its KV block (`copy_rows`): its own shard under `p2p`
//! and `all_gather`, the block the all-to-all brought at the p2p level of `a2a+p2p`; the rows are
//! already rotated, so the input is loaded once. Each strategy takes this lowering as the layer's
//! `Exchange` says (`instead`); unresolved, when it moves no more KV rows than its own, which small
//! windows and chunks that cut few rank boundaries do.

use super::blocks::{Block, Split, blocks};
use super::lower::{Lowering, Results};
use super::lower_ring::Member;
use crate::ir::needed::needed_keys;
use crate::ir::{BufId, BufKind, Direction, OpKind, RowSet, TokenMap, Transfer};
use crate::spec::Exchange;

/// Per receiving member, the (owner index, tokens) of every halo it needs.
pub fn halos(l: &Lowering<'_>, members: &[Member]) -> Vec<Vec<(usize, RowSet)>> {
    let p = &l.setup.problem;
    members
        .iter()
        .enumerate()
        .map(|(r, m)| {
            let needed = needed_keys(p, &m.q_map.token_set());
            (0..members.len())
                .filter(|&s| s != r)
                .map(|s| (s, members[s].kv_map.token_set().intersect(&needed)))
                .filter(|(_, rows)| !rows.is_empty())
                .collect()
        })
        .collect()
}

/// Under a window, chunks or regions, the halo exchange in place of a lowering that would move
/// `other_rows` KV rows over all ranks: always with `Exchange::Halo`, never with `Full`, and
/// unresolved (`Auto`) when the halos move no more rows (a trimmed ring can move as few: the
/// halo wins the tie, as it does in the cost model); `None` otherwise (and for other masks).
pub fn instead(l: &mut Lowering<'_>, members: &[Member], split: Split, other_rows: u64) -> Option<Results> {
    let p = &l.setup.problem;
    if !p.local_mask() || l.setup.exchange == Exchange::Full {
        return None;
    }
    let halos = halos(l, members);
    let halo_rows: u64 = halos.iter().flatten().map(|(_, rows)| rows.len()).sum();
    // Nothing to exchange (no rank reads another's rows): the plain ring, which keeps no shift.
    if (halo_rows > other_rows || halo_rows == 0) && l.setup.exchange == Exchange::Auto {
        return None;
    }
    Some(match l.direction {
        Direction::Forward => Results::Forward(forward(l, members, &halos, split)),
        Direction::Backward => Results::Backward(backward(l, members, &halos, split)),
    })
}

/// The exchange of KV halos: owners cut and send the rows each receiver needs, receivers get
/// them in one grouped sendrecv per rank. Returns, per member, its received (owner, buffer) and
/// the (receiver, tokens, cut buffer) it sent.
#[allow(clippy::type_complexity)]
fn exchange(
    l: &mut Lowering<'_>,
    members: &[Member],
    halos: &[Vec<(usize, RowSet)>],
) -> (Vec<Vec<(usize, BufId)>>, Vec<Vec<(usize, RowSet, BufId)>>) {
    let n = members.len();
    let mut sent: Vec<Vec<(usize, RowSet)>> = vec![Vec::new(); n];
    for (r, hs) in halos.iter().enumerate() {
        for (s, rows) in hs {
            sent[*s].push((r, rows.clone()));
        }
    }
    let mut received = Vec::new();
    let mut cuts: Vec<Vec<(usize, RowSet, BufId)>> = vec![Vec::new(); n];
    for (p, m) in members.iter().enumerate() {
        let heads = l.b.plan.buf(m.kv).heads;
        let mut sends = Vec::new();
        for (r, rows) in &sent[p] {
            let name = format!("kv.halo.to{}", members[*r].rank);
            let buf = l.b.buffer(m.rank, name, BufKind::Kv, TokenMap::new(rows.0.clone()), heads);
            l.b.push(m.rank, OpKind::CopyRows { src: m.kv, dst: buf });
            sends.push(Transfer { peer: members[*r].rank, buf });
            cuts[p].push((*r, rows.clone(), buf));
        }
        let mut recvs = Vec::new();
        let mut mine = Vec::new();
        for (s, rows) in &halos[p] {
            let heads = l.b.plan.buf(members[*s].kv).heads;
            let name = format!("kv.halo.from{}", members[*s].rank);
            let buf = l.b.buffer(m.rank, name, BufKind::Kv, TokenMap::new(rows.0.clone()), heads);
            l.b.plan.buffers[buf.0 as usize].halo = true;
            recvs.push(Transfer { peer: members[*s].rank, buf });
            mine.push((*s, buf));
        }
        if !sends.is_empty() || !recvs.is_empty() {
            l.b.push(m.rank, OpKind::SendRecv { sends, recvs });
        }
        received.push(mine);
    }
    (received, cuts)
}

/// Forward: O of every member against its own shard, then each halo, merged by LSE.
pub fn forward(l: &mut Lowering<'_>, members: &[Member], halos: &[Vec<(usize, RowSet)>], split: Split) -> Vec<BufId> {
    let (received, _) = exchange(l, members, halos);
    let problem = l.setup.problem.clone();
    let mut outs = Vec::new();
    for (p, m) in members.iter().enumerate() {
        let (rows, heads) = (m.q_map.clone(), l.b.plan.buf(m.q).heads);
        let acc = l.b.buffer(m.rank, "o.acc", BufKind::OAcc, rows.clone(), heads);
        let part = l.b.buffer(m.rank, "o.part", BufKind::OPart, rows.clone(), heads);
        l.b.push(m.rank, OpKind::Zero { dst: acc, like: m.q });
        let sources = std::iter::once(m.kv).chain(received[p].iter().map(|&(_, b)| b)).collect::<Vec<_>>();
        for kv in sources {
            let kv_map = l.b.plan.buf(kv).tokens.clone();
            for Block { q_rows, kv_rows, class } in blocks(&problem, &m.q_map, split, &kv_map, split) {
                l.b.push(m.rank, OpKind::AttnFwd { q: m.q, q_rows: q_rows.clone(), kv, kv_rows, part, class });
                l.b.push(m.rank, OpKind::Merge { acc, part, rows: q_rows });
            }
        }
        let out = l.b.buffer(m.rank, "out", BufKind::Out, rows, heads);
        l.b.push(m.rank, OpKind::Normalize { acc, dst: out });
        outs.push(out);
    }
    outs
}

/// Backward: dQ and dK/dV against the own shard and each halo; the halos' dK/dV go back to their
/// owners in one grouped sendrecv per rank and are added into the owners' accumulators.
pub fn backward(
    l: &mut Lowering<'_>,
    members: &[Member],
    halos: &[Vec<(usize, RowSet)>],
    split: Split,
) -> Vec<(BufId, BufId)> {
    let (received, sent) = exchange(l, members, halos);
    let problem = l.setup.problem.clone();
    let mut grads = Vec::new();
    let mut halo_grads: Vec<Vec<(usize, BufId)>> = Vec::new();
    for (p, m) in members.iter().enumerate() {
        let (rows, heads) = (m.q_map.clone(), l.b.plan.buf(m.q).heads);
        let dq = l.b.buffer(m.rank, "dq.acc", BufKind::DqAcc, rows, heads);
        let kv_heads = l.b.plan.buf(m.kv).heads;
        let dkv = l.b.buffer(m.rank, "dkv", BufKind::DkvAcc, m.kv_map.clone(), kv_heads);
        l.b.push(m.rank, OpKind::Zero { dst: dq, like: m.q });
        l.b.push(m.rank, OpKind::Zero { dst: dkv, like: m.kv });
        let mut mine = Vec::new();
        let mut sources = vec![(m.kv, dkv)];
        for &(s, kv) in &received[p] {
            let map = l.b.plan.buf(kv).tokens.clone();
            let name = format!("dkv.halo.from{}", members[s].rank);
            let g = l.b.buffer(m.rank, name, BufKind::DkvAcc, map, l.b.plan.buf(kv).heads);
            l.b.push(m.rank, OpKind::Zero { dst: g, like: kv });
            sources.push((kv, g));
            mine.push((s, g));
        }
        for (kv, g) in sources {
            let kv_map = l.b.plan.buf(kv).tokens.clone();
            for Block { q_rows, kv_rows, class } in blocks(&problem, &m.q_map, split, &kv_map, split) {
                l.b.push(m.rank, OpKind::AttnBwd { q: m.q, q_rows, kv, kv_rows, dq, dkv: g, class });
            }
        }
        grads.push((dq, dkv));
        halo_grads.push(mine);
    }
    // The halos' gradients back to their owners. Each arrives for the rows this rank cut and sent
    // to that peer, into the cut's storage: the cut is dead once the first exchange completed
    // (`assign_slots` orders the reuse).
    for (p, m) in members.iter().enumerate() {
        let sends = halo_grads[p].iter().map(|&(s, g)| Transfer { peer: members[s].rank, buf: g }).collect::<Vec<_>>();
        let mut recvs = Vec::new();
        let mut adds = Vec::new();
        for (r, rows, cut) in &sent[p] {
            let name = format!("dkv.halo.back{}", members[*r].rank);
            let kv_heads = l.b.plan.buf(m.kv).heads;
            let buf = l.b.buffer(m.rank, name, BufKind::DkvAcc, TokenMap::new(rows.0.clone()), kv_heads);
            l.b.plan.buffers[buf.0 as usize].storage = l.b.plan.buf(*cut).storage;
            recvs.push(Transfer { peer: members[*r].rank, buf });
            adds.push(buf);
        }
        if !sends.is_empty() || !recvs.is_empty() {
            l.b.push(m.rank, OpKind::SendRecv { sends, recvs });
        }
        for src in adds {
            l.b.push(m.rank, OpKind::AddRows { src, dst: grads[p].1 });
        }
    }
    grads
}
