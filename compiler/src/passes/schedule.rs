//! Pass `schedule`: events for every dependency that crosses streams, as CUDA events would be.
//!
//! Ops already sit on their streams in issue order. A dependency inside one stream is kept by
//! that order; one across streams becomes an event the producer records and the consumer waits
//! on. A wait implied by an earlier wait on the same stream (stream order makes the earlier
//! producer's completion cover it) is dropped, so each step waits only for what it needs.

use std::collections::HashMap;

use crate::ir::{OpId, Plan, Stream};

pub fn run(plan: &mut Plan) {
    let mut position: HashMap<OpId, usize> = HashMap::new();
    for program in &plan.programs {
        for stream in program {
            for (i, &id) in stream.iter().enumerate() {
                position.insert(id, i);
            }
        }
    }
    for rank in 0..plan.header.cp as usize {
        for stream in Stream::ALL {
            // The latest position on the other stream this stream has already waited for.
            let mut covered: Option<usize> = None;
            for id in plan.programs[rank][stream.index()].clone() {
                let latest = plan
                    .deps_of(id)
                    .filter(|(from, _)| plan.op(*from).stream != stream)
                    .map(|(from, _)| (position[&from], from))
                    .max();
                let Some((pos, producer)) = latest else { continue };
                if covered.is_some_and(|c| c >= pos) {
                    continue;
                }
                covered = Some(pos);
                let event = match plan.op(producer).record {
                    Some(e) => e,
                    None => {
                        let e = plan.new_event();
                        plan.op_mut(producer).record = Some(e);
                        e
                    }
                };
                plan.op_mut(id).waits.push(event);
            }
        }
    }
}
