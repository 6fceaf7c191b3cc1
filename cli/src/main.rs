//! The `attnc` command line: check, format and explain `.attn` specs; partition, group and plan layouts.
//!
//! Exit codes: 0 clean or warnings only, 1 errors in the input, 2 usage or I/O errors.
//! Diagnostics go to stderr, requested output (JSON, formatted text) to stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use attnc_compiler::diag::{Code, Diagnostic};
use attnc_compiler::plan::groups;
use attnc_compiler::sema::spec::{FileSpec, Layout};
use attnc_compiler::{front, passes};
use clap::{Parser, Subcommand, ValueEnum};
use spec::{LayoutArgs, SpecArgs, load, load_checked, report};

#[cfg(feature = "llvm")]
mod compile;
mod gpu;
mod plan;
mod run;
mod schedule;
mod simulate;
mod spec;

#[derive(Parser)]
#[command(name = "attnc", version, about = "A compiler for context-parallel attention")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check spec files and report every problem; exit 1 on errors.
    Check {
        #[command(flatten)]
        spec: SpecArgs,
        /// `text` prints only diagnostics; `json` also prints the resolved spec, defaults filled in.
        #[arg(long, value_enum, default_value_t = Emit::Text)]
        emit: Emit,
    },
    /// Print spec files in canonical form.
    Fmt {
        #[command(flatten)]
        spec: SpecArgs,
        /// Print nothing; exit 1 if any file is not in canonical form.
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the files in place.
        #[arg(long)]
        write: bool,
    },
    /// Print every rank's tokens and RoPE positions under a layout's CP split.
    Partition {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        layout: LayoutArgs,
        #[arg(long, value_enum, default_value_t = JsonOnly::Json)]
        emit: JsonOnly,
    },
    /// Compile a layout into per-rank plans (forward, and backward with --backward) and verify them.
    Plan {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        layout: LayoutArgs,
        /// Print only this CP rank's program (text and dot).
        #[arg(long)]
        rank: Option<u32>,
        /// Also plan the backward pass.
        #[arg(long)]
        backward: bool,
        /// Only the layer class that contains this layer.
        #[arg(long)]
        layer: Option<u64>,
        /// Run the verifier after every pass (always on in debug builds; the final plan is always verified).
        #[arg(long)]
        verify: bool,
        /// Per rank: mask-aware FLOPs, bytes per link level, buffer memory; and the balance max/mean.
        #[arg(long)]
        stats: bool,
        #[arg(long, value_enum, default_value_t = PlanEmit::Text)]
        emit: PlanEmit,
    },
    /// Execute a layout's plan on CPU ranks (threads), optionally checked against fp64 full attention.
    Run {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        layout: LayoutArgs,
        /// Input tensors (safetensors; docs/io.md): q, k, v, and do for --backward; cu_seqlens (and
        /// cu_seqlens_padded) for thd. Without it, inputs are unit normal from --seed.
        #[arg(long)]
        inputs: Option<PathBuf>,
        /// Write o, lse (and dq, dk, dv) here (safetensors; docs/io.md).
        #[arg(long)]
        out: Option<PathBuf>,
        /// `apply`: rotate q and k by the model's RoPE at each token's position; `none`: the inputs
        /// are already rotated (as Megatron hands them to TransformerEngine).
        #[arg(long, value_enum, default_value_t = run::RopeInput::Apply)]
        rope: run::RopeInput,
        /// The dtype of the floating-point outputs: `fp32`, or `as-input` (the layout's dtype).
        #[arg(long, value_enum, default_value_t = run::OutDtype::Fp32)]
        out_dtype: run::OutDtype,
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
        /// A directory of GPU kernels compiled ahead of time (`attnc compile -o`, `attnc kernels -o`).
        #[arg(long)]
        kernel_dir: Option<PathBuf>,
        /// The CUDA device ordinal.
        #[arg(long, default_value_t = 0)]
        gpu: usize,
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
        #[arg(long, hide = true)]
        inject_fault: Option<String>,
    },
    /// JIT-compile every kernel a layout's plans need and report each one's compile time.
    Compile {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        layout: LayoutArgs,
        /// `cpu`: Cranelift for this machine (JIT, nothing written); `sm_80`, `sm_90a`: PTX through
        /// LLVM; `x86-64`: AVX2 object files through LLVM.
        #[arg(long, default_value = "cpu")]
        target: String,
        /// Output directory: plans, kernels (.ptx or .o), manifest.json.
        #[arg(short = 'o', long)]
        out: Option<std::path::PathBuf>,
        /// Print a stage of every kernel to stdout: kernel-ir, llvm-ir, optimized-ir, ptx, asm.
        #[arg(long)]
        emit: Option<String>,
        /// Assemble every PTX with ptxas and record registers, spills and shared memory.
        #[arg(long)]
        ptxas: bool,
        /// Print each kernel's compile time.
        #[arg(long)]
        timings: bool,
        /// Print the kernel IR of each kernel.
        #[arg(long)]
        emit_kernel_ir: bool,
    },
    /// Benchmarks: `attnc bench kernels`.
    Bench {
        /// What to measure: `kernels`.
        what: String,
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
        /// With `--kernels cuda`: the directory of AOT kernels (`attnc kernels -o DIR`).
        #[arg(long)]
        kernel_dir: Option<PathBuf>,
        /// With `--kernels cuda`: the device ordinal.
        #[arg(long, default_value_t = 0)]
        gpu: usize,
    },
    /// Report the CUDA driver, every device and NCCL's version.
    Devices {
        /// Also join an NCCL communicator (one rank, or the ranks of `attnc launch`/torchrun) and
        /// check all-gather, reduce-scatter, grouped send/recv and all-to-all on known data.
        #[arg(long)]
        nccl_test: bool,
    },
    /// Start one process per local rank with torchrun's environment (RANK, LOCAL_RANK,
    /// WORLD_SIZE, MASTER_ADDR, MASTER_PORT): `attnc launch --nproc-per-node 8 -- attnc ...`.
    Launch {
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
    },
    /// Run the numerics matrix (every strategy × mask × format × GQA × cp, forward and backward)
    /// against fp64 attention with one kernel set; exit 1 if a case fails.
    Matrix {
        #[arg(long, value_enum, default_value_t = KernelChoice::Reference)]
        kernels: KernelChoice,
        /// Head dim of every case (the GPU kernels take 64, 128, 192, 256).
        #[arg(long, default_value_t = 8)]
        head_dim: u32,
        /// Only cases whose name contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Through the device executor (buffers in device memory, launch tables, events): on host
        /// memory with `--kernels gpu-emulated`, on the GPU with `--kernels cuda`.
        #[arg(long)]
        device_executor: bool,
        #[arg(long)]
        kernel_dir: Option<PathBuf>,
        #[arg(long, default_value_t = 0)]
        gpu: usize,
    },
    /// Compile, ahead of time, every GPU kernel the numerics matrix and the GPU benchmarks need.
    Kernels {
        /// sm_80 or sm_90a.
        #[arg(long)]
        target: String,
        #[arg(short = 'o', long)]
        out: PathBuf,
        /// The head dim of the matrix's cases.
        #[arg(long, default_value_t = 64)]
        matrix_head_dim: u32,
        /// The head dims of the benchmarks.
        #[arg(long, value_delimiter = ',', default_values_t = [64, 128])]
        bench_head_dims: Vec<usize>,
    },
    /// Play a layout's plans on the cost model: step time, exposed communication, idle time per rank.
    Simulate {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        layout: LayoutArgs,
        /// Also play the backward pass.
        #[arg(long)]
        backward: bool,
        /// Only the layer class that contains this layer.
        #[arg(long)]
        layer: Option<u64>,
        /// Write a Chrome/Perfetto trace (one track per rank and stream).
        #[arg(long)]
        trace: Option<PathBuf>,
        /// A device profile from `attnc calibrate` instead of the cluster GPU's preset.
        #[arg(long)]
        profile: Option<PathBuf>,
    },
    /// Evaluate every valid strategy per layer class on the cost model and choose the fastest.
    Tune {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        layout: LayoutArgs,
        #[arg(long)]
        profile: Option<PathBuf>,
        /// `text` (the table), `spec` (the layout with the chosen strategies, to paste back) or
        /// `megatron` (Megatron-LM's arguments; what they cannot express goes to stderr).
        #[arg(long, value_enum, default_value_t = simulate::TuneEmit::Text)]
        emit: simulate::TuneEmit,
    },
    /// Measure this machine's kernels, memory and communicator; write a device profile for `--profile`.
    Calibrate {
        #[arg(long, value_enum, default_value_t = KernelChoice::Cranelift)]
        kernels: KernelChoice,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 128)]
        head_dim: usize,
        #[arg(long, default_value_t = 8)]
        heads: usize,
        /// Tokens per attention block measured (query and key rows).
        #[arg(long, default_value_t = 1024)]
        block: usize,
        /// The profile to write (JSON).
        #[arg(short, long)]
        out: PathBuf,
    },
    /// Hybrid CP: assign sub-samples to power-of-two CP groups, step by step.
    Schedule {
        /// One sub-sample length per line; the sample id is the line number from 0.
        #[arg(long)]
        lengths: PathBuf,
        /// The DP×CP pool (a power of two).
        #[arg(long)]
        dp_cp: u32,
        /// The most tokens one rank holds; a sub-sample of length L gets max(1, 2^ceil(log2(L/M))) GPUs.
        #[arg(long)]
        max_seqlen_per_rank: u64,
        /// `buddy` (attnc's) or `megatron` (the same groups as Megatron-LM's BalancedCPScheduler).
        #[arg(long, value_enum, default_value_t = ScheduleAlgorithm::Buddy)]
        algorithm: ScheduleAlgorithm,
        #[arg(long, value_enum, default_value_t = Emit::Text)]
        emit: Emit,
    },
    /// Print Megatron-Core's process groups for the given sizes.
    Groups {
        #[arg(long)]
        world: u32,
        #[arg(long, default_value_t = 1)]
        tp: u32,
        #[arg(long, default_value_t = 1)]
        cp: u32,
        #[arg(long, default_value_t = 1)]
        pp: u32,
        #[arg(long, default_value_t = 1)]
        ep: u32,
        /// Megatron's rank order.
        #[arg(long, default_value = "tp-cp-ep-dp-pp")]
        order: String,
        /// Hierarchical CP sizes, e.g. `2,2` (their product must be cp).
        #[arg(long, value_delimiter = ',')]
        hierarchy: Option<Vec<u32>>,
        /// Also print hybrid DP×CP power-of-two subgroups.
        #[arg(long)]
        hybrid: bool,
        #[arg(long, value_enum, default_value_t = JsonOnly::Json)]
        emit: JsonOnly,
    },
    /// Print the long explanation of a diagnostic code, e.g. `attnc explain E0011`.
    Explain {
        /// A code such as E0011 or W0002; `all` lists every code.
        code: String,
    },
}

/// The output of commands that print only JSON (the flag is accepted for symmetry with `plan`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum JsonOnly {
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KernelChoice {
    /// The plain-Rust fp32 reference kernels (the oracle).
    Reference,
    /// The kernel IR interpreter (scalar; the oracle of generated kernels).
    Interpreter,
    /// Kernels generated by Cranelift for this CPU (f32x4, FMA), compiled on first use.
    Cranelift,
    /// Kernels generated by LLVM for x86-64 (AVX2 + FMA, 256-bit), compiled on first use.
    #[cfg(feature = "llvm")]
    #[value(name = "llvm-cpu")]
    LlvmCpu,
    /// The GPU kernel ABI emulated on the CPU: blocks packed into THD launches, 16-bit inputs.
    #[value(name = "gpu-emulated")]
    GpuEmulated,
    /// The PTX kernels of --kernel-dir on a CUDA device (ranks share it; transfers go through the
    /// CPU communicator).
    #[cfg(feature = "cuda")]
    Cuda,
}

impl KernelChoice {
    pub fn name(self) -> &'static str {
        match self {
            KernelChoice::Reference => "reference",
            KernelChoice::Interpreter => "interpreter",
            KernelChoice::Cranelift => "cranelift",
            #[cfg(feature = "llvm")]
            KernelChoice::LlvmCpu => "llvm-cpu",
            KernelChoice::GpuEmulated => "gpu-emulated",
            #[cfg(feature = "cuda")]
            KernelChoice::Cuda => "cuda",
        }
    }

    pub fn is_cuda(self) -> bool {
        #[cfg(feature = "cuda")]
        if self == KernelChoice::Cuda {
            return true;
        }
        false
    }
}

/// Where `attnc run` executes.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Device {
    /// CPU ranks with the kernels of --kernels.
    Cpu,
    /// Every rank on one CUDA device (--gpu) with the PTX kernels of --kernel-dir.
    Cuda,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ScheduleAlgorithm {
    /// attnc's scheduler: capacity-bounded steps, aligned blocks, LPT.
    Buddy,
    /// Megatron-LM's BalancedCPScheduler, group for group.
    Megatron,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanEmit {
    Text,
    Json,
    Dot,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Emit {
    Text,
    Json,
}

/// The exit status of a command that ran: input errors (1) are not failures of the tool.
pub enum Outcome {
    Clean,
    InputErrors,
    Usage,
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing to a closed pipe (`attnc plan ... | head`) fails and
    // `println!` panics. Like other command-line tools, end quietly instead: the default action.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::InputErrors) => ExitCode::from(1),
        Ok(Outcome::Usage) => ExitCode::from(2),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Check { spec, emit } => check(&spec, emit),
        Command::Fmt { spec, check, write } => fmt(&spec, check, write),
        Command::Explain { code } => Ok(explain(&code)),
        Command::Partition { spec, layout, emit: _ } => {
            with_layout(&spec, &layout, |l, options| plan::partition(l, &options))
        }
        Command::Plan { spec, layout, rank, backward, layer, verify, stats, emit } => {
            with_layout(&spec, &layout, |l, options| {
                let request = plan::PlanRequest { rank, backward, layer, verify, stats, emit, options };
                plan::plan(l, &request)
            })
        }
        Command::Run {
            spec,
            layout,
            inputs,
            out,
            rope,
            out_dtype,
            backward,
            check,
            seed,
            timings,
            plan,
            layer,
            kernels,
            device,
            kernel_dir,
            gpu,
            threads,
            timeout,
            trace,
            inject_fault,
        } => with_layout(&spec, &layout, |l, options| {
            let request = run::Request {
                on_device: device == Device::Cuda,
                gpu: gpu::GpuArgs { kernel_dir, gpu },
                inputs,
                out,
                rope,
                out_dtype,
                backward,
                check,
                seed,
                timings,
                options,
                plan,
                layer,
                timeout,
                inject_fault,
                kernels,
                threads,
                trace,
            };
            Ok(if run::run(l, &request)? { Outcome::Clean } else { Outcome::InputErrors })
        }),
        Command::Compile { spec, layout, target, out, emit, ptxas, timings, emit_kernel_ir } => {
            with_layout(&spec, &layout, |l, options| {
                if target == "cpu" {
                    return run::compile(l, &options, timings, emit_kernel_ir);
                }
                #[cfg(feature = "llvm")]
                {
                    let Some(target) = attnc_compiler::back::llvm::Target::parse(&target) else {
                        anyhow::bail!("--target {target}: the targets are cpu, sm_80, sm_90a, x86-64");
                    };
                    let emit = emit.as_deref().map(compile::Emit::parse).transpose()?;
                    let request =
                        compile::Request { layout: l, target, options, out: out.as_deref(), emit, timings, ptxas };
                    compile::compile(&request)
                }
                #[cfg(not(feature = "llvm"))]
                {
                    let _ = (out, emit, ptxas);
                    anyhow::bail!("--target {target}: this attnc was built without the LLVM backend (feature `llvm`)")
                }
            })
        }
        Command::Bench { what, seq, head_dim, heads, kernels, causal, threads, json, kernel_dir, gpu } => {
            if what != "kernels" {
                anyhow::bail!("bench `{what}`: the benchmarks are `kernels`");
            }
            if kernels.iter().any(|k| k.is_cuda()) {
                if kernels.len() > 1 {
                    anyhow::bail!("--kernels cuda: GPU kernels are measured on their own (no other --kernels)");
                }
                gpu::bench(&seq, &head_dim, heads, causal, json, &gpu::GpuArgs { kernel_dir, gpu })?;
            } else {
                run::bench(&seq, &head_dim, heads, &kernels, causal, threads, json)?;
            }
            Ok(Outcome::Clean)
        }
        Command::Devices { nccl_test } => gpu::devices(nccl_test),
        Command::Launch { nproc_per_node, nnodes, node_rank, master_addr, master_port, command } => {
            gpu::launch(&gpu::LaunchRequest { nproc_per_node, nnodes, node_rank, master_addr, master_port, command })
        }
        Command::Matrix { kernels, head_dim, filter, device_executor, kernel_dir, gpu } => {
            let gpu = gpu::GpuArgs { kernel_dir, gpu };
            gpu::run_matrix(&gpu::MatrixRequest { kernels, head_dim, filter, device_executor, gpu })
        }
        Command::Kernels { target, out, matrix_head_dim, bench_head_dims } => {
            gpu::prebuild(&target, &out, matrix_head_dim, &bench_head_dims)
        }
        Command::Simulate { spec, layout, backward, layer, trace, profile } => {
            with_layout(&spec, &layout, |l, options| {
                let request = simulate::SimulateRequest {
                    backward,
                    layer,
                    options,
                    trace: trace.as_deref(),
                    profile: profile.as_deref(),
                };
                Ok(if simulate::simulate(l, &request)? { Outcome::Clean } else { Outcome::InputErrors })
            })
        }
        Command::Tune { mut spec, layout, profile, emit } => {
            spec.target_warns = true;
            with_layout(&spec, &layout, |l, options| {
                Ok(if simulate::tune(l, &options, profile.as_deref(), emit)? {
                    Outcome::Clean
                } else {
                    Outcome::InputErrors
                })
            })
        }
        Command::Calibrate { kernels, threads, head_dim, heads, block, out } => {
            run::calibrate(kernels, threads, head_dim, heads, block, &out)?;
            Ok(Outcome::Clean)
        }
        Command::Schedule { lengths, dp_cp, max_seqlen_per_rank, algorithm, emit } => {
            let algorithm = match algorithm {
                ScheduleAlgorithm::Buddy => attnc_compiler::hybrid::Algorithm::Buddy,
                ScheduleAlgorithm::Megatron => attnc_compiler::hybrid::Algorithm::Megatron,
            };
            let ok = schedule::run(&lengths, dp_cp, max_seqlen_per_rank, algorithm, emit == Emit::Json)?;
            Ok(if ok { Outcome::Clean } else { Outcome::InputErrors })
        }
        Command::Groups { world, tp, cp, pp, ep, order, hierarchy, hybrid, emit: _ } => {
            let sizes = groups::GroupSizes { world, tp, cp, pp, ep, order, hierarchy, hybrid };
            let groups = groups::build(&sizes)?;
            println!("{}", serde_json::to_string(&groups)?);
            Ok(Outcome::Clean)
        }
    }
}

/// Loads and checks the files, picks the layout, and calls `f` with it and the plan options of
/// the flags (`--seqlens`, `--padded-seqlens`, `--for`); spec errors end the command here.
fn with_layout(
    spec: &SpecArgs,
    which: &LayoutArgs,
    f: impl FnOnce(&Layout, passes::PlanOptions) -> Result<Outcome>,
) -> Result<Outcome> {
    let loaded = match load_checked(spec)? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(outcome),
    };
    let layout = loaded.layout(which.layout.as_deref())?;
    if !which.padded_seqlens.is_empty() && !matches!(layout.format, attnc_compiler::sema::spec::Format::Thd { .. }) {
        anyhow::bail!("--padded-seqlens: layout `{}` is not thd", layout.name);
    }
    if !which.padded_seqlens.is_empty() && matches!(layout.cp, attnc_compiler::sema::spec::Cp::Hybrid { .. }) {
        anyhow::bail!(
            "--padded-seqlens: layout `{}` is hybrid CP, whose groups pad each sub-sample for their own size\n  help: give the lengths alone, with `--seqlens`",
            layout.name
        );
    }
    f(layout, passes::PlanOptions { target: loaded.target, ..which.plan_options() })
}

fn check(spec: &SpecArgs, emit: Emit) -> Result<Outcome> {
    let loaded = match load_checked(spec)? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(outcome),
    };
    if emit == Emit::Json {
        let specs: Vec<FileSpec<'_>> = loaded
            .units
            .iter()
            .zip(&spec.files)
            .filter_map(|(u, path)| u.spec.as_ref().map(|s| FileSpec { spec: s, file: path.display().to_string() }))
            .collect();
        let out = match specs.as_slice() {
            [one] => serde_json::to_string_pretty(one)?,
            many => serde_json::to_string_pretty(many)?,
        };
        println!("{out}");
    }
    Ok(Outcome::Clean)
}

fn fmt(spec: &SpecArgs, check: bool, write: bool) -> Result<Outcome> {
    let Some(loaded) = load(spec)? else {
        return Ok(Outcome::Usage);
    };
    let mut outcome = Outcome::Clean;
    for (unit, path) in loaded.units.iter().zip(&spec.files) {
        // Only syntax errors stop formatting: a file that parses can be printed.
        let syntax: Vec<Diagnostic> = unit.diagnostics.iter().filter(|d| d.code == Code::Syntax).cloned().collect();
        if !syntax.is_empty() {
            report(&loaded.sources, &syntax);
            outcome = Outcome::InputErrors;
            continue;
        }
        let formatted = front::print_file(&unit.tree);
        let original = loaded.sources.text(unit.tree.file);
        if check {
            if formatted != original {
                eprintln!("{}: not in canonical form (run `attnc fmt --write {}`)", path.display(), path.display());
                outcome = Outcome::InputErrors;
            }
        } else if write {
            if formatted != original {
                std::fs::write(path, &formatted).with_context(|| format!("cannot write `{}`", path.display()))?;
            }
        } else {
            print!("{formatted}");
        }
    }
    Ok(outcome)
}

fn explain(code: &str) -> Outcome {
    if code.eq_ignore_ascii_case("all") {
        for c in Code::ALL {
            println!("{}  {}", c.as_str(), c.title());
        }
        return Outcome::Clean;
    }
    match Code::parse(code) {
        Some(c) => {
            println!("{}: {}\n\n{}", c.as_str(), c.title(), c.explanation());
            Outcome::Clean
        }
        None => {
            eprintln!("error: `{code}` is not a diagnostic code");
            eprintln!("help: codes look like E0011 or W0002; `attnc explain all` lists them");
            Outcome::Usage
        }
    }
}
