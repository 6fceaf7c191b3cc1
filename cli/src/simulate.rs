//! `attnc simulate` and `attnc tune`: the cost model's timeline of a layout's plans, and the
//! per-layer choice of strategy, as text, a Chrome/Perfetto trace, a spec or Megatron flags.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use attnc_compiler::compat::megatron;
use attnc_compiler::cost::timeline::{Timeline, simulate as play};
use attnc_compiler::cost::{DeviceProfile, trace};
use attnc_compiler::ir::{Interval, Plan};
use attnc_compiler::passes::{self, PlanError, mask_name};
use attnc_compiler::sema::spec::{Cp, Layout, Strategy};
use attnc_compiler::sema::unparse;
use attnc_compiler::tune::{self, strategy_text};

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

fn ms(seconds: f64) -> String {
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
fn report(error: PlanError) -> Result<bool> {
    if let PlanError::Verify { .. } = error {
        anyhow::bail!("{error}");
    }
    eprintln!("error: {error}");
    Ok(false)
}

pub struct SimulateRequest<'a> {
    pub backward: bool,
    pub layer: Option<u64>,
    /// The THD batch (or hybrid sub-samples) and `--for`.
    pub options: passes::PlanOptions,
    pub trace: Option<&'a Path>,
    pub profile: Option<&'a Path>,
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
        if request.layer.is_some_and(|l| !class.layers.iter().any(|r| r.start <= l && l < r.end)) {
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

pub fn simulate(layout: &Layout, request: &SimulateRequest<'_>) -> Result<bool> {
    let (profile, source) = profile(layout, request.profile)?;
    if matches!(layout.cp, Cp::Hybrid { .. }) && request.options.seqlens.is_some() {
        return simulate_hybrid(layout, request, &profile, &source);
    }
    if let Some(layer) = request.layer {
        crate::plan::check_layer(layout, layer)?;
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
        if request.layer.is_some_and(|l| !class.layers.iter().any(|r| r.start <= l && l < r.end)) {
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

/// `--emit` of `attnc tune`: the table, `layer` blocks with the choices, or Megatron's flags.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TuneEmit {
    Text,
    Spec,
    Megatron,
}

/// `layer` ranges of a set of layers (see `sema::unparse::layer_ranges`).
fn layer_blocks(layers: &[Interval]) -> Vec<String> {
    let singles: Vec<u64> = layers.iter().flat_map(|l| l.start..l.end).collect();
    unparse::layer_ranges(&singles)
}

pub fn tune(
    layout: &Layout,
    options: &passes::PlanOptions,
    profile_path: Option<&Path>,
    emit: TuneEmit,
) -> Result<bool> {
    let (profile, source) = profile(layout, profile_path)?;
    if matches!(layout.cp, Cp::Hybrid { .. }) {
        eprintln!(
            "error: layout `{}` uses hybrid CP: each sub-sample gets its own power-of-two group\n  help: tune one fixed-size CP group of it (`--set {}.cp=8 --seqlens 100,4000,37`), or schedule the batch with `attnc schedule`",
            layout.name, layout.name
        );
        return Ok(false);
    }
    let classes = match tune::tune(layout, options, &profile) {
        Ok(classes) => classes,
        Err(error) => return report(error),
    };
    // Each layer's chosen strategy; its mask is the layout's.
    let mut chosen = layout.layers.clone();
    for class in &classes {
        for l in class.layers.iter().flat_map(|l| l.start..l.end) {
            chosen[l as usize].strategy = class.chosen().clone();
        }
    }
    match emit {
        TuneEmit::Text => print!("{}", tune_table(layout, &classes, &profile, &source, options)),
        TuneEmit::Spec => {
            let target = options.target.map(|t| format!(", for TransformerEngine {}", t.version)).unwrap_or_default();
            println!(
                "# attnc tune: layout `{}` with the strategies the cost model chose ({source}{target}).",
                layout.name
            );
            println!("# Replace the layout item of your file with this one.");
            print!("{}", unparse::layout_item(layout, &chosen));
        }
        TuneEmit::Megatron => {
            let strategies: Vec<Strategy> = chosen.iter().map(|l| l.strategy.clone()).collect();
            let args = megatron::arguments(layout, &strategies);
            println!("{}", args.shell());
            for note in &args.unexpressed {
                eprintln!("note: {note}");
            }
            if options.target.is_none() {
                eprintln!(
                    "note: chosen without `--for te`: some strategies may be ones TransformerEngine does not run (see `attnc check --for te`)"
                );
            }
        }
    }
    Ok(true)
}

/// The table of `attnc tune`: per layer class, every candidate's predicted times, bytes and
/// memory per rank (GiB), the excluded and unplannable ones, and the choice with its reason.
fn tune_table(
    layout: &Layout,
    classes: &[tune::ClassTuning],
    profile: &DeviceProfile,
    source: &str,
    options: &passes::PlanOptions,
) -> String {
    let mut out = String::new();
    let target =
        options.target.map(|t| format!(", among what TransformerEngine {} runs", t.version)).unwrap_or_default();
    let _ = writeln!(
        out,
        "layout `{}` on {source}{target}; per layer, forward + backward; bytes per rank (max over ranks) in GiB",
        layout.name
    );
    let gib = |bytes: u64| format!("{:.3}", bytes as f64 / (1u64 << 30) as f64);
    for class in classes {
        let _ = writeln!(out, "layers {} ({})", layer_blocks(&class.layers).join(", "), mask_name(class.mask));
        let _ = writeln!(
            out,
            "  {:<20} {:>11} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "strategy", "fwd+bwd", "fwd", "exposed", "intra sent", "intra recv", "inter sent", "inter recv", "memory"
        );
        for (index, e) in class.evaluations.iter().enumerate() {
            let mark = if index == class.choice { "*" } else { " " };
            let _ = writeln!(
                out,
                "{mark} {:<20} {:>11} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10}{}",
                strategy_text(&e.strategy),
                ms(e.total_s()),
                ms(e.forward_s),
                ms(e.exposed_comm_s),
                gib(e.intra_sent_bytes),
                gib(e.intra_received_bytes),
                gib(e.inter_sent_bytes),
                gib(e.inter_received_bytes),
                gib(e.memory_bytes),
                if e.fits { "" } else { "  (over memory)" }
            );
        }
        for (strategy, why) in &class.excluded {
            let _ = writeln!(out, "  {:<20} excluded: {why}", strategy_text(strategy));
        }
        for (strategy, why) in &class.rejected {
            let _ =
                writeln!(out, "  {:<20} not plannable: {}", strategy_text(strategy), why.lines().next().unwrap_or(""));
        }
        let _ = writeln!(out, "  choice: {} — {}", strategy_text(class.chosen()), class.reason);
    }
    if let Some([(mine, mine_s), (other, other_s)]) = tune::balances(layout, classes, profile) {
        let name = |b: attnc_compiler::sema::spec::Balance| format!("{b:?}").to_lowercase();
        let verdict = if mine_s <= other_s { "keep it" } else { "switch" };
        let _ = writeln!(
            out,
            "balance (whole layout, chosen strategies): {} {} vs {} {} for all {} layers — {verdict}",
            name(mine),
            ms(mine_s),
            name(other),
            ms(other_s),
            layout.layers.len()
        );
    }
    out
}
