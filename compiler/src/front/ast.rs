//! The syntax tree of a spec file: items, blocks, fields and values, with spans and comments.
//!
//! The tree is generic: it does not know which fields an item takes (that is
//! `sema`'s business), only the shapes the grammar allows. Comments and blank
//! lines are kept so `attnc fmt` can print them back.

use crate::span::{FileId, Span, Spanned};

pub type Ident = Spanned<String>;

#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    pub file: FileId,
    /// `include "PATH"` lines, in source order (printed first by `attnc fmt`).
    pub includes: Vec<Include>,
    pub items: Vec<Item>,
    /// Comments after the last item.
    pub trailing_comments: Vec<String>,
}

/// `include "models.attn"`: the items of another file, its path relative to this file's directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Include {
    /// The path as written, without the quotes; the span covers the quoted string.
    pub path: Spanned<String>,
    pub leading_comments: Vec<String>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    Model,
    Cluster,
    Layout,
}

impl ItemKind {
    pub const ALL: [ItemKind; 3] = [ItemKind::Model, ItemKind::Cluster, ItemKind::Layout];

    pub fn keyword(self) -> &'static str {
        match self {
            ItemKind::Model => "model",
            ItemKind::Cluster => "cluster",
            ItemKind::Layout => "layout",
        }
    }

    pub fn from_keyword(word: &str) -> Option<ItemKind> {
        ItemKind::ALL.into_iter().find(|k| k.keyword() == word)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub kind: Spanned<ItemKind>,
    pub name: Ident,
    pub body: Block,
    pub leading_comments: Vec<String>,
    /// The parser reported a syntax error inside this item and skipped part of it;
    /// `sema` then leaves the item unchecked rather than report what is missing.
    pub recovered: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub entries: Vec<Entry>,
    /// Comments after the last entry, before the closing brace.
    pub trailing_comments: Vec<String>,
    /// From `{` to `}` inclusive.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub kind: EntryKind,
    pub leading_comments: Vec<String>,
    pub trailing_comment: Option<String>,
    /// The source had an empty line before this entry (kept by `fmt`).
    pub blank_before: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EntryKind {
    /// `key = value`
    Field { key: Ident, value: Value },
    /// `key { ... }`, e.g. `rope { theta = 500000 }`
    Nested { key: Ident, body: Block },
    /// `layer 0..4 [step 2] { ... }`
    Layer { range: LayerRange, body: Block },
}

impl Entry {
    /// The name the entry sets, or `layer` for a per-layer block.
    pub fn key(&self) -> Option<&Ident> {
        match &self.kind {
            EntryKind::Field { key, .. } | EntryKind::Nested { key, .. } => Some(key),
            EntryKind::Layer { .. } => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LayerRange {
    pub start: Number,
    pub end: Number,
    pub step: Option<Number>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub kind: ValueKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind {
    /// `131072`, `128K`, `450 GB/s`, `0.5`
    Number(Number),
    /// `causal`, `a2a+p2p`, `true`, optionally with arguments: `causal { window = 4096 }`
    Word { name: Ident, args: Option<Block> },
    /// `[8, 2]`
    List(Vec<Value>),
    /// `k <= q & q - k < 128`: a value that goes on past a name or a number with an operator
    /// (or starts with `(` or `!`) is an expression, up to the end of its line, a `#`, or a `,`,
    /// `}` or `]` outside parentheses. Its spans are byte offsets into the file.
    Expr(crate::expr::Expr),
}

/// A numeric literal as written; `sema` interprets it (integer or not, suffix, unit).
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    /// The literal without its unit: `-3`, `128K`, `1_000`, `5e5`, `0.25`.
    pub text: String,
    pub unit: Option<Ident>,
    /// The literal and its unit.
    pub span: Span,
}

/// Replaces every span by the default one, so trees can be compared for equality of content.
pub trait StripSpans {
    fn strip_spans(&mut self);
}

fn strip(span: &mut Span) {
    *span = Span::default();
}

impl StripSpans for SourceFile {
    fn strip_spans(&mut self) {
        self.file = FileId::default();
        for include in &mut self.includes {
            strip(&mut include.path.span);
            strip(&mut include.span);
        }
        self.items.iter_mut().for_each(StripSpans::strip_spans);
    }
}

impl StripSpans for Item {
    fn strip_spans(&mut self) {
        strip(&mut self.kind.span);
        strip(&mut self.name.span);
        strip(&mut self.span);
        self.body.strip_spans();
    }
}

impl StripSpans for Block {
    fn strip_spans(&mut self) {
        strip(&mut self.span);
        self.entries.iter_mut().for_each(StripSpans::strip_spans);
    }
}

impl StripSpans for Entry {
    fn strip_spans(&mut self) {
        strip(&mut self.span);
        match &mut self.kind {
            EntryKind::Field { key, value } => {
                strip(&mut key.span);
                value.strip_spans();
            }
            EntryKind::Nested { key, body } => {
                strip(&mut key.span);
                body.strip_spans();
            }
            EntryKind::Layer { range, body } => {
                strip(&mut range.span);
                range.start.strip_spans();
                range.end.strip_spans();
                if let Some(step) = &mut range.step {
                    step.strip_spans();
                }
                body.strip_spans();
            }
        }
    }
}

impl StripSpans for Value {
    fn strip_spans(&mut self) {
        strip(&mut self.span);
        match &mut self.kind {
            ValueKind::Number(n) => n.strip_spans(),
            ValueKind::Word { name, args } => {
                strip(&mut name.span);
                if let Some(args) = args {
                    args.strip_spans();
                }
            }
            ValueKind::List(values) => values.iter_mut().for_each(StripSpans::strip_spans),
            ValueKind::Expr(e) => e.visit_spans(&mut |span| *span = (0, 0)),
        }
    }
}

impl StripSpans for Number {
    fn strip_spans(&mut self) {
        strip(&mut self.span);
        if let Some(unit) = &mut self.unit {
            strip(&mut unit.span);
        }
    }
}
