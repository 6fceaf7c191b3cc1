//! Halos are minimal: every row a rank receives into a halo buffer is one its queries read
//! (`ir::needed`), so a halo exchange moves nothing the mask does not ask for.

use super::Errors;
use crate::ir::needed::{loaded, needed_keys};
use crate::ir::{OpKind, Plan};

pub fn check(plan: &Plan, errors: &mut Errors<'_>) {
    let (queries, _) = loaded(plan);
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
