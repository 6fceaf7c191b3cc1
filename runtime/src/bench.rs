//! `attnc bench kernels`: GFLOP/s of the attention kernels against the reference kernels and the
//! machine's FMA peak, all measured in the same run.
//!
//! FLOPs are mask-aware: 4·s_q·s_kv·d·h forward, halved for causal (exactly: the allowed pairs),
//! backward counted as 2.5× forward. The peak comes from FMA loops at 128-bit and 256-bit width
//! with ten independent accumulators. The reference kernels are slow, so they are timed on the
//! last 256 query rows (the most expensive under a causal mask) and their rate extrapolated.
//! Generated kernels report the best of three runs; the peaks the best of their own loops.

use std::time::Instant;

use serde::Serialize;

use crate::kernels::{BwdLaunch, BwdResult, FwdLaunch, FwdResult, Kernels, Reference, bench_spec};
use attnc_compiler::ir::Problem;
use attnc_compiler::kernel::{KernelKind, KernelSpec};
use attnc_compiler::spec::Dtype;

#[derive(Clone, Debug, Serialize)]
pub struct Record {
    pub kernel: String,
    pub backend: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heads: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub causal: Option<bool>,
    pub threads: usize,
    pub gflops: f64,
    /// The score modification the kernels computed (`--score`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// The mask the kernels tested at each pair (`--mask`, `Score::mask`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<String>,
    /// Compile time of the generated kernels this record used, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_s: Option<f64>,
}

/// FMA throughput at 128-bit and 256-bit width, GFLOP/s on one thread.
pub fn peaks() -> Vec<Record> {
    let mut out = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("fma") {
            let rec = |kernel: &str, gflops| Record {
                kernel: kernel.into(),
                backend: "fma-loop".into(),
                seq: None,
                head_dim: None,
                heads: None,
                causal: None,
                threads: 1,
                gflops,
                score: None,
                mask: None,
                compile_s: None,
            };
            // SAFETY: the FMA feature was detected above.
            out.push(rec("peak128", unsafe { peak::fma128() }));
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 and FMA were detected.
                out.push(rec("peak256", unsafe { peak::fma256() }));
            }
        }
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod peak {
    use std::arch::x86_64::*;
    use std::time::Instant;

    const ITERS: usize = 20_000_000;

    /// # Safety
    /// The CPU must support FMA.
    #[target_feature(enable = "fma")]
    pub unsafe fn fma128() -> f64 {
        let mut acc = [_mm_set1_ps(0.0); 10];
        let (a, b) = (_mm_set1_ps(1.000_000_1), _mm_set1_ps(0.999_999_9));
        let start = Instant::now();
        for _ in 0..ITERS {
            for x in acc.iter_mut() {
                *x = _mm_fmadd_ps(*x, a, b);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        std::hint::black_box(acc);
        (ITERS * 10 * 4 * 2) as f64 / secs / 1e9
    }

    /// # Safety
    /// The CPU must support AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn fma256() -> f64 {
        let mut acc = [_mm256_set1_ps(0.0); 10];
        let (a, b) = (_mm256_set1_ps(1.000_000_1), _mm256_set1_ps(0.999_999_9));
        let start = Instant::now();
        for _ in 0..ITERS {
            for x in acc.iter_mut() {
                *x = _mm256_fmadd_ps(*x, a, b);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        std::hint::black_box(acc);
        (ITERS * 10 * 8 * 2) as f64 / secs / 1e9
    }
}

/// One shape of the sweep.
#[derive(Clone, Copy, Debug)]
pub struct Shape3 {
    pub seq: usize,
    pub head_dim: usize,
    pub heads: usize,
    pub causal: bool,
    /// The score modification the kernels compute (`softcap`, `score = EXPR`), if any.
    pub score: Option<&'static attnc_compiler::spec::Score>,
}

/// Times forward or backward of `kernels` on `q_rows` query rows (of `seq`) against every key,
/// one launch of one sequence; returns GFLOP/s.
pub fn time(kernels: &dyn Kernels, s: Shape3, backward: bool, q_rows: std::ops::Range<usize>) -> Result<f64, String> {
    let (d, h, n_q) = (s.head_dim, s.heads, q_rows.len());
    let mut seed = 1u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 9) as f32 / (1u32 << 23) as f32 - 0.5
    };
    let mut plane = |rows: usize| -> Vec<f32> { (0..rows * h * d).map(|_| next()).collect() };
    // Inputs and outputs are made before the clock starts: a launch's buffers are the caller's.
    let launch = FwdLaunch {
        heads_q: h,
        heads_kv: h,
        head_dim: d,
        v_head_dim: d,
        q: plane(n_q).into(),
        k: plane(s.seq).into(),
        v: plane(s.seq).into(),
        cu_q: vec![0, n_q as i32],
        cu_kv: vec![0, s.seq as i32],
        pos_q: vec![q_rows.start as i64],
        pos_kv: vec![0],
        scale: 1.0 / (d as f32).sqrt(),
        // Learned parameters (a `--score` reading `NAME[h]`): 0.01 at every head.
        head_values: s
            .score
            .map(|sc| (0..h as u32).flat_map(|h| sc.head_values(h, 0, &vec![0.01; sc.params.len()])).collect())
            .unwrap_or_default(),
    };
    let kind = if backward { KernelKind::Backward } else { KernelKind::Forward };
    let spec = KernelSpec { score: s.score, ..bench_spec(kind, d, Dtype::Fp32, s.causal) };
    let pairs: f64 = if s.causal { q_rows.clone().map(|r| (r + 1) as f64).sum() } else { (n_q * s.seq) as f64 };
    let flops = 4.0 * pairs * d as f64 * h as f64 * if backward { 2.5 } else { 1.0 };
    if backward {
        // A plausible LSE per row so that exp stays finite.
        let lse: Vec<f32> = q_rows.clone().flat_map(|r| std::iter::repeat_n((r as f32 + 1.0).ln(), h)).collect();
        let delta: Vec<f32> = plane(n_q).into_iter().step_by(d).collect();
        let launch = BwdLaunch { d_out: plane(n_q).into(), lse: lse.into(), delta: delta.into(), fwd: launch };
        let mut out = BwdResult::default();
        out.reset(&spec, &launch.fwd);
        let start = Instant::now();
        kernels.backward(&spec, &launch, &mut out)?;
        let seconds = start.elapsed().as_secs_f64();
        std::hint::black_box(&out);
        return Ok(flops / seconds / 1e9);
    }
    let mut out = FwdResult::default();
    out.reset(&launch);
    let start = Instant::now();
    kernels.forward(&spec, &launch, &mut out)?;
    let seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(&out);
    Ok(flops / seconds / 1e9)
}

/// The sweep: for each shape, forward and backward, generated kernels and the reference.
/// `threads` is what the generated kernel sets were built with; the reference runs on one.
pub fn sweep(
    shapes: &[Shape3],
    generated: &[(&str, &dyn Kernels)],
    threads: usize,
    mut report: impl FnMut(Record),
) -> Result<(), String> {
    for rec in peaks() {
        report(rec);
    }
    for &s in shapes {
        for backward in [false, true] {
            let kernel = if backward { "bwd" } else { "fwd" };
            let record = |backend: &str, gflops: f64, record_threads: usize| Record {
                kernel: kernel.into(),
                backend: backend.into(),
                seq: Some(s.seq),
                head_dim: Some(s.head_dim),
                heads: Some(s.heads),
                causal: Some(s.causal),
                threads: record_threads,
                gflops,
                score: s.score.filter(|f| f.mask.is_none() || f.text != "s").map(|f| f.text.clone()),
                mask: s.score.and_then(|f| f.mask.clone()),
                compile_s: None,
            };
            let tail = s.seq.saturating_sub(256)..s.seq;
            report(record("reference", time(&Reference, s, backward, tail)?, 1));
            for (name, k) in generated {
                // Warm up (compiles the kernels), then time the whole problem.
                time(*k, Shape3 { seq: 64.min(s.seq), ..s }, backward, 0..64.min(s.seq))?;
                // Best of three: the machine is shared, and interference only ever slows a run.
                let mut best = 0.0f64;
                for _ in 0..3 {
                    best = best.max(time(*k, s, backward, 0..s.seq)?);
                }
                report(record(name, best, threads));
            }
        }
    }
    Ok(())
}

/// One direction of `attnc bench run`: how close a plan's run came to its kernels' speed.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunRecord {
    /// `forward` or `backward`.
    pub direction: String,
    /// The plan's attention FLOPs over every rank (mask-aware; backward 2.5× forward).
    pub flops: f64,
    /// First op's start to last op's end, every rank.
    pub wall_s: f64,
    /// The same kernels alone on this machine, one call over one rank's share of the sequence
    /// against itself (`kernel_shape`), at the kernel set's threads.
    pub kernel_gflops: f64,
    /// The machine's cores (`available_parallelism`).
    pub cores: usize,
    /// (flops / kernel throughput) / (wall_s × cores): 1 when every core runs kernels at their
    /// own speed for the whole run.
    pub efficiency: f64,
}

/// The shape `RunRecord::kernel_gflops` is measured on for a problem split over `cp` ranks.
pub fn kernel_shape(p: &Problem, cp: u32) -> Shape3 {
    Shape3 {
        seq: (p.tokens / cp.max(1) as u64).max(64) as usize,
        head_dim: p.head_dim as usize,
        heads: p.heads as usize,
        causal: p.causal,
        score: p.score,
    }
}

/// The record of one direction from its spans and FLOPs, with the kernels timed alone.
pub fn run_record(
    direction: &str,
    spans: &[crate::exec::Span],
    flops: f64,
    kernels: &dyn Kernels,
    shape: Shape3,
) -> Result<RunRecord, String> {
    let backward = direction == "backward";
    let start = spans.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
    let end = spans.iter().map(|s| s.end).fold(0.0, f64::max);
    let wall_s = (end - start).max(0.0);
    // Warm up (compiles the kernels), then the best of three.
    time(kernels, Shape3 { seq: 64.min(shape.seq), ..shape }, backward, 0..64.min(shape.seq))?;
    let mut kernel_gflops = 0.0f64;
    for _ in 0..3 {
        kernel_gflops = kernel_gflops.max(time(kernels, shape, backward, 0..shape.seq)?);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let efficiency = (flops / (kernel_gflops * 1e9)) / (wall_s * cores as f64);
    Ok(RunRecord { direction: direction.to_string(), flops, wall_s, kernel_gflops, cores, efficiency })
}
