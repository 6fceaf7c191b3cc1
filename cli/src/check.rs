//! `attnc check`: every problem of the spec files, and with `--emit json` the resolved specs.

use anyhow::Result;
use attnc_compiler::sema::spec::FileSpec;
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::output::TextOrJson;
use crate::spec::{SpecArgs, load_checked};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    spec: SpecArgs,
    /// `text` prints only diagnostics; `json` also prints the resolved spec, defaults filled in.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    emit: TextOrJson,
}

pub fn run(args: Args) -> Result<Outcome> {
    let loaded = match load_checked(&args.spec)? {
        Ok(loaded) => loaded,
        Err(outcome) => return Ok(outcome),
    };
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
