//! `attnc bench kernels`: the generated kernels' throughput on this machine (CPU kernel sets, or
//! the AOT PTX kernels on a GPU), as a table or one JSON record per measurement. `attnc bench run`:
//! a layout's plan run on CPU ranks, its wall time against what its FLOPs take at the same kernels'
//! own speed on every core (the efficiency of the executor around the kernels).

use anyhow::{Result, bail};
#[cfg(feature = "cuda")]
use attnc_compiler::spec::Dtype;
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::device::{GpuArgs, KernelChoice, kernel_set};
use crate::spec::{LayoutCommand, check_planned_layer};

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// The kernels alone, shape by shape, with the reference and the machine's FMA peak.
    Kernels(KernelsArgs),
    /// A layout's plan run on CPU ranks: FLOPs, wall time, the kernels' own throughput, and the
    /// efficiency (flops / kernel throughput) / (wall × cores), one JSON line per direction.
    Run(RunArgs),
}

#[derive(ClapArgs)]
struct RunArgs {
    #[command(flatten)]
    input: LayoutCommand,
    #[arg(long, value_enum, default_value_t = KernelChoice::Cranelift)]
    kernels: KernelChoice,
    /// Also run the backward pass.
    #[arg(long)]
    backward: bool,
    /// The layer class that contains this layer.
    #[arg(long, default_value_t = 0)]
    layer: u64,
    /// Threads per kernel call within a rank.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// One JSON line per direction (the default prints a table).
    #[arg(long)]
    json: bool,
}

#[derive(ClapArgs)]
struct KernelsArgs {
    /// Sequence lengths (default 1024,4096,8192).
    #[arg(long, value_delimiter = ',')]
    seq: Vec<usize>,
    /// Head dims (default 64,128).
    #[arg(long, value_delimiter = ',')]
    head_dim: Vec<usize>,
    #[arg(long, default_value_t = 8)]
    heads: usize,
    /// The generated kernels to measure.
    #[cfg_attr(feature = "llvm", arg(long, value_enum, value_delimiter = ',', default_values_t = [KernelChoice::Cranelift, KernelChoice::LlvmCpu]))]
    #[cfg_attr(not(feature = "llvm"), arg(long, value_enum, value_delimiter = ',', default_values_t = [KernelChoice::Cranelift]))]
    kernels: Vec<KernelChoice>,
    /// Only causal (`true`) or only unmasked (`false`) shapes.
    #[arg(long)]
    causal: Option<bool>,
    /// Threads per generated kernel call (the reference runs on one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// One JSON record per measurement.
    #[arg(long)]
    json: bool,
    /// A score expression of `s`, `q`, `k` (docs/language.md, "Score expressions", e.g.
    /// '30 * tanh(s / 30)'): each shape is measured without it and then with it, in this run.
    #[arg(long)]
    score: Option<String>,
    /// A mask of `q` and `k` that the kernels test at each pair, as they do for a mask that is no
    /// band (docs/language.md, "Masks that are no band", e.g. '(q - k) % 2 == 0'): each shape is
    /// measured without it and then with it (on top of `--score`), in this run.
    #[arg(long)]
    mask: Option<String>,
    /// With `--kernels cuda` or `ptx-sim`: the AOT kernels (`attnc kernels -o DIR`) and the device
    /// ordinal.
    #[command(flatten)]
    gpu: GpuArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    match args.what {
        What::Kernels(k) => kernels_command(k),
        What::Run(r) => run_command(r),
    }
}

fn run_command(args: RunArgs) -> Result<Outcome> {
    use attnc_compiler::ir::stats;
    use attnc_runtime::bench::{kernel_shape, run_record};
    let RunArgs { input, kernels, backward, layer, threads, json } = args;
    if kernels.is_cuda() {
        bail!(
            "--kernels cuda: `attnc bench run` measures CPU kernel sets (GPU runs: `attnc run --device cuda --timings`)"
        );
    }
    input.with_layout(|l, options| {
        check_planned_layer(l, layer)?;
        let options = attnc_compiler::passes::PlanOptions { backward, ..options };
        let set = match attnc_compiler::driver::compile(l, &options) {
            Ok(set) => set,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(Outcome::InputErrors);
            }
        };
        let class = set
            .classes
            .iter()
            .find(|c| c.layers.iter().any(|r| r.contains(layer)))
            .expect("--layer was checked against the model's layers");
        let problem = &class.forward.problem;
        let inputs = attnc_runtime::tensor::random(problem, 0, backward);
        let set_kernels = kernel_set(kernels, threads)?;
        let forward = &class.forward;
        let backward_plan = class.backward.as_ref();
        let options = attnc_runtime::exec::RunOptions::default();
        // The run goes through the executor on the host device with the same kernels.
        let device = crate::device::host_device(kernels, problem.dtype, set_kernels.as_ref());
        // A first run compiles the kernels; the second is measured.
        attnc_runtime::run(forward, backward_plan, &device, &inputs, &options)?;
        let result = attnc_runtime::run(forward, backward_plan, &device, &inputs, &options)?;
        let flops = |plan: &attnc_compiler::ir::Plan| stats::stats(plan).ranks.iter().map(|r| r.flops).sum::<f64>();
        let shape = kernel_shape(problem, class.forward.header.cp);
        let mut records = vec![
            run_record("forward", &result.forward_spans, flops(&class.forward), set_kernels.as_ref(), shape)
                .map_err(anyhow::Error::msg)?,
        ];
        if let Some(b) = &class.backward {
            records.push(
                run_record("backward", &result.backward_spans, flops(b), set_kernels.as_ref(), shape)
                    .map_err(anyhow::Error::msg)?,
            );
        }
        for r in &records {
            if json {
                println!("{}", serde_json::to_string(r)?);
            } else {
                println!(
                    "{:<9} {:>8.2} GFLOP in {:.4} s on {} cores; kernels alone {:.1} GFLOP/s; efficiency {:.3}",
                    r.direction,
                    r.flops / 1e9,
                    r.wall_s,
                    r.cores,
                    r.kernel_gflops,
                    r.efficiency
                );
            }
        }
        if !json {
            println!(
                "kernels alone: {} ({}), one call over seq {} (one rank's share), d {}, {} heads, causal {}",
                kernels.name(),
                threads,
                shape.seq,
                shape.head_dim,
                shape.heads,
                shape.causal
            );
        }
        Ok(Outcome::Clean)
    })
}

fn kernels_command(args: KernelsArgs) -> Result<Outcome> {
    let KernelsArgs { seq, head_dim, heads, kernels, causal, threads, json, score, mask, gpu: gpu_args } = args;
    let score = match score {
        None => None,
        Some(text) => Some(
            // Learned parameters (`NAME[h]`) are declared as they appear, each 0.01 at every head.
            attnc_compiler::expr::score::parse_declaring(&text)
                .map_err(|e| anyhow::anyhow!("--score: {e}"))?
                .ok_or_else(|| anyhow::anyhow!("--score {text:?}: that is the plain score `s`; give a modification"))?,
        ),
    };
    let score = match mask {
        None => score,
        Some(text) => Some(masked(score, &text)?),
    };
    let sweep = Sweep { seqs: seq, head_dims: head_dim, heads, causal, json, score };
    if kernels.iter().any(|k| k.is_cuda() || k.is_ptx_sim()) {
        if sweep.score.is_some() {
            bail!("--score, --mask: the GPU kernel benchmark measures the named masks only; leave them out");
        }
        if kernels.len() > 1 {
            bail!("--kernels cuda|ptx-sim: GPU kernels are measured on their own (no other --kernels)");
        }
        if kernels[0].is_ptx_sim() {
            ptx_sim(&sweep, &gpu_args)?;
        } else {
            gpu(&sweep, &gpu_args)?;
        }
    } else {
        cpu(&sweep, &kernels, threads)?;
    }
    Ok(Outcome::Clean)
}

/// `score` with the mask `text` tested at each pair (`expr::score::of_masked`), for `--mask`.
fn masked(
    score: Option<&'static attnc_compiler::spec::Score>,
    text: &str,
) -> Result<&'static attnc_compiler::spec::Score> {
    use attnc_compiler::expr;
    let e = expr::parse::parse(text).map_err(|e| anyhow::anyhow!("--mask {text:?}: {}", e.message))?;
    let mask = expr::MaskExpr::new(e).map_err(|e| anyhow::anyhow!("--mask {text:?}: {}", e.message))?;
    if mask.0.reads(expr::Var::H) || mask.0.reads(expr::Var::DocQ) || mask.0.reads(expr::Var::DocK) {
        bail!("--mask {text:?}: the benchmark's mask reads `q` and `k` only (one sequence, every head alike)");
    }
    let test = expr::score::of_masked(score, &mask.0).map_err(|u| anyhow::anyhow!("--mask {text:?}: {}", u.message))?;
    Ok(expr::score::intern(test))
}

/// The shapes `bench kernels` measures and how it prints them.
struct Sweep {
    seqs: Vec<usize>,
    head_dims: Vec<usize>,
    heads: usize,
    causal: Option<bool>,
    json: bool,
    /// Measured after each plain shape (`--score`).
    score: Option<&'static attnc_compiler::spec::Score>,
}

impl Sweep {
    /// Every (seq, head dim, causal), `default_seqs` and head dims 64 and 128 unless given.
    fn shapes(&self, default_seqs: &[usize]) -> Vec<(usize, usize, bool)> {
        let seqs = if self.seqs.is_empty() { default_seqs.to_vec() } else { self.seqs.clone() };
        let dims = if self.head_dims.is_empty() { vec![64, 128] } else { self.head_dims.clone() };
        let causals: Vec<bool> = self.causal.map_or(vec![true, false], |c| vec![c]);
        let mut out = Vec::new();
        for &seq in &seqs {
            for &d in &dims {
                for &c in &causals {
                    out.push((seq, d, c));
                }
            }
        }
        out
    }
}

/// `attnc bench kernels`.
fn cpu(sweep: &Sweep, kernels: &[KernelChoice], threads: usize) -> Result<()> {
    use attnc_runtime::bench::{Shape3, sweep as run_sweep};
    let heads = sweep.heads;
    let shapes: Vec<Shape3> = sweep
        .shapes(&[1024, 4096, 8192])
        .into_iter()
        .flat_map(|(seq, head_dim, causal)| {
            let plain = Shape3 { seq, head_dim, heads, causal, score: None };
            std::iter::once(plain).chain(sweep.score.map(|score| Shape3 { score: Some(score), ..plain }))
        })
        .collect();
    let json = sweep.json;
    let sets: Vec<(&str, Box<dyn attnc_runtime::kernels::Kernels>)> =
        kernels.iter().map(|&k| Ok((k.name(), kernel_set(k, threads)?))).collect::<Result<_>>()?;
    let generated: Vec<(&str, &dyn attnc_runtime::kernels::Kernels)> =
        sets.iter().map(|(n, k)| (*n, k.as_ref())).collect();
    let mut peak128 = None;
    if !json {
        println!(
            "{:<8} {:<12} {:>6} {:>4} {:>6} {:>7} {:>10} {:>9}",
            "kernel", "backend", "seq", "d", "heads", "causal", "GFLOP/s", "of peak128"
        );
    }
    run_sweep(&shapes, &generated, threads, |r| {
        if r.kernel == "peak128" {
            peak128 = Some(r.gflops);
        }
        if json {
            println!("{}", serde_json::to_string(&r).unwrap_or_default());
        } else {
            let of = peak128.map(|p| format!("{:.0}%", 100.0 * r.gflops / p)).unwrap_or_default();
            let opt = |v: Option<usize>| v.map(|x| x.to_string()).unwrap_or_default();
            let c = r.causal.map(|c| c.to_string()).unwrap_or_default();
            println!(
                "{:<8} {:<12} {:>6} {:>4} {:>6} {:>7} {:>10.2} {:>9}{}",
                r.kernel,
                r.backend,
                opt(r.seq),
                opt(r.head_dim),
                opt(r.heads),
                c,
                r.gflops,
                of,
                [
                    r.score.as_deref().map(|t| format!("  score = {t}")),
                    r.mask.as_deref().map(|m| format!("  mask tested = {m}"))
                ]
                .into_iter()
                .flatten()
                .collect::<String>()
            );
        }
    })
    .map_err(|e| anyhow::anyhow!("{e}"))
}

/// `attnc bench kernels --kernels ptx-sim`: the AOT kernels of `--kernel-dir` interpreted, in PTX
/// thread instructions per second (the interpreter's speed; shapes small by default: 256 and 512
/// tokens, since a launch takes seconds).
#[cfg(feature = "cuda")]
fn ptx_sim(sweep: &Sweep, args: &GpuArgs) -> Result<()> {
    use attnc_runtime::device::bench::{Shape, ptx_sim};
    let device = crate::device::ptx_device(args)?;
    if !sweep.json {
        println!(
            "{:<6} {:>6} {:>4} {:>6} {:>7} {:>14} {:>9} {:>10}",
            "kernel", "seq", "d", "heads", "causal", "instructions", "s", "M instr/s"
        );
    }
    for (seq, d, c) in sweep.shapes(&[256, 512]) {
        let shape = Shape { seq, head_dim: d, heads: sweep.heads, causal: c };
        for r in ptx_sim(&device, shape).map_err(|e| anyhow::anyhow!("{e}"))? {
            if sweep.json {
                println!("{}", serde_json::to_string(&r)?);
            } else {
                println!(
                    "{:<6} {:>6} {:>4} {:>6} {:>7} {:>14} {:>9.2} {:>10.1}",
                    r.what.kernel,
                    r.what.seq,
                    r.what.head_dim,
                    r.what.heads,
                    r.what.causal,
                    r.instructions,
                    r.seconds,
                    r.minstr_per_s
                );
            }
        }
    }
    Ok(())
}

#[cfg(not(feature = "cuda"))]
fn ptx_sim(_sweep: &Sweep, _args: &GpuArgs) -> Result<()> {
    bail!("--kernels ptx-sim: this attnc was built without the GPU runtime (feature `cuda`)")
}

/// `attnc bench kernels --kernels cuda`: forward and backward TFLOP/s on the device.
#[cfg(feature = "cuda")]
fn gpu(sweep: &Sweep, args: &GpuArgs) -> Result<()> {
    use attnc_runtime::cuda::{bench, device::CudaDevice};
    use attnc_runtime::device::bench::Shape;
    let device = CudaDevice::new(crate::device::cuda_launcher(args, "--kernels cuda")?);
    if !sweep.json {
        println!("{} ({})", device.launcher.gpu.info.name, device.launcher.dir.target);
        println!(
            "{:<6} {:>6} {:>4} {:>6} {:>7} {:>10} {:>9}",
            "kernel", "seq", "d", "heads", "causal", "ms", "TFLOP/s"
        );
    }
    for (seq, d, c) in sweep.shapes(&[4096, 8192, 16384, 32768]) {
        let shape = Shape { seq, head_dim: d, heads: sweep.heads, causal: c };
        for r in bench::measure(&device, shape, Dtype::Bf16, 10).map_err(|e| anyhow::anyhow!("{e}"))? {
            if sweep.json {
                println!("{}", serde_json::to_string(&r)?);
            } else {
                println!(
                    "{:<6} {:>6} {:>4} {:>6} {:>7} {:>10.3} {:>9.1}",
                    r.what.kernel, r.what.seq, r.what.head_dim, r.what.heads, r.what.causal, r.ms, r.tflops
                );
            }
        }
    }
    Ok(())
}

#[cfg(not(feature = "cuda"))]
fn gpu(_sweep: &Sweep, _args: &GpuArgs) -> Result<()> {
    bail!("--kernels cuda: this attnc was built without the CUDA runtime (feature `cuda`)")
}
