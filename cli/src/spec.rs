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
use attnc_compiler::front::span::{FileId, Sources};
use attnc_compiler::passes::PlanOptions;
use attnc_compiler::sema::spec::{Cp, Exchange, Format, Layout};
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
    let mut sources = Sources::new();
    let mut files: Vec<FileId> = Vec::new();
    for path in &spec.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read `{}`", path.display()))?;
        files.push(sources.add(path.display().to_string(), text));
    }
    let overrides: Vec<Override> = match overrides::parse_overrides(&mut sources, &spec.set) {
        Ok(o) => o,
        Err(errors) => {
            report(&sources, &errors);
            return Ok(None);
        }
    };
    let options = UnitOptions { overrides: &overrides, target, target_warns: spec.target_warns, base: None };
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
    use diag::termcolor::{ColorChoice, StandardStream};
    use std::io::IsTerminal as _;
    // Colour only on a terminal and when NO_COLOR is unset; pipes and files get plain text.
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut coloured = StandardStream::stderr(if colour { ColorChoice::Auto } else { ColorChoice::Never });
    let _ = diag::emit(sources, diagnostics, &mut coloured);
    let mut stderr = std::io::stderr().lock();
    if let Some(summary) = diag::summary(diagnostics) {
        let _ = writeln!(stderr, "{summary}");
    }
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
