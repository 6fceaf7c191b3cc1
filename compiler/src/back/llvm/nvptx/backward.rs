//! The backward kernel: CTAs of 64 keys over query tiles, dK and dV in registers, dQ by fp32
//! atomics; mma.sync on sm_80, and on sm_90a wgmma for the four products of a query tile with
//! both head dims up to 128 (dQ = dS K stays on mma.sync, per warp).

use super::*;

/// Columns of dQ formed at a time (a multiple of 16): a slab's accumulators die before the next
/// slab's are born. Above d128 (MLA's 192, 256) dQ's d/2 accumulators beside dK's and dV's were
/// the peak of the register pressure: slabs of 32 cut the d192v128 spill by a third
/// (docs/llvm-backend.md). At d128 and below whole rows measured as well or better on sm_90a.
fn dq_slab(d: i64) -> i64 {
    if d > 128 { 32 } else { d }
}

/// K steps per batch of the sm_90a backward's Sᵀ = K Qᵀ and dPᵀ = V dOᵀ: a batch's K or V
/// fragments live until it completes, and beside dK's and dV's accumulators two steps (8
/// registers) are what the d128 backward holds without spilling (docs/llvm-backend.md).
const BWD_BATCH: i64 = 2;

impl Gen {
    /// Backward: a CTA per 64 keys of one query head of one sequence; each warp owns 16 keys.
    /// Per query tile within the mask: Sᵀ = K Qᵀ, Pᵀ = exp2(Sᵀ·scale·log2e − lse·log2e) (masked),
    /// dV += Pᵀ dO, dPᵀ = V dOᵀ (with a score modification dPᵀ first and dV after dS), dSᵀ = Pᵀ ∘
    /// (dPᵀ − D), dK += dSᵀ Q; dSᵀ goes through shared memory
    /// so each warp forms 16 query rows of dQ = dS K, added to global fp32 by atomics. dK·scale and
    /// dV are added by atomics at the end (GQA heads and ring steps accumulate).
    pub(super) fn backward_impl(&mut self, hopper: bool) {
        // Q, K, dQ, dK over `d`; V, dO, dV over `dv`.
        let (d, dvw) = (self.d, self.dv);
        // wgmma's accumulators of dK and dV at n = d and dv (m64n256 would hold 128 registers in
        // one asm block, as the forward avoids at d256).
        let hopper = hopper && d <= 128 && dvw <= 128;
        let mask = self.spec.mask;
        let ids = self.ids();
        let l = self.lanes(&ids);
        let fr = self.frame();
        let f = &mut self.f;
        let n0 = f.bin("mul", &fr.tile, &i64c(BM));
        let live = f.icmp("slt", &n0, &fr.kv_len);
        let (go, out) = (f.label("live"), f.label("exit"));
        f.cond_br(&live, &go, &out);
        f.place(&go);
        let left = f.bin("sub", &fr.kv_len, &n0);
        let keys = f.min_i64(&left, &i64c(BM));
        let k_lo = f.bin("add", &fr.kv_pos, &n0);
        let k_hi = f.bin("add", &k_lo, &keys);
        let k_hi = f.bin("sub", &k_hi, &i64c(1));
        let (qlo, qhi) = super::super::bounds::q_bounds(f, mask, &k_lo, &k_hi, &fr.q_pos, &fr.q_len, 1);
        let qlo = super::super::text::round_down(f, &qlo, BM);
        let smem = V::new("@smem", P3);
        let at = |f: &mut Fn, off: i64| f.gep("i8", &smem, &i64c(off));
        // Tiles of 64 rows: K, V, Q, dO, then dSᵀ and the stats.
        let (tk, tv) = (BM * d * 2, BM * dvw * 2);
        let kt = Tile { base: at(f, 0), width: d, core: false };
        let vt = Tile { base: at(f, tk), width: dvw, core: false };
        // On sm_90a Q and dO are wgmma's B operands (by descriptor: core-matrix layout); K and V
        // are A operands from registers (ldmatrix) and K is dQ's mma.sync B: row tiles.
        let qt = Tile { base: at(f, tk + tv), width: d, core: hopper };
        let dot = Tile { base: at(f, 2 * tk + tv), width: dvw, core: hopper };
        let dst = Tile { base: at(f, 2 * tk + 2 * tv), width: BM, core: false };
        let stats = at(f, 2 * tk + 2 * tv + BM * BM * 2);
        let (q_row, kv_row, dkv_row) =
            (self.param("q_row", "i64"), self.param("kv_row", "i64"), self.param("dkv_row", "i64"));
        // Strides of the dv-wide tensors: v beside k, do beside q, dv beside dk.
        let (v_row, do_row, dv_row) = (self.v_stride(&kv_row), self.v_stride(&q_row), self.v_stride(&dkv_row));
        let kn = self.f.bin("add", &fr.kv0, &n0);
        let kb = self.head_base(&self.param("k", P1), &kn, &kv_row, &fr.kv_head, d);
        let vb = self.head_base(&self.param("v", P1), &kn, &v_row, &fr.kv_head, dvw);
        self.load_tile(&ids, &kt, &kb, &kv_row, &i64c(0), &keys, BM);
        self.load_tile(&ids, &vt, &vb, &v_row, &i64c(0), &keys, BM);
        self.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
        let dk = self.regs((d / 2) as usize, 0.0);
        let dv = self.regs((dvw / 2) as usize, 0.0);
        let scale = self.param("scale", "float");
        let log2e = f32c(std::f32::consts::LOG2_E);
        let scale2 = self.f.fast("fmul", &scale, &log2e);
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let key_rel = [self.f.bin("add", &warp_row, &ids.g), {
            let r = self.f.bin("add", &warp_row, &ids.g);
            self.f.bin("add", &r, &i64c(8))
        }];
        let heads = self.f.bin("udiv", &q_row, &i64c(d));
        let qb0 = self.head_base(&self.param("q", P1), &fr.q0, &q_row, &fr.head, d);
        let dob0 = self.head_base(&self.param("do", P1), &fr.q0, &do_row, &fr.head, dvw);
        // The learned parameters' gradients: this thread's share of Σ dS·∂score/∂param.
        let n_params = self.spec.score.map_or(0, |s| s.params.len());
        let dpar = if n_params > 0 { self.regs(n_params, 0.0) } else { f32c(0.0) };
        let masked = self.spec.score.is_some_and(|s| s.mask.is_some());
        let ql = self.f.begin_for(&qlo, &qhi, BM);
        let m0 = ql.i.clone();
        {
            let g = &mut *self;
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            g.load_tile(&ids, &qt, &qb0, &q_row, &m0, &fr.q_len, BM);
            g.load_tile(&ids, &dot, &dob0, &do_row, &m0, &fr.q_len, BM);
            g.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
            // lse·log2e and D of the tile's rows (rows past the run: lse = +inf, so P = 0).
            let f = &mut g.f;
            let lt = f.icmp("ult", &ids.tid, &i64c(BM));
            let rr = f.bin("add", &m0, &ids.tid);
            let (lse_p, delta_p) = (V::new("%lse", P1), V::new("%delta", P1));
            f.if_(&lt, |f| {
                let ok = f.icmp("slt", &rr, &fr.q_len);
                let rs = f.select(&ok, &rr, &i64c(0));
                let tok = f.bin("add", &fr.q0, &rs);
                let a = f.bin("mul", &tok, &heads);
                let a = f.bin("add", &a, &fr.head);
                let pl = f.gep("float", &lse_p, &a);
                let x = f.load("float", &pl, 4);
                let x = f.fast("fmul", &x, &log2e);
                let x = f.select(&ok, &x, &f32c(f32::INFINITY));
                // A row that sees no key (lse = −∞) where the kernels test the mask in the score:
                // its pairs inside the band score −∞ too, and −∞ − (−∞) would be NaN.
                let x = match masked {
                    true => {
                        let dead = f.fcmp("oeq", &x, &f32c(f32::NEG_INFINITY));
                        f.select(&dead, &f32c(f32::INFINITY), &x)
                    }
                    false => x,
                };
                let pd = f.gep("float", &delta_p, &a);
                let y = f.load("float", &pd, 4);
                let sl = f.gep("float", &stats, &ids.tid);
                f.store(&x, &sl, 4);
                let ti = f.bin("add", &ids.tid, &i64c(BM));
                let sd = f.gep("float", &stats, &ti);
                f.store(&y, &sd, 4);
            });
            g.f.call_void("llvm.nvvm.cp.async.wait.group", &[&i32c(0)]);
            if hopper {
                // wgmma reads Q and dO through the async proxy; cp.async wrote them through the
                // generic one (PTX ISA 9.7.15.4, as in the forward).
                g.f.op("call void asm sideeffect \"fence.proxy.async.shared::cta;\", \"~{memory}\"()");
            }
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            let nb = (BM / 8) as usize;
            // With a score modification (and no learned parameters) dPᵀ = V dOᵀ comes first and
            // dV += Pᵀ dO after dS: the score's slopes then live beside dPᵀ until dS, not beside
            // Pᵀ and dPᵀ's accumulators (docs/llvm-backend.md: at d128 on sm_90a soft-capping's
            // 120 bytes of spills → 8–20; the plain kernels, spill-free in the first order,
            // spilled 8–20 in this one, the learned parameters' 16 more).
            let dp_first = g.spec.score.is_some_and(|s| s.params.is_empty());
            let dp_early = dp_first.then(|| g.bwd_dp(hopper, (&vt, &dot), &ids, &l));
            // Sᵀ = K Qᵀ (16 keys × 64 queries per warp).
            let s = if hopper {
                g.wgmma_scores(&kt, &qt, &ids, &l, BM, BWD_BATCH)
            } else {
                let ka: Vec<[V; 4]> = (0..d / 16).map(|kk| g.frag_a(&kt, &l, &warp_row, kk * 16)).collect();
                let mut s = vec![f32c(0.0); nb * 4];
                g.gemm_nk(&ka, &qt, &l, nb, &mut s);
                s
            };
            let mut p = s.clone();
            let mut slopes = vec![f32c(0.0); nb * 4];
            // Per element with learned parameters: the score's slopes by them.
            let mut grads: Vec<Vec<V>> = Vec::with_capacity(nb * 4);
            for n in 0..nb {
                for e in 0..4 {
                    let i = n * 4 + e;
                    // Element (n, e): key row key_rel[e / 2] of the CTA, query column
                    // 2t + 8n + e % 2 of the tile.
                    let c = g.f.bin("mul", &ids.t, &i64c(2));
                    let c = g.f.bin("add", &c, &i64c(n as i64 * 8 + (e % 2) as i64));
                    let lp = g.f.gep("float", &stats, &c);
                    let lse2 = g.f.load("float", &lp, 4);
                    // RecomputeP: the modified score when the model has a score modification.
                    let x = match g.spec.score {
                        Some(score) => {
                            let q_rel = g.f.bin("add", &m0, &c);
                            let qa = g.f.bin("add", &fr.q_pos, &q_rel);
                            let kr = g.f.bin("add", &n0, &key_rel[e / 2]);
                            let ka = g.f.bin("add", &fr.kv_pos, &kr);
                            let (x, d, by_params) = g.score(score, &s[i], &scale, (&qa, &ka), true);
                            slopes[i] = d.expect("asked for the slope");
                            if n_params > 0 {
                                grads.push(by_params);
                            }
                            x
                        }
                        None => g.f.fast("fmul", &s[i], &scale2),
                    };
                    let x = g.f.fast("fsub", &x, &lse2);
                    p[i] = g.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&x]);
                }
            }
            let (p, oks) = g.mask_p(p, &fr, (&m0, &n0), &keys, (&ids.t, &key_rel[0]));
            // dV += Pᵀ dO here, unless dPᵀ came first.
            if !dp_first {
                g.bwd_product(hopper, &p, &dot, &dv, &l);
            }
            // dSᵀ = Pᵀ ∘ (dPᵀ − D).
            let dp = match dp_early {
                Some(dp) => dp,
                None => g.bwd_dp(hopper, (&vt, &dot), &ids, &l),
            };
            let mut ds = dp.clone();
            for i in 0..nb * 4 {
                let c = g.f.bin("mul", &ids.t, &i64c(2));
                let c = g.f.bin("add", &c, &i64c((i / 4) as i64 * 8 + (i % 2) as i64 + BM));
                let dp_ = g.f.gep("float", &stats, &c);
                let dl = g.f.load("float", &dp_, 4);
                let x = g.f.fast("fsub", &dp[i], &dl);
                ds[i] = g.f.fast("fmul", &p[i], &x);
                if let Some(by_params) = grads.get(i) {
                    // Σ dS·∂score/∂param (dS before the slope by s); pairs the mask drops add
                    // nothing, selected away (their slope by a parameter need not be finite).
                    let ok = &oks[i];
                    for (j, gj) in by_params.iter().enumerate() {
                        let t = g.f.fast("fmul", &ds[i], gj);
                        let t = g.f.select(ok, &t, &f32c(0.0));
                        let acc = g.get(&dpar, j);
                        let acc = g.f.fast("fadd", &acc, &t);
                        g.set(&dpar, j, &acc);
                    }
                }
                if g.spec.score.is_some() {
                    // Ds: × f'(s), the score's slope.
                    ds[i] = g.f.fast("fmul", &ds[i], &slopes[i]);
                }
            }
            if dp_first {
                g.bwd_product(hopper, &p, &dot, &dv, &l);
            }
            // dK += dSᵀ Q.
            g.bwd_product(hopper, &ds, &qt, &dk, &l);
            // dSᵀ to shared memory as [key][query], then dQ = dS K per warp's 16 queries.
            for n in 0..nb {
                for h in 0..2 {
                    let packed = g.pack(&ds[n * 4 + 2 * h], &ds[n * 4 + 2 * h + 1]);
                    let row = g.f.bin("add", &key_rel[h], &i64c(0));
                    let col = g.f.bin("mul", &ids.t, &i64c(2));
                    let col = g.f.bin("add", &col, &i64c(n as i64 * 8));
                    let cb = g.f.bin("and", &col, &i64c(!7));
                    let off = g.offset(&dst, &row, &cb);
                    let within = g.f.bin("and", &col, &i64c(7));
                    let within = g.f.bin("mul", &within, &i64c(2));
                    let off = g.f.bin("add", &off, &within);
                    let ptr = g.smem_at(&dst, &off);
                    g.f.store(&packed, &ptr, 4);
                }
            }
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            let dqa: Vec<[V; 4]> = (0..BM / 16).map(|kk| g.frag_a_t(&dst, &l, &warp_row, kk * 16)).collect();
            let dq = g.param("dq", P1);
            // dQ in slabs of `dq_slab(d)` columns, each added to global before the next is formed: its
            // accumulators (slab/2 per thread, not d/2) are live beside dK and dV.
            let slab_width = dq_slab(d);
            for slab in (0..d).step_by(slab_width as usize) {
                let width = slab_width.min(d - slab);
                let dq_acc = g.regs((width / 2) as usize, 0.0);
                g.gemm_kn_acc_cols(&dqa, &kt, &l, &dq_acc, slab..slab + width);
                for n in 0..(width / 8) as usize {
                    for e in 0..4 {
                        let x = g.get(&dq_acc, n * 4 + e);
                        let x = g.f.fast("fmul", &x, &scale);
                        let f = &mut g.f;
                        let qr = f.bin("add", &warp_row, &ids.g);
                        let qr = f.bin("add", &qr, &i64c(8 * (e / 2) as i64));
                        let qr = f.bin("add", &m0, &qr);
                        let ok = f.icmp("slt", &qr, &fr.q_len);
                        let tok = f.bin("add", &fr.q0, &qr);
                        let col = slab + n as i64 * 8 + (e % 2) as i64;
                        let a = frag_offset(f, &tok, &q_row, &fr.head, d, &ids.t, col);
                        let ptr = f.gep("float", &dq, &a);
                        f.if_(&ok, |f| atomic_add(f, &ptr, &x));
                    }
                }
            }
        }
        self.f.end_for(ql);
        // The parameters' gradients: summed over the warp, added by its first lane.
        if n_params > 0 {
            let base = self.f.bin("mul", &fr.head, &i64c(n_params as i64));
            let first = self.f.icmp("eq", &ids.lane, &i64c(0));
            let dparams = self.param("dparams", P1);
            for j in 0..n_params {
                let x = self.get(&dpar, j);
                let x = self.warp_sum(&x);
                let at = self.f.bin("add", &base, &i64c(j as i64));
                let ptr = self.f.gep("float", &dparams, &at);
                self.f.if_(&first, |f| atomic_add(f, &ptr, &x));
            }
        }
        // dK·scale and dV into global fp32 (accumulated: GQA heads and ring steps add up).
        let (dkp, dvp) = (self.param("dk", P1), self.param("dv", P1));
        for n in 0..(d.max(dvw) / 8) as usize {
            for e in 0..4 {
                let xk = (n < (d / 8) as usize).then(|| {
                    let x = self.get(&dk, n * 4 + e);
                    self.f.fast("fmul", &x, &scale)
                });
                let xv = (n < (dvw / 8) as usize).then(|| self.get(&dv, n * 4 + e));
                let f = &mut self.f;
                let kr = f.bin("add", &n0, &key_rel[e / 2]);
                let ok = f.icmp("slt", &kr, &fr.kv_len);
                let tok = f.bin("add", &fr.kv0, &kr);
                let col = n as i64 * 8 + (e % 2) as i64;
                let a = frag_offset(f, &tok, &dkv_row, &fr.kv_head, d, &ids.t, col);
                let av =
                    if dvw == d { a.clone() } else { frag_offset(f, &tok, &dv_row, &fr.kv_head, dvw, &ids.t, col) };
                let pk = xk.as_ref().map(|_| f.gep("float", &dkp, &a));
                let pv = xv.as_ref().map(|_| f.gep("float", &dvp, &av));
                f.if_(&ok, |f| {
                    if let (Some(p), Some(x)) = (&pk, &xk) {
                        atomic_add(f, p, x);
                    }
                    if let (Some(p), Some(x)) = (&pv, &xv) {
                        atomic_add(f, p, x);
                    }
                });
            }
        }
        self.f.br(&out);
        self.f.place(&out);
        self.f.op("ret void");
    }

    /// The mask of a backward tile: P = 0 where a pair is outside the band or its key past the
    /// run (rows past the run have P = 0 already: their LSE is +∞), and each element's predicate
    /// (the learned parameters' sums select by it). In 32-bit offsets: element
    /// (n, e) of a thread pairs key row `row + 8·(e / 2)` of the CTA (`row` = warp · 16 + g) with
    /// query column 2t + 8n + e % 2 of the tile, so its q − k is `base + 8n + e % 2 − 8·(e / 2)`
    /// with `base` = q_lo − k_lo + 2t − row per thread and tile, and a side of the band is one
    /// compare of `base` with a constant (a two-sided band one add and one unsigned compare).
    /// Every tile tests, with no edge branch as the forward's: at d128 on sm_90a the branch's
    /// stack slot spilled 8 bytes where these selects spill none (docs/llvm-backend.md).
    fn mask_p(&mut self, p: Vec<V>, fr: &Frame, (m0, n0): (&V, &V), keys: &V, (t, row): (&V, &V)) -> (Vec<V>, Vec<V>) {
        let mask = self.spec.mask;
        let f = &mut self.f;
        let q_lo = f.bin("add", &fr.q_pos, m0);
        let k_lo = f.bin("add", &fr.kv_pos, n0);
        let delta = f.bin("sub", &q_lo, &k_lo);
        let delta = f.clamp_i64(&delta, &i64c(-(1 << 30)), &i64c(1 << 30));
        let delta = f.cast("trunc", &delta, "i32");
        let t2 = f.cast("trunc", t, "i32");
        let t2 = f.bin("shl", &t2, &i32c(1));
        let r = f.cast("trunc", row, "i32");
        let base = f.bin("add", &delta, &t2);
        let base = f.bin("sub", &base, &r);
        let lim = f.cast("trunc", keys, "i32");
        // Key rows row and row + 8 inside the run.
        let in_run = [0, 8].map(|h| {
            let r = plus(f, &r, h);
            f.icmp("slt", &r, &lim)
        });
        let shifted = two_sided(mask).map(|(lo, width)| (f.bin("sub", &base, &i32c(lo)), width));
        let (mut out, mut oks) = (Vec::with_capacity(p.len()), Vec::with_capacity(p.len()));
        for (i, x) in p.iter().enumerate() {
            let (n, e) = ((i / 4) as i64, (i % 4) as i64);
            let kc = 8 * n + e % 2 - 8 * (e / 2);
            let mut ok = in_run[(e / 2) as usize].clone();
            let mut and = |f: &mut Fn, c: V| ok = f.bin("and", &ok, &c);
            match &shifted {
                // lo ≤ base + kc < lo + width: base − lo + kc < width, unsigned.
                Some((sh, width)) => {
                    let y = plus(f, sh, kc);
                    let c = f.icmp("ult", &y, &i32c(*width));
                    and(f, c);
                }
                None => {
                    // base + kc ≥ lo and base + kc < end, each against a constant.
                    if let Some(lo) = mask.lo {
                        let c = f.icmp("sge", &base, &i32c(clamp30(lo) - kc));
                        and(f, c);
                    }
                    if let Some(end) = mask.end {
                        let c = f.icmp("slt", &base, &i32c(clamp30(end) - kc));
                        and(f, c);
                    }
                }
            }
            out.push(f.select(&ok, x, &f32c(0.0)));
            oks.push(ok);
        }
        (out, oks)
    }

    /// dPᵀ = V dOᵀ (16 keys × 64 queries per warp): wgmma on sm_90a, else mma.sync per warp.
    fn bwd_dp(&mut self, hopper: bool, (vt, dot): (&Tile, &Tile), ids: &Ids, l: &Lanes) -> Vec<V> {
        if hopper {
            return self.wgmma_scores(vt, dot, ids, l, BM, BWD_BATCH);
        }
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let va: Vec<[V; 4]> = (0..vt.width / 16).map(|kk| self.frag_a(vt, l, &warp_row, kk * 16)).collect();
        let mut dp = vec![f32c(0.0); (BM / 8 * 4) as usize];
        self.gemm_nk(&va, dot, l, (BM / 8) as usize, &mut dp);
        dp
    }

    /// acc += Aᵀ B for A a tile's Pᵀ or dSᵀ fragments (keys × queries) and B the queries' rows of
    /// dO or Q: dV += Pᵀ dO and dK += dSᵀ Q.
    fn bwd_product(&mut self, hopper: bool, a: &[V], b: &Tile, acc: &V, l: &Lanes) {
        if hopper {
            self.wgmma_pv(a, b, acc, BM);
        } else {
            let pa = self.pack_a(a);
            self.gemm_kn_acc(&pa, b, l, acc);
        }
    }

    pub(super) fn backward(&mut self) {
        self.backward_impl(false);
    }

    pub(super) fn backward_hopper(&mut self) {
        self.backward_impl(true);
    }
}
