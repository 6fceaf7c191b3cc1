//! Kernel specs and the tile-level kernel IR: what one attention kernel computes, and the steps
//! of its algorithm, described once for every backend.
//!
//! A kernel works on one query head against one KV head, on one run of query rows and one run of
//! KV rows of the same sequence (the runtime splits blocks into such runs, so documents and
//! padding never reach a kernel). Masking inside a run pair is by positions within the sequence: causal,
//! optionally windowed. The ABI ([`FwdArgs`], [`BwdArgs`]) is shared by the interpreter
//! (`interp.rs`, the oracle every backend is tested against) and the backends (`back/`).

pub mod interp;
pub mod launch;

use serde::{Deserialize, Serialize};

/// A kernel's mask is a band of diagonals (`band`), the form regional masks' cells take too.
pub use crate::band::Band;
use crate::ir::Plan;
use crate::spec::{Dtype, Score};

/// The head dims (q·k and v) attnc's GPU kernels (sm_80, sm_90a) take: multiples of 64 up to 256.
pub fn gpu_head_dim_supported(dim: u32) -> bool {
    dim > 0 && dim % 64 == 0 && dim <= 256
}

/// [`gpu_head_dim_supported`]'s dims, as messages list them.
pub const GPU_HEAD_DIMS: &str = "64, 128, 192 or 256";

/// The input dtypes attnc's GPU kernels take.
pub fn gpu_dtype_supported(dtype: Dtype) -> bool {
    matches!(dtype, Dtype::Bf16 | Dtype::Fp16)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KernelKind {
    /// O and LSE of query rows by online softmax over one run of keys: the kernel keeps the
    /// softmax state of a block of query rows in its scratch (a CTA's registers on a GPU) and
    /// writes O and LSE of every row, as the GPU kernels do.
    Forward,
    /// dQ, dK, dV of a run pair from q, o, do, lse and D = rowsum(dO ∘ O).
    Backward,
}

/// Score modifications: the kernels lower `spec::Score`'s code through `expr::score::Lower`; tanh
/// as they all compute it.
pub use crate::expr::score::{TANH_CLAMP, log_by_bits, tanh_by_exp};

/// What one generated kernel computes. Backends specialise on every field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KernelSpec {
    pub kind: KernelKind,
    /// The query/key head dim.
    pub head_dim: u32,
    /// The value/output head dim when it differs from `head_dim` (MLA); `None` when equal, so
    /// that one kernel has one spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v_head_dim: Option<u32>,
    /// Input dtype; the runtime rounds inputs on load, kernels accumulate in fp32.
    pub dtype: Dtype,
    /// Query heads per KV head (the runtime maps heads; the kernel serves one pair).
    pub group: u32,
    pub mask: Band,
    /// The score modification (`softcap = X`, `score = EXPR`), if the model has one.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::expr::score::deserialize")]
    pub score: Option<&'static Score>,
    /// Query rows per register tile.
    pub tile_q: u32,
    /// KV columns per tile.
    pub tile_kv: u32,
}

impl KernelSpec {
    pub fn name(&self) -> String {
        let kind = match self.kind {
            KernelKind::Forward => "fwd",
            KernelKind::Backward => "bwd",
        };
        let mask = self.mask.name();
        // `cap30p5` for a soft-cap of 30.5, `score` and a hash of the steps for other scores:
        // kernel names are identifiers.
        let cap = self.score.map(|s| match crate::expr::score::cap_of(s) {
            Some(cap) => format!("_cap{cap}").replace('.', "p"),
            None => format!("_score{:08x}", crate::expr::score::fingerprint(s)),
        });
        let cap = cap.unwrap_or_default();
        let v = self.v_head_dim.map(|v| format!("v{v}")).unwrap_or_default();
        format!(
            "attn_{kind}_d{}{v}_{mask}{cap}_{:?}_g{}_t{}x{}",
            self.head_dim, self.dtype, self.group, self.tile_q, self.tile_kv
        )
        .to_lowercase()
    }

    /// The value/output head dim: `v_head_dim`, else `head_dim`.
    pub fn dv(&self) -> u32 {
        self.v_head_dim.unwrap_or(self.head_dim)
    }

    /// Floats of scratch memory the caller provides per call: Kᵀ of a KV tile, P of a query
    /// tile, and the forward's softmax state of one query block (`STATE_ROWS` rows of
    /// `[m, l, acc(v_head_dim)]`). Its contents on entry do not matter.
    pub fn scratch_floats(&self) -> usize {
        (self.head_dim * self.tile_kv + self.tile_q * self.tile_kv) as usize
            + STATE_ROWS as usize * (self.dv() as usize + 2)
    }

    /// Where the softmax state starts in the scratch, in floats.
    pub fn state_offset(&self) -> usize {
        (self.head_dim * self.tile_kv + self.tile_q * self.tile_kv) as usize
    }
}

pub const TILE_Q: u32 = 2;
/// Query rows per cache block of the forward kernel (a multiple of `TILE_Q`).
pub const BLOCK_Q: i64 = 256;
/// Query rows per block of LLVM's 512-bit host forward.
pub const BLOCK_Q_WIDE: i64 = 4 * BLOCK_Q;
/// Rows of softmax state in the scratch: the largest query block of any host forward.
pub const STATE_ROWS: i64 = BLOCK_Q_WIDE;
pub const TILE_KV: u32 = 16;

/// Every distinct kernel a plan launches, in first-use order: the specs of its attention ops'
/// launch tables (`launch::op_tables`), which every device runs.
pub fn specs_of(plan: &Plan) -> Vec<KernelSpec> {
    let mut out: Vec<KernelSpec> = Vec::new();
    for id in plan.op_ids() {
        for t in launch::op_tables(plan, id).unwrap_or_default() {
            if !out.contains(&t.spec) {
                out.push(t.spec);
            }
        }
    }
    out
}

/// Every kernel a plan set needs, in first-use order: what ahead-of-time compilation builds. The
/// plans' launch tables decide ([`specs_of`]); for packed (THD) plans, whose run pairs fall where
/// each batch's lengths put them, every mask a pair of the problem can need
/// ([`launch::masks`]) is built for each kernel kind and head group the tables use.
pub fn specs_of_plans<'a>(plans: impl IntoIterator<Item = &'a crate::ir::Plan>) -> Vec<KernelSpec> {
    let mut out: Vec<KernelSpec> = Vec::new();
    for plan in plans {
        for spec in specs_of(plan) {
            let masks = if plan.problem.thd { launch::masks(&plan.problem) } else { vec![spec.mask] };
            for mask in masks {
                let s = KernelSpec { mask, ..spec };
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// Forward kernel arguments: one query head's run of `n_q` rows against one KV head's run of
/// `n_kv` rows of the same sequence. The kernel writes O and LSE of all `n_q` rows: O = acc / l
/// and LSE = m + ln l, or O = 0 and LSE = −inf for a row that sees no key.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FwdArgs {
    /// Queries, rows of `head_dim`, contiguous: `n_q` rounded up to `tile_q` of them (the
    /// padding rows are computed on and never written out; any finite values).
    pub q: *const f32,
    /// Keys; values (`v_head_dim` of them) are at `k + head_dim` in each row.
    pub k: *const f32,
    /// O rows (`v_head_dim`), `o_stride` floats apart.
    pub o: *mut f32,
    /// `spec.scratch_floats()` floats, the kernel's own (the softmax state lives there).
    pub scratch: *mut f32,
    /// Floats between consecutive K (and V) rows.
    pub kv_stride: i64,
    pub n_q: i64,
    pub n_kv: i64,
    /// Positions of the first query and key row within their (same) sequence, from 0.
    pub q_pos: i64,
    pub kv_pos: i64,
    pub scale: f32,
    /// The score's per-head values of this head (`Score::head_values`); read only by kernels
    /// whose score reads the head (null otherwise).
    pub head_values: *const f32,
    /// LSE of each row, `lse_stride` floats apart.
    pub lse: *mut f32,
    pub o_stride: i64,
    pub lse_stride: i64,
}

/// The `n` per-head values behind a kernel argument.
///
/// # Safety
/// With `n > 0`, `p` points at `n` floats that outlive the returned slice.
pub unsafe fn head_values<'a>(p: *const f32, n: usize) -> &'a [f32] {
    if n == 0 {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

/// Backward kernel arguments. Query rows hold `[q (head_dim), o, do (v_head_dim each), lse]`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BwdArgs {
    pub q: *const f32,
    pub k: *const f32,
    /// dQ rows (`head_dim`), accumulated.
    pub dq: *mut f32,
    /// dK and dV rows (`head_dim + v_head_dim`: dV at `dkv + head_dim`), accumulated.
    pub dkv: *mut f32,
    /// D = rowsum(dO ∘ O) per query row, contiguous.
    pub delta: *const f32,
    pub q_stride: i64,
    pub kv_stride: i64,
    pub dq_stride: i64,
    pub dkv_stride: i64,
    pub n_q: i64,
    pub n_kv: i64,
    pub q_pos: i64,
    pub kv_pos: i64,
    pub scale: f32,
    /// As in [`FwdArgs`].
    pub head_values: *const f32,
    /// The gradients of the model's learned parameters for this head (`Score::params`, one float
    /// each), accumulated: Σ dS·∂score/∂param over the pairs the call computes. Written only by
    /// kernels whose score has learned parameters (null otherwise).
    pub dparams: *mut f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_offsets_match_the_structs() {
        assert_eq!(std::mem::offset_of!(FwdArgs, kv_stride) as i32, offsets::FWD_KV_STRIDE);
        assert_eq!(std::mem::offset_of!(FwdArgs, scale) as i32, offsets::FWD_SCALE);
        assert_eq!(std::mem::offset_of!(FwdArgs, kv_pos) as i32, offsets::FWD_KV_POS);
        assert_eq!(std::mem::offset_of!(BwdArgs, delta) as i32, offsets::BWD_DELTA);
        assert_eq!(std::mem::offset_of!(BwdArgs, kv_pos) as i32, offsets::BWD_KV_POS);
        assert_eq!(std::mem::offset_of!(BwdArgs, scale) as i32, offsets::BWD_SCALE);
        assert_eq!(std::mem::offset_of!(FwdArgs, head_values) as i32, offsets::FWD_HEAD_VALUES);
        assert_eq!(std::mem::offset_of!(FwdArgs, o) as i32, offsets::FWD_O);
        assert_eq!(std::mem::offset_of!(FwdArgs, lse) as i32, offsets::FWD_LSE);
        assert_eq!(std::mem::offset_of!(FwdArgs, o_stride) as i32, offsets::FWD_O_STRIDE);
        assert_eq!(std::mem::offset_of!(FwdArgs, lse_stride) as i32, offsets::FWD_LSE_STRIDE);
        assert_eq!(std::mem::offset_of!(BwdArgs, head_values) as i32, offsets::BWD_HEAD_VALUES);
        assert_eq!(std::mem::offset_of!(BwdArgs, dparams) as i32, offsets::BWD_DPARAMS);
    }

    /// Every band with sides in −6..6 (or open), against brute force over small runs: the KV
    /// and query bounds hold every visible pair, `needs_mask` is false only where every pair is
    /// visible, and `on` says hidden only where none is and full only where all are.
    #[test]
    fn band_bounds_hold_every_visible_pair() {
        let sides = || std::iter::once(None).chain((-6..6).map(Some));
        for lo in sides() {
            for end in sides() {
                let m = Band { lo, end };
                for (q_pos, n_q, kv_pos, n_kv) in [(0, 5, 0, 5), (7, 4, 2, 9), (2, 6, 9, 3), (10, 1, 0, 13)] {
                    let visible = |i: i64, j: i64| m.visible(q_pos + i, kv_pos + j);
                    for q_lo in 0..n_q {
                        for q_hi in q_lo..n_q {
                            let (k0, k1) = kv_bounds(m, q_pos + q_lo, q_pos + q_hi, kv_pos, n_kv);
                            for j in 0..n_kv {
                                if (q_lo..=q_hi).any(|i| visible(i, j)) {
                                    assert!(
                                        k0 <= j && j < k1,
                                        "{m:?}: key {j} of q {q_lo}..={q_hi} outside {k0}..{k1}"
                                    );
                                }
                            }
                            for k_lo in 0..n_kv {
                                for k_hi in k_lo..n_kv {
                                    let pairs = || (q_lo..=q_hi).flat_map(|i| (k_lo..=k_hi).map(move |j| (i, j)));
                                    let all = pairs().all(|(i, j)| visible(i, j));
                                    let any = pairs().any(|(i, j)| visible(i, j));
                                    let (qp, kp) = ((q_pos + q_lo, q_pos + q_hi), (kv_pos + k_lo, kv_pos + k_hi));
                                    assert_eq!(
                                        m.on(qp, kp),
                                        if !any {
                                            None
                                        } else if all {
                                            Some(Band::NONE)
                                        } else {
                                            Some(m)
                                        }
                                    );
                                    assert_eq!(
                                        needs_mask(m, qp.0, qp.1, kp.0, kp.1, false),
                                        !all,
                                        "{m:?} {qp:?} {kp:?}"
                                    );
                                }
                            }
                        }
                    }
                    for k_lo in 0..n_kv {
                        for k_hi in k_lo..n_kv {
                            let (r0, r1) = q_bounds(m, kv_pos + k_lo, kv_pos + k_hi, q_pos, n_q, 2);
                            for i in 0..n_q {
                                if (k_lo..=k_hi).any(|j| visible(i, j)) {
                                    assert!(
                                        r0 <= i && i < r1,
                                        "{m:?}: query {i} of k {k_lo}..={k_hi} outside {r0}..{r1}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Byte offsets of the argument fields, for backends that load them.
pub mod offsets {
    pub const FWD_Q: i32 = 0;
    pub const FWD_K: i32 = 8;
    pub const FWD_O: i32 = 16;
    pub const FWD_SCRATCH: i32 = 24;
    pub const FWD_KV_STRIDE: i32 = 32;
    pub const FWD_N_Q: i32 = 40;
    pub const FWD_N_KV: i32 = 48;
    pub const FWD_Q_POS: i32 = 56;
    pub const FWD_KV_POS: i32 = 64;
    pub const FWD_SCALE: i32 = 72;
    pub const FWD_HEAD_VALUES: i32 = 80;
    pub const FWD_LSE: i32 = 88;
    pub const FWD_O_STRIDE: i32 = 96;
    pub const FWD_LSE_STRIDE: i32 = 104;
    pub const BWD_Q: i32 = 0;
    pub const BWD_K: i32 = 8;
    pub const BWD_DQ: i32 = 16;
    pub const BWD_DKV: i32 = 24;
    pub const BWD_DELTA: i32 = 32;
    pub const BWD_Q_STRIDE: i32 = 40;
    pub const BWD_KV_STRIDE: i32 = 48;
    pub const BWD_DQ_STRIDE: i32 = 56;
    pub const BWD_DKV_STRIDE: i32 = 64;
    pub const BWD_N_Q: i32 = 72;
    pub const BWD_N_KV: i32 = 80;
    pub const BWD_Q_POS: i32 = 88;
    pub const BWD_KV_POS: i32 = 96;
    pub const BWD_SCALE: i32 = 104;
    pub const BWD_HEAD_VALUES: i32 = 112;
    pub const BWD_DPARAMS: i32 = 120;
}

/// One step of a kernel's algorithm. Loops nest; backends lower each step, the interpreter runs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// For each tile of `tile_q` query rows that the mask lets see the KV tile (causal and
    /// window bounds come from the positions, so hidden tiles are never visited).
    ForQueryTiles(Vec<Step>),
    /// For each block of `BLOCK_Q` query rows (its Q rows and softmax state stay in cache).
    ForQueryBlocks(Vec<Step>),
    /// The block's softmax state in scratch: m = −inf, l = 0, acc = 0 (a CTA's registers).
    StartState,
    /// O = acc / l and LSE = m + ln l of the block's rows (ln as `expr::score::log_by_bits`);
    /// O = 0 and LSE = −inf for rows that saw no key (l = 0).
    WriteOut,
    /// For each tile of `tile_kv` KV rows the query block may see (the last may be partial).
    ForKvTiles(Vec<Step>),
    /// Kᵀ of the KV tile into scratch (`head_dim × tile_kv`).
    TransposeKeys,
    /// S = Q Kᵀ · scale for the query tile × KV tile.
    Scores,
    /// Only with a score modification: S = f(S), the score's code (`spec::Score`), before the mask.
    Score,
    /// Only on tiles that straddle the mask edge or the end of the run: S = −inf where masked,
    /// by comparing row and column positions.
    MaskEdge,
    /// m' = max(m, rowmax S); P = exp(S − m'); l' = l·exp(m − m') + rowsum P; rescale factor.
    OnlineSoftmax,
    /// acc = acc·exp(m − m') + P V.
    AccumulatePv,
    /// For each query row (backward).
    ForQueryRows(Vec<Step>),
    /// For each key row the mask allows for the query row (backward).
    ForAllowedKeys(Vec<Step>),
    /// p = exp(f(s) − lse), s = q·k·scale, f the spec's score modification (the identity without).
    RecomputeP,
    /// dS = p (dO·v − D), times f'(s) with a score modification.
    Ds,
    /// dQ += dS·k·scale; dK += dS·q·scale; dV += p·dO.
    AccumulateGrads,
}

/// The algorithm of a kernel.
pub fn program(spec: &KernelSpec) -> Vec<Step> {
    use Step::*;
    match spec.kind {
        KernelKind::Forward => {
            let tile = match spec.score {
                Some(_) => vec![Scores, Score, MaskEdge, OnlineSoftmax, AccumulatePv],
                None => vec![Scores, MaskEdge, OnlineSoftmax, AccumulatePv],
            };
            vec![ForQueryBlocks(vec![StartState, ForKvTiles(vec![TransposeKeys, ForQueryTiles(tile)]), WriteOut])]
        }
        KernelKind::Backward => vec![ForQueryRows(vec![ForAllowedKeys(vec![RecomputeP, Ds, AccumulateGrads])])],
    }
}

/// The kernel IR as text, for `ATTNC_DUMP` and snapshots.
pub fn print(spec: &KernelSpec) -> String {
    fn go(steps: &[Step], depth: usize, out: &mut String) {
        for s in steps {
            let pad = "  ".repeat(depth);
            let (name, body): (String, Option<&Vec<Step>>) = match s {
                Step::ForQueryTiles(b) => ("for query tiles within the mask".into(), Some(b)),
                Step::ForKvTiles(b) => ("for kv tiles within the mask".into(), Some(b)),
                Step::ForQueryBlocks(b) => ("for query blocks".into(), Some(b)),
                Step::ForQueryRows(b) => ("for query rows".into(), Some(b)),
                Step::ForAllowedKeys(b) => ("for allowed keys".into(), Some(b)),
                other => (format!("{other:?}"), None),
            };
            out.push_str(&format!("{pad}{name}\n"));
            if let Some(b) = body {
                go(b, depth + 1, out);
            }
        }
    }
    let mut out = format!("kernel {} ({:?})\n", spec.name(), spec);
    go(&program(spec), 1, &mut out);
    out
}

/// The KV rows `[lo, hi)` that query positions `q_lo..=q_hi` may see: keys from
/// `q_lo − end + 1` to `q_hi − lo`.
pub fn kv_bounds(mask: Band, q_lo: i64, q_hi: i64, kv_pos: i64, n_kv: i64) -> (i64, i64) {
    let lo = mask.end.map_or(0, |end| (q_lo + 1 - end - kv_pos).clamp(0, n_kv));
    let hi = mask.lo.map_or(n_kv, |lo| (q_hi + 1 - lo - kv_pos).clamp(0, n_kv));
    (lo, hi)
}

/// The query rows `[lo, hi)` (rounded out to `tile`) that may see key positions `k_lo..=k_hi`:
/// queries from `k_lo + lo` to `k_hi + end − 1`.
pub fn q_bounds(mask: Band, k_lo: i64, k_hi: i64, q_pos: i64, n_q: i64, tile: i64) -> (i64, i64) {
    let lo = mask.lo.map_or(0, |lo| (k_lo + lo - q_pos).clamp(0, n_q));
    let hi = mask.end.map_or(n_q, |end| k_hi.saturating_add(end).saturating_sub(q_pos).clamp(0, n_q));
    (lo / tile * tile, (hi + tile - 1) / tile * tile)
}

/// Whether a query tile (positions `q_lo..=q_hi`) × KV tile (`k_lo..=k_hi`, `cols` of
/// `tile_kv`) needs elementwise masking: a partial tile or one that crosses an edge of the band
/// (its least `q − k` below `lo`, or its greatest at or past `end`).
pub fn needs_mask(mask: Band, q_lo: i64, q_hi: i64, k_lo: i64, k_hi: i64, partial: bool) -> bool {
    partial || mask.on((q_lo, q_hi), (k_lo, k_hi)) != Some(Band::NONE)
}
