//! Snapshots of the kernel stages: the kernel IR of each kind and the CLIF Cranelift receives
//! for small specs (`codegen-tests/snapshots/kernel/`), plus the specs the examples need.

use attnc_codegen_tests::{check_all, check_golden, check_spec_file, files_in};
use attnc_compiler::back::cranelift::Jit;
use attnc_compiler::driver;
use attnc_compiler::kernel::{self, Band, KernelKind, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::passes::PlanOptions;
use attnc_compiler::spec::Dtype;

fn spec(kind: KernelKind, head_dim: u32, mask: Band) -> KernelSpec {
    KernelSpec {
        kind,
        head_dim,
        v_head_dim: None,
        dtype: Dtype::Fp32,
        group: 1,
        mask,
        score: None,
        tile_q: TILE_Q,
        tile_kv: TILE_KV,
    }
}

#[test]
fn kernel_ir_and_clif_snapshots() {
    let cases = [
        (spec(KernelKind::Forward, 8, Band::CAUSAL), "fwd_d8_causal"),
        (spec(KernelKind::Forward, 8, Band::window(5)), "fwd_d8_window5"),
        (spec(KernelKind::Backward, 8, Band::CAUSAL), "bwd_d8_causal"),
    ];
    let items: Vec<String> = cases.iter().map(|(_, n)| n.to_string()).collect();
    check_all(&items, |name| {
        let (s, _) = cases.iter().find(|(_, n)| *n == name).expect("case");
        let mut text = kernel::print(s);
        text.push('\n');
        text.push_str(&Jit::clif(s).map_err(|e| e.to_string())?);
        check_golden(&format!("codegen-tests/snapshots/kernel/{name}.clif"), &text)
    });
}

/// Every kernel the examples' plans need compiles with Cranelift.
#[test]
fn every_example_kernel_compiles() {
    let jit = Jit::new();
    check_all(&files_in("dsl-examples", "attn"), |path| {
        let (_, unit) = check_spec_file(path, &[]);
        let spec = unit.spec.ok_or("does not check")?;
        for layout in &spec.layouts {
            let thd = matches!(layout.format, attnc_compiler::spec::Format::Thd { .. });
            let options = PlanOptions {
                seqlens: thd.then(|| vec![100, 37]),
                backward: true,
                verify: false,
                ..Default::default()
            };
            // Every layout plans (`auto` resolved, hybrid CP as its fixed-size groups): an
            // example that stops planning fails here instead of dropping out of the test.
            let sets = driver::kernel_plan_sets(layout, &options)
                .map_err(|e| format!("{path}: layout `{}` does not plan: {e}", layout.name))?;
            for set in &sets {
                for plan in set.plans() {
                    for s in kernel::specs_of(plan) {
                        jit.get(&s).map_err(|e| format!("{path}: {e}"))?;
                    }
                }
            }
        }
        Ok(())
    });
}
