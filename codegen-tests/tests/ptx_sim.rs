//! attnc's generated PTX executed by the PTX interpreter (`ptx-sim`), for sm_80 and sm_90a,
//! against Rust references: the merge kernel (the LSE-weighted combine of two partial outputs)
//! and the 2-D add (reduce-scatter sums, GQA head sums), at the launch configuration the
//! manifest gives. The attention kernels (`mma.sync`, `ldmatrix`, `cp.async`, `wgmma`) follow as
//! the interpreter learns those instructions (issue 18).
#![cfg(feature = "llvm")]

use attnc_compiler::back::llvm::{self, Output, Target};
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

/// The sm_80 forward kernel (cp.async tiles, ldmatrix, mma.sync, online softmax) over a packed
/// launch of two sequences — one causal from position 0, one whose queries start at position 40
/// of a longer KV run — against fp64 attention of the same bf16 inputs, at the bf16 tolerance of
/// docs/numerics.md (2e-2 on O and LSE). Rows at tile edges (70 and 33 queries, 70 and 73 keys)
/// exercise the masking of partial tiles.
#[test]
fn sm80_forward_kernel_matches_fp64_attention() {
    use attnc_compiler::kernel::{KernelKind, KernelMask, KernelSpec, TILE_KV, TILE_Q};
    use attnc_compiler::sema::spec::Dtype;
    let (d, heads) = (64usize, 2usize);
    let spec = KernelSpec {
        kind: KernelKind::Forward,
        head_dim: d as u32,
        dtype: Dtype::Bf16,
        group: 1,
        mask: KernelMask::Causal,
        tile_q: TILE_Q,
        tile_kv: TILE_KV,
    };
    let out = llvm::compile(&spec, Target::Sm80).unwrap();
    let module = ptx_sim::parse(&out.asm).unwrap();
    let (cu_q, cu_kv, pos_q, pos_kv) = ([0i32, 70, 103], [0i32, 70, 143], [0i64, 40], [0i64, 0]);
    let (tq, tk) = (103usize, 143usize);
    let q: Vec<u16> = values(tq * heads * d, 11).iter().map(|&x| to_bf16(x)).collect();
    let k: Vec<u16> = values(tk * heads * d, 12).iter().map(|&x| to_bf16(x)).collect();
    let v: Vec<u16> = values(tk * heads * d, 13).iter().map(|&x| to_bf16(x)).collect();
    let bytes16 = |x: &[u16]| -> Vec<u8> { x.iter().flat_map(|v| v.to_le_bytes()).collect() };
    let mut g = Global::new();
    let (qa, ka, va) = (g.upload(&bytes16(&q)), g.upload(&bytes16(&k)), g.upload(&bytes16(&v)));
    let (oa, la) = (g.alloc(tq * heads * d * 4), g.alloc(tq * heads * 4));
    let i32s: Vec<u8> = cu_q.iter().chain(&cu_kv).flat_map(|x| x.to_le_bytes()).collect();
    let cu = g.upload(&i32s);
    let (pq, pk) = (
        g.upload(&pos_q.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()),
        g.upload(&pos_kv.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()),
    );
    let scale = 1.0 / (d as f32).sqrt();
    let row = (heads * d) as i64;
    let args = [
        Arg::U64(qa),
        Arg::U64(ka),
        Arg::U64(va),
        Arg::U64(oa),
        Arg::U64(la),
        Arg::U64(cu),
        Arg::U64(cu + 12),
        Arg::U64(pq),
        Arg::U64(pk),
        Arg::I64(row),
        Arg::I64(row),
        Arg::I64(row),
        Arg::F32(scale),
    ];
    let l = out.launch.as_ref().unwrap();
    let launch = Launch { grid: [2, heads as u32, 2], block: l.block, dynamic_shared: l.dynamic_shared_bytes as usize };
    let stats = ptx_sim::run(&module, &out.entry, &launch, &args, &mut g).unwrap_or_else(|e| panic!("{e}"));
    assert!(stats.thread_instructions > 0);
    let (o, lse) = (g.f32s(oa, tq * heads * d), g.f32s(la, tq * heads));
    let mut worst = (0.0f64, 0.0f64);
    for s in 0..2 {
        for h in 0..heads {
            for i in cu_q[s] as usize..cu_q[s + 1] as usize {
                let p = pos_q[s] + (i - cu_q[s] as usize) as i64;
                let keys: Vec<usize> = (cu_kv[s] as usize..cu_kv[s + 1] as usize)
                    .filter(|&j| pos_kv[s] + (j - cu_kv[s] as usize) as i64 <= p)
                    .collect();
                let score = |j: usize| {
                    (0..d)
                        .map(|e| from_bf16(q[(i * heads + h) * d + e]) * from_bf16(k[(j * heads + h) * d + e]))
                        .sum::<f64>()
                        * scale as f64
                };
                let scores: Vec<f64> = keys.iter().map(|&j| score(j)).collect();
                let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = scores.iter().map(|s| (s - m).exp()).sum();
                let want_lse = m + sum.ln();
                worst.1 = worst.1.max((lse[i * heads + h] as f64 - want_lse).abs());
                for e in 0..d {
                    let want: f64 = keys
                        .iter()
                        .zip(&scores)
                        .map(|(&j, s)| (s - m).exp() / sum * from_bf16(v[(j * heads + h) * d + e]))
                        .sum();
                    worst.0 = worst.0.max((o[(i * heads + h) * d + e] as f64 - want).abs());
                }
            }
        }
    }
    assert!(worst.0 <= 2e-2 && worst.1 <= 2e-2, "max abs error O {:.2e}, LSE {:.2e}", worst.0, worst.1);
}
