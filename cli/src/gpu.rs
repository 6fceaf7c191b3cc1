//! The GPU-facing commands: `attnc devices`, `attnc launch`, `attnc matrix`, `attnc kernels`, and
//! the CUDA kernel set of `attnc run`/`attnc bench`.
//!
//! `devices` reports the driver, every device and NCCL's version, and with `--nccl-test` joins a
//! communicator through the rendezvous (torchrun's environment, or a single rank without it) and
//! checks every NCCL operation. `launch` starts local ranks as torchrun does. `matrix` runs the
//! numerics matrix with any kernel set (the GPU's included). `kernels` compiles, ahead of time,
//! every kernel the GPU matrix and benchmarks need, so a GPU machine needs no LLVM.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use attnc_compiler::sema::spec::Dtype;
use attnc_runtime::kernels::Kernels;
use attnc_runtime::matrix;

/// Where the CUDA kernel set gets its kernels and device.
#[derive(Clone, Debug, Default)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub struct GpuArgs {
    pub kernel_dir: Option<PathBuf>,
    pub gpu: usize,
}

/// A device error, with what to do instead when there is no driver at all.
#[cfg(feature = "cuda")]
fn with_help(e: attnc_runtime::cuda::CudaError) -> anyhow::Error {
    match e {
        attnc_runtime::cuda::CudaError::NoDriver => anyhow::anyhow!(
            "{e}\nhelp: run on a machine with an NVIDIA GPU and its driver; without one, `--device cpu` runs the \
             same plan on CPU ranks and `--kernels gpu-emulated` runs the GPU kernel ABI on the CPU"
        ),
        e => e.into(),
    }
}

/// The launcher of the AOT PTX kernels of `--kernel-dir` on device `--gpu`.
#[cfg(feature = "cuda")]
fn cuda_launcher(args: &GpuArgs, flag: &str) -> Result<attnc_runtime::cuda::kernels::CudaLauncher> {
    use attnc_runtime::cuda::{Gpu, kernels::CudaLauncher, kernels::KernelDir};
    let gpu = Gpu::new(args.gpu).map_err(with_help).context(flag.to_string())?;
    let dir = args.kernel_dir.as_deref().with_context(|| {
        format!(
            "{flag}: --kernel-dir DIR is required (compile the kernels ahead of time: `attnc compile FILE --layout L \
             --target {t} -o DIR`, or `attnc kernels --target {t} -o DIR`)",
            t = gpu.info.target()
        )
    })?;
    Ok(CudaLauncher::new(gpu, KernelDir::open(dir)?)?)
}

/// The one-GPU kernel set: every rank's blocks as launches of the AOT PTX kernels, with the CPU
/// executor (host buffers, CPU transfers) around them.
#[cfg(feature = "cuda")]
pub fn cuda_kernels(dtype: Dtype, args: &GpuArgs) -> Result<Box<dyn Kernels>> {
    Ok(Box::new(attnc_runtime::packed::Packed { launcher: cuda_launcher(args, "--kernels cuda")?, dtype }))
}

/// Every rank of a plan on one GPU, for the device executor.
#[cfg(feature = "cuda")]
pub fn cuda_device(args: &GpuArgs) -> Result<attnc_runtime::cuda::device::CudaDevice> {
    Ok(attnc_runtime::cuda::device::CudaDevice::new(cuda_launcher(args, "--device cuda")?))
}

/// The job this process belongs to, when `attnc launch` or torchrun started more than one rank.
pub fn job() -> Result<Option<attnc_runtime::rendezvous::JobEnv>> {
    if std::env::var_os("WORLD_SIZE").is_none() {
        return Ok(None);
    }
    let env = attnc_runtime::rendezvous::JobEnv::from_env()?;
    Ok((env.world_size > 1).then_some(env))
}

/// This process's rank of a plan on its GPU (`LOCAL_RANK`), transfers through NCCL: rank 0 makes
/// the unique id and shares it through the rendezvous at MASTER_ADDR:MASTER_PORT.
#[cfg(feature = "cuda")]
pub fn run_rank(
    env: &attnc_runtime::rendezvous::JobEnv,
    forward: (&attnc_compiler::ir::Plan, &attnc_compiler::verify::Verified),
    backward: Option<(&attnc_compiler::ir::Plan, &attnc_compiler::verify::Verified)>,
    inputs: &attnc_runtime::tensor::Canonical,
    options: &attnc_runtime::exec::RunOptions,
    args: &GpuArgs,
) -> Result<Result<attnc_runtime::RunResult, attnc_runtime::RuntimeError>> {
    use attnc_runtime::cuda::nccl;
    let cp = forward.0.header.cp;
    if env.world_size != cp {
        bail!(
            "WORLD_SIZE is {}, but the plan has cp = {cp}: start one process per CP rank (`attnc launch --nproc-per-node {cp} -- ...`)",
            env.world_size
        );
    }
    let device = cuda_device(&GpuArgs { gpu: env.local_rank as usize, ..args.clone() })?;
    let mine = if env.rank == 0 { Some(nccl::unique_id()?) } else { None };
    let id = attnc_runtime::rendezvous::broadcast(env, mine.as_deref(), Duration::from_secs(120))?;
    let remote = nccl::NcclRemote::new(env.rank as usize, env.world_size as usize, &id)?;
    Ok(attnc_runtime::run_rank_on_device(forward, backward, &device, inputs, options, env.rank, &remote))
}

/// `attnc devices`.
#[cfg(feature = "cuda")]
pub fn devices(nccl_test: bool) -> Result<crate::Outcome> {
    use attnc_runtime::cuda::{self, nccl};
    let mut ok = true;
    match cuda::probe() {
        Ok(devices) => {
            println!("CUDA driver: {} device(s)", devices.len());
            for d in &devices {
                let (major, minor) = d.compute_capability;
                println!(
                    "  {}: {} (compute capability {major}.{minor}, {:.1} GiB, kernels for {})",
                    d.ordinal,
                    d.name,
                    d.total_mem as f64 / (1u64 << 30) as f64,
                    d.target()
                );
            }
        }
        Err(e) => {
            println!("CUDA driver: none ({e})");
            ok = false;
        }
    }
    match nccl::version() {
        Ok((major, minor, patch)) => println!("NCCL: {major}.{minor}.{patch}"),
        Err(e) => {
            println!("NCCL: none ({e})");
            ok = false;
        }
    }
    if !nccl_test {
        return Ok(crate::Outcome::Clean);
    }
    if !ok {
        bail!("--nccl-test needs a CUDA driver, a device and NCCL (see above)");
    }
    // Under `attnc launch` or torchrun the job's environment names the ranks; alone, one rank.
    let env = if std::env::var_os("RANK").is_some() {
        attnc_runtime::rendezvous::JobEnv::from_env()?
    } else {
        attnc_runtime::rendezvous::JobEnv {
            rank: 0,
            world_size: 1,
            local_rank: 0,
            master_addr: "127.0.0.1".into(),
            master_port: 0,
        }
    };
    let gpu = cuda::Gpu::new(env.local_rank as usize)?;
    let id = if env.world_size == 1 {
        nccl::unique_id()?
    } else {
        let mine = if env.rank == 0 { Some(nccl::unique_id()?) } else { None };
        attnc_runtime::rendezvous::broadcast(&env, mine.as_deref(), Duration::from_secs(60))?
    };
    let comm = nccl::NcclComm::new(&gpu, env.rank as usize, env.world_size as usize, &id)?;
    for line in nccl::self_test(&gpu, &comm)? {
        println!("{line}");
    }
    Ok(crate::Outcome::Clean)
}

#[cfg(not(feature = "cuda"))]
pub fn devices(_nccl_test: bool) -> Result<crate::Outcome> {
    bail!("attnc devices: this attnc was built without the CUDA runtime (feature `cuda`)")
}

/// What `attnc launch` starts.
pub struct LaunchRequest {
    pub nproc_per_node: u32,
    pub nnodes: u32,
    pub node_rank: u32,
    pub master_addr: String,
    pub master_port: u16,
    pub command: Vec<String>,
}

/// `attnc launch`: one process per local rank with torchrun's environment; the first rank to fail
/// stops the others and gives the exit status.
pub fn launch(r: &LaunchRequest) -> Result<crate::Outcome> {
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
        None => Ok(crate::Outcome::Clean),
        Some((rank, status)) => {
            eprintln!("error: rank {rank} failed ({status}); the other ranks were stopped");
            Ok(crate::Outcome::InputErrors)
        }
    }
}

/// What `attnc matrix` runs.
pub struct MatrixRequest {
    pub kernels: crate::KernelChoice,
    pub head_dim: u32,
    pub filter: Option<String>,
    /// Run through the device executor: on host memory (gpu-emulated) or a GPU (cuda).
    pub device_executor: bool,
    pub gpu: GpuArgs,
}

/// How one case runs.
enum Runner {
    Kernels(Vec<(Dtype, Box<dyn Kernels>)>),
    Host,
    #[cfg(feature = "cuda")]
    Cuda(Box<attnc_runtime::cuda::device::CudaDevice>),
}

/// `attnc matrix`: the numerics matrix with one kernel set; exit 1 when a case fails. GPU kernel
/// sets (cuda, gpu-emulated) run the 16-bit matrix, the CPU ones the fp32 matrix. With
/// `--device-executor`, cases whose plans it cannot run are listed as such and not counted.
pub fn run_matrix(r: &MatrixRequest) -> Result<crate::Outcome> {
    let gpu_abi = matches!(r.kernels, crate::KernelChoice::GpuEmulated) || r.kernels.is_cuda();
    let mut cases = if gpu_abi { matrix::gpu_cases(r.head_dim) } else { matrix::cases("fp32", r.head_dim) };
    if let Some(f) = &r.filter {
        cases.retain(|c| c.name().contains(f.as_str()));
    }
    let mut runner = match (r.device_executor, r.kernels) {
        (false, _) => Runner::Kernels(Vec::new()),
        (true, crate::KernelChoice::GpuEmulated) => Runner::Host,
        #[cfg(feature = "cuda")]
        (true, crate::KernelChoice::Cuda) => Runner::Cuda(Box::new(cuda_device(&r.gpu)?)),
        (true, other) => bail!("--device-executor runs the GPU kernels (gpu-emulated or cuda), not {}", other.name()),
    };
    let (mut passed, mut failed, mut unsupported) = (0, 0, 0);
    let start = Instant::now();
    for c in &cases {
        let dtype = c.layout().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?.dtype;
        let t = Instant::now();
        let outcome = match &mut runner {
            Runner::Kernels(sets) => {
                if !sets.iter().any(|s| s.0 == dtype) {
                    sets.push((dtype, crate::run::kernel_set(r.kernels, dtype, 1, &r.gpu)?));
                }
                c.check(sets.iter().find(|s| s.0 == dtype).expect("made above").1.as_ref())
            }
            device => {
                let (fwd, _) = c.plans().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?;
                if let Some(why) = attnc_runtime::device::exec::unsupported(&fwd, false) {
                    unsupported += 1;
                    println!("n/a   {:<60} {why}", c.name());
                    continue;
                }
                match device {
                    Runner::Host => c.check_on(&attnc_runtime::device::host::HostDevice { dtype }),
                    #[cfg(feature = "cuda")]
                    Runner::Cuda(d) => c.check_on(d.as_ref()),
                    Runner::Kernels(_) => unreachable!("matched above"),
                }
            }
        };
        match outcome {
            Ok(()) => {
                passed += 1;
                println!("ok    {:<60} {:>7.2} s", c.name(), t.elapsed().as_secs_f64());
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {:<60} {e}", c.name());
            }
        }
    }
    let executor = if r.device_executor { "device executor" } else { "CPU executor" };
    let not_run =
        if unsupported > 0 { format!(", {unsupported} not run by the device executor") } else { String::new() };
    println!(
        "matrix ({}, {executor}, head_dim {}): {passed} passed, {failed} failed{not_run} in {:.1} s",
        r.kernels.name(),
        r.head_dim,
        start.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 { crate::Outcome::Clean } else { crate::Outcome::InputErrors })
}

/// `attnc kernels`: every kernel the GPU matrix (at `matrix_head_dim`) and the GPU benchmarks (at
/// `bench_head_dims`, bf16) need, compiled for `target` into `out` with a manifest.
#[cfg(feature = "llvm")]
pub fn prebuild(target: &str, out: &Path, matrix_head_dim: u32, bench_head_dims: &[usize]) -> Result<crate::Outcome> {
    use attnc_compiler::back::llvm::Target;
    use attnc_runtime::packed::{Emulated, Packed, Recording};
    let Some(target) = Target::parse(target).filter(|t| t.is_gpu()) else {
        bail!("--target {target}: the GPU targets are sm_80, sm_90a");
    };
    let start = Instant::now();
    // The matrix's kernels are what its runs ask for: run it once on the emulated ABI, recording.
    let recording = Recording::new(Emulated);
    for c in matrix::gpu_cases(matrix_head_dim) {
        let dtype = c.layout().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?.dtype;
        c.check(&Packed { launcher: &recording, dtype }).map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?;
    }
    let mut specs = recording.take();
    // And what the device executor launches for the same plans (the same set, checked here).
    let mut device_specs = Vec::new();
    for c in matrix::gpu_cases(matrix_head_dim) {
        let (fwd, bwd) = c.plans().map_err(|e| anyhow::anyhow!("{}: {e}", c.name()))?;
        for plan in [&fwd, &bwd] {
            for id in plan.op_ids() {
                let tables = attnc_runtime::device::exec::op_tables(plan, id).unwrap_or_default();
                device_specs.extend(tables.into_iter().map(|t| t.spec));
            }
        }
    }
    for s in device_specs.into_iter().chain(attnc_runtime::packed::bench_specs(bench_head_dims, Dtype::Bf16)) {
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
    Ok(crate::Outcome::Clean)
}

#[cfg(not(feature = "llvm"))]
pub fn prebuild(_target: &str, _out: &Path, _matrix_head_dim: u32, _bench: &[usize]) -> Result<crate::Outcome> {
    bail!("attnc kernels: this attnc was built without the LLVM backend (feature `llvm`)")
}

/// `attnc bench kernels --kernels cuda`: forward and backward TFLOP/s on the device.
#[cfg(feature = "cuda")]
pub fn bench(
    seqs: &[usize],
    head_dims: &[usize],
    heads: usize,
    causal: Option<bool>,
    json: bool,
    args: &GpuArgs,
) -> Result<()> {
    use attnc_runtime::cuda::bench;
    let launcher = cuda_launcher(args, "--kernels cuda")?;
    let seqs = if seqs.is_empty() { vec![4096, 8192, 16384, 32768] } else { seqs.to_vec() };
    let dims = if head_dims.is_empty() { vec![64, 128] } else { head_dims.to_vec() };
    let causals: Vec<bool> = causal.map_or(vec![true, false], |c| vec![c]);
    if !json {
        println!("{} ({})", launcher.gpu.info.name, launcher.dir.target);
        println!(
            "{:<6} {:>6} {:>4} {:>6} {:>7} {:>10} {:>9}",
            "kernel", "seq", "d", "heads", "causal", "ms", "TFLOP/s"
        );
    }
    for &seq in &seqs {
        for &d in &dims {
            for &c in &causals {
                for r in bench::measure(&launcher, seq, d, heads, c, Dtype::Bf16, 10)? {
                    if json {
                        println!("{}", serde_json::to_string(&r)?);
                    } else {
                        println!(
                            "{:<6} {:>6} {:>4} {:>6} {:>7} {:>10.3} {:>9.1}",
                            r.kernel, r.seq, r.head_dim, r.heads, r.causal, r.ms, r.tflops
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(not(feature = "cuda"))]
pub fn bench(
    _seqs: &[usize],
    _head_dims: &[usize],
    _heads: usize,
    _causal: Option<bool>,
    _json: bool,
    _args: &GpuArgs,
) -> Result<()> {
    bail!("--kernels cuda: this attnc was built without the CUDA runtime (feature `cuda`)")
}
