//! The partition covers every token exactly once, each rank loads exactly its tokens, and RoPE
//! positions are the tokens' positions in their sequences.

use super::Errors;
use crate::ir::{Input, Interval, OpKind, Plan, TokenMap, display_intervals_of};

pub fn check(plan: &Plan, errors: &mut Errors<'_>) {
    let mut all: Vec<(Interval, u32)> =
        plan.partition.iter().enumerate().flat_map(|(r, m)| m.runs.iter().map(move |&i| (i, r as u32))).collect();
    all.sort();
    let mut next = 0u64;
    for (interval, rank) in &all {
        if interval.start < next {
            errors.at_rank(*rank, format!("partition gives tokens {interval}, which another rank also holds"));
        } else if interval.start > next {
            errors.global(format!("partition leaves tokens {}..{} on no rank", next, interval.start));
        }
        next = next.max(interval.end);
    }
    if next != plan.problem.tokens {
        errors.global(format!("partition covers tokens up to {next} of {}", plan.problem.tokens));
    }
    for rank in 0..plan.header.cp {
        let mut seen: Vec<Input> = Vec::new();
        for id in plan.rank_ops(rank).collect::<Vec<_>>() {
            let OpKind::Load { input, runs, .. } = &plan.op(id).kind else { continue };
            if seen.contains(input) {
                errors.at_op(id, format!("loads {input:?} a second time"));
            }
            seen.push(*input);
            let tokens = TokenMap::new(runs.iter().map(|r| Interval::new(r.token, r.token + r.len)).collect());
            if tokens != plan.partition[rank as usize] {
                errors.at_op(
                    id,
                    format!(
                        "loads tokens {} but the partition gives rank {rank} tokens {}",
                        display_intervals_of(&tokens),
                        display_intervals_of(&plan.partition[rank as usize])
                    ),
                );
            }
            for run in runs {
                if run.len == 0 {
                    continue;
                }
                let doc = plan.problem.doc_of(run.token);
                let want = run.token - doc.start;
                if run.token + run.len > doc.end {
                    errors.at_op(id, format!("run {}..{} crosses a sequence boundary", run.token, run.token + run.len));
                } else if run.position != want {
                    errors.at_op(
                        id,
                        format!(
                            "RoPE positions {}.. for tokens {}..{}, whose positions are {want}..",
                            run.position,
                            run.token,
                            run.token + run.len
                        ),
                    );
                }
            }
        }
    }
}
