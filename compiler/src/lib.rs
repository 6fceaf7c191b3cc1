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
pub mod cost;
pub mod diag;
pub mod front;
pub mod hybrid;
pub mod ir;
pub mod kernel;
pub mod passes;
pub mod plan;
pub mod sema;
mod suggest;
pub mod tune;
pub mod verify;

use diag::Diagnostic;
use front::ast::SourceFile;
use front::overrides::Override;
use front::span::{FileId, Sources};

/// What the front end and the checks produced for one spec file.
pub struct Frontend {
    /// The resolved spec, when there are no errors.
    pub spec: Option<sema::Spec>,
    /// The syntax tree, overrides applied.
    pub tree: SourceFile,
    /// Every diagnostic, sorted by position: syntax errors, then what the checks found in what parsed.
    pub diagnostics: Vec<Diagnostic>,
    /// Per override: whether this file defines its item.
    pub matched: Vec<bool>,
}

/// Parses one file, applies the `--set` overrides whose item it defines, and checks it.
///
/// Each file is checked on its own: item names are local to their file.
pub fn compile_file(sources: &Sources, file: FileId, overrides: &[Override]) -> Frontend {
    let (mut tree, mut diagnostics) = front::parse_file(file, sources.text(file));
    let matched = match front::overrides::apply_overrides(&mut tree, overrides) {
        Ok(matched) => matched,
        Err(errors) => {
            diagnostics.extend(errors);
            vec![true; overrides.len()]
        }
    };
    let checked = sema::check(std::slice::from_ref(&tree));
    diagnostics.extend(checked.diagnostics);
    diag::sort(&mut diagnostics);
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    Frontend { spec: if failed { None } else { checked.spec }, tree, diagnostics, matched }
}
