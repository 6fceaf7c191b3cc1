//! Halos are minimal: every row a rank receives into a halo buffer is one its queries read
//! (`ir::needed`), so a halo exchange moves nothing the mask does not ask for. A rank's queries
//! are those its attention ops compute: its own under `p2p` and `all_gather`, its inner group's
//! under `a2a+p2p` (the all-to-all brought them).

use super::Errors;
use crate::ir::needed::needed_keys;
use crate::ir::{OpKind, Plan, RowSet};

pub fn check(plan: &Plan, errors: &mut Errors<'_>) {
    let mut queries = vec![RowSet::default(); plan.header.cp as usize];
    for id in plan.op_ids() {
        let op = plan.op(id);
        let (OpKind::AttnFwd { q, q_rows, .. } | OpKind::AttnBwd { q, q_rows, .. }) = &op.kind else { continue };
        let tokens = RowSet::from_intervals(plan.buf(*q).tokens.tokens_of(q_rows));
        queries[op.rank as usize] = queries[op.rank as usize].union(&tokens);
    }
    let needed: Vec<_> = queries.iter().map(|q| needed_keys(&plan.problem, q)).collect();
    for id in plan.op_ids() {
        let op = plan.op(id);
        let OpKind::SendRecv { recvs, .. } = &op.kind else { continue };
        for t in recvs {
            let buf = plan.buf(t.buf);
            if !buf.halo {
                continue;
            }
            let extra = buf.tokens.token_set().minus(&needed[op.rank as usize]);
            if !extra.is_empty() {
                errors.at_op(
                    id,
                    format!("receives tokens {extra} into halo {} that no query on rank {} reads", buf.name, op.rank),
                );
            }
        }
    }
}
