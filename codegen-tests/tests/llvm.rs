//! The LLVM backend's output: every kernel the examples need, for sm_80 and sm_90a, assembled by
//! ptxas (zero spills in forward kernels; registers and shared memory per kernel in a snapshot),
//! PTX goldens of representative specs with what must and must not be in them, and the host
//! target's object code for every example kernel.

use std::collections::{BTreeMap, BTreeSet};

use attnc_codegen_tests::{check_all, check_golden, check_spec_file, files_in};
use attnc_compiler::back::llvm::{self, Output, Target, ptxas, sass};
use attnc_compiler::driver;
use attnc_compiler::kernel::{self, Band, KernelKind, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::passes::PlanOptions;
use attnc_compiler::spec::Dtype;

fn spec(kind: KernelKind, head_dim: u32, dtype: Dtype, group: u32, mask: Band) -> KernelSpec {
    KernelSpec { kind, head_dim, v_head_dim: None, dtype, group, mask, score: None, tile_q: TILE_Q, tile_kv: TILE_KV }
}

/// Every distinct kernel spec of every example's plans (and the unmasked variant of each).
fn example_specs() -> Vec<KernelSpec> {
    let mut out: Vec<KernelSpec> = Vec::new();
    for path in files_in("dsl-examples", "attn") {
        let (_, unit) = check_spec_file(&path, &[]);
        let spec = unit.spec.unwrap_or_else(|| panic!("{path} does not check"));
        for layout in &spec.layouts {
            let thd = matches!(layout.format, attnc_compiler::spec::Format::Thd { .. });
            let options = PlanOptions {
                seqlens: thd.then(|| vec![100, 37]),
                backward: true,
                verify: false,
                ..Default::default()
            };
            // Every layout plans (`auto` resolved, hybrid CP as its fixed-size groups): an
            // example that stops planning fails the tests instead of dropping out of them.
            let sets = driver::kernel_plan_sets(layout, &options)
                .unwrap_or_else(|e| panic!("{path}: layout `{}` does not plan: {e}", layout.name));
            for set in &sets {
                for s in kernel::specs_of_plans(set.plans()) {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
        }
    }
    out
}

fn ptxas_path() -> std::path::PathBuf {
    ptxas::find().expect("ptxas not found: run scripts/setup (it installs nvidia-cuda-nvcc-cu12 into .tools/)")
}

/// What every PTX must and must not contain.
fn check_ptx(name: &str, target: Target, out: &Output, forward: bool) -> Result<(), String> {
    let ptx = &out.asm;
    let must: &[&str] = match (target, forward) {
        (Target::Sm80, true) => {
            &["mma.sync.aligned.m16n8k16", "cp.async.cg.shared.global", "ldmatrix.sync.aligned", ".maxntid 128"]
        }
        (Target::Sm90a, true) => {
            &["wgmma.mma_async.sync.aligned", "wgmma.fence", "cp.async.cg.shared.global", ".maxntid 128"]
        }
        // The warp-specialized forward where it applies (head dims 64 and 128), sm_90a's elsewhere.
        (Target::Sm90aWs, true) if ptx.contains(".maxntid 384") => &[
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
            "mbarrier.arrive.expect_tx",
            "mbarrier.try_wait.parity",
            "setmaxnreg.dec.sync.aligned.u32 24",
            "setmaxnreg.inc.sync.aligned.u32 240",
            "wgmma.mma_async.sync.aligned",
            "wgmma.fence",
        ],
        (Target::Sm90aWs, true) => {
            &["wgmma.mma_async.sync.aligned", "wgmma.fence", "cp.async.cg.shared.global", ".maxntid 128"]
        }
        _ => &[".maxntid 128"],
    };
    for m in must {
        if !ptx.contains(m) {
            return Err(format!("{name} for {}: no `{m}` in the PTX", target.name()));
        }
    }
    if !ptx.contains(&format!(".visible .entry {}(", out.entry)) {
        return Err(format!("{name}: no entry `{}`", out.entry));
    }
    // A misspelt intrinsic becomes a call to an external function: no calls at all.
    for bad in [".extern .func", "call.uni", "call ("] {
        if ptx.contains(bad) {
            return Err(format!("{name} for {}: `{bad}` in the PTX (an unknown intrinsic?)", target.name()));
        }
    }
    if forward && (ptx.contains("ld.local") || ptx.contains("st.local")) {
        return Err(format!("{name} for {}: local-memory traffic in a forward kernel", target.name()));
    }
    Ok(())
}

/// The SASS gate on one kernel's machine code: tensor-core instructions where the PTX asks for
/// them, `LDSM` for `ldmatrix`, `LDGSTS` for `cp.async`, no local memory in forward kernels.
fn check_sass(name: &str, target: Target, out: &Output, forward: bool, mix: &BTreeMap<String, usize>) -> Vec<String> {
    let n = |op: &str| mix.get(op).copied().unwrap_or(0);
    let attention = out.asm.contains("mma.sync") || out.asm.contains("wgmma");
    let mut rules: Vec<(&str, bool)> = Vec::new();
    if attention && target == Target::Sm80 {
        rules.push(("HMMA in an sm_80 attention kernel", n("HMMA") > 0));
    }
    if forward && matches!(target, Target::Sm90a | Target::Sm90aWs) {
        rules.push(("HGMMA in an sm_90a forward kernel", n("HGMMA") > 0));
    }
    // The Hopper structure: TMA loads, mbarrier synchronisation, registers moved between roles.
    if out.asm.contains("cp.async.bulk.tensor") {
        rules.push(("UTMALDG where the PTX has cp.async.bulk.tensor", n("UTMALDG") > 0));
        rules.push(("SYNCS (mbarriers) in a warp-specialized kernel", n("SYNCS") > 0));
        rules.push(("USETMAXREG where the PTX has setmaxnreg", n("USETMAXREG") >= 2));
    }
    if out.asm.contains(".global.shared::cta.tile.bulk_group") {
        rules.push(("UTMASTG where the PTX stores a box by cp.async.bulk.tensor", n("UTMASTG") > 0));
    }
    if out.asm.contains("ldmatrix") {
        rules.push(("LDSM where the PTX has ldmatrix", n("LDSM") > 0));
    }
    if out.asm.contains("cp.async.cg") {
        rules.push(("LDGSTS where the PTX has cp.async", n("LDGSTS") > 0));
    }
    if forward {
        rules.push(("no LDL/STL (local memory) in a forward kernel", n("LDL") + n("STL") == 0));
    }
    rules
        .into_iter()
        .filter(|(_, ok)| !ok)
        .map(|(rule, _)| format!("{name} for {}: SASS gate: {rule}", target.name()))
        .collect()
}

/// The SASS mnemonics the snapshot records per kernel.
const SASS_COLUMNS: [&str; 17] = [
    "HMMA",
    "HGMMA",
    "LDSM",
    "LDGSTS",
    "UTMALDG",
    "UTMASTG",
    "SYNCS",
    "LDG",
    "STG",
    "RED",
    "REDG",
    "BAR",
    "SHFL",
    "MUFU",
    "LDL",
    "STL",
    "USETMAXREG",
];

/// Every example kernel, every GPU target (sm_90a-ws: its forward kernels): LLVM compiles it,
/// ptxas accepts it without a warning, forward kernels do not spill, and its machine code passes
/// the SASS gate (`check_sass`); the resources table and each kernel's SASS instruction mix are
/// snapshots.
#[test]
fn every_example_kernel_assembles_with_ptxas() {
    let ptxas = ptxas_path();
    let cuobjdump = sass::find_cuobjdump()
        .expect("cuobjdump not found: run scripts/setup (it installs nvidia-cuda-cuobjdump into .tools/)");
    let mut mixes = format!("# kernel target instructions {}\n", SASS_COLUMNS.join(" "));
    let specs = example_specs();
    assert!(!specs.is_empty(), "the examples need kernels");
    let mut table = String::from("# kernel target registers spill_stores spill_loads stack_bytes dynamic_smem_bytes\n");
    let mut failures = Vec::new();
    for target in [Target::Sm80, Target::Sm90a, Target::Sm90aWs] {
        let mut jobs: Vec<(String, bool, Output)> = Vec::new();
        // sm_90a-ws differs from sm_90a in its forward kernels only.
        let ws = target == Target::Sm90aWs;
        for s in specs.iter().filter(|s| !ws || s.kind == KernelKind::Forward) {
            match llvm::compile(s, target) {
                Ok(out) => jobs.push((s.name(), s.kind == KernelKind::Forward, out)),
                Err(e) => failures.push(e.to_string()),
            }
        }
        let dims: BTreeSet<u32> = specs.iter().map(|s| s.head_dim).filter(|_| !ws).collect();
        for d in dims {
            match llvm::compile_merge(d, target) {
                Ok(out) => jobs.push((out.entry.clone(), false, out)),
                Err(e) => failures.push(e.to_string()),
            }
        }
        match llvm::compile_add2d(target) {
            Ok(out) if !ws => jobs.push((out.entry.clone(), false, out)),
            Ok(_) => {}
            Err(e) => failures.push(e.to_string()),
        }
        for (name, forward, out) in &jobs {
            if let Err(e) = check_ptx(name, target, out, *forward) {
                failures.push(e);
            }
            match ptxas::assemble_cubin(&ptxas, &out.asm, target) {
                Ok(asm) => {
                    failures.extend(asm.warnings.iter().map(|w| format!("{name} for {}: ptxas: {w}", target.name())));
                    match sass::disassemble(&cuobjdump, &asm.cubin) {
                        Ok(listing) => {
                            let mix = sass::mix(&listing);
                            failures.extend(check_sass(name, target, out, *forward, &mix));
                            let counts: Vec<String> =
                                SASS_COLUMNS.iter().map(|op| mix.get(*op).copied().unwrap_or(0).to_string()).collect();
                            let total: usize = mix.values().sum();
                            mixes.push_str(&format!("{name} {} {total} {}\n", target.name(), counts.join(" ")));
                        }
                        Err(e) => failures.push(format!("{name}: {e}")),
                    }
                    for r in asm.resources {
                        if *forward && (r.spill_stores > 0 || r.spill_loads > 0) {
                            failures.push(format!(
                                "{name} for {}: {} bytes spill stores, {} bytes spill loads",
                                target.name(),
                                r.spill_stores,
                                r.spill_loads
                            ));
                        }
                        let smem = out.launch.as_ref().map_or(0, |l| l.dynamic_shared_bytes);
                        table.push_str(&format!(
                            "{} {} {} {} {} {} {}\n",
                            r.function,
                            target.name(),
                            r.registers,
                            r.spill_stores,
                            r.spill_loads,
                            r.stack_bytes,
                            smem
                        ));
                    }
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    check_golden("codegen-tests/snapshots/llvm/ptxas_resources.txt", &table).unwrap();
    check_golden("codegen-tests/snapshots/llvm/sass_mix.txt", &mixes).unwrap();
}

/// PTX goldens of representative kernels (`ATTNC_BLESS=1` rewrites them).
#[test]
fn ptx_snapshots() {
    let cases = [
        ("fwd_d64_causal_bf16_sm_80", spec(KernelKind::Forward, 64, Dtype::Bf16, 1, Band::CAUSAL), Target::Sm80),
        ("fwd_d64_causal_bf16_sm_90a", spec(KernelKind::Forward, 64, Dtype::Bf16, 1, Band::CAUSAL), Target::Sm90a),
        ("fwd_d64_causal_bf16_sm_90a-ws", spec(KernelKind::Forward, 64, Dtype::Bf16, 1, Band::CAUSAL), Target::Sm90aWs),
        (
            "fwd_d64_window128_fp16_g4_sm_80",
            spec(KernelKind::Forward, 64, Dtype::Fp16, 4, Band::window(128)),
            Target::Sm80,
        ),
    ];
    let items: Vec<String> = cases
        .iter()
        .map(|c| c.0.to_string())
        .chain(["merge_d64_sm_80".to_string(), "add2d_sm_80".to_string()])
        .collect();
    check_all(&items, |name| {
        let out = match cases.iter().find(|c| c.0 == name) {
            Some((_, s, t)) => {
                let out = llvm::compile(s, *t).map_err(|e| e.to_string())?;
                check_ptx(name, *t, &out, true)?;
                out
            }
            None if name == "add2d_sm_80" => llvm::compile_add2d(Target::Sm80).map_err(|e| e.to_string())?,
            None => llvm::compile_merge(64, Target::Sm80).map_err(|e| e.to_string())?,
        };
        check_golden(&format!("codegen-tests/snapshots/llvm/{name}.ptx"), &out.asm)
    });
}

/// The lowered IR of a small host kernel (the x86-64 lowering as LLVM receives it).
#[test]
fn host_ir_snapshot() {
    let s = spec(KernelKind::Forward, 8, Dtype::Fp32, 1, Band::CAUSAL);
    let (ir, launch) = llvm::lower(&s, Target::X86_64).unwrap();
    assert!(launch.is_none());
    check_golden("codegen-tests/snapshots/llvm/host_fwd_d8_causal.ll", &ir).unwrap();
}

/// The 512-bit lowering (chosen at JIT time on AVX-512 CPUs) is valid IR on any machine and
/// compiles to zmm FMAs; its numerics run in the kernel and matrix tests on AVX-512 hosts.
#[test]
fn avx512_kernels_compile_to_zmm_code() {
    let shapes = [(128, Band::CAUSAL), (64, Band::window(100)), (36, Band::NONE)];
    for ((d, mask), kind) in shapes.into_iter().flat_map(|s| [(s, KernelKind::Forward), (s, KernelKind::Backward)]) {
        let s = spec(kind, d, Dtype::Fp32, 1, mask);
        let out = llvm::compile_host_avx512(&s).unwrap_or_else(|e| panic!("{}: {e}", s.name()));
        assert!(out.asm.contains("vfmadd") && out.asm.contains("%zmm"), "{}: no 512-bit FMAs", s.name());
        assert!(out.object.as_ref().is_some_and(|o| !o.is_empty()));
    }
}

/// Every example kernel compiles for the host: an object file with the entry symbol, AVX2 code.
#[test]
fn every_example_kernel_compiles_for_the_host() {
    for s in example_specs() {
        let out = llvm::compile(&s, Target::X86_64).unwrap_or_else(|e| panic!("{e}"));
        let obj = out.object.as_ref().expect("an object file");
        assert!(obj.starts_with(b"\x7fELF"), "{}: not an ELF object", s.name());
        assert!(out.asm.contains(&s.name()), "{}: entry symbol missing", s.name());
        assert!(out.asm.contains("vfmadd"), "{}: no 256-bit FMA in the host code", s.name());
    }
}

/// GPU kernels refuse what they cannot serve, with the kernel named.
#[test]
fn unsupported_specs_are_errors() {
    let e = llvm::compile(&spec(KernelKind::Forward, 64, Dtype::Fp32, 1, Band::NONE), Target::Sm80).unwrap_err();
    assert!(e.to_string().contains("bf16 or fp16"), "{e}");
    let e = llvm::compile(&spec(KernelKind::Forward, 96, Dtype::Bf16, 1, Band::NONE), Target::Sm90a).unwrap_err();
    assert!(e.to_string().contains("head_dim"), "{e}");
}
