//! `all_gather`: gather K and V in sequence order, attend locally, reduce-scatter dK and dV.
//!
//! As TransformerEngine's `AttnFuncWithCPAndKVAllGather`: the gathered KV is put back in
//! natural order (undoing zigzag), and each query half meets only the KV prefix its mask
//! allows (2·cp KV pieces per sequence, so the prefix ends at a chunk boundary). Backward gathers
//! KV again, accumulates dK/dV over the full sequence and reduce-scatters it to the owners. Under
//! a window or chunks it gathers only the needed ranges instead (`lower_halo`).

use super::blocks::Split;
use super::lower::{Inputs, Lowering, Results};
use super::lower_ring::{Member, ring};
use crate::ir::{BufId, BufKind, GroupId, Interval, OpKind, TokenMap};

pub fn lower(l: &mut Lowering<'_>, inputs: &[Inputs]) -> Results {
    let cp = l.cp();
    let tokens = l.setup.problem.tokens;
    let kv_heads = l.setup.problem.kv_heads;
    let all = TokenMap::new(vec![Interval::new(0, tokens)]);
    // Under a window, chunks or regions, only the needed ranges (a halo exchange, grouped sendrecvs) when
    // they are fewer rows than the all-gather brings every rank.
    let members: Vec<Member> = (0..cp)
        .map(|rank| Member {
            rank,
            q: inputs[rank as usize].q,
            q_map: l.map(rank).clone(),
            kv: inputs[rank as usize].kv,
            kv_map: l.map(rank).clone(),
        })
        .collect();
    let gathered_rows: u64 = members.iter().map(|m| tokens - m.kv_map.rows()).sum();
    if let Some(halo) = super::lower_halo::instead(l, &members, l.halves(), gathered_rows) {
        return halo;
    }
    let gathered: Vec<BufId> = (0..cp)
        .map(|rank| {
            let src = inputs[rank as usize].kv;
            if cp == 1 {
                return src;
            }
            let dst = l.b.buffer(rank, "kv.all", BufKind::Kv, all.clone(), kv_heads);
            l.b.push(rank, OpKind::AllGather { group: GroupId(0), src, dst, natural: true });
            dst
        })
        .collect();
    let q_split = l.halves();
    let kv_split = Split { parts: if l.setup.zigzag { 2 * cp as u64 } else { cp as u64 } };
    let mut per_rank = Vec::new();
    for rank in 0..cp {
        let member = Member {
            rank,
            q: inputs[rank as usize].q,
            q_map: l.map(rank).clone(),
            kv: gathered[rank as usize],
            kv_map: all.clone(),
        };
        per_rank.push(ring(l, &[member], q_split, kv_split));
    }
    let mut outs = Vec::new();
    let mut grads = Vec::new();
    for (rank, result) in per_rank.into_iter().enumerate() {
        let rank = rank as u32;
        match result {
            Results::Forward(o) => outs.extend(o),
            Results::Backward(g) => {
                let (dq, dkv_all) = g[0];
                let dkv = if cp == 1 {
                    dkv_all
                } else {
                    let like = inputs[rank as usize].kv;
                    let rows = l.map(rank).clone();
                    let dst = l.b.buffer(rank, "dkv", BufKind::DkvAcc, rows, kv_heads);
                    l.b.push(rank, OpKind::ReduceScatter { group: GroupId(0), src: dkv_all, dst, like });
                    dst
                };
                grads.push((dq, dkv));
            }
        }
    }
    if grads.is_empty() { Results::Forward(outs) } else { Results::Backward(grads) }
}
