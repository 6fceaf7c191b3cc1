//! Diagnostics: typed codes, labelled spans, help lines, rendered like rustc's.
//!
//! Every phase (front end, semantic checks, later the planner) returns its
//! problems as a `Vec<Diagnostic>`; nothing here stops at the first error.
//! Rendering goes through codespan-reporting, without colour, so the
//! rendered text can be stored as a golden file.

mod codes;

pub use codes::Code;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;

use crate::span::{Sources, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub help: Vec<String>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic whose severity is the code's own (errors for `E…`, warnings for `W…`).
    pub fn new(code: Code, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            message: message.into(),
            primary: Label { span, message: label.into() },
            secondary: Vec::new(),
            help: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: label.into() });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_notes_if(self, condition: bool, note: impl Into<String>) -> Self {
        if condition { self.with_note(note) } else { self }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    fn to_codespan(&self) -> cs::Diagnostic<usize> {
        let severity = match self.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
        };
        let mut labels = vec![
            cs::Label::primary(self.primary.span.file.0 as usize, self.primary.span.range())
                .with_message(&self.primary.message),
        ];
        for label in &self.secondary {
            labels.push(
                cs::Label::secondary(label.span.file.0 as usize, label.span.range()).with_message(&label.message),
            );
        }
        let mut notes: Vec<String> = self.notes.iter().map(|n| format!("note: {n}")).collect();
        notes.extend(self.help.iter().map(|h| format!("help: {h}")));
        cs::Diagnostic::new(severity)
            .with_code(self.code.as_str())
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(notes)
    }
}

/// Renders diagnostics as plain text, in the order given, like rustc without colour.
pub fn render(sources: &Sources, diagnostics: &[Diagnostic]) -> String {
    let config = term::Config::default();
    let mut out = String::new();
    for diagnostic in diagnostics {
        // A span outside its file would be a compiler bug; render what we can.
        if term::emit_to_string(&mut out, &config, sources.files(), &diagnostic.to_codespan()).is_err() {
            out.push_str(&format!(
                "{}[{}]: {}\n",
                severity_word(diagnostic.severity),
                diagnostic.code.as_str(),
                diagnostic.message
            ));
        }
    }
    out
}

/// The terminal colour types, re-exported so callers need no dependency of their own.
pub use codespan_reporting::term::termcolor;

/// Writes diagnostics to a colour-capable stream (stderr on a terminal), like rustc.
pub fn emit(
    sources: &Sources,
    diagnostics: &[Diagnostic],
    writer: &mut dyn termcolor::WriteColor,
) -> std::io::Result<()> {
    let config = term::Config::default();
    for diagnostic in diagnostics {
        term::emit_to_write_style(writer, &config, sources.files(), &diagnostic.to_codespan())
            .map_err(std::io::Error::other)?;
    }
    Ok(())
}

/// The closing summary line, as rustc prints it.
pub fn summary(diagnostics: &[Diagnostic]) -> Option<String> {
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
    match (errors, warnings) {
        (0, 0) => None,
        (0, w) => Some(format!("warning: {w} warning{} emitted", plural(w))),
        (e, 0) => Some(format!("error: aborting due to {e} error{}", plural(e))),
        (e, w) => Some(format!("error: aborting due to {e} error{}; {w} warning{} emitted", plural(e), plural(w))),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// Sorts diagnostics by file and position so output is stable whatever order the checks ran in.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| (d.primary.span.file, d.primary.span.start, d.code));
}
