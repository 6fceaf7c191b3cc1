//! `attnc calibrate`: measures this machine with the real kernels and communicator and writes a
//! device profile for the cost model (`attnc simulate --profile`).
//!
//! Measured: the 256-bit FMA peak (the profile's peak), forward and backward kernel throughput
//! on a full block and on one the causal diagonal cuts, with every core running one (their
//! efficiencies against that peak), the cost of a tiny kernel call (the
//! launch overhead), RoPE's rotation rate, copy bandwidth (element-wise ops), and the CPU communicator's latency and
//! bandwidth from a two-rank exchange (both links: CPU ranks share one memory). `cores` records
//! how many ranks can compute at once, so the simulator can share them among more ranks. Each
//! figure is the best of a few repetitions.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use attnc_compiler::cost::{DeviceProfile, LinkCost};

use crate::bench::{self, Shape3};
use crate::comm::{CommError, Communicator, CpuComm, Recv, Send};
use crate::kernels::Kernels;

/// What to calibrate on: the kernels `attnc run --kernels` will use, and a block shape like the
/// plans' (head_dim, heads, tokens per block).
pub struct Request<'a> {
    pub kernels: &'a dyn Kernels,
    pub kernels_name: &'a str,
    pub head_dim: usize,
    pub heads: usize,
    pub block: usize,
}

/// The least of `n` measurements (times).
fn least_of(n: usize, mut f: impl FnMut() -> Result<f64, String>) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for _ in 0..n {
        best = best.min(f()?);
    }
    Ok(best)
}

/// The greatest of `n` measurements (rates).
fn most_of(n: usize, mut f: impl FnMut() -> Result<f64, String>) -> Result<f64, String> {
    least_of(n, || f().map(|x| -x)).map(|x| -x)
}

/// Seconds for both ranks of a two-rank `send_recv` exchange of `floats` each way.
fn exchange(floats: usize, rounds: usize) -> Result<f64, CommError> {
    let comm = CpuComm::new(2, Arc::new(AtomicBool::new(false)), Duration::from_secs(30));
    let start = Instant::now();
    std::thread::scope(|scope| -> Result<(), CommError> {
        let handles: Vec<_> = (0..2u32)
            .map(|me| {
                let comm = &comm;
                scope.spawn(move || -> Result<(), CommError> {
                    let data = vec![1.0f32; floats];
                    let mut into = vec![0.0f32; floats];
                    for round in 0..rounds {
                        let tag = format!("calibrate {round}");
                        let sends = [Send { peer: 1 - me, data: &data }];
                        let mut recvs = [Recv { peer: 1 - me, data: &mut into }];
                        comm.send_recv(me, &tag, &sends, &mut recvs)?;
                    }
                    Ok(())
                })
            })
            .collect();
        for handle in handles {
            handle.join().map_err(|_| CommError::Aborted)??;
        }
        Ok(())
    })?;
    Ok(start.elapsed().as_secs_f64() / rounds as f64)
}

/// Pairs per second the runtime's RoPE rotates (as loads and stores apply it).
fn rope_rate(head_dim: usize) -> f64 {
    let rows = 4096;
    let mut x = vec![0.5f32; rows * head_dim];
    let mut best = f64::INFINITY;
    let spec = attnc_compiler::spec::Rope {
        theta: 500_000.0,
        dims: head_dim as u32,
        offset: 0,
        fraction: None,
        scaling: None,
    };
    let table = crate::exec::RopeTable::new(Some(&spec));
    for _ in 0..3 {
        let start = Instant::now();
        for (row, v) in x.chunks_mut(head_dim).enumerate() {
            crate::exec::rope(v, row as u64, table.as_ref(), 1.0);
        }
        std::hint::black_box(&mut x);
        best = best.min(start.elapsed().as_secs_f64());
    }
    (rows * head_dim / 2) as f64 / best
}

/// Bytes per second of a large copy (read + write counted).
fn copy_bandwidth() -> f64 {
    let n = 16 << 20;
    let src = vec![1.0f32; n];
    let mut dst = vec![0.0f32; n];
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        dst.copy_from_slice(&src);
        std::hint::black_box(&mut dst);
        best = best.min(start.elapsed().as_secs_f64());
    }
    (2 * n * 4) as f64 / best
}

fn total_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(16 << 30, |kb| kb * 1024)
}

/// Measures and returns the profile, with a line per figure for the user.
pub fn calibrate(request: &Request<'_>) -> Result<(DeviceProfile, Vec<String>), String> {
    let mut notes = Vec::new();
    let peaks = bench::peaks();
    let peak_gflops = peaks
        .iter()
        .find(|r| r.kernel == "peak256")
        .or_else(|| peaks.iter().find(|r| r.kernel == "peak128"))
        .map_or(10.0, |r| r.gflops);
    notes.push(format!("FMA peak (one core): {peak_gflops:.1} GFLOP/s"));
    let shape =
        Shape3 { seq: request.block, head_dim: request.head_dim, heads: request.heads, causal: false, score: None };
    // Warm-up compiles generated kernels before anything is timed.
    bench::time(request.kernels, shape, false, 0..request.block)?;
    bench::time(request.kernels, shape, true, 0..request.block)?;
    // Every core runs the kernel at once, as the ranks of a CPU run do: shared caches and
    // memory bandwidth slow each one down, and that is the throughput a rank sees.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrent = |shape: Shape3, backward: bool| -> Result<f64, String> {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..cores)
                .map(|_| scope.spawn(move || bench::time(request.kernels, shape, backward, 0..request.block)))
                .collect();
            let rates: Vec<f64> = handles
                .into_iter()
                .map(|h| h.join().map_err(|_| "a calibration thread panicked".to_string())?)
                .collect::<Result<_, _>>()?;
            Ok(rates.iter().sum::<f64>() / rates.len() as f64)
        })
    };
    let fwd = most_of(3, || concurrent(shape, false))?;
    let bwd = most_of(3, || concurrent(shape, true))?;
    // A block the causal diagonal cuts: FLOPs of the allowed pairs only.
    let diagonal = Shape3 { causal: true, ..shape };
    bench::time(request.kernels, diagonal, false, 0..request.block)?;
    let fwd_masked = most_of(3, || concurrent(diagonal, false))?;
    let bwd_masked = most_of(3, || concurrent(diagonal, true))?;
    notes.push(format!(
        "{} kernels, {} tokens x {} heads x d {}, on {cores} cores at once: forward {fwd:.1} GFLOP/s ({:.0}% of peak), backward {bwd:.1} ({:.0}%)",
        request.kernels_name,
        request.block,
        request.heads,
        request.head_dim,
        100.0 * fwd / peak_gflops,
        100.0 * bwd / peak_gflops
    ));
    notes.push(format!(
        "  a block the causal diagonal cuts: forward {fwd_masked:.1} GFLOP/s, backward {bwd_masked:.1} (allowed pairs only)"
    ));
    let tiny = Shape3 { seq: 1, head_dim: request.head_dim, heads: 1, causal: false, score: None };
    let launch = least_of(20, || {
        let start = Instant::now();
        bench::time(request.kernels, tiny, false, 0..1)?;
        Ok(start.elapsed().as_secs_f64())
    })?;
    notes.push(format!("kernel call overhead: {:.1} µs", launch * 1e6));
    let rope_pairs_per_s = rope_rate(request.head_dim);
    notes.push(format!("RoPE: {:.1} M rotations/s", rope_pairs_per_s / 1e6));
    let memory_bytes_per_s = copy_bandwidth();
    notes.push(format!("copy bandwidth: {:.1} GB/s", memory_bytes_per_s / 1e9));
    let small = least_of(3, || exchange(1, 200).map_err(|e| e.to_string()))?;
    let large_floats = 4 << 20;
    let large = least_of(3, || exchange(large_floats, 4).map_err(|e| e.to_string()))?;
    let bytes_per_s = (large_floats * 4) as f64 / (large - small).max(1e-9);
    notes.push(format!(
        "CPU communicator: latency {:.1} µs, bandwidth {:.2} GB/s per direction",
        small * 1e6,
        bytes_per_s / 1e9
    ));
    let cores = cores as u32;
    notes.push(format!("cores: {cores} (ranks beyond that share them)"));
    let link = LinkCost { alpha_s: small, bytes_per_s };
    let profile = DeviceProfile {
        name: format!("this machine ({} kernels)", request.kernels_name),
        peak_flops: peak_gflops * 1e9,
        fwd_efficiency: fwd / peak_gflops,
        bwd_efficiency: bwd / peak_gflops,
        fwd_masked_efficiency: Some(fwd_masked / peak_gflops),
        bwd_masked_efficiency: Some(bwd_masked / peak_gflops),
        memory_bytes_per_s,
        launch_s: launch,
        rope_pairs_per_s: Some(rope_pairs_per_s),
        intra: link,
        inter: link,
        memory_bytes: total_memory(),
        cores,
    };
    Ok((profile, notes))
}
