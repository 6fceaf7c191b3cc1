//! `attnc._native`: the compiler and the runtime for the Python package (`python/attnc`). Calls
//! and spec files become cached, verified plans ([`plans`]); a rank's run executes one on the
//! host device with torch.distributed as the transport ([`exec`], [`remote`]). Tensors cross as
//! data pointers of contiguous fp32 CPU tensors with their element counts, checked here against
//! the plan (the Python layer checks shapes, dtypes and devices first); nothing links libtorch.

mod call;
mod exec;
mod plans;
mod remote;

use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use call::Call;
use plans::{CompileError, Entry};

/// A contiguous fp32 tensor as (data pointer, element count).
type Ptr = (usize, usize);

fn compile_error(e: CompileError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn run_error(e: exec::RunError) -> PyErr {
    match e {
        exec::RunError::Runtime(e) => PyRuntimeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// # Safety
/// `ptr` is the data of a live, contiguous fp32 tensor of `len` elements that nothing else
/// writes during the call (the Python layer passes its own contiguous copies or inputs).
unsafe fn slice<'a>((ptr, len): Ptr) -> &'a [f32] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract above.
    unsafe { std::slice::from_raw_parts(ptr as *const f32, len) }
}

/// Copies `src` into the tensor at `dst`, whose size the caller checked equal.
///
/// # Safety
/// As [`slice`], and nothing else reads or writes the destination during the call.
unsafe fn fill(dst: Ptr, src: &[f32], name: &str) -> PyResult<()> {
    if dst.1 != src.len() {
        return Err(PyValueError::new_err(format!(
            "output `{name}` has {} elements, the plan writes {}",
            dst.1,
            src.len()
        )));
    }
    if !src.is_empty() {
        // SAFETY: the caller's contract; the sizes are equal.
        unsafe { std::slice::from_raw_parts_mut(dst.0 as *mut f32, dst.1) }.copy_from_slice(src);
    }
    Ok(())
}

/// One layout's verified plans for one batch (a call's, or a spec file's).
#[pyclass(frozen, module = "attnc._native")]
struct Plans {
    entry: Arc<Entry>,
}

impl Plans {
    fn class(&self, layer: u64) -> PyResult<&attnc_compiler::passes::LayerClass> {
        let layout = &self.entry.layout;
        self.entry.class_of(layer).ok_or_else(|| match layout.not_planned(layer) {
            Some(why) => PyValueError::new_err(format!("argument `layer`: {why}")),
            None => PyValueError::new_err(format!(
                "argument `layer`: layer {layer}: the layout `{}` has {} layers",
                layout.name,
                layout.layers.len()
            )),
        })
    }

    fn rank_tokens(&self, rank: u32) -> PyResult<&attnc_compiler::plan::partition::RankTokens> {
        self.entry.partition.ranks.get(rank as usize).ok_or_else(|| {
            PyValueError::new_err(format!("rank {rank}: the plan's group has {} ranks", self.entry.partition.cp))
        })
    }
}

#[pymethods]
impl Plans {
    /// The CP group's size.
    #[getter]
    fn cp(&self) -> u32 {
        self.entry.partition.cp
    }

    /// Tokens of the whole (padded) sequence dimension.
    #[getter]
    fn tokens_total(&self) -> u64 {
        match self.entry.classes.first() {
            Some(c) => c.forward.problem.tokens,
            None => self.entry.partition.ranks.iter().map(|r| r.tokens.len() as u64).sum(),
        }
    }

    /// The tensors' layout: `sbhd`, `bshd` or `thd`.
    #[getter]
    fn format(&self) -> &'static str {
        use attnc_compiler::spec::Format;
        match self.entry.layout.format {
            Format::Sbhd => "sbhd",
            Format::Bshd => "bshd",
            Format::Thd { .. } => "thd",
        }
    }

    /// Layers of the layout.
    #[getter]
    fn layers(&self) -> usize {
        self.entry.layout.layers.len()
    }

    /// How layer `layer` rotates q and k, as the executor and the fp64 reference do: `None`
    /// without RoPE, else `(inv_freqs, attention_factor, first_dim, end_dim)` — the scaled inverse
    /// frequencies of its rotated pairs, the factor on cos and sin, and the rotated dims.
    fn rope(&self, layer: u64) -> PyResult<Option<RopeTable>> {
        let layout = &self.entry.layout;
        let Some(settings) = layout.layers.get(layer as usize) else {
            return Err(PyValueError::new_err(format!(
                "argument `layer`: layer {layer}: the layout `{}` has {} layers",
                layout.name,
                layout.layers.len()
            )));
        };
        let rope = layout.model.rope_of(layer as u32).filter(|_| settings.rope);
        Ok(rope.map(|r| (r.inv_freqs(), r.attention_factor(), r.offset, r.offset + r.dims)))
    }

    /// The model's learned score parameters, in declaration order (`params = [...]`).
    #[getter]
    fn params(&self) -> Vec<String> {
        self.entry.layout.model.score.map(|s| s.param_names.clone()).unwrap_or_default()
    }

    /// The check's warnings.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.entry.warnings.clone()
    }

    /// The spec the plans come from (a call's generated text, or the file's path).
    #[getter]
    fn spec(&self) -> String {
        self.entry.spec.clone()
    }

    /// TE's `cu_seqlens_padded` of a THD batch (None otherwise).
    #[getter]
    fn cu_seqlens_padded(&self) -> Option<Vec<u64>> {
        self.entry.partition.cu_seqlens_padded.clone()
    }

    /// The global tokens rank `rank` holds, in local order.
    fn tokens(&self, rank: u32) -> PyResult<Vec<u64>> {
        Ok(self.rank_tokens(rank)?.tokens.clone())
    }

    /// The local indices of rank `rank`'s padding rows (THD).
    fn padding(&self, rank: u32) -> PyResult<Vec<u64>> {
        Ok(self.rank_tokens(rank)?.padding.clone())
    }

    /// The RoPE positions of rank `rank`'s rows.
    fn positions(&self, rank: u32) -> PyResult<Vec<u64>> {
        Ok(self.rank_tokens(rank)?.positions.clone())
    }

    /// The strategy that plans layer `layer` (`auto` resolved).
    fn strategy(&self, layer: u64) -> PyResult<String> {
        Ok(self.class(layer)?.strategy.name().to_string())
    }

    /// The plans as text: per class its strategy and mask, per plan and rank FLOPs, blocks and
    /// bytes; with `rank`, that rank's programs.
    #[pyo3(signature = (rank=None))]
    fn explain(&self, rank: Option<u32>) -> String {
        self.entry.explain(rank)
    }

    /// Layer `layer`'s attention matrix as its plan computes it, as SVG (`attnc plan --emit svg`):
    /// tiles full, partial or empty, coloured by computing rank; the key rows each rank receives.
    #[pyo3(signature = (layer, backward=false))]
    fn picture(&self, layer: u64, backward: bool) -> PyResult<String> {
        Ok(attnc_compiler::ir::picture::svg(self.class(layer)?.plan_for(backward)))
    }

    /// Runs layer `layer`'s forward plan as rank `rank`: fills `out` `[b][n][h][dv]` and `lse`
    /// `[b][h][n]` from the local q, k, v `[b][n][heads][w]`; a score that reads `h` counts from
    /// `head_offset` (the model's query head of q's first head: tensor parallelism).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (layer, rank, q, k, v, sinks, out, lse, transport, timeout_s, threads, kernels="auto", head_offset=0, params=None))]
    fn forward(
        &self,
        py: Python<'_>,
        layer: u64,
        rank: u32,
        q: Ptr,
        k: Ptr,
        v: Ptr,
        sinks: Option<Ptr>,
        out: Ptr,
        lse: Ptr,
        transport: Py<PyAny>,
        timeout_s: f64,
        threads: usize,
        kernels: &str,
        head_offset: u32,
        params: Option<Ptr>,
    ) -> PyResult<()> {
        let class = self.class(layer)?;
        let tokens = &self.rank_tokens(rank)?.tokens;
        let remote = remote::TorchRemote { transport };
        // SAFETY: the Python layer's contract (see `slice`).
        let local = unsafe {
            exec::Local {
                q: slice(q),
                k: slice(k),
                v: slice(v),
                o: None,
                lse: None,
                d_out: None,
                sinks: sinks.map(|s| slice(s)),
                params: params.map(|p| slice(p)),
                head_offset,
            }
        };
        let shard = exec::Shard { rank, tokens };
        let how = exec::How { timeout: Duration::from_secs_f64(timeout_s.max(0.1)), threads, kernels };
        let results = py.detach(|| exec::run(class, false, &shard, &local, &remote, &how)).map_err(run_error)?;
        // SAFETY: as above; the outputs are the Python layer's fresh tensors.
        unsafe {
            fill(out, &results.o, "out")?;
            fill(lse, &results.lse, "lse")?;
        }
        Ok(())
    }

    /// Runs layer `layer`'s backward plan as rank `rank`: fills dq, dk, dv (local, as q, k, v) and
    /// dsinks (this rank's share of the sinks' gradient) from q, k, v, out, lse and d_out; and
    /// with learned score parameters `params` (`[heads][n]`), `dparams`, this rank's share of
    /// their gradients (that of the pairs it computes).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (layer, rank, q, k, v, out, lse, d_out, sinks, dq, dk, dv, dsinks, transport, timeout_s, threads, kernels="auto", head_offset=0, params=None, dparams=None))]
    fn backward(
        &self,
        py: Python<'_>,
        layer: u64,
        rank: u32,
        q: Ptr,
        k: Ptr,
        v: Ptr,
        out: Ptr,
        lse: Ptr,
        d_out: Ptr,
        sinks: Option<Ptr>,
        dq: Ptr,
        dk: Ptr,
        dv: Ptr,
        dsinks: Option<Ptr>,
        transport: Py<PyAny>,
        timeout_s: f64,
        threads: usize,
        kernels: &str,
        head_offset: u32,
        params: Option<Ptr>,
        dparams: Option<Ptr>,
    ) -> PyResult<()> {
        let class = self.class(layer)?;
        let tokens = &self.rank_tokens(rank)?.tokens;
        let remote = remote::TorchRemote { transport };
        // SAFETY: the Python layer's contract (see `slice`).
        let local = unsafe {
            exec::Local {
                q: slice(q),
                k: slice(k),
                v: slice(v),
                o: Some(slice(out)),
                lse: Some(slice(lse)),
                d_out: Some(slice(d_out)),
                sinks: sinks.map(|s| slice(s)),
                params: params.map(|p| slice(p)),
                head_offset,
            }
        };
        let shard = exec::Shard { rank, tokens };
        let how = exec::How { timeout: Duration::from_secs_f64(timeout_s.max(0.1)), threads, kernels };
        let results = py.detach(|| exec::run(class, true, &shard, &local, &remote, &how)).map_err(run_error)?;
        // SAFETY: as above; the gradients are the Python layer's fresh tensors.
        unsafe {
            fill(dq, &results.dq, "dq")?;
            fill(dk, &results.dk, "dk")?;
            fill(dv, &results.dv, "dv")?;
            if let Some(dsinks) = dsinks {
                fill(dsinks, &results.dsinks, "dsinks")?;
            }
            if let Some(dparams) = dparams {
                fill(dparams, &results.dparams, "dparams")?;
            }
        }
        Ok(())
    }
}

/// The plans of one attention call (what `attnc.torch.attention` decides from its arguments).
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (*, heads, kv_heads, head_dim, v_head_dim, batch, seq, format, dtype, mask, window, softcap, sinks, cp, strategy, hierarchy, max_tokens, max_seqlen, seqlens, padded_seqlens, gpu, softmax_scale=None, score=None, params=Vec::new(), tp=1))]
fn plan_call(
    heads: u32,
    kv_heads: u32,
    head_dim: u32,
    v_head_dim: u32,
    batch: u32,
    seq: u64,
    format: String,
    dtype: String,
    mask: String,
    window: Option<u64>,
    softcap: Option<f64>,
    sinks: bool,
    cp: u32,
    strategy: String,
    hierarchy: Option<(u32, u32)>,
    max_tokens: u64,
    max_seqlen: u64,
    seqlens: Option<Vec<u64>>,
    padded_seqlens: Option<Vec<u64>>,
    gpu: String,
    softmax_scale: Option<f64>,
    score: Option<String>,
    params: Vec<String>,
    tp: u32,
    py: Python<'_>,
) -> PyResult<Plans> {
    let call = Call {
        heads,
        kv_heads,
        head_dim,
        v_head_dim,
        batch,
        seq,
        format,
        dtype,
        mask,
        window,
        softcap_bits: softcap.map(f64::to_bits),
        score,
        params,
        softmax_scale_bits: softmax_scale.map(f64::to_bits),
        sinks,
        cp,
        tp,
        strategy,
        hierarchy,
        max_tokens,
        max_seqlen,
        gpu,
    };
    let entry = py.detach(|| plans::call(&call, seqlens, padded_seqlens)).map_err(compile_error)?;
    Ok(Plans { entry })
}

/// The plans of a spec file's layout (`seqlens`, `padded_seqlens`: a THD batch).
#[pyfunction]
#[pyo3(signature = (path, layout, seqlens=None, padded_seqlens=None))]
fn load(
    py: Python<'_>,
    path: String,
    layout: String,
    seqlens: Option<Vec<u64>>,
    padded_seqlens: Option<Vec<u64>>,
) -> PyResult<Plans> {
    let entry = py.detach(|| plans::file(&path, &layout, seqlens, padded_seqlens)).map_err(compile_error)?;
    Ok(Plans { entry })
}

/// A layer's RoPE: its inverse frequencies, attention factor and rotated dims `[first, end)`.
type RopeTable = (Vec<f64>, f64, u32, u32);

/// One fact a spec does not carry: its JSON path, the generated line, the message.
type ImportWarning = (String, usize, String);

/// A Hugging Face config (its JSON text) as `.attn` text and the warnings about what the spec
/// does not carry: `(text, [(json_path, line, message)])`. Bad configs raise `ValueError` naming
/// the JSON path; `cluster` is `NODESxGPUS[:GPU]`.
#[pyfunction]
#[pyo3(signature = (config_json, file, *, name=None, cluster=None, seq=None))]
fn import_hf(
    config_json: &str,
    file: &str,
    name: Option<String>,
    cluster: Option<String>,
    seq: Option<u64>,
) -> PyResult<(String, Vec<ImportWarning>)> {
    use attnc_compiler::import::hf;
    let cluster = cluster
        .map(|c| hf::ClusterShape::parse(&c))
        .transpose()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("argument `cluster`: {e}")))?;
    if cluster.is_some() != seq.is_some() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "arguments `cluster` and `seq` go together: a layout needs both",
        ));
    }
    let imported = hf::parse(config_json)
        .and_then(|c| hf::import(&c, file, &hf::ImportOptions { name, cluster, seq }))
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("argument `config`: {e}")))?;
    let warnings = imported.warnings.into_iter().map(|w| (w.field, w.line, w.message)).collect();
    Ok((imported.text, warnings))
}

/// A spec file checked and resolved, as `attnc check --emit json` prints it.
#[pyfunction]
fn spec_json(path: String) -> PyResult<String> {
    plans::spec_json(&path).map_err(compile_error)
}

/// The layouts a spec file defines, in order (after checking it).
#[pyfunction]
fn layouts(path: String) -> PyResult<Vec<String>> {
    plans::layouts(&path).map_err(compile_error)
}

/// The global tokens rank `rank` of `cp` holds, in local order: Megatron-LM's zigzag
/// (`get_batch_on_this_cp_rank`) or a contiguous split of `seq` tokens, or TransformerEngine's THD
/// split (`thd_get_partitioned_indices`) of sequences padded to `padded_seqlens`.
#[pyfunction]
#[pyo3(signature = (cp, rank, *, seq=None, padded_seqlens=None, balance="zigzag"))]
fn partition_tokens(
    cp: u32,
    rank: u32,
    seq: Option<u64>,
    padded_seqlens: Option<Vec<u64>>,
    balance: &str,
) -> PyResult<Vec<u64>> {
    use attnc_compiler::plan::partition::{self, ThdBatch, ThdLimits};
    let value = |e: partition::PartitionError| PyValueError::new_err(e.to_string());
    let split = match (seq, padded_seqlens) {
        (Some(seq), None) => match balance {
            "zigzag" => partition::zigzag(seq, cp).map_err(value)?,
            "contiguous" => partition::contiguous(seq, cp).map_err(value)?,
            other => {
                return Err(PyValueError::new_err(format!(
                    "argument `balance`: `{other}`; attnc splits `zigzag` or `contiguous`"
                )));
            }
        },
        (None, Some(padded)) => {
            let batch = ThdBatch { seqlens: padded.clone(), padded: Some(padded) };
            partition::thd(&batch, cp, &ThdLimits::unit(2 * cp as u64)).map_err(value)?
        }
        _ => return Err(PyValueError::new_err("give either `seq` or `padded_seqlens`")),
    };
    split
        .ranks
        .into_iter()
        .nth(rank as usize)
        .map(|r| r.tokens)
        .ok_or_else(|| PyValueError::new_err(format!("argument `rank`: {rank} is not a rank of {cp}")))
}

/// The CPU kernel sets this build runs, fastest first (`llvm-cpu` only with the `llvm` feature).
#[pyfunction]
fn kernel_sets() -> Vec<&'static str> {
    exec::kernel_sets()
}

/// How many plans the process has cached.
#[pyfunction]
fn cached_plans() -> usize {
    plans::cached()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Plans>()?;
    m.add_function(wrap_pyfunction!(plan_call, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(layouts, m)?)?;
    m.add_function(wrap_pyfunction!(import_hf, m)?)?;
    m.add_function(wrap_pyfunction!(spec_json, m)?)?;
    m.add_function(wrap_pyfunction!(cached_plans, m)?)?;
    m.add_function(wrap_pyfunction!(partition_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(kernel_sets, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
