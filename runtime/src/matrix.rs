//! The numerics matrix: every strategy × mask × format × GQA × cp (and hierarchy), forward and
//! backward, against fp64 full attention with RoPE, at the tolerances of `docs/numerics.md`.
//!
//! One definition of the cases, run by the test suite (`runtime/tests/numerics.rs`, every CPU
//! kernel set) and by `attnc matrix` (any kernel set, including the GPU's: `scripts/gpu-check.sh`
//! runs it on a GPU with the same cases). A case is a small spec text compiled through the whole
//! front end and pipeline, so the matrix tests exactly what users run.

use attnc_compiler::diag;
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::span::Sources;
use attnc_compiler::spec::{Exchange, Layout};
use attnc_compiler::verify;

use crate::exec::RunOptions;
use crate::kernels::Kernels;
use crate::{reference, tensor};

/// One case of the matrix.
#[derive(Clone, Debug)]
pub struct Case {
    pub cp: u32,
    pub strategy: String,
    pub mask: &'static str,
    pub format: &'static str,
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub dtype: &'static str,
    /// The model has learned sinks (`sinks = learned`).
    pub sinks: bool,
    /// The model's score modification, as its line (`softcap = X` or `score = EXPR`; a score
    /// with learned parameters after their `params = [...]` line).
    pub score: Option<&'static str>,
    /// The model's value head dim, when it differs from `head_dim` (MLA, `v_head_dim = N`).
    pub v_head_dim: Option<u32>,
    /// Under a window or chunks: the halo exchange, the strategy's own communication, or (`Auto`)
    /// whichever moves fewer rows, as the pipeline reads it without the driver.
    pub exchange: Exchange,
    /// One sequence of [`LONG_SEQ`] tokens instead of two of `16 · cp`: long enough that the GPU
    /// kernels' loops pass their rings of shared-memory stages more than once.
    pub long: bool,
}

/// The long case's sequence: at cp 2 zigzag chunks of 256 rows, so a forward CTA's KV loop and a
/// backward CTA's query loop run four tiles of 64 — past the stages of every GPU kernel's ring
/// (two, and sm_90a-ws's three), where a stage reloaded before its readers are done shows.
pub const LONG_SEQ: u64 = 1024;

impl Case {
    /// A one-line name: `cp4 p2p causal bshd h8/2 d8 bf16`.
    pub fn name(&self) -> String {
        format!(
            "cp{} {} {} {} h{}/{} d{}{} {}{}{}{}{}",
            self.cp,
            self.strategy,
            self.mask,
            self.format,
            self.heads,
            self.kv_heads,
            self.head_dim,
            self.v_head_dim.map(|v| format!("/v{v}")).unwrap_or_default(),
            self.dtype,
            if self.sinks { " sinks" } else { "" },
            // The score's line (the last, after a `params = [...]` line).
            self.score
                .map(|line| format!(" {}", line.rsplit('\n').next().unwrap_or(line).trim().replacen(" = ", " ", 1)))
                .unwrap_or_default(),
            match self.exchange {
                Exchange::Auto => "",
                Exchange::Halo => " (halo)",
                Exchange::Full => " (own exchange)",
            },
            if self.long { " long" } else { "" }
        )
    }

    /// The case as a spec text with one layout `l`.
    pub fn spec(&self) -> String {
        let cp = self.cp as u64;
        let format = match self.format {
            "thd" => format!("  format = thd {{ max_tokens = {} }}", 2 * cp * 64),
            f if self.long => format!("  format = {f}\n  seq = {LONG_SEQ}\n  batch = 1"),
            f => format!("  format = {f}\n  seq = {}\n  batch = 2", 2 * cp * 8),
        };
        format!(
            "model m {{\n  layers = 1\n  heads = {}\n  kv_heads = {}\n  head_dim = {}\n{}  rope {{ theta = 10000 }}\n  sinks = {}\n{}}}\n\
             cluster c {{\n  nodes = 2\n  gpus_per_node = 8\n  gpu = h100_sxm\n}}\n\
             layout l {{\n  model = m\n  cluster = c\n  dtype = {}\n{format}\n  cp = {}\n  dp = 1\n  mask = {}\n  strategy = {}\n}}\n",
            self.heads,
            self.kv_heads,
            self.head_dim,
            self.v_head_dim.map(|v| format!("  v_head_dim = {v}\n")).unwrap_or_default(),
            if self.sinks { "learned" } else { "none" },
            self.score.map(|line| format!("  {line}\n")).unwrap_or_default(),
            self.dtype,
            self.cp,
            self.mask,
            self.strategy
        )
    }

    pub fn layout(&self) -> Result<Layout, String> {
        let mut sources = Sources::new();
        let file = sources.add("case.attn", self.spec());
        let unit = attnc_compiler::compile_file(&mut sources, file, &[]);
        match unit.spec {
            Some(spec) if !spec.layouts.is_empty() => Ok(spec.layouts[0].clone()),
            _ => Err(diag::render(&sources, &unit.diagnostics)),
        }
    }

    /// The forward and backward plans of the case's one layer class, verified.
    pub fn plans(&self) -> Result<(verify::Verified, verify::Verified), String> {
        let mut layout = self.layout()?;
        layout.layers.iter_mut().for_each(|l| l.exchange = self.exchange);
        let seqlens = (self.format == "thd").then(|| seqlens(self.cp));
        let set =
            passes::compile(&layout, &PlanOptions { seqlens, backward: true, verify: true, ..Default::default() })
                .map_err(|e| e.to_string())?;
        let class = set.classes.into_iter().next().ok_or("no plan")?;
        Ok((class.forward, class.backward.ok_or("no backward plan")?))
    }

    /// Runs the case forward and backward with a host kernel set, through the device executor on
    /// host memory, and compares with fp64 attention; `Err` names every tensor out of tolerance.
    pub fn check(&self, kernels: &dyn Kernels) -> Result<(), String> {
        self.check_with(|f, b, inputs| {
            let device = crate::device::host::HostDevice::with_kernels(f.problem.dtype, kernels);
            crate::run(f, Some(b), &device, inputs, &RunOptions::default())
        })
    }

    /// The same on a device, through the device executor.
    pub fn check_on<D: crate::device::Device>(&self, device: &D) -> Result<(), String> {
        self.check_with(|f, b, inputs| crate::run(f, Some(b), device, inputs, &RunOptions::default()))
    }

    /// One process per rank, as `attnc launch` runs a plan: a thread per rank, each with its own
    /// device (`device(rank)`), running only its rank, transfers through `remote`. Each rank's
    /// outputs hold the rows it stores; together they must be full attention.
    pub fn check_per_rank<D: crate::device::Device>(
        &self,
        device: impl Fn(u32) -> D + Sync,
        remote: &dyn crate::exec::Remote<D>,
    ) -> Result<(), String> {
        self.check_with(|f, b, inputs| {
            let cp = f.header.cp;
            let results: Vec<Result<crate::RunResult, crate::RuntimeError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..cp)
                    .map(|rank| {
                        let device = &device;
                        scope.spawn(move || {
                            let d = device(rank);
                            crate::run_rank(f, Some(b), &d, inputs, &RunOptions::default(), rank, remote)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a rank thread panicked")).collect()
            });
            let mut all: Option<crate::RunResult> = None;
            for r in results {
                let r = r?;
                match &mut all {
                    None => all = Some(r),
                    Some(acc) => {
                        let (a, o) = (&mut acc.outputs, &r.outputs);
                        let sums = [(&mut a.o, &o.o), (&mut a.dq, &o.dq), (&mut a.dk, &o.dk), (&mut a.dv, &o.dv)];
                        // Learned parameters' gradients: each rank's share of the pairs.
                        let shares = [(&mut a.dsinks, &o.dsinks), (&mut a.dparams, &o.dparams)];
                        for (x, y) in sums.into_iter().chain(shares) {
                            x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
                        }
                        a.lse.iter_mut().zip(&o.lse).for_each(|(x, y)| *x = x.max(*y));
                    }
                }
            }
            Ok(all.expect("a plan has at least one rank"))
        })
    }

    fn check_with(
        &self,
        execute: impl FnOnce(
            &verify::Verified,
            &verify::Verified,
            &tensor::Canonical,
        ) -> Result<crate::RunResult, crate::RuntimeError>,
    ) -> Result<(), String> {
        let (fwd, bwd) = self.plans()?;
        let inputs = tensor::random(&fwd.problem, 7, true);
        let result = execute(&fwd, &bwd, &inputs).map_err(|e| e.to_string())?;
        let oracle = reference::full_attention(&fwd.problem, &inputs, true);
        let failed: Vec<String> = reference::check(&fwd.problem, &result.outputs, &oracle, true)
            .into_iter()
            .filter(|r| !r.passed())
            .map(|r| {
                format!("{} max abs {:.3e} > {:.1e} ({} non-finite)", r.tensor, r.max_abs, r.tolerance, r.non_finite)
            })
            .collect();
        if failed.is_empty() { Ok(()) } else { Err(failed.join("; ")) }
    }
}

/// Uneven THD lengths: not multiples of 2·cp, and a length-1 sequence.
pub fn seqlens(cp: u32) -> Vec<u64> {
    let unit = 2 * cp as u64;
    vec![3 * unit + 1, 1, unit - 1 + (unit == 1) as u64, 5, 2 * unit]
}

/// Every strategy a CP size admits, with the hierarchies that multiply to it.
pub fn strategies(cp: u32) -> Vec<String> {
    let mut s = vec!["p2p".to_string(), "all_gather".to_string(), "a2a".to_string()];
    for h in [[2, 2], [2, 4], [4, 2]] {
        if h[0] * h[1] == cp {
            s.push(format!("a2a+p2p {{ hierarchy = [{}, {}] }}", h[0], h[1]));
        }
    }
    s
}

/// Each mask with its format. Chunks of 6 and 5 cut the zigzag chunks (8 tokens per rank and
/// half) and the packed sequences off their edges; the regional masks (written as expressions:
/// prefix-LM with a 5-token prefix; 3 global keys, 2 global queries and a window of 5 within each
/// packed sequence; 2 global keys and a two-sided window, 3 keys back and 2 ahead — a band no
/// named mask is) cut them too.
pub const MASKS: [(&str, &str); 12] = [
    ("none", "sbhd"),
    ("causal", "bshd"),
    ("causal { window = 5 }", "sbhd"),
    ("causal { chunk = 6 }", "bshd"),
    ("padding_causal", "thd"),
    ("padding", "thd"),
    ("padding_causal { window = 6 }", "thd"),
    ("padding_causal { chunk = 5 }", "thd"),
    ("k <= q | k < 5", "bshd"),
    ("k < 3 | q < 2 | (k <= q & q - k < 5)", "thd"),
    ("k < 2 | (q - k < 4 & k - q < 3)", "sbhd"),
    // No band in any region (a union of bands, an anti-diagonal, a stride; queries 0..2 of each
    // sequence see nothing): planned by its hull, a causal window of 7, and tested per pair by
    // the kernels' score code.
    ("k <= q & q - k < 7 & q + k >= 5 & (q - k < 3 | (q - k) % 3 != 1)", "thd"),
];

/// A model feature of the matrix, with the mask and format it runs under.
#[derive(Clone, Copy, Debug)]
pub struct Feature {
    pub mask: &'static str,
    pub format: &'static str,
    pub sinks: bool,
    /// The model's score line ([`Case::score`]).
    pub score: Option<&'static str>,
    /// MLA: a value head dim of its own ([`mla_v_head_dim`]).
    pub mla: bool,
}

/// The model features of the matrix at cp 2 and 4, each with a mask and format: learned sinks
/// (causal, bshd), a smooth score expression ([`SCORE`]; a window, sbhd), learned sinks and logit soft-capping at 2
/// over chunks of packed sequences (thd), MLA's value head dim over windows of packed
/// sequences (thd), and learned score parameters with learned sinks ([`LEARNED`]; a window,
/// bshd).
pub const FEATURES: [Feature; 5] = [
    Feature { mask: "causal", format: "bshd", sinks: true, score: None, mla: false },
    Feature { mask: "causal { window = 5 }", format: "sbhd", sinks: false, score: Some(SCORE), mla: false },
    Feature {
        mask: "padding_causal { chunk = 5 }",
        format: "thd",
        sinks: true,
        score: Some("softcap = 2"),
        mla: false,
    },
    Feature { mask: "padding_causal { window = 6 }", format: "thd", sinks: false, score: None, mla: true },
    Feature { mask: "causal { window = 7 }", format: "bshd", sinks: true, score: Some(LEARNED), mla: false },
];

/// The matrix's learned score parameters: a distance bias whose slope each head learns and a
/// learned temperature, with their gradients (`dparams`) checked against fp64.
pub const LEARNED: &str = "params = [slope, temp]\n  score = s * exp(temp[h]) - slope[h] * (q - k)";

/// The matrix's score expression: tanh, exp, log (of a score and of a distance, whose argument
/// is below 1 at masked pairs: the kernels' floor), division by a constant and by an expression, every
/// arithmetic operator, bending where the seeded scores lie, the positions and the head — ALiBi's
/// bias in the distance q − k with its slope per head (the cases at cp 2 and 4 have 8 heads; under
/// a2a and a2a+p2p each rank counts `h` from its first head) and a bias in the key's own
/// position. Smooth, because the matrix
/// runs at 16 bits too: there, q and k are rounded after RoPE, so a score moves by ~2⁻⁹ of
/// itself and a kink's slope would flip between sides at every score that near it — a true
/// property of a kinked score in 16 bits, not an error of the kernels. The kinks of `min` and
/// `max` are checked in fp32 ([`KINKED`]).
pub const SCORE: &str = "score = 2 * tanh(s / 2) + s / 4 - exp(s / 3 - 2) / (1 + s * s / 8) + log(1 + s * s / 8) / 4 - alibi(h, 8) * (q - k) - log(1 + q - k) / 8 + k / 64";

/// A score with kinks (`min`, `max`), for the fp32 cases: its slope jumps at `s = 0` and `s = 1`,
/// and is the mean of both sides at a tie, as `torch.minimum`/`torch.maximum` give it; and a
/// remainder of the distance, a step in the positions.
pub const KINKED: &str = "score = 2 * tanh(s / 2) + max(s - 1, 0) / 4 - exp(min(s, 0) - 2) + (q - k) % 3 / 4";

/// The value head dim of the matrix's MLA cases: half the head dim from 128 up (DeepSeek's
/// direction, 192/128), twice it below, so that both stay multiples of 64 for the GPU kernels.
pub fn mla_v_head_dim(head_dim: u32) -> u32 {
    if head_dim >= 128 { head_dim / 2 } else { 2 * head_dim }
}

/// The matrix at one dtype and head dim: cp 1, 2, 3, 4, 8 × every strategy × every mask (each
/// with its format), and at cp 2 and 4 every strategy × each of [`FEATURES`]; GQA rotating
/// through MHA, group 4 and MQA; and one long case (`Case::long`).
pub fn cases(dtype: &'static str, head_dim: u32) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut rotation = 0usize;
    for cp in [1u32, 2, 3, 4, 8] {
        let heads = if cp == 3 { 12 } else { 8 };
        let gqa = [heads, heads / 4, 1];
        let features = if cp == 2 || cp == 4 { &FEATURES[..] } else { &[] };
        for strategy in strategies(cp) {
            let plain =
                MASKS.iter().map(|&(mask, format)| Feature { mask, format, sinks: false, score: None, mla: false });
            for Feature { mask, format, sinks, score, mla } in plain.chain(features.iter().copied()) {
                rotation += 1;
                let kv_heads = gqa[rotation % 3];
                cases.push(Case {
                    cp,
                    strategy: strategy.clone(),
                    mask,
                    format,
                    heads,
                    kv_heads,
                    head_dim,
                    dtype,
                    sinks,
                    score,
                    v_head_dim: mla.then(|| mla_v_head_dim(head_dim)),
                    exchange: Exchange::Auto,
                    long: false,
                });
            }
        }
    }
    // The pipelines: cp 2, p2p, causal, two query heads over one KV head.
    let long = Case {
        cp: 2,
        strategy: "p2p".into(),
        mask: "causal",
        format: "sbhd",
        heads: 2,
        kv_heads: 1,
        head_dim,
        dtype,
        sinks: false,
        score: None,
        v_head_dim: None,
        exchange: Exchange::Auto,
        long: true,
    };
    cases.push(long);
    cases
}

/// The matrix as the GPU kernels run it (16-bit inputs only): bf16, and fp16 on every third case.
pub fn gpu_cases(head_dim: u32) -> Vec<Case> {
    let mut cases = cases("bf16", head_dim);
    for c in cases.iter_mut().step_by(3) {
        c.dtype = "fp16";
    }
    cases
}
