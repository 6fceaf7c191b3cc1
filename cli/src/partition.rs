//! `attnc partition`: every CP rank's tokens, RoPE positions and padding under a layout's split,
//! as the JSON of `plan::partition::Partition`.

use anyhow::Result;
use attnc_compiler::passes::PlanOptions;
use attnc_compiler::plan::partition::{self as part, ThdBatch, ThdLimits};
use attnc_compiler::sema::spec::{Balance, Cp, Format, Layout};
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
    let Cp::Fixed { size: cp } = layout.cp else {
        anyhow::bail!(
            "--layout `{name}`: hybrid CP partitions each sub-sample on its own group; this command takes fixed-size CP layouts\n  help: `attnc plan FILE --layout {name} --seqlens L1,L2,...` prints each sub-sample's group and plan"
        );
    };
    let seqlens = options.seqlens.clone().unwrap_or_default();
    let result = match layout.format {
        Format::Thd { max_tokens, max_seqlen } => {
            if seqlens.is_empty() {
                anyhow::bail!(
                    "--seqlens: layout `{name}` is thd: give the packed lengths\n  help: e.g. `--seqlens 100,4000,37`"
                );
            }
            let tp = if layout.sequence_parallel { layout.tp as u64 } else { 1 };
            let batch = ThdBatch { seqlens, padded: options.padded_seqlens.clone() };
            let limits =
                ThdLimits { unit: 2 * cp as u64 * tp, max_seqlen: Some(max_seqlen), max_tokens: Some(max_tokens) };
            part::thd(&batch, cp, &limits)
        }
        _ if !seqlens.is_empty() => {
            anyhow::bail!("--seqlens applies to thd layouts only; `{name}` is not thd")
        }
        _ if layout.balance == Balance::Zigzag => part::zigzag(layout.seq, cp),
        _ => part::contiguous(layout.seq, cp),
    };
    match result {
        Ok(partition) => {
            println!("{}", serde_json::to_string(&partition)?);
            Ok(Outcome::Clean)
        }
        Err(e) => {
            eprintln!("error: layout `{name}`: {e}");
            Ok(Outcome::InputErrors)
        }
    }
}
