//! The attnc compiler: `.attn` specs in, verified context-parallel attention plans out.
//!
//! The pipeline reads top to bottom: [`front`] parses text into a syntax tree,
//! [`sema`] checks it and resolves a [`sema::Spec`]; later stages (plan IR,
//! passes, verifier, kernel IR, backends) build on that spec. This crate never
//! touches devices or threads; see `ARCHITECTURE.md`.

// Diagnostics are the error values of the front end and the checks; they are built
// once per problem, so their size on the `Err` path does not matter.
#![allow(clippy::result_large_err)]

pub mod back;
pub mod band;
pub mod compat;
pub mod cost;
pub mod diag;
pub mod driver;
pub mod expr;
pub mod front;
pub mod hybrid;
pub mod import;
pub mod ir;
pub mod kernel;
pub mod passes;
pub mod plan;
pub mod report;
pub mod rope;
pub mod sema;
pub mod span;
pub mod spec;
mod suggest;
pub mod tune;
pub mod verify;

use diag::Diagnostic;
use front::ast::SourceFile;
use front::overrides::Override;
use span::{FileId, Sources};

/// What the front end and the checks produced for one spec file.
pub struct Frontend {
    /// The resolved spec, when there are no errors.
    pub spec: Option<sema::Spec>,
    /// The syntax tree, overrides applied.
    pub tree: SourceFile,
    /// The trees of the files it includes, directly or not.
    pub included: Vec<SourceFile>,
    /// Every diagnostic, sorted by position: syntax errors, then what the checks found in what parsed.
    pub diagnostics: Vec<Diagnostic>,
    /// Per override: whether this file defines its item.
    pub matched: Vec<bool>,
    /// The layouts the `--for` target refuses (see [`sema::Checked::target_refused`]).
    pub target_refused: Vec<String>,
}

/// How a file is checked: the `--set` overrides, and the system it must run on (`--for te`).
#[derive(Clone, Copy, Default)]
pub struct UnitOptions<'a> {
    pub overrides: &'a [Override],
    pub target: Option<compat::te::Target>,
    /// Report the target's restrictions as warnings (W0006) rather than errors: `attnc tune`
    /// replaces the strategies they are about.
    pub target_warns: bool,
    /// The layouts are compiled for the GPU (`attnc compile --target sm_*`): the limits of attnc's
    /// GPU kernels and of the GPU's memory are errors (E0037, E0038), not warnings.
    pub gpu_kernels: bool,
    /// The directory file names are relative to (the working directory when `None`).
    pub base: Option<&'a std::path::Path>,
}

/// Parses one file and the files it includes, applies the `--set` overrides whose item they
/// define, and checks them together.
///
/// Each file given is checked on its own: item names are local to it and the files it includes.
pub fn compile_file(sources: &mut Sources, file: FileId, overrides: &[Override]) -> Frontend {
    compile_unit(sources, file, &UnitOptions { overrides, ..Default::default() })
}

/// [`compile_file`] with every option.
pub fn compile_unit(sources: &mut Sources, file: FileId, options: &UnitOptions<'_>) -> Frontend {
    let (mut tree, mut diagnostics) = front::parse_file(file, sources.text(file));
    let base = options.base.unwrap_or(std::path::Path::new(""));
    let (mut included, errors) = front::include::resolve(sources, &tree, base);
    diagnostics.extend(errors);
    let mut matched = vec![false; options.overrides.len()];
    for t in std::iter::once(&mut tree).chain(included.iter_mut()) {
        match front::overrides::apply_overrides(t, options.overrides) {
            Ok(m) => matched.iter_mut().zip(m).for_each(|(any, this)| *any |= this),
            Err(errors) => {
                diagnostics.extend(errors);
                matched = vec![true; options.overrides.len()];
            }
        }
    }
    // Checked together, the root first; taken apart again for the caller.
    let mut trees = vec![tree];
    trees.append(&mut included);
    let target = options.target.map(|t| sema::TargetCheck { target: t, errors: !options.target_warns });
    let checked = sema::check(&trees, target, options.gpu_kernels);
    // A file that could not be included may define what the layouts name: no cascade of
    // "no model named ..." behind the include error.
    let include_failed = diagnostics.iter().any(|d| d.code == diag::Code::Include);
    diagnostics.extend(
        checked.diagnostics.into_iter().filter(|d| !(include_failed && d.code == diag::Code::UnknownReference)),
    );
    diag::sort(&mut diagnostics);
    diagnostics.dedup();
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    let tree = trees.remove(0);
    Frontend {
        spec: if failed { None } else { checked.spec },
        tree,
        included: trees,
        diagnostics,
        matched,
        target_refused: checked.target_refused,
    }
}
