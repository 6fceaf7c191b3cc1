//! `attnc simulate`: the cost model's timeline of a layout's plans (step, compute, communication,
//! exposed and idle time per rank), as text and a Chrome/Perfetto trace. Its device profile and
//! error reporting serve `attnc tune` too.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use attnc_compiler::cost::timeline::{Timeline, simulate as play};
use attnc_compiler::cost::{DeviceProfile, trace};
use attnc_compiler::ir::{Interval, Plan};
use attnc_compiler::passes::{self, PlanError, mask_name};
use attnc_compiler::sema::spec::{Cp, Layout};
use attnc_compiler::sema::unparse;
use attnc_compiler::tune::strategy_text;
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::spec::{LayoutCommand, check_layer};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    input: LayoutCommand,
    /// Also play the backward pass.
    #[arg(long)]
    backward: bool,
    /// Only the layer class that contains this layer.
    #[arg(long)]
    layer: Option<u64>,
    /// Write a Chrome/Perfetto trace (one track per rank and stream).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// A device profile from `attnc calibrate` instead of the cluster GPU's preset.
    #[arg(long)]
    profile: Option<PathBuf>,
}

pub fn command(args: Args) -> Result<Outcome> {
    let Args { input, backward, layer, trace, profile } = args;
    input.with_layout(|l, options| {
        let request =
            SimulateRequest { backward, layer, options, trace: trace.as_deref(), profile: profile.as_deref() };
        Ok(if simulate(l, &request)? { Outcome::Clean } else { Outcome::InputErrors })
    })
}

/// The device profile: a file written by `attnc calibrate`, or the preset of the cluster's GPU.
pub fn profile(layout: &Layout, path: Option<&Path>) -> Result<(DeviceProfile, String)> {
    match path {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("--profile {}", path.display()))?;
            let profile: DeviceProfile = serde_json::from_str(&text).with_context(|| {
                format!("--profile {}: not a device profile (write one with `attnc calibrate`)", path.display())
            })?;
            Ok((profile, format!("profile {}", path.display())))
        }
        None => {
            let profile = DeviceProfile::of_cluster(&layout.cluster, layout.dtype);
            let what = format!("{} preset", profile.name);
            Ok((profile, what))
        }
    }
}

pub fn ms(seconds: f64) -> String {
    format!("{:.3} ms", seconds * 1e3)
}

fn timeline_text(out: &mut String, plan: &Plan, timeline: &Timeline) {
    let direction = format!("{:?}", plan.header.direction).to_lowercase();
    let _ = writeln!(out, "  {direction}: step {}", ms(timeline.step_s));
    let _ = writeln!(out, "    rank     compute        comm     exposed        idle");
    for r in &timeline.ranks {
        let _ = writeln!(
            out,
            "    {:<4} {:>11} {:>11} {:>11} {:>11}",
            r.rank,
            ms(r.compute_s),
            ms(r.comm_s),
            ms(r.exposed_comm_s),
            ms(r.idle_s)
        );
    }
}

/// Reports a planning error as an input error.
pub fn report(error: PlanError) -> Result<bool> {
    if let PlanError::Verify { .. } = error {
        anyhow::bail!("{error}");
    }
    eprintln!("error: {error}");
    Ok(false)
}

struct SimulateRequest<'a> {
    backward: bool,
    layer: Option<u64>,
    /// The THD batch (or hybrid sub-samples) and `--for`.
    options: passes::PlanOptions,
    trace: Option<&'a Path>,
    profile: Option<&'a Path>,
}

/// A hybrid layout for one batch: every sub-sample's plans on its group, groups side by side,
/// steps one after another (the barrier), ranks numbered across the pool in the trace.
fn simulate_hybrid(
    layout: &Layout,
    request: &SimulateRequest<'_>,
    profile: &DeviceProfile,
    source: &str,
) -> Result<bool> {
    let algorithm = attnc_compiler::hybrid::Algorithm::Buddy;
    let seqlens = request.options.seqlens.clone().unwrap_or_default();
    let classes = match passes::hybrid::compile_hybrid(layout, &seqlens, algorithm, request.backward) {
        Ok(classes) => classes,
        Err(error) => return report(error),
    };
    let mut out = String::new();
    let mut events = Vec::new();
    let mut start = 0.0;
    let _ = writeln!(out, "layout `{}` on {source}: hybrid CP batch of {} sub-samples", layout.name, seqlens.len());
    for class in &classes {
        if request.layer.is_some_and(|l| !class.layers.iter().any(|r| r.contains(l))) {
            continue;
        }
        let _ = writeln!(
            out,
            "layers {} ({}, {})",
            layer_blocks(&class.layers).join(", "),
            class.strategy.name(),
            mask_name(class.mask)
        );
        for (step_idx, groups) in class.steps.iter().enumerate() {
            let mut step_s: f64 = 0.0;
            let mut lines = Vec::new();
            for group in groups {
                let mut t = start;
                for sample in &group.samples {
                    for (plan, proof) in sample.verified() {
                        let mut timeline = play(plan, proof, profile);
                        // The plan's ranks are its group's: number them across the pool.
                        for span in &mut timeline.spans {
                            span.rank += group.first_gpu;
                        }
                        events.extend(trace::events(plan, &timeline.spans, t));
                        t += timeline.step_s;
                    }
                }
                let busy = t - start;
                step_s = step_s.max(busy);
                lines.push(format!(
                    "    GPUs {}..{} (cp {}): {} sub-sample(s), {}",
                    group.first_gpu,
                    group.first_gpu + group.size,
                    group.size,
                    group.samples.len(),
                    ms(busy)
                ));
            }
            let _ = writeln!(out, "  step {step_idx}: {} (its slowest group), then the barrier", ms(step_s));
            for line in lines {
                let _ = writeln!(out, "{line}");
            }
            start += step_s;
        }
        let _ = writeln!(out, "  batch: {}", ms(start));
    }
    print!("{out}");
    if let Some(path) = request.trace {
        let n_ranks = classes.first().map_or(0, |c| c.schedule.dp_cp);
        let document = trace::document(&events, n_ranks, &format!("attnc simulate {} (hybrid batch)", layout.name));
        std::fs::write(path, serde_json::to_string(&document)?)
            .with_context(|| format!("--trace {}", path.display()))?;
        eprintln!("wrote {} ({} events; open in https://ui.perfetto.dev)", path.display(), events.len());
    }
    Ok(true)
}

fn simulate(layout: &Layout, request: &SimulateRequest<'_>) -> Result<bool> {
    let (profile, source) = profile(layout, request.profile)?;
    if matches!(layout.cp, Cp::Hybrid { .. }) && request.options.seqlens.is_some() {
        return simulate_hybrid(layout, request, &profile, &source);
    }
    if let Some(layer) = request.layer {
        check_layer(layout, layer)?;
    }
    let options = passes::PlanOptions { backward: request.backward, verify: false, ..request.options.clone() };
    let set = match attnc_compiler::driver::compile(layout, &options) {
        Ok(set) => set,
        Err(error) => return report(error),
    };
    let mut out = String::new();
    let mut events = Vec::new();
    let mut offset = 0.0;
    let mut n_ranks = 0;
    let _ = writeln!(out, "layout `{}` on {source}", layout.name);
    for class in &set.classes {
        if request.layer.is_some_and(|l| !class.layers.iter().any(|r| r.contains(l))) {
            continue;
        }
        let _ = writeln!(
            out,
            "layers {} ({}, {}), cp {}",
            layer_blocks(&class.layers).join(", "),
            strategy_text(&class.strategy),
            mask_name(class.mask),
            class.forward.header.cp
        );
        for (plan, proof) in class.verified() {
            let timeline = play(plan, proof, &profile);
            timeline_text(&mut out, plan, &timeline);
            events.extend(trace::events(plan, &timeline.spans, offset));
            offset += timeline.step_s;
            n_ranks = n_ranks.max(plan.header.cp);
        }
    }
    print!("{out}");
    if let Some(path) = request.trace {
        let document = trace::document(&events, n_ranks, &format!("attnc simulate {}", layout.name));
        std::fs::write(path, serde_json::to_string(&document)?)
            .with_context(|| format!("--trace {}", path.display()))?;
        eprintln!("wrote {} ({} events; open in https://ui.perfetto.dev)", path.display(), events.len());
    }
    Ok(true)
}

/// `layer` ranges of a set of layers (see `sema::unparse::layer_ranges`).
pub fn layer_blocks(layers: &[Interval]) -> Vec<String> {
    let singles: Vec<u64> = layers.iter().flat_map(|l| l.start..l.end).collect();
    unparse::layer_ranges(&singles)
}
