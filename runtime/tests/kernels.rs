//! Differential tests of generated kernels: Cranelift and LLVM's host kernels against the kernel
//! IR interpreter at the ABI, and the generated kernel sets (Cranelift, LLVM, interpreter) against
//! the reference kernels on random launches: head_dims 8…256, lengths that are not multiples of
//! the tiles, causal offsets on both sides of the diagonal, windows, packed sequences, GQA groups
//! 1/4/8, fully masked rows, bf16-rounded inputs.

use attnc_compiler::back::cranelift::Jit;
use attnc_compiler::back::llvm::HostJit;
use attnc_compiler::kernel::{self, Band, BwdArgs, FwdArgs, KernelKind, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::spec::Dtype;
use attnc_compiler::spec::Score;
use attnc_runtime::generated::{Cranelift, Generated, Interpreter, LlvmCpu};
use attnc_runtime::kernels::{BwdLaunch, BwdResult, FwdLaunch, FwdResult, Kernels, Reference};
use attnc_runtime::tensor::round;
use proptest::prelude::*;

fn values(n: usize, seed: u64, dtype: Dtype) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            round(dtype, ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 3.0)
        })
        .collect()
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| if x == y { 0.0 } else { (x - y).abs() }).fold(0.0, f32::max)
}

/// Cranelift, LLVM's host kernels (as this CPU gets them, and at 256 bits) and the interpreter
/// agree at the kernel ABI (forward state and backward grads).
fn check_abi(d: usize, n_q: usize, n_kv: usize, q_pos: i64, kv_pos: i64, mask: Band, seed: u64) {
    check_abi_capped((d, d), n_q, n_kv, q_pos, kv_pos, mask, None, seed);
}

/// The same, with query/key head dim `d` and value head dim `dv`, and logit soft-capping.
#[allow(clippy::too_many_arguments)]
fn check_abi_capped(
    (d, dv): (usize, usize),
    n_q: usize,
    n_kv: usize,
    q_pos: i64,
    kv_pos: i64,
    mask: Band,
    score: Option<&str>,
    seed: u64,
) {
    for backend in ["cranelift", "llvm-cpu", "llvm-cpu-256"] {
        check_abi_with(backend, (d, dv), n_q, n_kv, q_pos, kv_pos, mask, score.map(score_of), seed);
    }
}

#[allow(clippy::too_many_arguments)]
fn check_abi_with(
    backend: &str,
    (d, dv): (usize, usize),
    n_q: usize,
    n_kv: usize,
    q_pos: i64,
    kv_pos: i64,
    mask: Band,
    score: Option<&'static Score>,
    seed: u64,
) {
    // llvm-cpu-256: the 256-bit kernels, which an AVX-512 host would not otherwise run.
    let (jit, llvm) = (Jit::new(), if backend == "llvm-cpu-256" { HostJit::avx2_only() } else { HostJit::new() });
    let spec = |kind| KernelSpec {
        kind,
        head_dim: d as u32,
        v_head_dim: (dv != d).then_some(dv as u32),
        dtype: Dtype::Fp32,
        group: 1,
        mask,
        score,
        tile_q: TILE_Q,
        tile_kv: TILE_KV,
    };
    // Forward: `n_q` rows (the Q buffer rounded up to the tile), O and LSE written at strides
    // wider than a row into buffers holding a sentinel, from a scratch full of NaN (the kernel
    // starts its own state).
    let rows = n_q;
    let n_q = n_q.div_ceil(2) * 2;
    let q = values(n_q * d, seed, Dtype::Fp32);
    let kv_stride = d + dv + 3;
    let kv = values(n_kv * kv_stride, seed + 1, Dtype::Fp32);
    let (o_stride, lse_stride) = (dv + 5, 3);
    const SENTINEL: f32 = 12345.0;
    let fresh = || (vec![SENTINEL; n_q * o_stride], vec![SENTINEL; n_q * lse_stride]);
    let ((mut o1, mut lse1), (mut o2, mut lse2)) = (fresh(), fresh());
    let mut scratch = vec![f32::NAN; spec(KernelKind::Forward).scratch_floats()];
    // A score that reads the head sees head 3's values.
    let head_values = score.map(|s| s.head_values(3, 0, &params_of(s, 3))).unwrap_or_default();
    let args = |o: &mut Vec<f32>, lse: &mut Vec<f32>, scratch: &mut Vec<f32>| FwdArgs {
        q: q.as_ptr(),
        k: kv.as_ptr(),
        o: o.as_mut_ptr(),
        scratch: scratch.as_mut_ptr(),
        kv_stride: kv_stride as i64,
        n_q: rows as i64,
        n_kv: n_kv as i64,
        q_pos,
        kv_pos,
        scale: 1.0 / (d as f32).sqrt(),
        head_values: head_values.as_ptr(),
        lse: lse.as_mut_ptr(),
        o_stride: o_stride as i64,
        lse_stride: lse_stride as i64,
    };
    let f = spec(KernelKind::Forward);
    // SAFETY: every buffer has the extent the ABI asks for.
    unsafe {
        kernel::interp::forward(&f, &args(&mut o1, &mut lse1, &mut scratch));
        scratch.fill(f32::NAN);
        match backend {
            "cranelift" => jit.get(&f).unwrap().forward(&args(&mut o2, &mut lse2, &mut scratch)),
            _ => llvm.get(&f).unwrap().forward(&args(&mut o2, &mut lse2, &mut scratch)),
        }
    }
    for (r, ((oa, ob), (la, lb))) in o1
        .chunks(o_stride)
        .zip(o2.chunks(o_stride))
        .zip(lse1.chunks(lse_stride).zip(lse2.chunks(lse_stride)))
        .enumerate()
    {
        for (o, lse, who) in [(oa, la, "interpreter"), (ob, lb, backend)] {
            if r >= rows {
                assert!(o.iter().chain(lse).all(|&x| x == SENTINEL), "{who} row {r}: wrote past n_q");
                continue;
            }
            assert!(o[dv..].iter().chain(&lse[1..]).all(|&x| x == SENTINEL), "{who} row {r}: wrote past the row");
            assert!(o[..dv].iter().all(|x| x.is_finite()) && !lse[0].is_nan(), "{who} row {r}: {o:?} {lse:?}");
            if lse[0] == f32::NEG_INFINITY {
                assert!(o[..dv].iter().all(|&x| x == 0.0), "{who} row {r}: a row that saw no key has O = 0");
            }
        }
        if r < rows {
            assert!(la[0] == lb[0] || (la[0] - lb[0]).abs() < 1e-4, "{backend} row {r}: lse {} vs {}", la[0], lb[0]);
            let diff = max_diff(&oa[..dv], &ob[..dv]);
            assert!(diff < 1e-4, "{backend} row {r}: O differs by {diff}");
        }
    }
    // Backward: rows of q (d), o, do (dv each), lse.
    let q_stride = d + 2 * dv + 1;
    let mut bundle = values(n_q * q_stride, seed + 2, Dtype::Fp32);
    for (i, row) in bundle.chunks_mut(q_stride).enumerate() {
        row[d + 2 * dv] = if i % 7 == 3 { f32::NEG_INFINITY } else { 1.0 + (i as f32).ln_1p() };
    }
    let delta = values(n_q, seed + 3, Dtype::Fp32);
    let (mut dq1, mut dq2) = (vec![0.0f32; n_q * d], vec![0.0f32; n_q * d]);
    let (mut dkv1, mut dkv2) = (vec![0.0f32; n_kv * (d + dv)], vec![0.0f32; n_kv * (d + dv)]);
    // Learned score parameters' gradients, accumulated from 1 (the kernels add).
    let n_params = score.map_or(0, |s| s.params.len());
    let (mut dp1, mut dp2) = (vec![1.0f32; n_params], vec![1.0f32; n_params]);
    let bargs = |dq: &mut Vec<f32>, dkv: &mut Vec<f32>, dp: &mut Vec<f32>| BwdArgs {
        q: bundle.as_ptr(),
        k: kv.as_ptr(),
        dq: dq.as_mut_ptr(),
        dkv: dkv.as_mut_ptr(),
        delta: delta.as_ptr(),
        q_stride: q_stride as i64,
        kv_stride: kv_stride as i64,
        dq_stride: d as i64,
        dkv_stride: (d + dv) as i64,
        n_q: n_q as i64,
        n_kv: n_kv as i64,
        q_pos,
        kv_pos,
        scale: 1.0 / (d as f32).sqrt(),
        head_values: head_values.as_ptr(),
        dparams: if n_params > 0 { dp.as_mut_ptr() } else { std::ptr::null_mut() },
    };
    let b = spec(KernelKind::Backward);
    // SAFETY: as above.
    unsafe {
        kernel::interp::backward(&b, &bargs(&mut dq1, &mut dkv1, &mut dp1));
        match backend {
            "cranelift" => jit.get(&b).unwrap().backward(&bargs(&mut dq2, &mut dkv2, &mut dp2)),
            _ => llvm.get(&b).unwrap().backward(&bargs(&mut dq2, &mut dkv2, &mut dp2)),
        }
    }
    let scale = dq1.iter().chain(&dkv1).fold(1.0f32, |m, x| m.max(x.abs()));
    assert!(max_diff(&dq1, &dq2) / scale < 1e-4, "{backend}: dq differs");
    assert!(max_diff(&dkv1, &dkv2) / scale < 1e-4, "{backend}: dkv differs");
    if n_params > 0 {
        let scale = dp1.iter().fold(1.0f32, |m, x| m.max(x.abs()));
        assert!(dp1.iter().all(|&x| x != 1.0), "the interpreter adds every parameter's gradient: {dp1:?}");
        assert!(max_diff(&dp1, &dp2) / scale < 1e-4, "{backend}: dparams {dp1:?} vs {dp2:?}");
    }
}

#[test]
fn abi_edge_cases() {
    for d in [8, 64, 128, 256] {
        check_abi(d, 37, 53, 100, 60, Band::CAUSAL, 1);
    }
    // Keys entirely after the queries (fully masked rows), entirely before, and windows.
    check_abi(16, 10, 20, 0, 50, Band::CAUSAL, 2);
    check_abi(16, 10, 20, 500, 0, Band::CAUSAL, 3);
    check_abi(32, 33, 65, 40, 10, Band::window(7), 4);
    check_abi(32, 1, 1, 0, 0, Band::NONE, 5);
    // Query blocks past the first (256 rows; 1024 on LLVM's 512-bit kernels), odd row counts.
    check_abi(8, 1101, 40, 1070, 0, Band::CAUSAL, 6);
    check_abi(8, 301, 20, 0, 0, Band::NONE, 7);
    // Bands no named mask is: two-sided (|q − k| within reach both ways), strictly below the
    // diagonal, on and past it only, one side open.
    check_abi(32, 33, 65, 40, 10, Band { lo: Some(-9), end: Some(12) }, 8);
    check_abi(16, 37, 53, 100, 60, Band { lo: Some(3), end: None }, 9);
    check_abi(16, 37, 53, 60, 50, Band { lo: None, end: Some(1) }, 10);
    check_abi(64, 20, 70, 0, 0, Band { lo: Some(-25), end: None }, 11);
}

/// Soft-capped kernels (cap 2: scores of these inputs reach ±4, well into tanh's bend) agree
/// with the interpreter, forward and backward, under every mask.
#[test]
fn abi_soft_capped() {
    check_abi_capped((64, 64), 37, 53, 100, 60, Band::CAUSAL, Some("2.0 * tanh(s / 2.0)"), 6);
    check_abi_capped((32, 32), 33, 65, 40, 10, Band::window(7), Some("2.0 * tanh(s / 2.0)"), 7);
    check_abi_capped((128, 128), 20, 40, 0, 0, Band::NONE, Some("0.5 * tanh(s / 0.5)"), 8);
}

/// Score expressions other than a soft-cap (every function the kernels lower; slopes of min and
/// max on both sides; the positions) agree with the interpreter, forward and backward, on every
/// CPU backend.
#[test]
fn abi_score_expressions() {
    let score = "2 * tanh(s / 2) + max(s - 1, 0) / 4 - exp(min(s, 0) - 2)";
    check_abi_capped((64, 64), 37, 53, 100, 60, Band::CAUSAL, Some(score), 13);
    check_abi_capped((32, 32), 20, 40, 0, 0, Band::NONE, Some("min(s, 1.5) - s * s / 8"), 14);
    check_abi_capped((32, 32), 33, 65, 40, 10, Band::window(7), Some("-max(-s, -2) / 0.5"), 15);
    // The positions (the run pair's q_pos and kv_pos onwards), in a distance and on their own.
    check_abi_capped((64, 64), 37, 53, 100, 60, Band::CAUSAL, Some("s - (q - k) / 16 + k / 64 - q / 96"), 16);
    // Logarithms, of a score and of a distance (below 1 at the masked pairs: the kernels' floor).
    let logs = "s + log(1 + s * s / 8) - log(1 + q - k) / 4";
    check_abi_capped((64, 64), 37, 53, 100, 60, Band::CAUSAL, Some(logs), 17);
    check_abi_capped((32, 32), 33, 65, 40, 10, Band::window(7), Some(logs), 18);
    // Remainders (Euclidean, a floor per score) of positions and of the score.
    let rem = "s + (q - k) % 7 / 4 - k % 5 / 8 + s % 3 / 8";
    check_abi_capped((64, 64), 37, 53, 100, 60, Band::CAUSAL, Some(rem), 19);
    // Learned per-head parameters, their gradients summed over the call's pairs.
    let learned = "s * exp(t[h]) - b[h] * (q - k) + tanh(s * c[h]) / 4";
    check_abi_capped((64, 64), 37, 53, 100, 60, Band::CAUSAL, Some(learned), 20);
    check_abi_capped((32, 32), 33, 65, 40, 10, Band::window(7), Some(learned), 21);
    check_abi_capped((32, 32), 20, 40, 0, 0, Band::NONE, Some("s - b[h] * (q - k)"), 22);
}

/// A score's kernel code from its text; the learned parameters it reads (`NAME[h]`) declared in
/// the order they first appear.
fn score_of(text: &str) -> &'static Score {
    attnc_compiler::expr::score::parse_declaring(text).unwrap().expect("a score other than `s`")
}

/// Head `h`'s values of a score's learned parameters: small, distinct per parameter and head.
fn params_of(score: &Score, h: u32) -> Vec<f32> {
    (0..score.params.len()).map(|j| 0.03 * (j as f32 + 1.0) * if h % 2 == 0 { 1.0 } else { -0.5 }).collect()
}

/// Every head's per-head values of a score, `[heads][n]`.
fn all_head_values(score: &Score, heads: usize) -> Vec<f32> {
    (0..heads as u32).flat_map(|h| score.head_values(h, 0, &params_of(score, h))).collect()
}

/// MLA's value head dim apart from the query/key one (DeepSeek-V3's 192/128, wider values than
/// keys, widths that are not multiples of 8) agrees with the interpreter, forward and backward.
#[test]
fn abi_value_head_dim() {
    check_abi_capped((192, 128), 37, 53, 100, 60, Band::CAUSAL, None, 9);
    check_abi_capped((64, 128), 33, 65, 40, 10, Band::window(7), None, 10);
    check_abi_capped((24, 16), 20, 40, 0, 0, Band::NONE, Some("2.0 * tanh(s / 2.0)"), 11);
    check_abi_capped((12, 20), 9, 30, 10, 0, Band::CAUSAL, None, 12);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn generated_kernels_match_the_interpreter(
        d4 in 2usize..65,
        n_q in 1usize..70,
        n_kv in 1usize..70,
        q_pos in 0i64..120,
        kv_pos in 0i64..120,
        mask in 0u8..4,
        window in 1u64..40,
        lo in -30i64..10,
        lo_side in 0u8..3,
        seed in 0u64..1000,
    ) {
        // Any band: the named ones, and sides where no named mask has them (below the
        // diagonal, past it, one side open).
        let mask = match mask {
            0 => Band::NONE,
            1 => Band::CAUSAL,
            2 => Band::window(window),
            _ => Band { lo: (lo_side % 3 != 0).then_some(lo), end: (lo_side % 3 != 1).then_some(lo + window as i64) },
        };
        check_abi(4 * d4, n_q, n_kv, q_pos, kv_pos, mask, seed);
    }
}

/// A launch over packed sequences, GQA, masks; the generated host kernels against the reference.
/// Each length gives two sequences: the second half of its queries against all of its keys, and
/// the first half against the second half (hidden under a causal mask: O = 0, LSE = −inf).
#[allow(clippy::too_many_arguments)]
fn check_launch(
    (d, dv): (usize, usize),
    heads: usize,
    group: usize,
    lens: &[usize],
    mask: Band,
    dtype: Dtype,
    score: Option<&str>,
    seed: u64,
) {
    let kvh = heads / group;
    let mut l = FwdLaunch {
        heads_q: heads,
        heads_kv: kvh,
        head_dim: d,
        v_head_dim: dv,
        cu_q: vec![0],
        cu_kv: vec![0],
        scale: 1.0 / (d as f32).sqrt(),
        head_values: score.map(|s| all_head_values(score_of(s), heads)).unwrap_or_default(),
        ..FwdLaunch::default()
    };
    for &len in lens {
        let half = len / 2;
        for (nq, pq, nk, pk) in [(len - half, half, len, 0), (half, 0, len - half, half)] {
            l.cu_q.push(l.cu_q.last().unwrap() + nq as i32);
            l.cu_kv.push(l.cu_kv.last().unwrap() + nk as i32);
            l.pos_q.push(pq as i64);
            l.pos_kv.push(pk as i64);
        }
    }
    let (tq, tk) = (l.tokens_q(), l.tokens_kv());
    l.q = values(tq * heads * d, seed, dtype).into();
    l.k = values(tk * kvh * d, seed + 1, dtype).into();
    l.v = values(tk * kvh * dv, seed + 2, dtype).into();
    let spec = |kind| KernelSpec {
        kind,
        head_dim: d as u32,
        v_head_dim: (dv != d).then_some(dv as u32),
        dtype,
        group: group as u32,
        mask,
        score: score.map(score_of),
        tile_q: TILE_Q,
        tile_kv: TILE_KV,
    };
    let (fwd, bwd) = (spec(KernelKind::Forward), spec(KernelKind::Backward));
    let mut reference = FwdResult::default();
    Reference.forward(&fwd, &l, &mut reference).unwrap();
    // The backward of the reference's own forward, as a real plan runs it: D = rowsum(dO ∘ O).
    let d_out = values(tq * heads * dv, seed + 3, dtype);
    let delta =
        reference.o.chunks(dv).zip(d_out.chunks(dv)).map(|(o, g)| o.iter().zip(g).map(|(a, b)| a * b).sum()).collect();
    let b = BwdLaunch { d_out: d_out.into(), lse: reference.lse.clone().into(), delta, fwd: l.clone() };
    let mut rb = BwdResult::default();
    Reference.backward(&bwd, &b, &mut rb).unwrap();
    let generated: Vec<(&str, Box<dyn Kernels>)> = vec![
        ("interpreter", Box::new(Generated::new(Interpreter, 1))),
        ("cranelift", Box::new(Generated::new(Cranelift::default(), 3))),
        ("llvm-cpu", Box::new(Generated::new(LlvmCpu::default(), 2))),
        ("llvm-cpu-256", Box::new(Generated::new(LlvmCpu::avx2_only(), 1))),
    ];
    for (name, k) in generated {
        // Outputs start dirty: a forward writes every row, a backward starts from zero.
        let mut r = FwdResult { o: vec![7.0; 3], lse: vec![7.0; 5] };
        k.forward(&fwd, &l, &mut r).unwrap();
        for (i, (a, b)) in reference.lse.iter().zip(&r.lse).enumerate() {
            assert!(!b.is_nan(), "{name}: NaN LSE at {i}");
            if *a == f32::NEG_INFINITY {
                assert_eq!(*b, f32::NEG_INFINITY, "{name}: a fully masked row must have LSE = -inf");
                assert!(r.o[i * dv..(i + 1) * dv].iter().all(|&x| x == 0.0), "{name}: and O = 0");
            } else {
                assert!((a - b).abs() < 2e-5 * a.abs().max(1.0), "{name}: LSE {i}: {a} vs {b}");
            }
        }
        assert!(max_diff(&reference.o, &r.o) < 2e-5, "{name}: O differs by {}", max_diff(&reference.o, &r.o));
        let mut g = BwdResult { dq: vec![7.0; 2], ..BwdResult::default() };
        k.backward(&bwd, &b, &mut g).unwrap();
        for (what, want, got) in [("dq", &rb.dq, &g.dq), ("dk", &rb.dk, &g.dk), ("dv", &rb.dv, &g.dv)] {
            assert!(max_diff(want, got) < 1e-4, "{name}: {what} differs by {}", max_diff(want, got));
        }
        // Learned parameters' gradients: sums over the head's pairs, compared relative to their size.
        assert_eq!(g.dparams.len(), rb.dparams.len(), "{name}: [heads][params]");
        let size = rb.dparams.iter().fold(1.0f32, |m, x| m.max(x.abs()));
        assert!(max_diff(&rb.dparams, &g.dparams) / size < 1e-4, "{name}: dparams {:?} vs {:?}", rb.dparams, g.dparams);
    }
    // The second sequence of each length puts every key after every query: hidden rows exactly
    // where the band hides keys after the query (causal), none with no mask.
    let keys_after_hidden = mask.lo.is_some_and(|lo| lo >= 0);
    if mask.is_none() || keys_after_hidden {
        assert_eq!(
            reference.lse.contains(&f32::NEG_INFINITY),
            keys_after_hidden,
            "hidden rows exactly under a causal mask"
        );
    }
}

#[test]
fn generated_kernels_match_the_reference_on_packed_sequences_and_gqa() {
    let window = Band::window(9);
    check_launch((8, 8), 8, 8, &[33, 1, 17, 40], Band::CAUSAL, Dtype::Fp32, None, 1);
    check_launch((64, 64), 4, 4, &[70, 5], window, Dtype::Fp32, None, 2);
    check_launch((16, 16), 2, 1, &[50, 21], Band::NONE, Dtype::Fp32, None, 3);
    check_launch((32, 32), 4, 1, &[45, 3, 19], Band::CAUSAL, Dtype::Bf16, None, 4);
    // Soft-capped: the reference kernels write the cap with f32's tanh, the generated kernels
    // with their own (the interpreter's tanh, the JITs' by one exp).
    check_launch((32, 32), 4, 2, &[45, 3, 19], Band::CAUSAL, Dtype::Fp32, Some("2.0 * tanh(s / 2.0)"), 5);
    check_launch((16, 16), 2, 1, &[50, 21], Band::NONE, Dtype::Fp32, Some("1.5 * tanh(s / 1.5)"), 6);
    // Per-head values (ALiBi) with positions: the head's slope and each sequence's offsets.
    check_launch((16, 16), 4, 2, &[50, 21], Band::CAUSAL, Dtype::Fp32, Some("s - alibi(h, 4) * (q - k)"), 9);
    // Learned per-head parameters: their values per head, and their gradients per head.
    let learned = "s * exp(t[h]) - b[h] * (q - k) + tanh(s * c[h]) / 4";
    check_launch((16, 16), 4, 2, &[50, 21, 7], Band::CAUSAL, Dtype::Fp32, Some(learned), 10);
    check_launch((32, 32), 4, 1, &[45, 3], window, Dtype::Bf16, Some(learned), 11);
    // MLA: values narrower and wider than the keys.
    check_launch((48, 32), 4, 2, &[45, 3, 19], window, Dtype::Fp32, None, 7);
    check_launch((16, 24), 2, 1, &[50, 21], Band::NONE, Dtype::Bf16, None, 8);
    // Bands no named mask is: two-sided, and strictly below the diagonal.
    check_launch((16, 16), 4, 2, &[50, 21, 7], Band { lo: Some(-6), end: Some(9) }, Dtype::Fp32, None, 12);
    check_launch((32, 32), 2, 1, &[45, 3], Band { lo: Some(2), end: None }, Dtype::Bf16, None, 13);
}
