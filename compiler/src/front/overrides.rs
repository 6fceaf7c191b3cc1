//! `--set ITEM.FIELD=VALUE`: overrides applied to the syntax tree before checking.
//!
//! Each flag becomes a source of its own (named `--set`), so a diagnostic about
//! an overridden value points into the flag's text. `FIELD` may be a path:
//! `llama.rope.theta=1e6` descends into the nested block `rope`, and
//! `two_nodes.intra.bandwidth=900GB/s` into the arguments of `intra = nvlink {...}`.
//! Per-layer blocks are not addressable. What a value means is left to `sema`.

use super::ast::*;
use super::parser::parse_value_at;
use crate::diag::{Code, Diagnostic};
use crate::span::{Sources, Span, Spanned};

/// One parsed `--set` flag.
#[derive(Clone, Debug)]
pub struct Override {
    /// `ITEM`, `FIELD` or `BLOCK.FIELD`, split at the dots.
    pub path: Vec<String>,
    pub value: Value,
    /// The flag's text as a source.
    pub flag: Span,
    /// The `ITEM` part of the flag.
    pub item_span: Span,
    /// The last part of the path.
    pub key_span: Span,
}

impl Override {
    pub fn item(&self) -> &str {
        &self.path[0]
    }
}

/// Parses every flag, each into a source of its own. Errors concern the flags' form.
pub fn parse_overrides(sources: &mut Sources, flags: &[String]) -> Result<Vec<Override>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut out = Vec::new();
    for flag in flags {
        let file = sources.add("--set", flag.clone());
        let whole = Span::new(file, 0, flag.len());
        let Some(eq) = flag.find('=') else {
            diags.push(
                Diagnostic::new(Code::Syntax, "`--set` takes ITEM.FIELD=VALUE", whole, "no `=` in this override")
                    .with_help("for example `--set pretrain.cp=4`"),
            );
            continue;
        };
        let path: Vec<String> = flag[..eq].split('.').map(|p| p.trim().to_string()).collect();
        let path_span = Span::new(file, 0, eq);
        let well_formed = |p: &String| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if path.len() < 2 || !path.iter().all(well_formed) {
            diags.push(
                Diagnostic::new(
                    Code::Syntax,
                    "`--set` takes ITEM.FIELD=VALUE",
                    path_span,
                    "expected `ITEM.FIELD` here",
                )
                .with_help("for example `--set pretrain.seq=2048`"),
            );
            continue;
        }
        match parse_value_at(file, flag, eq + 1) {
            Ok(value) => {
                let key_start = flag[..eq].rfind('.').map_or(0, |i| i + 1);
                out.push(Override {
                    item_span: Span::new(file, 0, flag.find('.').unwrap_or(eq)),
                    key_span: Span::new(file, key_start, eq),
                    flag: path_span,
                    path,
                    value,
                });
            }
            Err(errors) => diags.extend(errors),
        }
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

/// Applies the overrides to one file, in order. Returns, per override, whether the file has its item.
pub fn apply_overrides(tree: &mut SourceFile, overrides: &[Override]) -> Result<Vec<bool>, Vec<Diagnostic>> {
    let mut matched = Vec::new();
    let mut diags = Vec::new();
    for o in overrides {
        let Some(item) = tree.items.iter_mut().find(|i| i.name.node == o.item()) else {
            matched.push(false);
            continue;
        };
        matched.push(true);
        let key = Spanned::new(o.path[o.path.len() - 1].clone(), o.key_span);
        let parents: Vec<&str> = o.path[1..o.path.len() - 1].iter().map(String::as_str).collect();
        if let Err(diag) = set_in_block(&mut item.body, &parents, key, o.value.clone(), o.flag) {
            diags.push(diag);
        }
    }
    if diags.is_empty() { Ok(matched) } else { Err(diags) }
}

/// The error for an override whose item no file defines.
pub fn unknown_item(o: &Override, names: &[String]) -> Diagnostic {
    let mut diag = Diagnostic::new(
        Code::UnknownReference,
        format!("`--set` names no item `{}`", o.item()),
        o.item_span,
        "no model, cluster or layout has this name",
    );
    if let Some(s) = crate::suggest::nearest(o.item(), names.iter().map(String::as_str)) {
        diag = diag.with_help(format!("did you mean `{s}`?"));
    }
    diag
}

fn set_in_block(
    block: &mut Block,
    parents: &[&str],
    key: Spanned<String>,
    value: Value,
    flag_span: Span,
) -> Result<(), Diagnostic> {
    if let Some((first, rest)) = parents.split_first() {
        let position = block.entries.iter().position(|e| e.key().is_some_and(|k| k.node == *first));
        let index = match position {
            Some(index) => index,
            None => {
                block.entries.push(new_entry(EntryKind::Nested {
                    key: Spanned::new(first.to_string(), key.span),
                    body: empty_block(key.span),
                }));
                block.entries.len() - 1
            }
        };
        let inner = match &mut block.entries[index].kind {
            EntryKind::Nested { body, .. } => body,
            EntryKind::Field { value: Value { kind: ValueKind::Word { args, .. }, .. }, .. } => {
                args.get_or_insert_with(|| empty_block(key.span))
            }
            _ => {
                return Err(Diagnostic::new(
                    Code::WrongType,
                    format!("`{first}` has no fields to set"),
                    flag_span,
                    "this path goes through a value that is not a block",
                )
                .with_help(format!("set the whole value: `--set ...{first}=VALUE`")));
            }
        };
        return set_in_block(inner, rest, key, value, flag_span);
    }
    let span = key.span.to(value.span);
    let kind = EntryKind::Field { key, value };
    match block.entries.iter_mut().find(|e| e.key().is_some_and(|k| Some(k.node.as_str()) == field_name(&kind))) {
        Some(entry) => {
            entry.kind = kind;
            entry.span = span;
        }
        None => {
            let mut entry = new_entry(kind);
            entry.span = span;
            block.entries.push(entry);
        }
    }
    Ok(())
}

fn field_name(kind: &EntryKind) -> Option<&str> {
    match kind {
        EntryKind::Field { key, .. } => Some(&key.node),
        _ => None,
    }
}

fn new_entry(kind: EntryKind) -> Entry {
    Entry { kind, leading_comments: Vec::new(), trailing_comment: None, blank_before: false, span: Span::default() }
}

fn empty_block(span: Span) -> Block {
    Block { entries: Vec::new(), trailing_comments: Vec::new(), span }
}
