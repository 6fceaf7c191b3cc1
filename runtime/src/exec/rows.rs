//! The host side of the executor: the run's inputs and outputs in canonical layout, run options
//! and faults, token ↔ row lookups, and the rows a load prepares (dtype rounding, RoPE) and a
//! store scatters back (inverse RoPE on gradients).

use std::time::Duration;

use attnc_compiler::ir::{BufKind, Input, Output, TokenMap};

use crate::tensor::round;

/// A host buffer's shape: `[batch][rows][heads][elems]`, fp32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub batch: usize,
    pub rows: usize,
    pub heads: usize,
    pub elems: usize,
}

impl Shape {
    pub fn at(&self, b: usize, row: usize, head: usize) -> usize {
        ((b * self.rows + row) * self.heads + head) * self.elems
    }

    pub fn len(&self) -> usize {
        self.batch * self.rows * self.heads * self.elems
    }
}

/// Which tokens a run's canonical tensors hold, in which order: the whole sequence (`None` in
/// [`ExecInputs::extent`]: row = token, what `attnc run` lays out), or the rows of one rank's
/// shard (the Python package hands over a rank's local tensors, never the whole sequence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extent {
    /// (first token, first row, length), sorted by token.
    runs: Vec<(u64, usize, usize)>,
    rows: usize,
}

impl Extent {
    /// Row i holds token `tokens[i]`.
    pub fn of_tokens(tokens: &[u64]) -> Extent {
        let mut runs: Vec<(u64, usize, usize)> = Vec::new();
        for (row, &token) in tokens.iter().enumerate() {
            match runs.last_mut() {
                Some((t0, r0, n)) if *t0 + *n as u64 == token && *r0 + *n == row => *n += 1,
                _ => runs.push((token, row, 1)),
            }
        }
        runs.sort();
        Extent { runs, rows: tokens.len() }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The row of `token`, if the extent holds it.
    pub fn row(&self, token: u64) -> Option<usize> {
        let i = self.runs.partition_point(|r| r.0 <= token).checked_sub(1)?;
        let (t0, r0, n) = self.runs[i];
        (token < t0 + n as u64).then(|| r0 + (token - t0) as usize)
    }
}

/// Rows of the canonical tensors and the row of a token in them.
pub(crate) fn rows_and_row(extent: Option<&Extent>, tokens: usize, token: u64) -> Result<(usize, usize), String> {
    match extent {
        None => Ok((tokens, token as usize)),
        Some(e) => e
            .row(token)
            .map(|r| (e.rows, r))
            .ok_or_else(|| format!("token {token} is not among the {} rows this rank's tensors hold", e.rows)),
    }
}

/// Canonical inputs of one plan run: `[b][tokens][heads][d]`; lse `[b][heads][tokens]` — over
/// the whole sequence, or over the rows of `extent`.
pub struct ExecInputs<'a> {
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    /// Backward only: the forward output and LSE, and the output gradient.
    pub o: Option<&'a [f32]>,
    pub lse: Option<&'a [f32]>,
    pub d_out: Option<&'a [f32]>,
    /// Learned sinks, one logit per query head of the slice, when the problem has them.
    pub sinks: Option<&'a [f32]>,
    /// The score's learned parameters (`params = [...]`), `[heads of the slice][params]`, when
    /// the model declares them.
    pub params: Option<&'a [f32]>,
    /// The model's query head of the slice's first head (tensor parallelism: the TP rank times
    /// the heads per rank; 0 without it), which a score that reads `h` counts from.
    pub head_offset: u32,
    /// The rows these tensors (and the outputs) hold: `None` for the whole sequence.
    pub extent: Option<&'a Extent>,
}

/// Canonical outputs; what the plan stores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExecOutputs {
    pub o: Vec<f32>,
    pub lse: Vec<f32>,
    pub dq: Vec<f32>,
    pub dk: Vec<f32>,
    pub dv: Vec<f32>,
    /// With learned sinks: the gradient of each head's sink, summed over the rows stored here.
    pub dsinks: Vec<f32>,
    /// With learned score parameters: their gradients, `[heads of the slice][params]`, summed
    /// over the pairs the ranks run here computed (in one process with every rank, the whole
    /// gradient; one rank per process, its share, which a sum over the CP group completes, as
    /// Megatron's gradient all-reduce over the data- and context-parallel ranks does).
    pub dparams: Vec<f32>,
}

/// Deliberate faults, for the tests of fault handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The rank's first attention kernel panics.
    PanicInKernel { rank: u32 },
    /// The rank's communication thread stops responding before its first transfer.
    HangBeforeComm { rank: u32 },
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// How long any wait may last before the watchdog fails the run.
    pub timeout: Duration,
    pub fault: Option<Fault>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { timeout: Duration::from_secs(60), fault: None }
    }
}

/// When an op ran, relative to the start of the run: the simulator's span type, so measured
/// and predicted timelines share summaries and traces.
pub use attnc_compiler::cost::timeline::Span;

/// Elements per row and head of a buffer kind in the CPU layout (all fp32), for query/key head
/// dim `d` and value head dim `dv`: kv rows `[k(d), v(dv)]`, query bundles `[q(d), o(dv),
/// do(dv), lse]`, outputs `[o(dv), lse]`.
pub fn elems(kind: BufKind, d: usize, dv: usize) -> usize {
    match kind {
        BufKind::Q | BufKind::DqAcc => d,
        BufKind::Kv | BufKind::DkvAcc => d + dv,
        BufKind::QBundle => d + 2 * dv + 1,
        BufKind::OPart | BufKind::OAcc | BufKind::Out => dv + 1,
    }
}

/// Token → row lookup over a buffer's declared tokens.
pub(crate) struct RowIndex {
    /// (first token, first row, length), sorted by token.
    runs: Vec<(u64, usize, usize)>,
}

impl RowIndex {
    pub(crate) fn new(map: &TokenMap) -> RowIndex {
        let mut runs = Vec::new();
        let mut row = 0;
        for r in &map.runs {
            runs.push((r.start, row, r.len() as usize));
            row += r.len() as usize;
        }
        runs.sort();
        RowIndex { runs }
    }

    pub(crate) fn row(&self, token: u64) -> Option<usize> {
        let i = self.runs.partition_point(|r| r.0 <= token).checked_sub(1)?;
        let (t0, r0, n) = self.runs[i];
        (token < t0 + n as u64).then(|| r0 + (token - t0) as usize)
    }
}

/// The tokens of a buffer's rows, in row order.
pub(crate) fn tokens_in_order(map: &TokenMap) -> Vec<u64> {
    map.runs.iter().flat_map(|r| r.start..r.end).collect()
}

/// RoPE's inverse frequencies (scaling included, `attnc_compiler::rope`) and attention factor,
/// computed once for all the rows of a load.
pub(crate) struct Rope {
    freqs: Vec<f64>,
    factor: f64,
}

impl Rope {
    pub(crate) fn new(rope: Option<&attnc_compiler::spec::Rope>) -> Option<Rope> {
        rope.map(|r| Rope { freqs: r.inv_freqs(), factor: r.attention_factor() })
    }

    /// (cos, sin) of `sign` × each angle at `position`, times the attention factor.
    fn angles(&self, position: u64, sign: f64) -> Vec<(f64, f64)> {
        attnc_compiler::spec::Rope::angles(&self.freqs, self.factor, position, sign).collect()
    }

    /// Rotates the halves of `x` by the angles (rotate-half convention).
    fn rotate(x: &mut [f32], angles: &[(f64, f64)]) {
        let half = x.len() / 2;
        for (i, &(c, s)) in angles.iter().enumerate() {
            let (a, b) = (x[i] as f64, x[i + half] as f64);
            x[i] = (a * c - b * s) as f32;
            x[i + half] = (b * c + a * s) as f32;
        }
    }
}

/// A load's rows as the planes of its buffer (`device::planes` order), each `[b][rows][heads][w]`
/// in fp32: inputs rounded to the input dtype, q and k rotated at each row's position, and for
/// the backward bundle the LSE and D = rowsum(dO ∘ O).
pub(crate) fn load_planes(
    p: &attnc_compiler::ir::Problem,
    inputs: &ExecInputs<'_>,
    input: Input,
    runs: &[attnc_compiler::ir::Run],
    heads: usize,
) -> Result<Vec<Vec<f32>>, String> {
    let (d, dv, batch) = (p.head_dim as usize, p.v_dim() as usize, p.batch as usize);
    let rows: usize = runs.iter().map(|r| r.len as usize).sum();
    let n = batch * rows * heads;
    let (src_heads, first) = match input {
        Input::Q | Input::QBundle => (p.heads as usize, inputs.q),
        Input::Kv => (p.kv_heads as usize, inputs.k),
    };
    let mut planes = vec![vec![0.0f32; n * d]];
    match input {
        Input::Q => {}
        Input::Kv => planes.push(vec![0.0; n * dv]),
        Input::QBundle => planes.extend([vec![0.0; n * dv], vec![0.0; n], vec![0.0; n]]),
    }
    let rot = p.rope_range();
    let rope = Rope::new(p.rope.as_ref());
    let mut row = 0;
    for run in runs {
        for i in 0..run.len {
            let (position, (t, token)) =
                (run.position + i, rows_and_row(inputs.extent, p.tokens as usize, run.token + i)?);
            let angles = rope.as_ref().map(|r| r.angles(position, 1.0));
            for b in 0..batch {
                for head in 0..heads {
                    let at = (b * rows + row) * heads + head;
                    // q and k rows are `d` wide, v, o and do rows `dv`.
                    let row_of = |w: usize| ((b * t + token) * src_heads + head) * w;
                    let (src, src_v) = (row_of(d), row_of(dv));
                    let dst = &mut planes[0][at * d..(at + 1) * d];
                    copy_round(dst, &first[src..src + d], p.dtype);
                    if let Some(angles) = &angles {
                        Rope::rotate(&mut dst[rot.clone()], angles);
                    }
                    match input {
                        Input::Q => {}
                        Input::Kv => {
                            copy_round(&mut planes[1][at * dv..(at + 1) * dv], &inputs.v[src_v..src_v + dv], p.dtype)
                        }
                        Input::QBundle => {
                            let o = &inputs.o.expect("backward has o")[src_v..src_v + dv];
                            let d_out = &inputs.d_out.expect("backward has do")[src_v..src_v + dv];
                            let dst = &mut planes[1][at * dv..(at + 1) * dv];
                            copy_round(dst, d_out, p.dtype);
                            planes[2][at] =
                                inputs.lse.expect("backward has lse")[(b * p.heads as usize + head) * t + token];
                            planes[3][at] = o.iter().zip(&planes[1][at * dv..(at + 1) * dv]).map(|(x, y)| x * y).sum();
                        }
                    }
                }
            }
            row += 1;
        }
    }
    Ok(planes)
}

/// Writes a store's rows (CPU layout, `data` of `shape`) into the run's outputs: o and lse, or dq,
/// dk and dv with the inverse RoPE at each row's position; at the rows of `inputs.extent`.
pub(crate) fn store_rows(
    p: &attnc_compiler::ir::Problem,
    out: &mut ExecOutputs,
    output: Output,
    (data, shape): (&[f32], Shape),
    tokens: &[u64],
    inputs: &ExecInputs<'_>,
    sinks: Option<&[f32]>,
) -> Result<(), String> {
    let extent = inputs.extent;
    let (d, dv) = (p.head_dim as usize, p.v_dim() as usize);
    let rot = p.rope_range();
    let rotation = Rope::new(p.rope.as_ref());
    for b in 0..shape.batch {
        for (row, &global) in tokens.iter().enumerate() {
            let position = p.position(global);
            let (t, token) = rows_and_row(extent, p.tokens as usize, global)?;
            for head in 0..shape.heads {
                let at = shape.at(b, row, head);
                // Rows of q, k (and their gradients) are `d` wide; v, o, do and dv rows `dv`.
                let row_of = |w: usize| ((b * t + token) * shape.heads + head) * w;
                let (dst, dst_v) = (row_of(d), row_of(dv));
                match output {
                    Output::O => {
                        let (dst, lse_at) = (dst_v, (b * shape.heads + head) * t + token);
                        out.o[dst..dst + dv].copy_from_slice(&data[at..at + dv]);
                        out.lse[lse_at] = data[at + dv];
                        if let Some(sinks) = sinks {
                            // The sink joins the row's softmax denominator, once: LSE' = log(e^LSE
                            // + e^sink), O' = O·e^(LSE − LSE'); a row that saw no key keeps O = 0.
                            let (lse, s) = (data[at + dv] as f64, sinks[head] as f64);
                            let m = lse.max(s);
                            let lse2 = m + ((lse - m).exp() + (s - m).exp()).ln();
                            let f = (lse - lse2).exp();
                            for x in &mut out.o[dst..dst + dv] {
                                *x = crate::tensor::round(p.dtype, (*x as f64 * f) as f32);
                            }
                            out.lse[lse_at] = lse2 as f32;
                        }
                    }
                    Output::Dq => {
                        out.dq[dst..dst + d].copy_from_slice(&data[at..at + d]);
                        if let Some(sinks) = sinks {
                            // d sink_h = −Σ_rows p_sink · D, with p_sink = e^(sink − LSE') and
                            // D = rowsum(dO ∘ O') (the sink's value is 0, so its dP is 0).
                            let (o, d_out) =
                                (inputs.o.expect("backward has o"), inputs.d_out.expect("backward has do"));
                            let lse = inputs.lse.expect("backward has lse")[(b * shape.heads + head) * t + token];
                            let delta: f64 = o[dst_v..dst_v + dv]
                                .iter()
                                .zip(&d_out[dst_v..dst_v + dv])
                                .map(|(a, g)| *a as f64 * *g as f64)
                                .sum();
                            out.dsinks[head] -= ((sinks[head] as f64 - lse as f64).exp() * delta) as f32;
                        }
                        rope(&mut out.dq[dst + rot.start..dst + rot.end], position, rotation.as_ref(), -1.0);
                    }
                    Output::Dkv => {
                        out.dk[dst..dst + d].copy_from_slice(&data[at..at + d]);
                        rope(&mut out.dk[dst + rot.start..dst + rot.end], position, rotation.as_ref(), -1.0);
                        out.dv[dst_v..dst_v + dv].copy_from_slice(&data[at + d..at + d + dv]);
                    }
                }
            }
        }
    }
    Ok(())
}

fn copy_round(dst: &mut [f32], src: &[f32], dtype: attnc_compiler::spec::Dtype) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = round(dtype, *s);
    }
}

/// Rotates the halves of `x` (a head's rotated dims, `Problem::rope_range`) by `sign` × the RoPE
/// angles of `position`, scaled by the attention factor: sign −1 is the gradient's map, the
/// transpose of the forward one.
pub(crate) fn rope(x: &mut [f32], position: u64, rope: Option<&Rope>, sign: f64) {
    if let Some(r) = rope {
        Rope::rotate(x, &r.angles(position, sign));
    }
}
