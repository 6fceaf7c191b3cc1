//! Resolution of `model` and `cluster` items into their resolved forms.

use super::presets;
use super::reader::{Diags, QuantityKind, Reader, no_args};
use super::spec::{Cluster, Link, Model, Moe, Rope};
use crate::diag::{Code, Diagnostic};
use crate::front::ast::Item;
use crate::front::span::Span;
use crate::suggest;

/// A resolved model and the spans later checks point at.
pub(crate) struct ModelInfo {
    pub model: Model,
    pub layers: Span,
    pub heads: Span,
    pub kv_heads: Span,
    /// Where the model says `sinks = ...` (its name when it does not).
    pub sinks: Span,
    pub head_dim: Span,
    /// `v_head_dim = N` (the head dim's span when not written).
    pub v_head_dim: Span,
    /// `softcap = X` (the model's name when not written).
    pub softcap: Span,
    /// `moe { experts = N ... }`'s `experts` (the model's name without `moe`).
    pub experts: Span,
}

pub(crate) struct ClusterInfo {
    pub cluster: Cluster,
    pub name: Span,
    pub gpus_per_node: Span,
    /// `gpu = NAME`.
    pub gpu: Span,
}

const MODEL_FIELDS: &[&str] = &[
    "layers",
    "heads",
    "kv_heads",
    "head_dim",
    "v_head_dim",
    "hidden",
    "ffn_hidden",
    "moe",
    "rope",
    "sinks",
    "softcap",
];

pub(crate) fn model(item: &Item, diags: &mut Diags) -> Option<ModelInfo> {
    let what = format!("model `{}`", item.name.node);
    let r = Reader::new(Some(&item.body), MODEL_FIELDS, what, item.name.span, diags);
    let mut ok = true;
    let layers = r.required_int("layers", 1, 100_000, "32", diags);
    let heads = r.required_int("heads", 1, 16_384, "32", diags);
    let kv_heads = r.int("kv_heads", 1, 16_384, diags);
    let head_dim = r.required_int("head_dim", 1, 65_536, "128", diags);
    let v_head_dim = r.int("v_head_dim", 1, 65_536, diags);
    let hidden = r.int("hidden", 1, 1 << 24, diags);
    let ffn_hidden = r.int("ffn_hidden", 1, 1 << 24, diags);
    let moe = r.nested("moe", diags).and_then(|body| {
        let at = r.key_span("moe").unwrap_or(item.name.span);
        let m = Reader::new(Some(body), &["experts", "topk", "ffn_hidden"], "`moe`".into(), at, diags);
        let experts = m.required_int("experts", 1, 1 << 20, "128", diags);
        let topk = m.required_int("topk", 1, 1 << 20, "8", diags);
        let ffn_hidden = if m.has("ffn_hidden") { Some(m.int("ffn_hidden", 1, 1 << 24, diags)?) } else { None };
        let (experts, topk) = (experts?, topk?);
        if topk.node > experts.node {
            diags.push(
                Diagnostic::new(
                    Code::Moe,
                    format!(
                        "topk = {} routes each token to more experts than the {} there are",
                        topk.node, experts.node
                    ),
                    topk.span,
                    "experts per token",
                )
                .with_secondary(experts.span, "routed experts")
                .with_help(format!("topk is at most experts = {}", experts.node)),
            );
            return None;
        }
        Some((
            experts,
            Moe { experts: experts.node as u32, topk: topk.node as u32, ffn_hidden: ffn_hidden.map(|f| f.node) },
        ))
    });
    if r.has("moe") && moe.is_none() {
        ok = false;
    }
    let sinks = match r.word("sinks", &["none", "learned"], diags) {
        Some(w) => Some(w.name.node == "learned"),
        None if r.has("sinks") => None,
        None => Some(false),
    };
    // Any finite number reads; the cap's own rule (positive) has its own code.
    let softcap = match r.has("softcap") {
        true => match r.float("softcap", f64::NEG_INFINITY, diags) {
            Some(cap) if cap > 0.0 => Some(Some(cap)),
            Some(cap) => {
                diags.push(
                    Diagnostic::new(
                        Code::Softcap,
                        format!("softcap = {cap} is not a positive cap"),
                        r.field_span("softcap").unwrap_or(item.name.span),
                        "logit cap",
                    )
                    .with_help("scores become X·tanh(s/X): X is greater than 0 (Gemma 2 uses 50); remove `softcap` for uncapped logits"),
                );
                None
            }
            None => None,
        },
        false => Some(None),
    };
    // `rope = none` here would mean what leaving the block out means.
    let rope = match r.field_span("rope") {
        Some(span) => {
            ok = false;
            diags.push(
                Diagnostic::new(Code::RopeNone, "a model without RoPE has no `rope` block", span, "not a block")
                    .with_help(
                        "remove `rope = ...` from the model; for NoPE layers of a RoPE model, write \
                         `layer A..B { rope = none }` in the layout",
                    ),
            );
            None
        }
        None => r.nested("rope", diags).and_then(|body| {
            let at = r.key_span("rope").unwrap_or(item.name.span);
            let rope = Reader::new(Some(body), &["theta", "dims"], "`rope`".into(), at, diags);
            let theta = if rope.has("theta") { rope.float("theta", 0.0, diags)? } else { 10_000.0 };
            let dims = if rope.has("dims") { Some(rope.int("dims", 1, 65_536, diags)?) } else { None };
            Some((theta, dims))
        }),
    };
    let (layers, heads, head_dim, sinks, softcap) = (layers?, heads?, head_dim?, sinks?, softcap?);
    let rope = rope.map(|(theta, dims)| {
        if let Some(d) = dims
            && (d.node % 2 != 0 || d.node > head_dim.node)
        {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::RopeDims,
                    format!("rope dims = {} is not an even number of at most head_dim = {}", d.node, head_dim.node),
                    d.span,
                    "rotated dims",
                )
                .with_secondary(head_dim.span, "head_dim set here")
                .with_help(format!(
                    "rotate an even number of the head's dims, from 2 to {}; leave `dims` out to rotate all",
                    head_dim.node - head_dim.node % 2
                )),
            );
        }
        Rope { theta, dims: dims.map_or(head_dim.node as u32, |d| d.node as u32) }
    });
    let kv = kv_heads.as_ref().map_or(heads.node, |k| k.node);
    let kv_span = kv_heads.as_ref().map_or(heads.span, |k| k.span);
    if kv > heads.node || heads.node % kv != 0 {
        ok = false;
        diags.push(
            Diagnostic::new(
                Code::GqaGroups,
                format!("heads = {} is not a multiple of kv_heads = {kv}", heads.node),
                kv_span,
                "KV heads set here",
            )
            .with_secondary(heads.span, "query heads set here")
            .with_help(format!(
                "kv_heads must divide heads; divisors of {} include {}",
                heads.node,
                divisors(heads.node)
            )),
        );
    }
    // The value head dim (MLA) follows the same rule as the query/key one.
    for (field, dim) in [("head_dim", Some(&head_dim)), ("v_head_dim", v_head_dim.as_ref())] {
        let Some(dim) = dim else { continue };
        if dim.node % 8 != 0 || dim.node > 256 {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::HeadDim,
                    format!("{field} = {} is not supported by the kernels", dim.node),
                    dim.span,
                    "unsupported head dimension",
                )
                .with_help(format!(
                    "the kernels take a {field} that is a multiple of 8 from 8 to 256, e.g. 64, 96, 128 or 256"
                )),
            );
        }
    }
    if !ok {
        return None;
    }
    Some(ModelInfo {
        model: Model {
            name: item.name.node.clone(),
            layers: layers.node as u32,
            heads: heads.node as u32,
            kv_heads: kv as u32,
            head_dim: head_dim.node as u32,
            v_head_dim: v_head_dim.map(|v| v.node as u32).filter(|&v| v as u64 != head_dim.node),
            hidden: hidden.as_ref().map(|h| h.node),
            ffn_hidden: ffn_hidden.as_ref().map(|f| f.node),
            moe: moe.as_ref().map(|(_, m)| m.clone()),
            rope,
            sinks,
            softcap,
        },
        layers: layers.span,
        heads: heads.span,
        kv_heads: kv_span,
        sinks: r.key_span("sinks").unwrap_or(item.name.span),
        head_dim: head_dim.span,
        v_head_dim: v_head_dim.as_ref().map_or(head_dim.span, |v| v.span),
        softcap: r.field_span("softcap").unwrap_or(item.name.span),
        experts: moe.as_ref().map_or(item.name.span, |(e, _)| e.span),
    })
}

fn divisors(n: u64) -> String {
    let list: Vec<String> = (1..=n).filter(|d| n % d == 0).take(8).map(|d| d.to_string()).collect();
    list.join(", ")
}

const CLUSTER_FIELDS: &[&str] = &["nodes", "gpus_per_node", "gpu", "intra", "inter"];

pub(crate) fn cluster(item: &Item, diags: &mut Diags) -> Option<ClusterInfo> {
    let what = format!("cluster `{}`", item.name.node);
    let r = Reader::new(Some(&item.body), CLUSTER_FIELDS, what, item.name.span, diags);
    let nodes = r.required_int("nodes", 1, 100_000, "1", diags);
    let gpus_per_node = r.required_int("gpus_per_node", 1, 1024, "8", diags);
    let gpu = if r.has("gpu") {
        r.reference("gpu", diags).and_then(|name| match presets::gpu(&name.node) {
            Some(gpu) => Some(gpu),
            None => {
                let names = presets::gpu_names();
                let mut diag = Diagnostic::new(
                    Code::UnknownValue,
                    format!("`{}` is not a known GPU", name.node),
                    name.span,
                    "unknown GPU preset",
                );
                diag = match suggest::nearest(&name.node, names.iter().copied()) {
                    Some(s) => diag.with_help(format!("did you mean `{s}`?")),
                    None => diag.with_help(format!("the presets are {}", suggest::one_of(&names))),
                };
                diags.push(diag);
                None
            }
        })
    } else {
        r.missing("gpu", "h100_sxm", diags);
        None
    };
    let intra = link(&r, "intra", presets::INTRA_LINKS, diags);
    let inter = link(&r, "inter", presets::INTER_LINKS, diags);
    let (nodes, gpus_per_node) = (nodes?, gpus_per_node?);
    let gpus = nodes.node.checked_mul(gpus_per_node.node).filter(|g| *g <= u32::MAX as u64);
    let Some(gpus) = gpus else {
        diags.push(Diagnostic::new(Code::OutOfRange, "the cluster has too many GPUs", nodes.span, "too many nodes"));
        return None;
    };
    Some(ClusterInfo {
        cluster: Cluster {
            name: item.name.node.clone(),
            nodes: nodes.node as u32,
            gpus_per_node: gpus_per_node.node as u32,
            gpus: gpus as u32,
            gpu: gpu?,
            intra: intra?,
            inter: inter?,
        },
        name: item.name.span,
        gpus_per_node: gpus_per_node.span,
        gpu: r.field_span("gpu").unwrap_or(item.name.span),
    })
}

/// `intra = nvlink { bandwidth = 450 GB/s, latency = 3 us }`; the kind's preset fills what is not given.
fn link(r: &Reader<'_>, key: &str, table: &[(&'static str, f64, f64)], diags: &mut Diags) -> Option<Link> {
    let kinds: Vec<&'static str> = table.iter().map(|l| l.0).collect();
    if !r.has(key) {
        return presets::link(table, kinds[0]);
    }
    let word = r.word(key, &kinds, diags)?;
    let mut link = presets::link(table, &word.name.node)?;
    if let Some(args) = word.args {
        let what = format!("`{}`", word.name.node);
        let a = Reader::new(Some(args), &["bandwidth", "latency"], what, word.name.span, diags);
        if a.has("bandwidth") {
            link.bandwidth_bytes_per_s = a.quantity("bandwidth", QuantityKind::Bandwidth, diags)?;
        }
        if a.has("latency") {
            link.latency_s = a.quantity("latency", QuantityKind::Latency, diags)?;
        }
    } else {
        no_args(&word, diags);
    }
    Some(link)
}
