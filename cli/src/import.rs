//! `attnc import hf CONFIG.json`: a Hugging Face config as a checked `.attn` spec.

use std::path::PathBuf;

use anyhow::{Context, Result};
use attnc_compiler::diag::Severity;
use attnc_compiler::import::hf::{self, ClusterShape, ImportOptions};
use attnc_compiler::span::Sources;
use attnc_compiler::{UnitOptions, compile_unit};
use clap::{Args as ClapArgs, Subcommand};

use crate::Outcome;

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    from: From,
}

#[derive(Subcommand)]
enum From {
    /// A Hugging Face `config.json` (transformers 4.x or 5.x shape; multimodal `text_config` too).
    Hf(HfArgs),
}

#[derive(ClapArgs)]
struct HfArgs {
    /// The model's config.json.
    config: PathBuf,
    /// The model's name in the spec (default: the config's model_type).
    #[arg(long)]
    name: Option<String>,
    /// With --seq: a layout over NODESxGPUS[:GPU] (e.g. 2x8:h100_sxm), every GPU a CP rank, strategy auto.
    #[arg(long, value_parser = ClusterShape::parse)]
    cluster: Option<ClusterShape>,
    /// With --cluster: the layout's sequence length in tokens (e.g. 131072, 128K, 1M).
    #[arg(long, value_parser = parse_len)]
    seq: Option<u64>,
    /// Write the spec here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn parse_len(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.strip_suffix(['K', 'k']) {
        Some(d) => (d, 1024),
        None => text.strip_suffix(['M', 'm']).map_or((text, 1), |d| (d, 1024 * 1024)),
    };
    digits
        .parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .map(|n| n * unit)
        .ok_or_else(|| format!("`{text}` is not a length such as 131072, 128K or 1M"))
}

pub fn run(args: Args) -> Result<Outcome> {
    let From::Hf(args) = args.from;
    if args.cluster.is_some() != args.seq.is_some() {
        eprintln!("error: --cluster and --seq go together (a layout needs both)");
        eprintln!("help: give both for a layout with strategy = auto, or neither for the model block alone");
        return Ok(Outcome::Usage);
    }
    let shown = args.config.display().to_string();
    let text = std::fs::read_to_string(&args.config).with_context(|| format!("reading {shown}"))?;
    let config = match hf::parse(&text).and_then(|c| {
        hf::import(&c, &shown, &ImportOptions { name: args.name.clone(), cluster: args.cluster.clone(), seq: args.seq })
    }) {
        Ok(imported) => imported,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            eprintln!(
                "help: attnc reads the attention fields of a transformers config.json (num_hidden_layers, num_attention_heads, ...)"
            );
            return Ok(Outcome::InputErrors);
        }
    };
    let target = args.output.as_ref().map_or("the output".to_string(), |p| p.display().to_string());
    for w in &config.warnings {
        eprintln!("warning: {shown}: {}: {} (line {} of {target})", w.field, w.message, w.line);
    }
    // The generated text goes through the same checks as a hand-written spec.
    let mut sources = Sources::new();
    let file = sources.add(target.clone(), config.text.clone());
    let frontend = compile_unit(&mut sources, file, &UnitOptions::default());
    let errors: Vec<_> = frontend.diagnostics.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
    match &args.output {
        Some(path) => std::fs::write(path, &config.text).with_context(|| format!("writing {}", path.display()))?,
        None => print!("{}", config.text),
    }
    if !errors.is_empty() {
        eprint!("{}", attnc_compiler::diag::render(&sources, &errors));
        return Ok(Outcome::InputErrors);
    }
    Ok(Outcome::Clean)
}
