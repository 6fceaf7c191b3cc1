//! The oracle: plain full attention on one device in fp64, forward and backward, RoPE over the
//! whole sequence; and the comparison of a run's outputs against it with written tolerances.
//!
//! Inputs are rounded to the layout's dtype first, exactly as the runtime rounds them on load,
//! so a bf16 run is compared with the fp64 attention of the same bf16 values.

use attnc_compiler::expr::interval::{Tile, needed_keys};
use attnc_compiler::expr::library;
use attnc_compiler::expr::{Expr, MaskExpr, parse};
use attnc_compiler::ir::Problem;
use attnc_compiler::spec::{Dtype, Mask};

use crate::exec::ExecOutputs;
use crate::tensor::{Canonical, Dims, round};

/// fp64 outputs of full attention, canonical layout.
pub struct Reference {
    pub o: Vec<f64>,
    pub lse: Vec<f64>,
    pub dq: Vec<f64>,
    pub dk: Vec<f64>,
    pub dv: Vec<f64>,
    /// With learned sinks: each head's sink gradient, and its term of each row
    /// (`[batch][tokens][heads]`, so that a rank's share can be checked).
    pub dsinks: Vec<f64>,
    pub dsink_terms: Vec<f64>,
    /// With learned score parameters: their gradients, `[heads][params]` (Σ over every pair of
    /// dS·∂score/∂param, dS the gradient of the pair's modified score), and the sums of those
    /// terms' magnitudes (what the error of such a sum scales with).
    pub dparams: Vec<f64>,
    pub dparam_terms: Vec<f64>,
}

/// RoPE on one head `x` (`head_dim` wide): its rotated dims (`Rope::range`) turn by `sign` ×
/// position × each frequency (rotate-half within them), cos and sin scaled by the attention
/// factor.
fn rotate(x: &mut [f64], position: u64, rope: Option<&attnc_compiler::spec::Rope>, sign: f64) {
    let Some(rope) = rope else { return };
    let x = &mut x[rope.range()];
    let half = x.len() / 2;
    let (freqs, factor) = (rope.inv_freqs(), rope.attention_factor());
    for (i, f) in freqs.iter().enumerate() {
        let (s, c) = (sign * position as f64 * f).sin_cos();
        let (c, s) = (c * factor, s * factor);
        let (a, b) = (x[i], x[i + half]);
        x[i] = a * c - b * s;
        x[i + half] = b * c + a * s;
    }
}

/// The problem's score modification in fp64: its text walked on its own, with the value and the
/// slope of every subexpression carried together (dual numbers) — not the kernels' step list
/// (`expr::score`), which is what it checks. At a tie of `min`/`max` the slope is the mean of both
/// sides', as PyTorch's `minimum`/`maximum` give it.
struct ScoreF64 {
    expr: Option<Expr>,
    /// The model's head of the slice's first head.
    offset: usize,
    /// The learned parameters' names (declaration order) and values, `[heads of the slice][n]`.
    names: Vec<String>,
    params: Vec<f64>,
}

/// What a dual number's slope is taken by: the scaled score, or a learned parameter.
#[derive(Clone, Copy, PartialEq)]
enum By {
    S,
    Param(usize),
}

/// Where a score is evaluated: the scaled score, the pair's positions and model head `(q, k, h)`,
/// its document (`doc(q)`, `doc(k)`: equal wherever a pair is scored), the head's learned
/// parameters (by name), and what the slope is taken by.
struct Point<'a> {
    s: f64,
    at: (f64, f64, f64),
    doc: f64,
    names: &'a [String],
    params: &'a [f64],
    by: By,
}

impl ScoreF64 {
    /// The problem's score, read at query head `offset + h` for the slice's head `h`.
    fn of(p: &Problem, inputs: &Canonical) -> ScoreF64 {
        let names = p.score.map(|s| s.param_names.clone()).unwrap_or_default();
        let params = match names.is_empty() {
            true => Vec::new(),
            false => inputs
                .params
                .as_ref()
                .expect("a score with learned parameters has them")
                .iter()
                .map(|&x| x as f64)
                .collect(),
        };
        ScoreF64 {
            expr: p.score.map(|s| parse::parse(&s.text).expect("a problem's score parses")),
            offset: inputs.head_offset as usize,
            names,
            params,
        }
    }

    fn point(&self, s: f64, at: (u64, u64, usize), head: usize, by: By) -> Point<'_> {
        let n = self.names.len();
        Point {
            s,
            at: (at.0 as f64, at.1 as f64, (self.offset + head) as f64),
            doc: at.2 as f64,
            names: &self.names,
            params: self.params.get(head * n..(head + 1) * n).unwrap_or(&[]),
            by,
        }
    }

    /// The modified score of the scaled score `s` of the pair at positions `at` (query, key,
    /// within their sequence, and their document) of query head `head`, and d value / ds there.
    fn at(&self, s: f64, at: (u64, u64, usize), head: usize) -> (f64, f64) {
        match &self.expr {
            Some(e) => dual(e, &self.point(s, at, head, By::S)),
            None => (s, 1.0),
        }
    }

    /// The derivatives of the modified score by each learned parameter there.
    fn grads(&self, s: f64, at: (u64, u64, usize), head: usize) -> Vec<f64> {
        let Some(e) = &self.expr else { return Vec::new() };
        (0..self.names.len()).map(|j| dual(e, &self.point(s, at, head, By::Param(j))).1).collect()
    }
}

/// A score expression's value and slope (by `s` or a learned parameter) at a point, in fp64.
fn dual(e: &Expr, pt: &Point<'_>) -> (f64, f64) {
    use attnc_compiler::expr::{BinOp, ExprKind, Func, UnOp, Var};
    let (s, at) = (pt.s, pt.at);
    let dual = |e: &Expr, _: f64, _: (f64, f64, f64)| dual(e, pt);
    match &e.kind {
        ExprKind::Var(Var::S) => (s, if pt.by == By::S { 1.0 } else { 0.0 }),
        ExprKind::Var(Var::Q) => (at.0, 0.0),
        ExprKind::Var(Var::K) => (at.1, 0.0),
        ExprKind::Var(Var::H) => (at.2, 0.0),
        ExprKind::Var(Var::DocQ | Var::DocK) => (pt.doc, 0.0),
        ExprKind::Param(name) => {
            let j = pt.names.iter().position(|n| n == name).expect("a compiled score's parameters are declared");
            (pt.params[j], if pt.by == By::Param(j) { 1.0 } else { 0.0 })
        }
        ExprKind::Int(i) => (*i as f64, 0.0),
        ExprKind::Float(f) => (*f, 0.0),
        ExprKind::Unary(UnOp::Neg, a) => {
            let (v, d) = dual(a, s, at);
            (-v, -d)
        }
        ExprKind::Binary(op, a, b) => {
            let ((x, dx), (y, dy)) = (dual(a, s, at), dual(b, s, at));
            match op {
                BinOp::Add => (x + y, dx + dy),
                BinOp::Sub => (x - y, dx - dy),
                BinOp::Mul => (x * y, dx * y + x * dy),
                BinOp::Div => (x / y, (dx * y - x * dy) / (y * y)),
                // Euclidean, by a positive constant: x − y·floor(x / y), the slope of x.
                BinOp::Rem => (x.rem_euclid(y), dx),
                other => panic!("a score the kernels compile has no `{}`", other.symbol()),
            }
        }
        ExprKind::Call(Func::Alibi, args) => {
            let (head, heads) = (dual(&args[0], s, at).0, dual(&args[1], s, at).0);
            let slope = attnc_compiler::expr::library::alibi_slope(head as i64, heads as i64);
            (slope.expect("a compiled score's alibi reads one of its heads"), 0.0)
        }
        ExprKind::Call(f, args) => {
            let (x, dx) = dual(&args[0], s, at);
            match f {
                Func::Tanh => (x.tanh(), (1.0 - x.tanh() * x.tanh()) * dx),
                Func::Exp => (x.exp(), x.exp() * dx),
                Func::Log => (x.ln(), dx / x),
                Func::Min | Func::Max => {
                    let (y, dy) = dual(&args[1], s, at);
                    let first = if *f == Func::Min { x < y } else { x > y };
                    if x == y {
                        (x, (dx + dy) / 2.0)
                    } else if first {
                        (x, dx)
                    } else {
                        (y, dy)
                    }
                }
                Func::Alibi => unreachable!("matched above"),
            }
        }
        other => panic!("a score the kernels compile has no {other:?}"),
    }
}

/// The problem's mask as the library writes it (`expr::library`): the reference decides which
/// keys a query sees from that expression, not from the planner's closed forms (`ir::mask`).
fn mask_expr(p: &Problem) -> Option<MaskExpr> {
    if let Some(text) = p.regions.as_ref().map(|r| &r.text).or(p.head_masks.as_ref().map(|h| &h.text)) {
        // The expression as the user wrote it, not its regions or head classes.
        let e = attnc_compiler::expr::parse::parse(text).expect("a mask's text parses");
        return Some(MaskExpr::new(e).expect("a mask's text type-checks"));
    }
    p.causal.then(|| library::expr(Mask::Causal { window: p.window, chunk: p.chunk })).flatten()
}

/// The keys a query row sees, as ranges of key rows in order: one range under every named mask,
/// several under a regional one (global keys, then a window).
#[derive(Clone, Debug, Default)]
struct Keys(Vec<std::ops::Range<usize>>);

impl Keys {
    /// From the first key seen to the last.
    fn hull(&self) -> std::ops::Range<usize> {
        match (self.0.first(), self.0.last()) {
            (Some(a), Some(b)) => a.start..b.end,
            _ => 0..0,
        }
    }

    /// The keys seen inside `tile`, in order.
    fn in_tile<'a>(&'a self, tile: &'a std::ops::Range<usize>) -> impl Iterator<Item = usize> + 'a {
        self.0.iter().flat_map(move |r| r.start.max(tile.start)..r.end.min(tile.end))
    }

    /// The seen keys' offsets from the hull's start, as ranges.
    fn offsets(&self) -> impl Iterator<Item = std::ops::Range<usize>> + Clone + '_ {
        let start = self.hull().start;
        self.0.iter().map(move |r| r.start - start..r.end - start)
    }
}

/// The keys query `i` sees (none for a padding token), found by the expression analysis of the
/// mask (exact for a single query: every comparison is decided at one pair).
fn allowed(p: &Problem, mask: Option<&MaskExpr>, i: u64, head: i64) -> Keys {
    let doc = p.doc_of(i);
    let real_end = doc.start + doc.len;
    if i >= real_end {
        return Keys::default();
    }
    let Some(mask) = mask else { return Keys(std::iter::once(doc.start as usize..real_end as usize).collect()) };
    let q = (i - doc.start) as i64;
    let at = Tile { q: (q, q), k: (0, 0), h: (head, head), doc_q: (0, 0), doc_k: (0, 0) };
    let ranges = needed_keys(mask, &[(q, q)], (0, doc.len as i64 - 1), &at);
    Keys(
        ranges.into_iter().map(|(a, b)| (doc.start + a as u64) as usize..(doc.start + b as u64 + 1) as usize).collect(),
    )
}

/// a·b with four partial sums, so that the compiler vectorises it (a plain sum of products must
/// keep the order and cannot).
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// y += a·x.
#[inline(always)]
fn axpy(y: &mut [f64], a: f64, x: &[f64]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// One (batch, KV head) group's inputs in fp64, rotated, rows contiguous.
struct Group {
    /// `[query head of the group][token][d]`.
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
    d_out: Vec<f64>,
}

/// One group's outputs, scattered into the canonical tensors after the threads join.
struct GroupOut {
    o: Vec<f64>,
    lse: Vec<f64>,
    dq: Vec<f64>,
    dk: Vec<f64>,
    dv: Vec<f64>,
    dsink_terms: Vec<f64>,
    /// `[query head of the group][params]`, and the sums of the terms' magnitudes.
    dparams: Vec<f64>,
    dparam_terms: Vec<f64>,
}

impl Reference {
    /// Zero outputs (lse −∞, where no key is seen) of the problem's sizes.
    fn empty(p: &Problem) -> Reference {
        let dims = Dims::of(p);
        let (bn, t, h, hk, d, dv) =
            (dims.batch, dims.tokens, dims.heads, dims.kv_heads, dims.head_dim, dims.v_head_dim);
        Reference {
            o: vec![0.0; bn * t * h * dv],
            lse: vec![f64::NEG_INFINITY; bn * h * t],
            dq: vec![0.0; bn * t * h * d],
            dk: vec![0.0; bn * t * hk * d],
            dv: vec![0.0; bn * t * hk * dv],
            dsinks: vec![0.0; if p.sinks { h } else { 0 }],
            dsink_terms: vec![0.0; if p.sinks { bn * t * h } else { 0 }],
            dparams: vec![0.0; h * p.score.map_or(0, |s| s.params.len())],
            dparam_terms: vec![0.0; h * p.score.map_or(0, |s| s.params.len())],
        }
    }
}

pub fn full_attention(p: &Problem, inputs: &Canonical, backward: bool) -> Reference {
    full_attention_with_progress(p, inputs, backward, &|_, _| {})
}

/// [`full_attention`], calling `progress(done, total)` as (batch, KV head) groups finish.
///
/// Exact fp64 attention, written to be fast enough to check long runs: each group (a KV head and
/// its query heads, for one batch element) is one task on a thread of its own (as many as the
/// machine has), its rows loaded once in fp64; each query row visits only the contiguous range of
/// keys its mask allows; the backward recomputes each row's scores (nothing quadratic is kept);
/// dot products keep four partial sums so they vectorise. Sums run in row order within a task,
/// so the result does not depend on the thread count.
pub fn full_attention_with_progress(
    p: &Problem,
    inputs: &Canonical,
    backward: bool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Reference {
    let dims = Dims::of(p);
    let (bn, t, h, hk, d) = (dims.batch, dims.tokens, dims.heads, dims.kv_heads, dims.head_dim);
    // q and k rows are `d` wide, v, o and do rows `dv` (MLA's value head dim).
    let dv = dims.v_head_dim;
    let group = h / hk;
    let mask = mask_expr(p);
    // The keys of each query row; per query head when the mask reads the head (`h` is the
    // model's head: the inputs' first head plus the head within them).
    let per_head = mask.as_ref().is_some_and(|m| m.0.reads(attnc_compiler::expr::Var::H));
    let ranges: Vec<Vec<Keys>> = (0..if per_head { h } else { 1 })
        .map(|head| {
            let head = inputs.head_offset as i64 + head as i64;
            (0..t as u64).map(|i| allowed(p, mask.as_ref(), i, head)).collect()
        })
        .collect();
    let tasks: Vec<(usize, usize)> = (0..bn).flat_map(|b| (0..hk).map(move |kh| (b, kh))).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(tasks.len()).max(1);
    let results: Vec<Vec<(usize, GroupOut)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(b, kh)) = tasks.get(index) else { break };
                        mine.push((index, group_attention(p, inputs, backward, &ranges, b, kh)));
                        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        progress(finished, tasks.len());
                    }
                    mine
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a reference thread panicked")).collect()
    });
    let mut r = Reference::empty(p);
    for (index, g) in results.into_iter().flatten() {
        let (b, kh) = tasks[index];
        for gh in 0..group {
            let head = kh * group + gh;
            for i in 0..t {
                let row = (b * t + i) * h + head;
                r.o[row * dv..][..dv].copy_from_slice(&g.o[(gh * t + i) * dv..][..dv]);
                r.lse[(b * h + head) * t + i] = g.lse[gh * t + i];
                if backward {
                    r.dq[row * d..][..d].copy_from_slice(&g.dq[(gh * t + i) * d..][..d]);
                    if p.sinks {
                        let term = g.dsink_terms[gh * t + i];
                        r.dsink_terms[row] = term;
                        r.dsinks[head] += term;
                    }
                }
            }
        }
        if backward {
            let n = g.dparams.len() / group;
            for (i, (x, a)) in g.dparams.iter().zip(&g.dparam_terms).enumerate() {
                r.dparams[(kh * group + i / n) * n + i % n] += x;
                r.dparam_terms[(kh * group + i / n) * n + i % n] += a;
            }
            for j in 0..t {
                let at = (b * t + j) * hk + kh;
                r.dk[at * d..][..d].copy_from_slice(&g.dk[j * d..][..d]);
                r.dv[at * dv..][..dv].copy_from_slice(&g.dv[j * dv..][..dv]);
            }
        }
    }
    r
}

/// Loads one group's rows in fp64: rounded to the input dtype as the runtime rounds them, q and
/// k rotated at their positions.
fn load_group(p: &Problem, inputs: &Canonical, backward: bool, b: usize, kh: usize) -> Group {
    let dims = Dims::of(p);
    let (t, h, hk, d, dv) = (dims.tokens, dims.heads, dims.kv_heads, dims.head_dim, dims.v_head_dim);
    let group = h / hk;
    let load = |src: &[f32], heads: usize, head: usize, w: usize, rope: bool| -> Vec<f64> {
        let mut out = Vec::with_capacity(t * w);
        for tok in 0..t {
            let at = ((b * t + tok) * heads + head) * w;
            let start = out.len();
            out.extend(src[at..at + w].iter().map(|&v| round(p.dtype, v) as f64));
            if rope {
                rotate(&mut out[start..], p.position(tok as u64), p.rope.as_ref(), 1.0);
            }
        }
        out
    };
    let q = (0..group).flat_map(|gh| load(&inputs.q, h, kh * group + gh, d, true)).collect();
    let d_out = match (backward, inputs.d_out.as_ref()) {
        (true, Some(g)) => (0..group).flat_map(|gh| load(g, h, kh * group + gh, dv, false)).collect(),
        _ => Vec::new(),
    };
    Group { q, k: load(&inputs.k, hk, kh, d, true), v: load(&inputs.v, hk, kh, dv, false), d_out }
}

/// Forward (and backward) attention of one (batch, KV head) group: on x86-64 with AVX2 (where
/// the machine has it, detected at run time), the same code compiled for 256-bit vectors.
fn group_attention(
    p: &Problem,
    inputs: &Canonical,
    backward: bool,
    ranges: &[Vec<Keys>],
    b: usize,
    kh: usize,
) -> GroupOut {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the feature was detected on this machine just now.
        return unsafe { group_attention_avx2(p, inputs, backward, ranges, b, kh) };
    }
    group_attention_body(p, inputs, backward, ranges, b, kh)
}

/// [`group_attention_body`] compiled for AVX2 (no FMA: rounding as in the portable build).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn group_attention_avx2(
    p: &Problem,
    inputs: &Canonical,
    backward: bool,
    ranges: &[Vec<Keys>],
    b: usize,
    kh: usize,
) -> GroupOut {
    group_attention_body(p, inputs, backward, ranges, b, kh)
}

#[inline(always)]
fn group_attention_body(
    p: &Problem,
    inputs: &Canonical,
    backward: bool,
    by_head: &[Vec<Keys>],
    b: usize,
    kh: usize,
) -> GroupOut {
    let dims = Dims::of(p);
    let (t, h, hk, d, dv) = (dims.tokens, dims.heads, dims.kv_heads, dims.head_dim, dims.v_head_dim);
    let group = h / hk;
    let scale = p.scale();
    let g = load_group(p, inputs, backward, b, kh);
    let mut out = GroupOut {
        o: vec![0.0; group * t * dv],
        lse: vec![f64::NEG_INFINITY; group * t],
        dq: vec![0.0; if backward { group * t * d } else { 0 }],
        dk: vec![0.0; if backward { t * d } else { 0 }],
        dv: vec![0.0; if backward { t * dv } else { 0 }],
        dsink_terms: vec![0.0; if backward && p.sinks { group * t } else { 0 }],
        dparams: vec![0.0; if backward { group * p.score.map_or(0, |s| s.params.len()) } else { 0 }],
        dparam_terms: vec![0.0; if backward { group * p.score.map_or(0, |s| s.params.len()) } else { 0 }],
    };
    let n_params = p.score.map_or(0, |s| s.params.len());
    // A learned sink is one more term of each row's softmax denominator, exp(sink_h), with no
    // value: p_sink = exp(sink_h − lse).
    let sink = |head: usize| -> Option<f64> {
        p.sinks.then(|| inputs.sinks.as_ref().expect("a problem with sinks has them")[head] as f64)
    };
    // Scores, modified (`softcap`, `score = EXPR`) before the mask (masked pairs are never
    // scored): the modified score and the modification's slope there.
    let modify = ScoreF64::of(p, inputs);
    let raw = |qi: &[f64], j: usize| scale * dot(qi, &g.k[j * d..][..d]);
    let pair = |i: usize, j: usize| (p.position(i as u64), p.position(j as u64), p.doc_index(i as u64));
    let score = |qi: &[f64], head: usize, i: usize, j: usize| -> (f64, f64) { modify.at(raw(qi, j), pair(i, j), head) };
    // Blocked for the cache: ROWS query rows of one head share each tile of TILE keys (the tile's
    // k and v rows are read once per block, not once per row). Every row still visits exactly
    // its own range of keys, in key order.
    const ROWS: usize = 32;
    const TILE: usize = 64;
    // The rows' keys at query head `head`.
    let keys_of = |head: usize| &by_head[if by_head.len() > 1 { head } else { 0 }];
    let span = |ranges: &[Keys], rows: std::ops::Range<usize>| -> std::ops::Range<usize> {
        let live = || rows.clone().map(|i| ranges[i].hull()).filter(|r| !r.is_empty());
        match (live().map(|r| r.start).min(), live().map(|r| r.end).max()) {
            (Some(lo), Some(hi)) => lo..hi,
            _ => 0..0,
        }
    };
    let tiles = |keys: std::ops::Range<usize>| {
        (keys.start..keys.end).step_by(TILE).map(move |j0| j0..(j0 + TILE).min(keys.end))
    };
    // Each row's scores, then (in place) exp(s − max), at [row of the block][key − its start].
    let mut e = vec![0.0f64; ROWS * t];
    for gh in 0..group {
        let head = kh * group + gh;
        let ranges = keys_of(head);
        for i0 in (0..t).step_by(ROWS) {
            let rows = i0..(i0 + ROWS).min(t);
            let keys = span(ranges, rows.clone());
            for tile in tiles(keys.clone()) {
                for (r, i) in rows.clone().enumerate() {
                    let qi = &g.q[(gh * t + i) * d..][..d];
                    let start = ranges[i].hull().start;
                    for j in ranges[i].in_tile(&tile) {
                        e[r * t + j - start] = score(qi, head, i, j).0;
                    }
                }
            }
            let mut sums = [0.0f64; ROWS];
            for (r, i) in rows.clone().enumerate() {
                let row = &mut e[r * t..];
                let seen = ranges[i].offsets();
                let max = seen
                    .clone()
                    .flat_map(|o| row[o].iter().cloned())
                    .chain(sink(head))
                    .fold(f64::NEG_INFINITY, f64::max);
                if max == f64::NEG_INFINITY {
                    continue; // no key and no sink: the row attends to nothing (lse −∞, o 0)
                }
                // One exp per score: exp(s − max) replaces the score, then weighs the values.
                let mut sum = sink(head).map_or(0.0, |sv| (sv - max).exp());
                for o in seen {
                    for x in row[o].iter_mut() {
                        *x = (*x - max).exp();
                        sum += *x;
                    }
                }
                sums[r] = sum;
                out.lse[gh * t + i] = max + sum.ln();
            }
            let inverse = sums.map(|s| if s > 0.0 { 1.0 / s } else { 0.0 });
            for tile in tiles(keys) {
                for (r, i) in rows.clone().enumerate() {
                    let start = ranges[i].hull().start;
                    let o = &mut out.o[(gh * t + i) * dv..][..dv];
                    for j in ranges[i].in_tile(&tile) {
                        axpy(o, e[r * t + j - start] * inverse[r], &g.v[j * dv..][..dv]);
                    }
                }
            }
        }
    }
    if !backward {
        return out;
    }
    let mut dq = vec![0.0f64; ROWS * d];
    for gh in 0..group {
        let head = kh * group + gh;
        let ranges = keys_of(head);
        for i0 in (0..t).step_by(ROWS) {
            let rows = i0..(i0 + ROWS).min(t);
            let mut deltas = [0.0f64; ROWS];
            for (r, i) in rows.clone().enumerate() {
                let lse = out.lse[gh * t + i];
                let d_out = &g.d_out[(gh * t + i) * dv..][..dv];
                deltas[r] = dot(d_out, &out.o[(gh * t + i) * dv..][..dv]);
                if let Some(sv) = sink(head) {
                    // The sink's value is 0, so its dP is 0: d sink = p_sink · (0 − D).
                    out.dsink_terms[gh * t + i] = -(sv - lse).exp() * deltas[r];
                }
            }
            dq.fill(0.0);
            for tile in tiles(span(ranges, rows.clone())) {
                for (r, i) in rows.clone().enumerate() {
                    let lse = out.lse[gh * t + i];
                    let qi = &g.q[(gh * t + i) * d..][..d];
                    let d_out = &g.d_out[(gh * t + i) * dv..][..dv];
                    let dq = &mut dq[r * d..][..d];
                    for j in ranges[i].in_tile(&tile) {
                        // The modified score and the modification's derivative at this pair.
                        let (x, at) = (raw(qi, j), pair(i, j));
                        let (sj, dcap) = modify.at(x, at, head);
                        let pij = (sj - lse).exp();
                        let d_score = pij * (dot(d_out, &g.v[j * dv..][..dv]) - deltas[r]);
                        if n_params > 0 {
                            // Learned parameters: Σ dS·∂score/∂param, at the pair's raw score.
                            for (k, gk) in modify.grads(x, at, head).into_iter().enumerate() {
                                out.dparams[gh * n_params + k] += d_score * gk;
                                out.dparam_terms[gh * n_params + k] += (d_score * gk).abs();
                            }
                        }
                        let ds = d_score * dcap;
                        axpy(dq, scale * ds, &g.k[j * d..][..d]);
                        axpy(&mut out.dk[j * d..][..d], scale * ds, qi);
                        axpy(&mut out.dv[j * dv..][..dv], pij, d_out);
                    }
                }
            }
            for (r, i) in rows.enumerate() {
                let dq = &mut dq[r * d..][..d];
                rotate(dq, p.position(i as u64), p.rope.as_ref(), -1.0);
                out.dq[(gh * t + i) * d..][..d].copy_from_slice(dq);
            }
        }
    }
    for j in 0..t {
        rotate(&mut out.dk[j * d..][..d], p.position(j as u64), p.rope.as_ref(), -1.0);
    }
    out
}

/// One tensor's comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub tensor: &'static str,
    pub max_abs: f64,
    /// max |x − ref| / max |ref|.
    pub max_rel: f64,
    pub tolerance: f64,
    /// Non-finite values where the reference is finite (NaN, or ±inf that should not be).
    pub non_finite: usize,
}

impl Comparison {
    pub fn passed(&self) -> bool {
        self.max_abs <= self.tolerance && self.non_finite == 0
    }
}

/// The tolerance on max abs error (docs/numerics.md), by tensor and input dtype.
pub fn tolerance(tensor: &str, dtype: Dtype) -> f64 {
    match (dtype, tensor) {
        // Relative to the sum of its terms' magnitudes (`compare_dparams`).
        (Dtype::Fp32, "dparams") => 1e-6,
        (_, "dparams") => 1e-3,
        (Dtype::Fp32, "o") => 2e-5,
        (Dtype::Fp32, "lse") => 1e-5,
        (Dtype::Fp32, _) => 1e-4,
        (_, "o") => 2e-2,
        (_, "lse") => 2e-2,
        (_, _) => 5e-2,
    }
}

fn compare(tensor: &'static str, got: &[f32], want: &[f64], dtype: Dtype) -> Comparison {
    let mut max_abs = 0.0f64;
    let mut max_ref = 0.0f64;
    let mut non_finite = 0;
    for (&g, &w) in got.iter().zip(want) {
        let g = g as f64;
        if w == f64::NEG_INFINITY {
            // Fully masked rows: LSE must be −inf exactly.
            if g != f64::NEG_INFINITY {
                non_finite += 1;
            }
            continue;
        }
        if !g.is_finite() {
            non_finite += 1;
            continue;
        }
        max_abs = max_abs.max((g - w).abs());
        max_ref = max_ref.max(w.abs());
    }
    Comparison {
        tensor,
        max_abs,
        max_rel: if max_ref > 0.0 { max_abs / max_ref } else { max_abs },
        tolerance: tolerance(tensor, dtype),
        non_finite,
    }
}

/// Compares what a run produced with the reference; backward tensors only when `backward`.
pub fn check(p: &Problem, out: &ExecOutputs, reference: &Reference, backward: bool) -> Vec<Comparison> {
    let mut rows = vec![compare("o", &out.o, &reference.o, p.dtype), compare("lse", &out.lse, &reference.lse, p.dtype)];
    if backward {
        rows.push(compare("dq", &out.dq, &reference.dq, p.dtype));
        rows.push(compare("dk", &out.dk, &reference.dk, p.dtype));
        rows.push(compare("dv", &out.dv, &reference.dv, p.dtype));
        if p.sinks {
            // One term per row of each head: the gradients' tolerance grown as a sum of
            // independent errors, × √(batch · tokens).
            let mut c = compare("dsinks", &out.dsinks, &reference.dsinks, p.dtype);
            c.tolerance *= ((p.batch as u64 * p.tokens) as f64).sqrt();
            rows.push(c);
        }
        if !reference.dparams.is_empty() {
            rows.push(compare_dparams(p, &out.dparams, reference));
        }
    }
    rows
}

/// The learned parameters' gradients: each a sum over every pair of a head, of terms that
/// cancel (a row's dS sum to zero), so an error of each term relative to its size bounds the
/// sum's error relative to the sum of the terms' magnitudes: the tolerance is the gradients'
/// relative one (`tolerance("dparams", dtype)`) times the largest such sum.
fn compare_dparams(p: &Problem, got: &[f32], reference: &Reference) -> Comparison {
    let want = &reference.dparams;
    let mut c = compare("dparams", got, want, p.dtype);
    c.tolerance *= reference.dparam_terms.iter().fold(0.0f64, |m, &x| m.max(x));
    if got.len() != want.len() {
        c.non_finite += want.len().abs_diff(got.len()).max(1);
    }
    c
}

/// Keeps only the rows of `tokens` in both a run's outputs and the reference (every other row is
/// zeroed in both), so that a rank of a job of one process per rank checks what it stores.
pub fn restrict(p: &Problem, out: &mut ExecOutputs, reference: &mut Reference, tokens: &[u64]) {
    fn clear<T: Copy + Default>(x: &mut [T], at: usize, n: usize) {
        if let Some(rows) = x.get_mut(at..at + n) {
            rows.fill(T::default());
        }
    }
    let dims = Dims::of(p);
    let (b, t, h, hk, d, dv) = (dims.batch, dims.tokens, dims.heads, dims.kv_heads, dims.head_dim, dims.v_head_dim);
    // A rank's learned-parameter gradients are its share of the pairs (which pairs depends on the
    // strategy: rows under a ring, heads under an all-to-all), not a share of stored rows: they
    // are checked where every rank runs in one process, whose sum is the whole gradient.
    out.dparams.clear();
    reference.dparams.clear();
    let mut keep = vec![false; t];
    for &tok in tokens {
        keep[tok as usize] = true;
    }
    for bi in 0..b {
        for tok in (0..t).filter(|&tok| !keep[tok]) {
            // Each tensor's rows at its own width: q, k, dq, dk `d`; v, o, dv `dv`.
            let row = |heads: usize, w: usize| ((bi * t + tok) * heads * w, heads * w);
            // o, dq, dk, dv, in the run's outputs (fp32) and the reference (fp64).
            let spans = [row(h, dv), row(h, d), row(hk, d), row(hk, dv)];
            for (x, &(at, n)) in [&mut out.o, &mut out.dq, &mut out.dk, &mut out.dv].into_iter().zip(&spans) {
                clear(x, at, n);
            }
            for (x, &(at, n)) in
                [&mut reference.o, &mut reference.dq, &mut reference.dk, &mut reference.dv].into_iter().zip(&spans)
            {
                clear(x, at, n);
            }
            for head in 0..h {
                clear(&mut out.lse, (bi * h + head) * t + tok, 1);
                clear(&mut reference.lse, (bi * h + head) * t + tok, 1);
                // A rank's dsinks sum only the rows it stores.
                if let Some(term) = reference.dsink_terms.get_mut((bi * t + tok) * h + head) {
                    if let Some(total) = reference.dsinks.get_mut(head) {
                        *total -= *term;
                    }
                    *term = 0.0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnc_compiler::ir::Doc;

    /// The definition, pair by pair: which keys a query sees.
    fn sees(p: &Problem, i: u64, j: u64) -> bool {
        let (di, dj) = (p.doc_of(i), p.doc_of(j));
        if di != dj || i >= di.start + di.len || j >= dj.start + dj.len {
            return false;
        }
        if !p.causal {
            return true;
        }
        let (pi, pj) = (i - di.start, j - di.start);
        pj <= pi && p.window.is_none_or(|w| pi - pj < w) && p.chunk.is_none_or(|c| pi / c == pj / c)
    }

    /// Attention as written down, every pair of every row, nothing shared or reordered: the
    /// oracle of the fast reference.
    fn naive(p: &Problem, inputs: &Canonical) -> Reference {
        let dims = Dims::of(p);
        let (bn, t, h, hk, d, dv) =
            (dims.batch, dims.tokens, dims.heads, dims.kv_heads, dims.head_dim, dims.v_head_dim);
        let group = h / hk;
        let scale = p.scale();
        let load = |src: &[f32], heads: usize, b: usize, tok: usize, head: usize, w: usize, rope: bool| {
            let at = ((b * t + tok) * heads + head) * w;
            let mut x: Vec<f64> = src[at..at + w].iter().map(|&v| round(p.dtype, v) as f64).collect();
            if rope {
                rotate(&mut x, p.position(tok as u64), p.rope.as_ref(), 1.0);
            }
            x
        };
        let mut r = Reference::empty(p);
        let modify = ScoreF64::of(p, inputs);
        let sink = |head: usize| p.sinks.then(|| inputs.sinks.as_ref().unwrap()[head] as f64);
        let d_out = inputs.d_out.as_ref().unwrap();
        for b in 0..bn {
            for head in 0..h {
                let kh = head / group;
                for i in 0..t {
                    let qi = load(&inputs.q, h, b, i, head, d, true);
                    let keys: Vec<usize> = (0..t).filter(|&j| sees(p, i as u64, j as u64)).collect();
                    if keys.is_empty() && sink(head).is_none() {
                        continue;
                    }
                    let raws: Vec<f64> = keys
                        .iter()
                        .map(|&j| {
                            let kj = load(&inputs.k, hk, b, j, kh, d, true);
                            scale * qi.iter().zip(&kj).map(|(x, y)| x * y).sum::<f64>()
                        })
                        .collect();
                    let at = |j: usize| (p.position(i as u64), p.position(j as u64), p.doc_index(i as u64));
                    let s: Vec<f64> = keys.iter().zip(&raws).map(|(&j, &x)| modify.at(x, at(j), head).0).collect();
                    let max = s.iter().cloned().chain(sink(head)).fold(f64::NEG_INFINITY, f64::max);
                    let lse = max + s.iter().cloned().chain(sink(head)).map(|x| (x - max).exp()).sum::<f64>().ln();
                    r.lse[(b * h + head) * t + i] = lse;
                    let mut o = vec![0.0; dv];
                    for (&j, &sj) in keys.iter().zip(&s) {
                        let vj = load(&inputs.v, hk, b, j, kh, dv, false);
                        for e in 0..dv {
                            o[e] += (sj - lse).exp() * vj[e];
                        }
                    }
                    let doi = load(d_out, h, b, i, head, dv, false);
                    let delta: f64 = doi.iter().zip(&o).map(|(x, y)| x * y).sum();
                    if let Some(sv) = sink(head) {
                        let term = -(sv - lse).exp() * delta;
                        r.dsink_terms[(b * t + i) * h + head] = term;
                        r.dsinks[head] += term;
                    }
                    let mut dq = vec![0.0; d];
                    for ((&j, &sj), &raw) in keys.iter().zip(&s).zip(&raws) {
                        let (kj, vj) =
                            (load(&inputs.k, hk, b, j, kh, d, true), load(&inputs.v, hk, b, j, kh, dv, false));
                        let pij = (sj - lse).exp();
                        let dcap = modify.at(raw, at(j), head).1;
                        let ds = pij * (doi.iter().zip(&vj).map(|(x, y)| x * y).sum::<f64>() - delta) * dcap;
                        for e in 0..d {
                            dq[e] += scale * ds * kj[e];
                            r.dk[((b * t + j) * hk + kh) * d + e] += scale * ds * qi[e];
                        }
                        let dvj = &mut r.dv[((b * t + j) * hk + kh) * dv..][..dv];
                        for (y, x) in dvj.iter_mut().zip(&doi) {
                            *y += pij * x;
                        }
                    }
                    rotate(&mut dq, p.position(i as u64), p.rope.as_ref(), -1.0);
                    r.dq[((b * t + i) * h + head) * d..][..d].copy_from_slice(&dq);
                    r.o[((b * t + i) * h + head) * dv..][..dv].copy_from_slice(&o);
                }
            }
            for j in 0..t {
                for kh in 0..hk {
                    let at = ((b * t + j) * hk + kh) * d;
                    rotate(&mut r.dk[at..at + d], p.position(j as u64), p.rope.as_ref(), -1.0);
                }
            }
        }
        r
    }

    fn problem(docs: &[(u64, u64)], causal: bool, window: Option<u64>, chunk: Option<u64>) -> Problem {
        let mut start = 0;
        let docs: Vec<Doc> = docs
            .iter()
            .map(|&(padded, len)| {
                let d = Doc { start, end: start + padded, len };
                start += padded;
                d
            })
            .collect();
        Problem {
            tokens: start,
            thd: docs.len() > 1,
            docs,
            causal,
            window,
            chunk,
            regions: None,
            head_masks: None,
            heads: 4,
            kv_heads: 2,
            head_dim: 8,
            v_head_dim: None,
            batch: 2,
            dtype: Dtype::Fp32,
            rope: Some(attnc_compiler::spec::Rope {
                theta: 10000.0,
                dims: 8,
                offset: 0,
                fraction: None,
                scaling: None,
            }),
            softmax_scale: None,
            score: None,
            sinks: false,
        }
    }

    #[test]
    fn the_fast_reference_is_the_definition() {
        let cases = [
            problem(&[(24, 24)], true, None, None),
            problem(&[(24, 24)], false, None, None),
            problem(&[(24, 24)], true, Some(5), None),
            problem(&[(24, 24)], true, None, Some(7)),
            problem(&[(8, 5), (4, 0), (12, 12)], true, Some(3), None),
            problem(&[(8, 5), (12, 9)], false, None, None),
            // Longer than a block of rows (32) and a tile of keys (64): blocks and tiles that
            // cut windows, chunks, sequences and padding.
            problem(&[(150, 150)], true, None, None),
            problem(&[(150, 150)], true, Some(40), None),
            problem(&[(150, 150)], false, None, Some(45)),
            problem(&[(70, 61), (3, 0), (90, 90)], true, Some(33), None),
            Problem { sinks: true, ..problem(&[(70, 70), (66, 50)], false, None, None) },
            Problem {
                score: Some(attnc_compiler::expr::score::softcap(1.5)),
                sinks: true,
                v_head_dim: Some(16),
                rope: Some(attnc_compiler::spec::Rope {
                    theta: 10000.0,
                    dims: 4,
                    offset: 4,
                    fraction: None,
                    scaling: Some(attnc_compiler::spec::RopeScaling::Yarn {
                        factor: 8.0,
                        original: 4,
                        beta_fast: 32.0,
                        beta_slow: 1.0,
                        attention_factor: None,
                        mscale: None,
                        mscale_all_dim: None,
                        truncate: true,
                    }),
                }),
                softmax_scale: Some(0.3),
                ..problem(&[(20, 17)], true, None, Some(6))
            },
        ];
        for p in &cases {
            let inputs = crate::tensor::random(p, 3, true);
            let (fast, slow) = (full_attention(p, &inputs, true), naive(p, &inputs));
            for (name, a, b) in [
                ("o", &fast.o, &slow.o),
                ("lse", &fast.lse, &slow.lse),
                ("dq", &fast.dq, &slow.dq),
                ("dk", &fast.dk, &slow.dk),
                ("dv", &fast.dv, &slow.dv),
                ("dsinks", &fast.dsinks, &slow.dsinks),
                ("dsink_terms", &fast.dsink_terms, &slow.dsink_terms),
            ] {
                assert_eq!(a.len(), b.len(), "{name} {p:?}");
                for (x, y) in a.iter().zip(b) {
                    let same = (x == y) || (x - y).abs() <= 1e-12 * (1.0 + y.abs());
                    assert!(same, "{name}: {x} vs {y} in {p:?}");
                }
            }
        }
    }
}
