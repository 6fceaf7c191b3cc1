use attnc_codegen_tests::{layout_of, small_spec};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::verify::{self, Stage};
use attnc_runtime::exec::RunOptions;
use attnc_runtime::kernels::Reference;
use attnc_runtime::{reference, run, tensor};

#[test]
fn smoke() {
    for strategy in ["p2p", "all_gather", "a2a", "a2a+p2p { hierarchy = [2, 2] }"] {
        let fields = format!("  seq = 64\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = {strategy}");
        let layout = layout_of(&small_spec(4, 2, &fields)).unwrap();
        let set = passes::compile(&layout, &PlanOptions { backward: true, ..Default::default() }).unwrap();
        let c = &set.classes[0];
        let f = verify::verify(&c.forward, Stage::Scheduled).unwrap();
        let b = verify::verify(c.backward.as_ref().unwrap(), Stage::Scheduled).unwrap();
        let inputs = tensor::random(&c.forward.problem, 1, true);
        let out = run(
            (&c.forward, &f),
            Some((c.backward.as_ref().unwrap(), &b)),
            &Reference,
            &inputs,
            &RunOptions::default(),
        )
        .unwrap();
        let r = reference::full_attention(&c.forward.problem, &inputs, true);
        for cmp in reference::check(&c.forward.problem, &out.outputs, &r, true) {
            println!("{strategy} {cmp:?}");
            assert!(cmp.passed(), "{strategy} {cmp:?}");
        }
    }
}
