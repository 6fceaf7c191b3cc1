//! torchrun's environment (`RANK`, `WORLD_SIZE`, `LOCAL_RANK`, `MASTER_ADDR`, `MASTER_PORT`) and a
//! small TCP rendezvous through which rank 0 shares bytes (NCCL unique ids) with every rank.
//!
//! Rank 0 listens on `MASTER_ADDR:MASTER_PORT`; every other rank connects (retrying until the
//! deadline, since processes start in any order), says which rank it is, and reads rank 0's
//! payload. Rank 0 answers once all `WORLD_SIZE − 1` ranks have checked in, so the rendezvous is
//! also a barrier. Every wait has a deadline; a wrong or duplicate rank is an error naming it.
//! The rendezvous knows nothing of CUDA: it runs (and is tested) on any machine.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

#[derive(Debug, thiserror::Error)]
pub enum RendezvousError {
    #[error("environment variable {name}: {message} (attnc launch or torchrun sets it)")]
    Env { name: &'static str, message: String },
    #[error("rank {rank}: {message}")]
    Io { rank: u32, message: String },
    #[error("rank {rank}: timed out after {waited:.1} s {what}")]
    Timeout { rank: u32, what: String, waited: f64 },
}

/// Where this process sits in the job, as torchrun describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobEnv {
    pub rank: u32,
    pub world_size: u32,
    pub local_rank: u32,
    pub master_addr: String,
    pub master_port: u16,
}

impl JobEnv {
    /// Reads the job from `get` (the process environment in `from_env`).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<JobEnv, RendezvousError> {
        fn number<T: std::str::FromStr>(
            get: &impl Fn(&str) -> Option<String>,
            name: &'static str,
        ) -> Result<T, RendezvousError> {
            let v = get(name).ok_or(RendezvousError::Env { name, message: "is not set".into() })?;
            v.trim().parse().map_err(|_| RendezvousError::Env { name, message: format!("`{v}` is not a number") })
        }
        let env = JobEnv {
            rank: number(&get, "RANK")?,
            world_size: number(&get, "WORLD_SIZE")?,
            local_rank: number(&get, "LOCAL_RANK")?,
            master_addr: get("MASTER_ADDR")
                .ok_or(RendezvousError::Env { name: "MASTER_ADDR", message: "is not set".into() })?,
            master_port: number(&get, "MASTER_PORT")?,
        };
        if env.world_size == 0 || env.rank >= env.world_size {
            return Err(RendezvousError::Env {
                name: "RANK",
                message: format!("{} is not below WORLD_SIZE {}", env.rank, env.world_size),
            });
        }
        Ok(env)
    }

    pub fn from_env() -> Result<JobEnv, RendezvousError> {
        JobEnv::from_lookup(|name| std::env::var(name).ok())
    }

    fn master(&self) -> Result<SocketAddr, RendezvousError> {
        let io = |message: String| RendezvousError::Io { rank: self.rank, message };
        (self.master_addr.as_str(), self.master_port)
            .to_socket_addrs()
            .map_err(|e| io(format!("MASTER_ADDR {}:{}: {e}", self.master_addr, self.master_port)))?
            .next()
            .ok_or_else(|| io(format!("MASTER_ADDR {} resolves to no address", self.master_addr)))
    }
}

const MAGIC: &[u8; 8] = b"attnc-rv";

/// Rank 0's `payload`, on every rank (rank 0 passes it, the others `None`).
pub fn broadcast(env: &JobEnv, payload: Option<&[u8]>, timeout: Duration) -> Result<Vec<u8>, RendezvousError> {
    let deadline = Instant::now() + timeout;
    let io = |message: String| RendezvousError::Io { rank: env.rank, message };
    let timed_out = |what: String| RendezvousError::Timeout { rank: env.rank, what, waited: timeout.as_secs_f64() };
    let addr = env.master()?;
    if env.rank == 0 {
        let payload = payload.ok_or_else(|| io("rank 0 has nothing to share".into()))?;
        let listener = TcpListener::bind(addr).map_err(|e| io(format!("listening on {addr}: {e}")))?;
        listener.set_nonblocking(true).map_err(|e| io(e.to_string()))?;
        let mut peers: Vec<Option<TcpStream>> = (0..env.world_size).map(|_| None).collect();
        let mut waiting = env.world_size - 1;
        while waiting > 0 {
            match listener.accept() {
                Ok((mut stream, from)) => {
                    stream.set_nonblocking(false).map_err(|e| io(e.to_string()))?;
                    stream.set_read_timeout(Some(Duration::from_secs(5))).map_err(|e| io(e.to_string()))?;
                    let mut hello = [0u8; 12];
                    stream.read_exact(&mut hello).map_err(|e| io(format!("reading a hello from {from}: {e}")))?;
                    let rank = u32::from_le_bytes(hello[8..].try_into().expect("4 bytes"));
                    if &hello[..8] != MAGIC || rank == 0 || rank >= env.world_size {
                        return Err(io(format!("{from} claims to be rank {rank} of {}", env.world_size)));
                    }
                    if peers[rank as usize].replace(stream).is_some() {
                        return Err(io(format!("rank {rank} checked in twice (the second time from {from})")));
                    }
                    waiting -= 1;
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() > deadline {
                        let missing: Vec<String> = (1..env.world_size)
                            .filter(|&r| peers[r as usize].is_none())
                            .map(|r| r.to_string())
                            .collect();
                        return Err(timed_out(format!("waiting for rank(s) {} on {addr}", missing.join(", "))));
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(io(format!("accepting on {addr}: {e}"))),
            }
        }
        let mut message = (payload.len() as u64).to_le_bytes().to_vec();
        message.extend_from_slice(payload);
        for stream in peers.iter_mut().flatten() {
            stream.write_all(&message).map_err(|e| io(format!("sending the payload: {e}")))?;
        }
        return Ok(payload.to_vec());
    }
    let mut stream = loop {
        match TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
            Ok(s) => break s,
            Err(e) if Instant::now() > deadline => {
                return Err(timed_out(format!("connecting to rank 0 at {addr} (last error: {e})")));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    let mut hello = MAGIC.to_vec();
    hello.extend_from_slice(&env.rank.to_le_bytes());
    stream.write_all(&hello).map_err(|e| io(format!("checking in with rank 0: {e}")))?;
    let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10));
    stream.set_read_timeout(Some(left)).map_err(|e| io(e.to_string()))?;
    let mut len = [0u8; 8];
    stream.read_exact(&mut len).map_err(|e| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
            timed_out("waiting for rank 0's payload (is every rank started?)".into())
        }
        _ => io(format!("reading rank 0's payload: {e}")),
    })?;
    let mut payload = vec![0u8; u64::from_le_bytes(len) as usize];
    stream.read_exact(&mut payload).map_err(|e| io(format!("reading rank 0's payload: {e}")))?;
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free_port() -> u16 {
        TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
    }

    fn env(rank: u32, world_size: u32, port: u16) -> JobEnv {
        JobEnv { rank, world_size, local_rank: rank, master_addr: "127.0.0.1".into(), master_port: port }
    }

    #[test]
    fn every_rank_gets_rank_zeros_bytes_whatever_the_start_order() {
        let port = free_port();
        let id: Vec<u8> = (0..128).map(|i| (i * 7) as u8).collect();
        let got: Vec<Vec<u8>> = std::thread::scope(|s| {
            // Ranks 3, 2, 1 start first and wait for rank 0 to listen.
            let handles: Vec<_> = (0..4u32)
                .rev()
                .map(|rank| {
                    let id = id.clone();
                    s.spawn(move || {
                        if rank == 0 {
                            std::thread::sleep(Duration::from_millis(100));
                        }
                        let payload = (rank == 0).then_some(id.as_slice());
                        broadcast(&env(rank, 4, port), payload, Duration::from_secs(10)).unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(got.iter().all(|g| *g == id));
    }

    #[test]
    fn a_missing_rank_times_out_naming_it() {
        let port = free_port();
        let e = broadcast(&env(0, 2, port), Some(b"id"), Duration::from_millis(200)).unwrap_err();
        assert!(e.to_string().starts_with("rank 0: timed out after 0.2 s waiting for rank(s) 1 on 127.0.0.1:"), "{e}");
        let e = broadcast(&env(1, 2, free_port()), None, Duration::from_millis(200)).unwrap_err();
        assert!(e.to_string().contains("connecting to rank 0 at 127.0.0.1:"), "{e}");
    }

    #[test]
    fn the_environment_is_read_as_torchrun_sets_it() {
        let vars = [
            ("RANK", "3"),
            ("WORLD_SIZE", "8"),
            ("LOCAL_RANK", "3"),
            ("MASTER_ADDR", "10.0.0.1"),
            ("MASTER_PORT", "29500"),
        ];
        let lookup = |vars: Vec<(&'static str, &'static str)>| {
            move |name: &str| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        let e = JobEnv::from_lookup(lookup(vars.to_vec())).unwrap();
        assert_eq!((e.rank, e.world_size, e.local_rank, e.master_port), (3, 8, 3, 29500));
        let missing = JobEnv::from_lookup(lookup(vars[1..].to_vec())).unwrap_err();
        assert_eq!(missing.to_string(), "environment variable RANK: is not set (attnc launch or torchrun sets it)");
        let mut bad = vars.to_vec();
        bad[0] = ("RANK", "8");
        let e = JobEnv::from_lookup(lookup(bad)).unwrap_err().to_string();
        assert!(e.contains("8 is not below WORLD_SIZE 8"), "{e}");
    }
}
