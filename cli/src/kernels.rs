//! `attnc kernels`: every kernel the GPU numerics matrix and the GPU benchmarks need, compiled
//! ahead of time into a kernel directory with its manifest, so a GPU machine needs no LLVM.

use std::path::PathBuf;
#[cfg(feature = "llvm")]
use std::time::Instant;

#[cfg(feature = "llvm")]
use anyhow::Context as _;
use anyhow::{Result, bail};
#[cfg(feature = "llvm")]
use attnc_compiler::spec::Dtype;
#[cfg(feature = "llvm")]
use attnc_runtime::matrix;
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;

/// `--target` of `attnc kernels`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GpuTarget {
    #[value(name = "sm_80")]
    Sm80,
    #[value(name = "sm_90a")]
    Sm90a,
    /// sm_90a with the warp-specialized forward (TMA, mbarriers, producer and consumer warpgroups).
    #[value(name = "sm_90a-ws")]
    Sm90aWs,
}

#[derive(ClapArgs)]
pub struct Args {
    /// The GPU architecture.
    #[arg(long, value_enum)]
    target: GpuTarget,
    #[arg(short = 'o', long)]
    out: PathBuf,
    /// The head dim of the matrix's cases.
    #[arg(long, default_value_t = 64)]
    matrix_head_dim: u32,
    /// The head dims of the benchmarks.
    #[arg(long, value_delimiter = ',', default_values_t = [64, 128])]
    bench_head_dims: Vec<usize>,
}

/// `attnc kernels`: every kernel the GPU matrix (at `matrix_head_dim`) and the GPU benchmarks (at
/// `bench_head_dims`, bf16) need, compiled for `target` into `out` with a manifest.
#[cfg(feature = "llvm")]
pub fn run(args: Args) -> Result<Outcome> {
    let Args { target, out, matrix_head_dim, bench_head_dims } = args;
    let target = match target {
        GpuTarget::Sm80 => "sm_80",
        GpuTarget::Sm90a => "sm_90a",
        GpuTarget::Sm90aWs => "sm_90a-ws",
    };
    let out = out.as_path();
    let bench_head_dims = bench_head_dims.as_slice();
    use attnc_compiler::back::llvm::Target;
    let Some(target) = Target::parse(target).filter(|t| t.is_gpu()) else {
        bail!("--target {target}: the GPU targets are sm_80, sm_90a, sm_90a-ws");
    };
    let start = Instant::now();
    // The matrix's kernels are what the executor launches for its plans: their launch tables.
    let mut specs = Vec::new();
    for c in matrix::gpu_cases(matrix_head_dim) {
        let (fwd, bwd) = c.plans().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?;
        for plan in [&fwd, &bwd] {
            for id in plan.op_ids() {
                for t in attnc_runtime::exec::op_tables(plan, id).unwrap_or_default() {
                    if !specs.contains(&t.spec) {
                        specs.push(t.spec);
                    }
                }
            }
        }
    }
    for s in attnc_runtime::kernels::bench_specs(bench_head_dims, Dtype::Bf16) {
        if !specs.contains(&s) {
            specs.push(s);
        }
    }
    let outputs = crate::compile::compile_kernels(&specs, target)?;
    let records = crate::compile::kernel_records(&outputs, target, false, false)?;
    std::fs::create_dir_all(out).with_context(|| format!("-o {}", out.display()))?;
    crate::compile::write_kernels(out, &outputs, &records, target)?;
    let manifest = attnc_compiler::back::manifest::Manifest {
        version: attnc_compiler::back::manifest::MANIFEST_VERSION,
        target: target.name().to_string(),
        layout: None,
        plans: Vec::new(),
        kernels: records,
    };
    std::fs::write(out.join("manifest.json"), serde_json::to_string_pretty(&manifest)?)
        .context("writing manifest.json")?;
    println!(
        "{} kernels for {} in {} ({:.1} s)",
        outputs.len(),
        target.name(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(Outcome::Clean)
}

#[cfg(not(feature = "llvm"))]
pub fn run(_args: Args) -> Result<Outcome> {
    bail!("attnc kernels: this attnc was built without the LLVM backend (feature `llvm`)")
}
