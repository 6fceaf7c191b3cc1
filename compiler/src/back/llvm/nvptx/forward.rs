//! The forward kernel: CTAs of 64 query rows over KV tiles within the mask bounds, online softmax
//! in registers; mma.sync on sm_80, wgmma on sm_90a.

use super::*;

impl Gen {
    pub(super) fn forward(&mut self) {
        self.forward_impl(false);
    }

    pub(super) fn forward_hopper(&mut self) {
        self.forward_impl(true);
    }

    pub(super) fn forward_impl(&mut self, hopper: bool) {
        // Scores over the query/key head dim `d`; P·V, the accumulators and O over `dv`.
        let (d, dv) = (self.d, self.dv);
        let bn = bn(d.max(dv));
        let ids = self.ids();
        let fr = self.frame();
        let CtaRows { m0, rows, q_lo, q_hi, lo, hi, out } = self.cta_rows(&fr, BM, bn);
        let f = &mut self.f;
        // Shared memory: Q, then K and V double-buffered (a K tile `d` wide, a V tile `dv`).
        let smem = V::new("@smem", P3);
        let q_tile = Tile { base: smem.clone(), width: d, core: false };
        let (k_bytes, pair_bytes) = (bn * d * 2, bn * (d + dv) * 2);
        let kv_tiles: Vec<(Tile, Tile)> = (0..2)
            .map(|b| {
                let kb = f.gep("i8", &smem, &i64c(BM * d * 2 + b * pair_bytes));
                let vb = f.gep("i8", &smem, &i64c(BM * d * 2 + b * pair_bytes + k_bytes));
                (Tile { base: kb, width: d, core: hopper }, Tile { base: vb, width: dv, core: hopper })
            })
            .collect();
        let (q_row, kv_row) = (self.param("q_row", "i64"), self.param("kv_row", "i64"));
        // V rows hold the KV heads at `dv` each: its stride is kv_row / d · dv.
        let v_row = self.v_stride(&kv_row);
        let q_start = self.f.bin("add", &fr.q0, &m0);
        let qb = self.head_base(&self.param("q", P1), &q_start, &q_row, &fr.head, d);
        let kb = self.head_base(&self.param("k", P1), &fr.kv0, &kv_row, &fr.kv_head, d);
        let vb = self.head_base(&self.param("v", P1), &fr.kv0, &v_row, &fr.kv_head, dv);
        self.load_tile(&ids, &q_tile, &qb, &q_row, &i64c(0), &rows, BM);
        self.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
        let load_kv = |g: &mut Gen, j: &V, buf: usize| {
            g.load_tile(&ids, &kv_tiles[buf].0, &kb, &kv_row, j, &fr.kv_len, bn);
            g.load_tile(&ids, &kv_tiles[buf].1, &vb, &v_row, j, &fr.kv_len, bn);
            g.f.call_void("llvm.nvvm.cp.async.commit.group", &[]);
        };
        // The first KV tile (a tile past the end only zero-fills).
        load_kv(self, &lo, 0);
        let nacc = (dv / 8 * 4) as usize;
        let acc = self.regs(nacc, 0.0);
        let ml = self.regs(4, 0.0); // m (base 2) for rows g and g+8, then l.
        self.set(&ml, 0, &f32c(f32::NEG_INFINITY));
        self.set(&ml, 1, &f32c(f32::NEG_INFINITY));
        let scale = self.param("scale", "float");
        let scale2 = self.f.fast("fmul", &scale, &f32c(std::f32::consts::LOG2_E));
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let row_g = self.f.bin("add", &warp_row, &ids.g);
        // ldmatrix lane addressing: matrix i = lane / 8, row j = lane % 8.
        let lanes = self.lanes(&ids);
        let buf_slot = self.f.alloca("i64", 8);
        self.f.store(&i64c(0), &buf_slot, 8);
        let kv_tiles2 = kv_tiles.clone();
        let kv_loop = self.f.begin_for(&lo, &hi, bn);
        let j = kv_loop.i.clone();
        {
            let g = &mut *self;
            let buf = g.f.load("i64", &buf_slot, 8);
            let next = g.f.bin("add", &j, &i64c(bn));
            let has_next = g.f.icmp("slt", &next, &hi);
            let other = g.f.bin("xor", &buf, &i64c(1));
            // Prefetch the next tile into the other buffer, then wait for this one.
            let (pf, nopf, joined) = (g.f.label("prefetch"), g.f.label("last"), g.f.label("ready"));
            g.f.cond_br(&has_next, &pf, &nopf);
            g.f.place(&pf);
            let is0 = g.f.icmp("eq", &other, &i64c(0));
            let (b0, b1, bj) = (g.f.label("pf0"), g.f.label("pf1"), g.f.label("pfdone"));
            g.f.cond_br(&is0, &b0, &b1);
            g.f.place(&b0);
            load_kv(g, &next, 0);
            g.f.br(&bj);
            g.f.place(&b1);
            load_kv(g, &next, 1);
            g.f.br(&bj);
            g.f.place(&bj);
            g.f.call_void("llvm.nvvm.cp.async.wait.group", &[&i32c(1)]);
            g.f.br(&joined);
            g.f.place(&nopf);
            g.f.call_void("llvm.nvvm.cp.async.wait.group", &[&i32c(0)]);
            g.f.br(&joined);
            g.f.place(&joined);
            if hopper {
                // wgmma reads shared memory through the async proxy; the tiles were written
                // through the generic one (cp.async): each writer publishes its bytes before the
                // barrier (PTX ISA 9.7.15.4, "Async Proxy"). Found by ptx-sim.
                g.f.op("call void asm sideeffect \"fence.proxy.async.shared::cta;\", \"~{memory}\"()");
            }
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            // This tile's buffers (selected by address arithmetic on the buffer index).
            let kbase = {
                let off = g.f.bin("mul", &buf, &i64c(pair_bytes));
                g.f.gep("i8", &kv_tiles2[0].0.base, &off)
            };
            let vbase = {
                let off = g.f.bin("mul", &buf, &i64c(pair_bytes));
                g.f.gep("i8", &kv_tiles2[0].1.base, &off)
            };
            let (kt, vt) =
                (Tile { base: kbase, width: d, core: hopper }, Tile { base: vbase, width: dv, core: hopper });
            // Scores.
            let nb = (bn / 8) as usize;
            let mut s: Vec<V> = vec![f32c(0.0); nb * 4];
            if hopper {
                s = g.wgmma_scores(&q_tile, &kt, &ids, &lanes, bn, super::wgmma::scores_batch(d));
            } else {
                for kk in 0..d / 16 {
                    let a = g.frag_a(&q_tile, &lanes, &warp_row, kk * 16);
                    for pair in 0..nb / 2 {
                        // Keys pair·16 + (mi/2)·8 + j, head elements kk·16 + (mi%2)·8.
                        let b = g.frag_b_nk(&kt, &lanes, pair as i64 * 16, kk * 16);
                        for h in 0..2 {
                            let n = pair * 2 + h;
                            let c = s[n * 4..n * 4 + 4].to_vec();
                            let r = g.mma(&a, [&b[2 * h], &b[2 * h + 1]], &c);
                            s[n * 4..n * 4 + 4].clone_from_slice(&r);
                        }
                    }
                }
            }
            let rows_at = RowsAt { q_lo: q_lo.clone(), q_hi: q_hi.clone(), row_g: row_g.clone() };
            let (p, _) = g.softmax_tile(s, &fr, &j, &rows_at, &ids.t, (&scale, &scale2), (&ml, Some(&acc)), bn);
            // AccumulatePv: P (the S accumulators, packed) as A; V through ldmatrix.trans.
            // At a value head dim of 256 the m64n256 accumulators of one wgmma leave too few
            // registers: P·V then uses mma.sync (which Hopper runs too) on the same layout.
            if hopper && dv <= 128 {
                g.wgmma_pv(&p, &vt, &acc, bn);
            } else {
                for kk in 0..(bn / 16) as usize {
                    let a = [
                        g.pack(&p[(2 * kk) * 4], &p[(2 * kk) * 4 + 1]),
                        g.pack(&p[(2 * kk) * 4 + 2], &p[(2 * kk) * 4 + 3]),
                        g.pack(&p[(2 * kk + 1) * 4], &p[(2 * kk + 1) * 4 + 1]),
                        g.pack(&p[(2 * kk + 1) * 4 + 2], &p[(2 * kk + 1) * 4 + 3]),
                    ];
                    for pair in 0..(dv / 16) as usize {
                        // Keys kk·16 + (mi%2)·8 + j, head elements pair·16 + (mi/2)·8.
                        let b = g.frag_b_kn(&vt, &lanes, kk as i64 * 16, pair as i64 * 16);
                        for h in 0..2 {
                            let n = pair * 2 + h;
                            let c: Vec<V> = (0..4).map(|e| g.get(&acc, n * 4 + e)).collect();
                            let r = g.mma(&a, [&b[2 * h], &b[2 * h + 1]], &c);
                            for (e, x) in r.iter().enumerate() {
                                g.set(&acc, n * 4 + e, x);
                            }
                        }
                    }
                }
            }
            g.f.call_void("llvm.nvvm.barrier0", &[]);
            g.f.store(&other, &buf_slot, 8);
        }
        self.f.end_for(kv_loop);
        self.store_rows(&fr, &m0, &rows, &ids, &row_g, (&ml, &acc));
        self.f.br(&out);
        self.f.place(&out);
        self.f.op("ret void");
    }
    /// A forward CTA's `per` query rows (tile `fr.tile`) and the KV tiles of `bn` keys its mask
    /// bounds allow; a CTA past its run's rows branches to the returned `out` label (the kernel's
    /// exit) at once.
    pub(super) fn cta_rows(&mut self, fr: &Frame, per: i64, bn: i64) -> CtaRows {
        let f = &mut self.f;
        let m0 = f.bin("mul", &fr.tile, &i64c(per));
        let live = f.icmp("slt", &m0, &fr.q_len);
        let (go, out) = (f.label("live"), f.label("exit"));
        f.cond_br(&live, &go, &out);
        f.place(&go);
        let q_lo = f.bin("add", &fr.q_pos, &m0);
        let rows_left = f.bin("sub", &fr.q_len, &m0);
        let rows = f.min_i64(&rows_left, &i64c(per));
        let q_hi = f.bin("add", &q_lo, &rows);
        let q_hi = f.bin("sub", &q_hi, &i64c(1));
        let (lo, hi) = super::super::bounds::kv_bounds(f, self.spec.mask, &q_lo, &q_hi, &fr.kv_pos, &fr.kv_len);
        let lo = super::super::text::round_down(f, &lo, bn);
        CtaRows { m0, rows, q_lo, q_hi, lo, hi, out }
    }

    /// One KV tile's scores `s` (a thread's fragment: rows `row_g` and `row_g + 8` of the rows
    /// at `q_lo`, the tile's keys at `j`) through the score modification, the mask (on tiles
    /// that need it) and the online softmax: m and l (`ml`) updated, the accumulators (`acc`)
    /// rescaled (when given), P and the rows' rescale factors returned.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn softmax_tile(
        &mut self,
        mut s: Vec<V>,
        fr: &Frame,
        j: &V,
        at: &RowsAt,
        t: &V,
        (scale, scale2): (&V, &V),
        (ml, acc): (&V, Option<&V>),
        bn: i64,
    ) -> (Vec<V>, [V; 2]) {
        let mut alphas = [f32c(1.0), f32c(1.0)];
        let mask = self.spec.mask;
        let nb = (bn / 8) as usize;
        let (q_lo, q_hi, row_g) = (&at.q_lo, &at.q_hi, &at.row_g);
        // Scores, then Score (the modification of scale·q·k), in base-2 units.
        match self.spec.score {
            Some(score) => {
                // Element (n, e) of a thread's fragment: query row row_g + 8·(e / 2) of the
                // CTA, key column 2t + 8n + e % 2 of the tile (as the mask below reads them).
                let k_lo = self.f.bin("add", &fr.kv_pos, j);
                for (i, x) in s.iter_mut().enumerate() {
                    let (qa, ka) = if score.positions() {
                        let (n, e) = ((i / 4) as i64, (i % 4) as i64);
                        let qr = self.f.bin("add", row_g, &i64c(8 * (e / 2)));
                        let c = self.f.bin("mul", t, &i64c(2));
                        let c = self.f.bin("add", &c, &i64c(8 * n + e % 2));
                        (self.f.bin("add", q_lo, &qr), self.f.bin("add", &k_lo, &c))
                    } else {
                        (q_lo.clone(), k_lo.clone())
                    };
                    *x = self.score(score, x, scale, (&qa, &ka), false).0;
                }
            }
            None => {
                for x in s.iter_mut() {
                    *x = self.f.fast("fmul", x, scale2);
                }
            }
        }
        // MaskEdge: only on tiles that straddle the mask edge or end the run.
        let k_lo = self.f.bin("add", &fr.kv_pos, j);
        let k_hi = self.f.bin("add", &k_lo, &i64c(bn - 1));
        let end = self.f.bin("add", j, &i64c(bn));
        let partial = self.f.icmp("sgt", &end, &fr.kv_len);
        let edge = super::super::bounds::needs_mask(&mut self.f, mask, q_lo, q_hi, &k_lo, &k_hi, &partial);
        let slot = self.f.alloca(&format!("[{} x float]", nb * 4), 4);
        for (i, x) in s.iter().enumerate() {
            let p = self.f.gep("float", &slot, &i64c(i as i64));
            self.f.store(x, &p, 4);
        }
        let (mk, mdone) = (self.f.label("edge"), self.f.label("edgedone"));
        self.f.cond_br(&edge, &mk, &mdone);
        self.f.place(&mk);
        // In 32-bit offsets from the tile: column c is allowed iff c < kv_len − j and, with
        // delta = q_lo − kv_pos − j and r the row in the CTA, lo ≤ delta − (c − r) < end.
        let lim = self.f.bin("sub", &fr.kv_len, j);
        let lim = self.f.clamp_i64(&lim, &i64c(0), &i64c(bn));
        let lim = self.f.cast("trunc", &lim, "i32");
        let delta = self.f.bin("sub", q_lo, &k_lo);
        let delta = self.f.clamp_i64(&delta, &i64c(-(1 << 30)), &i64c(1 << 30));
        let delta = self.f.cast("trunc", &delta, "i32");
        let t2 = self.f.cast("trunc", t, "i32");
        let t2 = self.f.bin("shl", &t2, &i32c(1));
        let rg = self.f.cast("trunc", row_g, "i32");
        // A band with both sides (a window, a two-sided window): delta − lo once, then one
        // unsigned test per element (`bounds::two_sided`).
        let narrow = two_sided(mask).map(|(lo, width)| (self.f.bin("sub", &delta, &i32c(lo)), width));
        for n in 0..nb {
            for e in 0..4 {
                let c = self.f.bin("add", &t2, &i32c(n as i64 * 8 + (e % 2) as i64));
                let r = self.f.bin("add", &rg, &i32c(8 * (e / 2) as i64));
                let mut ok = self.f.icmp("slt", &c, &lim);
                if let Some((lo, width)) = &narrow {
                    // q − k = delta − (c − r) in [lo, lo + width): delta − lo − (c − r) < width.
                    let cr = self.f.bin("sub", &c, &r);
                    let x = self.f.bin("sub", lo, &cr);
                    let vis = self.f.icmp("ult", &x, &i32c(*width));
                    ok = self.f.bin("and", &ok, &vis);
                } else if !mask.is_none() {
                    // q − k = delta − (c − r): at least lo, below end.
                    let cr = self.f.bin("sub", &c, &r);
                    if let Some(lo) = mask.lo {
                        let top = match clamp30(lo) {
                            0 => delta.clone(),
                            lo => self.f.bin("sub", &delta, &i32c(lo)),
                        };
                        let vis = self.f.icmp("sle", &cr, &top);
                        ok = self.f.bin("and", &ok, &vis);
                    }
                    if let Some(end) = mask.end {
                        let back = self.f.bin("sub", &delta, &cr);
                        let near = self.f.icmp("slt", &back, &i32c(clamp30(end)));
                        ok = self.f.bin("and", &ok, &near);
                    }
                }
                let p = self.f.gep("float", &slot, &i64c((n * 4 + e) as i64));
                let x = self.f.load("float", &p, 4);
                let y = self.f.select(&ok, &x, &f32c(f32::NEG_INFINITY));
                self.f.store(&y, &p, 4);
            }
        }
        self.f.br(&mdone);
        self.f.place(&mdone);
        let s: Vec<V> = (0..nb * 4)
            .map(|i| {
                let p = self.f.gep("float", &slot, &i64c(i as i64));
                self.f.load("float", &p, 4)
            })
            .collect();
        // OnlineSoftmax, two rows per thread.
        let mut p = s.clone();
        for h in 0..2 {
            let mut mx = f32c(f32::NEG_INFINITY);
            for n in 0..nb {
                for e in 0..2 {
                    mx = self.f.call("float", "llvm.maxnum.f32", &[&mx, &s[n * 4 + 2 * h + e]]);
                }
            }
            let mx = self.quad_reduce(&mx, true);
            let m_old = self.get(ml, h);
            let m_new = self.f.call("float", "llvm.maxnum.f32", &[&m_old, &mx]);
            let dead = self.f.fcmp("oeq", &m_new, &f32c(f32::NEG_INFINITY));
            let base = self.f.select(&dead, &f32c(0.0), &m_new);
            let mut sum = f32c(0.0);
            for n in 0..nb {
                for e in 0..2 {
                    let i = n * 4 + 2 * h + e;
                    let x = self.f.fast("fsub", &s[i], &base);
                    p[i] = self.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&x]);
                    sum = self.f.fast("fadd", &sum, &p[i]);
                }
            }
            let dm = self.f.fast("fsub", &m_old, &base);
            let alpha = self.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[&dm]);
            let l = self.get(ml, 2 + h);
            let l = self.f.fast("fmul", &l, &alpha);
            let l = self.f.fast("fadd", &l, &sum);
            self.set(ml, 2 + h, &l);
            self.set(ml, h, &m_new);
            if let Some(acc) = acc {
                self.rescale_rows(acc, h, &alpha);
            }
            alphas[h] = alpha;
        }
        (p, alphas)
    }

    /// The accumulators of a thread's row `h` (0: row g, 1: row g + 8) times `alpha`.
    pub(super) fn rescale_rows(&mut self, acc: &V, h: usize, alpha: &V) {
        for db in 0..(self.dv / 8) as usize {
            for e in 0..2 {
                let i = db * 4 + 2 * h + e;
                let x = self.get(acc, i);
                let x = self.f.fast("fmul", &x, alpha);
                self.set(acc, i, &x);
            }
        }
    }

    /// Row `row_g + 8h` of the rows at `m0` of the run, at the end of its loop: (the row, its
    /// token, 1 / l, LSE = (m + log2 l)·ln 2, LSE's address), with 1 / l = 0 and LSE = −inf for a
    /// row that saw no key.
    pub(super) fn finish_row(&mut self, fr: &Frame, m0: &V, row_g: &V, ml: &V, h: usize) -> [V; 5] {
        let (lse, o_row) = (self.param("lse", P1), self.param("o_row", "i64"));
        let l = self.get(ml, 2 + h);
        let l = self.quad_reduce(&l, false);
        let m = self.get(ml, h);
        let f = &mut self.f;
        let r = f.bin("add", row_g, &i64c(8 * h as i64));
        let zero = f.fcmp("oeq", &l, &f32c(0.0));
        let inv = f.fast("fdiv", &f32c(1.0), &l);
        let inv = f.select(&zero, &f32c(0.0), &inv);
        let lg = f.call("float", "llvm.nvvm.lg2.approx.ftz.f", &[&l]);
        let lv = f.fast("fadd", &m, &lg);
        let lv = f.fast("fmul", &lv, &f32c(std::f32::consts::LN_2));
        let lv = f.select(&zero, &f32c(f32::NEG_INFINITY), &lv);
        let token = f.bin("add", &fr.q0, m0);
        let token = f.bin("add", &token, &r);
        let heads = f.bin("udiv", &o_row, &i64c(self.dv));
        let la = f.bin("mul", &token, &heads);
        let la = f.bin("add", &la, &fr.head);
        let lp = f.gep("float", &lse, &la);
        [r, token, inv, lv, lp]
    }

    /// The epilogue: O = acc / l and LSE of the rows at `m0` of the run (`rows` of them; rows
    /// past the run are not stored).
    pub(super) fn store_rows(&mut self, fr: &Frame, m0: &V, rows: &V, ids: &Ids, row_g: &V, (ml, acc): (&V, &V)) {
        let dv = self.dv;
        let (o, o_row) = (self.param("o", P1), self.param("o_row", "i64"));
        for h in 0..2 {
            let [r, token, inv, lv, lp] = self.finish_row(fr, m0, row_g, ml, h);
            let f = &mut self.f;
            let inside = f.icmp("slt", &r, rows);
            let at = f.bin("mul", &token, &o_row);
            let hd = f.bin("mul", &fr.head, &i64c(dv));
            let at = f.bin("add", &at, &hd);
            let orow = f.gep("float", &o, &at);
            let mut vals = Vec::new();
            for db in 0..(dv / 8) as usize {
                for e in 0..2 {
                    vals.push((db, e));
                }
            }
            let scaled: Vec<(V, usize, usize)> = vals
                .iter()
                .map(|&(db, e)| {
                    let x = self.get(acc, db * 4 + 2 * h + e);
                    (self.f.fast("fmul", &x, &inv), db, e)
                })
                .collect();
            let t = ids.t.clone();
            self.f.if_(&inside, |f| {
                let t0 = f.icmp("eq", &t, &i64c(0));
                f.if_(&t0, |f| f.store(&lv, &lp, 4));
                for (x, db, e) in &scaled {
                    let col = f.bin("mul", &t, &i64c(2));
                    let col = f.bin("add", &col, &i64c(*db as i64 * 8 + *e as i64));
                    let p = f.gep("float", &orow, &col);
                    f.store(x, &p, 4);
                }
            });
        }
    }
}
