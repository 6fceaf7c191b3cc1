//! What the executor does the same way on every device and kernel set. Barriers (hybrid-CP steps)
//! meet on every device. Faults end a run the same way: a rank whose kernel panics fails the run
//! with its rank and op, and aborts the others at once (not at the watchdog); a rank that stops
//! trips the watchdog, whose error names the waiting rank and op and what every rank was doing.
//! Devices here: the host device with the reference kernels, with Cranelift's kernels, and with
//! the GPU kernel ABI emulated; `cli/tests/gpu.rs` runs the CUDA device where one exists.

use std::time::{Duration, Instant};

use attnc_compiler::ir::{GroupId, OpKind, Plan};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::verify::{self, Stage, Verified};
use attnc_runtime::RuntimeError;
use attnc_runtime::device::host::HostDevice;
use attnc_runtime::exec::{Fault, RunOptions};
use attnc_runtime::generated::{Cranelift, Generated};
use attnc_runtime::kernels::Reference;
use attnc_runtime::tensor;

/// A 4-rank bf16 ring, forward.
fn plan() -> (Plan, Verified) {
    let spec =
        attnc_codegen_tests::small_spec(8, 2, "  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = p2p")
            .replace("dtype = fp32", "dtype = bf16");
    let layout = attnc_codegen_tests::layout_of(&spec).unwrap();
    let set = passes::compile(&layout, &PlanOptions::default()).unwrap();
    let fwd = set.classes[0].forward.plan().clone();
    let proof = verify::verify(&fwd, Stage::Scheduled).unwrap();
    (fwd, proof)
}

/// Runs the plan with `fault` on every host device; returns each one's error and how long it took.
fn both(fault: Fault, timeout: Duration) -> Vec<(&'static str, RuntimeError, Duration)> {
    let (fwd, proof) = plan();
    let inputs = tensor::random(&fwd.problem, 3, false);
    let options = RunOptions { timeout, fault: Some(fault) };
    let dtype = fwd.problem.dtype;
    let cranelift = Generated::new(Cranelift::default(), 1);
    let devices = [
        ("host device, reference kernels", HostDevice::with_kernels(dtype, &Reference)),
        ("host device, cranelift kernels", HostDevice::with_kernels(dtype, &cranelift)),
        ("host device, GPU ABI emulated", HostDevice::emulated(dtype)),
    ];
    let mut out = Vec::new();
    for (name, device) in devices {
        let t = Instant::now();
        let e = attnc_runtime::run(&proof, None, &device, &inputs, &options).err().expect("fails");
        out.push((name, e, t.elapsed()));
    }
    out
}

#[test]
fn a_panicking_rank_fails_the_run_at_once_with_its_op() {
    let timeout = Duration::from_secs(30);
    for (executor, error, took) in both(Fault::PanicInKernel { rank: 2 }, timeout) {
        match &error {
            RuntimeError::Rank { rank, op, message } => {
                assert_eq!(*rank, 2, "{executor}: {error}");
                assert!(op.contains("attn"), "{executor}: {error}");
                assert!(message.contains("panicked: injected fault"), "{executor}: {error}");
            }
            other => panic!("{executor}: expected rank 2's panic, got {other}"),
        }
        assert!(took < timeout / 2, "{executor}: the other ranks waited for the watchdog ({took:?})");
    }
}

#[test]
fn a_stuck_rank_trips_the_watchdog_with_every_rank_state() {
    let timeout = Duration::from_millis(1500);
    for (executor, error, took) in both(Fault::HangBeforeComm { rank: 1 }, timeout) {
        match &error {
            RuntimeError::Watchdog { ranks, waited, .. } => {
                assert_eq!(ranks.len(), 8, "{executor}: every rank's two streams: {error}");
                assert!(ranks.iter().any(|r| r.starts_with("rank 1 cp")), "{executor}: {error}");
                assert!((*waited - timeout.as_secs_f64()).abs() < 1e-9, "{executor}: {error}");
            }
            other => panic!("{executor}: expected the watchdog, got {other}"),
        }
        // It ends: the bound leaves room for a loaded 2-core CI machine, and is far below a hang.
        assert!(took < timeout + Duration::from_secs(20), "{executor}: the run ended {took:?} after it started");
    }
}

/// A barrier over the CP group at the end of every rank's program: every host device runs it, and
/// the outputs are those of the plan without it.
#[test]
fn barriers_meet_on_every_device() {
    let (plain, proof) = plan();
    let mut with_barrier = plain.clone();
    for rank in 0..with_barrier.header.cp {
        with_barrier.push_op(rank, OpKind::Barrier { group: GroupId(0) });
    }
    let barrier_proof =
        verify::verify(&with_barrier, Stage::Scheduled).expect("a barrier every member enters verifies");
    let inputs = tensor::random(&plain.problem, 5, false);
    let options = RunOptions { timeout: Duration::from_secs(30), fault: None };
    let dtype = plain.problem.dtype;
    for (name, device) in [
        ("reference kernels", HostDevice::with_kernels(dtype, &Reference)),
        ("GPU ABI emulated", HostDevice::emulated(dtype)),
    ] {
        let want = attnc_runtime::run(&proof, None, &device, &inputs, &options).unwrap().outputs;
        let met =
            attnc_runtime::run(&barrier_proof, None, &device, &inputs, &options).expect("the executor runs barriers");
        assert_eq!(met.outputs, want, "{name}");
        assert_eq!(met.forward_spans.len(), with_barrier.op_ids().count(), "{name}");
    }
}
