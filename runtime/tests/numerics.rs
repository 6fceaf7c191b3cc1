//! The numerics matrix: every strategy × mask × format × GQA × cp (and hierarchy), forward and
//! backward, against fp64 full attention with RoPE, at the tolerances of docs/numerics.md.
//! Plus: a plan loaded from JSON gives bit-identical outputs, and corrupted RoPE positions fail.

use attnc_codegen_tests::layout_of;
use attnc_compiler::ir::{OpKind, Plan, artifact};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::verify::{self, Stage};
use attnc_runtime::exec::RunOptions;
use attnc_runtime::generated::{Cranelift, Interpreter, LlvmCpu, Tiled};
use attnc_runtime::kernels::{Kernels, Reference};
use attnc_runtime::{reference, run, tensor};

/// One case of the matrix.
#[derive(Clone, Debug)]
struct Case {
    cp: u32,
    strategy: String,
    mask: &'static str,
    format: &'static str,
    heads: u32,
    kv_heads: u32,
    dtype: &'static str,
}

fn spec(c: &Case) -> String {
    let cp = c.cp as u64;
    let format = match c.format {
        "thd" => format!("  format = thd {{ max_tokens = {} }}", 2 * cp * 64),
        f => format!("  format = {f}\n  seq = {}\n  batch = 2", 2 * cp * 8),
    };
    format!(
        "model m {{\n  layers = 1\n  heads = {}\n  kv_heads = {}\n  head_dim = 8\n  rope {{ theta = 10000 }}\n}}\n\
         cluster c {{\n  nodes = 2\n  gpus_per_node = 8\n  gpu = h100_sxm\n}}\n\
         layout l {{\n  model = m\n  cluster = c\n  dtype = {}\n{format}\n  cp = {}\n  dp = 1\n  mask = {}\n  strategy = {}\n}}\n",
        c.heads, c.kv_heads, c.dtype, c.cp, c.mask, c.strategy
    )
}

/// Uneven THD lengths: not multiples of 2·cp, and a length-1 sequence.
fn seqlens(cp: u32) -> Vec<u64> {
    let unit = 2 * cp as u64;
    vec![3 * unit + 1, 1, unit - 1 + (unit == 1) as u64, 5, 2 * unit]
}

fn plans(c: &Case) -> Result<(Plan, Plan), String> {
    let layout = layout_of(&spec(c))?;
    let seqlens = (c.format == "thd").then(|| seqlens(c.cp));
    let set =
        passes::compile(&layout, &PlanOptions { seqlens, backward: true, verify: true }).map_err(|e| e.to_string())?;
    let class = set.classes.into_iter().next().ok_or("no plan")?;
    Ok((class.forward, class.backward.ok_or("no backward plan")?))
}

/// The kernel sets every case runs with: the reference, the kernel IR interpreter, Cranelift,
/// LLVM's host kernels.
fn kernel_sets(dtype: attnc_compiler::sema::spec::Dtype) -> Vec<(&'static str, Box<dyn Kernels>)> {
    vec![
        ("reference", Box::new(Reference)),
        ("interpreter", Box::new(Tiled { backend: Interpreter, dtype, threads: 1 })),
        // Two threads per kernel call, so the threaded path runs the whole matrix too.
        ("cranelift", Box::new(Tiled { backend: Cranelift::default(), dtype, threads: 2 })),
        ("llvm-cpu", Box::new(Tiled { backend: LlvmCpu::default(), dtype, threads: 1 })),
    ]
}

fn check_case(c: &Case) -> Result<(), String> {
    let dtype = layout_of(&spec(c)).map(|l| l.dtype).map_err(|e| format!("{c:?}: {e}"))?;
    for (name, kernels) in kernel_sets(dtype) {
        check_case_with(c, kernels.as_ref()).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

fn check_case_with(c: &Case, kernels: &dyn Kernels) -> Result<(), String> {
    let (fwd, bwd) = plans(c).map_err(|e| format!("{c:?}: {e}"))?;
    let (pf, pb) = (verify::verify(&fwd, Stage::Scheduled).unwrap(), verify::verify(&bwd, Stage::Scheduled).unwrap());
    let inputs = tensor::random(&fwd.problem, 7, true);
    let result = run((&fwd, &pf), Some((&bwd, &pb)), kernels, &inputs, &RunOptions::default())
        .map_err(|e| format!("{c:?}: {e}"))?;
    let oracle = reference::full_attention(&fwd.problem, &inputs, true);
    let failed: Vec<String> = reference::check(&fwd.problem, &result.outputs, &oracle, true)
        .into_iter()
        .filter(|r| !r.passed())
        .map(|r| format!("{} max abs {:.3e} > {:.1e} ({} non-finite)", r.tensor, r.max_abs, r.tolerance, r.non_finite))
        .collect();
    if failed.is_empty() { Ok(()) } else { Err(format!("{c:?}: {}", failed.join("; "))) }
}

fn strategies(cp: u32) -> Vec<String> {
    let mut s = vec!["p2p".to_string(), "all_gather".to_string(), "a2a".to_string()];
    for h in [[2, 2], [2, 4], [4, 2]] {
        if h[0] * h[1] == cp {
            s.push(format!("a2a+p2p {{ hierarchy = [{}, {}] }}", h[0], h[1]));
        }
    }
    s
}

#[test]
fn matrix_against_fp64_full_attention() {
    let masks = [
        ("none", "sbhd"),
        ("causal", "bshd"),
        ("causal { window = 5 }", "sbhd"),
        ("padding_causal", "thd"),
        ("padding", "thd"),
        ("padding_causal { window = 6 }", "thd"),
    ];
    let mut cases = Vec::new();
    let mut rotation = 0usize;
    for cp in [1u32, 2, 3, 4, 8] {
        let heads = if cp == 3 { 12 } else { 8 };
        let gqa = [heads, heads / 4, 1];
        for strategy in strategies(cp) {
            for (mask, format) in masks {
                rotation += 1;
                let kv_heads = gqa[rotation % 3];
                cases.push(Case { cp, strategy: strategy.clone(), mask, format, heads, kv_heads, dtype: "fp32" });
            }
        }
    }
    // bf16 inputs on a few shapes: compared with the fp64 attention of the same rounded inputs.
    for (cp, strategy) in [(4, "p2p"), (2, "a2a"), (4, "a2a+p2p { hierarchy = [2, 2] }")] {
        cases.push(Case {
            cp,
            strategy: strategy.into(),
            mask: "causal",
            format: "bshd",
            heads: 8,
            kv_heads: 2,
            dtype: "bf16",
        });
    }
    let failures: Vec<String> = cases.iter().filter_map(|c| check_case(c).err()).collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert!(cases.len() >= 100, "the matrix has {} cases", cases.len());
}

fn small(strategy: &str) -> Case {
    Case { cp: 4, strategy: strategy.into(), mask: "causal", format: "sbhd", heads: 8, kv_heads: 2, dtype: "fp32" }
}

/// A plan saved as JSON and loaded back runs to the same bits as the one compiled in-process.
#[test]
fn json_plans_run_bit_identically() {
    for strategy in ["p2p", "all_gather", "a2a", "a2a+p2p { hierarchy = [2, 2] }"] {
        let (fwd, bwd) = plans(&small(strategy)).unwrap();
        let reload = |p: &Plan| {
            let json = serde_json::to_string(&artifact::from_plan(p)).unwrap();
            artifact::to_plan(&serde_json::from_str(&json).unwrap()).unwrap()
        };
        let (fwd2, bwd2) = (reload(&fwd), reload(&bwd));
        let inputs = tensor::random(&fwd.problem, 3, true);
        let go = |f: &Plan, b: &Plan| {
            let (pf, pb) = (verify::verify(f, Stage::Scheduled).unwrap(), verify::verify(b, Stage::Scheduled).unwrap());
            run((f, &pf), Some((b, &pb)), &Reference, &inputs, &RunOptions::default()).unwrap().outputs
        };
        let (a, b) = (go(&fwd, &bwd), go(&fwd2, &bwd2));
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (x, y) in [(&a.o, &b.o), (&a.lse, &b.lse), (&a.dq, &b.dq), (&a.dk, &b.dk), (&a.dv, &b.dv)] {
            assert_eq!(bits(x), bits(y), "{strategy}");
        }
    }
}

/// Positions that disagree with the token split are a numerics failure, not a silent change.
#[test]
fn corrupted_rope_positions_fail_the_check() {
    let (mut fwd, _) = plans(&small("p2p")).unwrap();
    let proof = verify::verify(&fwd, Stage::Scheduled).unwrap();
    // After verification, shift rank 1's positions as a wrong RoPE split would.
    for id in fwd.rank_ops(1).collect::<Vec<_>>() {
        if let OpKind::Load { runs, .. } = &mut fwd.op_mut(id).kind {
            runs[0].position += 3;
        }
    }
    let inputs = tensor::random(&fwd.problem, 5, false);
    let result = run((&fwd, &proof), None, &Reference, &inputs, &RunOptions::default()).unwrap();
    let oracle = reference::full_attention(&fwd.problem, &inputs, false);
    let o = &reference::check(&fwd.problem, &result.outputs, &oracle, false)[0];
    assert!(!o.passed() && o.max_abs > 1e-2, "{o:?}");
    // And the verifier rejects such a plan outright.
    let errors = verify::verify(&fwd, Stage::Scheduled).unwrap_err();
    assert!(errors.iter().any(|e| e.to_string().contains("RoPE positions")), "{errors:?}");
}
