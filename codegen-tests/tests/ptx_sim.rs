//! attnc's generated PTX executed by the PTX interpreter (`ptx-sim`), for sm_80 and sm_90a,
//! against Rust references: the merge kernel (the LSE-weighted combine of two partial outputs)
//! and the 2-D add (reduce-scatter sums, GQA head sums), at the launch configuration the
//! manifest gives. The attention kernels (`mma.sync`, `ldmatrix`, `cp.async`, `wgmma`) follow as
//! the interpreter learns those instructions (issue 18).
#![cfg(feature = "llvm")]

use attnc_compiler::back::llvm::{self, Output, Target};
use attnc_compiler::kernel::Band;
use ptx_sim::{Arg, Global, Launch};

fn launch_of(out: &Output, threads: usize) -> Launch {
    let l = out.launch.as_ref().expect("a GPU kernel has a launch");
    let block = l.block;
    Launch { grid: [threads.div_ceil(block[0] as usize) as u32, 1, 1], block, dynamic_shared: 0 }
}

fn values(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1u32 << 24) as f32 * 4.0 - 2.0
        })
        .collect()
}

/// The merge kernel: `out, out_lse ← merge(out, out_lse, part, part_lse)` over `rows` rows of
/// `d` floats, with rows whose LSEs are −inf on one side or both.
#[test]
fn merge_kernels_match_the_lse_combine() {
    for target in [Target::Sm80, Target::Sm90a] {
        for d in [64usize, 128] {
            let out = llvm::compile_merge(d as u32, target).unwrap();
            let module = ptx_sim::parse(&out.asm).unwrap();
            let rows = 200;
            let (o, p) = (values(rows * d, 1), values(rows * d, 2));
            let (mut ol, mut pl) = (values(rows, 3), values(rows, 4));
            ol[3] = f32::NEG_INFINITY;
            pl[5] = f32::NEG_INFINITY;
            (ol[7], pl[7]) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
            let mut g = Global::new();
            let at = [g.upload_f32(&o), g.upload_f32(&ol), g.upload_f32(&p), g.upload_f32(&pl)];
            let args = [Arg::U64(at[0]), Arg::U64(at[1]), Arg::U64(at[2]), Arg::U64(at[3]), Arg::I64(rows as i64)];
            ptx_sim::run(&module, &out.entry, &launch_of(&out, rows), &args, &mut g)
                .unwrap_or_else(|e| panic!("{} {}: {e}", out.entry, target.name()));
            let (got_o, got_l) = (g.f32s(at[0], rows * d), g.f32s(at[1], rows));
            for r in 0..rows {
                let (la, lp) = (ol[r] as f64, pl[r] as f64);
                let m = la.max(lp);
                let (want_l, wa, wp) = if m == f64::NEG_INFINITY {
                    (f64::NEG_INFINITY, 1.0, 0.0)
                } else {
                    let l = m + ((la - m).exp() + (lp - m).exp()).ln();
                    (l, (la - l).exp(), (lp - l).exp())
                };
                let close = |a: f32, b: f64| (a as f64 - b).abs() <= 1e-5 * (1.0 + b.abs()) || (a as f64 == b);
                assert!(close(got_l[r], want_l), "{} row {r}: lse {} vs {want_l}", out.entry, got_l[r]);
                for e in 0..d {
                    let want = wa * o[r * d + e] as f64 + wp * p[r * d + e] as f64;
                    assert!(
                        close(got_o[r * d + e], want),
                        "{} row {r} [{e}]: {} vs {want}",
                        out.entry,
                        got_o[r * d + e]
                    );
                }
            }
        }
    }
}

/// The 2-D add: `dst[r·dp + c] += src[r·sp + c]` for `c < width`, `r < height` (pitches in
/// floats), leaving the gaps between rows alone.
#[test]
fn add2d_kernels_add_strided_rows() {
    for target in [Target::Sm80, Target::Sm90a] {
        let out = llvm::compile_add2d(target).unwrap();
        let module = ptx_sim::parse(&out.asm).unwrap();
        let (width, height, sp, dp) = (37usize, 9usize, 40usize, 50usize);
        let (src, dst) = (values(sp * height, 5), values(dp * height, 6));
        let mut g = Global::new();
        let (s_at, d_at) = (g.upload_f32(&src), g.upload_f32(&dst));
        let args = [
            Arg::U64(d_at),
            Arg::I64(dp as i64),
            Arg::U64(s_at),
            Arg::I64(sp as i64),
            Arg::I64(width as i64),
            Arg::I64(height as i64),
        ];
        ptx_sim::run(&module, &out.entry, &launch_of(&out, width * height), &args, &mut g)
            .unwrap_or_else(|e| panic!("{} {}: {e}", out.entry, target.name()));
        let got = g.f32s(d_at, dp * height);
        for r in 0..height {
            for c in 0..dp {
                let want = if c < width { dst[r * dp + c] + src[r * sp + c] } else { dst[r * dp + c] };
                assert_eq!(got[r * dp + c], want, "row {r} column {c}");
            }
        }
    }
}

/// bf16 bits (round to nearest even) and back.
fn to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

fn from_bf16(b: u16) -> f64 {
    f32::from_bits((b as u32) << 16) as f64
}

/// A packed launch of two sequences (documents) — one from position 0 (70 queries, 70 keys), one
/// whose 33 queries start at position 40 of a 73-key run — so rows at tile edges exercise the
/// masking of partial tiles at both ends; `hq` query heads over `hk` KV heads, head dim `d`, bf16
/// inputs, under `mask` (none: each document whole; causal; a causal window).
struct Packed {
    d: usize,
    /// The value head dim (MLA's differs from `d`).
    dv: usize,
    hq: usize,
    hk: usize,
    mask: attnc_compiler::kernel::Band,
    /// The score modification (`score = EXPR`, `softcap = X`), if any.
    score: Option<Modifier>,
    layout: Layout,
    q: Vec<u16>,
    k: Vec<u16>,
    v: Vec<u16>,
}

/// A launch's sequences: starts of their query and key rows, and each one's first positions.
#[derive(Clone, Debug)]
struct Layout {
    cu_q: Vec<i32>,
    cu_kv: Vec<i32>,
    pos_q: Vec<i64>,
    pos_kv: Vec<i64>,
}

impl Layout {
    /// Two documents: 70 queries and keys from position 0; 33 queries from position 40 over 73 keys.
    fn packed() -> Layout {
        Layout { cu_q: vec![0, 70, 103], cu_kv: vec![0, 70, 143], pos_q: vec![0, 40], pos_kv: vec![0, 0] }
    }

    /// One sequence long enough to run the kernels' pipelines: 200 queries from position 60 over
    /// 260 keys, so a forward CTA's KV loop runs up to 5 tiles of 64 and a backward CTA's query
    /// loop 4 — more than the two stages of their double buffers, which a missing barrier
    /// between a stage's last read and its next load corrupts (issue 31).
    fn long() -> Layout {
        Layout { cu_q: vec![0, 200], cu_kv: vec![0, 260], pos_q: vec![60], pos_kv: vec![0] }
    }

    fn tq(&self) -> usize {
        *self.cu_q.last().unwrap() as usize
    }

    fn tk(&self) -> usize {
        *self.cu_kv.last().unwrap() as usize
    }

    fn sequences(&self) -> usize {
        self.pos_q.len()
    }

    fn longest(cu: &[i32]) -> usize {
        cu.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    /// The position within its sequence of query row `i` and of key row `j`.
    fn positions(&self, i: usize, j: usize) -> (f64, f64) {
        let at = |cu: &[i32], pos: &[i64], r: usize| {
            let s = (0..pos.len()).find(|&s| r < cu[s + 1] as usize).expect("a row of the launch");
            (pos[s] + (r - cu[s] as usize) as i64) as f64
        };
        (at(&self.cu_q, &self.pos_q, i), at(&self.cu_kv, &self.pos_kv, j))
    }
}

/// The interpreter's tensor map of a launch record's fields.
fn tensor_map(f: &attnc_compiler::back::manifest::MapFields) -> ptx_sim::TensorMap {
    let swizzle = match f.swizzle_bytes {
        0 => ptx_sim::Swizzle::None,
        32 => ptx_sim::Swizzle::B32,
        64 => ptx_sim::Swizzle::B64,
        _ => ptx_sim::Swizzle::B128,
    };
    ptx_sim::TensorMap {
        base: f.base,
        elem_bytes: f.elem_bytes,
        dims: f.dims.to_vec(),
        strides: f.strides.to_vec(),
        box_dims: f.box_dims.to_vec(),
        swizzle,
        oob_nan: false,
    }
}

fn bytes16(x: &[u16]) -> Vec<u8> {
    x.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl Packed {
    fn new(d: usize, hq: usize, hk: usize, mask: attnc_compiler::kernel::Band, seed: u32) -> Packed {
        Packed::on(Layout::packed(), d, hq, hk, mask, seed)
    }

    /// A launch over `layout`'s sequences.
    fn on(layout: Layout, d: usize, hq: usize, hk: usize, mask: Band, seed: u32) -> Packed {
        let bf = |n: usize, s: u32| -> Vec<u16> { values(n, s).iter().map(|&x| to_bf16(x)).collect() };
        let (tq, tk) = (layout.tq(), layout.tk());
        Packed {
            d,
            dv: d,
            hq,
            hk,
            mask,
            score: None,
            layout,
            q: bf(tq * hq * d, seed),
            k: bf(tk * hk * d, seed + 1),
            v: bf(tk * hk * d, seed + 2),
        }
    }

    /// The same launch with value heads of `dv` (MLA).
    fn with_dv(self, dv: usize, seed: u32) -> Packed {
        let v = values(self.layout.tk() * self.hk * dv, seed).iter().map(|&x| to_bf16(x)).collect();
        Packed { dv, v, ..self }
    }

    fn spec(&self, kind: attnc_compiler::kernel::KernelKind) -> attnc_compiler::kernel::KernelSpec {
        use attnc_compiler::kernel::{KernelSpec, TILE_KV, TILE_Q};
        KernelSpec {
            kind,
            head_dim: self.d as u32,
            v_head_dim: (self.dv != self.d).then_some(self.dv as u32),
            dtype: attnc_compiler::spec::Dtype::Bf16,
            group: (self.hq / self.hk) as u32,
            mask: self.mask,
            score: self.score.map(|m| attnc_compiler::expr::score::parse(m.text).unwrap().expect("not `s`")),
            tile_q: TILE_Q,
            tile_kv: TILE_KV,
        }
    }

    fn scale(&self) -> f32 {
        1.0 / (self.d as f32).sqrt()
    }

    /// The score's per-head values of every query head, uploaded, as the kernels' last parameter
    /// (none when the score reads no head).
    fn head_values(&self, g: &mut Global) -> Option<Arg> {
        let score = self.spec(attnc_compiler::kernel::KernelKind::Forward).score?;
        let values: Vec<f32> = (0..self.hq as u32).flat_map(|h| score.head_values(h, 0, &[])).collect();
        (!values.is_empty())
            .then(|| Arg::U64(g.upload(&values.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())))
    }

    /// The table arguments: cu_q, cu_kv, pos_q, pos_kv, uploaded.
    fn tables(&self, g: &mut Global) -> [Arg; 4] {
        let l = &self.layout;
        let cu = g.upload(&l.cu_q.iter().chain(&l.cu_kv).flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        let pq = g.upload(&l.pos_q.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        let pk = g.upload(&l.pos_kv.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        [Arg::U64(cu), Arg::U64(cu + 4 * l.cu_q.len() as u64), Arg::U64(pq), Arg::U64(pk)]
    }

    /// Every (sequence, head, KV head, query row, its visible key rows).
    fn rows(&self) -> Vec<(usize, usize, usize, Vec<usize>)> {
        let mut out = Vec::new();
        let l = &self.layout;
        for s in 0..l.sequences() {
            for h in 0..self.hq {
                for i in l.cu_q[s] as usize..l.cu_q[s + 1] as usize {
                    let p = l.pos_q[s] + (i - l.cu_q[s] as usize) as i64;
                    let keys = (l.cu_kv[s] as usize..l.cu_kv[s + 1] as usize)
                        .filter(|&j| {
                            let k = l.pos_kv[s] + (j - l.cu_kv[s] as usize) as i64;
                            // The band lo ≤ q − k < end, each side where set.
                            self.mask.lo.is_none_or(|lo| p - k >= lo) && self.mask.end.is_none_or(|end| p - k < end)
                        })
                        .collect();
                    out.push((h, h / (self.hq / self.hk), i, keys));
                }
            }
        }
        out
    }

    fn qe(&self, i: usize, h: usize, e: usize) -> f64 {
        from_bf16(self.q[(i * self.hq + h) * self.d + e])
    }

    fn ke(&self, j: usize, kh: usize, e: usize) -> f64 {
        from_bf16(self.k[(j * self.hk + kh) * self.d + e])
    }

    fn ve(&self, j: usize, kh: usize, e: usize) -> f64 {
        from_bf16(self.v[(j * self.hk + kh) * self.dv + e])
    }

    /// The scaled score of a pair, before the modification.
    fn raw(&self, h: usize, kh: usize, i: usize, j: usize) -> f64 {
        (0..self.d).map(|e| self.qe(i, h, e) * self.ke(j, kh, e)).sum::<f64>() * self.scale() as f64
    }

    /// A score, modified when the case has a modification.
    fn score(&self, h: usize, kh: usize, i: usize, j: usize) -> f64 {
        let s = self.raw(h, kh, i, j);
        self.score.map_or(s, |m| (m.f)(s, self.layout.positions(i, j), h as f64))
    }

    /// The modification's derivative at a pair (1 without one).
    fn dcap(&self, h: usize, kh: usize, i: usize, j: usize) -> f64 {
        self.score.map_or(1.0, |m| (m.df)(self.raw(h, kh, i, j), self.layout.positions(i, j), h as f64))
    }

    /// fp64 softmax of row `i`'s scores over `keys`: (probabilities, LSE).
    fn softmax(&self, h: usize, kh: usize, i: usize, keys: &[usize]) -> (Vec<f64>, f64) {
        let scores: Vec<f64> = keys.iter().map(|&j| self.score(h, kh, i, j)).collect();
        let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lse = m + scores.iter().map(|s| (s - m).exp()).sum::<f64>().ln();
        (scores.iter().map(|s| (s - lse).exp()).collect(), lse)
    }

    /// Runs the spec's kernel of `kind` under the interpreter with the CUDA device's grid.
    fn run(&self, kind: attnc_compiler::kernel::KernelKind, target: Target, args: &[Arg], g: &mut Global) {
        self.run_edited(kind, target, args, g, &|ptx| ptx.to_string()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Runs the kernel as `run`, its PTX edited first (a planted fault); the interpreter's error.
    fn run_edited(
        &self,
        kind: attnc_compiler::kernel::KernelKind,
        target: Target,
        args: &[Arg],
        g: &mut Global,
        edit: &dyn Fn(&str) -> String,
    ) -> Result<(), String> {
        let out = llvm::compile(&self.spec(kind), target).unwrap();
        let module = ptx_sim::parse(&edit(&out.asm)).unwrap();
        let l = out.launch.as_ref().unwrap();
        // The manifest's grid: tiles of 64 rows of the longest query (forward) or key (backward)
        // run, the query heads, the sequences.
        let longest = match kind {
            attnc_compiler::kernel::KernelKind::Forward => Layout::longest(&self.layout.cu_q),
            attnc_compiler::kernel::KernelKind::Backward => Layout::longest(&self.layout.cu_kv),
        };
        let rows = l.rows_per_cta().expect("an attention kernel's grid");
        let grid = [longest.div_ceil(rows) as u32, self.hq as u32, self.layout.sequences() as u32];
        let launch = Launch { grid, block: l.block, dynamic_shared: l.dynamic_shared_bytes as usize };
        // A kernel that reads tensor maps (sm_90a-ws) takes them last: q, k, v and o as the
        // device builds them from the launch record, in the interpreter's encoding.
        let mut args = args.to_vec();
        if !l.tensor_maps.is_empty() {
            let mut bytes = Vec::new();
            for m in &l.tensor_maps {
                let (at, heads, rows) = match m.tensor.as_str() {
                    "q" => (0, self.hq, self.layout.tq()),
                    "k" => (1, self.hk, self.layout.tk()),
                    "v" => (2, self.hk, self.layout.tk()),
                    _ => (3, self.hq, self.layout.tq()),
                };
                let Arg::U64(base) = args[at] else { panic!("a plane's address") };
                let f = m.fields(base, heads, heads * m.width as usize, rows).unwrap();
                bytes.extend(tensor_map(&f).encode());
            }
            args.push(Arg::U64(g.upload(&bytes)));
        }
        ptx_sim::run(&module, &out.entry, &launch, &args, g).map(|_| ()).map_err(|e| e.to_string())
    }
}

/// The masks of the sweep: none (each document whole), causal, and a causal window of 37 keys,
/// whose edge falls inside KV tiles.
const MASKS: [Band; 3] = [Band::NONE, Band::CAUSAL, Band::window(37)];

/// The forward kernels for sm_80 (cp.async tiles, ldmatrix, mma.sync, online softmax) and sm_90a
/// (wgmma from shared-memory descriptors), over the packed launch, against fp64 attention of the
/// same bf16 inputs at the bf16 tolerance of docs/numerics.md (2e-2 on O and LSE): head dims 64
/// and 128 under every mask and GQA groups 1, 4 and 8, and head dim 256 (Gemma 2) causal.
#[test]
fn forward_kernels_match_fp64_attention() {
    for target in [Target::Sm80, Target::Sm90a, Target::Sm90aWs] {
        for d in [64, 128] {
            for (i, mask) in MASKS.into_iter().enumerate() {
                for group in [1, 4, 8] {
                    forward_case(Packed::new(d, group, 1, mask, 11 + i as u32), target);
                }
            }
        }
        forward_case(Packed::new(256, 2, 2, Band::CAUSAL, 13), target);
    }
}

fn forward_case(p: Packed, target: Target) {
    let (o, lse) = forward_errors(&p, target, &|ptx| ptx.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        o <= 2e-2 && lse <= 2e-2,
        "{} d {}/{} {:?} group {}: max abs error O {o:.2e}, LSE {lse:.2e}",
        target.name(),
        p.d,
        p.dv,
        p.mask,
        p.hq / p.hk,
    );
}

/// The forward kernel's largest errors on O and LSE against fp64, its PTX edited by `edit`; the
/// interpreter's error if it stops.
fn forward_errors(p: &Packed, target: Target, edit: &dyn Fn(&str) -> String) -> Result<(f64, f64), String> {
    use attnc_compiler::kernel::KernelKind;
    // O rows are the value head dim wide.
    let (d, dv, hq) = (p.d, p.dv, p.hq);
    let tq = p.layout.tq();
    let mut g = Global::new();
    let (qa, ka, va) = (g.upload(&bytes16(&p.q)), g.upload(&bytes16(&p.k)), g.upload(&bytes16(&p.v)));
    let (oa, la) = (g.alloc(tq * hq * dv * 4), g.alloc(tq * hq * 4));
    let row = (hq * d) as i64;
    let mut args = vec![Arg::U64(qa), Arg::U64(ka), Arg::U64(va), Arg::U64(oa), Arg::U64(la)];
    args.extend(p.tables(&mut g));
    args.extend([Arg::I64(row), Arg::I64((p.hk * d) as i64), Arg::I64((hq * dv) as i64), Arg::F32(p.scale())]);
    args.extend(p.head_values(&mut g));
    p.run_edited(KernelKind::Forward, target, &args, &mut g, edit)?;
    let (o, lse) = (g.f32s(oa, tq * hq * dv), g.f32s(la, tq * hq));
    let mut worst = (0.0f64, 0.0f64);
    for (h, kh, i, keys) in p.rows() {
        let (probs, want_lse) = p.softmax(h, kh, i, &keys);
        worst.1 = worst.1.max((lse[i * hq + h] as f64 - want_lse).abs());
        for e in 0..dv {
            let want: f64 = keys.iter().zip(&probs).map(|(&j, pr)| pr * p.ve(j, kh, e)).sum();
            worst.0 = worst.0.max((o[(i * hq + h) * dv + e] as f64 - want).abs());
        }
    }
    Ok(worst)
}

/// The backward kernels (dQ, dK, dV; `atom.add` across query heads of a KV head and across CTAs)
/// for sm_80 and sm_90a under ptx-sim against fp64 gradients of the same bf16 inputs, over the
/// packed launch: head dims 64 and 128 under every mask at GQA groups 1 and 4 (two KV heads),
/// and group 8 causal; head dim 256 causal at group 2; bf16 tolerance of docs/numerics.md (5e-2 on the gradients). LSE and
/// D = rowsum(dO ∘ O) are given in fp32 from the fp64 forward, as the executor gives them.
#[test]
fn backward_kernels_match_fp64_gradients() {
    for target in [Target::Sm80, Target::Sm90a] {
        for d in [64, 128] {
            for (i, mask) in MASKS.into_iter().enumerate() {
                backward_case(Packed::new(d, 2, 2, mask, 21 + i as u32), target);
                backward_case(Packed::new(d, 8, 2, mask, 31 + i as u32), target);
            }
            backward_case(Packed::new(d, 8, 1, Band::CAUSAL, 41), target);
        }
        // Gemma 2's head dim (the kernel spills; the interpreter runs the spill code too).
        backward_case(Packed::new(256, 2, 1, Band::CAUSAL, 51), target);
    }
}

/// A score modification with its fp64 closed form and derivative by `s`, written here by hand;
/// both take the pair's positions `(q, k)`.
#[derive(Clone, Copy)]
struct Modifier {
    text: &'static str,
    f: fn(f64, (f64, f64), f64) -> f64,
    df: fn(f64, (f64, f64), f64) -> f64,
}

/// Soft-capping at 2 (these inputs' scores reach well into tanh's bend).
const CAP2: Modifier = Modifier {
    text: "2 * tanh(s / 2)",
    f: |s, _, _| 2.0 * (s / 2.0).tanh(),
    df: |s, _, _| 1.0 - (s / 2.0).tanh().powi(2),
};

/// A linear bias in the distance (ALiBi's form, one slope) and in the key's own position: the
/// kernels' positions must be those of the launch's tables (the second sequence's queries start
/// at position 40).
const POSITIONS: Modifier = Modifier {
    text: "2 * tanh(s / 2) - (q - k) / 16 + k / 64",
    f: |s, (q, k), _| 2.0 * (s / 2.0).tanh() - (q - k) / 16.0 + k / 64.0,
    df: |s, _, _| 1.0 - (s / 2.0).tanh().powi(2),
};

/// ALiBi over 8 heads (the kernels read head h's slope, 2^(−(h+1)), from their per-head values,
/// at the CTA's head) and a per-head scale of `s`: each head's CTAs must read their own head's.
const ALIBI: Modifier = Modifier {
    text: "s * (1 + h / 4) - alibi(h, 8) * (q - k)",
    f: |s, (q, k), h| s * (1.0 + h / 4.0) - (-(h + 1.0)).exp2() * (q - k),
    df: |_, _, h| 1.0 + h / 4.0,
};

/// Logarithms (`lg2.approx` on the GPU), of a score and of a distance: at masked pairs the
/// distance's argument is below 1, where the kernels take the logarithm of 2⁻¹²⁶.
const LOGS: Modifier = Modifier {
    text: "s + log(1 + s * s / 8) - log(1 + q - k) / 4",
    f: |s, (q, k), _| s + (1.0 + s * s / 8.0).ln() - (1.0 + q - k).ln() / 4.0,
    df: |s, _, _| 1.0 + (s / 4.0) / (1.0 + s * s / 8.0),
};

/// Remainders (`cvt.rmi` floors on the GPU): of the distance and of the key's position.
const REM: Modifier = Modifier {
    text: "s + (q - k) % 7 / 4 - k % 5 / 8",
    f: |s, (q, k), _| s + (q - k).rem_euclid(7.0) / 4.0 - k.rem_euclid(5.0) / 8.0,
    df: |_, _, _| 1.0,
};

/// Kinks at 0 and 1 (`min`/`max` lower to compare-and-select): the inputs here are bf16 without
/// RoPE, so the kernels' fp32 scores sit within ~1e-7 of these and take the same side.
const KINKED: Modifier = Modifier {
    text: "2 * tanh(s / 2) + max(s - 1, 0) / 4 - exp(min(s, 0) - 2)",
    f: |s, _, _| 2.0 * (s / 2.0).tanh() + (s - 1.0).max(0.0) / 4.0 - (s.min(0.0) - 2.0).exp(),
    df: |s, _, _| {
        let step = |x: f64| {
            if x > 0.0 {
                1.0
            } else if x == 0.0 {
                0.5
            } else {
                0.0
            }
        };
        1.0 - (s / 2.0).tanh().powi(2) + step(s - 1.0) / 4.0 - (s.min(0.0) - 2.0).exp() * step(-s)
    },
};

/// Score modifications on both targets, forward and backward, against fp64 with their
/// derivatives: logit soft-capping, a score with kinks, an exponential and divisions, one that
/// reads the positions, and ALiBi (per-head values, 4 query heads under group 4).
#[test]
fn score_modified_kernels_match_fp64() {
    for target in [Target::Sm80, Target::Sm90a, Target::Sm90aWs] {
        for (d, mask, group) in [(64, Band::CAUSAL, 4), (128, Band::window(37), 1)] {
            for (m, seed) in [(CAP2, 61), (KINKED, 63), (POSITIONS, 65), (ALIBI, 67), (LOGS, 69), (REM, 71)] {
                let modified = |seed| Packed { score: Some(m), ..Packed::new(d, group, 1, mask, seed) };
                forward_case(modified(seed), target);
                // sm_90a-ws's backward is sm_90a's.
                if target != Target::Sm90aWs {
                    backward_case(modified(seed + 1), target);
                }
            }
        }
    }
}

/// Pipelines: blocks several tiles long in both directions (`Layout::long`), forward and
/// backward, on both targets: a forward CTA's KV loop and a backward CTA's query loop each pass
/// their double buffer's two stages more than once, so a stage reloaded before every warp is
/// done reading it shows as the interpreter's shared-memory race or as wrong numbers. (The
/// packed launch's runs are at most two tiles long: there, no stage is ever reloaded.)
#[test]
fn pipelined_kernels_match_fp64() {
    let cases = [(64, Band::CAUSAL, 2, 81), (128, Band::NONE, 1, 83), (64, Band::window(150), 1, 85)];
    for target in [Target::Sm80, Target::Sm90a, Target::Sm90aWs] {
        for (d, mask, group, seed) in cases {
            forward_case(Packed::on(Layout::long(), d, group, 1, mask, seed), target);
            if target != Target::Sm90aWs {
                backward_case(Packed::on(Layout::long(), d, group, 1, mask, seed + 1), target);
            }
        }
    }
}

/// Bands of diagonals no named mask is (`Band { lo, end }`): two-sided (keys up to 20
/// after the query and 29 before it), and strictly below the diagonal by 5 with keys after it
/// open — on every target, forward and backward, over the pipelined layout (the band's edges
/// cross KV and query tiles, and whole tiles fall outside it), against fp64 attention under the
/// same band. The kernels lower the band's two sides; no mask has code of its own.
#[test]
fn banded_kernels_match_fp64() {
    let bands = [(Band { lo: Some(-20), end: Some(30) }, 101), (Band { lo: Some(5), end: None }, 103)];
    for target in [Target::Sm80, Target::Sm90a, Target::Sm90aWs] {
        for (mask, seed) in bands {
            forward_case(Packed::on(Layout::long(), 64, 2, 1, mask, seed), target);
            if target != Target::Sm90aWs {
                backward_case(Packed::on(Layout::long(), 64, 2, 1, mask, seed + 1), target);
            }
        }
    }
}

/// The warp-specialized forward (sm_90a-ws) with a piece of its synchronisation removed from its
/// PTX, over a pipelined launch (up to 5 KV tiles through the ring's 3 stages): every mbarrier
/// wait (the producer's for an empty stage, the consumers' for Q and for a full stage, first tile
/// and later ones) skipped,
/// the stage's `expect_tx` made a plain arrival, the consumers' first ping-pong turn never given,
/// one TMA box never loaded, and in the O epilogue the writers' `fence.proxy.async` or the
/// consumer's named barrier removed or a box never stored — each is stopped by the interpreter
/// (a race across the async proxy, a transaction count, a deadlock) or gives wrong numbers.
#[test]
fn warp_specialized_forward_faults_are_caught() {
    let p = Packed::on(Layout::long(), 64, 2, 1, Band::CAUSAL, 91);
    let (o, lse) = forward_errors(&p, Target::Sm90aWs, &|ptx| ptx.to_string()).unwrap();
    assert!(o <= 2e-2 && lse <= 2e-2, "unchanged: O {o:.2e}, LSE {lse:.2e}");
    let caught = |what: &str, edit: &dyn Fn(&str) -> String, want: &str| match forward_errors(&p, Target::Sm90aWs, edit)
    {
        Err(e) => assert!(e.contains(want), "{what}: want `{want}` in: {e}"),
        Ok((o, lse)) => assert!(o > 2e-2 || lse > 2e-2, "{what}: not caught (O {o:.2e}, LSE {lse:.2e})"),
    };
    // Each `try_wait.parity` loop's test replaced by "done" (the instruction gone: it would
    // acquire the phase whenever it happened to be complete).
    let wait = "{ .reg .pred %attnc_p; mbarrier.try_wait.parity";
    let ptx = llvm::compile(&p.spec(attnc_compiler::kernel::KernelKind::Forward), Target::Sm90aWs).unwrap().asm;
    let waits = ptx.matches(wait).count();
    assert_eq!(waits, 4, "the producer's, and the consumers' for Q, the first tile and the others");
    for i in 0..waits {
        let skip = move |ptx: &str| {
            let at = ptx.match_indices(wait).nth(i).unwrap().0;
            let end = at + ptx[at..].find('}').unwrap() + 1;
            let selp = ptx[at..end].find("selp.b32 ").unwrap() + at + "selp.b32 ".len();
            let done = &ptx[selp..selp + ptx[selp..].find(',').unwrap()];
            format!("{}mov.u32 {done}, 1;{}", &ptx[..at], &ptx[end..])
        };
        caught(&format!("wait {i} skipped"), &skip, "race");
    }
    caught(
        "expect_tx made a plain arrival",
        &|ptx: &str| {
            let at = ptx.rfind("mbarrier.arrive.expect_tx.shared::cta.b64 _, [").unwrap();
            let end = at + ptx[at..].find(';').unwrap();
            let bar = &ptx[at + "mbarrier.arrive.expect_tx.shared::cta.b64 _, ".len()..end];
            let bar = &bar[..bar.find(']').unwrap() + 1];
            format!("{}mbarrier.arrive.shared::cta.b64 _, {bar}{}", &ptx[..at], &ptx[end..])
        },
        "more than expected",
    );
    // Consumer 1's first hand-over of the ping-pong: consumer 0 waits for its turn forever.
    caught("the first turn never given", &|ptx: &str| ptx.replacen("bar.arrive 1, 256;", "", 1), "deadlock");
    // The last instruction that starts with `op` deleted.
    let without_last = |ptx: &str, op: &str| {
        let at = ptx.rfind(op).unwrap();
        let end = at + ptx[at..].find(';').unwrap() + 1;
        format!("{}{}", &ptx[..at], &ptx[end..])
    };
    caught(
        "a TMA box never loaded",
        &|ptx: &str| without_last(ptx, "cp.async.bulk.tensor.3d.shared::cluster"),
        "transaction bytes outstanding",
    );
    // O's boxes: written through the generic proxy, stored through the async one — each
    // writer's fence and the consumer's named barrier before the store; a box never stored
    // leaves its columns of O unwritten.
    assert_eq!(ptx.matches(".global.shared::cta.tile.bulk_group").count(), 2, "d 64: two O boxes of 32 columns");
    caught(
        "O's fence.proxy.async removed",
        &|ptx: &str| ptx.replace("fence.proxy.async.shared::cta;", ""),
        "a cp.async.bulk store reads shared memory",
    );
    caught(
        "O's named barrier removed",
        &|ptx: &str| {
            let kept = ptx.lines().filter(|l| !(l.contains("bar.sync") && l.trim_end().ends_with(", 128;")));
            kept.collect::<Vec<_>>().join("\n")
        },
        "race",
    );
    caught(
        "an O box never stored",
        &|ptx: &str| without_last(ptx, "cp.async.bulk.tensor.3d.global.shared::cta"),
        "never",
    );
}

/// MLA (DeepSeek-V3's query/key heads of 192 and value heads of 128, and values wider than keys)
/// on both targets, forward and backward, against fp64: K and V tiles at their own widths, P·V
/// (wgmma on sm_90a) and the O, dO and dV strides at the value head dim.
#[test]
fn mla_kernels_match_fp64() {
    for target in [Target::Sm80, Target::Sm90a, Target::Sm90aWs] {
        for (d, dv, mask, group) in [(192, 128, Band::CAUSAL, 2), (64, 128, Band::window(37), 1)] {
            let mla = |seed| Packed::new(d, group, 1, mask, seed).with_dv(dv, seed + 100);
            forward_case(mla(71), target);
            if target != Target::Sm90aWs {
                backward_case(mla(72), target);
            }
        }
    }
}

fn backward_case(p: Packed, target: Target) {
    use attnc_compiler::kernel::KernelKind;
    // dO, V and dV rows are the value head dim (`w`) wide; q, k, dQ, dK rows `d`.
    let (d, w, hq, hk) = (p.d, p.dv, p.hq, p.hk);
    let (tq, tk) = (p.layout.tq(), p.layout.tk());
    let d_out: Vec<u16> = values(tq * hq * w, 24).iter().map(|&x| to_bf16(x)).collect();
    let doe = |i: usize, h: usize, e: usize| from_bf16(d_out[(i * hq + h) * w + e]);
    let scale = p.scale() as f64;
    let (mut lse, mut delta) = (vec![0f32; tq * hq], vec![0f32; tq * hq]);
    let (mut dq, mut dk, mut dv) = (vec![0f64; tq * hq * d], vec![0f64; tk * hk * d], vec![0f64; tk * hk * w]);
    for (h, kh, i, keys) in p.rows() {
        let (probs, l) = p.softmax(h, kh, i, &keys);
        let o: Vec<f64> = (0..w).map(|e| keys.iter().zip(&probs).map(|(&j, pr)| pr * p.ve(j, kh, e)).sum()).collect();
        let di = (0..w).map(|e| doe(i, h, e) * o[e]).sum::<f64>() as f32;
        (lse[i * hq + h], delta[i * hq + h]) = (l as f32, di);
        for (&j, &pr) in keys.iter().zip(&probs) {
            let dp: f64 = (0..w).map(|e| doe(i, h, e) * p.ve(j, kh, e)).sum();
            let ds = pr * (dp - di as f64) * p.dcap(h, kh, i, j);
            for e in 0..w {
                dv[(j * hk + kh) * w + e] += pr * doe(i, h, e);
            }
            for e in 0..d {
                dq[(i * hq + h) * d + e] += scale * ds * p.ke(j, kh, e);
                dk[(j * hk + kh) * d + e] += scale * ds * p.qe(i, h, e);
            }
        }
    }
    let mut g = Global::new();
    let (qa, ka, va) = (g.upload(&bytes16(&p.q)), g.upload(&bytes16(&p.k)), g.upload(&bytes16(&p.v)));
    let (da, la, dea) = (g.upload(&bytes16(&d_out)), g.upload_f32(&lse), g.upload_f32(&delta));
    let (dqa, dka, dva) = (g.alloc(tq * hq * d * 4), g.alloc(tk * hk * d * 4), g.alloc(tk * hk * w * 4));
    let mut args: Vec<Arg> = [qa, ka, va, da, la, dea, dqa, dka, dva].map(Arg::U64).to_vec();
    args.extend(p.tables(&mut g));
    let (q_row, kv_row) = ((hq * d) as i64, (hk * d) as i64);
    args.extend([Arg::I64(q_row), Arg::I64(kv_row), Arg::I64(kv_row), Arg::F32(p.scale())]);
    args.extend(p.head_values(&mut g));
    p.run(KernelKind::Backward, target, &args, &mut g);
    let worst =
        |got: Vec<f32>, want: &[f64]| got.iter().zip(want).map(|(a, b)| (*a as f64 - b).abs()).fold(0.0, f64::max);
    let errors = [
        ("dQ", worst(g.f32s(dqa, tq * hq * d), &dq)),
        ("dK", worst(g.f32s(dka, tk * hk * d), &dk)),
        ("dV", worst(g.f32s(dva, tk * hk * w), &dv)),
    ];
    assert!(
        errors.iter().all(|(_, e)| *e <= 5e-2),
        "{} d {d}/{w} {:?} group {}: max abs errors {errors:?}",
        target.name(),
        p.mask,
        hq / hk
    );
    // Not vacuous: the gradients are of order one.
    assert!(dq.iter().chain(&dk).chain(&dv).any(|x| x.abs() > 0.1));
}
