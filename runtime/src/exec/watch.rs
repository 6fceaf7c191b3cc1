//! What the executor does around the ops it runs: one thread per rank and stream, each thread's
//! current op (for the watchdog's report of every rank), panics caught and turned into the
//! failing rank's error, and the deliberate faults of the fault-handling tests.
//!
//! It runs no op and touches no device; the executor calls it before, around and after its ops.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use attnc_compiler::ir::{NodeIndex, OpId, OpKind, Plan, Stream, print};

use super::{Fault, RunOptions};
use crate::RuntimeError;

/// Runs `work(rank, stream)` on one named thread per rank of `ranks` and stream, and waits for all.
pub(crate) fn on_stream_threads(prefix: &str, ranks: impl Iterator<Item = u32>, work: impl Fn(u32, Stream) + Sync) {
    std::thread::scope(|scope| {
        for rank in ranks {
            for stream in Stream::ALL {
                let work = &work;
                std::thread::Builder::new()
                    .name(format!("{prefix}{rank}-{}", stream.name()))
                    .spawn_scoped(scope, move || work(rank, stream))
                    .expect("spawn a rank thread");
            }
        }
    });
}

/// An op as errors name it: `%12 (send kv to rank 1)`.
pub(crate) fn describe(plan: &Plan, id: OpId) -> String {
    let d = print::describe(plan, id);
    match d.split_once(' ') {
        Some((id, what)) => format!("{id} ({what})"),
        None => d,
    }
}

/// Each rank's and stream's op being run or waited for, for the watchdog's report.
pub(crate) struct Progress {
    current: Vec<[AtomicUsize; 2]>,
}

const DONE: usize = usize::MAX;

impl Progress {
    pub(crate) fn new(ranks: u32) -> Progress {
        Progress { current: (0..ranks).map(|_| [AtomicUsize::new(DONE), AtomicUsize::new(DONE)]).collect() }
    }

    pub(crate) fn at(&self, rank: u32, stream: Stream, id: OpId) {
        self.current[rank as usize][stream.index()].store(id.index(), Ordering::SeqCst);
    }

    pub(crate) fn done(&self, rank: u32, stream: Stream) {
        self.current[rank as usize][stream.index()].store(DONE, Ordering::SeqCst);
    }

    /// The watchdog's error: `rank`'s op `id` waited `waited` for `what`; every rank's state.
    pub(crate) fn watchdog(&self, plan: &Plan, rank: u32, id: OpId, what: String, waited: Duration) -> RuntimeError {
        let mut ranks = Vec::new();
        for (r, streams) in self.current.iter().enumerate() {
            for stream in Stream::ALL {
                let op = streams[stream.index()].load(Ordering::SeqCst);
                let state = if op == DONE { "done".to_string() } else { describe(plan, OpId(NodeIndex::new(op))) };
                ranks.push(format!("rank {r} {}: {state}", stream.name()));
            }
        }
        RuntimeError::Watchdog { rank, op: describe(plan, id), what, waited: waited.as_secs_f64(), ranks }
    }
}

/// Runs `op`, turning a panic into `rank`'s error naming the op.
pub(crate) fn catching(
    plan: &Plan,
    rank: u32,
    id: OpId,
    op: impl FnOnce() -> Result<(), RuntimeError>,
) -> Result<(), RuntimeError> {
    std::panic::catch_unwind(AssertUnwindSafe(op)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(RuntimeError::Rank { rank, op: describe(plan, id), message: format!("panicked: {message}") })
    })
}

/// The deliberate fault of `options` at op `id` of `rank`: a panic in the rank's first attention
/// kernel, or a communication stream that stops (until the run is aborted).
pub(crate) fn inject(
    plan: &Plan,
    options: &RunOptions,
    abort: &AtomicBool,
    rank: u32,
    id: OpId,
) -> Result<(), RuntimeError> {
    let op = plan.op(id);
    let is_attention = matches!(op.kind, OpKind::AttnFwd { .. } | OpKind::AttnBwd { .. });
    if options.fault == Some(Fault::PanicInKernel { rank }) && is_attention {
        panic!("injected fault in an attention kernel");
    }
    if options.fault == Some(Fault::HangBeforeComm { rank }) && op.stream == Stream::Cp {
        while !abort.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
        return Err(RuntimeError::Aborted);
    }
    Ok(())
}
