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
