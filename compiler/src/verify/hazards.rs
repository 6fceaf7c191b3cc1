//! Synchronisation of scheduled plans: what streams and events guarantee, per rank.
//!
//! Happens-before inside a rank is stream order plus event edges (recording op → waiting op).
//! Every dependency must be implied by it (a dependency across streams with no event is a race
//! on real hardware), and any two accesses to one storage, one of them a write, must be ordered
//! by it: that is what makes reusing a ring slot one step early an error.

use std::collections::HashMap;

use super::Errors;
use crate::ir::{OpId, Plan};

pub fn check(plan: &Plan, errors: &mut Errors<'_>) {
    for rank in 0..plan.header.cp {
        check_rank(plan, rank, errors);
    }
}

fn check_rank(plan: &Plan, rank: u32, errors: &mut Errors<'_>) {
    let ops: Vec<OpId> = plan.rank_ops(rank).collect();
    let index: HashMap<OpId, usize> = ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let n = ops.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for program in &plan.programs[rank as usize] {
        for w in program.windows(2) {
            preds[index[&w[1]]].push(index[&w[0]]);
        }
    }
    let mut recorder: HashMap<u32, usize> = HashMap::new();
    for (i, &o) in ops.iter().enumerate() {
        if let Some(e) = plan.op(o).record {
            recorder.insert(e.0, i);
        }
    }
    for (i, &o) in ops.iter().enumerate() {
        for e in &plan.op(o).waits {
            match recorder.get(&e.0) {
                Some(&r) => preds[i].push(r),
                None => errors.at_op(o, format!("waits on event e{}, which no op of rank {rank} records", e.0)),
            }
        }
    }
    // Ancestor bitsets in topological order.
    let words = n.div_ceil(64);
    let mut anc: Vec<Vec<u64>> = vec![vec![0; words]; n];
    let mut indegree: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, ps) in preds.iter().enumerate() {
        for &p in ps {
            succs[p].push(i);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut visited = 0;
    while let Some(i) = ready.pop() {
        visited += 1;
        for &p in &preds[i] {
            let inherited = anc[p].clone();
            for (d, s) in anc[i].iter_mut().zip(&inherited) {
                *d |= *s;
            }
            anc[i][p / 64] |= 1 << (p % 64);
        }
        for &s in &succs[i] {
            indegree[s] -= 1;
            if indegree[s] == 0 {
                ready.push(s);
            }
        }
    }
    if visited < n {
        errors.at_rank(rank, "stream order and event waits form a cycle: the rank can never finish");
        return;
    }
    let before = |a: usize, b: usize| anc[b][a / 64] >> (a % 64) & 1 == 1;
    for (from, to, _) in plan.deps() {
        let (Some(&a), Some(&b)) = (index.get(&from), index.get(&to)) else { continue };
        if !before(a, b) {
            errors.at_op(
                to,
                format!(
                    "depends on {from} on the {} stream, but no stream order or event makes it wait for it",
                    plan.op(from).stream.name()
                ),
            );
        }
    }
    // A transfer or collective must not receive into the memory it sends from.
    for &o in &ops {
        let kind = &plan.op(o).kind;
        if kind.default_stream() != crate::ir::Stream::Cp {
            continue;
        }
        let read: Vec<u32> = kind.reads().iter().map(|&b| plan.buf(b).storage).collect();
        if let Some(b) = kind.writes().into_iter().find(|&b| read.contains(&plan.buf(b).storage)) {
            let name = &plan.buffers[plan.buf(b).storage as usize].name;
            errors.at_op(o, format!("sends from and receives into storage {name} at once"));
        }
    }
    // Accesses per storage: (op index, writes?).
    let mut accesses: HashMap<u32, Vec<(usize, bool)>> = HashMap::new();
    for (i, &o) in ops.iter().enumerate() {
        let kind = &plan.op(o).kind;
        for b in kind.reads() {
            accesses.entry(plan.buf(b).storage).or_default().push((i, false));
        }
        for b in kind.writes() {
            accesses.entry(plan.buf(b).storage).or_default().push((i, true));
        }
    }
    let mut storages: Vec<_> = accesses.into_iter().collect();
    storages.sort();
    for (storage, list) in storages {
        'pairs: for (x, &(a, wa)) in list.iter().enumerate() {
            for &(b, wb) in &list[x + 1..] {
                if a == b || !(wa || wb) || before(a, b) || before(b, a) {
                    continue;
                }
                let (writer, other) = if wb { (b, a) } else { (a, b) };
                errors.at_op(
                    ops[writer],
                    format!(
                        "writes storage {} while {} may still use it: no stream order or event separates them",
                        plan.buffers[storage as usize].name, ops[other]
                    ),
                );
                break 'pairs;
            }
        }
    }
}
