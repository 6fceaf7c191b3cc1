//! The communicator: NCCL's semantics behind a trait, and its CPU implementation.
//!
//! A [`Communicator`] serves every rank of one plan; each call names the calling rank and, for
//! collectives, the group's members (one group per process group of the plan). Grouped
//! send/recv posts every send, then completes every recv, as `ncclGroupStart/End` would. The
//! CUDA/NCCL backend is a second implementation of the same trait.
//!
//! The CPU implementation connects in-process ranks by one bounded channel per ordered pair: a
//! message is the sent slice, copied once (as a real transfer copies it once). Every wait
//! polls the run's abort flag and gives up after the watchdog timeout, so a failed or stuck
//! rank never hangs the others.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why a communication call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommError {
    #[error("waited {waited:.1} s for rank {peer} ({what})")]
    Timeout { peer: u32, what: String, waited: f64 },
    #[error("expected {expected} from rank {peer}, received {got}")]
    Mismatch { peer: u32, expected: String, got: String },
    #[error("aborted: another rank failed")]
    Aborted,
}

/// One rank's view of a transfer: peer and data.
pub struct Send<'a> {
    pub peer: u32,
    pub data: &'a [f32],
}

pub struct Recv<'a> {
    pub peer: u32,
    pub data: &'a mut [f32],
}

/// NCCL-like communication among the ranks of a plan.
pub trait Communicator: Sync {
    /// One group of sends and recvs; returns when every recv has its data.
    fn send_recv(&self, me: u32, tag: &str, sends: &[Send<'_>], recvs: &mut [Recv<'_>]) -> Result<(), CommError>;

    /// Member j of `members` receives chunk j of every member; returns the chunks received, by member.
    fn all_to_all(
        &self,
        me: u32,
        tag: &str,
        members: &[u32],
        chunks: Vec<Vec<f32>>,
    ) -> Result<Vec<Vec<f32>>, CommError>;

    /// Every member's `data`, by member.
    fn all_gather(&self, me: u32, tag: &str, members: &[u32], data: &[f32]) -> Result<Vec<Vec<f32>>, CommError> {
        self.all_to_all(me, tag, members, vec![data.to_vec(); members.len()])
    }

    /// The sum over members of their chunk for `me`.
    fn reduce_scatter(
        &self,
        me: u32,
        tag: &str,
        members: &[u32],
        chunks: Vec<Vec<f32>>,
    ) -> Result<Vec<f32>, CommError> {
        let received = self.all_to_all(me, tag, members, chunks)?;
        let mut sum = vec![0.0f32; received.first().map_or(0, Vec::len)];
        for part in received {
            for (s, x) in sum.iter_mut().zip(part) {
                *s += x;
            }
        }
        Ok(sum)
    }

    fn barrier(&self, me: u32, tag: &str, members: &[u32]) -> Result<(), CommError> {
        self.all_to_all(me, tag, members, vec![Vec::new(); members.len()]).map(|_| ())
    }
}

struct Message {
    tag: String,
    data: Vec<f32>,
}

/// In-process ranks connected by bounded channels.
pub struct CpuComm {
    n: usize,
    senders: Vec<SyncSender<Message>>,
    receivers: Vec<Mutex<Receiver<Message>>>,
    abort: Arc<AtomicBool>,
    timeout: Duration,
}

/// Messages in flight per ordered pair of ranks before a sender waits.
const CAPACITY: usize = 4;

impl CpuComm {
    pub fn new(n: u32, abort: Arc<AtomicBool>, timeout: Duration) -> CpuComm {
        let n = n as usize;
        let mut senders = Vec::with_capacity(n * n);
        let mut receivers = Vec::with_capacity(n * n);
        for _ in 0..n * n {
            let (s, r) = sync_channel(CAPACITY);
            senders.push(s);
            receivers.push(Mutex::new(r));
        }
        CpuComm { n, senders, receivers, abort, timeout }
    }

    fn channel(&self, from: u32, to: u32) -> usize {
        from as usize * self.n + to as usize
    }

    fn post(&self, me: u32, peer: u32, tag: &str, data: Vec<f32>) -> Result<(), CommError> {
        let mut message = Message { tag: tag.to_string(), data };
        let start = Instant::now();
        loop {
            match self.senders[self.channel(me, peer)].try_send(message) {
                Ok(()) => return Ok(()),
                Err(std::sync::mpsc::TrySendError::Full(m)) => message = m,
                Err(std::sync::mpsc::TrySendError::Disconnected(_)) => return Err(CommError::Aborted),
            }
            if self.abort.load(Ordering::Relaxed) {
                return Err(CommError::Aborted);
            }
            if start.elapsed() > self.timeout {
                let waited = start.elapsed().as_secs_f64();
                return Err(CommError::Timeout { peer, what: format!("to accept {tag}"), waited });
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn take(&self, me: u32, peer: u32, tag: &str) -> Result<Vec<f32>, CommError> {
        let receiver = self.receivers[self.channel(peer, me)].lock().map_err(|_| CommError::Aborted)?;
        let start = Instant::now();
        loop {
            match receiver.recv_timeout(Duration::from_millis(20)) {
                Ok(m) if m.tag == tag => return Ok(m.data),
                Ok(m) => return Err(CommError::Mismatch { peer, expected: tag.to_string(), got: m.tag }),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(CommError::Aborted),
            }
            if self.abort.load(Ordering::Relaxed) {
                return Err(CommError::Aborted);
            }
            if start.elapsed() > self.timeout {
                let waited = start.elapsed().as_secs_f64();
                return Err(CommError::Timeout { peer, what: format!("to send {tag}"), waited });
            }
        }
    }
}

impl Communicator for CpuComm {
    fn send_recv(&self, me: u32, tag: &str, sends: &[Send<'_>], recvs: &mut [Recv<'_>]) -> Result<(), CommError> {
        for s in sends {
            self.post(me, s.peer, tag, s.data.to_vec())?;
        }
        for r in recvs.iter_mut() {
            let data = self.take(me, r.peer, tag)?;
            if data.len() != r.data.len() {
                return Err(CommError::Mismatch {
                    peer: r.peer,
                    expected: format!("{} values", r.data.len()),
                    got: format!("{} values", data.len()),
                });
            }
            r.data.copy_from_slice(&data);
        }
        Ok(())
    }

    fn all_to_all(
        &self,
        me: u32,
        tag: &str,
        members: &[u32],
        chunks: Vec<Vec<f32>>,
    ) -> Result<Vec<Vec<f32>>, CommError> {
        let mut mine = Vec::new();
        for (&peer, chunk) in members.iter().zip(chunks) {
            if peer == me {
                mine = chunk;
            } else {
                self.post(me, peer, tag, chunk)?;
            }
        }
        let mut out = Vec::with_capacity(members.len());
        for &peer in members {
            if peer == me {
                out.push(std::mem::take(&mut mine));
            } else {
                out.push(self.take(me, peer, tag)?);
            }
        }
        Ok(out)
    }
}
