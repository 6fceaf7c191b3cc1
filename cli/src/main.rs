//! The `attnc` command line: check, format and explain `.attn` specs; partition, group and plan layouts.
//!
//! Exit codes: 0 clean or warnings only, 1 errors in the input, 2 usage or I/O errors.
//! Diagnostics go to stderr, requested output (JSON, formatted text) to stdout.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use attnc_compiler::diag::{self, Code, Diagnostic};
use attnc_compiler::front::overrides::{self, Override};
use attnc_compiler::front::span::{FileId, Sources};
use attnc_compiler::plan::{groups, partition as part};
use attnc_compiler::sema::spec::{Balance, Cp, Format, Layout};
use attnc_compiler::{Frontend, compile_file, front, ir, passes};
use clap::{Args, Parser, Subcommand, ValueEnum};

#[cfg(feature = "llvm")]
mod compile;
mod gpu;
mod run;
mod schedule;
mod simulate;

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
        /// The layout to partition.
        #[arg(long)]
        layout: String,
        /// THD sub-sequence lengths, e.g. `100,4000,37` (required for thd layouts).
        #[arg(long, value_delimiter = ',')]
        seqlens: Vec<u64>,
        #[arg(long, value_enum, default_value_t = JsonOnly::Json)]
        emit: JsonOnly,
    },
    /// Compile a layout into per-rank plans (forward, and backward with --backward) and verify them.
    Plan {
        #[command(flatten)]
        spec: SpecArgs,
        /// The layout to plan.
        #[arg(long)]
        layout: String,
        /// Print only this CP rank's program (text and dot).
        #[arg(long)]
        rank: Option<u32>,
        /// Also plan the backward pass.
        #[arg(long)]
        backward: bool,
        /// Only the layer class that contains this layer.
        #[arg(long)]
        layer: Option<u64>,
        /// THD sub-sequence lengths, e.g. `100,4000,37` (required for thd layouts).
        #[arg(long, value_delimiter = ',')]
        seqlens: Vec<u64>,
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
        /// The layout to run.
        #[arg(long)]
        layout: String,
        /// Input tensors (safetensors): q, k, v, and do for --backward; cu_seqlens (and
        /// cu_seqlens_padded) for thd. Without it, inputs are unit normal from --seed.
        #[arg(long)]
        inputs: Option<PathBuf>,
        /// Write o, lse (and dq, dk, dv) here (safetensors).
        #[arg(long)]
        out: Option<PathBuf>,
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
        /// THD sub-sequence lengths for random inputs, e.g. `100,4000,37`.
        #[arg(long, value_delimiter = ',')]
        seqlens: Vec<u64>,
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
        #[arg(long)]
        layout: String,
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
        /// THD sub-sequence lengths (required for thd layouts).
        #[arg(long, value_delimiter = ',')]
        seqlens: Vec<u64>,
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
        #[arg(long)]
        layout: String,
        /// Also play the backward pass.
        #[arg(long)]
        backward: bool,
        /// Only the layer class that contains this layer.
        #[arg(long)]
        layer: Option<u64>,
        /// THD sub-sequence lengths (required for thd layouts).
        #[arg(long, value_delimiter = ',')]
        seqlens: Vec<u64>,
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
        #[arg(long)]
        layout: String,
        /// THD sub-sequence lengths (required for thd layouts).
        #[arg(long, value_delimiter = ',')]
        seqlens: Vec<u64>,
        #[arg(long)]
        profile: Option<PathBuf>,
        /// `text` (the table), `spec` (layer blocks with the chosen strategies) or `megatron` (flags).
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

#[derive(Args)]
struct SpecArgs {
    /// Spec files (`.attn`); each is checked on its own.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Override a field before checking: ITEM.FIELD=VALUE (repeatable), e.g. `--set pretrain.cp=4`.
    #[arg(long = "set", value_name = "ITEM.FIELD=VALUE")]
    set: Vec<String>,
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
enum PlanEmit {
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
        Command::Partition { spec, layout, seqlens, emit: _ } => partition(&spec, &layout, &seqlens),
        Command::Plan { spec, layout, rank, backward, layer, seqlens, verify, stats, emit } => {
            let request = PlanRequest { rank, backward, layer, seqlens, verify, stats, emit };
            plan(&spec, &layout, &request)
        }
        Command::Run {
            spec,
            layout,
            inputs,
            out,
            backward,
            check,
            seed,
            timings,
            seqlens,
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
        } => {
            let request = run::Request {
                on_device: device == Device::Cuda,
                gpu: gpu::GpuArgs { kernel_dir, gpu },
                inputs,
                out,
                backward,
                check,
                seed,
                timings,
                seqlens,
                plan,
                layer,
                timeout,
                inject_fault,
                kernels,
                threads,
                trace,
            };
            let loaded = match load_checked(&spec)? {
                Ok(loaded) => loaded,
                Err(outcome) => return Ok(outcome),
            };
            let layout = find_layout(&loaded, &layout)?;
            Ok(if run::run(layout, &request)? { Outcome::Clean } else { Outcome::InputErrors })
        }
        Command::Compile { spec, layout, target, out, emit, ptxas, seqlens, timings, emit_kernel_ir } => {
            let loaded = match load_checked(&spec)? {
                Ok(loaded) => loaded,
                Err(outcome) => return Ok(outcome),
            };
            let layout = find_layout(&loaded, &layout)?;
            if target == "cpu" {
                return run::compile(layout, &seqlens, timings, emit_kernel_ir);
            }
            #[cfg(feature = "llvm")]
            {
                let Some(target) = attnc_compiler::back::llvm::Target::parse(&target) else {
                    anyhow::bail!("--target {target}: the targets are cpu, sm_80, sm_90a, x86-64");
                };
                let emit = emit.as_deref().map(compile::Emit::parse).transpose()?;
                let request =
                    compile::Request { layout, target, seqlens: &seqlens, out: out.as_deref(), emit, timings, ptxas };
                compile::compile(&request)
            }
            #[cfg(not(feature = "llvm"))]
            {
                let _ = (out, emit, ptxas);
                anyhow::bail!("--target {target}: this attnc was built without the LLVM backend (feature `llvm`)")
            }
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
        Command::Simulate { spec, layout, backward, layer, seqlens, trace, profile } => {
            let loaded = match load_checked(&spec)? {
                Ok(loaded) => loaded,
                Err(outcome) => return Ok(outcome),
            };
            let layout = find_layout(&loaded, &layout)?;
            let request = simulate::SimulateRequest {
                backward,
                layer,
                seqlens: &seqlens,
                trace: trace.as_deref(),
                profile: profile.as_deref(),
            };
            Ok(if simulate::simulate(layout, &request)? { Outcome::Clean } else { Outcome::InputErrors })
        }
        Command::Tune { spec, layout, seqlens, profile, emit } => {
            let loaded = match load_checked(&spec)? {
                Ok(loaded) => loaded,
                Err(outcome) => return Ok(outcome),
            };
            let layout = find_layout(&loaded, &layout)?;
            Ok(if simulate::tune(layout, &seqlens, profile.as_deref(), emit)? {
                Outcome::Clean
            } else {
                Outcome::InputErrors
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

/// The files of a run, read and compiled, with the overrides that apply.
struct Loaded {
    sources: Sources,
    units: Vec<Frontend>,
}

/// Reads and checks every file. `Err` is an I/O error; `Ok(None)` a bad `--set` (already reported).
fn load(spec: &SpecArgs) -> Result<Option<Loaded>> {
    let mut sources = Sources::new();
    let mut files: Vec<FileId> = Vec::new();
    for path in &spec.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read `{}`", path.display()))?;
        files.push(sources.add(path.display().to_string(), text));
    }
    let overrides: Vec<Override> = match overrides::parse_overrides(&mut sources, &spec.set) {
        Ok(o) => o,
        Err(errors) => {
            report(&sources, &errors);
            return Ok(None);
        }
    };
    let units: Vec<Frontend> = files.iter().map(|&f| compile_file(&sources, f, &overrides)).collect();
    let unmatched: Vec<Diagnostic> = overrides
        .iter()
        .enumerate()
        .filter(|(i, _)| units.iter().all(|u| !u.matched[*i]))
        .map(|(_, o)| {
            let names: Vec<String> =
                units.iter().flat_map(|u| u.tree.items.iter().map(|i| i.name.node.clone())).collect();
            overrides::unknown_item(o, &names)
        })
        .collect();
    if !unmatched.is_empty() {
        report(&sources, &unmatched);
        return Ok(None);
    }
    Ok(Some(Loaded { sources, units }))
}

fn report(sources: &Sources, diagnostics: &[Diagnostic]) {
    use diag::termcolor::{ColorChoice, StandardStream};
    use std::io::IsTerminal as _;
    // Colour only on a terminal and when NO_COLOR is unset; pipes and files get plain text.
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut coloured = StandardStream::stderr(if colour { ColorChoice::Auto } else { ColorChoice::Never });
    let _ = diag::emit(sources, diagnostics, &mut coloured);
    let mut stderr = std::io::stderr().lock();
    if let Some(summary) = diag::summary(diagnostics) {
        let _ = writeln!(stderr, "{summary}");
    }
}

/// Loads and checks the files and reports every diagnostic; `Err` carries the exit outcome
/// when the flags or the specs have errors.
fn load_checked(spec: &SpecArgs) -> Result<Result<Loaded, Outcome>> {
    let Some(loaded) = load(spec)? else {
        return Ok(Err(Outcome::Usage));
    };
    let all: Vec<Diagnostic> = loaded.units.iter().flat_map(|u| u.diagnostics.iter().cloned()).collect();
    report(&loaded.sources, &all);
    if all.iter().any(Diagnostic::is_error) {
        return Ok(Err(Outcome::InputErrors));
    }
    Ok(Ok(loaded))
}

fn check(spec: &SpecArgs, emit: Emit) -> Result<Outcome> {
    let loaded = match load_checked(spec)? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(outcome),
    };
    if emit == Emit::Json {
        let specs: Vec<serde_json::Value> = loaded
            .units
            .iter()
            .zip(&spec.files)
            .map(|(u, path)| {
                let mut value =
                    serde_json::to_value(u.spec.as_ref().expect("no errors, so a spec")).expect("spec serialises");
                value["file"] = serde_json::Value::String(path.display().to_string());
                value
            })
            .collect();
        let out = if specs.len() == 1 {
            specs.into_iter().next().unwrap_or_default()
        } else {
            serde_json::Value::Array(specs)
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
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

/// The layout named by `--layout`, or an error listing the layouts the files define.
fn find_layout<'a>(loaded: &'a Loaded, layout_name: &str) -> Result<&'a Layout> {
    let layouts: Vec<&Layout> = loaded.units.iter().filter_map(|u| u.spec.as_ref()).flat_map(|s| &s.layouts).collect();
    match layouts.iter().find(|l| l.name == layout_name) {
        Some(layout) => Ok(layout),
        None => {
            let names: Vec<&str> = layouts.iter().map(|l| l.name.as_str()).collect();
            let suggestion = names
                .iter()
                .min_by_key(|n| strsim::levenshtein(n, layout_name))
                .filter(|n| strsim::levenshtein(n, layout_name) <= 3)
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            anyhow::bail!(
                "--layout `{layout_name}`: no such layout (the files define {}){suggestion}",
                names.join(", ")
            )
        }
    }
}

struct PlanRequest {
    rank: Option<u32>,
    backward: bool,
    layer: Option<u64>,
    seqlens: Vec<u64>,
    verify: bool,
    stats: bool,
    emit: PlanEmit,
}

fn plan(spec: &SpecArgs, layout_name: &str, request: &PlanRequest) -> Result<Outcome> {
    let loaded = match load_checked(spec)? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(outcome),
    };
    let layout = find_layout(&loaded, layout_name)?;
    if let Some(rank) = request.rank {
        let cp = match layout.cp {
            Cp::Fixed { size } => size,
            Cp::Hybrid { dp_cp, .. } => dp_cp,
        };
        if rank >= cp {
            anyhow::bail!("--rank {rank}: layout `{layout_name}` has CP ranks 0..{}", cp - 1);
        }
    }
    if let Some(layer) = request.layer {
        if layer >= layout.layers.len() as u64 {
            anyhow::bail!("--layer {layer}: model `{}` has layers 0..{}", layout.model.name, layout.layers.len() - 1);
        }
    }
    if matches!(layout.cp, Cp::Hybrid { .. }) && !request.seqlens.is_empty() {
        return plan_hybrid(layout, request);
    }
    let options = passes::PlanOptions {
        seqlens: (!request.seqlens.is_empty()).then(|| request.seqlens.clone()),
        backward: request.backward,
        verify: request.verify,
    };
    let set = match passes::compile(layout, &options) {
        Ok(set) => set,
        Err(error @ passes::PlanError::Verify { .. }) => {
            eprintln!("{error}");
            return Ok(Outcome::InputErrors);
        }
        Err(error) => {
            eprintln!("error: {error}");
            return Ok(Outcome::InputErrors);
        }
    };
    let classes: Vec<&passes::LayerClass> = set
        .classes
        .iter()
        .filter(|c| request.layer.is_none_or(|l| c.layers.iter().any(|r| r.start <= l && l < r.end)))
        .collect();
    match request.emit {
        PlanEmit::Text => {
            let mut out = String::new();
            for c in &classes {
                for p in class_plans(c) {
                    out.push_str(&ir::print::text(p, request.rank));
                    if request.stats {
                        out.push_str(&stats_text(p));
                    }
                    out.push('\n');
                }
            }
            print!("{}", out.trim_end_matches('\n'));
            println!();
        }
        PlanEmit::Dot => {
            for c in &classes {
                for p in class_plans(c) {
                    println!("{}", ir::print::dot(p, request.rank));
                }
            }
        }
        PlanEmit::Json => {
            let classes: Vec<serde_json::Value> = classes
                .iter()
                .map(|c| {
                    let mut v = serde_json::json!({
                        "layers": c.layers,
                        "strategy": c.strategy.name(),
                        "forward": ir::artifact::from_plan(&c.forward),
                    });
                    if let Some(b) = &c.backward {
                        v["backward"] = serde_json::to_value(ir::artifact::from_plan(b)).unwrap_or_default();
                    }
                    if request.stats {
                        v["stats"] = serde_json::json!({
                            "forward": ir::stats::stats(&c.forward),
                            "backward": c.backward.as_ref().map(ir::stats::stats),
                        });
                    }
                    v
                })
                .collect();
            let out = serde_json::json!({
                "version": ir::artifact::ARTIFACT_VERSION,
                "layout": set.layout,
                "classes": classes,
            });
            println!("{}", serde_json::to_string(&out)?);
        }
    }
    Ok(Outcome::Clean)
}

/// A class's forward plan, then its backward plan if built.
/// A hybrid layout for one batch: the schedule's steps and each sub-sample's verified plans.
fn plan_hybrid(layout: &Layout, request: &PlanRequest) -> Result<Outcome> {
    if request.emit != PlanEmit::Text {
        anyhow::bail!("--emit: hybrid layouts print as text (one fixed-CP plan per sub-sample: plan one with --set)");
    }
    let algorithm = attnc_compiler::hybrid::Algorithm::Buddy;
    let classes = match passes::hybrid::compile_hybrid(layout, &request.seqlens, algorithm, request.backward) {
        Ok(classes) => classes,
        Err(error) => {
            eprintln!("error: {error}");
            return Ok(Outcome::InputErrors);
        }
    };
    for class in &classes {
        println!(
            "plan `{}` layers {}: hybrid CP over {} GPUs, {}, mask {}, {} steps with a barrier over the pool after each",
            layout.name,
            passes::display_layers(&class.layers),
            class.schedule.dp_cp,
            class.strategy.name(),
            passes::mask_name(class.mask),
            class.steps.len()
        );
        for (step_idx, groups) in class.steps.iter().enumerate() {
            println!("step {step_idx}");
            for group in groups {
                for sample in &group.samples {
                    let last = group.first_gpu + group.size - 1;
                    let ops: usize = std::iter::once(&sample.forward)
                        .chain(sample.backward.as_ref())
                        .map(|p| p.op_ids().count())
                        .sum();
                    println!(
                        "  GPUs {}-{last} (cp {}): sample {} of {} tokens, {ops} ops, verified",
                        group.first_gpu, group.size, sample.id, sample.len
                    );
                }
            }
            println!("  barrier over GPUs 0-{}", class.schedule.dp_cp - 1);
        }
    }
    Ok(Outcome::Clean)
}

fn class_plans(class: &passes::LayerClass) -> Vec<&ir::Plan> {
    std::iter::once(&class.forward).chain(class.backward.as_ref()).collect()
}

fn stats_text(plan: &attnc_compiler::ir::Plan) -> String {
    use std::fmt::Write as _;
    let s = ir::stats::stats(plan);
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let mut out = String::new();
    let _ = writeln!(out, "stats: balance {:.3} (max/mean FLOPs over ranks)", s.balance);
    let _ = writeln!(
        out,
        "  {:>4} {:>10} {:>6} {:>11} {:>11} {:>11} {:>11} {:>9}",
        "rank", "GFLOP", "blocks", "sent intra", "sent inter", "recv intra", "recv inter", "buffers"
    );
    for r in &s.ranks {
        let _ = writeln!(
            out,
            "  {:>4} {:>10.1} {:>6} {:>9.3}Gi {:>9.3}Gi {:>9.3}Gi {:>9.3}Gi {:>7.3}Gi",
            r.rank,
            r.flops / 1e9,
            r.blocks,
            gib(r.sent_intra_bytes),
            gib(r.sent_inter_bytes),
            gib(r.received_intra_bytes),
            gib(r.received_inter_bytes),
            gib(r.buffer_bytes)
        );
    }
    out
}

fn partition(spec: &SpecArgs, layout_name: &str, seqlens: &[u64]) -> Result<Outcome> {
    let loaded = match load_checked(spec)? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(outcome),
    };
    let layout = find_layout(&loaded, layout_name)?;
    let Cp::Fixed { size: cp } = layout.cp else {
        anyhow::bail!(
            "--layout `{layout_name}`: hybrid CP partitions per sub-sample; this command takes fixed-size CP layouts"
        );
    };
    let result = match layout.format {
        Format::Thd { max_tokens, .. } => {
            if seqlens.is_empty() {
                anyhow::bail!(
                    "--seqlens: layout `{layout_name}` is thd; give the packed lengths, e.g. --seqlens 100,4000,37"
                );
            }
            let tp = if layout.sequence_parallel { layout.tp as u64 } else { 1 };
            part::thd(seqlens, cp, 2 * cp as u64 * tp, Some(max_tokens))
        }
        _ if !seqlens.is_empty() => {
            anyhow::bail!("--seqlens applies to thd layouts only; `{layout_name}` is not thd")
        }
        _ if layout.balance == Balance::Zigzag => part::zigzag(layout.seq, cp),
        _ => part::contiguous(layout.seq, cp),
    };
    let partition = result.map_err(|e| anyhow::anyhow!("layout `{layout_name}`: {e}"))?;
    println!("{}", serde_json::to_string(&partition)?);
    Ok(Outcome::Clean)
}
