//! Source files and byte-offset spans; nothing here knows the grammar.
//!
//! A [`Span`] names a file of a [`Sources`] table and a half-open byte range
//! in it. Flags such as `--set pretrain.cp=4` are sources too, so a
//! diagnostic about an overridden value points into the flag's own text.

use std::ops::Range;

use codespan_reporting::files::SimpleFiles;

/// A typed index into [`Sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both (which must be in the same file).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A value with the span it was written at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// Every source text a run has read: spec files and command-line overrides.
#[derive(Default)]
pub struct Sources {
    files: SimpleFiles<String, String>,
    count: u32,
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = self.files.add(name.into(), text.into());
        debug_assert_eq!(id as u32, self.count);
        self.count += 1;
        FileId(id as u32)
    }

    pub fn text(&self, file: FileId) -> &str {
        self.files.get(file.0 as usize).map(|f| f.source().as_str()).unwrap_or("")
    }

    pub fn name(&self, file: FileId) -> &str {
        self.files.get(file.0 as usize).map(|f| f.name().as_str()).unwrap_or("<unknown>")
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text(span.file).get(span.range()).unwrap_or("")
    }

    /// One-based line and column of a byte offset, for messages outside codespan.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let text = self.text(span.file);
        let start = (span.start as usize).min(text.len());
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    pub(crate) fn files(&self) -> &SimpleFiles<String, String> {
        &self.files
    }
}
