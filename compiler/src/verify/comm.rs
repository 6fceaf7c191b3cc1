//! Communication matching: sends meet recvs, collectives are entered in one order.
//!
//! As NCCL pairs them, the k-th send from rank a to rank b meets the k-th recv on b from a; both
//! must move the same shape (kind, rows, heads, hence dtype and bytes). Every member of a group
//! must enter the same sequence of collectives on it. The pairing found here drives the
//! deadlock simulation.

use std::collections::{BTreeMap, HashMap};

use super::Errors;
use crate::ir::{A2aDir, BufId, GroupId, OpId, OpKind, Plan};

/// One side of a transfer: the op and the index of the part within its sends or recvs.
pub type Part = (OpId, usize);

#[derive(Debug, Default)]
pub struct Pairs {
    pub send_to_recv: HashMap<Part, Part>,
    pub recv_to_send: HashMap<Part, Part>,
    /// Per group and member: that member's collectives on the group, in order.
    pub collectives: BTreeMap<(GroupId, u32), Vec<OpId>>,
}

/// A rank's ops in communication order: the CP stream, then the compute stream.
fn comm_order(plan: &Plan, rank: u32) -> Vec<OpId> {
    let p = &plan.programs[rank as usize];
    p[1].iter().chain(&p[0]).copied().collect()
}

fn signature(kind: &OpKind) -> String {
    match kind {
        OpKind::AllToAll { dir: A2aDir::SeqToHeads { natural }, .. } => {
            format!("all_to_all seq->heads natural={natural}")
        }
        OpKind::AllToAll { dir: A2aDir::HeadsToSeq { .. }, .. } => "all_to_all heads->seq".to_string(),
        OpKind::AllGather { natural, .. } => format!("all_gather natural={natural}"),
        other => other.name().to_string(),
    }
}

pub fn check(plan: &Plan, errors: &mut Errors<'_>) -> Pairs {
    let mut pairs = Pairs::default();
    let mut sends: BTreeMap<(u32, u32), Vec<(Part, BufId)>> = BTreeMap::new();
    let mut recvs: BTreeMap<(u32, u32), Vec<(Part, BufId)>> = BTreeMap::new();
    for rank in 0..plan.header.cp {
        for id in comm_order(plan, rank) {
            let kind = &plan.op(id).kind;
            if let OpKind::SendRecv { sends: s, recvs: r } = kind {
                for (i, t) in s.iter().enumerate() {
                    sends.entry((rank, t.peer)).or_default().push(((id, i), t.buf));
                }
                for (i, t) in r.iter().enumerate() {
                    recvs.entry((t.peer, rank)).or_default().push(((id, i), t.buf));
                }
            }
            if let Some(g) = kind.collective_group() {
                pairs.collectives.entry((g, rank)).or_default().push(id);
            }
        }
    }
    let keys: std::collections::BTreeSet<(u32, u32)> = sends.keys().chain(recvs.keys()).copied().collect();
    for key in keys {
        let (from, to) = key;
        let s = sends.get(&key).map(Vec::as_slice).unwrap_or(&[]);
        let r = recvs.get(&key).map(Vec::as_slice).unwrap_or(&[]);
        if s.len() != r.len() {
            let extra = if s.len() > r.len() { s[r.len()].0.0 } else { r[s.len()].0.0 };
            errors.at_op(
                extra,
                format!(
                    "rank {from} sends {} time(s) to rank {to}, which receives {} time(s) from rank {from}",
                    s.len(),
                    r.len()
                ),
            );
        }
        for ((sp, sb), (rp, rb)) in s.iter().zip(r) {
            let (a, b) = (plan.buf(*sb), plan.buf(*rb));
            if (a.kind, a.rows, a.heads) != (b.kind, b.rows, b.heads) {
                errors.at_op(
                    rp.0,
                    format!(
                        "receives {} ({} rows x {} heads) from rank {from}, which sends {} ({} {} rows x {} heads)",
                        b.name,
                        b.rows,
                        b.heads,
                        a.name,
                        a.kind.name(),
                        a.rows,
                        a.heads
                    ),
                );
            }
            pairs.send_to_recv.insert(*sp, *rp);
            pairs.recv_to_send.insert(*rp, *sp);
        }
    }
    for (gi, group) in plan.groups.iter().enumerate() {
        let g = GroupId(gi as u32);
        let Some(&first) = group.members.first() else { continue };
        let reference: Vec<String> =
            pairs.collectives.get(&(g, first)).into_iter().flatten().map(|&id| signature(&plan.op(id).kind)).collect();
        for &m in &group.members[1..] {
            let mine: Vec<OpId> = pairs.collectives.get(&(g, m)).cloned().unwrap_or_default();
            for (k, &id) in mine.iter().enumerate() {
                let sig = signature(&plan.op(id).kind);
                match reference.get(k) {
                    Some(want) if *want == sig => {}
                    Some(want) => errors.at_op(
                        id,
                        format!(
                            "collective #{k} on group {}: rank {first} enters {want}, rank {m} enters {sig}",
                            group.name
                        ),
                    ),
                    None => errors
                        .at_op(id, format!("collective #{k} on group {}: rank {first} never enters it", group.name)),
                }
            }
            if mine.len() < reference.len() {
                errors.at_rank(
                    m,
                    format!(
                        "enters {} collective(s) on group {}, rank {first} enters {}",
                        mine.len(),
                        group.name,
                        reference.len()
                    ),
                );
            }
        }
    }
    pairs
}
