//! Semantic checks: from syntax trees to a resolved [`Spec`], with every problem reported.
//!
//! Items are resolved models first, then clusters, then layouts (which refer
//! to the other two). Names are global to the files checked together. A
//! layout whose model or cluster failed its own checks is skipped without
//! piling further errors on the same cause.

mod items;
mod layout;
mod presets;
mod reader;
mod resources;
pub mod unparse;

use std::collections::HashMap;

pub use crate::spec::{self, Spec};

use crate::diag::{self, Code, Diagnostic};
use crate::front::ast::{ItemKind, SourceFile};
use crate::span::Span;

pub use presets::gpu_names;

/// The outcome of checking: the spec when there are no errors, and every diagnostic (warnings too).
pub struct Checked {
    pub spec: Option<Spec>,
    pub diagnostics: Vec<Diagnostic>,
    /// The layouts the `--for` target refuses (E0031), by name: where a search for changes that
    /// make them run may help.
    pub target_refused: Vec<String>,
}

/// How the `--for` target is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetCheck {
    pub target: crate::compat::te::Target,
    /// Errors (E0031), or warnings (W0006) naming the target's version.
    pub errors: bool,
}

/// Checks files together (item names are global to them). With `target`, TransformerEngine's
/// restrictions for that version are reported (errors unless asked otherwise); without, those of
/// the newest TE are warnings.
///
/// `gpu_kernels`: the layouts are compiled for the GPU (`attnc compile --target sm_*`): what
/// attnc's GPU kernels cannot run, and memory a GPU cannot hold, are errors.
pub fn check(files: &[SourceFile], target: Option<TargetCheck>, gpu_kernels: bool) -> Checked {
    let mut diags = Vec::new();
    let mut kinds: HashMap<String, ItemKind> = HashMap::new();
    let mut first_span: HashMap<String, Span> = HashMap::new();
    let mut unique = Vec::new();
    for item in files.iter().flat_map(|f| &f.items) {
        if let Some(first) = first_span.get(&item.name.node) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateItem,
                    format!("`{}` is defined twice", item.name.node),
                    item.name.span,
                    format!("{} `{}` redefined here", item.kind.node.keyword(), item.name.node),
                )
                .with_secondary(*first, "first defined here")
                .with_help("give each model, cluster and layout its own name"),
            );
            continue;
        }
        first_span.insert(item.name.node.clone(), item.name.span);
        kinds.insert(item.name.node.clone(), item.kind.node);
        unique.push(item);
    }

    let mut models = HashMap::new();
    let mut clusters = HashMap::new();
    let mut spec = Spec { version: spec::SPEC_VERSION, models: Vec::new(), clusters: Vec::new(), layouts: Vec::new() };
    // An item with syntax errors keeps its name (references to it resolve to nothing,
    // quietly) but is not checked: what the parser skipped would show up as missing.
    for item in unique.iter().filter(|i| !i.recovered) {
        match item.kind.node {
            ItemKind::Model => {
                if let Some(info) = items::model(item, &mut diags) {
                    spec.models.push(info.model.clone());
                    models.insert(item.name.node.clone(), info);
                }
            }
            ItemKind::Cluster => {
                if let Some(info) = items::cluster(item, &mut diags) {
                    spec.clusters.push(info.cluster.clone());
                    clusters.insert(item.name.node.clone(), info);
                }
            }
            ItemKind::Layout => {}
        }
    }
    let strict = resources::Strictness {
        gpu_kernels,
        memory: gpu_kernels || target.is_some_and(|t| t.errors),
        whole_shards: target.is_some(),
    };
    let scope = layout::Scope { kinds: &kinds, models: &models, clusters: &clusters, target, strict };
    let mut target_refused = Vec::new();
    let refusals = |diags: &[Diagnostic]| diags.iter().filter(|d| d.code == Code::TeUnsupported).count();
    for item in unique.iter().filter(|i| i.kind.node == ItemKind::Layout && !i.recovered) {
        let before = refusals(&diags);
        if let Some(layout) = layout::layout(item, &scope, &mut diags) {
            spec.layouts.push(layout);
        }
        if refusals(&diags) > before {
            target_refused.push(item.name.node.clone());
        }
    }
    diag::sort(&mut diags);
    // A layer block that keeps the layout's strategy or mask repeats the layout's own findings at
    // the same place: report each once.
    diags.dedup();
    let failed = diags.iter().any(Diagnostic::is_error);
    Checked { spec: if failed { None } else { Some(spec) }, diagnostics: diags, target_refused }
}
