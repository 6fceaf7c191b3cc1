//! Resolution of `layout` items and the context-parallel rules Megatron-LM and
//! TransformerEngine enforce at run time, checked here at compile time.

use std::collections::HashMap;

use super::items::{ClusterInfo, ModelInfo};
use super::reader::{Diags, Reader, WordValue, int_literal, no_args};
use crate::compat::te;
use crate::diag::{Code, Diagnostic};
use crate::expr;
use crate::front::ast::{Ident, Item, ItemKind, ValueKind};
use crate::span::{Span, Spanned};
use crate::spec::*;
use crate::suggest;

const LAYOUT_FIELDS: &[&str] = &[
    "model",
    "cluster",
    "format",
    "dtype",
    "batch",
    "seq",
    "mask",
    "tp",
    "cp",
    "dp",
    "pp",
    "ep",
    "sequence_parallel",
    "balance",
    "strategy",
    "layer",
];
const FORMATS: &[&str] = &["sbhd", "bshd", "thd"];
const DTYPES: &[&str] = &["fp32", "bf16", "fp16"];
const MASKS: &[&str] = &["none", "causal", "padding", "padding_causal"];
const BALANCES: &[&str] = &["zigzag", "contiguous", "auto"];
const STRATEGIES: &[&str] = &["p2p", "all_gather", "a2a", "a2a+p2p", "auto"];
const MAX_PARALLEL: u64 = 1 << 20;

/// What a layout's references can resolve to.
pub(crate) struct Scope<'a> {
    pub kinds: &'a HashMap<String, ItemKind>,
    pub models: &'a HashMap<String, ModelInfo>,
    pub clusters: &'a HashMap<String, ClusterInfo>,
    /// `--for te[=VERSION]`: TransformerEngine's restrictions for that version.
    pub target: Option<super::TargetCheck>,
    /// Which of the GPU's limits are errors.
    pub strict: super::resources::Strictness,
}

/// Everything a layout's rules look at, with the spans they point to.
struct Ctx<'a> {
    /// The layout's name: spans equal to it mean "not written, the default".
    owner: Span,
    model: &'a ModelInfo,
    cluster: &'a ClusterInfo,
    format: Format,
    format_span: Span,
    tp: Spanned<u32>,
    cp: Cp,
    cp_span: Span,
    dtype: Spanned<Dtype>,
    seq: Spanned<u64>,
    balance: Balance,
    balance_span: Span,
    /// Where the layout's own strategy is (its name when not written): a `layer` block that keeps
    /// it reports on it as the layout does.
    strategy_span: Span,
    /// The masks of every layer class that runs the layout's own strategy: a help that changes it
    /// must suit them all.
    shared_masks: Vec<Mask>,
    target: Option<super::TargetCheck>,
}

struct Setting {
    strategy: Strategy,
    strategy_span: Span,
    hierarchy_span: Option<Span>,
    mask: Mask,
    mask_span: Span,
}

pub(crate) fn layout(item: &Item, scope: &Scope<'_>, diags: &mut Diags) -> Option<Layout> {
    let what = format!("layout `{}`", item.name.node);
    let owner = item.name.span;
    // `rope` belongs to the model and, as `rope = none`, to `layer` blocks: named as such here,
    // then left out of the fields read.
    let rope_keys: Vec<Span> =
        item.body.entries.iter().filter_map(|e| e.key()).filter(|k| k.node == "rope").map(|k| k.span).collect();
    let without_rope;
    let body = if rope_keys.is_empty() {
        &item.body
    } else {
        for &span in &rope_keys {
            diags.push(
                Diagnostic::new(
                    Code::RopeNone,
                    "`rope` is set per layer class, in a `layer` block",
                    span,
                    "in the layout body",
                )
                .with_help(
                    "write `layer A..B { rope = none }` for the layers without RoPE (e.g. `layer 3..48 step 4`); \
                         the model's `rope { ... }` block says how the others rotate",
                ),
            );
        }
        let mut b = item.body.clone();
        b.entries.retain(|e| e.key().is_none_or(|k| k.node != "rope"));
        without_rope = b;
        &without_rope
    };
    let r = Reader::new(Some(body), LAYOUT_FIELDS, what, owner, diags);

    let model = reference(&r, "model", ItemKind::Model, scope.models, scope.kinds, diags);
    let cluster = reference(&r, "cluster", ItemKind::Cluster, scope.clusters, scope.kinds, diags);

    let format_word = r.word("format", FORMATS, diags);
    let format_span = format_word.as_ref().map_or(owner, |w| w.span);
    let format = match &format_word {
        None if r.has("format") => None,
        None => Some(Format::Sbhd),
        Some(w) => parse_format(w, diags),
    };
    let is_thd = matches!(format, Some(Format::Thd { .. }));

    let dtype = match r.word("dtype", DTYPES, diags) {
        Some(w) => {
            no_args(&w, diags);
            let dtype = match w.name.node.as_str() {
                "fp32" => Dtype::Fp32,
                "fp16" => Dtype::Fp16,
                _ => Dtype::Bf16,
            };
            Some(Spanned::new(dtype, w.span))
        }
        None if r.has("dtype") => None,
        None => Some(Spanned::new(Dtype::Bf16, owner)),
    };

    let mut ok = true;
    let batch = if is_thd && r.has("batch") {
        not_for_thd(&r, "batch", "a THD batch is one packed buffer; its size is `max_tokens`", diags);
        None
    } else if r.has("batch") {
        r.int("batch", 1, 1 << 20, diags).map(|b| b.node)
    } else {
        Some(1)
    };
    let seq = if is_thd {
        if r.has("seq") {
            not_for_thd(&r, "seq", "write the packed size as `format = thd { max_tokens = N }`", diags);
            ok = false;
        }
        match format {
            Some(Format::Thd { max_tokens, .. }) => Some(Spanned::new(max_tokens, format_span)),
            _ => None,
        }
    } else if format.is_none() {
        None
    } else {
        r.required_int("seq", 1, 1 << 40, "8192", diags)
    };

    let tp = int_or(&r, "tp", 1, MAX_PARALLEL, diags);
    let pp = int_or(&r, "pp", 1, MAX_PARALLEL, diags);
    let ep = int_or(&r, "ep", 1, MAX_PARALLEL, diags);
    let dp = if r.has("dp") { r.int("dp", 1, MAX_PARALLEL, diags).map(|d| Some(to_u32(d))) } else { Some(None) };
    let cp_span = r.key_span("cp").unwrap_or(owner);
    let cp = cp_value(&r, diags);
    let sequence_parallel =
        if r.has("sequence_parallel") { r.bool("sequence_parallel", diags) } else { tp.as_ref().map(|t| t.node > 1) };
    let balance_word = r.word("balance", BALANCES, diags);
    let balance = match &balance_word {
        Some(w) => {
            no_args(w, diags);
            Some(match w.name.node.as_str() {
                "contiguous" => Balance::Contiguous,
                "auto" => Balance::Auto,
                _ => Balance::Zigzag,
            })
        }
        None if r.has("balance") => None,
        None => Some(Balance::Zigzag),
    };

    let default_mask = if is_thd { Mask::PADDING_CAUSAL } else { Mask::CAUSAL };
    // A mask that reads the head `h` is decided head by head: the model's heads, its GQA group
    // and the layout's tp.
    let heads = model.zip(tp.as_ref()).map(|(m, tp)| HeadCount {
        heads: m.model.heads,
        kv_heads: m.model.kv_heads,
        tp: tp.node.max(1) as u32,
    });
    let mask_read = read_mask(&r, is_thd, heads, diags);
    let mask = mask_read.map_or(Some(default_mask), |(m, _)| m);
    let mask_span = mask_read.map_or(owner, |(_, span)| span);
    let strategy_word = r.word("strategy", STRATEGIES, diags);
    let strategy = match &strategy_word {
        Some(w) => parse_strategy(w, diags),
        None if r.has("strategy") => None,
        None => Some((Strategy::P2p, None)),
    };
    let strategy_span = strategy_word.as_ref().map_or(owner, |w| w.span);

    // Per-layer blocks are read even when the layout has errors, so theirs are reported too.
    let overrides: Vec<_> = r
        .layers
        .iter()
        .map(|(range, body)| {
            let b = Reader::new(Some(body), &["strategy", "mask", "rope"], "a `layer` block".into(), range.span, diags);
            let s = b.word("strategy", STRATEGIES, diags).map(|w| (parse_strategy(&w, diags), w.span));
            let m = read_mask(&b, is_thd, heads, diags);
            let nope = b.word("rope", &["none"], diags).map(|w| w.span);
            (*range, s, m, nope)
        })
        .collect();
    if !rope_keys.is_empty() {
        ok = false;
    }

    let (model, cluster) = (model?, cluster?);
    let (format, dtype, batch, seq, tp, pp, ep, dp, cp) = (format?, dtype?, batch?, seq?, tp?, pp?, ep?, dp?, cp?);
    let (sequence_parallel, balance, mask, (strategy, hierarchy_span)) =
        (sequence_parallel?, balance?, mask?, strategy?);
    let tp = Spanned::new(to_u32(tp), tp.span);
    let balance_span = balance_word.as_ref().map_or(owner, |w| w.span);
    let mut shared_masks = vec![mask];
    for (_, strategy_override, mask_override, _) in &overrides {
        if strategy_override.is_none() {
            let m = match mask_override {
                Some((Some(m), _)) => *m,
                _ => mask,
            };
            if !shared_masks.contains(&m) {
                shared_masks.push(m);
            }
        }
    }
    let ctx = Ctx {
        owner,
        model,
        cluster,
        format,
        format_span,
        tp,
        cp,
        cp_span,
        dtype,
        seq,
        balance,
        balance_span,
        strategy_span,
        shared_masks,
        target: scope.target,
    };

    let before = diags.iter().filter(|d| d.is_error()).count();
    check_heads_tp(&ctx, diags);
    check_experts(&ctx, Spanned::new(to_u32(ep), ep.span), diags);
    check_sequence(&ctx, seq, balance, balance_word.as_ref().map(|w| w.span), sequence_parallel, diags);
    let dp = check_cluster_fit(&ctx, &r, to_u32(pp), dp, diags);
    check_hybrid(&ctx, dp.is_some() && r.has("dp"), r.key_span("dp"), diags);
    let default = Setting { strategy, strategy_span, hierarchy_span, mask, mask_span };
    check_setting(&ctx, &default, true, diags);
    if balance == Balance::Contiguous && mask.is_causal() && matches!(cp, Cp::Fixed { size } if size > 1) {
        let Cp::Fixed { size } = cp else { unreachable!() };
        diags.push(
            Diagnostic::new(
                Code::ContiguousCausal,
                format!(
                    "contiguous balance under a causal mask makes the last rank do {:.2}x the mean work",
                    (2.0 * size as f64 - 1.0) / size as f64
                ),
                balance_word.as_ref().map_or(owner, |w| w.span),
                "contiguous split",
            )
            .with_secondary(mask_span, if mask_span == owner { "the mask defaults to `causal`" } else { "causal mask" })
            .with_help("use `balance = zigzag` (rank r holds chunks r and 2*cp-1-r)"),
        );
    }

    let n_layers = model.model.layers;
    let has_rope = model.model.has_rope();
    let m = &model.model;
    let mut layers: Vec<LayerSettings> = (0..n_layers)
        .map(|l| LayerSettings {
            kind: m.kind_of(l),
            strategy: default.strategy.clone(),
            mask,
            rope: m.rope_of(l).is_some(),
            exchange: Exchange::Auto,
        })
        .collect();
    let mut owner_of: Vec<Option<Span>> = vec![None; n_layers as usize];
    for (range, strategy_override, mask_override, nope) in overrides {
        if let Some(span) = nope
            && !has_rope
        {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::RopeNone,
                    format!("model `{}` has no `rope` block: no layer rotates q and k", model.model.name),
                    span,
                    "already without RoPE",
                )
                .with_help("remove `rope = none`, or give the model `rope { theta = ... }` if its other layers rotate"),
            );
        }
        let Some(indices) = layer_indices(range, model, diags) else {
            ok = false;
            continue;
        };
        if let Some(&layer) = indices.iter().find(|&&l| owner_of[l].is_some()) {
            diags.push(
                Diagnostic::new(
                    Code::LayerOverlap,
                    format!("layer {layer} is set by two `layer` blocks"),
                    range.span,
                    format!("this range contains layer {layer}"),
                )
                .with_secondary(owner_of[layer].unwrap_or(range.span), "so does this one".to_string())
                .with_help("split the ranges so that each layer is overridden once"),
            );
            ok = false;
            continue;
        }
        let (Some(strategy_override), Some(mask_override)) = (
            strategy_override
                .map(|(s, span)| s.map(|s| (s, span)))
                .unwrap_or(Some(((default.strategy.clone(), default.hierarchy_span), default.strategy_span))),
            mask_override.map(|(m, span)| m.map(|m| (m, span))).unwrap_or(Some((mask, mask_span))),
        ) else {
            ok = false;
            continue;
        };
        let ((strategy, hierarchy_span), strategy_span) = strategy_override;
        let (mask, mask_span) = mask_override;
        let setting = Setting { strategy, strategy_span, hierarchy_span, mask, mask_span };
        check_setting(&ctx, &setting, false, diags);
        for &layer in &indices {
            owner_of[layer] = Some(range.span);
            layers[layer] = LayerSettings {
                kind: m.kind_of(layer as u32),
                strategy: setting.strategy.clone(),
                mask: setting.mask,
                rope: m.rope_of(layer as u32).is_some() && nope.is_none(),
                exchange: Exchange::Auto,
            };
        }
    }
    if !ok || diags.iter().filter(|d| d.is_error()).count() > before {
        return None;
    }
    let layout = Layout {
        name: item.name.node.clone(),
        model: model.model.clone(),
        cluster: cluster.cluster.clone(),
        format,
        dtype: dtype.node,
        batch: batch as u32,
        seq: seq.node,
        tp: ctx.tp.node,
        cp,
        dp: dp.unwrap_or(1),
        pp: to_u32(pp),
        ep: to_u32(ep),
        sequence_parallel,
        balance,
        strategy: default.strategy,
        mask,
        layers,
    };
    let places = super::resources::Places {
        head_dim: ctx.model.head_dim,
        v_head_dim: ctx.model.v_head_dim,
        dtype: ctx.dtype.span,
        gpu: ctx.cluster.gpu,
        gpus_per_node: ctx.cluster.gpus_per_node,
        tp: ctx.tp.span,
        cp: ctx.cp_span,
        dp_given: r.has("dp"),
    };
    super::resources::check(&layout, &places, scope.strict, diags);
    (diags.iter().filter(|d| d.is_error()).count() == before).then_some(layout)
}

fn to_u32(v: Spanned<u64>) -> u32 {
    v.node.min(u32::MAX as u64) as u32
}

fn int_or(r: &Reader<'_>, key: &str, min: u64, max: u64, diags: &mut Diags) -> Option<Spanned<u64>> {
    if r.has(key) { r.int(key, min, max, diags) } else { Some(Spanned::new(min, r.owner)) }
}

fn not_for_thd(r: &Reader<'_>, key: &str, help: &str, diags: &mut Diags) {
    diags.push(
        Diagnostic::new(
            Code::UnknownField,
            format!("`{key}` does not apply to `format = thd`"),
            r.key_span(key).unwrap_or(r.owner),
            "not a field of a THD layout",
        )
        .with_help(help.to_string()),
    );
}

/// Resolves `model = NAME` or `cluster = NAME`. An item that exists but failed its own checks
/// resolves to nothing without a further error (its errors are already reported).
fn reference<'s, T>(
    r: &Reader<'_>,
    key: &str,
    kind: ItemKind,
    resolved: &'s HashMap<String, T>,
    kinds: &HashMap<String, ItemKind>,
    diags: &mut Diags,
) -> Option<&'s T> {
    if !r.has(key) {
        r.missing(key, "NAME", diags);
        return None;
    }
    let name: &Ident = r.reference(key, diags)?;
    match kinds.get(&name.node) {
        Some(k) if *k == kind => return resolved.get(&name.node),
        Some(other) => {
            diags.push(
                Diagnostic::new(
                    Code::UnknownReference,
                    format!("`{}` is a {}, not a {}", name.node, other.keyword(), kind.keyword()),
                    name.span,
                    format!("expected the name of a {}", kind.keyword()),
                )
                .with_help(format!("`{key}` names a `{} NAME {{ ... }}` item", kind.keyword())),
            );
            return None;
        }
        None => {}
    }
    let candidates: Vec<&str> = kinds.iter().filter(|(_, k)| **k == kind).map(|(n, _)| n.as_str()).collect();
    let mut sorted = candidates.clone();
    sorted.sort();
    let mut diag = Diagnostic::new(
        Code::UnknownReference,
        format!("no {} named `{}`", kind.keyword(), name.node),
        name.span,
        format!("not a {} in the files checked", kind.keyword()),
    );
    diag = match suggest::nearest(&name.node, sorted.iter().copied()) {
        Some(s) => diag.with_help(format!("did you mean `{s}`?")),
        None if sorted.is_empty() => diag.with_help(format!("define it: `{} {} {{ ... }}`", kind.keyword(), name.node)),
        None => diag.with_help(format!("the {}s defined are {}", kind.keyword(), suggest::one_of(&sorted))),
    };
    diags.push(diag);
    None
}

fn parse_format(word: &WordValue<'_>, diags: &mut Diags) -> Option<Format> {
    match word.name.node.as_str() {
        "thd" => {
            let a = Reader::new(word.args, &["max_seqlen", "max_tokens"], "`thd`".into(), word.name.span, diags);
            let max_tokens = a.required_int("max_tokens", 1, 1 << 40, "65536", diags);
            let max_seqlen = a.int("max_seqlen", 1, 1 << 40, diags);
            let max_tokens = max_tokens?;
            let max_seqlen = match max_seqlen {
                Some(s) if s.node > max_tokens.node => {
                    diags.push(
                        Diagnostic::new(
                            Code::ThdSize,
                            format!("max_seqlen = {} is longer than the packed buffer", s.node),
                            s.span,
                            "longest sequence",
                        )
                        .with_secondary(max_tokens.span, "buffer size")
                        .with_help("max_seqlen must not exceed max_tokens"),
                    );
                    return None;
                }
                Some(s) => s.node,
                None if a.has("max_seqlen") => return None,
                None => max_tokens.node,
            };
            Some(Format::Thd { max_seqlen, max_tokens: max_tokens.node })
        }
        name => {
            no_args(word, diags);
            Some(if name == "bshd" { Format::Bshd } else { Format::Sbhd })
        }
    }
}

/// What a mask that reads the head `h` is decided over.
#[derive(Clone, Copy)]
struct HeadCount {
    heads: u32,
    kv_heads: u32,
    tp: u32,
}

/// `mask = NAME { .. }` or `mask = EXPR`, when given: the mask (`None` after an error, which
/// is reported) and where it was written. `heads`: `None` when the model or tp has errors.
fn read_mask(r: &Reader<'_>, thd: bool, heads: Option<HeadCount>, diags: &mut Diags) -> Option<(Option<Mask>, Span)> {
    let span = r.field_span("mask")?;
    let Some(value) = r.value("mask", "a mask", diags) else { return Some((None, span)) };
    if let ValueKind::Expr(e) = &value.kind {
        if e.reads(expr::Var::H) {
            let mask = heads.and_then(|h| head_mask(e, value.span, thd, h, diags));
            return Some((mask, value.span));
        }
        return Some((mask_expression(e, value.span, thd, diags), value.span));
    }
    match r.word("mask", MASKS, diags) {
        Some(w) => Some((parse_mask(&w, diags), w.span)),
        None => Some((None, value.span)),
    }
}

/// `e` type-checked as a mask (E0042 reported otherwise).
fn checked_mask(e: &expr::Expr, span: Span, diags: &mut Diags) -> Option<expr::MaskExpr> {
    expr::MaskExpr::new(e.clone())
        .map_err(|err| {
            let at = Span::new(span.file, err.span.0, err.span.1);
            let mut diag = Diagnostic::new(Code::ExprType, err.message, at, "in this mask");
            if let Some(help) = err.help {
                diag = diag.with_help(help);
            }
            diags.push(diag);
        })
        .ok()
}

/// A mask expression, type-checked and compiled as the named mask it says (under thd, within
/// each packed sequence: `causal` becomes `padding_causal` and every pair `padding`).
fn mask_expression(e: &expr::Expr, span: Span, thd: bool, diags: &mut Diags) -> Option<Mask> {
    let at = |(start, end): (usize, usize)| Span::new(span.file, start, end);
    let mask = checked_mask(e, span, diags)?;
    use crate::spec::Cell;
    // The named mask it says, else its regions (read once); a single region is a named mask.
    let read = expr::named::mask(&mask).or_else(|named| match expr::regions::of(&mask) {
        Ok(r) if r.cells.iter().all(|c| *c == Cell::Empty) => Err(None),
        Ok(r) => {
            // One cell of a named band is that named mask, unless the kernels test the mask.
            let named = match r.cells.as_slice() {
                [Cell::Band(band)] if !r.predicate => Mask::of_band(*band, false),
                _ => None,
            };
            Ok(named.unwrap_or_else(|| Mask::Regions { regions: expr::regions::intern(r), padding: thd }))
        }
        // The regional reading says what it could not read where it tried further.
        Err(regional) if regional.span != mask.0.span => Err(Some(regional)),
        Err(_) => Err(Some(named)),
    });
    match read {
        Ok(Mask::Causal { window: Some(w), chunk: Some(c) }) => {
            diags.push(
                Diagnostic::new(Code::Chunk, "a mask cannot have both a chunk and a window", span, "this mask")
                    .with_note(format!("it says a window of {w} keys and chunks of {c} tokens"))
                    .with_help("keep `q / C == k / C` for chunked local attention (Llama 4) or `q - k < W` for a sliding window (Mistral, gpt-oss); per-layer masks go in `layer` blocks"),
            );
            None
        }
        // Under thd the same mask within each packed sequence.
        Ok(Mask::Causal { window, chunk }) if thd => Some(Mask::PaddingCausal { window, chunk }),
        Ok(Mask::None) if thd => Some(Mask::Padding),
        Ok(m) => Some(m),
        Err(None) => {
            diags.push(
                Diagnostic::new(
                    Code::ExprUnplanned,
                    "attnc cannot compile this mask: it allows no pair at all",
                    span,
                    "no pair is allowed",
                )
                .with_help("every query would see nothing; write the pairs it should see, e.g. `k <= q` (causal)"),
            );
            None
        }
        Err(Some(u)) => {
            diags.push(
                Diagnostic::new(
                    Code::ExprUnplanned,
                    format!("attnc cannot compile this mask yet: {}", u.message),
                    at(u.span),
                    "not a mask the kernels have",
                )
                .with_note(format!("the mask: {}", mask.0))
                .with_help(across_docs_help(&mask).unwrap_or_else(|| "write every pair (`mask = none`), `k <= q`, `k <= q & q - k < W` (a window of W keys) or `k <= q & q / C == k / C` (chunks of C tokens), or bounds on `q - k` region by region (prefix-LM: `k <= q | k < P`; a two-sided window: `q - k < W & k - q < W`); `attnc explain E0043` says what is read".into())),
            );
            None
        }
    }
}

/// The help of a mask that would allow pairs across packed sequences: what it is within one.
fn across_docs_help(mask: &expr::MaskExpr) -> Option<String> {
    expr::regions::across_docs(mask)?;
    let start = "attnc computes the pairs of each packed sequence only, where `doc(q) == doc(k)` holds";
    Some(match expr::regions::within_one_doc(mask) {
        Ok(within) => format!("{start}: there this mask is `{within}`; write that"),
        Err(true) => format!("{start}: there this mask allows every pair; write `none`"),
        Err(false) => format!("{start}, and there this mask allows no pair: write the pairs a query should see"),
    })
}

/// A mask expression that reads the head `h`, decided head by head (`expr::heads`): a band per
/// class of heads, or the one mask of a band when every head has the same. A mask that is no
/// band at some head, or whose classes split a GQA group or run under tensor parallelism (where
/// no plan by classes serves every rank), is planned by its hull over every head and tested by
/// the kernels at each pair, head included (`expr::regions::over_heads`).
fn head_mask(e: &expr::Expr, span: Span, thd: bool, h: HeadCount, diags: &mut Diags) -> Option<Mask> {
    let at = |(start, end): (usize, usize)| Span::new(span.file, start, end);
    let mask = checked_mask(e, span, diags)?;
    let unplanned = |message: String, at: Span| {
        Diagnostic::new(Code::ExprUnplanned, format!("attnc cannot compile this mask yet: {message}"), at, "not a mask the kernels have")
            .with_note(format!("the mask: {}", mask.0))
            .with_help(across_docs_help(&mask).unwrap_or_else(|| "write a mask under which every head sees some key; per head, bands compile by class (a per-head window: `k <= q & (h < 4 | q - k < 128)`) and anything else is tested per pair; `attnc explain E0043` says what is read".into()))
    };
    let tested = || -> Result<Mask, expr::named::Unsupported> {
        let r = expr::regions::over_heads(&mask, h.heads)?;
        Ok(Mask::Regions { regions: expr::regions::intern(r), padding: thd })
    };
    let heads = match expr::heads::of(&mask, h.heads, thd) {
        Ok(heads) => heads,
        Err(no) => {
            let read = match no {
                expr::heads::NoClasses::SeesNothing(u) => Err(u),
                // No band at some head (a stride, chunks that vary by head).
                expr::heads::NoClasses::NoBand(_) => tested(),
            };
            return read.map_err(|u| diags.push(unplanned(u.message, at(u.span)))).ok();
        }
    };
    if let [_] = heads.classes.as_slice() {
        // The same band at every head: its name, else a regional mask of one cell.
        return heads.union().or_else(|| {
            let regions = heads.hull_regions().map(expr::regions::intern)?;
            Some(Mask::Regions { regions, padding: thd })
        });
    }
    let group = h.heads / h.kv_heads.max(1);
    if heads.classes.iter().any(|c| c.first % group != 0) || h.tp > 1 {
        return tested().map_err(|u| diags.push(unplanned(u.message, at(u.span)))).ok();
    }
    Some(Mask::Heads { heads: expr::heads::intern(heads) })
}

fn parse_mask(word: &WordValue<'_>, diags: &mut Diags) -> Option<Mask> {
    let name = word.name.node.as_str();
    match name {
        "none" | "padding" => {
            no_args(word, diags);
            Some(if name == "none" { Mask::None } else { Mask::Padding })
        }
        _ => {
            let what = format!("`{name}`");
            let a = Reader::new(word.args, &["window", "chunk"], what, word.name.span, diags);
            let window = tokens(&a, "window", diags, || {
                (
                    Code::Window,
                    "the sliding window must be at least one token",
                    "a window of 0 sees no keys",
                    "`window = W` lets query i see keys i-W+1 ..= i; remove the window for plain causal attention",
                )
            })?;
            let chunk = tokens(&a, "chunk", diags, || {
                (
                    Code::Chunk,
                    "an attention chunk must be at least one token",
                    "a chunk of 0 holds no tokens",
                    "`chunk = C` lets query i see keys j <= i of its own C-token chunk; remove the chunk for plain causal attention",
                )
            })?;
            let window = window.map(|w| w.node);
            if let (Some(w), Some(c)) = (window, chunk) {
                diags.push(
                    Diagnostic::new(Code::Chunk, "a mask cannot have both a chunk and a window", c.span, "chunked attention here")
                        .with_secondary(a.field_span("window").unwrap_or(word.name.span), format!("and a window of {w} here"))
                        .with_help("keep `chunk` for chunked local attention (Llama 4) or `window` for a sliding window (Mistral, gpt-oss); per-layer masks go in `layer` blocks"),
                );
                return None;
            }
            let chunk = chunk.map(|c| c.node);
            Some(if name == "causal" { Mask::Causal { window, chunk } } else { Mask::PaddingCausal { window, chunk } })
        }
    }
}

/// A mask's token count `key` (a window or a chunk), when given: at least one, else `empty`'s
/// diagnostic (code, message, label, help). `Err` when it was given but is not valid.
fn tokens(
    a: &Reader<'_>,
    key: &str,
    diags: &mut Diags,
    empty: impl FnOnce() -> (Code, &'static str, &'static str, &'static str),
) -> Option<Option<Spanned<u64>>> {
    if !a.has(key) {
        return Some(None);
    }
    let n = a.int(key, 0, u64::MAX, diags)?;
    if n.node == 0 {
        let (code, message, label, help) = empty();
        diags.push(Diagnostic::new(code, message, n.span, label).with_help(help));
        return None;
    }
    Some(Some(n))
}

/// The strategy and, for a2a+p2p, where its hierarchy was written.
fn parse_strategy(word: &WordValue<'_>, diags: &mut Diags) -> Option<(Strategy, Option<Span>)> {
    match word.name.node.as_str() {
        "a2a+p2p" => {
            let a = Reader::new(word.args, &["hierarchy"], "`a2a+p2p`".into(), word.name.span, diags);
            if !a.has("hierarchy") {
                diags.push(
                    Diagnostic::new(Code::HierarchyMissing, "`a2a+p2p` needs a hierarchy", word.span, "no `hierarchy` given")
                        .with_help("write `a2a+p2p { hierarchy = [A2A, P2P] }`, e.g. `[8, 2]` for a2a inside 8 GPUs and a ring over 2 groups"),
                );
                return None;
            }
            let levels = a.int_list("hierarchy", 1, MAX_PARALLEL, diags)?;
            let span = levels.span;
            Some((Strategy::A2aP2p { hierarchy: levels.node.iter().map(|&l| l as u32).collect() }, Some(span)))
        }
        name => {
            no_args(word, diags);
            let strategy = match name {
                "all_gather" => Strategy::AllGather,
                "a2a" => Strategy::A2a,
                "auto" => Strategy::Auto,
                _ => Strategy::P2p,
            };
            Some((strategy, None))
        }
    }
}

/// `cp = 16` or `cp = hybrid { dp_cp = 16, max_seqlen_per_rank = 8192 }`.
fn cp_value(r: &Reader<'_>, diags: &mut Diags) -> Option<Cp> {
    if !r.has("cp") {
        return Some(Cp::Fixed { size: 1 });
    }
    let value = r.value("cp", "a CP size", diags)?;
    if let crate::front::ast::ValueKind::Word { .. } = value.kind {
        let word = r.word("cp", &["hybrid"], diags)?;
        let a = Reader::new(word.args, &["dp_cp", "max_seqlen_per_rank"], "`hybrid`".into(), word.name.span, diags);
        let dp_cp = a.required_int("dp_cp", 1, MAX_PARALLEL, "16", diags);
        let per_rank = a.required_int("max_seqlen_per_rank", 1, 1 << 40, "8192", diags);
        let (dp_cp, per_rank) = (dp_cp?, per_rank?);
        if !dp_cp.node.is_power_of_two() {
            diags.push(
                Diagnostic::new(
                    Code::HybridPowerOfTwo,
                    format!("dp_cp = {} is not a power of two", dp_cp.node),
                    dp_cp.span,
                    "not a power of two",
                )
                .with_help(format!(
                    "hybrid CP splits the pool into power-of-two groups; use {} or {}",
                    prev_power_of_two(dp_cp.node),
                    dp_cp.node.next_power_of_two()
                )),
            );
            return None;
        }
        return Some(Cp::Hybrid { dp_cp: dp_cp.node as u32, max_seqlen_per_rank: per_rank.node });
    }
    r.int("cp", 1, MAX_PARALLEL, diags).map(|c| Cp::Fixed { size: c.node as u32 })
}

fn prev_power_of_two(n: u64) -> u64 {
    if n.is_power_of_two() { n } else { n.next_power_of_two() / 2 }
}

fn check_heads_tp(ctx: &Ctx<'_>, diags: &mut Diags) {
    let tp = ctx.tp.node;
    let m = &ctx.model.model;
    for (what, count, span) in [("heads", m.heads, ctx.model.heads), ("kv_heads", m.kv_heads, ctx.model.kv_heads)] {
        if count % tp != 0 {
            diags.push(
                Diagnostic::new(
                    Code::TpHeads,
                    format!("{what} = {count} cannot be split over tp = {tp}"),
                    ctx.tp.span,
                    format!("tp = {tp}"),
                )
                .with_secondary(span, format!("{what} = {count} in model `{}`", m.name))
                .with_help(format!("tp must divide {what}")),
            );
        }
    }
}

/// `ep` splits the model's experts over ep ranks (Megatron-LM's `--expert-model-parallel-size`):
/// it needs experts, and ep must divide them (`validate_args`, arguments.py:1656-1657).
fn check_experts(ctx: &Ctx<'_>, ep: Spanned<u32>, diags: &mut Diags) {
    if ep.node <= 1 {
        return;
    }
    let m = &ctx.model.model;
    match &m.moe {
        None => diags.push(
            Diagnostic::new(
                Code::Moe,
                format!("ep = {} splits experts, but model `{}` has none", ep.node, m.name),
                ep.span,
                "expert parallelism",
            )
            .with_help(format!("add `moe {{ experts = N, topk = K }}` to model `{}`, or remove `ep`", m.name)),
        ),
        Some(moe) if moe.experts % ep.node != 0 => diags.push(
            Diagnostic::new(
                Code::Moe,
                format!("ep = {} does not divide the model's {} experts", ep.node, moe.experts),
                ep.span,
                "expert parallelism",
            )
            .with_secondary(ctx.model.experts, format!("experts = {}", moe.experts))
            .with_help(format!(
                "use an ep that divides {}: {}",
                moe.experts,
                divisors_up_to(moe.experts, 8)
            )),
        ),
        Some(_) => {}
    }
}

fn divisors_up_to(n: u32, count: usize) -> String {
    let list: Vec<String> = (2..=n).filter(|d| n % d == 0).take(count).map(|d| d.to_string()).collect();
    list.join(", ")
}

impl Ctx<'_> {
    fn cp_label(&self) -> String {
        match self.cp {
            Cp::Fixed { size } if self.cp_span == self.owner => format!("cp defaults to {size}"),
            Cp::Fixed { size } => format!("cp = {size}"),
            Cp::Hybrid { dp_cp, .. } => format!("hybrid CP over {dp_cp} GPUs"),
        }
    }

    fn fixed_format_label(&self) -> &'static str {
        if self.format_span == self.owner { "the format defaults to `sbhd`" } else { "fixed-length format" }
    }
}

/// The number every sequence (or packed buffer) must be a multiple of.
fn split_unit(ctx: &Ctx<'_>, zigzag: bool, sequence_parallel: bool) -> Option<(u64, String)> {
    let Cp::Fixed { size } = ctx.cp else {
        return None;
    };
    let cp = size as u64;
    let tp = if sequence_parallel { ctx.tp.node as u64 } else { 1 };
    let mut unit = cp * tp;
    let mut how = "cp".to_string();
    if zigzag {
        unit *= 2;
        how = "2*cp".to_string();
    }
    if tp > 1 {
        how = format!("{how}*tp");
    }
    Some((unit, how))
}

fn check_sequence(
    ctx: &Ctx<'_>,
    seq: Spanned<u64>,
    balance: Balance,
    balance_span: Option<Span>,
    sp: bool,
    diags: &mut Diags,
) {
    match ctx.format {
        Format::Thd { max_seqlen, max_tokens } => {
            if balance == Balance::Contiguous {
                diags.push(
                    Diagnostic::new(
                        Code::ThdBalance,
                        "`balance = contiguous` does not apply to `format = thd`",
                        balance_span.unwrap_or(ctx.format_span),
                        "not used by THD",
                    )
                    .with_secondary(ctx.format_span, "packed format")
                    .with_help(
                        "THD is split zigzag sequence by sequence; remove `balance` or write `balance = zigzag`",
                    ),
                );
            }
            let Some((unit, how)) = split_unit(ctx, true, sp) else {
                return;
            };
            if max_tokens % unit != 0 {
                diags.push(
                    Diagnostic::new(
                        Code::ThdSize,
                        format!("max_tokens = {max_tokens} is not a multiple of {how} = {unit}"),
                        ctx.format_span,
                        "packed buffer size",
                    )
                    .with_secondary(ctx.cp_span, ctx.cp_label())
                    .with_help(format!(
                        "every sequence is padded to a multiple of {unit}; use max_tokens = {}",
                        max_tokens.div_ceil(unit) * unit
                    )),
                );
                return;
            }
            let padded = max_seqlen.div_ceil(unit) * unit;
            if padded > max_tokens {
                diags.push(
                    Diagnostic::new(
                        Code::ThdSize,
                        format!("max_seqlen = {max_seqlen} pads to {padded}, more than max_tokens = {max_tokens}"),
                        ctx.format_span,
                        "padded sequence does not fit",
                    )
                    .with_help(format!("raise max_tokens to at least {padded}")),
                );
            } else if padded != max_seqlen {
                diags.push(
                    Diagnostic::new(
                        Code::ThdPadding,
                        format!("each packed sequence is padded to a multiple of {unit}: max_seqlen = {max_seqlen} becomes {padded}"),
                        ctx.format_span,
                        format!("padded to a multiple of {how}"),
                    )
                    .with_note("the padding tokens are masked out and give zero output and gradients"),
                );
            }
        }
        Format::Sbhd | Format::Bshd => {
            // `auto` may choose zigzag: it needs zigzag's unit (a multiple of contiguous's).
            let Some((unit, how)) = split_unit(ctx, balance != Balance::Contiguous, sp) else {
                return;
            };
            if seq.node % unit != 0 {
                let below = seq.node / unit * unit;
                let above = below + unit;
                let nearest = if below > 0 { format!("{below} or {above}") } else { above.to_string() };
                let why = if balance != Balance::Contiguous {
                    "zigzag splits the sequence into 2*cp chunks"
                } else {
                    "contiguous balance splits the sequence into cp chunks"
                };
                diags.push(
                    Diagnostic::new(
                        Code::SeqNotDivisible,
                        format!("seq = {} is not a multiple of {how} = {unit}", seq.node),
                        seq.span,
                        format!("not a multiple of {unit}"),
                    )
                    .with_secondary(ctx.cp_span, ctx.cp_label())
                    .with_note(why)
                    .with_notes_if(
                        sp && ctx.tp.node > 1,
                        format!("with sequence parallelism each rank's share is split again over tp = {}", ctx.tp.node),
                    )
                    .with_help(format!("use seq = {nearest}")),
                );
            }
        }
    }
}

/// Checks tp*cp*dp*pp against the cluster; returns dp (derived when not given).
fn check_cluster_fit(ctx: &Ctx<'_>, r: &Reader<'_>, pp: u32, dp: Option<u32>, diags: &mut Diags) -> Option<u32> {
    let world = ctx.cluster.cluster.gpus as u64;
    let (cp, cp_name) = match ctx.cp {
        Cp::Fixed { size } => (size as u64, "cp"),
        Cp::Hybrid { dp_cp, .. } => (dp_cp as u64, "dp_cp"),
    };
    let base = ctx.tp.node as u64 * cp * pp as u64;
    let hybrid = matches!(ctx.cp, Cp::Hybrid { .. });
    let given = if hybrid { None } else { dp };
    let need = base * given.unwrap_or(1) as u64;
    let sizes = match given {
        Some(dp) => format!("tp*{cp_name}*dp*pp = {}*{cp}*{dp}*{pp} = {need}", ctx.tp.node),
        None => format!("tp*{cp_name}*pp = {}*{cp}*{pp} = {need}", ctx.tp.node),
    };
    let span = r.key_span("cp").or(r.key_span("tp")).unwrap_or(r.owner);
    let cluster_label = format!("cluster `{}` has {world} GPUs", ctx.cluster.cluster.name);
    if need > world {
        diags.push(
            Diagnostic::new(
                Code::ClusterFit,
                format!("the layout needs {need} GPUs but the cluster has {world}"),
                span,
                sizes,
            )
            .with_secondary(ctx.cluster.name, cluster_label)
            .with_help("lower tp, cp, dp or pp, or add nodes to the cluster"),
        );
        return None;
    }
    if hybrid {
        if need < world {
            idle(need, world, span, ctx, diags);
        }
        return Some(1);
    }
    match given {
        Some(dp) => {
            if need < world {
                idle(need, world, span, ctx, diags);
            }
            Some(dp)
        }
        None if world % base != 0 => {
            diags.push(
                Diagnostic::new(
                    Code::ClusterFit,
                    format!("{world} GPUs cannot be divided into data-parallel replicas of {base}"),
                    span,
                    sizes,
                )
                .with_secondary(ctx.cluster.name, cluster_label)
                .with_help(format!("dp = GPUs/(tp*cp*pp) must be whole; set `dp` explicitly or choose sizes whose product divides {world}")),
            );
            None
        }
        None => Some((world / base) as u32),
    }
}

fn idle(need: u64, world: u64, span: Span, ctx: &Ctx<'_>, diags: &mut Diags) {
    diags.push(
        Diagnostic::new(
            Code::IdleGpus,
            format!("the layout uses {need} of the cluster's {world} GPUs"),
            span,
            format!("{} GPUs stay idle", world - need),
        )
        .with_secondary(ctx.cluster.name, "cluster defined here"),
    );
}

fn check_hybrid(ctx: &Ctx<'_>, dp_given: bool, dp_span: Option<Span>, diags: &mut Diags) {
    let Cp::Hybrid { dp_cp, max_seqlen_per_rank } = ctx.cp else {
        return;
    };
    match ctx.format {
        Format::Thd { max_seqlen, .. } => {
            let capacity = dp_cp as u64 * max_seqlen_per_rank;
            if max_seqlen > capacity {
                diags.push(
                    Diagnostic::new(
                        Code::HybridConflict,
                        format!("max_seqlen = {max_seqlen} does not fit the hybrid pool of {dp_cp} x {max_seqlen_per_rank} tokens"),
                        ctx.format_span,
                        "longest sequence",
                    )
                    .with_secondary(ctx.cp_span, format!("at most {capacity} tokens on the whole pool"))
                    .with_help("raise max_seqlen_per_rank or dp_cp"),
                );
            }
        }
        _ => diags.push(
            Diagnostic::new(Code::HybridFormat, "hybrid CP needs `format = thd`", ctx.cp_span, "hybrid CP")
                .with_secondary(ctx.format_span, ctx.fixed_format_label())
                .with_help("write `format = thd { max_seqlen = .., max_tokens = .. }`"),
        ),
    }
    if dp_given {
        diags.push(
            Diagnostic::new(
                Code::HybridConflict,
                "`dp` is implied by hybrid CP's dp_cp pool",
                dp_span.unwrap_or(ctx.cp_span),
                "remove this",
            )
            .with_secondary(ctx.cp_span, "the pool of data- and context-parallel GPUs")
            .with_help("dp_cp is the size of the whole DP x CP group"),
        );
    }
}

/// Checks one (strategy, mask) setting: the layout's own (`default`), or a `layer` block's.
fn check_setting(ctx: &Ctx<'_>, s: &Setting, default: bool, diags: &mut Diags) {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let thd = matches!(ctx.format, Format::Thd { .. });
    if s.mask.is_padding() && !thd {
        diags.push(
            Diagnostic::new(Code::PaddingNeedsThd, "padding masks need `format = thd`", s.mask_span, "padding mask")
                .with_secondary(ctx.format_span, ctx.fixed_format_label())
                .with_help("use `none` or `causal` here, or switch to `format = thd { ... }`"),
        );
    }
    if !s.mask.is_padding() && thd {
        let instead = if s.mask.is_causal() { "padding_causal" } else { "padding" };
        diags.push(
            Diagnostic::new(
                Code::ThdMask,
                "a packed THD batch needs a padding mask",
                s.mask_span,
                "this mask crosses sequence boundaries",
            )
            .with_secondary(ctx.format_span, "packed format")
            .with_help(format!("use `mask = {instead}`, which keeps attention inside each sequence")),
        );
    }
    let degree = match (&s.strategy, ctx.cp) {
        (Strategy::A2a, Cp::Fixed { size }) => Some(size),
        (Strategy::A2a, Cp::Hybrid { dp_cp, .. }) => Some(dp_cp),
        (Strategy::A2aP2p { .. }, Cp::Hybrid { .. }) => {
            diags.push(
                Diagnostic::new(
                    Code::HybridConflict,
                    "`a2a+p2p` does not combine with hybrid CP",
                    s.strategy_span,
                    "a fixed hierarchy",
                )
                .with_secondary(ctx.cp_span, "the CP size varies per sequence")
                .with_help("use `p2p` or `a2a` with hybrid CP"),
            );
            None
        }
        (Strategy::A2aP2p { hierarchy }, Cp::Fixed { size }) => check_hierarchy(ctx, hierarchy, size, s, diags),
        _ => None,
    };
    if let Some(d) = degree {
        check_a2a_heads(ctx, d, s.strategy_span, diags);
    }
    // What attnc itself rejects is not reported again as TransformerEngine's restriction.
    if diags.iter().filter(|d| d.is_error()).count() == errors_before {
        check_te(ctx, s, default, diags);
    }
    if default {
        check_score_positions(ctx, diags);
    }
}

/// Positions reach a score as f32 (`expr::score`): exact up to 2^24 tokens (W0011).
fn check_score_positions(ctx: &Ctx<'_>, diags: &mut Diags) {
    const EXACT: u64 = 1 << 24;
    let Some(score) = ctx.model.model.score else { return };
    let longest = match ctx.format {
        Format::Thd { max_seqlen, .. } => max_seqlen,
        _ => ctx.seq.node,
    };
    if !score.positions() || longest <= EXACT {
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::ScorePositionsInexact,
            format!("the score reads positions, which the kernels hold as f32: exact up to {EXACT} tokens, and a sequence here has {longest}"),
            ctx.model.softcap,
            "reads `q` or `k`",
        )
        .with_secondary(ctx.seq.span, format!("sequences of up to {longest} tokens"))
        .with_help(format!("keep sequences at or below {EXACT} tokens for this score (`attnc explain W0011`)")),
    );
}

/// TransformerEngine's backend selection and CP asserts (`compat::te`): errors for the `--for te`
/// target, warnings about the newest TE otherwise. Model- and layout-wide facts (soft-capping, the
/// GPU, sinks before 2.8, the per-rank sequence) are reported with the layout's own setting
/// (`default`), not again for every `layer` block.
fn check_te(ctx: &Ctx<'_>, s: &Setting, default: bool, diags: &mut Diags) {
    let m = &ctx.model.model;
    let tp = ctx.tp.node.max(1);
    let setting = te::Setting {
        strategy: s.strategy.clone(),
        cp: ctx.cp,
        mask: s.mask,
        format: ctx.format,
        dtype: ctx.dtype.node,
        sm: ctx.cluster.cluster.gpu.sm,
        gpu: ctx.cluster.cluster.gpu.name.clone(),
        head_dim: m.head_dim,
        v_head_dim: m.v_dim(),
        heads: m.heads / tp,
        kv_heads: m.kv_heads / tp,
        sinks: m.sinks,
        score: m.score,
        seq: ctx.seq.node,
        zigzag: ctx.balance != Balance::Contiguous,
    };
    let target = ctx.target.map_or(te::Target::newest(), |t| t.target);
    let verdict = if setting.comm().is_none() {
        // `strategy = auto`: the tuner chooses among what TE runs (`attnc check --for te` resolves
        // it); only what no strategy changes is checked here.
        let mut auto = te::evaluate(&te::Setting { cp: Cp::Fixed { size: 1 }, ..setting.clone() }, &target);
        auto.asserts.retain(|a| a.without_cp);
        auto
    } else {
        te::evaluate(&setting, &target)
    };
    // A concrete strategy TE refuses: which others it runs for this layer class, so the help
    // names one that works (none when what fails does not depend on the strategy).
    // A change of the layout's own strategy must suit every class that keeps it.
    let layout_level = default || s.strategy_span == ctx.strategy_span;
    let alternatives = if verdict.strategy_clean() || setting.comm().is_none() {
        Vec::new()
    } else if layout_level {
        let mut common = te::strategy_clean(&setting, &target);
        for &m in &ctx.shared_masks {
            let other = te::strategy_clean(&te::Setting { mask: m, ..setting.clone() }, &target);
            common.retain(|(s, _)| other.iter().any(|(o, _)| o == s));
            for (s, runs) in common.iter_mut() {
                *runs &= other.iter().any(|(o, r)| o == s && *r);
            }
        }
        common
    } else {
        te::strategy_clean(&setting, &target)
    };
    let switch = strategy_help(&alternatives, layout_level, &target);
    let (code, lead) = match ctx.target {
        Some(t) if t.errors => (Code::TeUnsupported, format!("{target} does not run this")),
        Some(_) => (Code::TeWarning, format!("{target} does not run this")),
        None => (Code::TeWarning, format!("the newest TransformerEngine ({}) does not run this", target.version)),
    };
    let strategy_label = if s.strategy_span == ctx.owner {
        format!("the strategy defaults to `{}`", s.strategy.name())
    } else {
        format!("cp_comm_type `{}`", s.strategy.name())
    };
    for entry in &verdict.asserts {
        let layout_wide = matches!(
            entry.check,
            te::Check::Softcap
                | te::Check::Alibi
                | te::Check::NotCuda
                | te::Check::SinksUnavailable
                | te::Check::SeqPerRankOdd
                | te::Check::Contiguous
        );
        if layout_wide && !default {
            continue;
        }
        // attnc's own E0011 already says this of a zigzag split, and of any seq cp does not divide.
        if entry.check == te::Check::SeqPerRankOdd
            && (ctx.balance != Balance::Contiguous || ctx.seq.node % setting.cp_size() as u64 != 0)
        {
            continue;
        }
        let message = format!("{lead}: {}", entry.summary);
        let mut diag = match entry.check {
            te::Check::NotCuda => Diagnostic::new(code, message, ctx.cluster.gpu, format!("gpu `{}`", setting.gpu)),
            te::Check::Chunk => Diagnostic::new(code, message, s.mask_span, "chunked attention"),
            te::Check::Regions => Diagnostic::new(code, message, s.mask_span, "a mask by region"),
            te::Check::Heads => Diagnostic::new(code, message, s.mask_span, "a mask by head"),
            te::Check::Softcap => Diagnostic::new(code, message, ctx.model.softcap, "a score modification"),
            te::Check::Alibi => {
                Diagnostic::new(code, message, ctx.model.softcap, "ALiBi").with_secondary(ctx.cp_span, ctx.cp_label())
            }
            te::Check::SinksUnavailable => Diagnostic::new(code, message, ctx.model.sinks, "learned sinks"),
            te::Check::SeqPerRankOdd => Diagnostic::new(code, message, ctx.seq.span, format!("seq = {}", ctx.seq.node))
                .with_secondary(ctx.cp_span, ctx.cp_label()),
            te::Check::Contiguous => Diagnostic::new(code, message, ctx.balance_span, "contiguous split")
                .with_secondary(ctx.cp_span, ctx.cp_label()),
            te::Check::WindowComm(_) | te::Check::WindowAllGatherFused => {
                Diagnostic::new(code, message, s.strategy_span, strategy_label.clone())
                    .with_secondary(s.mask_span, "sliding window")
            }
            te::Check::Thd(_) => Diagnostic::new(code, message, s.strategy_span, strategy_label.clone())
                .with_secondary(ctx.format_span, "packed THD format"),
            te::Check::A2aHeads => Diagnostic::new(code, message, s.strategy_span, strategy_label.clone())
                .with_secondary(ctx.model.heads, format!("{} query heads per TP rank", setting.heads))
                .with_secondary(ctx.model.kv_heads, format!("{} KV heads per TP rank", setting.kv_heads)),
            te::Check::SinksNotA2a | te::Check::SinksThd { .. } => {
                Diagnostic::new(code, message, s.strategy_span, strategy_label.clone())
                    .with_secondary(ctx.model.sinks, "learned sinks")
            }
            te::Check::MlaComm(_) => Diagnostic::new(code, message, s.strategy_span, strategy_label.clone())
                .with_secondary(ctx.model.v_head_dim, format!("v_head_dim = {} (MLA)", setting.v_head_dim)),
        };
        diag = diag.with_note(format!("TransformerEngine says: {}", entry.te_says)).with_note(format!(
            "{} ({}): {}",
            entry.versions(),
            entry.id,
            entry.sources.join("; ")
        ));
        if ctx.target.is_none() {
            diag = diag.with_note("attnc plans and runs it; `attnc check --for te` makes this an error");
        }
        let help = match (&switch, strategy_fixable(entry.check)) {
            (Some(switch), true) => switch.clone(),
            (None, true) => no_strategy_help(&target),
            (_, false) => entry.help.to_string(),
        };
        diags.push(diag.with_help(help));
    }
    // An explicit target without a cuDNN: say which cuDNN the verdict assumed.
    if let Some(t) = ctx.target
        && t.target.cudnn.is_none()
        && verdict.runs()
        && let Some(need) = verdict.assumed.iter().max_by_key(|a| a.at_least)
    {
        diags.push(
            Diagnostic::new(
                Code::TeAssumesCudnn,
                format!("{target} runs this with cuDNN {} or later: {}", need.at_least, need.what),
                s.strategy_span,
                strategy_label.clone(),
            )
            .with_help(format!("on an older cuDNN, check with `--for {},cudnn=X.Y`", target.flag())),
        );
    }
    if verdict.selected.is_none() {
        let mut diag = no_backend(ctx, s, &setting, &verdict, code, &lead, &strategy_label);
        let strategy_bound = verdict.backends.iter().filter_map(|(_, r)| r.as_ref().err()).flatten().any(|u| {
            matches!(u, te::Unavailable::Filtered(f) if matches!(f.when, te::When::SinksNotA2a | te::When::WindowComm(_) | te::When::OddHeadsA2a))
        });
        match (&switch, strategy_bound) {
            (Some(switch), true) => diag.help = vec![switch.clone()],
            (None, true) => diag.help = vec![no_strategy_help(&target)],
            (_, false) => {}
        }
        diags.push(diag);
    }
}

/// Whether a different strategy may make an assert pass (a missing feature or the GPU never does).
fn strategy_fixable(check: te::Check) -> bool {
    !check.strategy_independent()
}

/// "use `strategy = a2a` (or …)" for the strategies under which nothing that depends on the
/// strategy refuses the layer class, written where the setting is: the layout's own `strategy`, or
/// a `layer` block's. Those under which TE runs the class outright come first and are said so.
fn strategy_help(alternatives: &[(Strategy, bool)], default: bool, target: &te::Target) -> Option<String> {
    let mut sorted: Vec<&(Strategy, bool)> = alternatives.iter().collect();
    sorted.sort_by_key(|(_, runs)| !runs);
    let (first, rest) = sorted.split_first()?;
    let quoted = |s: &Strategy| format!("`strategy = {}`", super::unparse::strategy_text(s));
    let others: Vec<String> = rest.iter().map(|(s, _)| quoted(s)).collect();
    let or = if others.is_empty() { String::new() } else { format!(" (or {})", others.join(", ")) };
    let outcome = if first.1 { format!("{target} runs that") } else { "that avoids this".to_string() };
    Some(if default {
        format!("use {}{or}: {outcome}", quoted(&first.0))
    } else {
        format!("add {} to this `layer` block{or}: {outcome}", quoted(&first.0))
    })
}

/// The help when no strategy makes TE run a layer class.
fn no_strategy_help(target: &te::Target) -> String {
    format!(
        "no cp_comm_type makes {target} run this layer class with these heads, cp and format; `attnc check --for {}` lists the changes of tp, cp and format that do",
        target.flag()
    )
}

/// No attention backend of TE runs a setting: one label per cause, one note per backend.
fn no_backend(
    ctx: &Ctx<'_>,
    s: &Setting,
    setting: &te::Setting,
    verdict: &te::Verdict,
    code: Code,
    lead: &str,
    strategy_label: &str,
) -> Diagnostic {
    let gpu = match setting.sm {
        Some(sm) => format!("{} (sm_{sm})", setting.gpu),
        None => setting.gpu.clone(),
    };
    let mut diag = Diagnostic::new(
        code,
        format!("{lead}: no attention backend of TransformerEngine runs it on {gpu} under context parallelism"),
        s.strategy_span,
        strategy_label.to_string(),
    );
    let mut labelled: Vec<Span> = vec![s.strategy_span];
    let mut helps: Vec<&str> = Vec::new();
    for (backend, result) in &verdict.backends {
        let Err(why) = result else { continue };
        let mut lines = Vec::new();
        for unavailable in why {
            match unavailable {
                te::Unavailable::Filtered(f) => {
                    if let Some(span) = cause_span(ctx, s, f.when)
                        && !labelled.contains(&span)
                    {
                        labelled.push(span);
                        diag = diag.with_secondary(span, f.summary);
                    }
                    lines.push(format!("{} ({}, {}: {})", f.te_says, f.id, f.versions(), f.sources.join("; ")));
                    if !helps.contains(&f.help) && *backend != te::Backend::FlashAttention3 {
                        helps.push(f.help);
                    }
                }
                te::Unavailable::NotInstalled => {
                    lines.push("flash-attn 3 is not installed (write `--for te,fa3` if it is)".to_string())
                }
            }
        }
        diag = diag.with_note(format!("{}: {}", backend.name(), lines.join("; ")));
    }
    diag = diag.with_note("UnfusedDotProductAttention does not run context parallelism (every TE version)");
    if ctx.target.is_none() {
        diag = diag.with_note("attnc plans and runs it; `attnc check --for te` makes this an error");
    }
    match helps.as_slice() {
        [] => diag,
        [one] => diag.with_help(*one),
        many => diag.with_help(many.join("; or ")),
    }
}

/// Where in the spec a backend filter's condition comes from.
fn cause_span(ctx: &Ctx<'_>, s: &Setting, when: te::When) -> Option<Span> {
    use te::When::*;
    Some(match when {
        ArchBelow(_) | ArchNot(_) | CudnnBlackwell(_) => ctx.cluster.gpu,
        Fp32 => ctx.dtype.span,
        Mla | CudnnMlaHopper { .. } => ctx.model.v_head_dim,
        Fa2HeadDim { .. }
        | HeadDimAbove128
        | Fa3Shape
        | CudnnBlackwellBigHead
        | CudnnHeadDimOld
        | CudnnHeadDim { .. } => ctx.model.head_dim,
        ThdPadding | CudnnThd { .. } => ctx.format_span,
        Window | WindowThd | WindowComm(_) | CudnnWindow { .. } => s.mask_span,
        Sinks | SinksThd { .. } | SinksNotA2a | CudnnSinks => ctx.model.sinks,
        OddHeadsA2a => ctx.model.heads,
    })
}

fn check_hierarchy(ctx: &Ctx<'_>, hierarchy: &[u32], cp: u32, s: &Setting, diags: &mut Diags) -> Option<u32> {
    let span = s.hierarchy_span.unwrap_or(s.strategy_span);
    if hierarchy.len() != 2 {
        diags.push(
            Diagnostic::new(
                Code::HierarchyLevels,
                format!("`a2a+p2p` takes two levels, found {}", hierarchy.len()),
                span,
                "expected `[A2A, P2P]`",
            )
            .with_help("the first level is the all-to-all group inside a node, the second the ring across groups"),
        );
        return None;
    }
    let product = hierarchy[0] as u64 * hierarchy[1] as u64;
    if product != cp as u64 {
        diags.push(
            Diagnostic::new(
                Code::HierarchyProduct,
                format!("hierarchy [{}, {}] multiplies to {product}, but cp = {cp}", hierarchy[0], hierarchy[1]),
                span,
                format!("{} * {} = {product}", hierarchy[0], hierarchy[1]),
            )
            .with_secondary(ctx.cp_span, format!("cp = {cp}"))
            .with_help(format!(
                "the levels must multiply to cp, e.g. [{}, {}]",
                (cp as u64).min(ctx.cluster.cluster.gpus_per_node as u64).max(1),
                cp as u64 / (cp as u64).min(ctx.cluster.cluster.gpus_per_node as u64).max(1)
            )),
        );
        return None;
    }
    // In Megatron's default order (tp-cp-ep-dp-pp) an a2a group of d CP ranks spans tp*d consecutive GPUs.
    let gpn = ctx.cluster.cluster.gpus_per_node as u64;
    let span_gpus = hierarchy[0] as u64 * ctx.tp.node as u64;
    if span_gpus > gpn || gpn % span_gpus != 0 {
        let tp_note = if ctx.tp.node > 1 { format!(" (times tp = {})", ctx.tp.node) } else { String::new() };
        diags.push(
            Diagnostic::new(
                Code::A2aLevelExceedsNode,
                format!(
                    "the all-to-all level spans {span_gpus} GPUs{tp_note}, which does not fit inside a node of {gpn}"
                ),
                span,
                "all-to-all level",
            )
            .with_secondary(ctx.cluster.gpus_per_node, format!("gpus_per_node = {gpn}"))
            .with_help("keep the all-to-all on intra-node links: tp * (first level) should divide gpus_per_node"),
        );
    }
    Some(hierarchy[0])
}

fn check_a2a_heads(ctx: &Ctx<'_>, degree: u32, span: Span, diags: &mut Diags) {
    let m = &ctx.model.model;
    let tp = ctx.tp.node;
    if m.heads % tp != 0 || m.kv_heads % tp != 0 {
        return; // E0018 is already reported.
    }
    let (heads, kv) = (m.heads / tp, m.kv_heads / tp);
    let per_tp = if tp > 1 { format!(" per TP rank (tp = {tp})") } else { String::new() };
    if heads % degree != 0 {
        diags.push(
            Diagnostic::new(
                Code::A2aHeads,
                format!("{heads} query heads{per_tp} cannot be split over an all-to-all of {degree}"),
                span,
                format!("all-to-all degree {degree}"),
            )
            .with_secondary(ctx.model.heads, format!("heads = {} in model `{}`", m.heads, m.name))
            .with_help("use a degree that divides the heads, a2a+p2p with a smaller first level, or p2p"),
        );
        return;
    }
    if kv % degree == 0 {
        return;
    }
    if kv < degree && degree % kv == 0 {
        diags.push(
            Diagnostic::new(
                Code::KvReplicated,
                format!("{kv} KV heads{per_tp} are replicated {}x over the all-to-all of {degree}", degree / kv),
                span,
                format!("all-to-all degree {degree}"),
            )
            .with_secondary(ctx.model.kv_heads, format!("kv_heads = {} in model `{}`", m.kv_heads, m.name))
            .with_note("each rank receives the one KV head its query heads share"),
        );
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::A2aHeads,
            format!("{kv} KV heads{per_tp} cannot be split or replicated over an all-to-all of {degree}"),
            span,
            format!("all-to-all degree {degree}"),
        )
        .with_secondary(ctx.model.kv_heads, format!("kv_heads = {} in model `{}`", m.kv_heads, m.name))
        .with_help("the degree must divide the KV heads, or be a multiple of them"),
    );
}

fn layer_indices(range: &crate::front::ast::LayerRange, model: &ModelInfo, diags: &mut Diags) -> Option<Vec<usize>> {
    let layers = Spanned::new(model.model.layers as u64, model.layers);
    let (start, end, step) = layer_range(range, &layers, &model.model.name, diags)?;
    Some((start..end).step_by(step as usize).map(|l| l as usize).collect())
}

/// A `layer A..B [step S]` range of a model with `layers` layers: `(A, B, S)`, or an error
/// (E0014) when it is empty or reaches past the last layer.
pub(crate) fn layer_range(
    range: &crate::front::ast::LayerRange,
    layers: &Spanned<u64>,
    model: &str,
    diags: &mut Diags,
) -> Option<(u64, u64, u64)> {
    let start = int_literal(&range.start, "layer", 0, u64::MAX).map_err(|d| diags.push(d)).ok()?;
    let end = int_literal(&range.end, "layer", 0, u64::MAX).map_err(|d| diags.push(d)).ok()?;
    let step = match &range.step {
        Some(step) => int_literal(step, "step", 1, u64::MAX).map_err(|d| diags.push(d)).ok()?.node,
        None => 1,
    };
    let n = layers.node;
    if start.node >= end.node || end.node > n {
        let why = if start.node >= end.node {
            format!("{}..{} is empty", start.node, end.node)
        } else {
            format!("the model has layers 0..{n}")
        };
        diags.push(
            Diagnostic::new(
                Code::LayerRange,
                format!("layer range {}..{} is not inside 0..{n}: {why}", start.node, end.node),
                range.span,
                "layer range",
            )
            .with_secondary(layers.span, format!("layers = {n} in model `{model}`"))
            .with_help("ranges are half-open, like Rust's: `layer 0..4` sets layers 0, 1, 2 and 3"),
        );
        return None;
    }
    Some((start.node, end.node, step))
}
