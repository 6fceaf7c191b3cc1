//! Kernel throughput on the device: forward and backward launches of one long sequence, inputs
//! resident on the GPU, timed by CUDA events around repeated launches (after one warm-up).
//!
//! FLOPs are counted as `attnc bench kernels` counts them: 4 · allowed pairs · head_dim · heads,
//! backward 2.5× forward, so GPU and CPU figures compare directly.

use attnc_compiler::kernel::KernelKind;
use attnc_compiler::spec::Dtype;
use cudarc::driver::sys::CUevent_flags;
use rand::{Rng, SeedableRng};

use super::kernels::CudaLauncher;
use super::{CudaError, driver};
use crate::kernels::{BwdLaunch, FwdLaunch, bench_spec as spec};
use crate::tensor::round;

/// One measured kernel.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GpuBench {
    #[serde(flatten)]
    pub what: crate::device::Measured,
    pub ms: f64,
    pub tflops: f64,
}

/// Measures forward and backward on one sequence of `seq` tokens and `heads` heads.
pub fn measure(
    launcher: &CudaLauncher,
    seq: usize,
    head_dim: usize,
    heads: usize,
    causal: bool,
    dtype: Dtype,
    repeats: usize,
) -> Result<Vec<GpuBench>, CudaError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut random = |n: usize| -> Vec<f32> { (0..n).map(|_| round(dtype, rng.random_range(-1.0f32..1.0))).collect() };
    let n = seq * heads * head_dim;
    let fwd = FwdLaunch {
        heads_q: heads,
        heads_kv: heads,
        head_dim,
        v_head_dim: head_dim,
        q: random(n).into(),
        k: random(n).into(),
        v: random(n).into(),
        cu_q: vec![0, seq as i32],
        cu_kv: vec![0, seq as i32],
        pos_q: vec![0],
        pos_kv: vec![0],
        scale: 1.0 / (head_dim as f32).sqrt(),
        head_values: Vec::new(),
    };
    let pairs = if causal { seq * (seq + 1) / 2 } else { seq * seq } as f64;
    let flops = 4.0 * pairs * head_dim as f64 * heads as f64;
    let s = launcher.gpu.compute.clone();
    let ctx = launcher.gpu.ctx.clone();
    let time = |run: &mut dyn FnMut() -> Result<(), CudaError>| -> Result<f64, CudaError> {
        run()?;
        let start = driver("cuEventCreate", ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))?;
        let end = driver("cuEventCreate", ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))?;
        driver("cuEventRecord", start.record(&s))?;
        for _ in 0..repeats {
            run()?;
        }
        driver("cuEventRecord", end.record(&s))?;
        driver("cuEventSynchronize", end.synchronize())?;
        Ok(driver("cuEventElapsedTime", start.elapsed_ms(&end))? as f64 / repeats as f64)
    };
    let fspec = spec(KernelKind::Forward, head_dim, dtype, causal);
    let mut fb = launcher.upload_fwd(dtype, &fwd)?;
    let fwd_ms = time(&mut || launcher.launch_fwd(&fspec, &fwd, &mut fb))?;
    // The backward pass needs the forward's LSE and D = rowsum(dO ∘ O).
    let lse = driver("read lse", s.clone_dtoh(&fb.lse))?;
    let o = driver("read o", s.clone_dtoh(&fb.o))?;
    driver("cuStreamSynchronize", s.synchronize())?;
    let d_out = random(n);
    let delta: Vec<f32> = o
        .chunks(head_dim)
        .zip(d_out.chunks(head_dim))
        .map(|(o, g)| o.iter().zip(g).map(|(a, b)| a * b).sum())
        .collect();
    let bwd = BwdLaunch { fwd, d_out: d_out.into(), lse: lse.into(), delta: delta.into() };
    let bspec = spec(KernelKind::Backward, head_dim, dtype, causal);
    let mut bb = launcher.upload_bwd(dtype, &bwd)?;
    let bwd_ms = time(&mut || launcher.launch_bwd(&bspec, &bwd, &mut bb))?;
    let row = |kernel, ms: f64, f: f64| GpuBench {
        what: crate::device::Measured { kernel, backend: "cuda", seq, head_dim, heads, causal },
        ms,
        tflops: f / (ms * 1e-3) / 1e12,
    };
    Ok(vec![row("fwd", fwd_ms, flops), row("bwd", bwd_ms, 2.5 * flops)])
}
