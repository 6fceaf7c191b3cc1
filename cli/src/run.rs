//! `attnc run`: inputs in, the plan executed on CPU ranks, outputs out, optionally checked.
//!
//! Runtime faults and bad tensors are errors of the run (exit 1), printed with the rank, op or
//! tensor they concern; flags and files that cannot be read are usage errors (exit 2).

use std::collections::BTreeMap;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use attnc_compiler::ir::{Plan, artifact};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::sema::spec::{Format, Layout};
use attnc_compiler::verify::{self, Stage, Verified};
use attnc_runtime::exec::{Fault, RunOptions};
use attnc_runtime::tensor::{self, HostTensor, Layout as TensorLayout, Values};
use attnc_runtime::{RuntimeError, reference, timings};
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;
use crate::device::{Device, GpuArgs, KernelChoice, host_device, host_kernels};
use crate::spec::{LayoutCommand, check_layer};

/// `--rope`: whether `attnc run` rotates q and k itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RopeInput {
    /// Rotate q and k by the model's RoPE at each token's position (inputs are unrotated).
    Apply,
    /// The inputs are already rotated; run plain attention on them (gradients are then with
    /// respect to the rotated q and k, as TransformerEngine returns them).
    None,
}

/// `--out-dtype`: the dtype of the floating-point outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutDtype {
    /// F32, whatever the inputs (readable by numpy; nothing rounded away).
    Fp32,
    /// The layout's dtype (bf16 or fp16 rounding, as TransformerEngine returns them).
    AsInput,
}

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    input: LayoutCommand,
    #[command(flatten)]
    request: Request,
}

/// A run's flags, and (filled in once the layout is known) the plan options of its batch.
#[derive(ClapArgs)]
struct Request {
    /// Input tensors (safetensors; docs/io.md): q, k, v, and do for --backward; cu_seqlens (and
    /// cu_seqlens_padded) for thd. Without it, inputs are unit normal from --seed.
    #[arg(long)]
    inputs: Option<PathBuf>,
    /// Write o, lse (and dq, dk, dv) here (safetensors; docs/io.md).
    #[arg(long)]
    out: Option<PathBuf>,
    /// `apply`: rotate q and k by the model's RoPE at each token's position; `none`: the inputs
    /// are already rotated (as Megatron hands them to TransformerEngine).
    #[arg(long, value_enum, default_value_t = RopeInput::Apply)]
    rope: RopeInput,
    /// The dtype of the floating-point outputs: `fp32`, or `as-input` (the layout's dtype).
    #[arg(long, value_enum, default_value_t = OutDtype::Fp32)]
    out_dtype: OutDtype,
    /// Also run the backward pass.
    #[arg(long)]
    backward: bool,
    /// Compare with single-device fp64 full attention; exit 1 when a tolerance is exceeded.
    #[arg(long)]
    check: bool,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Per rank and stream: compute, communication, and communication hidden behind compute.
    #[arg(long)]
    timings: bool,
    /// Run a plan artifact (`attnc plan --emit json`) instead of compiling the layout.
    #[arg(long)]
    plan: Option<PathBuf>,
    /// Run the layer class that contains this layer (default: layer 0).
    #[arg(long, default_value_t = 0)]
    layer: u64,
    #[arg(long, value_enum, default_value_t = KernelChoice::Reference)]
    kernels: KernelChoice,
    /// `cuda`: every rank on one GPU (--gpu) through the device executor: buffers in device
    /// memory, a compute and a CP stream per rank, the PTX kernels of --kernel-dir.
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    device: Device,
    #[command(flatten)]
    gpu: GpuArgs,
    /// Threads per kernel call within a rank (generated kernels), across batch × KV heads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seconds any rank may wait before the watchdog fails the run.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Write the measured timeline as a Chrome/Perfetto trace (the format of `attnc simulate --trace`).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Testing only: `panic:RANK` or `hang:RANK`.
    #[arg(long, hide = true, value_parser = fault)]
    inject_fault: Option<Fault>,
    /// The THD batch of `--seqlens`/`--padded-seqlens` (random inputs), and `--for`.
    #[arg(skip)]
    options: PlanOptions,
}

impl Request {
    /// Run on a GPU (`--device cuda`, or `--kernels cuda`, the PTX kernels that only it runs).
    fn on_device(&self) -> bool {
        self.device == Device::Cuda || self.kernels.is_cuda()
    }
}

pub fn command(args: Args) -> Result<Outcome> {
    let Args { input, mut request } = args;
    input.with_layout(|l, options| {
        request.options = options;
        Ok(if run(l, &request)? { Outcome::Clean } else { Outcome::InputErrors })
    })
}

/// `--inject-fault panic:RANK|hang:RANK`, parsed by clap.
fn fault(text: &str) -> Result<Fault, String> {
    let usage = "takes panic:RANK or hang:RANK".to_string();
    let (kind, rank) = text.split_once(':').ok_or_else(|| usage.clone())?;
    let rank: u32 = rank.parse().map_err(|_| "RANK is a number".to_string())?;
    match kind {
        "panic" => Ok(Fault::PanicInKernel { rank }),
        "hang" => Ok(Fault::HangBeforeComm { rank }),
        _ => Err(usage),
    }
}

/// The lengths of packed sequences from `cu_seqlens`.
fn lengths(name: &str, t: &HostTensor) -> Result<Vec<u64>, RuntimeError> {
    let Values::Int(cu) = &t.values else {
        return Err(RuntimeError::Input { name: name.into(), message: "must be an int32 tensor".into() });
    };
    // Repeated entries are sequences of length 0, which Megatron and TransformerEngine accept.
    if cu.len() < 2 || cu[0] != 0 || cu.windows(2).any(|w| w[1] < w[0]) {
        return Err(RuntimeError::Input {
            name: name.into(),
            message: format!("must start at 0 and never decrease, found {cu:?}"),
        });
    }
    Ok(cu.windows(2).map(|w| (w[1] - w[0]) as u64).collect())
}

/// Loads a plan artifact and checks it was compiled for this layout's problem.
fn load_artifact(path: &PathBuf, layout: &Layout, compiled: &passes::LayerClass, backward: bool) -> Result<Vec<Plan>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let file: artifact::PlanFile = serde_json::from_str(&text).with_context(|| {
        format!("`{}` is not a plan file (write one with `attnc plan --backward --emit json`)", path.display())
    })?;
    let want = passes::display_intervals(&compiled.layers);
    let class = file
        .classes
        .iter()
        .find(|c| c.forward.header.layers == compiled.layers)
        .with_context(|| format!("`{}` has no plan for layers {want}", path.display()))?;
    let mut plans = Vec::new();
    for (key, artifact) in [("forward", Some(&class.forward)), ("backward", class.backward.as_ref())]
        .into_iter()
        .take(if backward { 2 } else { 1 })
    {
        let a = artifact.with_context(|| {
            format!("`{}` has no {key} plan; compile it with `attnc plan --backward --emit json`", path.display())
        })?;
        let plan = artifact::to_plan(a).map_err(|e| anyhow::anyhow!("`{}`: {e}", path.display()))?;
        let expected = &compiled.forward;
        if plan.header.cp != expected.header.cp {
            bail!(
                "`{}`: the plan has cp = {}, layout `{}` has cp = {}",
                path.display(),
                plan.header.cp,
                layout.name,
                expected.header.cp
            );
        }
        if plan.problem != expected.problem {
            bail!(
                "`{}`: the plan was compiled for a different problem than layout `{}` (sizes, mask or lengths)",
                path.display(),
                layout.name
            );
        }
        plans.push(plan);
    }
    Ok(plans)
}

/// Runs the layout; `Ok(false)` when the run failed or a check did not pass (already reported).
fn run(layout: &Layout, request: &Request) -> Result<bool> {
    if request.on_device() {
        // A job of the wrong size is refused before any device call (and before planning).
        if let (Some(env), attnc_compiler::sema::spec::Cp::Fixed { size }) = (crate::device::job()?, &layout.cp) {
            crate::device::require_world(&env, *size)?;
        }
        let flag = if request.device == Device::Cuda { "--device cuda" } else { "--kernels cuda" };
        crate::device::require_gpu(&request.gpu, flag)?;
    }
    // `--rope none`: the inputs are rotated already, so the plans (and the reference) rotate nothing.
    let unrotated;
    let layout = if request.rope == RopeInput::None && layout.model.rope.is_some() {
        let mut l = layout.clone();
        l.model.rope = None;
        unrotated = l;
        &unrotated
    } else {
        layout
    };
    if matches!(layout.cp, attnc_compiler::sema::spec::Cp::Hybrid { .. }) {
        if request.on_device() {
            bail!("--device cuda: hybrid-CP batches run on --device cpu (the device executor runs one plan at a time)");
        }
        return run_hybrid(layout, request);
    }
    let file = match &request.inputs {
        Some(path) => Some(tensor::read_file(path).map_err(|e| anyhow::anyhow!("{e}"))?),
        None => None,
    };
    let thd = matches!(layout.format, Format::Thd { .. });
    let given_seqlens = request.options.seqlens.clone().unwrap_or_default();
    let (seqlens, padded_seqlens) = match (&file, thd) {
        (Some(_), _) if !given_seqlens.is_empty() => {
            bail!("--seqlens: the lengths come from the input file's `cu_seqlens`; drop --seqlens (or --inputs)")
        }
        (Some(f), true) => {
            let cu = f.get("cu_seqlens").context("input file: a thd layout needs `cu_seqlens` (int32)")?;
            let lens = lengths("cu_seqlens", cu).map_err(|e| anyhow::anyhow!("{e}"))?;
            let padded = match f.get("cu_seqlens_padded") {
                Some(t) => Some(lengths("cu_seqlens_padded", t).map_err(|e| anyhow::anyhow!("{e}"))?),
                None => None,
            };
            (Some(lens), padded)
        }
        (None, true) if given_seqlens.is_empty() => {
            bail!(
                "--seqlens: layout `{}` is thd: give the packed lengths\n  help: e.g. `--seqlens 100,4000,37`",
                layout.name
            )
        }
        (None, true) => (Some(given_seqlens), request.options.padded_seqlens.clone()),
        (_, false) if !given_seqlens.is_empty() => bail!("--seqlens applies to thd layouts only"),
        (_, false) => (None, None),
    };
    check_layer(layout, request.layer)?;
    let padded = padded_seqlens.is_some() && file.is_some();
    let options =
        PlanOptions { seqlens: seqlens.clone(), padded_seqlens, backward: request.backward, ..request.options.clone() };
    let set = match attnc_compiler::driver::compile(layout, &options) {
        Ok(set) => set,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(false);
        }
    };
    let Some(class) = set.classes.iter().find(|c| c.layers.iter().any(|r| r.contains(request.layer))) else {
        unreachable!("--layer was checked against the model's layers");
    };
    let plans: Vec<Plan> = match &request.plan {
        Some(path) => load_artifact(path, layout, class, request.backward)?,
        None => std::iter::once(class.forward.clone()).chain(class.backward.clone()).collect(),
    };
    // A loaded artifact is verified here; compiled plans come with their proofs.
    let loaded: Vec<Verified> = match &request.plan {
        Some(_) => {
            plans.iter().map(|p| verify::verify(p, Stage::Scheduled)).collect::<Result<_, _>>().map_err(|errors| {
                anyhow::anyhow!(
                    "the plan does not verify:\n{}",
                    errors.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n")
                )
            })?
        }
        None => Vec::new(),
    };
    let proofs: Vec<&Verified> =
        if request.plan.is_some() { loaded.iter().collect() } else { class.proofs.iter().collect() };
    let problem = &plans[0].problem;
    let tensor_layout = match layout.format {
        Format::Sbhd => TensorLayout::Sbhd,
        Format::Bshd => TensorLayout::Bshd,
        Format::Thd { .. } => {
            let lens = seqlens.clone().unwrap_or_default();
            let mut cu = vec![0u64];
            for l in &lens {
                cu.push(cu[cu.len() - 1] + l);
            }
            TensorLayout::Thd { cu_seqlens: cu, padded }
        }
    };
    let inputs = match &file {
        Some(f) => {
            let get = |name: &str, heads: u32| -> Result<Vec<f32>, RuntimeError> {
                let t = f.get(name).ok_or_else(|| RuntimeError::Input {
                    name: name.to_string(),
                    message: format!(
                        "is missing from `{}` (the layout needs q, k, v{})",
                        request.inputs.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                        match (request.backward, problem.sinks) {
                            (false, false) => "",
                            (true, false) => " and do",
                            (false, true) => " and sinks",
                            (true, true) => ", do and sinks",
                        }
                    ),
                })?;
                tensor::to_canonical(problem, &tensor_layout, name, t, heads as usize)
            };
            let load = || -> Result<tensor::Canonical, RuntimeError> {
                Ok(tensor::Canonical {
                    q: get("q", problem.heads)?,
                    k: get("k", problem.kv_heads)?,
                    v: get("v", problem.kv_heads)?,
                    d_out: if request.backward { Some(get("do", problem.heads)?) } else { None },
                    sinks: match (problem.sinks, f.get("sinks")) {
                        (false, None) => None,
                        (true, None) => {
                            return Err(RuntimeError::Input {
                                name: "sinks".to_string(),
                                message: format!(
                                    "is missing from `{}` (the model has learned sinks: fp32, [{}])",
                                    request.inputs.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                                    problem.heads
                                ),
                            });
                        }
                        (_, Some(t)) => Some(tensor::sinks_of(problem, t)?),
                    },
                })
            };
            match load() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(false);
                }
            }
        }
        None => tensor::random(problem, request.seed, request.backward),
    };
    let run_options = RunOptions { timeout: Duration::from_secs_f64(request.timeout), fault: request.inject_fault };
    let (forward, backward) = ((&plans[0], proofs[0]), plans.get(1).zip(proofs.get(1).copied()));
    let shown = Shown { plans: &plans, forward, backward, inputs: &inputs, options: &run_options };
    // Under `attnc launch` (one process per rank), this process runs and checks its rank only.
    let job = if request.on_device() { crate::device::job()? } else { None };
    let result = if request.on_device() {
        #[cfg(feature = "cuda")]
        {
            if let Some(why) = attnc_runtime::exec::unsupported(&plans[0], job.is_some()) {
                bail!("--device cuda: {why}");
            }
            if let Some(env) = &job {
                crate::device::run_rank(env, forward, backward, &inputs, &run_options, &request.gpu)?
            } else {
                let flag = if request.device == Device::Cuda { "--device cuda" } else { "--kernels cuda" };
                let device = crate::device::cuda_device(&request.gpu, flag)?;
                shown.on(&device)
            }
        }
        #[cfg(not(feature = "cuda"))]
        bail!("--device cuda: this attnc was built without the CUDA runtime (feature `cuda`)")
    } else if request.kernels.is_ptx_sim() {
        #[cfg(feature = "cuda")]
        {
            shown.on(&crate::device::ptx_device(&request.gpu)?)
        }
        #[cfg(not(feature = "cuda"))]
        unreachable!("ptx-sim is a kernel choice of the `cuda` feature")
    } else {
        let kernels = host_kernels(request.kernels, problem.dtype, request.threads)?;
        shown.on(&host_device(problem.dtype, &kernels))
    };
    let mut result = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(false);
        }
    };
    let owned: Option<(u32, Vec<u64>)> = job.as_ref().map(|env| {
        let stores = plans[0].rank_ops(env.rank).filter_map(|id| match &plans[0].op(id).kind {
            attnc_compiler::ir::OpKind::Store { src, .. } => Some(plans[0].buf(*src).tokens.clone()),
            _ => None,
        });
        (env.rank, stores.flat_map(|m| m.runs.into_iter().flat_map(|r| r.start..r.end)).collect())
    });
    let out_path = match (&request.out, &job) {
        (Some(path), Some(env)) => Some(path.with_extension(format!("rank{}.safetensors", env.rank))),
        (path, _) => path.clone(),
    };
    let out = &mut result.outputs;
    if let Some(path) = &out_path {
        let dtype = match request.out_dtype {
            OutDtype::Fp32 => tensor::StDtype::F32,
            OutDtype::AsInput => tensor::st_dtype(problem.dtype),
        };
        let mut tensors = BTreeMap::new();
        let (shape, o) = tensor::from_canonical(problem, &tensor_layout, "o", &out.o, problem.heads as usize);
        tensors.insert("o".to_string(), HostTensor::float(shape, dtype, o));
        let (shape, lse) = tensor::lse_from_canonical(problem, &tensor_layout, &out.lse);
        tensors.insert("lse".to_string(), HostTensor::float(shape, tensor::StDtype::F32, lse));
        if request.backward {
            for (name, values, heads) in
                [("dq", &out.dq, problem.heads), ("dk", &out.dk, problem.kv_heads), ("dv", &out.dv, problem.kv_heads)]
            {
                let (shape, v) = tensor::from_canonical(problem, &tensor_layout, name, values, heads as usize);
                tensors.insert(name.to_string(), HostTensor::float(shape, dtype, v));
            }
            if problem.sinks {
                let v = out.dsinks.clone();
                tensors.insert("dsinks".to_string(), HostTensor::float(vec![v.len()], tensor::StDtype::F32, v));
            }
        }
        if let TensorLayout::Thd { cu_seqlens, padded } = &tensor_layout {
            let cu: Vec<i32> = cu_seqlens.iter().map(|&x| x as i32).collect();
            tensors.insert("cu_seqlens".to_string(), HostTensor::int(vec![cu.len()], cu));
            if *padded {
                let cu: Vec<i32> = std::iter::once(0).chain(problem.docs.iter().map(|d| d.end as i32)).collect();
                tensors.insert("cu_seqlens_padded".to_string(), HostTensor::int(vec![cu.len()], cu));
            }
        }
        tensor::write_file(path, &tensors).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    if request.timings {
        for (name, spans, plan) in
            [("forward", &result.forward_spans, plans.first()), ("backward", &result.backward_spans, plans.get(1))]
        {
            let Some(plan) = plan else { continue };
            println!(
                "timings ({name}): per rank, seconds on each stream; hidden = communication overlapped by compute"
            );
            let first = spans.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
            let last = spans.iter().map(|s| s.end).fold(0.0, f64::max);
            println!("  step: {:.6} s (first op start to last op end, all ranks)", (last - first).max(0.0));
            println!("  {:>4} {:>10} {:>10} {:>10} {:>7}", "rank", "compute", "comm", "hidden", "hidden%");
            for t in timings(spans, plan.header.cp) {
                let pct = if t.comm_s > 0.0 { 100.0 * t.hidden_s / t.comm_s } else { 0.0 };
                println!("  {:>4} {:>10.6} {:>10.6} {:>10.6} {:>6.1}%", t.rank, t.compute_s, t.comm_s, t.hidden_s, pct);
            }
        }
    }
    if let Some(path) = &request.trace {
        use attnc_compiler::cost::trace;
        let mut events = Vec::new();
        let mut offset = 0.0;
        for (spans, plan) in [(&result.forward_spans, plans.first()), (&result.backward_spans, plans.get(1))] {
            let Some(plan) = plan else { continue };
            let start = spans.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
            let start = if start.is_finite() { start } else { 0.0 };
            events.extend(trace::events(plan, spans, offset - start));
            offset += spans.iter().map(|s| s.end).fold(0.0, f64::max) - start;
        }
        let n_ranks = plans.first().map_or(0, |p| p.header.cp);
        let layout_name = plans.first().map_or("", |p| p.header.layout.as_str());
        let document = trace::document(&events, n_ranks, &format!("attnc run {layout_name} (measured)"));
        std::fs::write(path, serde_json::to_string(&document)?)
            .with_context(|| format!("--trace {}", path.display()))?;
        eprintln!("wrote {} ({} events; open in https://ui.perfetto.dev)", path.display(), events.len());
    }
    if request.check {
        let mut reference = reference::full_attention(problem, &inputs, request.backward);
        if let Some((rank, tokens)) = &owned {
            println!("rank {rank}: checking the {} tokens this rank stores", tokens.len());
            reference::restrict(problem, out, &mut reference, tokens);
        }
        let rows = reference::check(problem, out, &reference, request.backward);
        println!("check against fp64 full attention ({:?} inputs):", problem.dtype);
        println!("  {:<6} {:>12} {:>12} {:>10}  result", "tensor", "max abs", "max rel", "tolerance");
        for r in &rows {
            let verdict = if r.passed() {
                "ok".to_string()
            } else if r.non_finite > 0 {
                format!("FAIL ({} non-finite)", r.non_finite)
            } else {
                "FAIL".to_string()
            };
            println!("  {:<6} {:>12.3e} {:>12.3e} {:>10.1e}  {verdict}", r.tensor, r.max_abs, r.max_rel, r.tolerance);
        }
        if rows.iter().any(|r| !r.passed()) {
            eprintln!("error: the run exceeds its tolerances (docs/numerics.md)");
            return Ok(false);
        }
    }
    Ok(true)
}

/// A run of the plans with the progress bar shown, on whichever device the flags chose.
struct Shown<'a> {
    plans: &'a [Plan],
    forward: (&'a Plan, &'a Verified),
    backward: Option<(&'a Plan, &'a Verified)>,
    inputs: &'a tensor::Canonical,
    options: &'a RunOptions,
}

impl Shown<'_> {
    fn on<D: attnc_runtime::device::Device>(&self, device: &D) -> Result<attnc_runtime::RunResult, RuntimeError> {
        let progress = Progress::start(self.plans);
        let result = attnc_runtime::run(self.forward, self.backward, device, self.inputs, self.options);
        progress.finish();
        result
    }
}

/// A progress bar for runs longer than a second, on a terminal only.
struct Progress {
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn start(plans: &[Plan]) -> Progress {
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let ops: u64 = plans.iter().map(|p| p.op_ids().count() as u64).sum();
        let handle = std::io::stderr().is_terminal().then(|| {
            let done = done.clone();
            std::thread::spawn(move || {
                let start = std::time::Instant::now();
                let mut bar: Option<indicatif::ProgressBar> = None;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    if bar.is_none() && start.elapsed() > Duration::from_secs(1) {
                        let b = indicatif::ProgressBar::new_spinner();
                        b.set_message(format!("running {ops} ops on CPU ranks"));
                        b.enable_steady_tick(Duration::from_millis(100));
                        bar = Some(b);
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                if let Some(b) = bar {
                    b.finish_and_clear();
                }
            })
        });
        Progress { done, handle }
    }

    fn finish(self) {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(h) = self.handle {
            let _ = h.join();
        }
    }
}

/// What one sub-sample of a hybrid run produced.
struct SampleResult {
    id: u32,
    len: u64,
    outcome: Result<Vec<reference::Comparison>, String>,
}

/// A hybrid-CP layout: schedule the `--seqlens` sub-samples, then per step run every group at
/// once (each sub-sample on its group's ranks, one after another), and wait for all groups
/// before the next step: the barrier. With `--check`, each sub-sample against fp64 attention.
fn run_hybrid(layout: &Layout, request: &Request) -> Result<bool> {
    if request.inputs.is_some() || request.out.is_some() || request.plan.is_some() || request.trace.is_some() {
        bail!(
            "layout `{}` is hybrid CP: --inputs, --out, --plan and --trace take fixed-CP layouts; hybrid runs use random inputs per sub-sample (--seed)",
            layout.name
        );
    }
    let seqlens = request.options.seqlens.clone().unwrap_or_default();
    if seqlens.is_empty() {
        bail!(
            "--seqlens: layout `{}` is hybrid CP: give the sub-sample lengths of the batch\n  help: e.g. `--seqlens 100,40000,2000`",
            layout.name
        );
    }
    check_layer(layout, request.layer)?;
    let classes = match passes::hybrid::compile_hybrid(
        layout,
        &seqlens,
        attnc_compiler::hybrid::Algorithm::Buddy,
        request.backward,
    ) {
        Ok(classes) => classes,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(false);
        }
    };
    let Some(class) = classes.iter().find(|c| c.layers.iter().any(|r| r.contains(request.layer))) else {
        unreachable!("--layer was checked against the model's layers");
    };
    let summary = class.schedule.summary();
    println!(
        "hybrid CP: {} sub-samples on {} GPUs in {} steps (buddy schedule, mean imbalance {:.3}); {}, {}",
        class.schedule.lengths.len(),
        class.schedule.dp_cp,
        summary.steps,
        summary.mean_imbalance,
        class.strategy.name(),
        passes::mask_name(class.mask)
    );
    let run_options = RunOptions { timeout: Duration::from_secs_f64(request.timeout), fault: None };
    let dtype = layout.dtype;
    let kernels = host_kernels(request.kernels, dtype, request.threads)?;
    let device = &host_device(dtype, &kernels);
    let mut all_ok = true;
    for (step_idx, groups) in class.steps.iter().enumerate() {
        let results: Vec<(u32, u32, Vec<SampleResult>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = groups
                .iter()
                .map(|group| {
                    let run_options = &run_options;
                    scope.spawn(move || {
                        let mut results = Vec::new();
                        for sample in &group.samples {
                            let outcome = run_sample(sample, device, run_options, request);
                            results.push(SampleResult { id: sample.id, len: sample.len, outcome });
                        }
                        (group.first_gpu, group.size, results)
                    })
                })
                .collect();
            // The barrier: the next step starts when every group of this one is done.
            handles.into_iter().map(|h| h.join().expect("a group thread panicked")).collect()
        });
        println!("step {step_idx}:");
        for (first, size, samples) in results {
            let gpus = if size == 1 { format!("GPU {first}") } else { format!("GPUs {first}..{}", first + size) };
            for sample in samples {
                let verdict = match &sample.outcome {
                    Err(e) => {
                        all_ok = false;
                        format!("FAILED: {e}")
                    }
                    Ok(rows) if rows.is_empty() => "ran".to_string(),
                    Ok(rows) => {
                        let ok = rows.iter().all(reference::Comparison::passed);
                        all_ok &= ok;
                        let worst: Vec<String> = rows
                            .iter()
                            .map(|r| format!("{} {:.1e}/{:.0e}", r.tensor, r.max_abs, r.tolerance))
                            .collect();
                        format!("{} (max abs / tolerance: {})", if ok { "ok" } else { "FAIL" }, worst.join(", "))
                    }
                };
                println!("  {gpus:<11} cp {size:<3} sample {} (length {}): {verdict}", sample.id, sample.len);
            }
        }
    }
    Ok(all_ok)
}

fn run_sample(
    sample: &passes::hybrid::SamplePlan,
    device: &attnc_runtime::device::host::HostDevice<'_>,
    run_options: &RunOptions,
    request: &Request,
) -> Result<Vec<reference::Comparison>, String> {
    let mut plans = sample.verified();
    let forward = plans.next().expect("the forward plan is always built");
    let problem = &sample.forward.problem;
    let inputs = tensor::random(problem, request.seed ^ (sample.id as u64).wrapping_mul(0x9e37_79b9), request.backward);
    let result = attnc_runtime::run(forward, plans.next(), device, &inputs, run_options).map_err(|e| e.to_string())?;
    if !request.check {
        return Ok(Vec::new());
    }
    let reference = reference::full_attention(problem, &inputs, request.backward);
    Ok(reference::check(problem, &result.outputs, &reference, request.backward))
}
