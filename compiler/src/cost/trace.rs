//! Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one process per rank, one
//! thread per stream, one complete (`"ph": "X"`) event per op.
//!
//! Simulated timelines and measured CPU runs write the same format, so prediction and
//! measurement can be opened side by side. Times are microseconds, as the format requires.

use serde::{Deserialize, Serialize};

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

/// The trace document of the Chrome trace-event format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceDocument {
    #[serde(rename = "traceEvents")]
    pub trace_events: Vec<TraceRecord>,
    #[serde(rename = "displayTimeUnit")]
    pub display_time_unit: String,
    #[serde(rename = "otherData")]
    pub other_data: TraceTitle,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceTitle {
    pub title: String,
}

/// One record: a metadata record (`"ph": "M"`, naming a process or thread) or a complete event
/// (`"ph": "X"`, microseconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRecord {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cat: Option<String>,
    pub ph: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dur: Option<f64>,
    pub pid: u32,
    pub tid: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<TraceArgs>,
}

/// The arguments of a metadata record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TraceArgs {
    Name { name: String },
    SortIndex { sort_index: u32 },
}

/// The trace document: metadata naming each rank and stream, then the events by start time.
pub fn document(events: &[TraceEvent], n_ranks: u32, title: &str) -> TraceDocument {
    let meta = |name: &str, pid: u32, tid: u32, args: TraceArgs| TraceRecord {
        name: name.to_string(),
        cat: None,
        ph: "M".to_string(),
        ts: None,
        dur: None,
        pid,
        tid,
        args: Some(args),
    };
    let mut out = Vec::new();
    for rank in 0..n_ranks {
        out.push(meta("process_name", rank, 0, TraceArgs::Name { name: format!("rank {rank}") }));
        out.push(meta("process_sort_index", rank, 0, TraceArgs::SortIndex { sort_index: rank }));
        for (tid, stream) in [(0, "compute stream"), (1, "cp stream")] {
            out.push(meta("thread_name", rank, tid, TraceArgs::Name { name: stream.to_string() }));
        }
    }
    let mut sorted: Vec<&TraceEvent> = events.iter().collect();
    sorted.sort_by(|a, b| a.start_s.total_cmp(&b.start_s).then(a.rank.cmp(&b.rank)));
    for event in sorted {
        out.push(TraceRecord {
            name: event.name.clone(),
            cat: Some(event.category.to_string()),
            ph: "X".to_string(),
            ts: Some(event.start_s * 1e6),
            dur: Some((event.end_s - event.start_s).max(0.0) * 1e6),
            pid: event.rank,
            tid: event.stream.index() as u32,
            args: None,
        });
    }
    TraceDocument {
        trace_events: out,
        display_time_unit: "ms".to_string(),
        other_data: TraceTitle { title: title.to_string() },
    }
}
