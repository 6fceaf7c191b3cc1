//! Reading spec files for a command: the files, `--set`, `--for`, which layout (`--layout`, or the
//! only one), a THD batch's lengths (`--seqlens`, `--padded-seqlens`) and `--exchange`.
//!
//! Diagnostics are reported here, once; commands get checked specs or an exit outcome.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::{Context as _, Result};
use attnc_compiler::compat::te;
use attnc_compiler::diag::{self, Diagnostic};
use attnc_compiler::front::overrides::{self, Override};
use attnc_compiler::passes::PlanOptions;
use attnc_compiler::span::{FileId, Sources};
use attnc_compiler::spec::{Cp, Exchange, Format, Layout};
use attnc_compiler::{Frontend, UnitOptions, compile_unit};
use clap::Args;

use crate::Outcome;

#[derive(Args)]
pub struct SpecArgs {
    /// Spec files (`.attn`); each is checked on its own, with the files it includes.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Override a field before checking: ITEM.FIELD=VALUE (repeatable), e.g. `--set pretrain.cp=4`.
    #[arg(long = "set", value_name = "ITEM.FIELD=VALUE")]
    pub set: Vec<String>,
    /// Check against TransformerEngine's context-parallel support matrix: `te` (the newest) or
    /// `te=VERSION` (1.12 or later). Combinations TE rejects become errors, and `strategy = auto`
    /// chooses only among what it runs. Without it, the newest TE's restrictions are warnings.
    #[arg(long = "for", value_name = "te[=VERSION]")]
    pub target_system: Option<String>,
    /// The target's restrictions are warnings (`attnc tune` replaces the strategies they concern).
    #[arg(skip)]
    pub target_warns: bool,
    /// The layouts are compiled for the GPU (`attnc compile --target sm_*`, `attnc check
    /// --target sm_*`): the limits of attnc's GPU kernels and of the GPU's memory are errors.
    #[arg(skip)]
    pub gpu_kernels: bool,
}

impl SpecArgs {
    /// The `--for` target, or a usage error.
    pub fn target(&self) -> Result<Option<te::Target>> {
        self.target_system
            .as_deref()
            .map(|t| te::Target::parse(t).map_err(|e| anyhow::anyhow!("--for {t}: {e}")))
            .transpose()
    }
}

/// Which layout of the files, and the lengths of a THD batch.
#[derive(Args, Clone, Default)]
pub struct LayoutArgs {
    /// The layout (optional when the files define only one).
    #[arg(long)]
    pub layout: Option<String>,
    /// THD sub-sequence lengths, e.g. `100,4000,37` (thd and hybrid layouts; 0 is an empty sequence).
    #[arg(long, value_delimiter = ',')]
    pub seqlens: Vec<u64>,
    /// THD: each sequence's padded length, as the data pipeline padded them (the differences of
    /// TransformerEngine's `cu_seqlens_padded`): at least the length and a multiple of 2*cp
    /// (times tp with sequence parallelism). Default: each rounded up to the next multiple.
    #[arg(long, value_delimiter = ',', requires = "seqlens")]
    pub padded_seqlens: Vec<u64>,
    /// How layers under a window or chunks move KV with p2p, all_gather or a2a+p2p: `halo`
    /// (exactly the rows other ranks' queries read, in one exchange), `own` (the strategy's own
    /// communication: the ring, trimmed forward to the rows later ranks read, or the all-gather),
    /// or `auto` (the cost model simulates both; `attnc tune` prints both times).
    #[arg(long, value_enum, default_value_t = ExchangeArg::Auto)]
    pub exchange: ExchangeArg,
}

/// `--exchange`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExchangeArg {
    #[default]
    Auto,
    Halo,
    Own,
}

impl ExchangeArg {
    fn exchange(self) -> Exchange {
        match self {
            ExchangeArg::Auto => Exchange::Auto,
            ExchangeArg::Halo => Exchange::Halo,
            ExchangeArg::Own => Exchange::Full,
        }
    }
}

/// What every command that plans one layout reads: the spec files and which layout (and batch).
#[derive(Args)]
pub struct LayoutCommand {
    #[command(flatten)]
    pub spec: SpecArgs,
    #[command(flatten)]
    pub layout: LayoutArgs,
}

impl LayoutCommand {
    /// Loads and checks the files, picks the layout, and calls `f` with it and the plan options of
    /// the flags (`--seqlens`, `--padded-seqlens`, `--for`); spec errors end the command here.
    pub fn with_layout(&self, f: impl FnOnce(&Layout, PlanOptions) -> Result<Outcome>) -> Result<Outcome> {
        let loaded = match load_checked(&self.spec)? {
            Ok(loaded) => loaded,
            Err(outcome) => return Ok(outcome),
        };
        let which = &self.layout;
        let layout = loaded.layout(which.layout.as_deref())?;
        if !which.padded_seqlens.is_empty() && !matches!(layout.format, Format::Thd { .. }) {
            anyhow::bail!("--padded-seqlens: layout `{}` is not thd", layout.name);
        }
        if !which.padded_seqlens.is_empty() && matches!(layout.cp, Cp::Hybrid { .. }) {
            anyhow::bail!(
                "--padded-seqlens: layout `{}` is hybrid CP, whose groups pad each sub-sample for their own size\n  help: give the lengths alone, with `--seqlens`",
                layout.name
            );
        }
        // `--exchange`: every layer takes it (only those under a window or chunks with a
        // point-to-point level read it).
        let forced;
        let layout = if which.exchange == ExchangeArg::Auto {
            layout
        } else {
            let mut l = layout.clone();
            l.layers.iter_mut().for_each(|s| s.exchange = which.exchange.exchange());
            forced = l;
            &forced
        };
        f(
            layout,
            PlanOptions {
                target: loaded.target,
                seqlens: (!which.seqlens.is_empty()).then(|| which.seqlens.clone()),
                padded_seqlens: (!which.padded_seqlens.is_empty()).then(|| which.padded_seqlens.clone()),
                ..Default::default()
            },
        )
    }
}

/// The files of a run, read and compiled, with the overrides that apply.
pub struct Loaded {
    pub sources: Sources,
    pub units: Vec<Frontend>,
    pub target: Option<te::Target>,
}

impl Loaded {
    /// Every layout the files define, in file order.
    pub fn layouts(&self) -> impl Iterator<Item = &Layout> {
        self.units.iter().filter_map(|u| u.spec.as_ref()).flat_map(|s| &s.layouts)
    }

    /// The layout named by `--layout`, or the only one; otherwise an error listing them.
    pub fn layout(&self, wanted: Option<&str>) -> Result<&Layout> {
        let layouts: Vec<&Layout> = self.layouts().collect();
        let names: Vec<&str> = layouts.iter().map(|l| l.name.as_str()).collect();
        let Some(wanted) = wanted else {
            return match layouts.as_slice() {
                [only] => Ok(only),
                [] => anyhow::bail!("the files define no layout\n  help: add `layout NAME {{ ... }}`"),
                _ => anyhow::bail!(
                    "the files define {} layouts ({}): choose one with --layout\n  help: e.g. `--layout {}`",
                    names.len(),
                    names.join(", "),
                    names[0]
                ),
            };
        };
        if let Some(layout) = layouts.iter().find(|l| l.name == wanted) {
            return Ok(layout);
        }
        let suggestion = names
            .iter()
            .min_by_key(|n| strsim::levenshtein(n, wanted))
            .filter(|n| strsim::levenshtein(n, wanted) <= 3)
            .map(|n| format!("\n  help: did you mean `--layout {n}`?"))
            .unwrap_or_default();
        anyhow::bail!("--layout `{wanted}`: no such layout (the files define {}){suggestion}", names.join(", "))
    }
}

/// Reads and checks every file. `Err` is an I/O or usage error; `Ok(None)` a bad `--set`
/// (already reported).
pub fn load(spec: &SpecArgs) -> Result<Option<Loaded>> {
    let target = spec.target()?;
    if let Some(note) = target.and_then(|t| t.assumption()) {
        eprintln!("note: {note}");
    }
    load_with(spec, target, spec.target_warns, &spec.set)
}

/// [`load`] with the target, its severity and the `--set` flags given.
fn load_with(
    spec: &SpecArgs,
    target: Option<te::Target>,
    target_warns: bool,
    set: &[String],
) -> Result<Option<Loaded>> {
    let mut sources = Sources::new();
    let mut files: Vec<FileId> = Vec::new();
    for path in &spec.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read `{}`", path.display()))?;
        files.push(sources.add(path.display().to_string(), text));
    }
    let overrides: Vec<Override> = match overrides::parse_overrides(&mut sources, set) {
        Ok(o) => o,
        Err(errors) => {
            report(&sources, &errors);
            return Ok(None);
        }
    };
    let options =
        UnitOptions { overrides: &overrides, target, target_warns, gpu_kernels: spec.gpu_kernels, base: None };
    let units: Vec<Frontend> = files.iter().map(|&f| compile_unit(&mut sources, f, &options)).collect();
    let unmatched: Vec<Diagnostic> = overrides
        .iter()
        .enumerate()
        .filter(|(i, _)| units.iter().all(|u| !u.matched[*i]))
        .map(|(_, o)| {
            let names: Vec<String> = units
                .iter()
                .flat_map(|u| std::iter::once(&u.tree).chain(&u.included))
                .flat_map(|t| t.items.iter().map(|i| i.name.node.clone()))
                .collect();
            overrides::unknown_item(o, &names)
        })
        .collect();
    if !unmatched.is_empty() {
        report(&sources, &unmatched);
        return Ok(None);
    }
    Ok(Some(Loaded { sources, units, target }))
}

pub fn report(sources: &Sources, diagnostics: &[Diagnostic]) {
    report_diagnostics(sources, diagnostics);
    let mut stderr = std::io::stderr().lock();
    if let Some(summary) = diag::summary(diagnostics) {
        let _ = writeln!(stderr, "{summary}");
    }
}

/// Renders every diagnostic to stderr (without the summary line).
pub fn report_diagnostics(sources: &Sources, diagnostics: &[Diagnostic]) {
    use diag::termcolor::{ColorChoice, StandardStream};
    use std::io::IsTerminal as _;
    // Colour only on a terminal and when NO_COLOR is unset; pipes and files get plain text.
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut coloured = StandardStream::stderr(if colour { ColorChoice::Auto } else { ColorChoice::Never });
    let _ = diag::emit(sources, diagnostics, &mut coloured);
}

/// Loads and checks the files and reports every diagnostic; `Err` carries the exit outcome
/// when the flags or the specs have errors.
pub fn load_checked(spec: &SpecArgs) -> Result<Result<Loaded, Outcome>> {
    let Some(loaded) = load(spec)? else {
        return Ok(Err(Outcome::Usage));
    };
    let all: Vec<Diagnostic> = loaded.units.iter().flat_map(|u| u.diagnostics.iter().cloned()).collect();
    report(&loaded.sources, &all);
    if all.iter().any(Diagnostic::is_error) {
        return Ok(Err(Outcome::InputErrors));
    }
    Ok(Ok(loaded))
}

/// The `--layer` a command asked for, checked against the model (ranges are half-open).
pub fn check_layer(layout: &Layout, layer: u64) -> Result<()> {
    if layer >= layout.layers.len() as u64 {
        anyhow::bail!(
            "--layer {layer}: model `{}` has layers 0..{} (half-open: the last is {})",
            layout.model.name,
            layout.layers.len(),
            layout.layers.len() - 1
        );
    }
    Ok(())
}

/// The `--layer` of a command that runs or simulates it: in the model, and a layer attnc plans.
pub fn check_planned_layer(layout: &Layout, layer: u64) -> Result<()> {
    check_layer(layout, layer)?;
    match layout.not_planned(layer) {
        Some(why) => anyhow::bail!("--layer {layer}: {why}"),
        None => Ok(()),
    }
}

/// Whether `target` runs every layer class of `layout`, `strategy = auto` resolved as `attnc tune
/// --for te` resolves it (for THD, whose choice needs a batch, only that some strategy runs).
/// `Err` holds the reasons.
pub fn te_runs(layout: &Layout, target: te::Target) -> std::result::Result<(), String> {
    if matches!(layout.format, Format::Thd { .. }) || matches!(layout.cp, Cp::Hybrid { .. }) {
        for (layers, strategy, mask) in attnc_compiler::passes::layer_classes(layout) {
            if strategy != attnc_compiler::spec::Strategy::Auto {
                continue;
            }
            let setting = te::Setting::of_layout(layout, &strategy, mask);
            if te::runnable(&setting, &target).is_empty() {
                return Err(format!(
                    "layout `{}`: layers {}: no strategy that {target} runs",
                    layout.name,
                    attnc_compiler::passes::display_layers(&layers)
                ));
            }
        }
        return Ok(());
    }
    let options = PlanOptions { target: Some(target), ..Default::default() };
    attnc_compiler::driver::resolve_auto(layout, &options).map(|_| ()).map_err(|e| e.to_string())
}

/// Changes of a layout's fields, as `--set` flags, that make `target` accept it (the spec's own
/// checks and `strategy = auto` included), found by trying them: single changes of the strategy,
/// tp, cp, format, dtype and balance first, then tp and cp together. At most `limit` are returned,
/// nearest first.
pub fn te_fixes(spec: &SpecArgs, name: &str, target: te::Target, limit: usize) -> Result<Vec<String>> {
    // The layout as attnc alone resolves it (TE's rules as warnings), for its sizes.
    let Some(base) = load_with(spec, None, true, &spec.set)? else { return Ok(Vec::new()) };
    let Some(layout) = base.layouts().find(|l| l.name == name).cloned() else { return Ok(Vec::new()) };
    let m = &layout.model;
    let world = layout.cluster.gpus;
    let cp = match layout.cp {
        Cp::Fixed { size } => size,
        Cp::Hybrid { .. } => return Ok(Vec::new()),
    };
    let set = |field: &str, value: String| format!("{name}.{field}={value}");
    let mut singles: Vec<Vec<String>> = Vec::new();
    let uses_default = layout.layers.iter().all(|l| l.strategy == layout.strategy);
    if uses_default {
        for strategy in te::strategies(layout.cp, m.heads / layout.tp.max(1)) {
            if strategy != layout.strategy {
                singles.push(vec![set("strategy", attnc_compiler::sema::unparse::strategy_text(&strategy))]);
            }
        }
    }
    let tps: Vec<u32> = (1..=layout.cluster.gpus_per_node.max(1))
        .filter(|&t| t != layout.tp && m.heads % t == 0 && m.kv_heads % t == 0)
        .collect();
    // cp = 1 would leave context parallelism out altogether: not a fix.
    let cps: Vec<u32> = [2u32, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024]
        .into_iter()
        .filter(|&c| c != cp && c <= world)
        .collect();
    let near = |a: u32, b: u32| (a.max(b) as f64 / a.min(b).max(1) as f64).ln();
    let mut by_distance: Vec<(f64, Vec<String>)> = Vec::new();
    by_distance.extend(tps.iter().map(|&t| (near(t, layout.tp), vec![set("tp", t.to_string())])));
    by_distance.extend(cps.iter().map(|&c| (near(c, cp), vec![set("cp", c.to_string())])));
    by_distance.sort_by(|a, b| a.0.total_cmp(&b.0));
    singles.extend(by_distance.into_iter().map(|(_, s)| s));
    match layout.format {
        Format::Sbhd => singles.push(vec![set("format", "bshd".into())]),
        Format::Bshd => singles.push(vec![set("format", "sbhd".into())]),
        Format::Thd { .. } => {}
    }
    if layout.dtype == attnc_compiler::spec::Dtype::Fp32 {
        singles.push(vec![set("dtype", "bf16".into())]);
    }
    if layout.balance == attnc_compiler::spec::Balance::Contiguous {
        singles.push(vec![set("balance", "zigzag".into())]);
    }
    let accepted = |changes: &[String]| -> Result<bool> {
        let mut flags = spec.set.clone();
        flags.extend(changes.iter().cloned());
        let Some(loaded) = load_with(spec, Some(target), false, &flags)? else { return Ok(false) };
        if loaded.units.iter().flat_map(|u| &u.diagnostics).any(Diagnostic::is_error) {
            return Ok(false);
        }
        Ok(loaded.layouts().find(|l| l.name == name).is_some_and(|l| te_runs(l, target).is_ok()))
    };
    let mut found = Vec::new();
    for changes in &singles {
        if found.len() >= limit {
            break;
        }
        if accepted(changes)? {
            found.push(changes.clone());
        }
    }
    if found.is_empty() {
        'pairs: for &t in &tps {
            for &c in &cps {
                let changes = vec![set("tp", t.to_string()), set("cp", c.to_string())];
                if accepted(&changes)? {
                    found.push(changes);
                    if found.len() >= limit {
                        break 'pairs;
                    }
                }
            }
        }
    }
    Ok(found.iter().map(|changes| changes.iter().map(|c| shell_flag(c)).collect::<Vec<_>>().join(" ")).collect())
}

/// `--set FIELD=VALUE`, quoted where the shell would split it.
fn shell_flag(set: &str) -> String {
    if set.chars().all(|c| c.is_ascii_alphanumeric() || "._=+-".contains(c)) {
        format!("--set {set}")
    } else {
        format!("--set '{set}'")
    }
}

/// Prints, for each layout `target` refuses, the changes that make it accept it (or that none of
/// the tried ones do).
pub fn report_te_fixes(spec: &SpecArgs, names: &[String], target: te::Target) -> Result<()> {
    for name in names {
        let fixes = te_fixes(spec, name, target, 3)?;
        if fixes.is_empty() {
            eprintln!(
                "help: layout `{name}`: no single change of its strategy, tp, cp, format, dtype or balance (nor of tp and cp together) makes {target} run it"
            );
        } else {
            eprintln!(
                "help: layout `{name}` checks clean with `--for {}` after any of: {}",
                target.flag(),
                fixes.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
            );
        }
    }
    Ok(())
}
