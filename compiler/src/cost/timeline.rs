//! Discrete-event playback of a verified plan: every rank's two streams in issue order, with
//! the cost model's durations, dependencies, events, and the rendezvous of communication.
//!
//! An op is *posted* when its stream reaches it, its dependencies have finished and the events
//! it waits on are recorded; it then starts at the latest of those times. A grouped send/recv
//! starts once it and every peer part are posted; a collective once every member's matching op
//! is. Nothing else is shared, so the result is the critical path through streams and
//! rendezvous: the step time, each stream's busy time, the communication not hidden behind
//! compute, and each rank's idle time.

use std::collections::HashMap;

use super::{CostModel, DeviceProfile};
use crate::ir::{OpId, OpKind, Stream};
use crate::verify::Verified;

/// One op as played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub rank: u32,
    pub stream: Stream,
    pub op: OpId,
    pub start: f64,
    pub end: f64,
}

/// Per rank: busy time per stream, communication not overlapped by compute, and idle time.
#[derive(Clone, Debug, PartialEq)]
pub struct RankSummary {
    pub rank: u32,
    pub compute_s: f64,
    pub comm_s: f64,
    pub exposed_comm_s: f64,
    /// Step time minus the time either stream is busy.
    pub idle_s: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub spans: Vec<Span>,
    pub step_s: f64,
    pub ranks: Vec<RankSummary>,
}

/// Plays a verified plan: it cannot deadlock and every rendezvous matches (the proof's pairs).
pub fn simulate(verified: &Verified, profile: &DeviceProfile) -> Timeline {
    let (plan, pairs) = (verified.plan(), verified.pairs());
    let model = CostModel { profile };
    let cp = plan.header.cp as usize;
    let mut pc = vec![[0usize; 2]; cp];
    let mut clock = vec![[0.0f64; 2]; cp];
    let mut posted: HashMap<OpId, f64> = HashMap::new();
    let mut finished: HashMap<OpId, f64> = HashMap::new();
    let mut recorded: HashMap<u32, f64> = HashMap::new();
    let mut spans = Vec::new();

    // The peers a send/recv group meets: the ops holding the other end of each part.
    let peers_of = |id: OpId| -> Vec<OpId> {
        let OpKind::SendRecv { sends, recvs } = &plan.op(id).kind else { return Vec::new() };
        let mut peers = Vec::new();
        for i in 0..sends.len() {
            peers.extend(pairs.send_to_recv.get(&(id, i)).map(|p| p.0));
        }
        for i in 0..recvs.len() {
            peers.extend(pairs.recv_to_send.get(&(id, i)).map(|p| p.0));
        }
        peers
    };

    loop {
        let mut progress = false;
        for rank in 0..cp {
            for s in 0..2 {
                while let Some(&id) = plan.programs[rank][s].get(pc[rank][s]) {
                    let op = plan.op(id);
                    if let std::collections::hash_map::Entry::Vacant(entry) = posted.entry(id) {
                        let deps: Option<f64> = plan
                            .deps_of(id)
                            .map(|(d, _)| finished.get(&d).copied())
                            .try_fold(0.0f64, |a, t| t.map(|t| a.max(t)));
                        let events: Option<f64> = op
                            .waits
                            .iter()
                            .map(|e| recorded.get(&e.0).copied())
                            .try_fold(0.0f64, |a, t| t.map(|t| a.max(t)));
                        let (Some(deps), Some(events)) = (deps, events) else { break };
                        entry.insert(clock[rank][s].max(deps).max(events));
                        progress = true;
                    }
                    // The ops that must be posted before this one can start, itself included.
                    let partners: Vec<OpId> = match &op.kind {
                        OpKind::SendRecv { .. } => std::iter::once(id).chain(peers_of(id)).collect(),
                        kind => match kind.collective_group() {
                            Some(group) => {
                                let rank_ops = &pairs.collectives[&(group, op.rank)];
                                let k = rank_ops.iter().position(|&o| o == id).expect("verified collective");
                                plan.group(group).members.iter().map(|m| pairs.collectives[&(group, *m)][k]).collect()
                            }
                            None => vec![id],
                        },
                    };
                    let Some(start) =
                        partners.iter().map(|p| posted.get(p).copied()).try_fold(0.0f64, |a, t| t.map(|t| a.max(t)))
                    else {
                        break;
                    };
                    let end = start + model.op(plan, id);
                    finished.insert(id, end);
                    if let Some(e) = op.record {
                        recorded.insert(e.0, end);
                    }
                    clock[rank][s] = end;
                    pc[rank][s] += 1;
                    spans.push(Span { rank: rank as u32, stream: op.stream, op: id, start, end });
                    progress = true;
                }
            }
        }
        if !progress {
            break;
        }
    }
    let step_s = spans.iter().map(|s| s.end).fold(0.0, f64::max);
    let ranks = (0..cp as u32).map(|rank| summarize(&spans, rank, step_s)).collect();
    Timeline { spans, step_s, ranks }
}

/// Merges intervals into disjoint ones.
fn union(mut intervals: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    intervals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (s, e) in intervals {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

fn length(intervals: &[(f64, f64)]) -> f64 {
    intervals.iter().map(|(s, e)| e - s).sum()
}

/// Busy, exposed and idle time of one rank, from spans (simulated or measured).
pub fn summarize(spans: &[Span], rank: u32, step_s: f64) -> RankSummary {
    let of = |stream: Stream| {
        union(spans.iter().filter(|s| s.rank == rank && s.stream == stream).map(|s| (s.start, s.end)).collect())
    };
    let (compute, comm) = (of(Stream::Compute), of(Stream::Cp));
    let mut hidden = 0.0;
    for &(a, b) in &comm {
        for &(c, d) in &compute {
            hidden += (b.min(d) - a.max(c)).max(0.0);
        }
    }
    let both = union(compute.iter().chain(&comm).copied().collect());
    RankSummary {
        rank,
        compute_s: length(&compute),
        comm_s: length(&comm),
        exposed_comm_s: length(&comm) - hidden,
        idle_s: (step_s - length(&both)).max(0.0),
    }
}
