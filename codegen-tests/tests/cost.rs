//! The cost model, the timeline simulator, traces and autotuning: hand-computed timelines,
//! the trace-event format, the tuner's choice, and `strategy = auto`.

use attnc_codegen_tests::{layout_of, small_spec};
use attnc_compiler::cost::timeline::simulate;
use attnc_compiler::cost::{DeviceProfile, LinkCost, trace};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::spec::{Layout, Strategy};
use attnc_compiler::tune;
use attnc_compiler::verify::{self, Stage};
use serde_json::Value;

/// A device whose element-wise ops and launches cost nothing, so only attention and links count.
fn ideal(peak_flops: f64, link_bytes_per_s: f64, alpha_s: f64) -> DeviceProfile {
    DeviceProfile {
        name: "ideal".into(),
        peak_flops,
        fwd_efficiency: 1.0,
        bwd_efficiency: 1.0,
        fwd_masked_efficiency: None,
        bwd_masked_efficiency: None,
        memory_bytes_per_s: 1e30,
        launch_s: 0.0,
        rope_pairs_per_s: None,
        intra: LinkCost { alpha_s, bytes_per_s: link_bytes_per_s },
        inter: LinkCost { alpha_s, bytes_per_s: link_bytes_per_s },
        memory_bytes: u64::MAX,
        cores: 0,
    }
}

fn layout(heads: u32, kv_heads: u32, fields: &str) -> Layout {
    layout_of(&small_spec(heads, kv_heads, fields)).unwrap()
}

/// Ring of 2, no mask, S tokens: each rank runs its local block while the KV of the other
/// travels, then the remote block. With block time F and transfer time T the forward step is
/// max(F, T) + F, whichever of compute and the link is longer.
#[test]
fn two_rank_ring_by_hand() {
    let (seq, heads, kv_heads, d) = (1024.0, 8.0, 2.0, 8.0);
    let l = layout(8, 2, "  seq = 1024\n  cp = 2\n  dp = 1\n  mask = none\n  strategy = p2p");
    let set = passes::compile(&l, &PlanOptions::default()).unwrap();
    let plan = &set.classes[0].forward;
    let proof = verify::verify(plan, Stage::Scheduled).unwrap();
    let peak = 1e9;
    let block_flops = 4.0 * (seq / 2.0) * (seq / 2.0) * d * heads;
    let f = block_flops / peak;
    let kv_bytes = (seq / 2.0) * kv_heads * 2.0 * d * 4.0; // k and v, fp32
    for (bandwidth, alpha) in [(1e9, 1e-5), (1e6, 2e-4)] {
        let t = alpha + kv_bytes / bandwidth;
        let timeline = simulate(&proof, &ideal(peak, bandwidth, alpha));
        let expected = f.max(t) + f;
        assert!((timeline.step_s - expected).abs() < 1e-12, "β {bandwidth}: {} vs {expected}", timeline.step_s);
        for rank in &timeline.ranks {
            assert!((rank.compute_s - 2.0 * f).abs() < 1e-12);
            assert!((rank.comm_s - t).abs() < 1e-12);
            // The transfer overlaps the local block: only what outlasts it is exposed.
            assert!((rank.exposed_comm_s - (t - f).max(0.0)).abs() < 1e-12);
        }
    }
}

/// Every op of every rank is played exactly once, streams never overlap themselves, and an op
/// starts no earlier than its dependencies finish.
#[test]
fn timelines_respect_streams_and_dependencies() {
    for (fields, heads, kv) in [
        ("  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = p2p", 8, 8),
        ("  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = a2a", 8, 4),
        ("  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = all_gather", 8, 8),
        ("  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = a2a+p2p { hierarchy = [2, 2] }", 8, 8),
    ] {
        let l = layout(heads, kv, fields);
        let set = passes::compile(&l, &PlanOptions { backward: true, ..Default::default() }).unwrap();
        let class = &set.classes[0];
        for plan in std::iter::once(&class.forward).chain(&class.backward) {
            let proof = verify::verify(plan, Stage::Scheduled).unwrap();
            let timeline = simulate(&proof, &DeviceProfile::of_cluster(&l.cluster, l.dtype));
            assert_eq!(timeline.spans.len(), plan.op_ids().count(), "{fields}");
            let end_of = |op| timeline.spans.iter().find(|s| s.op == op).unwrap().end;
            for span in &timeline.spans {
                for (dep, _) in plan.deps_of(span.op) {
                    assert!(span.start >= end_of(dep) - 1e-15, "{fields}: op starts before its dependency ends");
                }
            }
            for rank in 0..plan.header.cp {
                for stream in [attnc_compiler::ir::Stream::Compute, attnc_compiler::ir::Stream::Cp] {
                    let mut own: Vec<_> =
                        timeline.spans.iter().filter(|s| s.rank == rank && s.stream == stream).collect();
                    own.sort_by(|a, b| a.start.total_cmp(&b.start));
                    assert!(
                        own.windows(2).all(|w| w[1].start >= w[0].end - 1e-15),
                        "{fields}: a stream overlaps itself"
                    );
                }
            }
            assert!(timeline.step_s > 0.0);
        }
    }
}

/// The Chrome trace-event format as Perfetto reads it: a `traceEvents` array of complete events
/// (`ph: X`, numeric `ts` and `dur` ≥ 0 in µs, integer `pid`/`tid`) and metadata events naming
/// processes and threads.
pub fn assert_trace_format(document: &Value) {
    let events = document["traceEvents"].as_array().expect("traceEvents is an array");
    let mut complete = 0;
    for event in events {
        assert!(event["name"].is_string(), "{event}");
        assert!(event["pid"].is_u64() && event["tid"].is_u64(), "{event}");
        match event["ph"].as_str() {
            Some("X") => {
                assert!(event["ts"].as_f64().is_some_and(|t| t >= 0.0), "{event}");
                assert!(event["dur"].as_f64().is_some_and(|d| d >= 0.0), "{event}");
                complete += 1;
            }
            Some("M") => assert!(event["args"].is_object(), "{event}"),
            other => panic!("unexpected phase {other:?}"),
        }
    }
    assert!(complete > 0);
}

#[test]
fn simulated_traces_are_trace_event_json() {
    let l = layout(8, 8, "  seq = 256\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = p2p");
    let set = passes::compile(&l, &PlanOptions { backward: true, ..Default::default() }).unwrap();
    let mut events = Vec::new();
    let mut offset = 0.0;
    for plan in std::iter::once(&set.classes[0].forward).chain(&set.classes[0].backward) {
        let proof = verify::verify(plan, Stage::Scheduled).unwrap();
        let timeline = simulate(&proof, &DeviceProfile::of_cluster(&l.cluster, l.dtype));
        events.extend(trace::events(plan, &timeline.spans, offset));
        offset += timeline.step_s;
    }
    let text = serde_json::to_string(&trace::document(&events, 4, "test")).unwrap();
    let document: Value = serde_json::from_str(&text).unwrap();
    assert_trace_format(&document);
    // One process per rank, two named threads each.
    let names: Vec<&str> = document["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 8);
    assert!(names.contains(&"cp stream") && names.contains(&"compute stream"));
}

/// The tuner lists every candidate the checker allows and chooses the fastest that fits.
#[test]
fn tuner_chooses_the_fastest_that_fits() {
    let l = layout(8, 8, "  seq = 512\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = p2p");
    let profile = DeviceProfile::of_cluster(&l.cluster, l.dtype);
    let classes = tune::tune(&l, &PlanOptions::default(), &profile).unwrap();
    assert_eq!(classes.len(), 1);
    let class = &classes[0];
    let names: Vec<String> = class.evaluations.iter().map(|e| e.strategy.label()).collect();
    assert_eq!(names, ["p2p", "all_gather", "a2a", "a2a+p2p [2, 2]"]);
    let best = class.evaluations.iter().map(|e| e.total_s()).fold(f64::INFINITY, f64::min);
    assert_eq!(class.evaluations[class.choice].total_s(), best);
    assert!(!class.reason.is_empty());
    // With memory for the smallest plan only, the tuner takes the one that fits.
    let smallest = class.evaluations.iter().map(|e| e.memory_bytes).min().unwrap();
    let tight = DeviceProfile { memory_bytes: smallest, ..profile.clone() };
    let tight_class = &tune::tune(&l, &PlanOptions::default(), &tight).unwrap()[0];
    assert_eq!(tight_class.evaluations[tight_class.choice].memory_bytes, smallest);
    assert!(tight_class.evaluations.iter().any(|e| !e.fits));
    // KV heads that neither split nor replicate over 4 rule out a2a at 4 (3 KV heads).
    let odd = layout(12, 3, "  seq = 512\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = p2p");
    let odd_names: Vec<String> = tune::candidates(&odd).iter().map(|s| s.label()).collect();
    assert_eq!(odd_names, ["p2p", "all_gather"]);
}

/// `strategy = auto` plans with the tuner's choice, per layer class; auto layers that resolve
/// to another class's strategy share its plan.
#[test]
fn auto_strategy_takes_the_tuners_choice() {
    let l = layout(8, 8, "  seq = 512\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = auto");
    let profile = DeviceProfile::of_cluster(&l.cluster, l.dtype);
    let choice = tune::tune(&l, &PlanOptions::default(), &profile).unwrap()[0].chosen().clone();
    let set = attnc_compiler::driver::compile(&l, &PlanOptions::default()).unwrap();
    assert_eq!(set.classes.len(), 1);
    assert_eq!(set.classes[0].strategy, choice);
    assert_ne!(choice, Strategy::Auto);
    let mixed = layout(
        8,
        8,
        &format!(
            "  seq = 512\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = {}\n  layer 1..2 {{ strategy = auto }}",
            {
                match &choice {
                    Strategy::A2aP2p { hierarchy } => {
                        format!("a2a+p2p {{ hierarchy = [{}, {}] }}", hierarchy[0], hierarchy[1])
                    }
                    other => other.name().to_string(),
                }
            }
        ),
    );
    let set = attnc_compiler::driver::compile(&mixed, &PlanOptions::default()).unwrap();
    assert_eq!(set.classes.len(), 1, "layer 1 resolves to layer 0's strategy and shares its plan");
    assert_eq!(passes::display_intervals(&set.classes[0].layers), "0..2");
}

/// ring-flash-attention's published benchmark (`bench/published/ring_flash_attention.attn`,
/// `docs/cost-model.md`): zigzag beats the contiguous ring on 8×H800 and 8×A100, forward and
/// forward+backward, and both stay below the ideal (one GPU's time / 8) — the published order.
#[test]
fn published_ring_flash_attention_order() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/published/ring_flash_attention.attn");
    let (_, unit) = attnc_codegen_tests::check_spec_file(path, &[]);
    let spec = unit.spec.expect("the published configuration checks");
    let time = |name: &str| -> (f64, f64) {
        let layout = spec.layouts.iter().find(|l| l.name == name).unwrap();
        let set = passes::compile(layout, &PlanOptions { backward: true, ..Default::default() }).unwrap();
        let class = &set.classes[0];
        let profile = DeviceProfile::of_cluster(&layout.cluster, layout.dtype);
        let step = |plan| simulate(&verify::verify(plan, Stage::Scheduled).unwrap(), &profile).step_s;
        let forward = step(&class.forward);
        (forward, forward + step(class.backward.as_ref().unwrap()))
    };
    for gpu in ["h800", "a100"] {
        let (zigzag, ring, single) =
            (time(&format!("{gpu}_zigzag")), time(&format!("{gpu}_ring")), time(&format!("{gpu}_single")));
        for (what, z, r, s) in [("fwd", zigzag.0, ring.0, single.0), ("fwd+bwd", zigzag.1, ring.1, single.1)] {
            let ideal = s / 8.0;
            assert!(ideal < z && z < r, "{gpu} {what}: ideal {ideal} zigzag {z} ring {r}");
            // Contiguous causal: the last rank does (2cp-1)/cp of the mean, so the ring is slower by ≥ 1.3×.
            assert!(r / z > 1.3, "{gpu} {what}: ring/zigzag {}", r / z);
        }
    }
}

/// cache-dit's FLUX comparison (`bench/published/cache_dit_flux.attn`): on 2 PCIe GPUs
/// p2p < a2a < all_gather, on 4 a2a < p2p < all_gather, as published.
#[test]
fn published_orders() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/published/cache_dit_flux.attn");
    let (_, unit) = attnc_codegen_tests::check_spec_file(path, &[]);
    let spec = unit.spec.expect("the published configuration checks");
    for (name, expected) in [("flux_cp2", ["p2p", "a2a", "all_gather"]), ("flux_cp4", ["a2a", "p2p", "all_gather"])] {
        let layout = spec.layouts.iter().find(|l| l.name == name).unwrap();
        let profile = DeviceProfile::of_cluster(&layout.cluster, layout.dtype);
        let mut times: Vec<(f64, &str)> = [Strategy::P2p, Strategy::AllGather, Strategy::A2a]
            .into_iter()
            .map(|strategy| {
                let class = passes::compile_class(
                    layout,
                    set_layers(layout),
                    strategy.clone(),
                    layout.mask,
                    &PlanOptions::default(),
                )
                .unwrap();
                (simulate(&class.forward, &profile).step_s, strategy.name())
            })
            .collect();
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let order: Vec<&str> = times.iter().map(|t| t.1).collect();
        assert_eq!(order, expected, "{name}: {times:?}");
    }
}

fn set_layers(layout: &Layout) -> Vec<attnc_compiler::ir::Interval> {
    vec![attnc_compiler::ir::Interval::new(0, layout.layers.len() as u64)]
}

/// `attnc check`'s memory bound (W0009/E0038) is a lower bound: the working set it counts for one
/// layer is at most what every rank of attnc's own plan holds, for every strategy, mask and
/// format (what the backward keeps, its last part, is not a plan buffer).
#[test]
fn the_memory_bound_is_below_every_plan() {
    use attnc_compiler::cost::memory::lower_bound;
    use attnc_compiler::ir::stats::stats;
    let cases = [
        (8, 2, "  seq = 4096\n  cp = 4\n  dp = 1\n  strategy = p2p"),
        (8, 2, "  seq = 4096\n  cp = 4\n  dp = 1\n  strategy = all_gather"),
        (8, 4, "  seq = 4096\n  cp = 4\n  dp = 1\n  strategy = a2a"),
        (8, 2, "  seq = 4096\n  cp = 8\n  dp = 1\n  strategy = a2a+p2p { hierarchy = [2, 4] }"),
        (8, 2, "  seq = 4096\n  cp = 4\n  dp = 1\n  strategy = p2p\n  mask = causal { window = 256 }"),
        (8, 2, "  seq = 4096\n  cp = 4\n  dp = 1\n  strategy = all_gather\n  mask = causal { window = 256 }"),
        (8, 2, "  seq = 4096\n  cp = 4\n  dp = 1\n  tp = 2\n  strategy = p2p"),
        (8, 2, "  format = thd { max_seqlen = 2048, max_tokens = 4096 }\n  cp = 4\n  dp = 1\n  strategy = p2p"),
    ];
    for (heads, kv, fields) in cases {
        let l = layout(heads, kv, fields);
        let options = match l.format {
            attnc_compiler::spec::Format::Thd { .. } => {
                PlanOptions { seqlens: Some(vec![2048, 1000, 1048]), ..PlanOptions::default() }
            }
            _ => PlanOptions::default(),
        };
        let set = passes::compile(&l, &options).unwrap();
        let bound = lower_bound(&l, false);
        let working: u64 = bound.parts[..bound.parts.len() - 1].iter().map(|p| p.bytes).sum();
        for class in &set.classes {
            let least = stats(&class.forward).ranks.iter().map(|r| r.buffer_bytes).min().unwrap();
            assert!(working <= least, "{fields}: the bound {working} exceeds a rank's plan buffers {least}: {bound:?}");
            // Not vacuous: within a small factor of what the plan holds.
            assert!(working * 4 >= least, "{fields}: the bound {working} is far below the plan's {least}");
        }
    }
}
