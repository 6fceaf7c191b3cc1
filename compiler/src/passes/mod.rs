//! The planning pipeline: a resolved layout in, one verified plan per layer class and direction out.
//!
//! [`compile`] is the whole pipeline, top to bottom: group the layers that share settings, then
//! for each class and direction run the passes (`lower` → `assign_slots` → `schedule`), each
//! followed by the verifier when verification is on (tests, debug builds, `--verify`). The
//! final plan is always verified. A verifier failure after a pass is a compiler bug and is
//! reported as one ([`PlanError::Verify`]), with every error it found.

pub mod assign_slots;
pub mod blocks;
pub mod hybrid;
pub mod lower;
pub mod lower_a2a;
pub mod lower_all_gather;
pub mod lower_halo;
pub mod lower_hierarchical;
pub mod lower_ring;
pub mod schedule;
pub mod setup;

use thiserror::Error;

use crate::ir::{Direction, Header, Interval, Plan, artifact};
use crate::plan::partition::{Partition, PartitionError};
use crate::spec::{Exchange, Layout, Mask, Strategy};
use crate::verify::{self, Stage, Verified, VerifyError};

#[derive(Debug, Error)]
pub enum PlanError {
    #[error(
        "layout `{layout}`: layers {layers}: no strategy could be chosen{}\n  help: {}",
        reasons.iter().map(|r| format!("\n  {r}")).collect::<String>(),
        help.clone().unwrap_or_else(|| format!("write a concrete strategy (p2p, all_gather, a2a or a2a+p2p), e.g. `--set {layout}.strategy=p2p`"))
    )]
    Auto { layout: String, layers: String, reasons: Vec<String>, help: Option<String> },
    #[error(
        "layout `{layout}` uses hybrid CP, which is planned per batch from its sub-sample lengths\n  help: give them with `--seqlens`, e.g. `--seqlens 100,40000,2000`, or plan one fixed-size CP group of it (`--set {layout}.cp=8 --seqlens 100,4000,37`)"
    )]
    Hybrid { layout: String },
    #[error("layout `{layout}` is not a hybrid-CP layout")]
    NotHybrid { layout: String },
    #[error("layout `{layout}`: {error}")]
    Schedule { layout: String, error: crate::hybrid::ScheduleError },
    #[error(
        "layout `{layout}`: step {step} puts a group on GPUs {first}..{end}, which is not one of the pre-built aligned hybrid subgroups\n  help: use the buddy scheduler (`--algorithm buddy`), whose groups are always aligned"
    )]
    UnalignedGroup { layout: String, step: usize, first: u32, end: u32 },
    #[error(
        "internal compiler error: the hybrid batch of layout `{layout}` does not run on the pool:\n{}",
        problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n")
    )]
    HybridVerify { layout: String, problems: Vec<String> },
    #[error("layout `{layout}` is thd: give the packed sequence lengths\n  help: add e.g. `--seqlens 100,4000,37`")]
    NeedSeqlens { layout: String },
    #[error("--seqlens applies to thd layouts only; `{layout}` is not thd")]
    SeqlensNotThd { layout: String },
    #[error("layout `{layout}`: {error}")]
    Partition { layout: String, error: PartitionError },
    #[error(
        "layout `{layout}`: the kernels cannot test the mask `{mask}` exactly: {reason}\n  help: the kernels compute a mask that is no band as f32 integers, exact up to 2^24; write it with terms that stay within 2^24 over sequences of up to {positions} tokens, or as bounds on `q - k` region by region"
    )]
    MaskPredicate { layout: String, mask: String, positions: u64, reason: String },
    #[error(
        "internal compiler error: the plan of layout `{layout}` (layers {layers}, {direction:?}) failed verification after pass `{pass}`:\n{}",
        errors.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n")
    )]
    Verify { layout: String, layers: String, direction: Direction, pass: &'static str, errors: Vec<VerifyError> },
}

#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    /// THD sub-sequence lengths.
    pub seqlens: Option<Vec<u64>>,
    /// THD: each sequence's padded length (TransformerEngine's `cu_seqlens_padded` differences),
    /// when the data pipeline padded them; otherwise each is padded to the next multiple of 2·cp.
    pub padded_seqlens: Option<Vec<u64>>,
    /// Also plan the backward pass.
    pub backward: bool,
    /// Verify after every pass (always on in debug builds).
    pub verify: bool,
    /// `--for te[=VERSION]`: `strategy = auto` chooses only among what that TransformerEngine runs.
    pub target: Option<crate::compat::te::Target>,
}

/// Layers that share strategy and mask, and their plans.
#[derive(Debug)]
pub struct LayerClass {
    pub layers: Vec<Interval>,
    pub strategy: Strategy,
    pub mask: Mask,
    /// Whether these layers rotate q and k (false: NoPE layers, or a model without RoPE).
    pub rope: bool,
    /// The plans as verified (each proof owns its plan and dereferences to it), for consumers
    /// that play or run them without verifying again.
    pub forward: Verified,
    pub backward: Option<Verified>,
}

impl LayerClass {
    /// Each verified plan: forward, then backward if planned.
    pub fn verified(&self) -> impl Iterator<Item = &Verified> {
        std::iter::once(&self.forward).chain(&self.backward)
    }

    /// The backward plan when asked for and planned, else the forward (what a picture draws).
    pub fn plan_for(&self, backward: bool) -> &Verified {
        self.backward.as_ref().filter(|_| backward).unwrap_or(&self.forward)
    }

    /// This class as a plan file holds it (without statistics).
    pub fn file_class(&self) -> artifact::PlanFileClass {
        artifact::PlanFileClass {
            layers: self.layers.clone(),
            strategy: self.strategy.name().to_string(),
            mask: mask_name(self.mask),
            forward: artifact::from_plan(&self.forward),
            backward: self.backward.as_deref().map(artifact::from_plan),
            stats: None,
        }
    }
}

/// Every plan of one layout.
#[derive(Debug)]
pub struct PlanSet {
    pub layout: String,
    pub classes: Vec<LayerClass>,
    /// Layers of kinds attnc does not plan, by kind.
    pub not_planned: Vec<artifact::NotPlanned>,
    /// The token split the classes were planned over (none when there is no class to plan).
    pub partition: Option<Partition>,
}

impl PlanSet {
    /// The one plan file format: what `attnc plan --emit json` prints, `attnc compile -o` writes
    /// and `attnc run --plan` reads.
    pub fn file(&self) -> artifact::PlanFile {
        artifact::PlanFile {
            version: artifact::ARTIFACT_VERSION,
            layout: self.layout.clone(),
            classes: self.classes.iter().map(LayerClass::file_class).collect(),
            not_planned: self.not_planned.clone(),
        }
    }

    /// Every plan, class by class, forward then backward.
    pub fn plans(&self) -> impl Iterator<Item = &Plan> {
        self.classes.iter().flat_map(|c| c.verified().map(Verified::plan))
    }
}

/// Groups consecutive and non-consecutive attention layers with equal settings (strategy, mask,
/// RoPE and its parameters, exchange), in order of first use. Layers of other kinds
/// (`LayerKind`) are in no class: attnc plans no work for them.
pub fn layer_classes(layout: &Layout) -> Vec<(Vec<Interval>, Strategy, Mask)> {
    let mut classes: Vec<(Vec<Interval>, Strategy, Mask)> = Vec::new();
    let first = |ranges: &[Interval]| &layout.layers[ranges[0].start as usize];
    let rope_of = |i: u64| layout.layers[i as usize].rope.then(|| layout.model.rope_of(i as u32)).flatten();
    for (i, s) in layout.layers.iter().enumerate() {
        let i = i as u64;
        if !s.kind.is_attention() {
            continue;
        }
        match classes.iter_mut().find(|(ranges, strategy, mask)| {
            *strategy == s.strategy
                && *mask == s.mask
                && first(ranges).rope == s.rope
                && rope_of(ranges[0].start) == rope_of(i)
                && first(ranges).exchange == s.exchange
        }) {
            Some((ranges, _, _)) => match ranges.last_mut() {
                Some(last) if last.end == i => last.end = i + 1,
                _ => ranges.push(Interval::new(i, i + 1)),
            },
            None => classes.push((vec![Interval::new(i, i + 1)], s.strategy.clone(), s.mask)),
        }
    }
    classes
}

pub use crate::ir::{display_intervals, display_layers};

/// The pipeline: per layer class, `lower` → `assign_slots` → `schedule`, each followed by the
/// verifier when verification is on (the final plan is always verified). Strategies are
/// concrete: `strategy = auto` is resolved above the pipeline (`crate::driver`).
pub fn compile(layout: &Layout, options: &PlanOptions) -> Result<PlanSet, PlanError> {
    let todo = layer_classes(layout);
    // The token split is the layout's, one for all its classes (a layout without attention
    // layers has none to plan and needs none).
    let partition = if todo.is_empty() { None } else { Some(setup::partition_of(layout, options)?) };
    let classes = match &partition {
        None => Vec::new(),
        Some(partition) => todo
            .into_iter()
            .map(|(layers, strategy, mask)| compile_class_over(layout, layers, strategy, mask, options, partition))
            .collect::<Result<_, _>>()?,
    };
    Ok(PlanSet { layout: layout.name.clone(), classes, not_planned: artifact::not_planned(layout), partition })
}

/// Plans one layer class with a concrete strategy.
pub fn compile_class(
    layout: &Layout,
    layers: Vec<Interval>,
    strategy: Strategy,
    mask: Mask,
    options: &PlanOptions,
) -> Result<LayerClass, PlanError> {
    let partition = setup::partition_of(layout, options)?;
    compile_class_over(layout, layers, strategy, mask, options, &partition)
}

/// [`compile_class`] over the layout's token split, computed by the caller.
fn compile_class_over(
    layout: &Layout,
    layers: Vec<Interval>,
    strategy: Strategy,
    mask: Mask,
    options: &PlanOptions,
    partition: &Partition,
) -> Result<LayerClass, PlanError> {
    let verify_each = options.verify || cfg!(debug_assertions);
    if strategy == Strategy::Auto {
        return Err(PlanError::Auto {
            layout: layout.name.clone(),
            layers: display_layers(&layers),
            reasons: Vec::new(),
            help: None,
        });
    }
    // A class's layers share their RoPE setting and exchange (`layer_classes`).
    let first = layers.first().and_then(|r| layout.layers.get(r.start as usize).map(|l| (r.start as u32, l)));
    let exchange = first.map_or(Exchange::Auto, |(_, l)| l.exchange);
    let rope = first.filter(|(_, l)| l.rope).and_then(|(i, _)| layout.model.rope_of(i));
    let setup = setup::setup(layout, mask, rope, exchange, options, partition)?;
    // The backward plan is lowered and verified on its own thread while the forward is on this
    // one (a THD batch's forward and backward plans are built per step, on a host that waits);
    // they share the class's blocks (`setup.blocks`). Errors are reported forward first.
    let failed = |direction, pass, errors| PlanError::Verify {
        layout: layout.name.clone(),
        layers: display_layers(&layers),
        direction,
        pass,
        errors,
    };
    let build = |direction: Direction| -> Result<Verified, PlanError> {
        let header = Header {
            layout: layout.name.clone(),
            layers: layers.clone(),
            strategy: strategy.name().to_string(),
            hierarchy: match &strategy {
                Strategy::A2aP2p { hierarchy } => hierarchy.clone(),
                _ => Vec::new(),
            },
            mask: mask_name(mask),
            direction,
            cp: setup.cp,
            gpus_per_node: layout.cluster.gpus_per_node,
        };
        let check = |plan: &Plan, pass: &'static str, stage: Stage| {
            if !verify_each {
                return Ok(());
            }
            verify::check(plan, stage).map(|_| ()).map_err(|errors| failed(direction, pass, errors))
        };
        let mut plan = lower::run(&setup, header, &strategy);
        dump_after(&plan, 1, "lower");
        check(&plan, "lower", Stage::Lowered)?;
        assign_slots::run(&mut plan);
        dump_after(&plan, 2, "assign_slots");
        check(&plan, "assign_slots", Stage::Lowered)?;
        schedule::run(&mut plan);
        dump_after(&plan, 3, "schedule");
        verify::prove(plan, Stage::Scheduled).map_err(|errors| failed(direction, "schedule", errors))
    };
    let (forward, backward) = if options.backward {
        let (forward, backward) = std::thread::scope(|scope| {
            let backward = scope.spawn(|| build(Direction::Backward));
            let forward = build(Direction::Forward);
            (forward, backward.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        (forward?, Some(backward?))
    } else {
        (build(Direction::Forward)?, None)
    };
    Ok(LayerClass { layers, strategy, mask, rope: rope.is_some(), forward, backward })
}

/// With `ATTNC_DUMP=DIR`, writes the plan's text after each pass to
/// `DIR/<layout>.<layers>.<direction>.<NN>-after-<pass>.txt`, so a broken pass shows as the diff
/// of two neighbouring files. Dumping is best effort: a directory that cannot be written is skipped.
fn dump_after(plan: &Plan, index: usize, pass: &str) {
    let Some(dir) = std::env::var_os("ATTNC_DUMP") else { return };
    let h = &plan.header;
    let layers = display_intervals(&h.layers).replace([' ', ','], "").replace("..", "-");
    let direction = if h.direction == Direction::Forward { "fwd" } else { "bwd" };
    let name = format!("{}.{layers}.{direction}.{index:02}-after-{pass}.txt", h.layout);
    let dir = std::path::PathBuf::from(dir);
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(dir.join(name), crate::ir::print::text(plan, None));
    }
}

/// A mask as plans and reports name it: as the spec writes it.
pub use crate::sema::unparse::mask_text as mask_name;
