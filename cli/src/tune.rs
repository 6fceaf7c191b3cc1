//! `attnc tune`: every valid strategy per layer class played on the cost model and the fastest
//! chosen (with `--for te`, among what TransformerEngine runs), printed as a table, as the layout
//! item to paste back, or as Megatron-LM's arguments.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Result;
use attnc_compiler::compat::megatron;
use attnc_compiler::cost::DeviceProfile;
use attnc_compiler::passes::{self, mask_name};
use attnc_compiler::report::{REPORT_VERSION, TuneReport, TunedClass};
use attnc_compiler::sema::unparse;
use attnc_compiler::spec::{Cp, Exchange, Layout, Strategy};
use attnc_compiler::tune;
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;
use crate::simulate::{layer_blocks, ms, profile, report};
use crate::spec::{LayoutCommand, report_te_fixes};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    input: LayoutCommand,
    #[arg(long)]
    profile: Option<PathBuf>,
    /// `text` (the table), `spec` (the layout with the chosen strategies, to paste back) or
    /// `megatron` (Megatron-LM's arguments; what they cannot express goes to stderr) or `json`
    /// (every candidate's figures: `report::TuneReport`).
    #[arg(long, value_enum, default_value_t = TuneEmit::Text)]
    emit: TuneEmit,
}

pub fn command(args: Args) -> Result<Outcome> {
    let Args { mut input, profile, emit } = args;
    // Megatron-LM runs its attention through TransformerEngine: its arguments are chosen among
    // what TE runs, priced as TE runs it (the newest TE unless `--for te=V` says otherwise).
    if emit == TuneEmit::Megatron && input.spec.target_system.is_none() {
        input.spec.target_system = Some("te".to_string());
    }
    // The layout's own strategies are what tuning replaces: TE's restrictions on them warn.
    input.spec.target_warns = true;
    let spec = &input.spec;
    input.with_layout(|l, options| {
        Ok(match tune(l, &options, profile.as_deref(), emit)? {
            Tuned::Done => Outcome::Clean,
            Tuned::Failed => Outcome::InputErrors,
            Tuned::TargetRefuses(target) => {
                report_te_fixes(spec, std::slice::from_ref(&l.name), target)?;
                Outcome::InputErrors
            }
        })
    })
}

/// `--emit` of `attnc tune`: the table, `layer` blocks with the choices, or Megatron's flags.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TuneEmit {
    Text,
    Spec,
    Megatron,
    Json,
}

/// How tuning ended.
enum Tuned {
    Done,
    /// Reported: an error of the input or the flags.
    Failed,
    /// Reported: the `--for` target runs no strategy for some layer class.
    TargetRefuses(attnc_compiler::compat::te::Target),
}

fn tune(layout: &Layout, options: &passes::PlanOptions, profile_path: Option<&Path>, emit: TuneEmit) -> Result<Tuned> {
    let (profile, source) = profile(layout, profile_path)?;
    if matches!(layout.cp, Cp::Hybrid { .. }) {
        eprintln!(
            "error: layout `{}` uses hybrid CP: each sub-sample gets its own power-of-two group\n  help: tune one fixed-size CP group of it (`--set {}.cp=8 --seqlens 100,4000,37`), or schedule the batch with `attnc schedule`",
            layout.name, layout.name
        );
        return Ok(Tuned::Failed);
    }
    let candidates = tune::candidates(layout).len();
    let tuning = crate::progress::spin(
        format!("tuning layout `{}`: planning and playing up to {candidates} strategies per layer class", layout.name),
        || tune::tune(layout, options, &profile),
    );
    let classes = match tuning {
        Ok(classes) => classes,
        Err(error @ attnc_compiler::passes::PlanError::Auto { .. }) if options.target.is_some() => {
            report(error)?;
            return Ok(Tuned::TargetRefuses(options.target.expect("checked")));
        }
        Err(error) => return report(error).map(|_| Tuned::Failed),
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
        TuneEmit::Json => {
            let report = TuneReport {
                version: REPORT_VERSION,
                layout: layout.name.clone(),
                profile: source,
                target: options.target.map(|t| t.flag()),
                classes: classes.iter().map(TunedClass::from).collect(),
            };
            println!("{}", serde_json::to_string(&report)?);
        }
        TuneEmit::Spec => {
            let target = options.target.map(|t| format!(", for {t}")).unwrap_or_default();
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
            if !args.missing.is_empty() {
                for missing in &args.missing {
                    eprintln!("error: Megatron-LM needs {missing}");
                }
                return Ok(Tuned::Failed);
            }
            // The job Megatron is launched as: tp·cp·pp·dp ranks.
            let cp = match layout.cp {
                Cp::Fixed { size } => size,
                Cp::Hybrid { dp_cp, .. } => dp_cp,
            };
            let world = layout.tp * cp * layout.pp * layout.dp;
            let violations = megatron::validate(&args, world);
            if !violations.is_empty() {
                for v in &violations {
                    eprintln!("error: Megatron-LM would reject these arguments: {v}");
                }
                eprintln!("{}", args.shell());
                return Ok(Tuned::Failed);
            }
            println!("{}", args.shell());
            for note in &args.unexpressed {
                eprintln!("note: {note}");
            }
        }
    }
    Ok(Tuned::Done)
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
    let target = options
        .target
        .map(|t| format!(", among what {t} runs, priced with the communication it performs (attnc's own plan of each in the last column)"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "layout `{}` on {source}{target}; per layer, forward + backward; bytes per rank (max over ranks) in GiB",
        layout.name
    );
    let gib = |bytes: u64| format!("{:.3}", bytes as f64 / (1u64 << 30) as f64);
    for class in classes {
        let _ = writeln!(out, "layers {} ({})", layer_blocks(&class.layers).join(", "), mask_name(class.mask));
        let own_header = if options.target.is_some() { format!(" {:>11}", "attnc's own") } else { String::new() };
        let _ = writeln!(
            out,
            "  {:<20} {:>11} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10}{own_header}",
            "strategy", "fwd+bwd", "fwd", "exposed", "intra sent", "intra recv", "inter sent", "inter recv", "memory"
        );
        for (index, e) in class.evaluations.iter().enumerate() {
            let mark = if index == class.choice { "*" } else { " " };
            let own = e.own_s.map(|s| format!(" {:>11}", ms(s))).unwrap_or_default();
            let _ = writeln!(
                out,
                "{mark} {:<20} {:>11} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10}{own}{}",
                e.strategy.label(),
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
            let _ = writeln!(out, "  {:<20} excluded: {why}", strategy.label());
        }
        for (strategy, why) in &class.rejected {
            let _ = writeln!(out, "  {:<20} not plannable: {}", strategy.label(), why.lines().next().unwrap_or(""));
        }
        for e in &class.evaluations {
            let Some(x) = e.exchange else { continue };
            let own = if e.strategy == Strategy::AllGather { "the all-gather" } else { "the ring" };
            let chosen = if x.chosen == Exchange::Halo { "the halo exchange" } else { own };
            let (chosen_s, other_s) =
                if x.chosen == Exchange::Halo { (x.halo_s, x.full_s) } else { (x.full_s, x.halo_s) };
            let why = if chosen_s > other_s { " (the faster does not fit in memory)" } else { "" };
            let _ = writeln!(
                out,
                "  exchange under {}: the halo exchange {} vs {own} {} — its row above is {chosen}{why}",
                e.strategy.label(),
                ms(x.halo_s),
                ms(x.full_s),
            );
        }
        let _ = writeln!(out, "  choice: {} — {}", class.chosen().label(), class.reason);
    }
    // TransformerEngine splits zigzag only (DualChunkSwap): no balance to choose for it.
    let balances = if options.target.is_some() { None } else { tune::balances(layout, classes, profile) };
    if let Some([(mine, mine_s), (other, other_s)]) = balances {
        let name = |b: attnc_compiler::spec::Balance| format!("{b:?}").to_lowercase();
        let verdict = match (layout.balance, mine_s <= other_s) {
            (attnc_compiler::spec::Balance::Auto, true) => format!("`balance = auto` chooses {}", name(mine)),
            (attnc_compiler::spec::Balance::Auto, false) => format!("`balance = auto` chooses {}", name(other)),
            (_, true) => "keep it".to_string(),
            (_, false) => "switch".to_string(),
        };
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
