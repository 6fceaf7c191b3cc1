//! `attnc partition`: every CP rank's tokens, RoPE positions and padding under a layout's split,
//! as the JSON of `plan::partition::Partition`.

use anyhow::Result;
use attnc_compiler::passes::{self, PlanError, PlanOptions};
use attnc_compiler::spec::{Cp, Layout};
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::output::JsonOnly;
use crate::spec::LayoutCommand;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    input: LayoutCommand,
    #[arg(long, value_enum, default_value_t = JsonOnly::Json)]
    emit: JsonOnly,
}

pub fn run(args: Args) -> Result<Outcome> {
    args.input.with_layout(|l, options| partition(l, &options))
}

fn partition(layout: &Layout, options: &PlanOptions) -> Result<Outcome> {
    let name = &layout.name;
    if let Cp::Hybrid { .. } = layout.cp {
        anyhow::bail!(
            "--layout `{name}`: hybrid CP partitions each sub-sample on its own group; this command takes fixed-size CP layouts\n  help: `attnc plan FILE --layout {name} --seqlens L1,L2,...` prints each sub-sample's group and plan"
        );
    }
    match passes::setup::partition_of(layout, options) {
        Err(e @ (PlanError::NeedSeqlens { .. } | PlanError::SeqlensNotThd { .. })) => anyhow::bail!("--seqlens: {e}"),
        Ok(partition) => {
            println!("{}", serde_json::to_string(&partition)?);
            Ok(Outcome::Clean)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(Outcome::InputErrors)
        }
    }
}
