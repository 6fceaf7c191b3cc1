//! `attnc fmt`: spec files in canonical form (printed, checked or rewritten).

use anyhow::{Context as _, Result};
use attnc_compiler::diag::{Code, Diagnostic};
use attnc_compiler::front;
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::spec::{SpecArgs, load, report};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    spec: SpecArgs,
    /// Print nothing; exit 1 if any file is not in canonical form.
    #[arg(long, conflicts_with = "write")]
    check: bool,
    /// Rewrite the files in place.
    #[arg(long)]
    write: bool,
}

pub fn run(args: Args) -> Result<Outcome> {
    let Some(loaded) = load(&args.spec)? else {
        return Ok(Outcome::Usage);
    };
    let mut outcome = Outcome::Clean;
    for (unit, path) in loaded.units.iter().zip(&args.spec.files) {
        // Only syntax errors stop formatting: a file that parses can be printed.
        let syntax: Vec<Diagnostic> = unit.diagnostics.iter().filter(|d| d.code == Code::Syntax).cloned().collect();
        if !syntax.is_empty() {
            report(&loaded.sources, &syntax);
            outcome = Outcome::InputErrors;
            continue;
        }
        let formatted = front::print_file(&unit.tree);
        let original = loaded.sources.text(unit.tree.file);
        if args.check {
            if formatted != original {
                eprintln!("{}: not in canonical form (run `attnc fmt --write {}`)", path.display(), path.display());
                outcome = Outcome::InputErrors;
            }
        } else if args.write {
            if formatted != original {
                std::fs::write(path, &formatted).with_context(|| format!("cannot write `{}`", path.display()))?;
            }
        } else {
            print!("{formatted}");
        }
    }
    Ok(outcome)
}
