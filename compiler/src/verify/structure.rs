//! Structural checks: ids resolve, ops and buffers agree on ranks, kinds fit, rows are in range,
//! and every op sits once in its rank's program on its own stream, after what it depends on.

use super::Errors;
use crate::ir::{BufId, BufKind, OpId, OpKind, Output, Plan, RowSet};

pub fn check(plan: &Plan, errors: &mut Errors<'_>) {
    let cp = plan.header.cp;
    // Each op's place (rank, stream, index), by node index.
    let mut position: Vec<Option<(u32, usize, usize)>> =
        vec![None; petgraph::visit::NodeIndexable::node_bound(&plan.graph)];
    for (rank, program) in plan.programs.iter().enumerate() {
        for (s, stream) in program.iter().enumerate() {
            for (i, &id) in stream.iter().enumerate() {
                match plan.graph.node_weight(id.0) {
                    None => errors.at_rank(rank as u32, format!("program lists {id}, which is not in the graph")),
                    Some(op) if op.rank != rank as u32 || op.stream.index() != s => errors.at_op(
                        id,
                        format!("listed in rank {rank}'s {} program but belongs elsewhere", ["compute", "cp"][s]),
                    ),
                    Some(_) => {
                        if position[id.0.index()].replace((rank as u32, s, i)).is_some() {
                            errors.at_op(id, "listed twice in the programs");
                        }
                    }
                }
            }
        }
    }
    for id in plan.op_ids() {
        if position[id.0.index()].is_none() {
            errors.at_op(id, "is in no program: it would never run");
        }
    }
    for (from, to, _) in plan.deps() {
        let (a, b) = (plan.op(from), plan.op(to));
        if a.rank != b.rank {
            errors.at_op(to, format!("depends on {from} of rank {}: ranks meet only through transfers", a.rank));
        } else if a.stream == b.stream {
            if let (Some(pa), Some(pb)) = (position[from.0.index()], position[to.0.index()]) {
                if pa.2 >= pb.2 {
                    errors.at_op(to, format!("depends on {from}, which comes later on the same stream"));
                }
            }
        }
    }
    for id in plan.op_ids() {
        check_op(plan, id, cp, errors);
    }
}

fn check_op(plan: &Plan, id: OpId, cp: u32, errors: &mut Errors<'_>) {
    let op = plan.op(id);
    let kind = &op.kind;
    let mut bad_buffer = false;
    for b in kind.reads().into_iter().chain(kind.writes()) {
        match plan.buffers.get(b.0 as usize) {
            None => errors.at_op(id, format!("uses buffer b{}, which does not exist", b.0)),
            Some(buf) if buf.rank != op.rank => {
                errors.at_op(id, format!("uses buffer {} of rank {}", buf.name, buf.rank))
            }
            Some(_) => continue,
        }
        bad_buffer = true;
    }
    if bad_buffer {
        return;
    }
    if let Some(g) = kind.collective_group() {
        match plan.groups.get(g.0 as usize) {
            None => errors.at_op(id, format!("names group {}, which does not exist", g.0)),
            Some(group) if !group.members.contains(&op.rank) => {
                errors.at_op(id, format!("rank {} is not a member of group {}", op.rank, group.name))
            }
            Some(_) => {}
        }
    }
    let is = |b: BufId, want: BufKind| plan.buf(b).kind == want;
    let rows_fit = |b: BufId, rows: &RowSet| rows.max_end() <= plan.buf(b).rows && !rows.is_empty();
    let mut expect = |ok: bool, what: &str| {
        if !ok {
            errors.at_op(id, what.to_string());
        }
    };
    match kind {
        OpKind::SendRecv { sends, recvs } => {
            for t in sends.iter().chain(recvs) {
                expect(t.peer < cp && t.peer != op.rank, "a transfer's peer must be another rank of the plan");
            }
            expect(!sends.is_empty() || !recvs.is_empty(), "an empty sendrecv");
        }
        OpKind::AttnFwd { q, q_rows, kv, kv_rows, part, .. } => {
            expect(
                is(*q, BufKind::Q) && is(*kv, BufKind::Kv) && is(*part, BufKind::OPart),
                "attn_fwd reads q and kv and writes o_part",
            );
            expect(rows_fit(*q, q_rows) && rows_fit(*kv, kv_rows), "block rows out of the buffers' range");
            expect(plan.buf(*part).rows == plan.buf(*q).rows, "o_part must have the rows of q");
        }
        OpKind::Merge { acc, part, rows } => {
            expect(is(*acc, BufKind::OAcc) && is(*part, BufKind::OPart), "merge combines o_part into o_acc");
            expect(rows_fit(*acc, rows), "merge rows out of range");
        }
        OpKind::Normalize { acc, dst } => {
            expect(is(*acc, BufKind::OAcc) && is(*dst, BufKind::Out), "normalize turns o_acc into out")
        }
        OpKind::AttnBwd { q, q_rows, kv, kv_rows, dq, dkv, .. } => {
            expect(
                is(*q, BufKind::QBundle)
                    && is(*kv, BufKind::Kv)
                    && is(*dq, BufKind::DqAcc)
                    && is(*dkv, BufKind::DkvAcc),
                "attn_bwd reads qbundle and kv and accumulates dq_acc and dkv_acc",
            );
            expect(rows_fit(*q, q_rows) && rows_fit(*kv, kv_rows), "block rows out of the buffers' range");
        }
        OpKind::Store { output, src, sink } => {
            let want = match output {
                Output::O => BufKind::Out,
                Output::Dq => BufKind::DqAcc,
                Output::Dkv => BufKind::DkvAcc,
            };
            expect(is(*src, want), "stores o from out, dq from dq_acc, dkv from dkv_acc");
            // Sinks enter each row exactly once: at its one O store (dsinks at its one dQ store).
            let wants_sink = plan.problem.sinks && matches!(output, Output::O | Output::Dq);
            expect(
                *sink == wants_sink,
                if wants_sink {
                    "with sinks, every O and dQ store adds the rows' sink term; this one never does"
                } else {
                    "this store adds a sink term the problem does not have (or a dKV store adds one)"
                },
            );
        }
        _ => {}
    }
}
