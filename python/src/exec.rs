//! One rank's run of a cached plan on the host device: the caller's local shards (the rows of
//! the rank's tokens, in the split's local order) placed in the executor's canonical tensors,
//! the plan executed with torch.distributed as its transport, and the rank's rows gathered back.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use attnc_compiler::ir::Problem;
use attnc_compiler::passes::LayerClass;
use attnc_runtime::RuntimeError;
use attnc_runtime::device::host::HostDevice;
use attnc_runtime::exec::{self, ExecInputs, ExecOutputs, Extent, Ranks, RunOptions};
use attnc_runtime::generated::{Cranelift, Generated};
use attnc_runtime::kernels::Kernels;

use crate::remote::TorchRemote;

/// The kernel sets this module was built with: Cranelift always, LLVM's AVX2/AVX-512 host kernels
/// with the `llvm` feature (the wheel links libLLVM-19 then).
pub fn kernel_sets() -> Vec<&'static str> {
    let mut sets = vec!["cranelift"];
    if cfg!(feature = "llvm") {
        sets.insert(0, "llvm-cpu");
    }
    sets
}

/// A kernel set by name (`auto`: the fastest built in), compiled on first use and kept, one per
/// (set, threads).
fn kernels(name: &str, threads: usize) -> Result<&'static dyn Kernels, String> {
    type Sets = Mutex<HashMap<(&'static str, usize), &'static dyn Kernels>>;
    static SETS: OnceLock<Sets> = OnceLock::new();
    let sets_built = kernel_sets();
    let name = match name {
        "auto" => sets_built[0],
        other => *sets_built
            .iter()
            .find(|s| **s == other)
            .ok_or_else(|| format!("kernels `{other}`: this build of attnc has {}", sets_built.join(", ")))?,
    };
    let mut sets = SETS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    Ok(*sets.entry((name, threads)).or_insert_with(|| -> &'static dyn Kernels {
        #[cfg(feature = "llvm")]
        if name == "llvm-cpu" {
            return Box::leak(Box::new(Generated::new(attnc_runtime::generated::LlvmCpu::default(), threads)));
        }
        Box::leak(Box::new(Generated::new(Cranelift::default(), threads)))
    }))
}

/// Why a rank's run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A tensor's size does not match the plan.
    #[error("tensor `{name}` has {got} elements; the plan's rank {rank} needs {want} ({shape})")]
    Size { name: &'static str, got: usize, want: usize, rank: u32, shape: String },
    #[error("rank {rank} is not in the plan's group of {cp}")]
    Rank { rank: u32, cp: u32 },
    #[error("{0}")]
    Kernels(String),
    #[error("{0}")]
    Runtime(#[from] RuntimeError),
}

/// A rank's local rows: the global tokens in local order, and the tensors' sizes.
pub struct Shard<'a> {
    pub rank: u32,
    pub tokens: &'a [u64],
}

/// Local tensors, `[b][n][heads][w]` (lse `[b][heads][n]`), fp32, by their names.
pub struct Local<'a> {
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    pub o: Option<&'a [f32]>,
    pub lse: Option<&'a [f32]>,
    pub d_out: Option<&'a [f32]>,
    pub sinks: Option<&'a [f32]>,
    /// The score's learned parameters, `[heads][n]`.
    pub params: Option<&'a [f32]>,
    /// The model's query head of the call's first head (tensor parallelism), which a score that
    /// reads `h` counts from.
    pub head_offset: u32,
}

/// The rank's results, local as its inputs.
pub struct Results {
    pub o: Vec<f32>,
    pub lse: Vec<f32>,
    pub dq: Vec<f32>,
    pub dk: Vec<f32>,
    pub dv: Vec<f32>,
    pub dsinks: Vec<f32>,
    /// This rank's share of the learned score parameters' gradients, `[heads][n]`.
    pub dparams: Vec<f32>,
}

struct Sizes {
    b: usize,
    n: usize,
    h: usize,
    hk: usize,
    d: usize,
    dv: usize,
}

impl Sizes {
    fn of(p: &Problem, n: usize) -> Sizes {
        Sizes {
            b: p.batch as usize,
            n,
            h: p.heads as usize,
            hk: p.kv_heads as usize,
            d: p.head_dim as usize,
            dv: p.v_dim() as usize,
        }
    }
}

fn check(name: &'static str, x: &[f32], want: usize, rank: u32, shape: String) -> Result<(), RunError> {
    if x.len() == want { Ok(()) } else { Err(RunError::Size { name, got: x.len(), want, rank, shape }) }
}

/// How a rank runs: the longest wait, the kernel threads and the kernel set (`auto`, `cranelift`,
/// `llvm-cpu`).
pub struct How<'a> {
    pub timeout: Duration,
    pub threads: usize,
    pub kernels: &'a str,
}

/// Runs the class's forward (`backward = false`) or backward plan as `shard.rank`.
pub fn run(
    class: &LayerClass,
    backward: bool,
    shard: &Shard<'_>,
    local: &Local<'_>,
    remote: &TorchRemote,
    how: &How<'_>,
) -> Result<Results, RunError> {
    let plan =
        if backward { class.backward.as_ref().expect("plans are built with their backward") } else { &class.forward };
    let p = &plan.problem;
    let cp = plan.header.cp;
    if shard.rank >= cp {
        return Err(RunError::Rank { rank: shard.rank, cp });
    }
    let s = Sizes::of(p, shard.tokens.len());
    let rank = shard.rank;
    let shape = |heads: usize, w: usize| format!("[{}][{}][{heads}][{w}]", s.b, s.n);
    check("q", local.q, s.b * s.n * s.h * s.d, rank, shape(s.h, s.d))?;
    check("k", local.k, s.b * s.n * s.hk * s.d, rank, shape(s.hk, s.d))?;
    check("v", local.v, s.b * s.n * s.hk * s.dv, rank, shape(s.hk, s.dv))?;
    if p.sinks {
        check("sinks", local.sinks.unwrap_or(&[]), s.h, rank, format!("[{}]", s.h))?;
    }
    let n_params = p.score.map_or(0, |sc| sc.params.len());
    if n_params > 0 {
        check("score_params", local.params.unwrap_or(&[]), s.h * n_params, rank, format!("[{}][{n_params}]", s.h))?;
    }
    let extent = Extent::of_tokens(shard.tokens);
    if backward {
        let (lo, ll, ld) = (local.o.unwrap_or(&[]), local.lse.unwrap_or(&[]), local.d_out.unwrap_or(&[]));
        check("out", lo, s.b * s.n * s.h * s.dv, rank, shape(s.h, s.dv))?;
        check("lse", ll, s.b * s.h * s.n, rank, format!("[{}][{}][{}]", s.b, s.h, s.n))?;
        check("d_out", ld, s.b * s.n * s.h * s.dv, rank, shape(s.h, s.dv))?;
    }
    // The executor reads and writes the shard's rows in place: its canonical tensors are the
    // local ones, over the rank's extent.
    let inputs = ExecInputs {
        q: local.q,
        k: local.k,
        v: local.v,
        o: local.o.filter(|_| backward),
        lse: local.lse.filter(|_| backward),
        d_out: local.d_out.filter(|_| backward),
        sinks: if p.sinks { local.sinks } else { None },
        params: local.params.filter(|_| n_params > 0),
        head_offset: local.head_offset,
        extent: Some(&extent),
    };
    let device =
        HostDevice::with_kernels(p.dtype, kernels(how.kernels, how.threads.max(1)).map_err(RunError::Kernels)?);
    let options = RunOptions { timeout: how.timeout, fault: None };
    let (out, _spans): (ExecOutputs, _) =
        exec::execute(plan, &device, &inputs, &options, &Ranks::One { rank, remote })?;
    Ok(if backward {
        Results {
            o: Vec::new(),
            lse: Vec::new(),
            dq: out.dq,
            dk: out.dk,
            dv: out.dv,
            dsinks: out.dsinks,
            dparams: out.dparams,
        }
    } else {
        Results {
            o: out.o,
            lse: out.lse,
            dq: Vec::new(),
            dk: Vec::new(),
            dv: Vec::new(),
            dsinks: Vec::new(),
            dparams: Vec::new(),
        }
    })
}
