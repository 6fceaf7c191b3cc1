//! The numerics matrix: every strategy × mask × format × GQA × cp (and hierarchy), forward and
//! backward, against fp64 full attention with RoPE, at the tolerances of docs/numerics.md.
//! Plus: a plan loaded from JSON gives bit-identical outputs, and corrupted RoPE positions fail.

use attnc_compiler::ir::{OpKind, Plan, artifact};
use attnc_compiler::spec::Exchange;
use attnc_compiler::verify::{self, Stage};
use attnc_runtime::device::host::HostDevice;
use attnc_runtime::exec::RunOptions;
#[cfg(feature = "llvm")]
use attnc_runtime::generated::LlvmCpu;
use attnc_runtime::generated::{Cranelift, Generated, Interpreter};
use attnc_runtime::kernels::{Kernels, Reference};
use attnc_runtime::matrix::{self, Case};
use attnc_runtime::{reference, run, tensor};

fn plans(c: &Case) -> Result<(verify::Verified, verify::Verified), String> {
    c.plans().map_err(|e| format!("{}: {e}", c.name()))
}

/// The kernel sets every case runs with: the reference, the kernel IR interpreter, Cranelift,
/// LLVM's host kernels (as this CPU gets them, and at 256 bits).
fn kernel_sets() -> Vec<(&'static str, Box<dyn Kernels>)> {
    vec![
        ("reference", Box::new(Reference)),
        ("interpreter", Box::new(Generated::new(Interpreter, 1))),
        // Two threads per launch, so the threaded path runs the whole matrix too.
        ("cranelift", Box::new(Generated::new(Cranelift::default(), 2))),
        #[cfg(feature = "llvm")]
        ("llvm-cpu", Box::new(Generated::new(LlvmCpu::default(), 1))),
        // The 256-bit kernels too, which an AVX-512 host would not otherwise run.
        #[cfg(feature = "llvm")]
        ("llvm-cpu-256", Box::new(Generated::new(LlvmCpu::avx2_only(), 1))),
    ]
}

/// The kernel sets, made once: the JITs cache compiled kernels across cases.
type Sets = Vec<(&'static str, Box<dyn Kernels>)>;

fn check_case(c: &Case, kernels: &Sets) -> Result<(), String> {
    assert!(kernels.len() >= 3, "every CPU kernel set checks the case");
    for (name, kernels) in kernels {
        c.check(kernels.as_ref()).map_err(|e| format!("{name}: {}: {e}", c.name()))?;
    }
    Ok(())
}

/// A case on every CPU kernel set, then in bf16 under the GPU kernel ABI's rule (the emulated
/// device): the failures.
fn check_cpu_and_bf16(c: &Case, kernels: &Sets) -> Vec<String> {
    let mut failures: Vec<String> = check_case(c, kernels).err().into_iter().collect();
    let bf16 = Case { dtype: "bf16", ..c.clone() };
    let device = HostDevice::emulated(attnc_compiler::spec::Dtype::Bf16);
    failures.extend(bf16.check_on(&device).err().map(|e| format!("{}: {e}", bf16.name())));
    failures
}

#[test]
fn matrix_against_fp64_full_attention() {
    let mut cases = matrix::cases("fp32", 8);
    // bf16 inputs on a few shapes: compared with the fp64 attention of the same rounded inputs.
    for (cp, strategy) in [(4, "p2p"), (2, "a2a"), (4, "a2a+p2p { hierarchy = [2, 2] }")] {
        cases.push(Case {
            cp,
            strategy: strategy.into(),
            mask: "causal",
            format: "bshd",
            heads: 8,
            kv_heads: 2,
            head_dim: 8,
            dtype: "bf16",
            sinks: false,
            score: None,
            v_head_dim: None,
            exchange: Exchange::Auto,
            long: false,
        });
    }
    // A score with kinks, in fp32 only (`matrix::KINKED`): every exchange, MQA among them.
    for (cp, strategy, kv_heads) in
        [(4, "p2p", 8), (4, "all_gather", 1), (2, "a2a", 2), (4, "a2a+p2p { hierarchy = [2, 2] }", 4)]
    {
        cases.push(Case {
            cp,
            strategy: strategy.into(),
            mask: "causal { window = 5 }",
            format: "sbhd",
            heads: 8,
            kv_heads,
            head_dim: 8,
            dtype: "fp32",
            sinks: false,
            score: Some(matrix::KINKED),
            v_head_dim: None,
            exchange: Exchange::Auto,
            long: false,
        });
    }
    // Positions in a score under chunks and packed sequences: q and k are positions within the
    // sequence, not within the chunk or the rank's shard.
    for (cp, strategy) in [(4, "p2p"), (2, "all_gather"), (4, "a2a+p2p { hierarchy = [2, 2] }")] {
        cases.push(Case {
            cp,
            strategy: strategy.into(),
            mask: "padding_causal { chunk = 5 }",
            format: "thd",
            heads: 8,
            kv_heads: 2,
            head_dim: 8,
            dtype: "fp32",
            sinks: false,
            score: Some("score = s - (q - k) / 8 + q / 32 - k / 48"),
            v_head_dim: None,
            exchange: Exchange::Auto,
            long: false,
        });
    }
    let sets = kernel_sets();
    let failures: Vec<String> = cases.iter().filter_map(|c| check_case(c, &sets).err()).collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert!(cases.len() >= 100, "the matrix has {} cases", cases.len());
}

/// Windows and chunks under both exchanges the cost model chooses between — the halo exchange of
/// exactly the needed rows and the strategy's own communication (ring shifts, all-gather) — for
/// every strategy with a point-to-point level, every CP size and local mask of the matrix and
/// its features: the reference kernels (fp32) and the GPU ABI emulation (bf16/fp16), forward and
/// backward. The halo plans must really be halo plans, and the others must not; the rings among
/// the others are trimmed forward (each block carries only rows some later holder reads).
#[test]
fn local_masks_under_both_exchanges_against_fp64() {
    let local = |c: &Case| {
        c.cp > 1
            && c.strategy != "a2a"
            && (c.mask.contains("window") || c.mask.contains("chunk") || c.mask.contains('<'))
    };
    let mut failures = Vec::new();
    let (mut count, mut trimmed) = (0, 0);
    for (cases, gpu) in [(matrix::cases("fp32", 8), false), (matrix::gpu_cases(8), true)] {
        for base in cases.into_iter().filter(|c| local(c)) {
            for exchange in [Exchange::Halo, Exchange::Full] {
                let c = Case { exchange, ..base.clone() };
                count += 1;
                let (fwd, _) = match plans(&c) {
                    Ok(p) => p,
                    Err(e) => {
                        failures.push(e);
                        continue;
                    }
                };
                let halos = fwd.buffers.iter().any(|b| b.halo);
                // The ring forward under a local mask is trimmed where a block shrinks (a cut).
                let cuts = fwd.op_ids().any(|id| matches!(fwd.op(id).kind, OpKind::CopyRows { .. }));
                if exchange == Exchange::Full && cuts {
                    trimmed += 1;
                }
                // The p2p level of a2a+p2p [n, 1] is one rank: no halo either way.
                let one_ring = c.strategy.ends_with(", 1] }");
                if halos != (exchange == Exchange::Halo && !one_ring) {
                    failures.push(format!("{}: halo buffers {halos}", c.name()));
                }
                let result = if gpu {
                    let dtype = c.layout().map(|l| l.dtype).unwrap_or(attnc_compiler::spec::Dtype::Bf16);
                    c.check_on(&HostDevice::emulated(dtype))
                } else {
                    c.check(&Reference)
                };
                if let Err(e) = result {
                    failures.push(format!("{}: {e}", c.name()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {count} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(count, 432, "108 local-mask cases × 2 exchanges × 2 kernel sets");
    assert_eq!(trimmed, 136, "ring plans (of 216) whose forward is trimmed somewhere");
}

/// The device executor (planes, launch tables, transfers and collectives between ranks' memory,
/// head repetition and sums) on a host-memory device under the GPU kernel ABI's rule (the
/// reference kernels over the same launches, 16-bit inputs): the whole GPU matrix, every strategy
/// — bf16 everywhere, fp16 on every third case. On a GPU, `attnc matrix --kernels cuda` runs
/// these cases with the PTX kernels.
#[test]
fn device_executor_on_host_memory_against_fp64() {
    use attnc_runtime::device::host::HostDevice;
    let cases = matrix::gpu_cases(8);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let dtype = c.layout().ok()?.dtype;
            c.check_on(&HostDevice::emulated(dtype)).err().map(|e| format!("{}: {e}", c.name()))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert_eq!(cases.len(), 252);
}

/// The device executor's timeline: one span per op of every rank, each between the stamps around
/// it (on a GPU, CUDA events), so `--timings` and `--trace` show what the device ran.
#[test]
fn device_executor_spans_cover_every_op() {
    use attnc_runtime::device::host::HostDevice;
    let c = matrix::gpu_cases(8).into_iter().find(|c| c.strategy == "p2p" && c.cp == 4).unwrap();
    let (fwd, _) = plans(&c).unwrap();
    let inputs = tensor::random(&fwd.problem, 1, false);
    let device = HostDevice::emulated(attnc_compiler::spec::Dtype::Bf16);
    let r = attnc_runtime::run(&fwd, None, &device, &inputs, &RunOptions::default()).unwrap();
    assert_eq!(r.forward_spans.len(), fwd.op_ids().count());
    assert!(r.forward_spans.iter().all(|s| 0.0 <= s.start && s.start <= s.end), "{:?}", r.forward_spans);
    let timings = attnc_runtime::timings(&r.forward_spans, 4);
    assert!(timings.iter().all(|t| t.compute_s > 0.0 && t.comm_s > 0.0), "{timings:?}");
}

/// The kernels a run launches, recorded on their way to the reference kernels.
struct Recording(std::sync::Mutex<Vec<attnc_compiler::kernel::KernelSpec>>);

impl Recording {
    fn note(&self, spec: &attnc_compiler::kernel::KernelSpec) {
        let mut seen = self.0.lock().unwrap();
        if !seen.contains(spec) {
            seen.push(*spec);
        }
    }
}

impl Kernels for Recording {
    fn forward(
        &self,
        spec: &attnc_compiler::kernel::KernelSpec,
        launch: &attnc_runtime::kernels::FwdLaunch<'_>,
        out: &mut attnc_runtime::kernels::FwdResult,
    ) -> Result<(), String> {
        self.note(spec);
        Reference.forward(spec, launch, out)
    }

    fn backward(
        &self,
        spec: &attnc_compiler::kernel::KernelSpec,
        launch: &attnc_runtime::kernels::BwdLaunch<'_>,
        out: &mut attnc_runtime::kernels::BwdResult,
    ) -> Result<(), String> {
        self.note(spec);
        Reference.backward(spec, launch, out)
    }
}

/// The kernel set of a plan has one source, its launch tables: what a run launches (recorded
/// at the device) is exactly `kernel::specs_of` of its plans, and within what ahead-of-time
/// compilation builds (`kernel::specs_of_plans`), so a kernel directory written by `attnc
/// compile` serves `attnc run --device cuda` of the same layout. For packed (THD) plans AOT also
/// builds every mask a run pair of the problem can need, so a batch of other lengths than the
/// planned one still finds its kernels.
#[test]
fn the_kernel_set_is_the_launch_tables() {
    use attnc_compiler::kernel::{self, KernelSpec};
    let mut failures = Vec::new();
    for c in matrix::gpu_cases(8) {
        let (fwd, bwd) = plans(&c).unwrap();
        let recording = Recording(std::sync::Mutex::new(Vec::new()));
        let device = HostDevice::with_kernels(fwd.problem.dtype, &recording);
        let inputs = tensor::random(&fwd.problem, 1, true);
        attnc_runtime::run(&fwd, Some(&bwd), &device, &inputs, &RunOptions::default()).unwrap();
        let mut launched = recording.0.into_inner().unwrap();
        let mut planned: Vec<KernelSpec> = kernel::specs_of(&fwd).into_iter().chain(kernel::specs_of(&bwd)).collect();
        let key = |s: &KernelSpec| s.name();
        launched.sort_by_key(key);
        planned.sort_by_key(key);
        planned.dedup();
        if launched != planned {
            failures.push(format!("{}: launched {launched:?}, planned {planned:?}", c.name()));
        }
        let aot = kernel::specs_of_plans([fwd.plan(), bwd.plan()]);
        if let Some(s) = launched.iter().find(|s| !aot.contains(s)) {
            failures.push(format!("{}: {} is not built ahead of time", c.name(), s.name()));
        }
        if fwd.problem.thd {
            for mask in attnc_compiler::kernel::launch::masks(&fwd.problem) {
                if !aot.iter().any(|s| s.mask == mask) {
                    failures.push(format!("{}: AOT lacks the {mask:?} kernels other batches need", c.name()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Transfers between "processes" (threads with their own host devices) through the CPU
/// communicator: what NCCL does between GPUs, with the same grouping and pairing in order.
struct Channels(attnc_runtime::comm::CpuComm);

impl attnc_runtime::exec::Remote<attnc_runtime::device::host::HostDevice<'_>> for Channels {
    fn send_recv(
        &self,
        device: &attnc_runtime::device::host::HostDevice<'_>,
        rank: u32,
        stream: usize,
        sends: &[attnc_runtime::exec::Transfer<'_, attnc_runtime::device::host::HostMem>],
        recvs: &[attnc_runtime::exec::Transfer<'_, attnc_runtime::device::host::HostMem>],
    ) -> Result<(), String> {
        use attnc_runtime::comm::{Communicator, Recv, Send};
        use attnc_runtime::device::Device;
        let words = |b: Vec<u8>| -> Vec<f32> {
            b.chunks_exact(4).map(|c| f32::from_bits(u32::from_le_bytes(c.try_into().unwrap()))).collect()
        };
        let data: Vec<Vec<f32>> = sends
            .iter()
            .map(|(_, r, len)| device.download(rank, stream, *r, *len).map(words))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let sends: Vec<Send<'_>> = sends.iter().zip(&data).map(|(t, d)| Send { peer: t.0, data: d }).collect();
        let mut bufs: Vec<Vec<f32>> = recvs.iter().map(|t| vec![0.0; t.2 / 4]).collect();
        let mut rs: Vec<Recv<'_>> =
            recvs.iter().zip(bufs.iter_mut()).map(|(t, b)| Recv { peer: t.0, data: b }).collect();
        self.0.send_recv(rank, "p2p", &sends, &mut rs).map_err(|e| e.to_string())?;
        for (t, b) in recvs.iter().zip(&bufs) {
            let bytes: Vec<u8> = b.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect();
            device.upload(rank, stream, t.1, &bytes).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// One process per rank (each with its own device memory), transfers and collectives between
/// them as NCCL would carry them (packed staging, grouped send/recv): every case with cp > 1.
#[test]
fn device_executor_one_rank_per_process() {
    use attnc_runtime::device::host::HostDevice;
    let cases: Vec<Case> = matrix::gpu_cases(8).into_iter().filter(|c| c.cp > 1).collect();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let dtype = c.layout().ok()?.dtype;
            let abort = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let remote = Channels(attnc_runtime::comm::CpuComm::new(c.cp, abort, std::time::Duration::from_secs(20)));
            c.check_per_rank(|_| HostDevice::emulated(dtype), &remote).err().map(|e| format!("{}: {e}", c.name()))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert_eq!(cases.len(), 216);
}

/// Learned sinks with one process per rank: each rank's dsinks holds its own rows' share, and the
/// shares sum to the gradient (every strategy at cp 4, bf16 on the emulated GPU ABI).
#[test]
fn learned_sinks_one_rank_per_process() {
    use attnc_runtime::device::host::HostDevice;
    for strategy in matrix::strategies(4) {
        let c = Case { dtype: "bf16", sinks: true, ..small(&strategy) };
        let abort = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let remote = Channels(attnc_runtime::comm::CpuComm::new(c.cp, abort, std::time::Duration::from_secs(20)));
        c.check_per_rank(|_| HostDevice::emulated(attnc_compiler::spec::Dtype::Bf16), &remote)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name()));
    }
}

/// Logit soft-capping (`softcap = 2`: scores of the seeded inputs reach well into tanh's bend)
/// under every strategy at cp 4, forward and backward, against fp64 attention with the cap and
/// its derivative written plainly in `reference.rs`: fp32 causal, chunked and packed THD with
/// learned sinks on every CPU kernel set (reference, interpreter, Cranelift, LLVM at both widths),
/// and a bf16 window on the emulated GPU ABI.
#[test]
fn soft_capped_logits_against_fp64() {
    use attnc_runtime::device::host::HostDevice;
    let sets = kernel_sets();
    let mut failures = Vec::new();
    let mut runs = 0;
    for strategy in matrix::strategies(4) {
        let capped = |mask, format, sinks| Case { mask, format, sinks, score: Some("softcap = 2"), ..small(&strategy) };
        for c in [
            capped("causal", "bshd", false),
            capped("causal { chunk = 6 }", "bshd", false),
            capped("padding_causal", "thd", true),
        ] {
            runs += 1;
            failures.extend(check_case(&c, &sets).err());
        }
        let c = Case { dtype: "bf16", ..capped("causal { window = 5 }", "sbhd", false) };
        let (fwd, _) = plans(&c).unwrap();
        assert_eq!(fwd.problem.score.map(|s| s.text.as_str()), Some("2 * tanh(s / 2)"), "{}", c.name());
        runs += 1;
        failures
            .extend(c.check_on(&HostDevice::emulated(fwd.problem.dtype)).err().map(|e| format!("{}: {e}", c.name())));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(runs, 4 * 4);
}

fn small(strategy: &str) -> Case {
    Case {
        cp: 4,
        strategy: strategy.into(),
        mask: "causal",
        format: "sbhd",
        heads: 8,
        kv_heads: 2,
        head_dim: 8,
        dtype: "fp32",
        sinks: false,
        score: None,
        v_head_dim: None,
        exchange: Exchange::Auto,
        long: false,
    }
}

/// A plan saved as JSON and loaded back runs to the same bits as the one compiled in-process.
#[test]
fn json_plans_run_bit_identically() {
    // And a mask the kernels test in the score code (`Score::mask`), which must read back as the
    // same steps.
    let tested = Case { mask: matrix::MASKS[11].0, format: matrix::MASKS[11].1, ..small("p2p") };
    assert!(plans(&tested).unwrap().0.problem.score.is_some_and(|s| s.mask.is_some()));
    let cases = ["p2p", "all_gather", "a2a", "a2a+p2p { hierarchy = [2, 2] }"].map(small);
    for case in cases.iter().chain([&tested]) {
        let strategy = case.name();
        let (fwd, bwd) = plans(case).unwrap();
        let reload = |p: &Plan| {
            let json = serde_json::to_string(&artifact::from_plan(p)).unwrap();
            artifact::to_plan(&serde_json::from_str(&json).unwrap()).unwrap()
        };
        let (fwd2, bwd2) = (reload(&fwd), reload(&bwd));
        assert_eq!(fwd2.problem, fwd.problem, "{strategy}");
        let inputs = tensor::random(&fwd.problem, 3, true);
        let go = |f: &Plan, b: &Plan| {
            let (pf, pb) = (verify::verify(f, Stage::Scheduled).unwrap(), verify::verify(b, Stage::Scheduled).unwrap());
            run(&pf, Some(&pb), &HostDevice::with_kernels(f.problem.dtype, &Reference), &inputs, &RunOptions::default())
                .unwrap()
                .outputs
        };
        let (a, b) = (go(&fwd, &bwd), go(&fwd2, &bwd2));
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (x, y) in [(&a.o, &b.o), (&a.lse, &b.lse), (&a.dq, &b.dq), (&a.dk, &b.dk), (&a.dv, &b.dv)] {
            assert_eq!(bits(x), bits(y), "{strategy}");
        }
    }
}

/// Positions that disagree with the token split are refused, never run: the verifier names the
/// RoPE positions, and with the proof owning its plan no edited plan can run on an old proof.
#[test]
fn corrupted_rope_positions_are_refused() {
    let (fwd, _) = plans(&small("p2p")).unwrap();
    let mut fwd = fwd.into_plan();
    // Shift rank 1's positions as a wrong RoPE split would.
    for id in fwd.rank_ops(1).collect::<Vec<_>>() {
        if let OpKind::Load { runs, .. } = &mut fwd.op_mut(id).kind {
            runs[0].position += 3;
        }
    }
    let errors = verify::verify(&fwd, Stage::Scheduled).unwrap_err();
    assert!(errors.iter().any(|e| e.to_string().contains("RoPE positions")), "{errors:?}");
}

/// Compiles `spec`'s one layout and runs every layer class forward and backward — with
/// Cranelift's kernels in fp32, with the emulated GPU ABI otherwise — against fp64 attention;
/// returns the classes and each tensor out of tolerance.
fn check_spec(spec: String, seqlens: Option<Vec<u64>>) -> (Vec<attnc_compiler::passes::LayerClass>, Vec<String>) {
    use attnc_compiler::passes::{self, PlanOptions};
    let mut sources = attnc_compiler::span::Sources::new();
    let file = sources.add("case.attn", spec);
    let unit = attnc_compiler::compile_file(&mut sources, file, &[]);
    let Some(spec) = unit.spec else { panic!("{}", attnc_compiler::diag::render(&sources, &unit.diagnostics)) };
    let layout = spec.layouts[0].clone();
    let options = PlanOptions { seqlens, backward: true, verify: true, ..Default::default() };
    let set = passes::compile(&layout, &options).unwrap();
    let mut failures = Vec::new();
    for class in &set.classes {
        let (fwd, bwd) = (&class.forward, class.backward.as_ref().unwrap());
        let inputs = tensor::random(&fwd.problem, 9, true);
        let cranelift = Generated::new(Cranelift::default(), 1);
        let device = match fwd.problem.dtype {
            attnc_compiler::spec::Dtype::Fp32 => HostDevice::with_kernels(fwd.problem.dtype, &cranelift),
            dtype => HostDevice::emulated(dtype),
        };
        let result = run(fwd, Some(bwd), &device, &inputs, &RunOptions::default()).unwrap();
        let oracle = reference::full_attention(&fwd.problem, &inputs, true);
        for r in reference::check(&fwd.problem, &result.outputs, &oracle, true) {
            if !r.passed() {
                failures.push(format!("{}: {} {:.2e} > {:.1e}", fwd.header.layout, r.tensor, r.max_abs, r.tolerance));
            }
        }
    }
    (set.classes, failures)
}

/// A spec of one layout `l` of `layers` layers (heads 8 over 2 KV heads of 8 dims) at cp 4.
fn spec_text(model: &str, layout: &str, layers: u32) -> String {
    format!(
        "model m {{\n  layers = {layers}\n  heads = 8\n  kv_heads = 2\n  head_dim = 8\n{model}\n}}\n\
         cluster c {{\n  nodes = 1\n  gpus_per_node = 8\n  gpu = h100_sxm\n}}\n\
         layout l {{\n  model = m\n  cluster = c\n  cp = 4\n  dp = 2\n{layout}\n}}\n"
    )
}

/// Partial RoPE (the last 4 of 8 dims rotate: `rope { dims = 4 }`) and NoPE layers (`layer 1..2 {
/// rope = none }`), under every strategy at cp 4, forward and backward, with Cranelift's kernels
/// and with the emulated GPU ABI (bf16), against fp64 attention whose rotation is written plainly
/// in `reference.rs` — at the matrix's tolerances.
#[test]
fn partial_rope_and_nope_layers_against_fp64() {
    let variants = [
        ("rope { theta = 10000, dims = 4 }", "", "fp32"),
        ("rope { theta = 10000, dims = 4 }", "", "bf16"),
        ("rope { theta = 500000 }", "  layer 1..2 { rope = none }\n", "fp32"),
    ];
    let mut failures = Vec::new();
    let mut classes_run = 0;
    for strategy in matrix::strategies(4) {
        for (rope, layers, dtype) in variants {
            let layout = format!(
                "  dtype = {dtype}\n  format = bshd\n  seq = 64\n  batch = 2\n  mask = causal\n  strategy = {strategy}\n{layers}"
            );
            let (classes, failed) = check_spec(spec_text(&format!("  {rope}"), &layout, 2), None);
            assert_eq!(classes.len(), if layers.is_empty() { 1 } else { 2 }, "{strategy} {rope}");
            for class in &classes {
                // Not vacuous: each class rotates as its layers say.
                let p = &class.forward.problem;
                match (class.rope, rope.contains("dims")) {
                    (true, true) => assert_eq!(p.rope_range(), 4..8),
                    (true, false) => assert_eq!(p.rope_range(), 0..8),
                    (false, _) => assert_eq!(p.rope, None),
                }
            }
            classes_run += classes.len();
            failures.extend(failed.into_iter().map(|f| format!("{strategy} {rope} {dtype}: {f}")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(classes_run, 4 * 4);
}

/// RoPE scaling (YaRN with its attention factor, Llama 3.1's llama3, linear), partial RoPE by
/// `fraction` (the first dims), per-layer RoPE (a model `layer` block with its own base) and a
/// softmax scale other than 1/√head_dim (`softmax_scale`, Gemma's `query_pre_attn_scalar`), under
/// every strategy at cp 4, forward and backward, fp32 with Cranelift's kernels and bf16 on the
/// emulated GPU ABI, against fp64 attention at the matrix's tolerances. `original` is 16 tokens so
/// that the 64-token sequence runs past it and the scaled frequencies matter.
#[test]
fn rope_scaling_and_softmax_scale_against_fp64() {
    let variants = [
        (
            "  rope { theta = 150000, fraction = 0.5, scaling = yarn { factor = 32, original = 16, truncate = false } }",
            "fp32",
            2,
        ),
        ("  rope { theta = 150000, fraction = 0.5, scaling = yarn { factor = 32, original = 16 } }", "bf16", 2),
        ("  rope { theta = 500000, scaling = llama3 { factor = 8, original = 16 } }\n  softmax_scale = 0.2", "fp32", 2),
        (
            "  rope { theta = 1000000, scaling = linear { factor = 8 } }\n  query_pre_attn_scalar = 16\n  \
             layer 1..2 { rope { theta = 10000 } }",
            "bf16",
            3,
        ),
    ];
    let mut failures = Vec::new();
    let mut classes_run = 0;
    for strategy in matrix::strategies(4) {
        for (model, dtype, layers) in variants {
            let layout = format!(
                "  dtype = {dtype}\n  format = bshd\n  seq = 64\n  batch = 2\n  mask = causal\n  strategy = {strategy}\n"
            );
            let (classes, failed) = check_spec(spec_text(model, &layout, layers), None);
            // Layer 1's own base makes a class of its own; the others share the model's.
            assert_eq!(classes.len(), if model.contains("layer") { 2 } else { 1 }, "{strategy} {model}");
            for class in &classes {
                let p = &class.forward.problem;
                let rope = p.rope.as_ref().expect("every layer rotates");
                assert_eq!(rope.scaling.is_some(), class.layers[0].start != 1, "{model}");
                assert_eq!(p.rope_range(), if model.contains("fraction") { 0..4 } else { 0..8 });
                let scale = if model.contains("0.2") { Some(0.2) } else { model.contains("scalar").then_some(0.25) };
                assert_eq!(p.softmax_scale, scale);
            }
            classes_run += classes.len();
            failures.extend(failed.into_iter().map(|f| format!("{strategy} {model} {dtype}: {f}")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(classes_run, 4 * 5);
}

/// Learned sinks (`sinks = learned`) under every strategy at cp 4, forward and backward, causal,
/// windowed and packed THD (uneven sequences), fp32 with Cranelift's kernels and bf16 on the
/// emulated GPU ABI, against fp64 attention with the sink in each row's denominator and dsinks
/// written plainly in `reference.rs`.
#[test]
fn learned_sinks_against_fp64() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for strategy in matrix::strategies(4) {
        for (mask, format, dtype) in
            [("causal", "bshd", "fp32"), ("causal { window = 5 }", "sbhd", "bf16"), ("padding_causal", "thd", "fp32")]
        {
            let shape = if format == "thd" {
                "  format = thd { max_tokens = 512 }".to_string()
            } else {
                format!("  format = {format}\n  seq = 64\n  batch = 2")
            };
            let layout = format!("  dtype = {dtype}\n{shape}\n  mask = {mask}\n  strategy = {strategy}");
            let seqlens = (format == "thd").then(|| matrix::seqlens(4));
            let (classes, failed) =
                check_spec(spec_text("  rope { theta = 10000 }\n  sinks = learned", &layout, 1), seqlens);
            assert!(classes.iter().all(|c| c.forward.problem.sinks), "{strategy} {mask}");
            runs += 1;
            failures.extend(failed.into_iter().map(|f| format!("{strategy} {mask} {dtype}: {f}")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(runs, 4 * 3);
}

/// The verifier proves that sinks enter each row exactly once: an O store that does not add the
/// sink, and a dKV store that claims one, are rejected.
#[test]
fn a_plan_that_drops_or_misplaces_the_sink_is_rejected() {
    use attnc_compiler::ir::Output;
    use attnc_compiler::passes::{self, PlanOptions};
    let text = spec_text(
        "  sinks = learned",
        "  dtype = fp32\n  format = bshd\n  seq = 64\n  mask = causal\n  strategy = p2p",
        1,
    );
    let mut sources = attnc_compiler::span::Sources::new();
    let file = sources.add("sinks.attn", text);
    let layout = attnc_compiler::compile_file(&mut sources, file, &[]).spec.unwrap().layouts[0].clone();
    let set = passes::compile(&layout, &PlanOptions { backward: true, ..Default::default() }).unwrap();
    let class = &set.classes[0];
    for (plan, output, flip_to) in
        [(&class.forward, Output::O, false), (class.backward.as_ref().unwrap(), Output::Dkv, true)]
    {
        let mut plan = plan.plan().clone();
        verify::verify(&plan, Stage::Scheduled).unwrap();
        let id = plan
            .rank_ops(1)
            .find(|&id| matches!(plan.op(id).kind, OpKind::Store { output: o, .. } if o == output))
            .expect("rank 1 stores");
        if let OpKind::Store { sink, .. } = &mut plan.op_mut(id).kind {
            *sink = flip_to;
        }
        let errors = verify::verify(&plan, Stage::Scheduled).unwrap_err();
        assert!(errors.iter().any(|e| e.to_string().contains("sink")), "{output:?}: {errors:?}");
    }
}

/// Masks that read the head (`expr::heads`): 8 heads in GQA pairs, a causal class and a windowed
/// one (bshd), a causal class and one that sees every pair (sbhd: the hull is every pair), a
/// window that widens every two heads within packed sequences (thd: the hull is the widest), and
/// a two-sided window beside a causal one within packed sequences (thd: the hull, `-2 <= q - k <
/// 5`, is planned as one regional cell) —
/// every strategy at cp 2 and 4, forward and backward, on every CPU kernel set in fp32 and under
/// the GPU ABI's rule in bf16, against fp64 attention that evaluates the written mask at each
/// head. The plans launch each class over its heads (`LaunchTable::heads`), and the windowed
/// thd mask runs under both exchanges.
#[test]
fn per_head_masks_against_fp64() {
    const MASKS: [(&str, &str); 4] = [
        ("k <= q & (h < 4 | q - k < 5)", "bshd"),
        ("h >= 6 | k <= q", "sbhd"),
        ("k <= q & q - k < 3 * (h / 2 + 1)", "thd"),
        ("(h < 4 | k <= q) & q - k < 5 & k - q < 3", "thd"),
    ];
    let sets = kernel_sets();
    let (mut failures, mut runs) = (Vec::new(), 0);
    for cp in [2, 4] {
        for strategy in matrix::strategies(cp) {
            for (mask, format) in MASKS {
                let exchanges: &[Exchange] = match format {
                    "thd" if strategy == "p2p" => &[Exchange::Halo, Exchange::Full],
                    _ => &[Exchange::Auto],
                };
                for &exchange in exchanges {
                    let c = Case { cp, mask, format, kv_heads: 4, exchange, ..small(&strategy) };
                    let (fwd, _) = plans(&c).unwrap();
                    let classes = fwd.problem.head_masks.as_ref().map_or(0, |h| h.classes.len());
                    assert!(classes >= 2, "{}: {classes} head classes", c.name());
                    let ranged =
                        fwd.op_ids().filter_map(|id| attnc_compiler::kernel::launch::op_tables(&fwd, id)).flatten();
                    assert!(ranged.filter(|t| t.heads.is_some()).count() >= 2, "{}: launches by head", c.name());
                    runs += 1;
                    failures.extend(check_cpu_and_bf16(&c, &sets));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {runs} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(runs, 32, "7 strategies × 4 masks, and the thd masks under both exchanges at cp 2 and 4 p2p");
}

/// Masks that read the head and have no plan by classes (`expr::regions::over_heads`): a stride
/// for half the heads (no band at those heads) and classes that split the GQA pairs of heads —
/// planned by the hull over every head, tested by the kernels at each pair with the head, under
/// every strategy at cp 2 and 4 on every CPU kernel set in fp32 and under the GPU ABI in bf16.
#[test]
fn per_head_masks_tested_per_pair_against_fp64() {
    const MASKS: [(&str, &str); 2] =
        [("k <= q & (h < 4 | (q - k) % 2 == 0)", "bshd"), ("k <= q & (h < 3 | q - k < 5)", "thd")];
    let sets = kernel_sets();
    let (mut failures, mut runs) = (Vec::new(), 0);
    for cp in [2, 4] {
        for strategy in matrix::strategies(cp) {
            for (mask, format) in MASKS {
                let c = Case { cp, mask, format, kv_heads: 4, ..small(&strategy) };
                let (fwd, _) = plans(&c).unwrap();
                let tested = fwd.problem.regions.as_ref().is_some_and(|r| r.predicate);
                assert!(tested && fwd.problem.head_masks.is_none(), "{}: not tested per pair", c.name());
                assert!(fwd.problem.score.is_some_and(|s| s.mask.is_some() && s.reads_head()), "{}", c.name());
                runs += 1;
                failures.extend(check_cpu_and_bf16(&c, &sets));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {runs} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(runs, 14, "7 strategies × 2 masks");
}

/// Learned score parameters (`params = [slope, temp]`, `matrix::LEARNED`): the fp64 check of
/// their gradients is strict — the run passes, and its gradients of zero, of the wrong head, or
/// one off by twice the tolerance fail — and a thd case with packed sequences
/// runs on every CPU kernel set (the matrix runs the bshd window everywhere).
#[test]
fn learned_score_parameters_against_fp64() {
    let c = Case { score: Some(matrix::LEARNED), mask: "causal", format: "bshd", ..small("p2p") };
    let (fwd, bwd) = plans(&c).unwrap();
    let score = fwd.problem.score.expect("a score");
    assert_eq!(score.param_names, ["slope", "temp"]);
    let inputs = tensor::random(&fwd.problem, 7, true);
    let result = run(
        &fwd,
        Some(&bwd),
        &HostDevice::with_kernels(fwd.problem.dtype, &Reference),
        &inputs,
        &RunOptions::default(),
    )
    .unwrap();
    let oracle = reference::full_attention(&fwd.problem, &inputs, true);
    let verdict = |dparams: &[f32]| {
        let mut out = result.outputs.clone();
        out.dparams = dparams.to_vec();
        let rows = reference::check(&fwd.problem, &out, &oracle, true);
        let row = rows.into_iter().find(|r| r.tensor == "dparams").expect("dparams is checked");
        (row.passed(), row.max_abs, row.tolerance)
    };
    let got = result.outputs.dparams.clone();
    assert_eq!(got.len(), 8 * 2, "[heads][params]");
    assert!(got.iter().all(|x| x.is_finite() && *x != 0.0), "{got:?}");
    assert!(verdict(&got).0, "{:?}", verdict(&got));
    let zero = vec![0.0; got.len()];
    let mut swapped = got.clone();
    swapped.swap(0, 2);
    swapped.swap(1, 3);
    let (_, _, tolerance) = verdict(&got);
    let mut nudged = got.clone();
    nudged[5] += 2.0 * tolerance as f32;
    for (what, wrong) in [("zero", zero), ("another head's", swapped), ("nudged", nudged)] {
        assert!(!verdict(&wrong).0, "{what} gradients pass: {:?}", verdict(&wrong));
    }
    // Packed sequences: positions within each sequence, every CPU kernel set, every strategy at cp 2.
    let sets = kernel_sets();
    let mut failures = Vec::new();
    for strategy in matrix::strategies(2) {
        let c = Case { cp: 2, score: Some(matrix::LEARNED), mask: "padding_causal", format: "thd", ..small(&strategy) };
        failures.extend(check_case(&c, &sets).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Scores that read the packed sequence (`doc(q)`, `doc(k)`): each document's rows launch on
/// their own, carrying its index; every strategy at cp 2 and 4, every CPU kernel set in fp32 and
/// the GPU ABI in bf16, over uneven packed sequences, against fp64 that reads each token's
/// document; and the score changes the output (the index reached the kernels).
#[test]
fn document_scores_against_fp64() {
    let score = Some("score = s * (1 + doc(q) / 8) - doc(k) / 4");
    let sets = kernel_sets();
    let (mut failures, mut runs) = (Vec::new(), 0);
    for cp in [2, 4] {
        for strategy in matrix::strategies(cp) {
            let c = Case { cp, score, mask: "padding_causal", format: "thd", ..small(&strategy) };
            let (fwd, _) = plans(&c).unwrap();
            let docs: Vec<Option<u64>> = fwd
                .op_ids()
                .filter_map(|id| attnc_compiler::kernel::launch::op_tables(&fwd, id))
                .flatten()
                .map(|t| t.doc)
                .collect();
            assert!(docs.iter().all(Option::is_some), "{}: a launch per document", c.name());
            assert!(docs.iter().any(|d| *d > Some(0)), "{}: documents past the first", c.name());
            runs += 1;
            failures.extend(check_cpu_and_bf16(&c, &sets));
        }
    }
    assert!(failures.is_empty(), "{} of {runs} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(runs, 7);
    // The score moves the output: run with and without it on the same inputs.
    let c = Case { cp: 2, score, mask: "padding_causal", format: "thd", ..small("p2p") };
    let plain = Case { score: None, ..c.clone() };
    let out = |c: &Case| {
        let (f, b) = plans(c).unwrap();
        let inputs = tensor::random(&f.problem, 7, true);
        run(&f, Some(&b), &HostDevice::with_kernels(f.problem.dtype, &Reference), &inputs, &RunOptions::default())
            .unwrap()
            .outputs
            .o
    };
    let (a, b) = (out(&c), out(&plain));
    let moved = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
    assert!(moved > 0.1, "the document's score changed nothing: {moved}");
}
