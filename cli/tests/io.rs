//! The contract of `attnc run --inputs/--out` (docs/io.md).
//!
//! THD batches as TransformerEngine takes them, through `attnc run --inputs/--out`: padded by the
//! data pipeline (`cu_seqlens_padded`, multiples of 64 and 128), with zero-length sequences, under
//! every strategy, forward and backward. The outputs are checked by `--check` against the
//! runtime's fp64 reference and, independently, here: fp64 attention written out in this file
//! from the input tensors (RoPE, GQA, causal inside each sequence) must match `o` and `lse` row by
//! row in the padded layout, and padding rows must be 0 (`-inf` for `lse`).

mod common;

use common::*;

use std::collections::BTreeMap;
use std::path::Path;

use attnc_runtime::tensor::{self, HostTensor, StDtype, Values};

const HEADS: usize = 8;
const KV_HEADS: usize = 4;
const D: usize = 8;
const THETA: f64 = 10000.0;

fn spec(cp: u32, strategy: &str, max_tokens: u64) -> String {
    format!(
        "model m {{\n  layers = 1\n  heads = {HEADS}\n  kv_heads = {KV_HEADS}\n  head_dim = {D}\n  rope {{ theta = {THETA} }}\n}}\n\
         cluster c {{\n  nodes = 1\n  gpus_per_node = 8\n  gpu = h100_sxm\n}}\n\
         layout sft {{\n  model = m\n  cluster = c\n  dtype = fp32\n  format = thd {{ max_seqlen = 256, max_tokens = {max_tokens} }}\n  cp = {cp}\n  dp = 1\n  strategy = {strategy}\n}}\n"
    )
}

fn cumulative(lens: &[u64]) -> Vec<u64> {
    std::iter::once(0)
        .chain(lens.iter().scan(0, |s, &x| {
            *s += x;
            Some(*s)
        }))
        .collect()
}

/// fp64 attention of one padded THD batch: `o` `[t, h, d]` and `lse` `[h, t]` in the padded
/// layout, padding rows 0 and `-inf`.
/// Rotate-half RoPE at `position`: pairs (i, i + d/2) at frequency theta^(-2i/d).
fn rope(x: &mut [f64], position: u64) {
    for i in 0..D / 2 {
        let angle = position as f64 * THETA.powf(-2.0 * i as f64 / D as f64);
        let (s, c) = angle.sin_cos();
        let (a, b) = (x[i], x[i + D / 2]);
        x[i] = a * c - b * s;
        x[i + D / 2] = b * c + a * s;
    }
}

fn oracle(q: &[f32], k: &[f32], v: &[f32], lens: &[u64], cu_padded: &[u64]) -> (Vec<f64>, Vec<f64>) {
    let t = *cu_padded.last().unwrap() as usize;
    let at = |x: &[f32], heads: usize, row: usize, head: usize| -> Vec<f64> {
        x[(row * heads + head) * D..][..D].iter().map(|&v| v as f64).collect()
    };
    let mut o = vec![0.0f64; t * HEADS * D];
    let mut lse = vec![f64::NEG_INFINITY; HEADS * t];
    for (seq, &len) in lens.iter().enumerate() {
        let start = cu_padded[seq] as usize;
        for h in 0..HEADS {
            let kv_head = h / (HEADS / KV_HEADS);
            for i in 0..len as usize {
                let mut qi = at(q, HEADS, start + i, h);
                rope(&mut qi, i as u64);
                let scores: Vec<f64> = (0..=i)
                    .map(|j| {
                        let mut kj = at(k, KV_HEADS, start + j, kv_head);
                        rope(&mut kj, j as u64);
                        qi.iter().zip(&kj).map(|(a, b)| a * b).sum::<f64>() / (D as f64).sqrt()
                    })
                    .collect();
                let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = scores.iter().map(|s| (s - max).exp()).sum();
                lse[h * t + start + i] = max + sum.ln();
                for (j, s) in scores.iter().enumerate() {
                    let p = (s - max).exp() / sum;
                    let vj = at(v, KV_HEADS, start + j, kv_head);
                    for e in 0..D {
                        o[((start + i) * HEADS + h) * D + e] += p * vj[e];
                    }
                }
            }
        }
    }
    (o, lse)
}

fn floats(t: &HostTensor) -> &[f32] {
    match &t.values {
        Values::Float(v) => v,
        Values::Int(_) => panic!("expected floats"),
    }
}

/// Writes inputs for a padded batch: real rows from a fixed pattern, padding rows of noise (which
/// must not leak into any real row).
fn write_inputs(path: &Path, lens: &[u64], padded: &[u64]) {
    let cu = cumulative(lens);
    let cu_padded = cumulative(padded);
    let t = *cu_padded.last().unwrap() as usize;
    let value = |row: usize, i: usize, salt: usize| -> f32 {
        let seq = (0..lens.len()).find(|&s| cu_padded[s] as usize <= row && row < cu_padded[s + 1] as usize);
        let padding = seq.is_none_or(|s| row - cu_padded[s] as usize >= lens[s] as usize);
        let x = ((row * 131 + i * 17 + salt * 7919) % 97) as f32 / 97.0 - 0.5;
        if padding { 9.0 + x } else { x }
    };
    let mut map = BTreeMap::new();
    for (salt, (name, heads)) in [("q", HEADS), ("k", KV_HEADS), ("v", KV_HEADS), ("do", HEADS)].into_iter().enumerate()
    {
        let data: Vec<f32> = (0..t * heads * D).map(|i| value(i / (heads * D), i % (heads * D), salt)).collect();
        map.insert(name.to_string(), HostTensor::float(vec![t, heads, D], StDtype::F32, data));
    }
    let ints = |v: &[u64]| HostTensor::int(vec![v.len()], v.iter().map(|&x| x as i32).collect());
    map.insert("cu_seqlens".to_string(), ints(&cu));
    map.insert("cu_seqlens_padded".to_string(), ints(&cu_padded));
    tensor::write_file(path, &map).unwrap();
}

#[test]
fn te_padded_batches_run_under_every_strategy_and_match_fp64() {
    // (real lengths, padded lengths): multiples of 64 and of 128, zero-length sequences padded to
    // nothing and to a whole multiple, a sequence exactly at its padding.
    let batches: [(&[u64], &[u64]); 2] =
        [(&[100, 0, 37, 64], &[128, 0, 64, 64]), (&[0, 130, 1, 0], &[128, 256, 128, 0])];
    let strategies = ["p2p", "all_gather", "a2a", "a2a+p2p { hierarchy = [2, 2] }"];
    for (b, (lens, padded)) in batches.iter().enumerate() {
        let total: u64 = padded.iter().sum();
        let input = temp(&format!("in{b}.safetensors"));
        write_inputs(&input, lens, padded);
        let inputs = tensor::read_file(&input).unwrap();
        let cu_padded = cumulative(padded);
        let (o_want, lse_want) =
            oracle(floats(&inputs["q"]), floats(&inputs["k"]), floats(&inputs["v"]), lens, &cu_padded);
        for (s, strategy) in strategies.iter().enumerate() {
            let file = temp(&format!("thd{b}{s}.attn"));
            std::fs::write(&file, spec(4, strategy, total.max(256))).unwrap();
            let output = temp(&format!("out{b}{s}.safetensors"));
            let out = attnc(&[
                "run",
                file.to_str().unwrap(),
                "--inputs",
                input.to_str().unwrap(),
                "--out",
                output.to_str().unwrap(),
                "--backward",
                "--check",
            ]);
            let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert_eq!(out.status.code(), Some(0), "{lens:?} {strategy}:\n{stdout}\n{stderr}");
            assert_eq!(stdout.lines().filter(|l| l.trim_end().ends_with(" ok")).count(), 5, "{stdout}");
            let got = tensor::read_file(&output).unwrap();
            let t = total as usize;
            assert_eq!(got["o"].shape, vec![t, HEADS, D]);
            assert_eq!(got["lse"].shape, vec![HEADS, t]);
            assert_eq!(got["dk"].shape, vec![t, KV_HEADS, D]);
            assert_eq!(got["cu_seqlens_padded"].values, inputs["cu_seqlens_padded"].values);
            let o = floats(&got["o"]);
            let max_err = o.iter().zip(&o_want).map(|(&a, &b)| (a as f64 - b).abs()).fold(0.0, f64::max);
            assert!(max_err < 1e-5, "{lens:?} {strategy}: o differs from fp64 by {max_err:e}");
            for (i, (&a, &b)) in floats(&got["lse"]).iter().zip(&lse_want).enumerate() {
                let ok = if b == f64::NEG_INFINITY { a == f32::NEG_INFINITY } else { (a as f64 - b).abs() < 1e-5 };
                assert!(ok, "{lens:?} {strategy}: lse[{i}] = {a}, fp64 {b}");
            }
            // Padding rows hold nothing in every output; the gradients of real rows do.
            let cu = cumulative(lens);
            let is_padding = |row: usize| {
                (0..lens.len()).all(|s| !(cu_padded[s] as usize <= row && row < (cu_padded[s] + lens[s]) as usize))
            };
            for name in ["o", "dq", "dk", "dv"] {
                let heads = if name == "o" || name == "dq" { HEADS } else { KV_HEADS };
                let values = floats(&got[name]);
                for row in 0..t {
                    let r = &values[row * heads * D..][..heads * D];
                    if is_padding(row) {
                        assert!(r.iter().all(|&x| x == 0.0), "{lens:?} {strategy}: {name} padding row {row} is not 0");
                    }
                }
                assert!(values.iter().any(|&x| x != 0.0), "{name} is all zero");
            }
            assert_eq!(cu, cumulative(lens));
        }
    }
}

/// `attnc partition --padded-seqlens` splits as TransformerEngine does, and says what is wrong
/// with padding it cannot take.
#[test]
fn partition_takes_te_padding_and_names_bad_sequences() {
    let file = temp("partition.attn");
    std::fs::write(&file, spec(2, "p2p", 512)).unwrap();
    let f = file.to_str().unwrap();
    let out = attnc(&["partition", f, "--seqlens", "100,0,37", "--padded-seqlens", "128,0,64"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("\"cu_seqlens_padded\":[0,128,128,192]"), "{stdout}");
    // Rank 0 of cp 2: chunks 0 and 3 of each sequence (32 tokens each of 128; 16 of 64).
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rank0: Vec<u64> = v["ranks"][0]["tokens"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    let want: Vec<u64> = (0..32).chain(96..128).chain(128..144).chain(176..192).collect();
    assert_eq!(rank0, want);
    assert!(v["ranks"][1]["padding"].is_array());
    for (padded, message) in [
        ("128,0,62", "sequence 2 is padded to 62 tokens, not a multiple of 4"),
        ("64,0,64", "sequence 0 has 100 tokens but is padded to 64"),
        ("128,64", "cu_seqlens_padded describes 2 sequences but cu_seqlens 3"),
    ] {
        let out = attnc(&["partition", f, "--seqlens", "100,0,37", "--padded-seqlens", padded]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{padded}: {stderr}");
        assert!(stderr.contains(message), "{padded}: {stderr}");
    }
    let out = attnc(&["partition", f, "--seqlens", "300,4"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("sequence 0 has 300 tokens, more than max_seqlen = 256"), "{stderr}");
    // The help of a padding that is not a multiple: following it partitions.
    let out = attnc(&["partition", f, "--seqlens", "100,0,37", "--padded-seqlens", "128,0,64"]);
    assert_eq!(out.status.code(), Some(0));
    let out = attnc(&["partition", f, "--seqlens", "100,0,37", "--padded-seqlens", "128,0,62"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let fix = stderr.split("pad it to ").nth(1).unwrap().trim().to_string();
    let out = attnc(&["partition", f, "--seqlens", "100,0,37", "--padded-seqlens", &format!("128,0,{fix}")]);
    assert_eq!(out.status.code(), Some(0), "following the help: {}", String::from_utf8_lossy(&out.stderr));
}

/// Rotates every head of every real row of a `[t, heads, d]` tensor at its position in its sequence.
fn rotated(x: &[f32], heads: usize, lens: &[u64], cu_padded: &[u64]) -> Vec<f32> {
    let mut out = x.to_vec();
    for (seq, &len) in lens.iter().enumerate() {
        for i in 0..len as usize {
            for h in 0..heads {
                let at = ((cu_padded[seq] as usize + i) * heads + h) * D;
                let mut v: Vec<f64> = out[at..at + D].iter().map(|&x| x as f64).collect();
                rope(&mut v, i as u64);
                for (o, r) in out[at..at + D].iter_mut().zip(v) {
                    *o = r as f32;
                }
            }
        }
    }
    out
}

/// `--rope none` takes q and k rotated already (as Megatron hands them to TransformerEngine): the
/// output equals that of `--rope apply` on the unrotated tensors, and the gradients are those
/// with respect to the rotated q and k (dq_rotated = R dq).
#[test]
fn rope_none_takes_rotated_inputs() {
    let (lens, padded): (&[u64], &[u64]) = (&[100, 0, 37], &[128, 0, 64]);
    let cu_padded = cumulative(padded);
    let plain = temp("rope-plain.safetensors");
    write_inputs(&plain, lens, padded);
    let mut tensors = tensor::read_file(&plain).unwrap();
    for (name, heads) in [("q", HEADS), ("k", KV_HEADS)] {
        let r = rotated(floats(&tensors[name]), heads, lens, &cu_padded);
        tensors.insert(name.to_string(), HostTensor::float(vec![r.len() / (heads * D), heads, D], StDtype::F32, r));
    }
    let rotated_inputs = temp("rope-rotated.safetensors");
    tensor::write_file(&rotated_inputs, &tensors).unwrap();
    let file = temp("rope.attn");
    std::fs::write(&file, spec(2, "p2p", 256)).unwrap();
    let run = |inputs: &Path, rope: &str, out: &str| {
        let output = temp(out);
        let o = attnc(&[
            "run",
            file.to_str().unwrap(),
            "--inputs",
            inputs.to_str().unwrap(),
            "--out",
            output.to_str().unwrap(),
            "--backward",
            "--check",
            "--rope",
            rope,
        ]);
        assert_eq!(o.status.code(), Some(0), "--rope {rope}: {}", String::from_utf8_lossy(&o.stderr));
        tensor::read_file(&output).unwrap()
    };
    let applied = run(&plain, "apply", "rope-applied.safetensors");
    let given = run(&rotated_inputs, "none", "rope-given.safetensors");
    let diff = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
    assert!(diff(floats(&applied["o"]), floats(&given["o"])) < 1e-5);
    assert!(diff(floats(&applied["dv"]), floats(&given["dv"])) < 1e-5);
    let dq_rotated = rotated(floats(&applied["dq"]), HEADS, lens, &cu_padded);
    assert!(diff(&dq_rotated, floats(&given["dq"])) < 1e-5);
    assert!(diff(floats(&applied["dq"]), floats(&given["dq"])) > 1e-3, "the gradients are of different tensors");
}
