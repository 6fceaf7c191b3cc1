//! Plans compiled, verified and cached in the process: a call's (its spec text from
//! [`crate::call`]) or a spec file's layout, keyed by the spec and the batch's lengths, so that a
//! training step that repeats a shape never waits on the compiler.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use attnc_compiler::diag::Severity;
use attnc_compiler::ir::{Plan, stats};
use attnc_compiler::passes::{self, LayerClass, PlanError, PlanOptions};
use attnc_compiler::plan::partition::Partition;
use attnc_compiler::span::Sources;
use attnc_compiler::spec::Layout;
use attnc_compiler::{UnitOptions, compile_unit, driver};

use crate::call::{Call, LAYOUT};

/// Why a call or a layout has no plan.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The spec check refused what an argument says.
    #[error("argument `{argument}`: {message}")]
    Argument { argument: &'static str, message: String },
    /// A spec file's diagnostics, rendered.
    #[error("{0}")]
    Spec(String),
    /// Planning refused the layout (a THD batch the split cannot take, no strategy for `auto`).
    #[error("{context}: {message}")]
    Plan { context: String, message: String },
}

/// One layout's plans for one batch: every layer class, forward and backward, verified.
pub struct Entry {
    /// The spec text the plans come from (a call's, or the file's path).
    pub spec: String,
    pub layout: Layout,
    pub classes: Vec<LayerClass>,
    /// Which tokens each rank holds, in local order (the plans' own split).
    pub partition: Partition,
    /// Warnings of the check, once per entry.
    pub warnings: Vec<String>,
}

impl Entry {
    /// The class that plans layer `layer`.
    pub fn class_of(&self, layer: u64) -> Option<&LayerClass> {
        self.classes.iter().find(|c| c.layers.iter().any(|r| r.start <= layer && layer < r.end))
    }

    /// The plans and what they move and compute, per rank: what `explain()` returns.
    pub fn explain(&self, rank: Option<u32>) -> String {
        let mut out = String::new();
        out.push_str(&format!("layout `{}` (cp {}):\n", self.layout.name, self.partition.cp));
        for class in &self.classes {
            out.push_str(&format!(
                "layers {}: strategy {}, mask {}\n",
                passes::display_intervals(&class.layers),
                class.strategy.name(),
                passes::mask_name(class.mask)
            ));
            for plan in std::iter::once(&class.forward).chain(&class.backward) {
                out.push_str(&summary(plan));
            }
        }
        if let Some(rank) = rank {
            for class in &self.classes {
                for plan in std::iter::once(&class.forward).chain(&class.backward) {
                    out.push_str(&attnc_compiler::ir::print::text(plan, Some(rank)));
                }
            }
        }
        out
    }
}

/// Per rank: FLOPs, blocks and bytes sent and received of one plan.
fn summary(plan: &Plan) -> String {
    let s = stats::stats(plan);
    let direction = format!("{:?}", plan.header.direction).to_lowercase();
    let mut out = format!("  {direction}: {:.3e} FLOPs over every rank, balance {:.3}\n", s.flops(), s.balance);
    for r in &s.ranks {
        out.push_str(&format!(
            "    rank {}: {} blocks, {:.3e} FLOPs, sends {} B, receives {} B\n",
            r.rank,
            r.blocks,
            r.flops,
            r.sent_intra_bytes + r.sent_inter_bytes,
            r.received_intra_bytes + r.received_inter_bytes
        ));
    }
    out
}

type Key = (String, Option<Vec<u64>>, Option<Vec<u64>>);

/// Entries kept; past this many the cache starts over (a run of ever-new THD batches).
const CAPACITY: usize = 4096;

fn cache() -> &'static Mutex<HashMap<Key, Arc<Entry>>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Entry>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// How many plans the process holds (the tests' view of the cache).
pub fn cached() -> usize {
    cache().lock().unwrap_or_else(|e| e.into_inner()).len()
}

fn cached_or(key: Key, build: impl FnOnce() -> Result<Entry, CompileError>) -> Result<Arc<Entry>, CompileError> {
    if let Some(entry) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(entry.clone());
    }
    let entry = Arc::new(build()?);
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= CAPACITY {
        cache.clear();
    }
    cache.insert(key, entry.clone());
    Ok(entry)
}

/// A call's plans for a batch (`seqlens`, `padded`: a THD batch's lengths).
pub fn call(call: &Call, seqlens: Option<Vec<u64>>, padded: Option<Vec<u64>>) -> Result<Arc<Entry>, CompileError> {
    let spec = call.spec();
    cached_or((spec.text.clone(), seqlens.clone(), padded.clone()), || {
        let mut sources = Sources::new();
        let file = sources.add("attnc.torch.attention", spec.text.clone());
        let frontend = compile_unit(&mut sources, file, &UnitOptions::default());
        if let Some(d) = frontend.diagnostics.iter().find(|d| d.severity == Severity::Error) {
            let mut message = d.message.clone();
            for help in &d.help {
                message.push_str(&format!("\n  help: {help}"));
            }
            return Err(CompileError::Argument { argument: spec.argument_at(d.primary.span.start as usize), message });
        }
        // The call's cluster exists only to price `auto`: what the check says of TransformerEngine,
        // attnc's GPU kernels and a GPU's memory is not about this run.
        let about_the_run =
            |d: &&attnc_compiler::diag::Diagnostic| !matches!(d.code.as_str(), "W0006" | "W0008" | "W0009" | "W0010");
        let warnings = frontend
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .filter(about_the_run)
            .map(|d| format!("argument `{}`: {}", spec.argument_at(d.primary.span.start as usize), d.message))
            .collect();
        let layout = frontend
            .spec
            .and_then(|s| s.layouts.into_iter().find(|l| l.name == LAYOUT))
            .expect("a spec without errors has the call's layout");
        let thd = matches!(layout.format, attnc_compiler::spec::Format::Thd { .. });
        plan(spec.text.clone(), layout, seqlens, padded, warnings).map_err(|e| call_error(e, thd))
    })
}

/// A spec file's layout for a batch.
pub fn file(
    path: &str,
    layout: &str,
    seqlens: Option<Vec<u64>>,
    padded: Option<Vec<u64>>,
) -> Result<Arc<Entry>, CompileError> {
    let text = std::fs::read_to_string(path).map_err(|e| CompileError::Spec(format!("{path}: {e}")))?;
    cached_or((format!("{path}\n{layout}\n{text}"), seqlens.clone(), padded.clone()), || {
        let mut sources = Sources::new();
        let file = sources.add(path, text);
        let base = std::path::Path::new(path).parent();
        let frontend = compile_unit(&mut sources, file, &UnitOptions { base, ..Default::default() });
        let errors: Vec<_> = frontend.diagnostics.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
        if !errors.is_empty() {
            return Err(CompileError::Spec(attnc_compiler::diag::render(&sources, &errors)));
        }
        let warnings = frontend
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| attnc_compiler::diag::render(&sources, std::slice::from_ref(d)))
            .collect();
        let spec = frontend.spec.expect("a spec without errors");
        let names: Vec<String> = spec.layouts.iter().map(|l| format!("`{}`", l.name)).collect();
        let layout = spec.layouts.into_iter().find(|l| l.name == layout).ok_or_else(|| CompileError::Plan {
            context: path.to_string(),
            message: format!("no layout `{layout}`; the file defines {}", names.join(", ")),
        })?;
        plan(path.to_string(), layout, seqlens, padded, warnings).map_err(|e| file_error(e, path))
    })
}

fn plan(
    spec: String,
    layout: Layout,
    seqlens: Option<Vec<u64>>,
    padded: Option<Vec<u64>>,
    warnings: Vec<String>,
) -> Result<Entry, PlanError> {
    let options = PlanOptions { seqlens, padded_seqlens: padded, backward: true, ..Default::default() };
    let resolved = driver::resolve_auto(&layout, &options)?.into_owned();
    let set = passes::compile(&resolved, &options)?;
    let partition = match set.partition {
        Some(partition) => partition,
        None => passes::setup::partition_of(&resolved, &options)?,
    };
    Ok(Entry { spec, layout: resolved, classes: set.classes, partition, warnings })
}

/// A call's planning error as the argument it is about, with help a Python caller can follow.
fn call_error(e: PlanError, thd: bool) -> CompileError {
    match e {
        PlanError::Partition { error, .. } => CompileError::Argument {
            argument: if thd { "cu_seqlens_q_padded" } else { "q" },
            message: match error {
                attnc_compiler::plan::partition::PartitionError::NotDivisible { len, parts } => format!(
                    "the sequence of {len} tokens (local length × cp) does not split into {parts} equal chunks\n  \
                     help: Megatron's zigzag split needs a sequence length divisible by 2·cp; pad the batch"
                ),
                error => error.to_string(),
            },
        },
        PlanError::Auto { reasons, .. } => CompileError::Argument {
            argument: "cp_comm_type",
            message: format!(
                "`auto`: no strategy could be chosen{}\n  help: pass a concrete cp_comm_type (p2p, all_gather, a2a or a2a+p2p)",
                reasons.iter().map(|r| format!("\n  {r}")).collect::<String>()
            ),
        },
        e => CompileError::Plan { context: "attnc.torch.attention".into(), message: e.to_string() },
    }
}

/// A spec file's planning error, with help in the Python API's terms where the CLI's differ.
fn file_error(e: PlanError, path: &str) -> CompileError {
    let context = path.to_string();
    match e {
        PlanError::NeedSeqlens { layout } => CompileError::Argument {
            argument: "seqlens",
            message: format!(
                "layout `{layout}` is thd: give the packed sequence lengths\n  help: e.g. `spec.layout(\"{layout}\", seqlens=[100, 4000, 37])`"
            ),
        },
        PlanError::SeqlensNotThd { layout } => CompileError::Argument {
            argument: "seqlens",
            message: format!("applies to thd layouts only; `{layout}` is not thd"),
        },
        PlanError::Hybrid { layout } => CompileError::Plan {
            context,
            message: format!(
                "layout `{layout}` uses hybrid CP, planned per batch: run each batch's fixed-size groups through attnc.torch.attention with the group Megatron hands it (PackedSeqParams.cp_group)"
            ),
        },
        e => CompileError::Plan { context, message: e.to_string() },
    }
}

/// The layouts a spec file defines (checked: a file with errors is refused with them).
pub fn layouts(path: &str) -> Result<Vec<String>, CompileError> {
    Ok(checked(path)?.layouts.into_iter().map(|l| l.name).collect())
}

/// A spec file's resolved spec as JSON (`attnc check --emit json`).
pub fn spec_json(path: &str) -> Result<String, CompileError> {
    let spec = checked(path)?;
    let file = attnc_compiler::spec::FileSpec { spec: &spec, file: path.to_string() };
    serde_json::to_string(&file).map_err(|e| CompileError::Spec(format!("{path}: {e}")))
}

fn checked(path: &str) -> Result<attnc_compiler::sema::Spec, CompileError> {
    let text = std::fs::read_to_string(path).map_err(|e| CompileError::Spec(format!("{path}: {e}")))?;
    let mut sources = Sources::new();
    let file = sources.add(path, text);
    let base = std::path::Path::new(path).parent();
    let frontend = compile_unit(&mut sources, file, &UnitOptions { base, ..Default::default() });
    let errors: Vec<_> = frontend.diagnostics.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
    match frontend.spec {
        Some(spec) if errors.is_empty() => Ok(spec),
        _ => Err(CompileError::Spec(attnc_compiler::diag::render(&sources, &errors))),
    }
}
