//! Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one process per rank, one
//! thread per stream, one complete (`"ph": "X"`) event per op.
//!
//! Simulated timelines and measured CPU runs write the same format, so prediction and
//! measurement can be opened side by side. Times are microseconds, as the format requires.

use serde_json::{Value, json};

use super::timeline::Span;
use crate::ir::{Direction, Plan, Stream, print};

/// One op in a trace: which rank and stream, what it was, when (seconds from the trace's start).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    pub rank: u32,
    pub stream: Stream,
    pub name: String,
    pub category: &'static str,
    pub start_s: f64,
    pub end_s: f64,
}

/// The events of one played or measured plan, shifted by `offset_s` (to put a backward pass
/// after its forward pass).
pub fn events(plan: &Plan, spans: &[Span], offset_s: f64) -> Vec<TraceEvent> {
    let direction = match plan.header.direction {
        Direction::Forward => "fwd",
        Direction::Backward => "bwd",
    };
    spans
        .iter()
        .map(|span| {
            let described = print::describe(plan, span.op);
            let what = described.split_once(' ').map_or(described.as_str(), |(_, what)| what);
            let kind = plan.op(span.op).kind.name();
            let category = if kind.starts_with("attn") {
                "attention"
            } else if matches!(span.stream, Stream::Cp) || plan.op(span.op).kind.collective_group().is_some() {
                "communication"
            } else {
                "elementwise"
            };
            TraceEvent {
                rank: span.rank,
                stream: span.stream,
                name: format!("{direction} {what}"),
                category,
                start_s: span.start + offset_s,
                end_s: span.end + offset_s,
            }
        })
        .collect()
}

/// The trace document: metadata naming each rank and stream, then the events by start time.
pub fn document(events: &[TraceEvent], n_ranks: u32, title: &str) -> Value {
    let mut out = Vec::new();
    for rank in 0..n_ranks {
        out.push(
            json!({"name": "process_name", "ph": "M", "pid": rank, "tid": 0, "args": {"name": format!("rank {rank}")}}),
        );
        out.push(json!({"name": "process_sort_index", "ph": "M", "pid": rank, "tid": 0, "args": {"sort_index": rank}}));
        for (tid, stream) in [(0, "compute stream"), (1, "cp stream")] {
            out.push(json!({"name": "thread_name", "ph": "M", "pid": rank, "tid": tid, "args": {"name": stream}}));
        }
    }
    let mut sorted: Vec<&TraceEvent> = events.iter().collect();
    sorted.sort_by(|a, b| a.start_s.total_cmp(&b.start_s).then(a.rank.cmp(&b.rank)));
    for event in sorted {
        out.push(json!({
            "name": event.name,
            "cat": event.category,
            "ph": "X",
            "ts": event.start_s * 1e6,
            "dur": (event.end_s - event.start_s).max(0.0) * 1e6,
            "pid": event.rank,
            "tid": event.stream.index(),
        }));
    }
    json!({"traceEvents": out, "displayTimeUnit": "ms", "otherData": {"title": title}})
}
