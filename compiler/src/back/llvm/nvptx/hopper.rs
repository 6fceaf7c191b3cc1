//! The warp-specialized Hopper forward (`--target sm_90a-ws`, FlashAttention-3's structure): a
//! CTA of 128 query rows is one producer warpgroup, which only issues TMA loads, and two consumer
//! warpgroups of 64 rows each, which compute. Q arrives once; K and V tiles arrive through a ring
//! of `STAGES` stages, each guarded by a *full* mbarrier (the producer's `arrive.expect_tx` of
//! the stage's bytes, completed by the TMA copies' transactions) and an *empty* one (every
//! consumer thread arrives once its `wgmma` reading the stage has completed). `setmaxnreg` moves
//! registers from the producer to the consumers. Tiles land 128-byte swizzled (TMA boxes of
//! 64 16-bit columns) and `wgmma` reads them through swizzled descriptors: S = Q·Kᵀ with Q and K
//! both from shared memory (K-major), O += P·V with P from registers and V MN-major.
//!
//! The consumers take turns issuing their products (named barriers 1 and 2 of 256 threads, as
//! FlashAttention-3's warp scheduler barriers), so one's softmax runs while the other's products
//! do; and inside a consumer, a turn issues S of tile j with P·V of tile j − 1, whose softmax ran
//! while S was in flight (each `wgmma.wait_group` takes the accumulators it waits for as tied
//! operands, so nothing reads them early). A score modification's registers leave no room for
//! that (the windowed soft-cap at d128 spilled): those kernels take one tile at a time.
//!
//! The tensor maps (Q, K, V as [rows][heads][width], boxes of one head) are built by the device
//! from the launch record's `tensor_maps` and passed in global memory (`tmaps`, 128 bytes each).
//! Rows a box reads past a sequence belong to the next sequence of the launch (written, finite)
//! or lie past the launch's last row (TMA fills zeros), so P = 0 meets no NaN in V.
//!
//! O leaves through shared memory: a consumer whose 64 rows all lie inside the run writes its
//! normalised accumulators, fp32, into boxes of 32 columns × 64 rows laid out as TMA's 128-byte
//! swizzle reads them (conflict-free: a row's 16-byte chunk is XORed with its row mod 8), fences
//! them to the async proxy, meets its 127 companions at a named barrier, and one thread stores
//! the boxes with `cp.async.bulk.tensor` (the fourth map, `o`) and waits until they have been
//! read. A consumer at a run's end stores its rows directly, since a box would write the next
//! sequence's rows. LSE is stored directly by both.
//!
//! Not yet here (issue 31): the backward in this structure.

use super::wgmma::{WgA, Wgmma};
use super::*;
use crate::back::manifest::TensorMapUse;

/// Threads per CTA: the producer warpgroup, then two consumer warpgroups.
pub(super) const WS_THREADS: u32 = 384;
/// Query rows per CTA, 64 per consumer warpgroup.
pub(super) const WS_ROWS: i64 = 128;
/// K/V stages in the ring: a consumer holds two (S of one tile, P·V of the one before) while the
/// producer fills the third.
const STAGES: i64 = 3;
/// Registers per thread after `setmaxnreg`: the producer's 128 threads give, the consumers' 256
/// take (128·24 + 256·240 = 64,512 of the SM's 65,536).
const PRODUCER_REGS: u32 = 24;
const CONSUMER_REGS: u32 = 240;
/// Columns of a TMA box: one 128-byte swizzled row of 16-bit elements.
const BOX: i64 = 64;
/// Consumer threads: each arrives on a stage's empty barrier.
const CONSUMER_THREADS: i64 = 256;
/// The named barriers of the consumers' ping-pong: `TURN + c` is consumer c's turn (0 is
/// `bar.sync 0`, the block's).
const TURN: i64 = 1;
/// The named barrier of consumer c's 128 threads before its O boxes are stored: `O_READY + c`.
const O_READY: i64 = 3;
/// Columns of an O box: 128 bytes of fp32, the span of the 128-byte swizzle.
const O_BOX: i64 = 32;

/// Whether a spec's forward takes this structure: 16-bit head dims of 64 or 128 (whole TMA boxes
/// and m64nNk16 products of at most 128 columns); others keep the sm_90a kernel.
pub(super) fn takes(d: i64, dv: i64) -> bool {
    matches!(d, 64 | 128) && matches!(dv, 64 | 128)
}

/// The shared-memory plan, in bytes: Q, then the ring's stages, then O (fp32, 64 rows per
/// consumer), then the mbarriers. Every region starts on a 1024-byte boundary, as 128-byte
/// swizzled boxes must.
#[derive(Clone, Copy)]
pub(super) struct Smem {
    pub q_bytes: i64,
    pub stage_bytes: i64,
    pub o_at: i64,
    pub bars_at: i64,
    pub total: i64,
}

pub(super) fn shared(d: i64, dv: i64) -> Smem {
    let bn = bn(d.max(dv));
    let q_bytes = WS_ROWS * d * 2;
    let stage_bytes = bn * (d + dv) * 2;
    let o_at = q_bytes + STAGES * stage_bytes;
    let bars_at = o_at + WS_ROWS * dv * 4;
    Smem { q_bytes, stage_bytes, o_at, bars_at, total: bars_at + 8 * (2 * STAGES + 1) }
}

/// The tensor maps the kernel reads, in the order of its `tmaps` array.
pub(super) fn tensor_maps(d: i64, dv: i64) -> Vec<TensorMapUse> {
    let bn = bn(d.max(dv)) as u32;
    let map = |tensor: &str, width: i64, rows: u32| TensorMapUse {
        tensor: tensor.to_string(),
        width: width as u32,
        box_width: BOX as u32,
        box_rows: rows,
        swizzle_bytes: 128,
        elem_bytes: 2,
    };
    let o = TensorMapUse { box_width: O_BOX as u32, elem_bytes: 4, ..map("o", dv, BM as u32) };
    vec![map("q", d, WS_ROWS as u32), map("k", d, bn), map("v", dv, bn), o]
}

/// What a consumer's turns read: its Q rows, the ring's layout, the tile width, which consumer it
/// is and where its KV tiles end.
struct Turns<'a> {
    q_base: &'a V,
    smem: &'a V,
    q_bytes: i64,
    stage_bytes: i64,
    bn: i64,
    second: &'a V,
    hi: &'a V,
}

impl Gen {
    pub(super) fn forward_ws(&mut self) {
        let (d, dv) = (self.d, self.dv);
        let bn = bn(d.max(dv));
        let Smem { q_bytes, stage_bytes, o_at, bars_at, .. } = shared(d, dv);
        let f = &mut self.f;
        let tid32 = f.call("i32", "llvm.nvvm.read.ptx.sreg.tid.x", &[]);
        let tid = f.cast("zext", &tid32, "i64");
        let fr = self.frame();
        let CtaRows { m0, lo, hi, out, .. } = self.cta_rows(&fr, WS_ROWS, bn);
        let smem = V::new("@smem", P3);
        let bar = |g: &mut Gen, i: i64| g.shared32(&smem, &i64c(bars_at + 8 * i));
        let (full, empty): (Vec<V>, Vec<V>) = (0..STAGES).map(|s| (bar(self, s), bar(self, STAGES + s))).unzip();
        let q_bar = bar(self, 2 * STAGES);
        // Thread 0 initialises the barriers; the block's barrier publishes them.
        let first = self.f.icmp("eq", &tid, &i64c(0));
        let (init, ready) = (self.f.label("init"), self.f.label("inited"));
        self.f.cond_br(&first, &init, &ready);
        self.f.place(&init);
        for b in &full {
            self.mbar_init(b, 1);
        }
        for b in &empty {
            self.mbar_init(b, CONSUMER_THREADS);
        }
        self.mbar_init(&q_bar, 1);
        self.asm("fence.mbarrier_init.release.cluster;");
        self.f.br(&ready);
        self.f.place(&ready);
        self.f.call_void("llvm.nvvm.barrier0", &[]);
        let wg = self.f.bin("lshr", &tid, &i64c(7));
        let producer = self.f.icmp("eq", &wg, &i64c(0));
        let (prod, cons) = (self.f.label("producer"), self.f.label("consumer"));
        self.f.cond_br(&producer, &prod, &cons);

        // The producer warpgroup: its first thread issues every load.
        self.f.place(&prod);
        self.asm(&format!("setmaxnreg.dec.sync.aligned.u32 {PRODUCER_REGS};"));
        let (issue, idle) = (self.f.label("issue"), self.f.label("idle"));
        self.f.cond_br(&first, &issue, &idle);
        self.f.place(&issue);
        let (q_map, k_map, v_map) = (self.tensor_map(0), self.tensor_map(1), self.tensor_map(2));
        let q_row0 = self.f.bin("add", &fr.q0, &m0);
        self.mbar_expect_tx(&q_bar, WS_ROWS * d * 2);
        for b in 0..d / BOX {
            let dst = self.shared32(&smem, &i64c(b * WS_ROWS * 2 * BOX));
            self.tma_load(&dst, &q_map, [&i64c(b * BOX), &fr.head, &q_row0], &q_bar);
        }
        let n_slot = self.f.alloca("i64", 8);
        self.f.store(&i64c(0), &n_slot, 8);
        let kv_loop = self.f.begin_for(&lo, &hi, bn);
        let j = kv_loop.i.clone();
        {
            let (s, ph) = self.stage_of(&n_slot);
            let e = self.pick(&empty, &s);
            let ph1 = self.f.bin("xor", &ph, &i32c(1));
            self.mbar_wait(&e, &ph1);
            let fb = self.pick(&full, &s);
            self.mbar_expect_tx(&fb, bn * (d + dv) * 2);
            let row = self.f.bin("add", &fr.kv0, &j);
            let kbase = self.stage_base(&smem, q_bytes, stage_bytes, &s);
            for b in 0..d / BOX {
                let dst = self.f.bin("add", &kbase, &i32c(b * bn * 2 * BOX));
                self.tma_load(&dst, &k_map, [&i64c(b * BOX), &fr.kv_head, &row], &fb);
            }
            for b in 0..dv / BOX {
                let dst = self.f.bin("add", &kbase, &i32c(bn * d * 2 + b * bn * 2 * BOX));
                self.tma_load(&dst, &v_map, [&i64c(b * BOX), &fr.kv_head, &row], &fb);
            }
            self.next_stage(&n_slot);
        }
        self.f.end_for(kv_loop);
        self.f.br(&idle);
        self.f.place(&idle);
        self.f.br(&out);

        // A consumer warpgroup: rows 64·c.. of the CTA's 128.
        self.f.place(&cons);
        self.asm(&format!("setmaxnreg.inc.sync.aligned.u32 {CONSUMER_REGS};"));
        let f = &mut self.f;
        let c = f.bin("sub", &wg, &i64c(1));
        let ctid = f.bin("and", &tid, &i64c(127));
        let warp = f.bin("lshr", &ctid, &i64c(5));
        let lane = f.bin("and", &ctid, &i64c(31));
        let ids = Ids { g: f.bin("lshr", &lane, &i64c(2)), t: f.bin("and", &lane, &i64c(3)), warp, lane, tid: ctid };
        let c64 = f.bin("mul", &c, &i64c(BM));
        let m0c = f.bin("add", &m0, &c64);
        let rows_c = f.bin("sub", &fr.q_len, &m0c);
        let rows_c = f.min_i64(&rows_c, &i64c(BM));
        let q_lo_c = f.bin("add", &fr.q_pos, &m0c);
        let q_hi_c = f.bin("add", &q_lo_c, &rows_c);
        let q_hi_c = f.bin("sub", &q_hi_c, &i64c(1));
        let warp_row = f.bin("mul", &ids.warp, &i64c(16));
        let row_g = f.bin("add", &warp_row, &ids.g);
        let nacc = (dv / 8 * 4) as usize;
        let acc = self.regs(nacc, 0.0);
        let ml = self.regs(4, 0.0);
        self.set(&ml, 0, &f32c(f32::NEG_INFINITY));
        self.set(&ml, 1, &f32c(f32::NEG_INFINITY));
        let scale = self.param("scale", "float");
        let scale2 = self.f.fast("fmul", &scale, &f32c(std::f32::consts::LOG2_E));
        // This warpgroup's Q rows: 64 rows of 128 bytes into each box.
        let q_rows = self.f.bin("mul", &c, &i64c(BM * 2 * BOX));
        let q_rows = self.f.cast("trunc", &q_rows, "i32");
        let q_base = self.shared32(&smem, &i64c(0));
        let q_base = self.f.bin("add", &q_base, &q_rows);
        self.mbar_wait(&q_bar, &i32c(0));
        // Ping-pong: consumer c issues its S = QKᵀ once named barrier 1 + c completes, and then
        // lets the other issue its own (barrier 2 − c), so one's softmax runs under the other's
        // product. Consumer 0 goes first: consumer 1 arrives for it before the loop, then after
        // each of its products that consumer 0 has a next one to follow.
        let second = self.f.icmp("eq", &c, &i64c(1));
        let has_tiles = self.f.icmp("slt", &lo, &hi);
        let lead = self.f.bin("and", &second, &has_tiles);
        let (pre, started) = (self.f.label("lead"), self.f.label("led"));
        self.f.cond_br(&lead, &pre, &started);
        self.f.place(&pre);
        self.asm(&format!("bar.arrive {TURN}, 256;"));
        self.f.br(&started);
        self.f.place(&started);
        let n_slot = self.f.alloca("i64", 8);
        self.f.store(&i64c(0), &n_slot, 8);
        let at = RowsAt { q_lo: q_lo_c, q_hi: q_hi_c, row_g: row_g.clone() };
        // P of the tile before (packed) and its stage, carried to the next turn's P·V.
        let p_slot = self.f.alloca(&format!("[{} x i32]", bn / 4), 4);
        let prev_slot = self.f.alloca("i32", 4);
        let tile = Turns { q_base: &q_base, smem: &smem, q_bytes, stage_bytes, bn, second: &second, hi: &hi };
        let done = self.f.label("consumed");
        if self.spec.score.is_some() {
            // A score modification's registers leave no room for a second tile in flight (the
            // windowed soft-cap at d128 spilled): one tile at a time, its products waited for.
            let kv_loop = self.f.begin_for(&lo, &hi, bn);
            let j = kv_loop.i.clone();
            {
                let (s, kbase) = self.consumer_stage(&n_slot, &full, &tile);
                let s_acc = self.ws_turn(&tile, &j, &kbase, None).0;
                let (p, _) = self.softmax_tile(s_acc, &fr, &j, &at, &ids.t, (&scale, &scale2), (&ml, Some(&acc)), bn);
                self.keep_p(&p_slot, &prev_slot, &p, &s, bn);
                let o = self.ws_pv(&p_slot, &s, &acc, &tile);
                let o = self.wgmma_wait_for(0, &o);
                for (i, x) in o.iter().enumerate() {
                    self.set(&acc, i, x);
                }
                self.release(&empty, &s);
                self.next_stage(&n_slot);
            }
            self.f.end_for(kv_loop);
            self.f.br(&done);
        } else {
            let (first_tile, looped) = (self.f.label("first_tile"), self.f.label("looped"));
            self.f.cond_br(&has_tiles, &first_tile, &done);
            self.f.place(&first_tile);
            {
                // Tile `lo`: its S alone, its softmax, its P kept.
                let (s, kbase) = self.consumer_stage(&n_slot, &full, &tile);
                let s_acc = self.ws_turn(&tile, &lo, &kbase, None).0;
                let (p, _) = self.softmax_tile(s_acc, &fr, &lo, &at, &ids.t, (&scale, &scale2), (&ml, None), bn);
                self.keep_p(&p_slot, &prev_slot, &p, &s, bn);
                self.next_stage(&n_slot);
            }
            let start = self.f.bin("add", &lo, &i64c(bn));
            let kv_loop = self.f.begin_for(&start, &hi, bn);
            let j = kv_loop.i.clone();
            {
                let (s, kbase) = self.consumer_stage(&n_slot, &full, &tile);
                let prev = self.f.load("i32", &prev_slot, 4);
                let (s_acc, o) = self.ws_turn(&tile, &j, &kbase, Some((&p_slot, &prev, &acc)));
                let s_acc = self.wgmma_wait_for(1, &s_acc);
                let (p, alphas) = self.softmax_tile(s_acc, &fr, &j, &at, &ids.t, (&scale, &scale2), (&ml, None), bn);
                // P·V of the tile before has completed: its stage goes back, O takes this tile's scale.
                let o = self.wgmma_wait_for(0, &o.expect("P·V issued"));
                for (i, x) in o.iter().enumerate() {
                    self.set(&acc, i, x);
                }
                self.release(&empty, &prev);
                for (h, alpha) in alphas.iter().enumerate() {
                    self.rescale_rows(&acc, h, alpha);
                }
                self.keep_p(&p_slot, &prev_slot, &p, &s, bn);
                self.next_stage(&n_slot);
            }
            self.f.end_for(kv_loop);
            self.f.br(&looped);
            self.f.place(&looped);
            {
                // The last tile's P·V.
                let prev = self.f.load("i32", &prev_slot, 4);
                let o = self.ws_pv(&p_slot, &prev, &acc, &tile);
                let o = self.wgmma_wait_for(0, &o);
                for (i, x) in o.iter().enumerate() {
                    self.set(&acc, i, x);
                }
                self.release(&empty, &prev);
            }
            self.f.br(&done);
        }
        self.f.place(&done);
        // O: through shared memory and TMA when the consumer's 64 rows all lie in the run.
        let whole = self.f.icmp("eq", &rows_c, &i64c(BM));
        let (boxed, direct, stored) = (self.f.label("o_boxes"), self.f.label("o_rows"), self.f.label("o_stored"));
        self.f.cond_br(&whole, &boxed, &direct);
        self.f.place(&boxed);
        let o_off = self.f.bin("mul", &c, &i64c(BM * dv * 4));
        let o_off = self.f.bin("add", &o_off, &i64c(o_at));
        let o_base = self.shared32(&smem, &o_off);
        self.store_boxes(&fr, &m0c, &ids, &row_g, (&ml, &acc), &o_base, &c);
        self.f.br(&stored);
        self.f.place(&direct);
        self.store_rows(&fr, &m0c, &rows_c, &ids, &row_g, (&ml, &acc));
        self.f.br(&stored);
        self.f.place(&stored);
        self.f.br(&out);
        self.f.place(&out);
        self.f.op("ret void");
    }

    /// The epilogue of a consumer whose 64 rows (from `m0c` of the CTA's sequence) all lie in the
    /// run: LSE stored directly; O = acc / l written to the consumer's region of shared memory at
    /// `o_base` (i32) as `dv / 32` boxes of 32 fp32 columns × 64 rows in TMA's 128-byte swizzle
    /// (byte (r, col) of a box: r·128 + ((col / 4) ⊕ (r mod 8))·16 + (col mod 4)·4), published to
    /// the async proxy, and stored by the consumer's first thread with `cp.async.bulk.tensor`
    /// through map 3 once every thread has written (named barrier `O_READY + c`).
    #[allow(clippy::too_many_arguments)]
    fn store_boxes(&mut self, fr: &Frame, m0c: &V, ids: &Ids, row_g: &V, (ml, acc): (&V, &V), o_base: &V, c: &V) {
        let dv = self.dv;
        for h in 0..2usize {
            let [r, _, inv, lv, lp] = self.finish_row(fr, m0c, row_g, ml, h);
            let f = &mut self.f;
            let t0 = f.icmp("eq", &ids.t, &i64c(0));
            f.if_(&t0, |f| f.store(&lv, &lp, 4));
            // Row r's bytes in every box, its chunks XORed with r mod 8 (= g).
            let row_at = f.bin("mul", &r, &i64c(128));
            let row_at = f.cast("trunc", &row_at, "i32");
            let row_at = f.bin("add", o_base, &row_at);
            let g = f.cast("trunc", &ids.g, "i32");
            let t = f.cast("trunc", &ids.t, "i32");
            let half = f.bin("lshr", &t, &i32c(1));
            let lane_at = f.bin("and", &t, &i32c(1));
            let lane_at = f.bin("mul", &lane_at, &i32c(8));
            for db in 0..dv / 8 {
                // Columns 8·db + 2t, +1: box db / 4, chunk 2·(db mod 4) + t / 2.
                let mut pair = V::new("poison", "<2 x float>");
                for e in 0..2 {
                    let x = self.get(acc, (db * 4 + 2 * h as i64 + e) as usize);
                    let x = self.f.fast("fmul", &x, &inv);
                    pair = self.f.let_("<2 x float>", format!("insertelement {}, {}, i32 {e}", pair.t(), x.t()));
                }
                let f = &mut self.f;
                let chunk = f.bin("add", &half, &i32c(2 * (db % 4)));
                let chunk = f.bin("xor", &chunk, &g);
                let at = f.bin("mul", &chunk, &i32c(16));
                let at = f.bin("add", &at, &lane_at);
                let at = f.bin("add", &at, &i32c(db / 4 * BM * 128));
                let at = f.bin("add", &at, &row_at);
                let p = f.cast("inttoptr", &at, "ptr addrspace(3)");
                f.store(&pair, &p, 8);
            }
        }
        // The boxes were written through the generic proxy and TMA reads them through the async
        // one (PTX ISA, "proxy"): each writer fences, then the consumer's threads meet.
        self.asm("fence.proxy.async.shared::cta;");
        let id = self.f.cast("trunc", c, "i32");
        let id = self.f.bin("add", &id, &i32c(O_READY));
        self.asm_args("bar.sync $0, 128;", "r", &[&id]);
        let first = self.f.icmp("eq", &ids.tid, &i64c(0));
        let (issue, issued) = (self.f.label("o_issue"), self.f.label("o_issued"));
        self.f.cond_br(&first, &issue, &issued);
        self.f.place(&issue);
        let o_map = self.tensor_map(3);
        let row = self.f.bin("add", &fr.q0, m0c);
        for b in 0..dv / O_BOX {
            let src = self.f.bin("add", o_base, &i32c(b * BM * 128));
            let coords: Vec<V> =
                [&i64c(b * O_BOX), &fr.head, &row].iter().map(|x| self.f.cast("trunc", x, "i32")).collect();
            self.asm_args(
                "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [$0, {$1, $2, $3}], [$4];",
                "l,r,r,r,r",
                &[&o_map, &coords[0], &coords[1], &coords[2], &src],
            );
        }
        // The boxes must stay until TMA has read them (the CTA's shared memory ends with it).
        self.asm("cp.async.bulk.commit_group;");
        self.asm("cp.async.bulk.wait_group.read 0;");
        self.f.br(&issued);
        self.f.place(&issued);
    }

    /// The generic address (i64) of tensor map `i` of `tmaps`, acquired by this thread: the maps
    /// were written by the host through the generic proxy and TMA reads them through the
    /// tensormap proxy (PTX ISA "membar/fence", `fence.proxy.tensormap`).
    fn tensor_map(&mut self, i: i64) -> V {
        let maps = self.f.let_("ptr", format!("addrspacecast {} to ptr", param("tmaps", P1).t()));
        let maps = self.f.cast("ptrtoint", &maps, "i64");
        let map = self.f.bin("add", &maps, &i64c(128 * i));
        self.asm_args("fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", "l", &[&map]);
        map
    }

    /// Waits for stage `n`'s tile (full) and returns its stage (i32) and K tile's shared address.
    fn consumer_stage(&mut self, n: &V, full: &[V], t: &Turns<'_>) -> (V, V) {
        let (s, ph) = self.stage_of(n);
        let fb = self.pick(full, &s);
        self.mbar_wait(&fb, &ph);
        let kbase = self.stage_base(t.smem, t.q_bytes, t.stage_bytes, &s);
        (s, kbase)
    }

    /// A consumer's turn: it waits for it, issues S = QKᵀ of the tile at `j` (K at `kbase`) and,
    /// with `pv` (P's slot, its stage, the accumulators), O += P·V of the tile before, then hands
    /// the turn to the other consumer if it has one more to take. Returns S and O, in flight
    /// (their groups committed; without `pv`, S already waited for).
    fn ws_turn(&mut self, t: &Turns<'_>, j: &V, kbase: &V, pv: Option<(&V, &V, &V)>) -> (Vec<V>, Option<Vec<V>>) {
        self.turn(t.second, "bar.sync", false);
        let s = self.ws_scores(t.q_base, kbase, t.bn);
        let o = pv.map(|(p_slot, prev, acc)| self.ws_pv(p_slot, prev, acc, t));
        let s = if o.is_none() { self.wgmma_wait_for(0, &s) } else { s };
        let next = self.f.bin("add", j, &i64c(t.bn));
        let more = self.f.icmp("slt", &next, t.hi);
        let first = self.f.bin("xor", t.second, &V::new("true", "i1"));
        let hand_over = self.f.bin("or", &first, &more);
        let (give, given) = (self.f.label("give"), self.f.label("given"));
        self.f.cond_br(&hand_over, &give, &given);
        self.f.place(&give);
        self.turn(t.second, "bar.arrive", true);
        self.f.br(&given);
        self.f.place(&given);
        (s, o)
    }

    /// Keeps P (packed to 16-bit pairs) and its stage `s` for the next turn's P·V.
    fn keep_p(&mut self, p_slot: &V, prev_slot: &V, p: &[V], s: &V, bn: i64) {
        for kk in 0..(bn / 16) as usize {
            for (e, x) in self.pack_pv(p, kk).iter().enumerate() {
                let at = self.f.gep("i32", p_slot, &i64c((kk * 4 + e) as i64));
                self.f.store(x, &at, 4);
            }
        }
        self.f.store(s, prev_slot, 4);
    }

    /// Every consumer thread arrives on stage `s`'s empty barrier: its products have completed.
    fn release(&mut self, empty: &[V], s: &V) {
        let e = self.pick(empty, s);
        self.asm_args("mbarrier.arrive.shared::cta.b64 _, [$0];", "r", &[&e]);
    }

    /// S = Q Kᵀ for a consumer's 64 rows, issued and committed: both operands from shared
    /// memory, K-major, 128-byte swizzled; the K step `kk` of 16 columns lies 32 bytes into box
    /// `kk / 4`'s rows.
    fn ws_scores(&mut self, q_base: &V, k_base: &V, bn: i64) -> Vec<V> {
        let d = self.d;
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        let op = format!("wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{dt}.{dt}");
        let steps: Vec<Wgmma> = (0..d / 16)
            .map(|kk| {
                let (b, into) = (kk / 4, 32 * (kk % 4));
                let qa = self.f.bin("add", q_base, &i32c(b * WS_ROWS * 2 * BOX + into));
                let ka = self.f.bin("add", k_base, &i32c(b * bn * 2 * BOX + into));
                Wgmma {
                    a: WgA::Desc(self.sw128(&qa, 16, 1024)),
                    desc: self.sw128(&ka, 16, 1024),
                    accumulate: kk > 0,
                    trans_b: false,
                }
            })
            .collect();
        let zero = vec![f32c(0.0); (bn / 2) as usize];
        let s = self.batch(&op, &steps, &zero);
        self.asm("wgmma.commit_group.sync.aligned;");
        s
    }

    /// O += P V, issued and committed: P from its slot, V of stage `s` (keys × value head)
    /// MN-major, 128-byte swizzled: 64-column boxes `bn · 128` bytes apart (LBO), 8-key rows 1024
    /// (SBO). Returns the accumulators, in flight.
    fn ws_pv(&mut self, p_slot: &V, s: &V, acc: &V, t: &Turns<'_>) -> Vec<V> {
        let (d, dv, bn) = (self.d, self.dv, t.bn);
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        let c: Vec<V> = (0..(dv / 2) as usize).map(|i| self.get(acc, i)).collect();
        let kbase = self.stage_base(t.smem, t.q_bytes, t.stage_bytes, s);
        let v_base = self.f.bin("add", &kbase, &i32c(bn * d * 2));
        let steps: Vec<Wgmma> = (0..(bn / 16) as usize)
            .map(|kk| {
                let a = [0, 1, 2, 3].map(|e| {
                    let at = self.f.gep("i32", p_slot, &i64c((kk * 4 + e) as i64));
                    self.f.load("i32", &at, 4)
                });
                let va = self.f.bin("add", &v_base, &i32c(kk as i64 * 16 * 2 * BOX));
                Wgmma { a: WgA::Regs(a), desc: self.sw128(&va, bn * 2 * BOX, 1024), accumulate: true, trans_b: true }
            })
            .collect();
        let o = self.batch(&format!("wgmma.mma_async.sync.aligned.m64n{dv}k16.f32.{dt}.{dt}"), &steps, &c);
        self.asm("wgmma.commit_group.sync.aligned;");
        o
    }

    /// `wgmma.wait_group N` with the accumulators `vals` of the groups it waits for tied through
    /// it (in and out), so nothing reads them before it (CUTLASS's `warpgroup_fence_operand`).
    fn wgmma_wait_for(&mut self, n: u32, vals: &[V]) -> Vec<V> {
        let k = vals.len();
        let ty = format!("{{{}}}", vec!["float"; k].join(", "));
        let constraints: Vec<String> = (0..k).map(|_| "=f".to_string()).chain((0..k).map(|i| i.to_string())).collect();
        let args: Vec<String> = vals.iter().map(|v| v.t()).collect();
        let r = self.f.let_(
            &ty,
            format!(
                "call {ty} asm sideeffect \"wgmma.wait_group.sync.aligned {n};\", \"{},~{{memory}}\"({})",
                constraints.join(","),
                args.join(", ")
            ),
        );
        (0..k).map(|i| self.f.let_("float", format!("extractvalue {ty} {}, {i}", r.name))).collect()
    }

    /// `op` (`bar.sync` or `bar.arrive`) of 256 threads on consumer c's turn barrier, or (`other`)
    /// on the other consumer's; `second`: c = 1. The id is a register, so ptxas reports all 16
    /// barriers used (the CTA holds the SM alone anyway); immediates behind a branch made ptxas
    /// duplicate the softmax (1424 SASS instructions instead of 1264 at d128).
    fn turn(&mut self, second: &V, op: &str, other: bool) {
        let c = self.f.cast("zext", second, "i32");
        let id = if other { self.f.bin("sub", &i32c(TURN + 1), &c) } else { self.f.bin("add", &c, &i32c(TURN)) };
        self.asm_args(&format!("{op} $0, 256;"), "r", &[&id]);
    }

    /// A 128-byte swizzled matrix descriptor of the shared address `a` (i32).
    fn sw128(&mut self, a: &V, lbo: i64, sbo: i64) -> V {
        let a = self.f.cast("zext", a, "i64");
        let a = self.f.bin("and", &a, &i64c(0x3FFFF));
        let a = self.f.bin("lshr", &a, &i64c(4));
        let hi = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (1 << 62);
        self.f.bin("or", &a, &i64c(hi))
    }

    /// The 32-bit shared address of byte `off` of `base`.
    fn shared32(&mut self, base: &V, off: &V) -> V {
        let p = self.f.gep("i8", base, off);
        self.f.cast("ptrtoint", &p, "i32")
    }

    /// Stage `s` (i32) of the ring and the parity of its current use, from the use count in `n`.
    fn stage_of(&mut self, n: &V) -> (V, V) {
        let n = self.f.load("i64", n, 8);
        let n = self.f.cast("trunc", &n, "i32");
        let s = self.f.bin("urem", &n, &i32c(STAGES));
        let ph = self.f.bin("udiv", &n, &i32c(STAGES));
        (s, self.f.bin("and", &ph, &i32c(1)))
    }

    fn next_stage(&mut self, n: &V) {
        let x = self.f.load("i64", n, 8);
        let x = self.f.bin("add", &x, &i64c(1));
        self.f.store(&x, n, 8);
    }

    /// The barrier of stage `s` among `bars` (one per stage, 8 bytes apart).
    fn pick(&mut self, bars: &[V], s: &V) -> V {
        let off = self.f.bin("mul", s, &i32c(8));
        self.f.bin("add", &bars[0], &off)
    }

    /// The shared address (i32) of stage `s`'s K tile.
    fn stage_base(&mut self, smem: &V, q_bytes: i64, stage_bytes: i64, s: &V) -> V {
        let base = self.shared32(smem, &i64c(q_bytes));
        let off = self.f.bin("mul", s, &i32c(stage_bytes));
        self.f.bin("add", &base, &off)
    }

    fn asm(&mut self, text: &str) {
        self.f.op(format!("call void asm sideeffect \"{text}\", \"~{{memory}}\"()"));
    }

    fn asm_args(&mut self, text: &str, constraints: &str, args: &[&V]) {
        let list: Vec<String> = args.iter().map(|a| a.t()).collect();
        self.f.op(format!("call void asm sideeffect \"{text}\", \"{constraints},~{{memory}}\"({})", list.join(", ")));
    }

    fn mbar_init(&mut self, bar: &V, count: i64) {
        self.asm_args("mbarrier.init.shared::cta.b64 [$0], $1;", "r,r", &[bar, &i32c(count)]);
    }

    /// Arrives on `bar` expecting `bytes` of transactions in its current phase.
    fn mbar_expect_tx(&mut self, bar: &V, bytes: i64) {
        self.asm_args("mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r", &[bar, &i32c(bytes)]);
    }

    /// Waits until the phase of `parity` (i32) of `bar` has completed: `try_wait.parity` in a loop.
    fn mbar_wait(&mut self, bar: &V, parity: &V) {
        let (wait, done) = (self.f.label("wait"), self.f.label("waited"));
        self.f.br(&wait);
        self.f.place(&wait);
        let ok = self.f.let_(
            "i32",
            format!(
                "call i32 asm sideeffect \"{{ .reg .pred %attnc_p; mbarrier.try_wait.parity.shared::cta.b64 %attnc_p, [$1], $2; selp.b32 $0, 1, 0, %attnc_p; }}\", \"=r,r,r,~{{memory}}\"({}, {})",
                bar.t(),
                parity.t()
            ),
        );
        let ok = self.f.icmp("ne", &ok, &i32c(0));
        self.f.cond_br(&ok, &done, &wait);
        self.f.place(&done);
    }

    /// A TMA load of the box at `coords` (innermost first, i64) of the tensor map at `map` (a
    /// generic address) to shared `dst`, completing transactions on `bar`.
    fn tma_load(&mut self, dst: &V, map: &V, coords: [&V; 3], bar: &V) {
        let c: Vec<V> = coords.iter().map(|x| self.f.cast("trunc", x, "i32")).collect();
        self.asm_args(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3, $4}], [$5];",
            "r,l,r,r,r,r",
            &[dst, map, &c[0], &c[1], &c[2], bar],
        );
    }
}
