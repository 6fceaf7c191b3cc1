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

#[cfg(test)]
mod tests {
    use super::*;

    fn comm(n: u32) -> CpuComm {
        CpuComm::new(n, Arc::new(AtomicBool::new(false)), Duration::from_secs(5))
    }

    #[test]
    fn grouped_ring_exchange_and_collectives() {
        let c = comm(3);
        /// What one rank got: from the ring, from the gather, from the reduce-scatter.
        type Got = (Vec<f32>, Vec<Vec<f32>>, Vec<f32>);
        let results: Vec<Got> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..3u32)
                .map(|me| {
                    let c = &c;
                    s.spawn(move || {
                        // Ring: send to the next rank, receive from the previous one, in one group.
                        let mine = vec![me as f32; 2];
                        let mut got = vec![0.0; 2];
                        let sends = [Send { peer: (me + 1) % 3, data: &mine }];
                        let mut recvs = [Recv { peer: (me + 2) % 3, data: &mut got }];
                        c.send_recv(me, "p2p", &sends, &mut recvs).unwrap();
                        let gathered = c.all_gather(me, "ag", &[0, 1, 2], &[me as f32 * 10.0]).unwrap();
                        let chunks = (0..3).map(|j| vec![(me * 3 + j) as f32]).collect();
                        let sum = c.reduce_scatter(me, "rs", &[0, 1, 2], chunks).unwrap();
                        (got, gathered, sum)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (me, (got, gathered, sum)) in results.into_iter().enumerate() {
            assert_eq!(got, vec![((me + 2) % 3) as f32; 2]);
            assert_eq!(gathered, vec![vec![0.0], vec![10.0], vec![20.0]]);
            // Member `me` receives chunk `me` of every member: Σ_r (3r + me).
            assert_eq!(sum, vec![(0..3).map(|r| (3 * r + me) as f32).sum::<f32>()]);
        }
    }

    #[test]
    fn a_recv_nobody_sends_times_out_naming_the_peer() {
        let c = CpuComm::new(2, Arc::new(AtomicBool::new(false)), Duration::from_millis(100));
        let mut buf = vec![0.0; 1];
        let err = c.send_recv(0, "p2p", &[], &mut [Recv { peer: 1, data: &mut buf }]).unwrap_err();
        assert!(matches!(err, CommError::Timeout { peer: 1, .. }), "{err}");
        assert!(err.to_string().contains("for rank 1 (to send p2p)"), "{err}");
    }

    #[test]
    fn mismatched_tags_are_reported() {
        let c = comm(2);
        c.send_recv(1, "all_gather", &[Send { peer: 0, data: &[1.0] }], &mut []).unwrap();
        let mut buf = vec![0.0; 1];
        let err = c.send_recv(0, "p2p", &[], &mut [Recv { peer: 1, data: &mut buf }]).unwrap_err();
        assert_eq!(err.to_string(), "expected p2p from rank 1, received all_gather");
    }
}
