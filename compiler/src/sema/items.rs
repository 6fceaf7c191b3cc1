//! Resolution of `model` and `cluster` items into their resolved forms.

use super::presets;
use super::reader::{self, WordValue};
use super::reader::{Diags, QuantityKind, Reader, no_args};
use crate::diag::{Code, Diagnostic};
use crate::expr;
use crate::front::ast::{Item, ValueKind};
use crate::span::{Span, Spanned};
use crate::spec::{Cluster, LayerKind, Link, Model, ModelLayers, Moe, Rope, RopeScaling, Score};
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
    "score",
    "params",
    "softmax_scale",
    "query_pre_attn_scalar",
    "layer",
];

/// `score = EXPR` when given: `Some(Some(score))` for the kernel code it compiles to
/// (`Some(Some(None))` for the plain score), `Some(None)` after an error (reported), `None` when
/// not written.
/// `params`: the model's learned parameters, `None` when `params = ...` could not be read (an
/// error already reported; a score that reads parameters is then not compiled).
fn score_expression(
    r: &Reader<'_>,
    params: Option<&[String]>,
    diags: &mut Diags,
) -> Option<Option<Option<&'static Score>>> {
    let span = r.field_span("score")?;
    let Some(value) = r.value("score", "a score expression", diags) else { return Some(None) };
    let e = match &value.kind {
        ValueKind::Expr(e) => e.clone(),
        // A lone term or number is an expression too (`score = s`).
        ValueKind::Word { name, args: None } => match expr::parse::parse(&name.node) {
            Ok(e) => e.shifted(name.span.start as usize),
            Err(_) => {
                diags.push(reader::wrong_type(value, "score", "an expression over s, such as `30 * tanh(s / 30)`"));
                return Some(None);
            }
        },
        _ => {
            diags.push(reader::wrong_type(value, "score", "an expression over s, such as `30 * tanh(s / 30)`"));
            return Some(None);
        }
    };
    let at = |(start, end): (usize, usize)| Span::new(span.file, start, end);
    match e.type_of(expr::Context::Score) {
        Ok(expr::Type::Float) => {}
        Ok(t) => {
            diags.push(
                Diagnostic::new(
                    Code::ExprType,
                    format!("a score is a float, not {}", t.name()),
                    at(e.span),
                    "this score",
                )
                .with_help("a score reads s, e.g. `30 * tanh(s / 30)`; masks go in the layout's `mask = ...`"),
            );
            return Some(None);
        }
        Err(err) => {
            let mut diag = Diagnostic::new(Code::ExprType, err.message, at(err.span), "in this score");
            if let Some(help) = err.help {
                diag = diag.with_help(help);
            }
            diags.push(diag);
            return Some(None);
        }
    }
    // Every learned parameter the score reads is one the model declares.
    let Some(params) = params else {
        return match e.params().is_empty() {
            true => score_of(&e, &[], at, diags),
            false => Some(None),
        };
    };
    for (name, at_span) in e.params() {
        if !params.iter().any(|p| p == name) {
            let declared = params.iter().map(String::as_str).collect::<Vec<_>>();
            let help = match crate::suggest::nearest(name, declared.iter().copied()) {
                Some(c) => format!("did you mean `{c}[h]`? The model declares {}", declared.join(", ")),
                None => format!("declare it in the model: `params = [{}]`", {
                    let mut all = declared.clone();
                    all.push(name);
                    all.join(", ")
                }),
            };
            diags.push(
                Diagnostic::new(
                    Code::ExprType,
                    format!("`{name}[h]` is not a learned parameter of this model"),
                    at(at_span),
                    "not declared",
                )
                .with_help(help),
            );
            return Some(None);
        }
    }
    score_of(&e, params, at, diags)
}

/// The kernel code of a type-checked score (`Some(None)` after an error, reported).
fn score_of(
    e: &expr::Expr,
    params: &[String],
    at: impl Fn((usize, usize)) -> Span,
    diags: &mut Diags,
) -> Option<Option<Option<&'static Score>>> {
    match expr::score::of(e, &e.to_string(), params) {
        Ok(score) => Some(Some(score.map(expr::score::intern))),
        Err(u) => {
            diags.push(
                Diagnostic::new(
                    Code::ExprUnplanned,
                    format!("attnc cannot compile this score yet: {}", u.message),
                    at(u.span),
                    "not a score the kernels have",
                )
                .with_help("a score the kernels compute reads `s`, the positions `q` and `k`, the head `h` and constants with + - * / %, tanh, exp, log, min, max and alibi, e.g. `30 * tanh(s / 30)`, `s - (q - k) / 16` or `s - alibi(h, 32) * (q - k)`; `attnc explain E0043` says what is read"),
            );
            Some(None)
        }
    }
}

/// `params = [NAME, ...]`: the model's learned per-head score parameters, in declaration order
/// (`None` after an error, reported).
fn learned_params(r: &Reader<'_>, diags: &mut Diags) -> Option<Vec<String>> {
    if !r.has("params") {
        return Some(Vec::new());
    }
    let names = r.name_list("params", diags)?;
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let reserved = expr::parse::NAMES.contains(&name.node.as_str());
        if reserved || out.contains(&name.node) {
            let message = match reserved {
                true => format!("`{}` is a term or function of expressions, not a parameter name", name.node),
                false => format!("the learned parameter `{}` is declared twice", name.node),
            };
            diags.push(
                Diagnostic::new(Code::ExprType, message, name.span, "this name")
                    .with_help("give each learned parameter its own name, e.g. `params = [slope]`"),
            );
            return None;
        }
        out.push(name.node.clone());
    }
    Some(out)
}

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
            Some(cap) if cap > 0.0 => Some(Some(expr::score::softcap(cap))),
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
    let params = learned_params(&r, diags);
    if params.is_none() {
        ok = false;
    }
    let score = match (softcap, score_expression(&r, params.as_deref(), diags)) {
        (None, _) | (_, Some(None)) => None,
        (Some(cap), None) => Some(cap),
        (Some(None), Some(Some(score))) if !r.has("softcap") => Some(score),
        (_, Some(Some(_))) => {
            diags.push(
                Diagnostic::new(
                    Code::ExprUnplanned,
                    "the model says its score twice",
                    r.field_span("score").unwrap_or(item.name.span),
                    "a score here",
                )
                .with_secondary(r.field_span("softcap").unwrap_or(item.name.span), "and a soft-cap here")
                .with_help("keep one: `softcap = X` or `score = X * tanh(s / X)`"),
            );
            None
        }
    };
    // A declared parameter the score never reads would have a gradient of zero, silently.
    if let (Some(score), Some(params)) = (score, &params)
        && let Some((_, name)) = params
            .iter()
            .enumerate()
            .find(|(j, _)| !score.is_some_and(|s| s.ops.contains(&crate::spec::ScoreOp::Param(*j as u16))))
    {
        ok = false;
        diags.push(
            Diagnostic::new(
                Code::ExprUnplanned,
                format!("the learned parameter `{name}` is declared, and the score does not read it"),
                r.field_span("params").unwrap_or(item.name.span),
                "declared here",
            )
            .with_help(format!(
                "read it in the score as `{name}[h]` (e.g. `score = s - {name}[h] * (q - k)`), or remove it from `params`"
            )),
        );
    }
    // `rope = none` here would mean what leaving the block out means.
    let rope = match r.field_span("rope") {
        Some(span) => {
            ok = false;
            diags.push(
                Diagnostic::new(Code::RopeNone, "a model without RoPE has no `rope` block", span, "not a block")
                    .with_help(
                        "remove `rope = ...` from the model; for NoPE layers of a RoPE model, write \
                         `layer A..B { rope = none }`",
                    ),
            );
            None
        }
        None => match r.nested("rope", diags) {
            Some(body) => {
                let at = r.key_span("rope").unwrap_or(item.name.span);
                let rope = head_dim.as_ref().and_then(|h| rope_block(body, at, h, diags));
                if rope.is_none() {
                    ok = false;
                }
                rope
            }
            None => None,
        },
    };
    let softmax_scale = softmax_scale(&r, item.name.span, diags);
    let layer_blocks: Vec<Option<ModelLayers>> = r
        .layers
        .iter()
        .map(|(range, body)| model_layers(range, body, &item.name.node, layers.as_ref(), head_dim.as_ref(), diags))
        .collect();
    let (layers, heads, head_dim, sinks, score, softmax_scale) =
        (layers?, heads?, head_dim?, sinks?, score?, softmax_scale?);
    let layer_blocks = layer_blocks.into_iter().collect::<Option<Vec<_>>>()?;
    if !no_overlap(&layer_blocks, &r.layers, diags) {
        ok = false;
    }
    // A score's per-head values (`alibi(h, N)`'s slopes) are numbers at every query head.
    if let Some(s) = score
        && let Some(h) = (0..heads.node as u32).find(|&h| {
            // What only a run gives (learned parameters, the document) is checked by the run.
            let run = s.run_slots();
            s.head_values(h, 0, &[]).iter().zip(run).any(|(v, r)| !r && !v.is_finite())
        })
    {
        ok = false;
        diags.push(
            Diagnostic::new(
                Code::ExprUnplanned,
                format!("the score has no value at query head {h} of the {}", heads.node),
                r.field_span("score").unwrap_or(item.name.span),
                format!("not a number at h = {h}"),
            )
            .with_secondary(heads.span, format!("{} query heads", heads.node))
            .with_help(format!(
                "`alibi(h, N)` has slopes for heads 0..N: give N = {} (the model's heads), and keep what reads `h` finite for every head",
                heads.node
            )),
        );
    }
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
            score,
            softmax_scale,
            layer_blocks,
        },
        layers: layers.span,
        heads: heads.span,
        kv_heads: kv_span,
        sinks: r.key_span("sinks").unwrap_or(item.name.span),
        head_dim: head_dim.span,
        v_head_dim: v_head_dim.as_ref().map_or(head_dim.span, |v| v.span),
        softcap: r.field_span("softcap").or_else(|| r.field_span("score")).unwrap_or(item.name.span),
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

const ROPE_FIELDS: &[&str] = &["theta", "dims", "fraction", "scaling"];

/// A `rope { theta, dims | fraction, scaling }` block for heads of `head_dim` (`at`: its key).
fn rope_block(body: &crate::front::ast::Block, at: Span, head_dim: &Spanned<u64>, diags: &mut Diags) -> Option<Rope> {
    let rope = Reader::new(Some(body), ROPE_FIELDS, "`rope`".into(), at, diags);
    let theta = if rope.has("theta") { rope.float("theta", 0.0, diags) } else { Some(10_000.0) };
    let dims = if rope.has("dims") { rope.int("dims", 1, 65_536, diags).map(Some) } else { Some(None) };
    let fraction = if rope.has("fraction") { rope.float("fraction", 0.0, diags).map(Some) } else { Some(None) };
    let scaling = if rope.has("scaling") { rope_scaling(&rope, diags).map(Some) } else { Some(None) };
    let (theta, dims, fraction, scaling) = (theta?, dims?, fraction?, scaling?);
    let h = head_dim.node;
    let (dims, offset) = match (dims, fraction) {
        (Some(_), Some(_)) => {
            diags.push(
                Diagnostic::new(
                    Code::RopeScaling,
                    "a `rope` block gives `dims` or `fraction`, not both",
                    rope.field_span("fraction").unwrap_or(at),
                    "second way to say which dims rotate",
                )
                .with_secondary(rope.field_span("dims").unwrap_or(at), "`dims` rotates the last dims")
                .with_help(
                    "keep `fraction = F` to rotate the first floor(head_dim*F) dims (transformers' \
                     partial_rotary_factor), or `dims = D` to rotate the last D (MLA)",
                ),
            );
            return None;
        }
        (Some(d), None) => {
            if d.node % 2 != 0 || d.node > h {
                diags.push(
                    Diagnostic::new(
                        Code::RopeDims,
                        format!("rope dims = {} is not an even number of at most head_dim = {h}", d.node),
                        d.span,
                        "rotated dims",
                    )
                    .with_secondary(head_dim.span, "head_dim set here")
                    .with_help(format!(
                        "rotate an even number of the head's dims, from 2 to {}; leave `dims` out to rotate all",
                        h - h % 2
                    )),
                );
                return None;
            }
            (d.node, h - d.node)
        }
        (None, Some(f)) => {
            let span = rope.field_span("fraction").unwrap_or(at);
            // transformers: int(head_dim * partial_rotary_factor).
            let d = (h as f64 * f).floor() as u64;
            if f > 1.0 || d < 2 || d % 2 != 0 {
                diags.push(
                    Diagnostic::new(
                        Code::RopeDims,
                        format!(
                            "rope fraction = {f} of head_dim = {h} rotates {d} dims, not an even number from 2 to {h}"
                        ),
                        span,
                        "rotated fraction",
                    )
                    .with_secondary(head_dim.span, "head_dim set here")
                    .with_help(
                        "give a fraction from 0 to 1 whose share of head_dim is an even number, e.g. 0.25 or 0.5",
                    ),
                );
                return None;
            }
            (d, 0)
        }
        (None, None) => (h, 0),
    };
    Some(Rope { theta, dims: dims as u32, offset: offset as u32, fraction, scaling })
}

const SCALINGS: &[&str] = &["linear", "llama3", "yarn"];

/// `scaling = linear { factor } | llama3 { ... } | yarn { ... }`.
fn rope_scaling(rope: &Reader<'_>, diags: &mut Diags) -> Option<RopeScaling> {
    let word: WordValue<'_> = rope.word("scaling", SCALINGS, diags)?;
    let kind = word.name.node.as_str();
    let fields: &[&str] = match kind {
        "linear" => &["factor"],
        "llama3" => &["factor", "original", "low_freq_factor", "high_freq_factor"],
        _ => &[
            "factor",
            "original",
            "beta_fast",
            "beta_slow",
            "attention_factor",
            "mscale",
            "mscale_all_dim",
            "truncate",
        ],
    };
    let a = Reader::new(word.args, fields, format!("`{kind}`"), word.name.span, diags);
    let float_or = |key: &str, default: f64, diags: &mut Diags| {
        if a.has(key) { a.float(key, 0.0, diags) } else { Some(default) }
    };
    let optional =
        |key: &str, diags: &mut Diags| if a.has(key) { a.float(key, 0.0, diags).map(Some) } else { Some(None) };
    let factor = match a.has("factor") {
        true => a.float("factor", 0.0, diags),
        false => {
            a.missing("factor", "8", diags);
            None
        }
    };
    let original =
        if kind == "linear" { Some(None) } else { a.required_int("original", 1, 1 << 40, "8192", diags).map(Some) };
    let bad = |diags: &mut Diags, key: &str, message: String, help: &str| {
        diags.push(
            Diagnostic::new(
                Code::RopeScaling,
                message,
                a.field_span(key).unwrap_or(word.name.span),
                format!("`{key}`"),
            )
            .with_help(help.to_string()),
        );
    };
    let factor = factor?;
    if factor < 1.0 {
        bad(
            diags,
            "factor",
            format!("a {kind} scaling factor of {factor} shrinks the context"),
            "the factor is the context extension, at least 1 (gpt-oss: yarn 32; Llama 3.1: llama3 8)",
        );
        return None;
    }
    match kind {
        "linear" => Some(RopeScaling::Linear { factor }),
        "llama3" => {
            let (low, high) = (float_or("low_freq_factor", 1.0, diags)?, float_or("high_freq_factor", 4.0, diags)?);
            let original = original??;
            if low > high {
                bad(
                    diags,
                    "low_freq_factor",
                    format!("low_freq_factor = {low} is above high_freq_factor = {high}"),
                    "the band blended between original/high_freq_factor and original/low_freq_factor needs \
                     low_freq_factor <= high_freq_factor (Llama 3.1: 1 and 4; Llama 4: 1 and 1)",
                );
                return None;
            }
            Some(RopeScaling::Llama3 { factor, original: original.node, low_freq_factor: low, high_freq_factor: high })
        }
        _ => {
            let (fast, slow) = (float_or("beta_fast", 32.0, diags)?, float_or("beta_slow", 1.0, diags)?);
            let (attention_factor, mscale, mscale_all_dim) =
                (optional("attention_factor", diags)?, optional("mscale", diags)?, optional("mscale_all_dim", diags)?);
            let truncate = if a.has("truncate") { a.bool("truncate", diags)? } else { true };
            let original = original??;
            if slow >= fast {
                bad(
                    diags,
                    "beta_slow",
                    format!("beta_slow = {slow} is not below beta_fast = {fast}"),
                    "YaRN ramps between the dims turning beta_fast and beta_slow times; the defaults are 32 and 1",
                );
                return None;
            }
            Some(RopeScaling::Yarn {
                factor,
                original: original.node,
                beta_fast: fast,
                beta_slow: slow,
                attention_factor,
                mscale,
                mscale_all_dim,
                truncate,
            })
        }
    }
}

/// `softmax_scale = X` or `query_pre_attn_scalar = N`: `Some(None)` when neither is given.
fn softmax_scale(r: &Reader<'_>, owner: Span, diags: &mut Diags) -> Option<Option<f64>> {
    match (r.has("softmax_scale"), r.has("query_pre_attn_scalar")) {
        (true, true) => {
            diags.push(
                Diagnostic::new(
                    Code::SoftmaxScale,
                    "the model gives its softmax scale twice",
                    r.field_span("query_pre_attn_scalar").unwrap_or(owner),
                    "scale as N^(-1/2)",
                )
                .with_secondary(r.field_span("softmax_scale").unwrap_or(owner), "scale given here")
                .with_help("keep one: `query_pre_attn_scalar = N` means `softmax_scale = N^(-1/2)`"),
            );
            None
        }
        (true, false) => match r.float("softmax_scale", f64::NEG_INFINITY, diags)? {
            x if x > 0.0 => Some(Some(x)),
            x => {
                diags.push(
                    Diagnostic::new(
                        Code::SoftmaxScale,
                        format!("softmax_scale = {x} is not a positive scale"),
                        r.field_span("softmax_scale").unwrap_or(owner),
                        "softmax scale",
                    )
                    .with_help("the scores are scale·q·k with scale > 0; remove the field for 1/sqrt(head_dim)"),
                );
                None
            }
        },
        (false, true) => {
            let n = r.int("query_pre_attn_scalar", 1, 1 << 32, diags)?;
            Some(Some(1.0 / (n.node as f64).sqrt()))
        }
        (false, false) => Some(None),
    }
}

const KINDS: &[&str] = &["attention", "linear_attention", "mamba", "indexed_attention"];

/// A model's `layer A..B [step S] { kind = K, rope { ... } | rope = none }` block.
fn model_layers(
    range: &crate::front::ast::LayerRange,
    body: &crate::front::ast::Block,
    model: &str,
    layers: Option<&Spanned<u64>>,
    head_dim: Option<&Spanned<u64>>,
    diags: &mut Diags,
) -> Option<ModelLayers> {
    let b = Reader::new(
        Some(body),
        &["kind", "rope", "strategy", "mask"],
        "a model's `layer` block".into(),
        range.span,
        diags,
    );
    let mut ok = true;
    for key in ["strategy", "mask"] {
        if let Some(at) = b.key_span(key) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::LayerKind,
                    format!("`{key}` is a layout's setting, not the model's"),
                    at,
                    "in a model's `layer` block",
                )
                .with_help(format!(
                    "move `{key} = ...` into a `layer` block of the layout; a model's `layer` block takes `kind` and `rope`"
                )),
            );
        }
    }
    let kind = match b.word("kind", KINDS, diags) {
        Some(w) => {
            super::reader::no_args(&w, diags);
            Some((LayerKind::ALL.into_iter().find(|k| k.name() == w.name.node)?, Some(w.span)))
        }
        None if b.has("kind") => None,
        None => Some((LayerKind::Attention, None)),
    };
    let (rope, nope) = match b.field_span("rope") {
        Some(_) => match b.word("rope", &["none"], diags) {
            Some(w) => (Some(None), Some(w.span)),
            None => (None, None),
        },
        None => match b.nested("rope", diags) {
            Some(body) => {
                let at = b.key_span("rope").unwrap_or(range.span);
                (head_dim.and_then(|h| rope_block(body, at, h, diags)).map(Some), None)
            }
            None => (Some(None), None),
        },
    };
    let ((kind, kind_span), rope, layers) = (kind?, rope?, layers?);
    if !ok {
        return None;
    }
    let (start, end, step) = super::layout::layer_range(range, layers, model, diags)?;
    if kind != LayerKind::Attention
        && let Some(at) = b.key_span("rope")
    {
        diags.push(
            Diagnostic::new(
                Code::LayerKind,
                format!("`{}` layers have no RoPE setting", kind.name()),
                at,
                "RoPE of a layer attnc does not plan",
            )
            .with_secondary(kind_span.unwrap_or(range.span), "kind set here")
            .with_help("remove `rope` from this block; only attention layers rotate q and k"),
        );
        return None;
    }
    Some(ModelLayers { start: start as u32, end: end as u32, step: step as u32, kind, rope, nope: nope.is_some() })
}

/// Every layer is in at most one of the model's blocks (E0041).
fn no_overlap(
    blocks: &[ModelLayers],
    ranges: &[(&crate::front::ast::LayerRange, &crate::front::ast::Block)],
    diags: &mut Diags,
) -> bool {
    for (i, b) in blocks.iter().enumerate() {
        for (j, earlier) in blocks[..i].iter().enumerate() {
            if let Some(layer) = (b.start..b.end).step_by(b.step as usize).find(|&l| earlier.contains(l)) {
                diags.push(
                    Diagnostic::new(
                        Code::LayerKind,
                        format!("layer {layer} is in two of the model's `layer` blocks"),
                        ranges[i].0.span,
                        format!("this range contains layer {layer}"),
                    )
                    .with_secondary(ranges[j].0.span, "so does this one")
                    .with_help("split the ranges so that each layer is in one block (ranges take `step`)"),
                );
                return false;
            }
        }
    }
    true
}
