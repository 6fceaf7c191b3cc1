//! `a2a+p2p`: all-to-all inside each inner group of `hierarchy[0]` consecutive ranks, ring
//! attention across the outer groups (ranks with the same inner index), all-to-all back.
//!
//! Groups follow Megatron-Core's `create_hierarchical_groups` (inner contiguous, outer
//! strided). With zigzag, inner group g holds outer chunks g and 2·outer−1−g, so the outer ring
//! gets the same half-work as a flat ring. A hierarchy whose last level is 1 is plain `a2a`.

use super::lower::{Inputs, Lowering, Results};
use super::lower_a2a::{Sharded, back, to_heads};
use super::lower_halo;
use super::lower_ring::{Member, ring, ring_rows};
use crate::ir::{Group, GroupId};
use crate::plan::groups::hierarchical_levels;

pub fn lower(l: &mut Lowering<'_>, inputs: &[Inputs], hierarchy: &[u32]) -> Results {
    let cp = l.cp();
    let inner_size = hierarchy.first().copied().unwrap_or(1).max(1);
    let members: Vec<u32> = (0..cp).collect();
    let levels = hierarchical_levels(&members, &[inner_size, cp / inner_size]);
    let global = l.setup.cp_group.global.clone();
    let add = |l: &mut Lowering<'_>, name: String, members: &[u32]| {
        let global = members.iter().map(|&m| global[m as usize]).collect();
        l.b.plan.add_group(Group { name, members: members.to_vec(), global })
    };
    let inner: Vec<(GroupId, Vec<u32>)> =
        levels[0].iter().enumerate().map(|(g, m)| (add(l, format!("cp.a2a.{g}"), m), m.clone())).collect();
    let outer: Vec<Vec<u32>> = levels[1].clone();
    for (j, m) in outer.iter().enumerate() {
        add(l, format!("cp.p2p.{j}"), m);
    }
    let inner_of =
        |rank: u32| inner.iter().find(|(_, m)| m.contains(&rank)).cloned().unwrap_or((GroupId(0), vec![rank]));
    let sharded: Vec<Sharded> = (0..cp)
        .map(|r| {
            let (group, members) = inner_of(r);
            to_heads(l, r, inputs[r as usize], group, &members)
        })
        .collect();
    let split = l.halves();
    let mut results: Vec<Option<Results>> = (0..cp).map(|_| None).collect();
    for ring_members in &outer {
        let members: Vec<Member> = ring_members
            .iter()
            .map(|&r| {
                let s = &sharded[r as usize];
                Member { rank: r, q: s.q, q_map: s.map.clone(), kv: s.kv, kv_map: s.map.clone() }
            })
            .collect();
        // Under a window, chunks or regions, the outer level exchanges halos cut from the KV blocks the
        // all-to-all brought, when they are fewer rows than the ring's shifts.
        let rows = ring_rows(l, &members, split);
        let result = match lower_halo::instead(l, &members, split, rows) {
            Some(halo) => halo,
            None => ring(l, &members, split, split),
        };
        // Split the ring's per-member results back to their ranks.
        match result {
            Results::Forward(outs) => {
                for (&r, o) in ring_members.iter().zip(outs) {
                    results[r as usize] = Some(Results::Forward(vec![o]));
                }
            }
            Results::Backward(grads) => {
                for (&r, g) in ring_members.iter().zip(grads) {
                    results[r as usize] = Some(Results::Backward(vec![g]));
                }
            }
        }
    }
    let results: Vec<Results> = results.into_iter().map(|r| r.expect("every rank is in one outer group")).collect();
    back(l, inputs, results, &sharded, |r| {
        let (group, members) = inner_of(r);
        (group, members.len() as u32)
    })
}
