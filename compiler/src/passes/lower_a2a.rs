//! `a2a` (Ulysses): all-to-all from sequence shards to head shards, full-sequence attention on
//! heads/degree heads, all-to-all back.
//!
//! The gathered sequence is in natural order (TransformerEngine reorders zigzag chunks the same
//! way) and masked by true positions. When there are fewer KV heads than the all-to-all degree,
//! each KV head is first repeated so every rank receives the one its query heads share; the
//! backward sums the repeated heads' gradients back. The helpers here serve `a2a+p2p` as well.

use super::blocks::Split;
use super::lower::{Inputs, Lowering, Results};
use super::lower_ring::{Member, ring};
use crate::ir::{A2aDir, BufId, BufKind, GroupId, OpKind, TokenMap};

/// One rank's head-sharded buffers after the all-to-all, with the tokens they hold.
pub struct Sharded {
    pub q: BufId,
    pub kv: BufId,
    pub map: TokenMap,
    /// How many times each KV head was repeated before the exchange.
    pub factor: u32,
}

/// How often KV heads must be repeated for an all-to-all of `degree`.
pub fn repeat_factor(kv_heads: u32, degree: u32) -> u32 {
    if kv_heads % degree == 0 { 1 } else { degree / kv_heads }
}

/// Sequence → heads for q (or the backward bundle) and kv of `rank` over `group` (`members`).
pub fn to_heads(l: &mut Lowering<'_>, rank: u32, inputs: Inputs, group: GroupId, members: &[u32]) -> Sharded {
    let degree = members.len() as u32;
    let map = TokenMap::concat(members.iter().map(|&m| l.map(m))).sorted();
    let p = &l.setup.problem;
    let (heads, kv_heads) = (p.heads, p.kv_heads);
    let factor = repeat_factor(kv_heads, degree);
    if degree == 1 {
        return Sharded { q: inputs.q, kv: inputs.kv, map, factor };
    }
    let rows = map.clone();
    let q_kind = l.q_kind();
    let q = l.b.buffer(rank, format!("{}.heads", q_kind.name()), q_kind, rows.clone(), heads / degree);
    // Member i of the group receives the i-th slice of the query heads.
    let index = members.iter().position(|&m| m == rank).expect("the rank is a member of its group") as u32;
    l.b.plan.buffers[q.0 as usize].head0 = index * (heads / degree);
    l.b.push(rank, OpKind::AllToAll { group, src: inputs.q, dst: q, dir: A2aDir::SeqToHeads { natural: true } });
    let mut kv_src = inputs.kv;
    if factor > 1 {
        let own_rows = l.map(rank).clone();
        kv_src = l.b.buffer(rank, "kv.repeat", BufKind::Kv, own_rows, kv_heads * factor);
        l.b.push(rank, OpKind::RepeatKv { src: inputs.kv, dst: kv_src, factor });
    }
    let kv = l.b.buffer(rank, "kv.heads", BufKind::Kv, rows, kv_heads * factor / degree);
    l.b.push(rank, OpKind::AllToAll { group, src: kv_src, dst: kv, dir: A2aDir::SeqToHeads { natural: true } });
    Sharded { q, kv, map, factor }
}

/// Heads → sequence for one result buffer, in the token order of `like`; `sum` folds repeated KV heads.
pub fn to_seq(
    l: &mut Lowering<'_>,
    rank: u32,
    src: BufId,
    like: BufId,
    group: GroupId,
    degree: u32,
    sum: u32,
) -> BufId {
    if degree == 1 {
        return src;
    }
    let (kind, heads) = {
        let b = &mut l.b.plan.buffers[src.0 as usize];
        b.name = format!("{}.heads", b.name);
        (b.kind, b.heads * degree)
    };
    let rows = l.map(rank).clone();
    let name = if kind == BufKind::DkvAcc && sum > 1 { "dkv.repeat" } else { kind_name(kind) };
    let dst = l.b.buffer(rank, name, kind, rows.clone(), heads);
    l.b.push(rank, OpKind::AllToAll { group, src, dst, dir: A2aDir::HeadsToSeq { like } });
    if kind != BufKind::DkvAcc || sum == 1 {
        return dst;
    }
    let summed = l.b.buffer(rank, "dkv", kind, rows, heads / sum);
    l.b.push(rank, OpKind::SumHeads { src: dst, dst: summed, factor: sum });
    summed
}

fn kind_name(kind: BufKind) -> &'static str {
    match kind {
        BufKind::Out => "out",
        BufKind::DqAcc => "dq",
        _ => "dkv",
    }
}

pub fn lower(l: &mut Lowering<'_>, inputs: &[Inputs]) -> Results {
    let cp = l.cp();
    let members: Vec<u32> = (0..cp).collect();
    let sharded: Vec<Sharded> = (0..cp).map(|r| to_heads(l, r, inputs[r as usize], GroupId(0), &members)).collect();
    let mut results = Vec::new();
    for (rank, s) in sharded.iter().enumerate() {
        let member = Member { rank: rank as u32, q: s.q, q_map: s.map.clone(), kv: s.kv, kv_map: s.map.clone() };
        results.push(ring(l, &[member], Split::ONE, Split::ONE));
    }
    back(l, inputs, results, &sharded, |_| (GroupId(0), cp))
}

/// The all-to-all back of every rank's results; `group_of(rank)` gives its group and degree.
pub fn back(
    l: &mut Lowering<'_>,
    inputs: &[Inputs],
    results: Vec<Results>,
    sharded: &[Sharded],
    group_of: impl Fn(u32) -> (GroupId, u32),
) -> Results {
    let mut outs = Vec::new();
    let mut grads = Vec::new();
    for (rank, result) in results.into_iter().enumerate() {
        let r = rank as u32;
        let (group, degree) = group_of(r);
        match result {
            Results::Forward(o) => outs.push(to_seq(l, r, o[0], inputs[rank].q, group, degree, 1)),
            Results::Backward(g) => {
                let dq = to_seq(l, r, g[0].0, inputs[rank].q, group, degree, 1);
                let dkv = to_seq(l, r, g[0].1, inputs[rank].kv, group, degree, sharded[rank].factor);
                grads.push((dq, dkv));
            }
        }
    }
    if grads.is_empty() { Results::Forward(outs) } else { Results::Backward(grads) }
}
