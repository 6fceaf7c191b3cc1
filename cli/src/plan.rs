//! `attnc plan`: a layout's verified plans (text, DOT or the JSON plan file, with statistics), or
//! a hybrid-CP batch's schedule and plans.
//!
//! Every JSON document printed here is a typed struct of the compiler (`ir::artifact::PlanFile`,
//! `HybridPlanFile`).

use std::fmt::Write as _;

use anyhow::Result;
use attnc_compiler::ir::artifact::{
    self, HybridPlanClass, HybridPlanFile, HybridPlanGroup, HybridPlanSample, HybridPlanStep, PlanFile, PlanFileClass,
    PlanFileStats,
};
use attnc_compiler::ir::{self, stats};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::spec::{Cp, Layout, Mask};
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;
use crate::spec::{LayoutCommand, check_layer};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    input: LayoutCommand,
    /// Print only this CP rank's program (text and dot).
    #[arg(long)]
    rank: Option<u32>,
    /// Also plan the backward pass.
    #[arg(long)]
    backward: bool,
    /// Only the layer class that contains this layer.
    #[arg(long)]
    layer: Option<u64>,
    /// Run the verifier after every pass (always on in debug builds; the final plan is always verified).
    #[arg(long)]
    verify: bool,
    /// Per rank: mask-aware FLOPs, bytes per link level, buffer memory; and the balance max/mean.
    #[arg(long)]
    stats: bool,
    #[arg(long, value_enum, default_value_t = PlanEmit::Text)]
    emit: PlanEmit,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanEmit {
    Text,
    Json,
    Dot,
    /// The attention matrix of one layer class as the planner sees it: tiles full, partial or
    /// empty, coloured by the rank that computes them, and the key rows each rank receives.
    Svg,
}

pub fn run(args: Args) -> Result<Outcome> {
    let Args { input, rank, backward, layer, verify, stats, emit } = args;
    input.with_layout(|l, options| plan(l, &PlanRequest { rank, backward, layer, verify, stats, emit, options }))
}

struct PlanRequest {
    rank: Option<u32>,
    backward: bool,
    layer: Option<u64>,
    verify: bool,
    stats: bool,
    emit: PlanEmit,
    options: PlanOptions,
}

fn plan(layout: &Layout, request: &PlanRequest) -> Result<Outcome> {
    if let Some(rank) = request.rank {
        let cp = match layout.cp {
            Cp::Fixed { size } => size,
            Cp::Hybrid { dp_cp, .. } => dp_cp,
        };
        if rank >= cp {
            anyhow::bail!("--rank {rank}: layout `{}` has CP ranks 0..{cp}", layout.name);
        }
    }
    if let Some(layer) = request.layer {
        check_layer(layout, layer)?;
    }
    let seqlens = request.options.seqlens.clone().unwrap_or_default();
    if matches!(layout.cp, Cp::Hybrid { .. }) && !seqlens.is_empty() {
        return plan_hybrid(layout, &seqlens, request);
    }
    let options = PlanOptions { backward: request.backward, verify: request.verify, ..request.options.clone() };
    let set = match crate::progress::spin(format!("planning layout `{}`", layout.name), || {
        attnc_compiler::driver::compile(layout, &options)
    }) {
        Ok(set) => set,
        Err(error @ passes::PlanError::Verify { .. }) => {
            eprintln!("{error}");
            return Ok(Outcome::InputErrors);
        }
        Err(error) => {
            eprintln!("error: {error}");
            return Ok(Outcome::InputErrors);
        }
    };
    let classes: Vec<&passes::LayerClass> =
        set.classes.iter().filter(|c| request.layer.is_none_or(|l| c.layers.iter().any(|r| r.contains(l)))).collect();
    match request.emit {
        PlanEmit::Text => {
            // Streamed: at cp 1024 the programs alone are hundreds of megabytes.
            let mut out = crate::output::Stdout::new();
            let mut first = true;
            for c in &classes {
                let savings = if request.stats { savings(layout, c, &options)? } else { Vec::new() };
                for (i, p) in class_plans(c).into_iter().enumerate() {
                    if !first {
                        out.write_str("\n");
                    }
                    first = false;
                    ir::print::write_text(&mut out, p, request.rank);
                    if request.stats {
                        out.write_str(&stats_text(p));
                        if let Some(s) = savings.get(i) {
                            out.write_str(&saving_text(c.mask, s));
                        }
                    }
                }
            }
            for n in &set.not_planned {
                if request.layer.is_none_or(|l| n.layers.iter().any(|r| r.contains(l))) {
                    out.write_str(&format!(
                        "{}layers {}: {}, not planned: {}\n",
                        if first { "" } else { "\n" },
                        passes::display_layers(&n.layers),
                        n.kind,
                        n.reason
                    ));
                    first = false;
                }
            }
            out.finish()?;
        }
        PlanEmit::Dot => {
            for c in &classes {
                for p in class_plans(c) {
                    println!("{}", ir::print::dot(p, request.rank));
                }
            }
        }
        PlanEmit::Svg => {
            let [class] = classes.as_slice() else {
                anyhow::bail!(
                    "--emit svg draws one layer class; layout `{}` has {} here\n  help: pick one with --layer N (layers {})",
                    layout.name,
                    classes.len(),
                    classes.iter().map(|c| passes::display_layers(&c.layers)).collect::<Vec<_>>().join("; ")
                );
            };
            print!("{}", ir::picture::svg(class.plan_for(request.backward)));
        }
        PlanEmit::Json => {
            let file = PlanFile {
                version: artifact::ARTIFACT_VERSION,
                layout: set.layout.clone(),
                classes: classes
                    .iter()
                    .map(|c| {
                        Ok(PlanFileClass {
                            stats: match request.stats {
                                true => Some(PlanFileStats {
                                    forward: stats::stats(&c.forward),
                                    backward: c.backward.as_deref().map(stats::stats),
                                    against_causal: savings(layout, c, &options)?,
                                }),
                                false => None,
                            },
                            ..c.file_class()
                        })
                    })
                    .collect::<Result<_>>()?,
                not_planned: set.not_planned.clone(),
            };
            println!("{}", serde_json::to_string(&file)?);
        }
    }
    Ok(Outcome::Clean)
}

/// A hybrid layout for one batch: the schedule's steps and each sub-sample's verified plans.
fn plan_hybrid(layout: &Layout, seqlens: &[u64], request: &PlanRequest) -> Result<Outcome> {
    if matches!(request.emit, PlanEmit::Dot | PlanEmit::Svg) {
        anyhow::bail!("--emit dot and svg draw one plan; a hybrid batch is many: use --emit text or json");
    }
    let algorithm = attnc_compiler::hybrid::Algorithm::Buddy;
    let classes = match passes::hybrid::compile_hybrid(layout, seqlens, algorithm, request.backward) {
        Ok(classes) => classes,
        Err(error) => {
            eprintln!("error: {error}");
            return Ok(Outcome::InputErrors);
        }
    };
    if request.emit == PlanEmit::Json {
        let Cp::Hybrid { dp_cp, .. } = layout.cp else { unreachable!("a hybrid layout") };
        let file = HybridPlanFile {
            version: artifact::ARTIFACT_VERSION,
            layout: layout.name.clone(),
            dp_cp,
            classes: classes
                .iter()
                .map(|class| HybridPlanClass {
                    layers: class.layers.clone(),
                    strategy: class.strategy.name().to_string(),
                    mask: passes::mask_name(class.mask),
                    steps: class
                        .steps
                        .iter()
                        .map(|groups| HybridPlanStep {
                            groups: groups
                                .iter()
                                .map(|group| HybridPlanGroup {
                                    first_gpu: group.first_gpu,
                                    size: group.size,
                                    samples: group
                                        .samples
                                        .iter()
                                        .map(|s| HybridPlanSample {
                                            id: s.id,
                                            len: s.len,
                                            forward: artifact::from_plan(&s.forward),
                                            backward: s.backward.as_deref().map(artifact::from_plan),
                                        })
                                        .collect(),
                                })
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
        };
        println!("{}", serde_json::to_string(&file)?);
        return Ok(Outcome::Clean);
    }
    for class in &classes {
        println!(
            "plan `{}` layers {}: hybrid CP over {} GPUs, {}, mask {}, {} steps with a barrier over the pool after each",
            layout.name,
            passes::display_layers(&class.layers),
            class.schedule.dp_cp,
            class.strategy.name(),
            passes::mask_name(class.mask),
            class.steps.len()
        );
        for (step_idx, groups) in class.steps.iter().enumerate() {
            println!("step {step_idx}");
            for group in groups {
                for sample in &group.samples {
                    let ops: usize = std::iter::once(&sample.forward)
                        .chain(sample.backward.as_ref())
                        .map(|p| p.op_ids().count())
                        .sum();
                    println!(
                        "  GPUs {}..{} (cp {}): sample {} of {} tokens, {ops} ops, verified",
                        group.first_gpu,
                        group.first_gpu + group.size,
                        group.size,
                        sample.id,
                        sample.len
                    );
                }
            }
            println!("  barrier over GPUs 0..{}", class.schedule.dp_cp);
        }
    }
    Ok(Outcome::Clean)
}

/// A class's forward plan, then its backward plan if built.
fn class_plans(class: &passes::LayerClass) -> Vec<&ir::Plan> {
    class.verified().map(|v| v.plan()).collect()
}

/// For a class with a window or chunks: its plans' FLOPs and bytes against the same class planned
/// with plain causal attention (forward, then backward); empty for other masks.
fn savings(layout: &Layout, class: &passes::LayerClass, options: &PlanOptions) -> Result<Vec<stats::Saving>> {
    let mask = class.mask;
    if mask.window().is_none() && mask.chunk().is_none() {
        return Ok(Vec::new());
    }
    let causal = if mask.is_padding() { Mask::PADDING_CAUSAL } else { Mask::CAUSAL };
    let options = PlanOptions { verify: false, ..options.clone() };
    let baseline = passes::compile_class(layout, class.layers.clone(), class.strategy.clone(), causal, &options)?;
    Ok(class_plans(class)
        .into_iter()
        .zip(class_plans(&baseline))
        .map(|(p, b)| stats::Saving::new(&stats::stats(p), &stats::stats(b)))
        .collect())
}

fn saving_text(mask: Mask, s: &stats::Saving) -> String {
    let what = if mask.chunk().is_some() { "chunks" } else { "window" };
    let cut = |a: f64, b: f64| if b > 0.0 { 100.0 * (1.0 - a / b) } else { 0.0 };
    let g = |b: u64| b as f64 / (1u64 << 30) as f64;
    format!(
        "  the {what} against plain causal attention: {:.1} of {:.1} GFLOP ({:.1}% saved), {:.3} of {:.3} GiB sent ({:.1}% saved), over all ranks\n",
        s.flops / 1e9,
        s.causal_flops / 1e9,
        cut(s.flops, s.causal_flops),
        g(s.sent_bytes),
        g(s.causal_sent_bytes),
        cut(s.sent_bytes as f64, s.causal_sent_bytes as f64)
    )
}

fn stats_text(plan: &ir::Plan) -> String {
    let s = stats::stats(plan);
    let mut out = String::new();
    let _ = writeln!(out, "stats: balance {:.3} (max/mean FLOPs over ranks); bytes per rank in GiB", s.balance);
    let _ = writeln!(
        out,
        "  {:>4} {:>10} {:>6} {:>11} {:>11} {:>13} {:>13} {:>11} {:>11} {:>7}",
        "rank",
        "GFLOP",
        "blocks",
        "sent intra",
        "sent inter",
        "received intra",
        "received inter",
        "buffers",
        "min MiB",
        "ratio"
    );
    let g = |b: u64| b as f64 / (1u64 << 30) as f64;
    for r in &s.ranks {
        let _ = writeln!(
            out,
            "  {:>4} {:>10.1} {:>6} {:>11.3} {:>11.3} {:>14.3} {:>14.3} {:>11.3} {:>11.3} {:>7}",
            r.rank,
            r.flops / 1e9,
            r.blocks,
            g(r.sent_intra_bytes),
            g(r.sent_inter_bytes),
            g(r.received_intra_bytes),
            g(r.received_inter_bytes),
            g(r.buffer_bytes),
            r.needed.min_received_bytes as f64 / (1u64 << 20) as f64,
            ratio(r.received_bytes(), r.needed.min_received_bytes)
        );
    }
    let _ = writeln!(
        out,
        "  min MiB: the KV rows this rank's queries see that other ranks hold (and, backward, the dK/dV of its rows seen elsewhere), the least a plan that keeps queries home receives; ratio: received / min"
    );
    if plan.op_ids().any(|id| matches!(plan.op(id).kind, ir::OpKind::AllToAll { .. })) {
        let _ = writeln!(
            out,
            "  this plan moves heads by all-to-all, which the bound does not count (queries leave home): the ratio includes the all-to-all's bytes"
        );
    }
    out
}

/// Received bytes over the lower bound: `1.00` at the bound, `-` when neither moves anything,
/// `inf` when the plan moves bytes no query needs.
fn ratio(received: u64, min: u64) -> String {
    match (received, min) {
        (0, 0) => "-".to_string(),
        (_, 0) => "inf".to_string(),
        (r, m) => format!("{:.2}", r as f64 / m as f64),
    }
}
