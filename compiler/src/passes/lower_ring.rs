//! Ring attention (`p2p`), forward and backward, over any ring of CP ranks.
//!
//! Step i of member p computes against the KV of the member i places behind it; KV moves one
//! place (or, after steps empty on every rank, as many places as were skipped) per step on the
//! CP stream, issued one step ahead so the transfer of step i+1 overlaps the compute of step i.
//! Backward sends the dK/dV accumulator of each KV block along with it and returns it to its
//! owner after the last step. A ring of one member is plain local attention, which is how the
//! other strategies reuse this file. Slots for the per-step buffers are assigned later.
//!
//! Forward under a window, chunks or regions the ring is trimmed: a KV block carries, at each step, only
//! the rows its holder there or some later holder reads (`Ring::maps`); rows nobody reads any
//! more are cut off (`copy_rows`, on the CP stream) before the block moves on. Backward carries
//! whole blocks, as TransformerEngine's ring does: dK/dV travel with their KV rows, and cutting
//! the accumulator puts a copy and a return trip on the dK/dV chain every time it shrinks, which
//! the cost model measured slower than the bytes it saves (docs/cost-model.md).

use super::blocks::{Block, Split};
use super::lower::{Inputs, Lowering, Results};
use crate::ir::needed::needed_keys;
use crate::ir::{BufId, BufKind, Direction, OpKind, RowSet, TokenMap, Transfer};

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
    // Under a window, chunks or regions, a halo exchange of exactly the needed rows when it moves fewer
    // KV rows than the ring's shifts.
    let rows = ring_rows(l, &members, split);
    if let Some(halo) = super::lower_halo::instead(l, &members, split, rows) {
        return halo;
    }
    ring(l, &members, split, split)
}

/// The KV rows a ring over `members` moves forward: per shift, every block that still travels,
/// as far as it is carried. Forward and backward plans compare the halo exchange against this
/// one figure, so both take the same exchange.
pub fn ring_rows(l: &Lowering<'_>, members: &[Member], split: Split) -> u64 {
    let r = plan_ring(l, members, split, split, trimmed(l));
    r.maps.iter().flat_map(|steps| steps.iter().skip(1)).map(TokenMap::rows).sum()
}

/// The ring in the plan's direction.
pub fn ring(l: &mut Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split) -> Results {
    match l.direction {
        Direction::Forward => Results::Forward(forward(l, members, q_split, kv_split)),
        Direction::Backward => Results::Backward(backward(l, members, q_split, kv_split)),
    }
}

/// A planned ring: the steps kept (step 0 and every step with a block somewhere), per owner and
/// kept step the tokens of its block the ring carries there (an empty map: the block no longer
/// travels), and per member and kept step its blocks against what it holds.
struct Ring {
    kept: Vec<usize>,
    maps: Vec<Vec<TokenMap>>,
    blocks: Vec<Vec<Vec<Block>>>,
}

impl Ring {
    /// The member whose block member `p` holds at kept step `j`.
    fn owner(&self, n: usize, p: usize, j: usize) -> usize {
        (p + n - self.kept[j]) % n
    }
}

/// Whether a forward ring under this layer's mask is trimmed: under a window, chunks or regions.
fn trimmed(l: &Lowering<'_>) -> bool {
    l.setup.problem.local_mask()
}

/// The ring over `members`, its blocks carried trimmed (`trim`) or whole.
fn plan_ring(l: &Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split, trim: bool) -> Ring {
    let n = members.len();
    let problem = &l.setup.problem;
    // The forward and backward plans are lowered on two threads that share these blocks
    // (`BlockCache`): the backward walks the pairs from the other end, so the two compute
    // different pairs until they meet instead of waiting on each other at every one.
    let mut order: Vec<(usize, usize)> = (0..n).flat_map(|p| (0..n).map(move |i| (p, i))).collect();
    if l.direction == Direction::Backward {
        order.reverse();
    }
    let mut whole: Vec<Vec<Vec<Block>>> = vec![vec![Vec::new(); n]; n];
    for (p, i) in order {
        let kv_map = &members[(p + n - i) % n].kv_map;
        whole[p][i] = l.setup.blocks.blocks(problem, &members[p].q_map, q_split, kv_map, kv_split);
    }
    let kept: Vec<usize> = (0..n).filter(|&i| i == 0 || whole.iter().any(|s| !s[i].is_empty())).collect();
    let maps: Vec<Vec<TokenMap>> = members
        .iter()
        .enumerate()
        .map(|(o, m)| {
            if !trim {
                return vec![m.kv_map.clone(); kept.len()];
            }
            // Backwards over the steps: what the holder there or any later one reads.
            let all = m.kv_map.token_set();
            let mut later = RowSet::default();
            let mut out = vec![m.kv_map.clone(); kept.len()];
            for j in (1..kept.len()).rev() {
                let holder = &members[(o + kept[j]) % n];
                later = later.union(&all.intersect(&needed_keys(problem, &holder.q_map.token_set())));
                out[j] = if later == all { m.kv_map.clone() } else { TokenMap::new(later.0.clone()) };
            }
            out
        })
        .collect();
    let blocks = (0..n)
        .map(|p| {
            (0..kept.len())
                .map(|j| {
                    let o = (p + n - kept[j]) % n;
                    let map = &maps[o][j];
                    if *map == members[o].kv_map {
                        return whole[p][kept[j]].clone();
                    }
                    if map.rows() == 0 {
                        // Nothing of the owner's block is read here or later (so no block here).
                        return Vec::new();
                    }
                    l.setup.blocks.blocks(problem, &members[p].q_map, q_split, map, kv_split)
                })
                .collect()
        })
        .collect();
    Ring { kept, maps, blocks }
}

/// Per kept step, the buffer holding what member `p` has of that step's owner's block (step 0:
/// `first`, or a new buffer of the whole block); `None` where the block no longer travels.
fn step_buffers(
    l: &mut Lowering<'_>,
    members: &[Member],
    ring: &Ring,
    p: usize,
    kind: BufKind,
    first: Option<BufId>,
) -> Vec<Option<BufId>> {
    let n = members.len();
    (0..ring.kept.len())
        .map(|j| {
            if let (0, Some(buf)) = (j, first) {
                return Some(buf);
            }
            let o = ring.owner(n, p, j);
            let map = ring.maps[o][j].clone();
            // Step 0 holds the own block even when it is empty (a rank of empty sequences).
            if map.rows() == 0 && j > 0 {
                return None;
            }
            let heads = l.b.plan.buf(members[o].kv).heads;
            let prefix = if kind == BufKind::Kv { "kv" } else { "dkv" };
            let id = l.b.buffer(members[p].rank, format!("{prefix}.step{}", ring.kept[j]), kind, map, heads);
            l.b.plan.buffers[id.0 as usize].rotating = true;
            Some(id)
        })
        .collect()
}

/// `buf`'s rows of the tokens `map` holds, for sending: `buf` itself when it holds exactly those,
/// else a copy cut from it (`name`).
fn cut(l: &mut Lowering<'_>, rank: u32, buf: BufId, map: &TokenMap, name: String) -> BufId {
    let b = l.b.plan.buf(buf);
    if b.tokens == *map {
        return buf;
    }
    let (kind, heads) = (b.kind, b.heads);
    let dst = l.b.buffer(rank, name, kind, map.clone(), heads);
    l.b.push(rank, OpKind::CopyRows { src: buf, dst });
    dst
}

/// The shift before kept step j (j ≥ 1) for member p: pass on what the next holder of the block
/// p had at step j−1 reads (cut from it when that is less), receive the block of step j.
fn shift(l: &mut Lowering<'_>, members: &[Member], ring: &Ring, p: usize, j: usize, bufs: &[Option<BufId>]) {
    let n = members.len();
    let rank = members[p].rank;
    let d = ring.kept[j] - ring.kept[j - 1];
    let o = ring.owner(n, p, j - 1);
    let (mut sends, mut recvs) = (Vec::new(), Vec::new());
    if let Some(held) = bufs[j - 1] {
        let next = &ring.maps[o][j];
        if next.rows() > 0 {
            let buf = cut(l, rank, held, next, format!("kv.trim{}", ring.kept[j]));
            sends.push(Transfer { peer: members[(p + d) % n].rank, buf });
        }
    }
    if let Some(buf) = bufs[j] {
        recvs.push(Transfer { peer: members[(p + n - d) % n].rank, buf });
    }
    if !sends.is_empty() || !recvs.is_empty() {
        l.b.push(rank, OpKind::SendRecv { sends, recvs });
    }
}

fn forward(l: &mut Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split) -> Vec<BufId> {
    let ring = plan_ring(l, members, q_split, kv_split, trimmed(l));
    let mut outs = Vec::new();
    for (p, m) in members.iter().enumerate() {
        let (rows, heads) = (m.q_map.clone(), l.b.plan.buf(m.q).heads);
        let kv = step_buffers(l, members, &ring, p, BufKind::Kv, Some(m.kv));
        let acc = l.b.buffer(m.rank, "o.acc", BufKind::OAcc, rows.clone(), heads);
        let part = l.b.buffer(m.rank, "o.part", BufKind::OPart, rows.clone(), heads);
        l.b.push(m.rank, OpKind::Zero { dst: acc, like: m.q });
        for j in 0..ring.kept.len() {
            if j + 1 < ring.kept.len() {
                shift(l, members, &ring, p, j + 1, &kv);
            }
            for block in &ring.blocks[p][j] {
                let Block { q_rows, kv_rows, class } = block.clone();
                let kv = kv[j].expect("a block against a held KV block");
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

fn backward(l: &mut Lowering<'_>, members: &[Member], q_split: Split, kv_split: Split) -> Vec<(BufId, BufId)> {
    let n = members.len();
    // Whole blocks backward (the module's note says why).
    let ring = plan_ring(l, members, q_split, kv_split, false);
    let mut grads = Vec::new();
    for (p, m) in members.iter().enumerate() {
        let (rows, heads) = (m.q_map.clone(), l.b.plan.buf(m.q).heads);
        let kv = step_buffers(l, members, &ring, p, BufKind::Kv, Some(m.kv));
        let dkv = step_buffers(l, members, &ring, p, BufKind::DkvAcc, None);
        let dq = l.b.buffer(m.rank, "dq.acc", BufKind::DqAcc, rows, heads);
        l.b.push(m.rank, OpKind::Zero { dst: dq, like: m.q });
        let dkv0 = dkv[0].expect("step 0 holds the own block");
        l.b.push(m.rank, OpKind::Zero { dst: dkv0, like: m.kv });
        for j in 0..ring.kept.len() {
            if j + 1 < ring.kept.len() {
                shift(l, members, &ring, p, j + 1, &kv);
            }
            if j > 0 {
                // The accumulator of this step's KV block arrives from the member that had it last.
                shift(l, members, &ring, p, j, &dkv);
            }
            for block in &ring.blocks[p][j] {
                let Block { q_rows, kv_rows, class } = block.clone();
                let (Some(kv), Some(dkv)) = (kv[j], dkv[j]) else { continue };
                l.b.push(m.rank, OpKind::AttnBwd { q: m.q, q_rows, kv, kv_rows, dq, dkv, class });
            }
        }
        let last = *ring.kept.last().unwrap_or(&0);
        let own = match dkv.last().copied().flatten() {
            Some(held) if last > 0 => {
                let heads = l.b.plan.buf(m.kv).heads;
                let own = l.b.buffer(m.rank, "dkv", BufKind::DkvAcc, m.kv_map.clone(), heads);
                let send = Transfer { peer: members[(p + n - last) % n].rank, buf: held };
                let recv = Transfer { peer: members[(p + last) % n].rank, buf: own };
                l.b.push(m.rank, OpKind::SendRecv { sends: vec![send], recvs: vec![recv] });
                own
            }
            _ => dkv0,
        };
        grads.push((dq, own));
    }
    grads
}
