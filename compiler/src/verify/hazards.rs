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
    // Each op's position in its rank's list of ops (ops belong to one rank each, so one table
    // serves every rank): ranks are checked one by one without hashing op ids.
    let mut position = vec![usize::MAX; petgraph::visit::NodeIndexable::node_bound(&plan.graph)];
    for rank in 0..plan.header.cp {
        for (i, o) in plan.rank_ops(rank).enumerate() {
            position[o.0.index()] = i;
        }
    }
    for rank in 0..plan.header.cp {
        check_rank(plan, rank, &position, errors);
    }
}

fn check_rank(plan: &Plan, rank: u32, position: &[usize], errors: &mut Errors<'_>) {
    let ops: Vec<OpId> = plan.rank_ops(rank).collect();
    let index = |o: OpId| position[o.0.index()];
    let n = ops.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for program in &plan.programs[rank as usize] {
        for w in program.windows(2) {
            preds[index(w[1])].push(index(w[0]));
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
    // Ancestor bitsets in topological order, one flat table (row i: the ancestors of op i).
    let words = n.div_ceil(64);
    let mut anc: Vec<u64> = vec![0; n * words];
    let mut indegree: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, ps) in preds.iter().enumerate() {
        for &p in ps {
            succs[p].push(i);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut visited = 0;
    // Each op's place in the topological order the walk takes: the storage check below visits
    // accesses in it.
    let mut topo = vec![0usize; n];
    while let Some(i) = ready.pop() {
        topo[i] = visited;
        visited += 1;
        for &p in &preds[i] {
            // Rows p and i are disjoint (p != i): split the table to read one and write the other.
            let (row_i, row_p) = if p < i {
                let (head, tail) = anc.split_at_mut(i * words);
                (&mut tail[..words], &head[p * words..(p + 1) * words])
            } else {
                let (head, tail) = anc.split_at_mut(p * words);
                (&mut head[i * words..(i + 1) * words], &tail[..words])
            };
            for (d, s) in row_i.iter_mut().zip(row_p) {
                *d |= *s;
            }
            row_i[p / 64] |= 1 << (p % 64);
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
    let before = |a: usize, b: usize| anc[b * words + a / 64] >> (a % 64) & 1 == 1;
    // The dependencies into this rank's ops from ops of the same rank (a transfer's two ends are
    // matched by the communication checks, not here).
    for &to in &ops {
        for (from, _) in plan.deps_of(to) {
            if plan.op(from).rank != rank {
                continue;
            }
            let (a, b) = (index(from), index(to));
            if before(a, b) {
                continue;
            }
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
    // Any two accesses of a storage, one a write, must be ordered. Visited in topological order,
    // that holds for all pairs exactly when every access follows the last write and every write
    // also follows the reads since it (the rest is transitivity through the writes), so each
    // storage costs its accesses, not their pairs.
    for (storage, mut list) in storages {
        list.sort_by_key(|&(i, w)| (topo[i], !w));
        let mut last_write: Option<usize> = None;
        let mut reads_since: Vec<usize> = Vec::new();
        let race = |other: usize| {
            format!(
                "writes storage {} while {} may still use it: no stream order or event separates them",
                plan.buffers[storage as usize].name, ops[other]
            )
        };
        for (i, writes) in list {
            if let Some(w) = last_write
                && w != i
                && !before(w, i)
            {
                let (writer, other) = if writes { (i, w) } else { (w, i) };
                errors.at_op(ops[writer], race(other));
                break;
            }
            if writes {
                if let Some(&r) = reads_since.iter().find(|&&r| r != i && !before(r, i)) {
                    errors.at_op(ops[i], race(r));
                    break;
                }
                last_write = Some(i);
                reads_since.clear();
            } else {
                reads_since.push(i);
            }
        }
    }
}
