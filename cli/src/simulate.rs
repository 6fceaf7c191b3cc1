//! `attnc simulate`: the cost model's timeline of a layout's plans (step, compute, communication,
//! exposed and idle time per rank), as text and a Chrome/Perfetto trace. Its device profile and
//! error reporting serve `attnc tune` too.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use attnc_compiler::cost::timeline::simulate as play;
use attnc_compiler::cost::{DeviceProfile, trace};
use attnc_compiler::ir::Interval;
use attnc_compiler::passes::{self, PlanError, mask_name};
use attnc_compiler::report::{
    HybridGroupTime, HybridSimulateReport, HybridSimulatedClass, HybridStep, ModelTime, REPORT_VERSION, SimulateReport,
    SimulatedClass, SimulatedPass, layer_count,
};
use attnc_compiler::sema::unparse;
use attnc_compiler::spec::{Cp, Layout};
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;
use crate::spec::{LayoutCommand, check_planned_layer};

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
    /// `text`, or `json` (`report::SimulateReport`, or `HybridSimulateReport` for a
    /// hybrid batch).
    #[arg(long, value_enum, default_value_t = SimulateEmit::Text)]
    emit: SimulateEmit,
}

/// `--emit` of `attnc simulate`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimulateEmit {
    Text,
    Json,
}

pub fn command(args: Args) -> Result<Outcome> {
    let Args { input, backward, layer, trace, profile, emit } = args;
    input.with_layout(|l, options| {
        let request =
            SimulateRequest { backward, layer, options, trace: trace.as_deref(), profile: profile.as_deref(), emit };
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

/// A duration in the unit that reads best: ns, µs, ms, s, min or h, three decimals.
pub fn duration(seconds: f64) -> String {
    let s = seconds.abs();
    let (value, unit) = if s == 0.0 {
        (0.0, "ms")
    } else if s < 1e-6 {
        (seconds * 1e9, "ns")
    } else if s < 1e-3 {
        (seconds * 1e6, "µs")
    } else if s < 1.0 {
        (seconds * 1e3, "ms")
    } else if s < 60.0 {
        (seconds, "s")
    } else if s < 3600.0 {
        (seconds / 60.0, "min")
    } else {
        (seconds / 3600.0, "h")
    };
    format!("{value:.3} {unit}")
}

fn pass_text(out: &mut String, direction: &str, pass: &SimulatedPass) {
    let _ = writeln!(out, "  {direction}: step {}", duration(pass.step_s));
    let _ = writeln!(out, "    rank     compute        comm     exposed        idle");
    for r in &pass.ranks {
        let _ = writeln!(
            out,
            "    {:<4} {:>11} {:>11} {:>11} {:>11}",
            r.rank,
            duration(r.compute_s),
            duration(r.comm_s),
            duration(r.exposed_comm_s),
            duration(r.idle_s)
        );
    }
}

/// The whole model's line: layers × their step, summed over classes.
fn model_text(out: &mut String, model: &ModelTime, all_layers: bool) {
    let scope = if all_layers { "model" } else { "these layers" };
    let backward = model.backward_s.map(|b| format!(", backward {}", duration(b))).unwrap_or_default();
    let total =
        if model.backward_s.is_some() { format!(", total {}", duration(model.total_s())) } else { String::new() };
    let _ = writeln!(
        out,
        "{scope}: {} layers one after another: forward {}{backward}{total}",
        model.layers,
        duration(model.forward_s)
    );
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
    emit: SimulateEmit,
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
    let mut events = Vec::new();
    let mut start = 0.0;
    let mut report = HybridSimulateReport {
        version: REPORT_VERSION,
        layout: layout.name.clone(),
        profile: source.to_string(),
        dp_cp: classes.first().map_or(0, |c| c.schedule.dp_cp),
        sub_samples: seqlens.len(),
        classes: Vec::new(),
        model_s: 0.0,
        layers: 0,
    };
    for class in &classes {
        if request.layer.is_some_and(|l| !class.layers.iter().any(|r| r.contains(l))) {
            continue;
        }
        let batch_start = start;
        let mut steps = Vec::new();
        for groups in &class.steps {
            let mut step = HybridStep { step_s: 0.0, groups: Vec::new() };
            for group in groups {
                let mut t = start;
                for sample in &group.samples {
                    for plan in sample.verified() {
                        let mut timeline = play(plan, profile);
                        // The plan's ranks are its group's: number them across the pool.
                        for span in &mut timeline.spans {
                            span.rank += group.first_gpu;
                        }
                        events.extend(trace::events(plan, &timeline.spans, t));
                        t += timeline.step_s;
                    }
                }
                let busy_s = t - start;
                step.step_s = step.step_s.max(busy_s);
                step.groups.push(HybridGroupTime {
                    first_gpu: group.first_gpu,
                    size: group.size,
                    sub_samples: group.samples.len(),
                    busy_s,
                });
            }
            start += step.step_s;
            steps.push(step);
        }
        let simulated = HybridSimulatedClass {
            layers: class.layers.clone(),
            layer_count: layer_count(&class.layers),
            strategy: (&class.strategy).into(),
            mask: mask_name(class.mask),
            steps,
            batch_s: start - batch_start,
        };
        report.model_s += simulated.layer_count as f64 * simulated.batch_s;
        report.layers += simulated.layer_count;
        report.classes.push(simulated);
    }
    match request.emit {
        SimulateEmit::Json => println!("{}", serde_json::to_string(&report)?),
        SimulateEmit::Text => print!("{}", hybrid_text(&report, request.layer.is_none())),
    }
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
        check_planned_layer(layout, layer)?;
    }
    let options = passes::PlanOptions { backward: request.backward, verify: false, ..request.options.clone() };
    let set = match crate::progress::spin(format!("planning layout `{}`", layout.name), || {
        attnc_compiler::driver::compile(layout, &options)
    }) {
        Ok(set) => set,
        Err(error) => return report(error),
    };
    let mut events = Vec::new();
    let mut offset = 0.0;
    let mut n_ranks = 0;
    let mut simulated = Vec::new();
    for class in &set.classes {
        if request.layer.is_some_and(|l| !class.layers.iter().any(|r| r.contains(l))) {
            continue;
        }
        let mut passes = Vec::new();
        for plan in class.verified() {
            let timeline = play(plan, &profile);
            events.extend(trace::events(plan, &timeline.spans, offset));
            offset += timeline.step_s;
            n_ranks = n_ranks.max(plan.header.cp);
            passes.push(SimulatedPass::from(&timeline));
        }
        let mut passes = passes.into_iter();
        simulated.push(SimulatedClass {
            layers: class.layers.clone(),
            layer_count: layer_count(&class.layers),
            strategy: (&class.strategy).into(),
            mask: mask_name(class.mask),
            cp: class.forward.header.cp,
            forward: passes.next().expect("every class has a forward plan"),
            backward: passes.next(),
        });
    }
    let report = SimulateReport {
        version: REPORT_VERSION,
        layout: layout.name.clone(),
        profile: source,
        model: ModelTime::of(&simulated),
        classes: simulated,
    };
    match request.emit {
        SimulateEmit::Json => println!("{}", serde_json::to_string(&report)?),
        SimulateEmit::Text => print!("{}", fixed_text(&report, &set.classes, request.layer.is_none())),
    }
    if let Some(path) = request.trace {
        let document = trace::document(&events, n_ranks, &format!("attnc simulate {}", layout.name));
        std::fs::write(path, serde_json::to_string(&document)?)
            .with_context(|| format!("--trace {}", path.display()))?;
        eprintln!("wrote {} ({} events; open in https://ui.perfetto.dev)", path.display(), events.len());
    }
    Ok(true)
}

/// The text of a fixed-CP layout's timeline: per class, one layer's step per pass and rank; then
/// the whole model.
fn fixed_text(report: &SimulateReport, classes: &[passes::LayerClass], all_layers: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "layout `{}` on {}", report.layout, report.profile);
    for c in &report.classes {
        let strategy = classes
            .iter()
            .find(|k| k.layers == c.layers)
            .map_or_else(|| c.strategy.name.clone(), |k| k.strategy.label());
        let _ = writeln!(
            out,
            "layers {} ({}, {}), cp {}: per layer",
            layer_blocks(&c.layers).join(", "),
            strategy,
            c.mask,
            c.cp
        );
        pass_text(&mut out, "forward", &c.forward);
        if let Some(b) = &c.backward {
            pass_text(&mut out, "backward", b);
        }
    }
    model_text(&mut out, &report.model, all_layers);
    out
}

/// The text of a hybrid batch: per class, its steps and groups, and one layer's batch; then the
/// whole model.
fn hybrid_text(report: &HybridSimulateReport, all_layers: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "layout `{}` on {}: hybrid CP batch of {} sub-samples",
        report.layout, report.profile, report.sub_samples
    );
    for c in &report.classes {
        let _ =
            writeln!(out, "layers {} ({}, {}): per layer", layer_blocks(&c.layers).join(", "), c.strategy.name, c.mask);
        for (i, step) in c.steps.iter().enumerate() {
            let _ = writeln!(out, "  step {i}: {} (its slowest group), then the barrier", duration(step.step_s));
            for g in &step.groups {
                let _ = writeln!(
                    out,
                    "    GPUs {}..{} (cp {}): {} sub-sample(s), {}",
                    g.first_gpu,
                    g.first_gpu + g.size,
                    g.size,
                    g.sub_samples,
                    duration(g.busy_s)
                );
            }
        }
        let _ = writeln!(out, "  batch: {} per layer", duration(c.batch_s));
    }
    let scope = if all_layers { "model" } else { "these layers" };
    let _ = writeln!(out, "{scope}: {} layers one after another: {}", report.layers, duration(report.model_s));
    out
}

/// `layer` ranges of a set of layers (see `sema::unparse::layer_ranges`).
pub fn layer_blocks(layers: &[Interval]) -> Vec<String> {
    let singles: Vec<u64> = layers.iter().flat_map(|l| l.start..l.end).collect();
    unparse::layer_ranges(&singles)
}
