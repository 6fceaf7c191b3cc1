//! `attnc check`: every problem of the spec files, and with `--emit json` the resolved specs.
//!
//! With `--for te`, `strategy = auto` is resolved as `attnc tune --for te` resolves it, so a clean
//! check means `plan` and `tune` succeed; for every layout TransformerEngine refuses, the changes
//! that make it run are searched for and printed. The last line of stderr is always the summary.

use anyhow::Result;
use attnc_compiler::diag::Diagnostic;
use attnc_compiler::spec::FileSpec;
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::output::TextOrJson;
use crate::spec::{SpecArgs, load, report_diagnostics, report_te_fixes, te_runs};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    spec: SpecArgs,
    /// `text` prints only diagnostics; `json` also prints the resolved spec, defaults filled in.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    emit: TextOrJson,
    /// Check as `attnc compile --target T` does: with `sm_80` or `sm_90a`, what attnc's GPU
    /// kernels cannot run and what a GPU cannot hold are errors.
    #[arg(long, value_enum)]
    target: Option<crate::device::TargetArg>,
}

pub fn run(mut args: Args) -> Result<Outcome> {
    args.spec.gpu_kernels = args.target.is_some_and(|t| t.is_gpu());
    let Some(loaded) = load(&args.spec)? else {
        return Ok(Outcome::Usage);
    };
    let all: Vec<Diagnostic> = loaded.units.iter().flat_map(|u| u.diagnostics.iter().cloned()).collect();
    report_diagnostics(&loaded.sources, &all);
    let mut errors = all.iter().filter(|d| d.is_error()).count();
    let warnings =
        all.iter().filter(|d| !d.is_error() && d.code.severity() == attnc_compiler::diag::Severity::Warning).count();
    let mut refused: Vec<String> = loaded.units.iter().flat_map(|u| u.target_refused.iter().cloned()).collect();
    if let Some(target) = loaded.target {
        // What sema cannot see: `strategy = auto`, resolved by the tuner among what TE runs.
        for layout in loaded.layouts() {
            if let Err(why) = te_runs(layout, target) {
                eprintln!("error: {why}");
                errors += 1;
                refused.push(layout.name.clone());
            }
        }
        refused.dedup();
        report_te_fixes(&args.spec, &refused, target)?;
    }
    let layouts: usize = loaded
        .units
        .iter()
        .map(|u| u.tree.items.iter().filter(|i| i.kind.node == attnc_compiler::front::ast::ItemKind::Layout).count())
        .sum();
    let files = args.spec.files.len();
    eprintln!(
        "checked {layouts} layout{} in {files} file{}: {errors} error{}, {warnings} warning{}",
        plural(layouts),
        plural(files),
        plural(errors),
        plural(warnings)
    );
    if errors > 0 {
        return Ok(Outcome::InputErrors);
    }
    if args.emit == TextOrJson::Json {
        let specs: Vec<FileSpec<'_>> = loaded
            .units
            .iter()
            .zip(&args.spec.files)
            .filter_map(|(u, path)| u.spec.as_ref().map(|s| FileSpec { spec: s, file: path.display().to_string() }))
            .collect();
        let out = match specs.as_slice() {
            [one] => serde_json::to_string_pretty(one)?,
            many => serde_json::to_string_pretty(many)?,
        };
        println!("{out}");
    }
    Ok(Outcome::Clean)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
