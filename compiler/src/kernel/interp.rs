//! The kernel IR interpreter: runs a kernel's steps in scalar fp32, following the same tiles,
//! bounds and edge masking a backend generates. It is the oracle of the backends' differential
//! tests and a kernel set of its own for the runtime.

use crate::expr::score;

use super::{BLOCK_Q, BwdArgs, FwdArgs, KernelSpec, STATE_ROWS, Step, kv_bounds, needs_mask, program, q_bounds};

/// Runs the forward kernel.
///
/// # Safety
/// `args` must describe valid memory: `q` has `n_q` rounded up to `tile_q` rows of `head_dim`,
/// `k` (and `k + head_dim`) `n_kv` rows of `kv_stride`, `o` and `lse` `n_q` rows of their
/// strides, `scratch` `spec.scratch_floats()` floats.
pub unsafe fn forward(spec: &KernelSpec, args: &FwdArgs) {
    let (d, dv) = (spec.head_dim as usize, spec.dv() as usize);
    let (tq, tk) = (spec.tile_q as i64, spec.tile_kv as i64);
    let padded = (args.n_q.max(0) as usize).div_ceil(tq as usize) * tq as usize;
    // SAFETY: the caller guarantees the extents above.
    let (q, state, kt, p) = unsafe {
        (
            std::slice::from_raw_parts(args.q, padded * d),
            std::slice::from_raw_parts_mut(args.scratch.add(spec.state_offset()), STATE_ROWS as usize * (dv + 2)),
            std::slice::from_raw_parts_mut(args.scratch, d * tk as usize),
            std::slice::from_raw_parts_mut(args.scratch.add(d * tk as usize), (tq * tk) as usize),
        )
    };
    let kv = |j: i64, e: usize| -> f32 {
        // SAFETY: j < n_kv and e < head_dim + v_head_dim, within the caller's extents.
        unsafe { *args.k.add(j as usize * args.kv_stride as usize + e) }
    };
    let steps = program(spec);
    let Step::ForQueryBlocks(block_body) = &steps[0] else { unreachable!("forward program") };
    let [Step::StartState, Step::ForKvTiles(kv_body), Step::WriteOut] = block_body.as_slice() else {
        unreachable!("forward program")
    };
    let mut rb0 = 0i64;
    while rb0 < args.n_q {
        let rb1 = (rb0 + BLOCK_Q).min(args.n_q);
        // StartState: the block's rows, the padding row of its last tile included.
        for row in state[..((rb1 - rb0) as usize).div_ceil(tq as usize) * tq as usize * (dv + 2)].chunks_mut(dv + 2) {
            row.fill(0.0);
            row[0] = f32::NEG_INFINITY;
        }
        let (kv_lo, kv_hi) = kv_bounds(spec.mask, args.q_pos + rb0, args.q_pos + rb1 - 1, args.kv_pos, args.n_kv);
        let mut c0 = kv_lo;
        while c0 < kv_hi {
            let cols = tk.min(kv_hi - c0);
            let (k_lo, k_hi) = (args.kv_pos + c0, args.kv_pos + c0 + cols - 1);
            for step in kv_body {
                match step {
                    Step::TransposeKeys => {
                        for c in 0..cols {
                            for e in 0..d {
                                kt[e * tk as usize + c as usize] = kv(c0 + c, e);
                            }
                        }
                    }
                    Step::ForQueryTiles(tile_body) => {
                        let (r_lo, r_hi) = q_bounds(spec.mask, k_lo, k_hi, args.q_pos, args.n_q, tq);
                        let (r_lo, r_hi) = (r_lo.max(rb0), r_hi.min(rb1));
                        let mut r0 = r_lo;
                        while r0 < r_hi {
                            let mut s = vec![0.0f32; (tq * tk) as usize];
                            let mut alpha = vec![1.0f32; tq as usize];
                            for step in tile_body {
                                match step {
                                    Step::Scores => {
                                        for r in 0..tq as usize {
                                            for c in 0..tk as usize {
                                                let mut acc = 0.0f32;
                                                for e in 0..d {
                                                    acc += q[(r0 as usize + r) * d + e] * kt[e * tk as usize + c];
                                                }
                                                s[r * tk as usize + c] = acc * args.scale;
                                            }
                                        }
                                    }
                                    Step::Score => {
                                        let score = spec.score.expect("Score only with a score");
                                        // SAFETY: the caller passes the score's per-head values.
                                        let heads = unsafe { super::head_values(args.head_values, score.head_count()) };
                                        for (i, x) in s.iter_mut().enumerate() {
                                            let (r, c) = (i as i64 / tk, i as i64 % tk);
                                            *x = score::eval(score, *x, (args.q_pos + r0 + r, k_lo + c), heads).0;
                                        }
                                    }
                                    Step::MaskEdge => {
                                        let (q_lo, q_hi) = (args.q_pos + r0, args.q_pos + r0 + tq - 1);
                                        if needs_mask(spec.mask, q_lo, q_hi, k_lo, k_hi, cols < tk) {
                                            for r in 0..tq {
                                                for c in 0..tk {
                                                    if c >= cols || !spec.mask.visible(q_lo + r, k_lo + c) {
                                                        s[(r * tk + c) as usize] = f32::NEG_INFINITY;
                                                    }
                                                }
                                            }
                                        }
                                    }
                                    Step::OnlineSoftmax => {
                                        for r in 0..tq as usize {
                                            let row = &mut state[((r0 - rb0) as usize + r) * (dv + 2)..][..2];
                                            let tile_max = s[r * tk as usize..][..tk as usize]
                                                .iter()
                                                .cloned()
                                                .fold(f32::NEG_INFINITY, f32::max);
                                            let m_new = row[0].max(tile_max);
                                            let base = if m_new == f32::NEG_INFINITY { 0.0 } else { m_new };
                                            let mut sum = 0.0;
                                            for c in 0..tk as usize {
                                                let e = (s[r * tk as usize + c] - base).exp();
                                                p[r * tk as usize + c] = e;
                                                sum += e;
                                            }
                                            alpha[r] = (row[0] - base).exp();
                                            row[1] = row[1] * alpha[r] + sum;
                                            row[0] = m_new;
                                        }
                                    }
                                    Step::AccumulatePv => {
                                        for r in 0..tq as usize {
                                            let acc = &mut state[((r0 - rb0) as usize + r) * (dv + 2) + 2..][..dv];
                                            for (e, a) in acc.iter_mut().enumerate() {
                                                let mut x = *a * alpha[r];
                                                for c in 0..cols as usize {
                                                    x += p[r * tk as usize + c] * kv(c0 + c as i64, d + e);
                                                }
                                                *a = x;
                                            }
                                        }
                                    }
                                    other => unreachable!("{other:?} in a query tile"),
                                }
                            }
                            r0 += tq;
                        }
                    }
                    other => unreachable!("{other:?} in a kv tile"),
                }
            }
            c0 += tk;
        }
        // WriteOut.
        for (i, st) in state.chunks(dv + 2).take((rb1 - rb0) as usize).enumerate() {
            let row = (rb0 as usize + i) as isize;
            // SAFETY: row < n_q; the caller's `o` and `lse` hold n_q rows of their strides.
            let (o, lse) = unsafe {
                (
                    std::slice::from_raw_parts_mut(args.o.offset(row * args.o_stride as isize), dv),
                    &mut *args.lse.offset(row * args.lse_stride as isize),
                )
            };
            if st[1] > 0.0 {
                for (x, a) in o.iter_mut().zip(&st[2..]) {
                    *x = a / st[1];
                }
                *lse = st[0] + score::log_by_bits(st[1]);
            } else {
                o.fill(0.0);
                *lse = f32::NEG_INFINITY;
            }
        }
        rb0 = rb1;
    }
}

/// Runs the backward kernel.
///
/// # Safety
/// `args` must describe valid memory: `n_q` query rows of `q_stride` holding q, o, do and lse,
/// `n_kv` KV rows of `kv_stride`, `dq` and `dkv` rows of their strides, `delta` `n_q` floats.
pub unsafe fn backward(spec: &KernelSpec, args: &BwdArgs) {
    let (d, dv) = (spec.head_dim as usize, spec.dv() as usize);
    let Step::ForQueryRows(row_body) = &program(spec)[0] else { unreachable!("backward program") };
    let score = spec.score;
    // SAFETY: the caller passes the score's per-head values.
    let heads = unsafe { super::head_values(args.head_values, score.map_or(0, |s| s.head_count())) };
    let Step::ForAllowedKeys(pair_body) = &row_body[0] else { unreachable!("backward program") };
    // The learned parameters' gradients of this call, added to `dparams` at the end.
    let mut dparams = vec![0.0f32; score.map_or(0, |s| s.params.len())];
    for i in 0..args.n_q {
        // SAFETY: i < n_q, j < n_kv; offsets stay within the rows the caller describes.
        unsafe {
            let q = args.q.add(i as usize * args.q_stride as usize);
            let d_o = q.add(d + dv);
            let lse = *q.add(d + 2 * dv);
            if lse == f32::NEG_INFINITY {
                continue;
            }
            let delta = *args.delta.add(i as usize);
            let dq = args.dq.add(i as usize * args.dq_stride as usize);
            for j in 0..args.n_kv {
                if !spec.mask.visible(args.q_pos + i, args.kv_pos + j) {
                    continue;
                }
                let k = args.k.add(j as usize * args.kv_stride as usize);
                let v = k.add(d);
                let dkv = args.dkv.add(j as usize * args.dkv_stride as usize);
                let (mut p, mut ds, mut t) = (0.0f32, 0.0f32, 0.0f32);
                let mut grads = Vec::new();
                for step in pair_body {
                    match step {
                        Step::RecomputeP => {
                            let dot: f32 = (0..d).map(|e| *q.add(e) * *k.add(e)).sum();
                            let s = match score {
                                Some(score) => {
                                    let at = (args.q_pos + i, args.kv_pos + j);
                                    let (v, d, g) = score::eval_grads(score, dot * args.scale, at, heads);
                                    (t, grads) = (d, g);
                                    v
                                }
                                None => dot * args.scale,
                            };
                            p = (s - lse).exp();
                        }
                        Step::Ds => {
                            let dot: f32 = (0..dv).map(|e| *d_o.add(e) * *v.add(e)).sum();
                            ds = p * (dot - delta);
                            for (acc, g) in dparams.iter_mut().zip(&grads) {
                                *acc += ds * g;
                            }
                            if score.is_some() {
                                ds *= t;
                            }
                        }
                        Step::AccumulateGrads => {
                            for e in 0..d {
                                *dq.add(e) += ds * *k.add(e) * args.scale;
                                *dkv.add(e) += ds * *q.add(e) * args.scale;
                            }
                            for e in 0..dv {
                                *dkv.add(d + e) += p * *d_o.add(e);
                            }
                        }
                        other => unreachable!("{other:?} in a key pair"),
                    }
                }
            }
        }
    }
    for (j, g) in dparams.iter().enumerate() {
        // SAFETY: a kernel whose score has learned parameters is passed one float per parameter.
        unsafe { *args.dparams.add(j) += g }
    }
}
