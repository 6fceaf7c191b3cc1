//! Differential tests of generated kernels: Cranelift and LLVM's host kernels against the kernel
//! IR interpreter at the ABI, and the runtime's tiled kernels (Cranelift, LLVM, interpreter) against the reference kernels on
//! random blocks: head_dims 8…256, lengths that are not multiples of the tiles, causal offsets on
//! both sides of the diagonal, windows, documents, padding, GQA groups 1/4/8, fully masked rows,
//! bf16-rounded inputs.

use attnc_compiler::back::cranelift::Jit;
use attnc_compiler::back::llvm::HostJit;
use attnc_compiler::ir::{Doc, Problem};
use attnc_compiler::kernel::{self, BwdArgs, FwdArgs, KernelKind, KernelMask, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::spec::Dtype;
use attnc_compiler::spec::Score;
use attnc_runtime::generated::{Cranelift, Interpreter, LlvmCpu, Tiled};
use attnc_runtime::kernels::{Block, Kernels, Mask, Reference, Shape, rows_of};
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
fn check_abi(d: usize, n_q: usize, n_kv: usize, q_pos: i64, kv_pos: i64, mask: KernelMask, seed: u64) {
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
    mask: KernelMask,
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
    mask: KernelMask,
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
    let n_q = n_q.div_ceil(2) * 2;
    let q = values(n_q * d, seed, Dtype::Fp32);
    let kv_stride = d + dv + 3;
    let kv = values(n_kv * kv_stride, seed + 1, Dtype::Fp32);
    let fresh_state = || {
        let mut s = vec![0.0f32; n_q * (dv + 2)];
        for row in s.chunks_mut(dv + 2) {
            row[0] = f32::NEG_INFINITY;
        }
        s
    };
    let (mut s1, mut s2) = (fresh_state(), fresh_state());
    let mut scratch = vec![f32::NAN; spec(KernelKind::Forward).scratch_floats()];
    // A score that reads the head sees head 3's values.
    let head_values = score.map(|s| s.head_values(3)).unwrap_or_default();
    let args = |state: &mut Vec<f32>, scratch: &mut Vec<f32>| FwdArgs {
        q: q.as_ptr(),
        k: kv.as_ptr(),
        state: state.as_mut_ptr(),
        scratch: scratch.as_mut_ptr(),
        kv_stride: kv_stride as i64,
        n_q: n_q as i64,
        n_kv: n_kv as i64,
        q_pos,
        kv_pos,
        scale: 1.0 / (d as f32).sqrt(),
        head_values: head_values.as_ptr(),
    };
    let f = spec(KernelKind::Forward);
    // SAFETY: every buffer has the extent the ABI asks for.
    unsafe {
        kernel::interp::forward(&f, &args(&mut s1, &mut scratch));
        match backend {
            "cranelift" => jit.get(&f).unwrap().forward(&args(&mut s2, &mut scratch)),
            _ => llvm.get(&f).unwrap().forward(&args(&mut s2, &mut scratch)),
        }
    }
    for (r, (a, b)) in s1.chunks(dv + 2).zip(s2.chunks(dv + 2)).enumerate() {
        assert!(a[0] == b[0] || (a[0] - b[0]).abs() < 1e-4, "{backend} row {r}: m {} vs {}", a[0], b[0]);
        if a[1] > 0.0 {
            let rel = (a[1] - b[1]).abs() / a[1];
            assert!(rel < 1e-4, "{backend} row {r}: l {} vs {}", a[1], b[1]);
            let acc = max_diff(&a[2..], &b[2..]) / a[1];
            assert!(acc < 1e-4, "{backend} row {r}: acc differs by {acc}");
        } else {
            assert_eq!(b[1], 0.0, "{backend} row {r}: fully masked");
        }
        assert!(b.iter().all(|x| !x.is_nan()), "{backend} row {r}: NaN");
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
    let bargs = |dq: &mut Vec<f32>, dkv: &mut Vec<f32>| BwdArgs {
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
    };
    let b = spec(KernelKind::Backward);
    // SAFETY: as above.
    unsafe {
        kernel::interp::backward(&b, &bargs(&mut dq1, &mut dkv1));
        match backend {
            "cranelift" => jit.get(&b).unwrap().backward(&bargs(&mut dq2, &mut dkv2)),
            _ => llvm.get(&b).unwrap().backward(&bargs(&mut dq2, &mut dkv2)),
        }
    }
    let scale = dq1.iter().chain(&dkv1).fold(1.0f32, |m, x| m.max(x.abs()));
    assert!(max_diff(&dq1, &dq2) / scale < 1e-4, "{backend}: dq differs");
    assert!(max_diff(&dkv1, &dkv2) / scale < 1e-4, "{backend}: dkv differs");
}

#[test]
fn abi_edge_cases() {
    for d in [8, 64, 128, 256] {
        check_abi(d, 37, 53, 100, 60, KernelMask::Causal, 1);
    }
    // Keys entirely after the queries (fully masked rows), entirely before, and windows.
    check_abi(16, 10, 20, 0, 50, KernelMask::Causal, 2);
    check_abi(16, 10, 20, 500, 0, KernelMask::Causal, 3);
    check_abi(32, 33, 65, 40, 10, KernelMask::Window { window: 7 }, 4);
    check_abi(32, 1, 1, 0, 0, KernelMask::None, 5);
}

/// Soft-capped kernels (cap 2: scores of these inputs reach ±4, well into tanh's bend) agree
/// with the interpreter, forward and backward, under every mask.
#[test]
fn abi_soft_capped() {
    check_abi_capped((64, 64), 37, 53, 100, 60, KernelMask::Causal, Some("2.0 * tanh(s / 2.0)"), 6);
    check_abi_capped((32, 32), 33, 65, 40, 10, KernelMask::Window { window: 7 }, Some("2.0 * tanh(s / 2.0)"), 7);
    check_abi_capped((128, 128), 20, 40, 0, 0, KernelMask::None, Some("0.5 * tanh(s / 0.5)"), 8);
}

/// Score expressions other than a soft-cap (every function the kernels lower; slopes of min and
/// max on both sides; the positions) agree with the interpreter, forward and backward, on every
/// CPU backend.
#[test]
fn abi_score_expressions() {
    let score = "2 * tanh(s / 2) + max(s - 1, 0) / 4 - exp(min(s, 0) - 2)";
    check_abi_capped((64, 64), 37, 53, 100, 60, KernelMask::Causal, Some(score), 13);
    check_abi_capped((32, 32), 20, 40, 0, 0, KernelMask::None, Some("min(s, 1.5) - s * s / 8"), 14);
    check_abi_capped((32, 32), 33, 65, 40, 10, KernelMask::Window { window: 7 }, Some("-max(-s, -2) / 0.5"), 15);
    // The positions (the run pair's q_pos and kv_pos onwards), in a distance and on their own.
    check_abi_capped((64, 64), 37, 53, 100, 60, KernelMask::Causal, Some("s - (q - k) / 16 + k / 64 - q / 96"), 16);
    // Logarithms, of a score and of a distance (below 1 at the masked pairs: the kernels' floor).
    let logs = "s + log(1 + s * s / 8) - log(1 + q - k) / 4";
    check_abi_capped((64, 64), 37, 53, 100, 60, KernelMask::Causal, Some(logs), 17);
    check_abi_capped((32, 32), 33, 65, 40, 10, KernelMask::Window { window: 7 }, Some(logs), 18);
    // Remainders (Euclidean, a floor per score) of positions and of the score.
    let rem = "s + (q - k) % 7 / 4 - k % 5 / 8 + s % 3 / 8";
    check_abi_capped((64, 64), 37, 53, 100, 60, KernelMask::Causal, Some(rem), 19);
}

/// A score's kernel code from its text.
fn score_of(text: &str) -> &'static Score {
    attnc_compiler::expr::score::parse(text).unwrap().expect("a score other than `s`")
}

/// MLA's value head dim apart from the query/key one (DeepSeek-V3's 192/128, wider values than
/// keys, widths that are not multiples of 8) agrees with the interpreter, forward and backward.
#[test]
fn abi_value_head_dim() {
    check_abi_capped((192, 128), 37, 53, 100, 60, KernelMask::Causal, None, 9);
    check_abi_capped((64, 128), 33, 65, 40, 10, KernelMask::Window { window: 7 }, None, 10);
    check_abi_capped((24, 16), 20, 40, 0, 0, KernelMask::None, Some("2.0 * tanh(s / 2.0)"), 11);
    check_abi_capped((12, 20), 9, 30, 10, 0, KernelMask::Causal, None, 12);
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
        mask in 0u8..3,
        window in 1u64..40,
        seed in 0u64..1000,
    ) {
        let mask = match mask { 0 => KernelMask::None, 1 => KernelMask::Causal, _ => KernelMask::Window { window } };
        check_abi(4 * d4, n_q, n_kv, q_pos, kv_pos, mask, seed);
    }
}

/// A block over documents with padding, GQA, masks; tiled kernels against the reference.
#[allow(clippy::too_many_arguments)]
fn check_block(
    (d, dv): (usize, usize),
    heads: usize,
    group: usize,
    lens: &[u64],
    causal: bool,
    window: Option<u64>,
    dtype: Dtype,
    score: Option<&str>,
    seed: u64,
) {
    let mut docs = Vec::new();
    let mut start = 0;
    for &len in lens {
        let end = start + len.div_ceil(4) * 4; // Some padding.
        docs.push(Doc { start, end, len });
        start = end;
    }
    let p = Problem {
        tokens: start,
        docs,
        causal,
        window,
        chunk: None,
        regions: None,
        heads: heads as u32,
        kv_heads: (heads / group) as u32,
        head_dim: d as u32,
        batch: 1,
        dtype,
        thd: true,
        rope: None,
        softmax_scale: None,
        v_head_dim: (dv != d).then_some(dv as u32),
        sinks: false,
        score: None,
    };
    let t = start as usize;
    let kvh = heads / group;
    let q_shape = Shape { batch: 1, rows: t, heads, elems: d + 2 * dv + 1 };
    let kv_shape = Shape { batch: 1, rows: t, heads: kvh, elems: d + dv };
    let mut q = values(q_shape.len(), seed, dtype);
    let kv = values(kv_shape.len(), seed + 1, dtype);
    let mask = Mask::of(&p);
    // Rows in a permuted order (zigzag-like): the second half first.
    let order: Vec<(usize, u64)> = (t / 2..t).chain(0..t / 2).map(|r| (r, r as u64)).collect();
    let rows = rows_of(&p, order.clone().into_iter());
    let kv_rows = rows_of(&p, (0..t).map(|r| (r, r as u64)));
    let part_shape = Shape { batch: 1, rows: t, heads, elems: dv + 1 };
    let head_values: Vec<f32> =
        score.map(|s| (0..heads as u32).flat_map(|h| score_of(s).head_values(h)).collect()).unwrap_or_default();
    let forward = |k: &dyn Kernels, q: &[f32]| {
        let mut part = vec![0.0f32; part_shape.len()];
        let b = Block {
            head_dim: d,
            v_head_dim: dv,
            scale: 1.0 / (d as f32).sqrt(),
            score: score.map(score_of),
            head_values: &head_values,
            mask: &mask,
            q,
            q_shape,
            q_rows: &rows,
            kv: &kv,
            kv_shape,
            kv_rows: &kv_rows,
            delta: None,
        };
        k.forward(&b, &mut part, part_shape).unwrap();
        part
    };
    let reference = forward(&Reference, &q);
    // Use the reference's O and LSE in the backward bundle, as a real plan does.
    for r in 0..t {
        for h in 0..heads {
            let at = q_shape.at(0, r, h);
            let from = part_shape.at(0, r, h);
            q[at + d..at + d + dv].copy_from_slice(&reference[from..from + dv]);
            q[at + d + 2 * dv] = reference[from + dv];
        }
    }
    let dq_shape = Shape { batch: 1, rows: t, heads, elems: d };
    let backward = |k: &dyn Kernels| {
        let (mut dq, mut dkv) = (vec![0.0f32; dq_shape.len()], vec![0.0f32; kv_shape.len()]);
        let b = Block {
            head_dim: d,
            v_head_dim: dv,
            scale: 1.0 / (d as f32).sqrt(),
            score: score.map(score_of),
            head_values: &head_values,
            mask: &mask,
            q: &q,
            q_shape,
            q_rows: &rows,
            kv: &kv,
            kv_shape,
            kv_rows: &kv_rows,
            delta: None,
        };
        k.backward(&b, &mut dq, dq_shape, &mut dkv, kv_shape).unwrap();
        (dq, dkv)
    };
    let (rdq, rdkv) = backward(&Reference);
    let tiled: Vec<(&str, Box<dyn Kernels>)> = vec![
        ("interpreter", Box::new(Tiled::new(Interpreter, dtype, 1))),
        ("cranelift", Box::new(Tiled::new(Cranelift::default(), dtype, 3))),
        ("llvm-cpu", Box::new(Tiled::new(LlvmCpu::default(), dtype, 2))),
        ("llvm-cpu-256", Box::new(Tiled::new(LlvmCpu::avx2_only(), dtype, 1))),
    ];
    for (name, k) in tiled {
        let part = forward(k.as_ref(), &q);
        for (i, (a, b)) in reference.iter().zip(&part).enumerate() {
            let lse = (i % (dv + 1)) == dv;
            assert!(!b.is_nan(), "{name}: NaN at {i}");
            if lse && *a == f32::NEG_INFINITY {
                assert_eq!(*b, f32::NEG_INFINITY, "{name}: fully masked row must have LSE = -inf");
            } else {
                assert!((a - b).abs() < 2e-5 * a.abs().max(1.0), "{name}: forward {i}: {a} vs {b}");
            }
        }
        let (dq, dkv) = backward(k.as_ref());
        assert!(max_diff(&rdq, &dq) < 1e-4, "{name}: dq differs by {}", max_diff(&rdq, &dq));
        assert!(max_diff(&rdkv, &dkv) < 1e-4, "{name}: dkv differs by {}", max_diff(&rdkv, &dkv));
    }
}

#[test]
fn tiled_kernels_match_the_reference_on_documents_and_gqa() {
    check_block((8, 8), 8, 8, &[33, 1, 17, 40], true, None, Dtype::Fp32, None, 1);
    check_block((64, 64), 4, 4, &[70, 5], true, Some(9), Dtype::Fp32, None, 2);
    check_block((16, 16), 2, 1, &[50, 21], false, None, Dtype::Fp32, None, 3);
    check_block((32, 32), 4, 1, &[45, 3, 19], true, None, Dtype::Bf16, None, 4);
    // Soft-capped: the reference kernels write the cap with f32's tanh, the tiled kernels with
    // their own (the interpreter's tanh, the JITs' by one exp).
    check_block((32, 32), 4, 2, &[45, 3, 19], true, None, Dtype::Fp32, Some("2.0 * tanh(s / 2.0)"), 5);
    check_block((16, 16), 2, 1, &[50, 21], false, None, Dtype::Fp32, Some("1.5 * tanh(s / 1.5)"), 6);
    // MLA: values narrower and wider than the keys.
    check_block((48, 32), 4, 2, &[45, 3, 19], true, Some(9), Dtype::Fp32, None, 7);
    check_block((16, 24), 2, 1, &[50, 21], false, None, Dtype::Bf16, None, 8);
}
