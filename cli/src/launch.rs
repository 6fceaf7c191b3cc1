//! `attnc launch`: one process per local rank with torchrun's environment (RANK, LOCAL_RANK,
//! WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT); the first rank to fail stops the others
//! and gives the exit status. Each rank's stdout and stderr are forwarded a whole line at a time,
//! so two ranks that fail together print two readable errors, never one interleaved line.

use std::io::{BufRead as _, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Args as ClapArgs;

use crate::Outcome;

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long, default_value_t = 1)]
    nproc_per_node: u32,
    #[arg(long, default_value_t = 1)]
    nnodes: u32,
    #[arg(long, default_value_t = 0)]
    node_rank: u32,
    #[arg(long, default_value = "127.0.0.1")]
    master_addr: String,
    #[arg(long, default_value_t = 29500)]
    master_port: u16,
    /// The command each rank runs.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

pub fn run(r: Args) -> Result<Outcome> {
    let Some((program, args)) = r.command.split_first() else {
        bail!("attnc launch: no command to run (put it after `--`)");
    };
    if r.nproc_per_node == 0 || r.nnodes == 0 || r.node_rank >= r.nnodes {
        bail!(
            "--nproc-per-node {} --nnodes {} --node-rank {}: need at least one process and node, and node-rank < nnodes",
            r.nproc_per_node,
            r.nnodes,
            r.node_rank
        );
    }
    let world = r.nproc_per_node * r.nnodes;
    let mut children: Vec<(u32, Child)> = Vec::new();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut forwarders = 0usize;
    for local in 0..r.nproc_per_node {
        let rank = r.node_rank * r.nproc_per_node + local;
        let child = Command::new(program)
            .args(args)
            .env("RANK", rank.to_string())
            .env("LOCAL_RANK", local.to_string())
            .env("WORLD_SIZE", world.to_string())
            .env("LOCAL_WORLD_SIZE", r.nproc_per_node.to_string())
            .env("MASTER_ADDR", &r.master_addr)
            .env("MASTER_PORT", r.master_port.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting rank {rank}: `{program}`"));
        match child {
            Ok(mut c) => {
                if let Some(out) = c.stdout.take() {
                    forwarders += 1;
                    forward(out, Stream::Out, done_tx.clone());
                }
                if let Some(err) = c.stderr.take() {
                    forwarders += 1;
                    forward(err, Stream::Err, done_tx.clone());
                }
                children.push((rank, c))
            }
            Err(e) => {
                for (_, c) in &mut children {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                return Err(e);
            }
        }
    }
    let mut failed: Option<(u32, std::process::ExitStatus)> = None;
    while !children.is_empty() {
        let mut i = 0;
        while i < children.len() {
            match children[i].1.try_wait().context("waiting for a rank")? {
                Some(status) => {
                    let (rank, _) = children.remove(i);
                    if !status.success() && failed.is_none() {
                        failed = Some((rank, status));
                        for (_, c) in &mut children {
                            let _ = c.kill();
                        }
                    }
                }
                None => i += 1,
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Drain what the ranks printed before they ended. A grandchild that outlives its rank may keep
    // a pipe open; its output is not waited for past a grace period (never a hang).
    for _ in 0..forwarders {
        if done_rx.recv_timeout(Duration::from_secs(2)).is_err() {
            break;
        }
    }
    match failed {
        None => Ok(Outcome::Clean),
        Some((rank, status)) => {
            eprintln!("error: rank {rank} failed ({status}); the other ranks were stopped");
            Ok(Outcome::InputErrors)
        }
    }
}

#[derive(Clone, Copy)]
enum Stream {
    Out,
    Err,
}

/// Copies one rank's pipe to this process's stdout or stderr, one whole line per write under the
/// stream's lock; signals `done` at end of file.
fn forward(pipe: impl Read + Send + 'static, stream: Stream, done: mpsc::Sender<()>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // A closed stdout or stderr of our own is not a reason to stop the rank.
                    let _ = match stream {
                        Stream::Out => write_line(&mut std::io::stdout().lock(), &line),
                        Stream::Err => write_line(&mut std::io::stderr().lock(), &line),
                    };
                }
            }
        }
        let _ = done.send(());
    });
}

fn write_line(w: &mut impl Write, line: &[u8]) -> std::io::Result<()> {
    w.write_all(line)?;
    w.flush()
}
