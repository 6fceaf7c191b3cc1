//! `attnc launch`: one process per local rank with torchrun's environment (RANK, LOCAL_RANK,
//! WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT); the first rank to fail stops the others
//! and gives the exit status.

use std::process::{Child, Command};
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
            .spawn()
            .with_context(|| format!("starting rank {rank}: `{program}`"));
        match child {
            Ok(c) => children.push((rank, c)),
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
    match failed {
        None => Ok(Outcome::Clean),
        Some((rank, status)) => {
            eprintln!("error: rank {rank} failed ({status}); the other ranks were stopped");
            Ok(Outcome::InputErrors)
        }
    }
}
