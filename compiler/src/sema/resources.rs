//! What the cluster's GPUs can run and hold: the head dims and dtypes of attnc's GPU kernels
//! (W0008, E0037 when compiling for the GPU), a lower bound of each rank's memory against the
//! GPU's (W0009, E0038 under `--for te` or when compiling for the GPU), and tensor parallelism
//! within a node (W0010). What later commands would refuse is found here, at the spec's lines.

use crate::cost::memory::{self, gib};
use crate::diag::{Code, Diagnostic};
use crate::kernel::{GPU_HEAD_DIMS, gpu_dtype_supported, gpu_head_dim_supported};
use crate::span::Span;
use crate::spec::{Balance, Cp, Format, Layout, Strategy};

use super::reader::Diags;

/// Where the fields these checks point at are written (the layout's name when not written).
pub(crate) struct Places {
    pub head_dim: Span,
    pub v_head_dim: Span,
    pub dtype: Span,
    pub gpu: Span,
    pub gpus_per_node: Span,
    pub tp: Span,
    pub cp: Span,
    /// Whether the layout writes `dp` (else it is what the cluster leaves).
    pub dp_given: bool,
}

/// Which findings are errors.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Strictness {
    /// The layout is compiled for the GPU (`attnc compile --target sm_*`).
    pub gpu_kernels: bool,
    /// A system that must hold the layout checks it (`--for te`, or compiling for the GPU).
    pub memory: bool,
    /// `--for te`: the strategies' own communication under windows, as TE runs them.
    pub whole_shards: bool,
}

pub(crate) fn check(layout: &Layout, at: &Places, strict: Strictness, diags: &mut Diags) {
    check_gpu_kernels(layout, at, strict, diags);
    check_memory(layout, at, strict, diags);
    check_tp_node(layout, at, diags);
}

fn check_gpu_kernels(layout: &Layout, at: &Places, strict: Strictness, diags: &mut Diags) {
    let gpu = &layout.cluster.gpu;
    let Some(sm) = gpu.sm else { return };
    let code = if strict.gpu_kernels { Code::GpuKernels } else { Code::GpuKernelsWarning };
    let gpu_label = format!("cluster GPU `{}` (sm_{sm})", gpu.name);
    let consequence = if strict.gpu_kernels {
        "attnc compiles no GPU kernel for it".to_string()
    } else {
        "attnc plans it and runs it on CPU ranks (`attnc run`), but `attnc compile --target sm_*` and `attnc run --device cuda` refuse it".to_string()
    };
    let m = &layout.model;
    let mut dims = vec![("head_dim", m.head_dim, at.head_dim)];
    if m.v_head_dim.is_some_and(|v| v != m.head_dim) {
        dims.push(("v_head_dim", m.v_dim(), at.v_head_dim));
    }
    for (field, dim, span) in dims {
        if gpu_head_dim_supported(dim) {
            continue;
        }
        diags.push(
            Diagnostic::new(
                code,
                format!("attnc's GPU kernels take a {field} of {GPU_HEAD_DIMS}, not {dim}"),
                span,
                format!("{field} = {dim} in model `{}`", m.name),
            )
            .with_secondary(at.gpu, gpu_label.clone())
            .with_note(consequence.clone())
            .with_help(format!(
                "a model with {field} = {dim} runs on CPU ranks (`attnc run --kernels cranelift`); for the GPU, attnc's kernels cover {GPU_HEAD_DIMS}"
            )),
        );
    }
    if !gpu_dtype_supported(layout.dtype) {
        diags.push(
            Diagnostic::new(
                code,
                format!("attnc's GPU kernels take bf16 or fp16 inputs, not {}", layout.dtype.name()),
                at.dtype,
                format!("dtype = {}", layout.dtype.name()),
            )
            .with_secondary(at.gpu, gpu_label)
            .with_note(consequence)
            .with_help("use `dtype = bf16` (or `fp16`) for the GPU; fp32 layouts run on CPU ranks"),
        );
    }
}

fn check_memory(layout: &Layout, at: &Places, strict: Strictness, diags: &mut Diags) {
    let gpu = &layout.cluster.gpu;
    let bound = memory::lower_bound(layout, strict.whole_shards);
    if bound.bytes() <= gpu.memory_bytes {
        return;
    }
    let code = if strict.memory { Code::Memory } else { Code::MemoryWarning };
    let mut d = Diagnostic::new(
        code,
        format!(
            "each rank needs at least {} for attention and the layer inputs the backward keeps, and a `{}` has {}",
            gib(bound.bytes()),
            gpu.name,
            gib(gpu.memory_bytes)
        ),
        at.cp,
        format!("layers with {}, mask {}", bound.strategy.label(), super::unparse::mask_text(bound.mask)),
    )
    .with_secondary(at.gpu, format!("{} per GPU", gib(gpu.memory_bytes)));
    for part in &bound.parts {
        d = d.with_note(format!("{}: {}", part.what, gib(part.bytes)));
    }
    let strategy_hint = match bound.strategy {
        Strategy::AllGather => {
            ", or a strategy that does not gather every rank's K and V (`attnc tune` gives each one's memory)"
        }
        _ => " (`attnc plan --stats` gives a plan's exact working set, `attnc tune` each strategy's)",
    };
    let help = match larger_cp(layout, at.dp_given, strict.whole_shards) {
        Some((cp, bytes)) => format!("use `cp = {cp}`: each rank then needs at least {}", gib(bytes)),
        None => format!(
            "give each rank less: more `cp` (fewer tokens per rank), `tp` (fewer heads per rank) or `pp` (fewer layers per rank){strategy_hint}"
        ),
    };
    diags.push(d.with_help(help));
}

/// The least power-of-two multiple of a fixed-size `p2p` or `all_gather` layout's cp whose bound
/// fits the GPU, where the cluster still holds the layout (the same dp, or the dp left over) and
/// zigzag still splits the sequence evenly.
fn larger_cp(layout: &Layout, dp_given: bool, whole_shards: bool) -> Option<(u32, u64)> {
    let Cp::Fixed { size } = layout.cp else { return None };
    if !layout.layers.iter().all(|l| matches!(l.strategy, Strategy::P2p | Strategy::AllGather)) {
        return None;
    }
    let gpus = layout.cluster.gpus as u64;
    let (tp, pp, dp) = (layout.tp as u64, layout.pp as u64, layout.dp as u64);
    (1..=16).map(|k| size as u64 * (1 << k)).take_while(|&cp| tp * cp * pp <= gpus).find_map(|cp| {
        let fits_cluster = if dp_given { tp * cp * pp * dp <= gpus } else { gpus % (tp * cp * pp) == 0 };
        let tokens = match layout.format {
            Format::Thd { max_tokens, .. } => max_tokens,
            _ => layout.seq,
        };
        let even = layout.balance != Balance::Zigzag || tokens % (2 * cp) == 0;
        let cp = cp as u32;
        let candidate = Layout { cp: Cp::Fixed { size: cp }, ..layout.clone() };
        let bytes = memory::lower_bound(&candidate, whole_shards).bytes();
        (fits_cluster && even && bytes <= layout.cluster.gpu.memory_bytes).then_some((cp, bytes))
    })
}

fn check_tp_node(layout: &Layout, at: &Places, diags: &mut Diags) {
    let per_node = layout.cluster.gpus_per_node;
    if layout.tp <= per_node || layout.cluster.nodes <= 1 {
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::TpBeyondNode,
            format!("tp = {} spans nodes of {per_node} GPUs", layout.tp),
            at.tp,
            "tensor parallelism",
        )
        .with_secondary(at.gpus_per_node, format!("{per_node} GPUs per node"))
        .with_note("every layer's tensor-parallel collectives then cross the inter-node network, forward and backward")
        .with_help(format!("keep tp <= {per_node} and give the other GPUs to cp, pp or dp")),
    );
}
