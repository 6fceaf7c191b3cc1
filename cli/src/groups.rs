//! `attnc groups`: Megatron-Core's process groups for the given sizes, as JSON.

use anyhow::Result;
use attnc_compiler::plan::groups;
use clap::Args as ClapArgs;

use crate::Outcome;
use crate::output::JsonOnly;

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long)]
    world: u32,
    #[arg(long, default_value_t = 1)]
    tp: u32,
    #[arg(long, default_value_t = 1)]
    cp: u32,
    #[arg(long, default_value_t = 1)]
    pp: u32,
    #[arg(long, default_value_t = 1)]
    ep: u32,
    /// Megatron's rank order.
    #[arg(long, default_value = "tp-cp-ep-dp-pp")]
    order: String,
    /// Hierarchical CP sizes, e.g. `2,2` (their product must be cp).
    #[arg(long, value_delimiter = ',')]
    hierarchy: Option<Vec<u32>>,
    /// Also print hybrid DP×CP power-of-two subgroups.
    #[arg(long)]
    hybrid: bool,
    #[arg(long, value_enum, default_value_t = JsonOnly::Json)]
    emit: JsonOnly,
}

pub fn run(args: Args) -> Result<Outcome> {
    let Args { world, tp, cp, pp, ep, order, hierarchy, hybrid, emit: _ } = args;
    let sizes = groups::GroupSizes { world, tp, cp, pp, ep, order, hierarchy, hybrid };
    let groups = groups::build(&sizes)?;
    println!("{}", serde_json::to_string(&groups)?);
    Ok(Outcome::Clean)
}
