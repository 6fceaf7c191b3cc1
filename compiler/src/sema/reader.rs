//! Typed reading of blocks and values: unknown/duplicate/missing fields, types, ranges, units.
//!
//! A [`Reader`] is made for one block with the fields it allows; it reports
//! unknown and duplicate fields at once, then hands out typed values, each
//! getter reporting its own problem and returning `None` so checking goes on.

use std::collections::HashMap;

use crate::diag::{Code, Diagnostic};
use crate::front::ast::*;
use crate::span::{Span, Spanned};
use crate::suggest;

pub(crate) type Diags = Vec<Diagnostic>;

pub(crate) struct Reader<'a> {
    /// What the block belongs to, for messages: "model `llama3_8b`".
    pub what: String,
    /// Where a missing field is reported: the item's name, or the value a block argues.
    pub owner: Span,
    entries: HashMap<&'a str, &'a Entry>,
    pub layers: Vec<(&'a LayerRange, &'a Block)>,
}

impl<'a> Reader<'a> {
    pub fn new(block: Option<&'a Block>, allowed: &[&str], what: String, owner: Span, diags: &mut Diags) -> Self {
        let mut reader = Reader { what, owner, entries: HashMap::new(), layers: Vec::new() };
        let Some(block) = block else {
            return reader;
        };
        for entry in &block.entries {
            let key = match &entry.kind {
                EntryKind::Layer { range, body } if allowed.contains(&"layer") => {
                    reader.layers.push((range, body));
                    continue;
                }
                EntryKind::Layer { range, .. } => Spanned::new("layer".to_string(), range.span),
                EntryKind::Field { key, .. } | EntryKind::Nested { key, .. } => key.clone(),
            };
            // `layer` is allowed as a `layer A..B { ... }` block only, never as `layer = ...`.
            if !allowed.contains(&key.node.as_str())
                || matches!(&entry.kind, EntryKind::Field { .. } | EntryKind::Nested { .. } if key.node == "layer")
            {
                let fields: Vec<&str> = allowed.iter().copied().filter(|f| *f != "layer").collect();
                let mut diag = Diagnostic::new(
                    Code::UnknownField,
                    format!("unknown field `{}` in {}", key.node, reader.what),
                    key.span,
                    "unknown field",
                );
                diag = match suggest::nearest(&key.node, fields.iter().copied()) {
                    Some(s) => diag.with_help(format!("did you mean `{s}`?")),
                    None if fields.is_empty() => diag.with_help(format!("{} takes no fields", reader.what)),
                    None => diag.with_help(format!("the fields here are {}", suggest::one_of(&fields))),
                };
                diags.push(diag);
                continue;
            }
            let name: &'a str = match entry.key() {
                Some(k) => k.node.as_str(),
                None => continue,
            };
            if let Some(first) = reader.entries.get(name) {
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateField,
                        format!("field `{name}` is set twice in {}", reader.what),
                        key.span,
                        "set again here",
                    )
                    .with_secondary(first.key().map_or(first.span, |k| k.span), "first set here")
                    .with_help("remove one of them; to override a value without editing, use `--set`"),
                );
                continue;
            }
            reader.entries.insert(name, entry);
        }
        reader
    }

    pub fn has(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// The span of `key = value`'s value, when `key` is a plain field (not a block).
    pub fn field_span(&self, key: &str) -> Option<Span> {
        match &self.entries.get(key)?.kind {
            EntryKind::Field { value, .. } => Some(value.span),
            _ => None,
        }
    }

    pub fn key_span(&self, key: &str) -> Option<Span> {
        self.entries.get(key).and_then(|e| e.key()).map(|k| k.span)
    }

    /// The value of `key = value`; a block where a value is expected is a type error.
    pub fn value(&self, key: &str, expected: &str, diags: &mut Diags) -> Option<&'a Value> {
        match &self.entries.get(key)?.kind {
            EntryKind::Field { value, .. } => Some(value),
            EntryKind::Nested { key: k, body } => {
                diags.push(
                    Diagnostic::new(
                        Code::WrongType,
                        format!("`{key}` takes a value, not a block"),
                        k.span.to(body.span),
                        format!("expected {expected}"),
                    )
                    .with_help(format!("write `{key} = ...`")),
                );
                None
            }
            EntryKind::Layer { .. } => None,
        }
    }

    pub fn missing(&self, key: &str, example: &str, diags: &mut Diags) {
        diags.push(
            Diagnostic::new(
                Code::MissingField,
                format!("{} has no `{key}`", self.what),
                self.owner,
                format!("`{key}` is required here"),
            )
            .with_help(format!("add `{key} = {example}`")),
        );
    }

    /// A nested block `key { ... }`.
    pub fn nested(&self, key: &str, diags: &mut Diags) -> Option<&'a Block> {
        match &self.entries.get(key)?.kind {
            EntryKind::Nested { body, .. } => Some(body),
            EntryKind::Field { value, .. } => {
                diags.push(
                    Diagnostic::new(
                        Code::WrongType,
                        format!("`{key}` takes a block"),
                        value.span,
                        "expected `{ ... }`",
                    )
                    .with_help(format!("write `{key} {{ ... }}`")),
                );
                None
            }
            EntryKind::Layer { .. } => None,
        }
    }

    pub fn int(&self, key: &str, min: u64, max: u64, diags: &mut Diags) -> Option<Spanned<u64>> {
        let value = self.value(key, "an integer", diags)?;
        int_value(value, key, min, max).map_err(|d| diags.push(d)).ok()
    }

    pub fn required_int(
        &self,
        key: &str,
        min: u64,
        max: u64,
        example: &str,
        diags: &mut Diags,
    ) -> Option<Spanned<u64>> {
        if !self.has(key) {
            self.missing(key, example, diags);
            return None;
        }
        self.int(key, min, max, diags)
    }

    pub fn float(&self, key: &str, min_exclusive: f64, diags: &mut Diags) -> Option<f64> {
        let value = self.value(key, "a number", diags)?;
        float_value(value, key, min_exclusive).map_err(|d| diags.push(d)).ok()
    }

    pub fn quantity(&self, key: &str, kind: QuantityKind, diags: &mut Diags) -> Option<f64> {
        let value = self.value(key, kind.expected(), diags)?;
        quantity_value(value, key, kind).map_err(|d| diags.push(d)).ok()
    }

    pub fn bool(&self, key: &str, diags: &mut Diags) -> Option<bool> {
        let value = self.value(key, "`true` or `false`", diags)?;
        let word = word_value(value, key, &["true", "false"]).map_err(|d| diags.push(d)).ok()?;
        no_args(&word, diags);
        Some(word.name.node == "true")
    }

    /// A name from `choices`, possibly with an argument block.
    pub fn word(&self, key: &str, choices: &[&'static str], diags: &mut Diags) -> Option<WordValue<'a>> {
        let value = self.value(key, "a name", diags)?;
        word_value(value, key, choices).map_err(|d| diags.push(d)).ok()
    }

    /// A name with no validation of which: an item reference.
    pub fn reference(&self, key: &str, diags: &mut Diags) -> Option<&'a Ident> {
        let value = self.value(key, "a name", diags)?;
        match &value.kind {
            ValueKind::Word { name, args: None } => Some(name),
            _ => {
                diags.push(wrong_type(value, key, "the name of an item"));
                None
            }
        }
    }

    /// A list of plain names (`params = [slope, temp]`), each with its span.
    pub fn name_list(&self, key: &str, diags: &mut Diags) -> Option<Vec<&'a Ident>> {
        let value = self.value(key, "a list of names", diags)?;
        let ValueKind::List(values) = &value.kind else {
            diags.push(wrong_type(value, key, "a list of names such as `[slope]`"));
            return None;
        };
        let mut out = Vec::new();
        for v in values {
            match &v.kind {
                ValueKind::Word { name, args: None } => out.push(name),
                _ => {
                    diags.push(wrong_type(v, key, "a name"));
                    return None;
                }
            }
        }
        Some(out)
    }

    pub fn int_list(&self, key: &str, min: u64, max: u64, diags: &mut Diags) -> Option<Spanned<Vec<u64>>> {
        let value = self.value(key, "a list", diags)?;
        let ValueKind::List(values) = &value.kind else {
            diags.push(wrong_type(value, key, "a list such as `[8, 2]`"));
            return None;
        };
        let mut out = Vec::new();
        for v in values {
            out.push(int_value(v, key, min, max).map_err(|d| diags.push(d)).ok()?.node);
        }
        Some(Spanned::new(out, value.span))
    }
}

/// A name-valued field: which name, its arguments, and where it was written.
pub(crate) struct WordValue<'a> {
    pub name: &'a Ident,
    pub args: Option<&'a Block>,
    pub span: Span,
}

/// Reports arguments given to a name that takes none.
pub(crate) fn no_args(word: &WordValue<'_>, diags: &mut Diags) {
    if let Some(args) = word.args {
        Reader::new(Some(args), &[], format!("`{}`", word.name.node), word.name.span, diags);
    }
}

fn describe(value: &Value) -> &'static str {
    match &value.kind {
        ValueKind::Number(n) if n.unit.is_some() => "a number with a unit",
        ValueKind::Number(_) => "a number",
        ValueKind::Word { .. } => "a name",
        ValueKind::List(_) => "a list",
        ValueKind::Expr(_) => "an expression",
    }
}

pub(crate) fn wrong_type(value: &Value, key: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(
        Code::WrongType,
        format!("`{key}` takes {expected}, found {}", describe(value)),
        value.span,
        format!("expected {expected}"),
    )
}

fn out_of_range(span: Span, key: &str, min: u64, max: u64, what: &str) -> Diagnostic {
    let range = if max == u64::MAX { format!("at least {min}") } else { format!("from {min} to {max}") };
    Diagnostic::new(Code::OutOfRange, format!("`{key}` is out of range: {what}"), span, format!("expected {range}"))
        .with_help(format!("`{key}` takes a whole number {range}"))
}

/// Interprets a literal: `131_072`, `128K` (×1024), `1M` (×1024²), `5e5`.
fn literal(text: &str) -> Option<f64> {
    let (digits, scale) = match text.chars().last() {
        Some('K') => (&text[..text.len() - 1], 1024.0),
        Some('M') => (&text[..text.len() - 1], 1024.0 * 1024.0),
        Some('G') => (&text[..text.len() - 1], 1024.0 * 1024.0 * 1024.0),
        _ => (text, 1.0),
    };
    let cleaned: String = digits.chars().filter(|c| *c != '_').collect();
    cleaned.parse::<f64>().ok().map(|v| v * scale)
}

pub(crate) fn int_value(value: &Value, key: &str, min: u64, max: u64) -> Result<Spanned<u64>, Diagnostic> {
    let ValueKind::Number(number) = &value.kind else {
        return Err(wrong_type(value, key, "an integer"));
    };
    int_literal(number, key, min, max)
}

pub(crate) fn int_literal(number: &Number, key: &str, min: u64, max: u64) -> Result<Spanned<u64>, Diagnostic> {
    if let Some(unit) = &number.unit {
        // `128k`: a size suffix in the wrong case, not a unit.
        if let Some(upper) = ["k", "m", "g"].iter().find(|s| unit.node == **s).map(|s| s.to_ascii_uppercase()) {
            return Err(Diagnostic::new(
                Code::BadUnit,
                format!("`{}` is not a size suffix", unit.node),
                unit.span,
                "lower-case suffix",
            )
            .with_note("the size suffixes are binary and upper case: K = 1024, M = 1024², G = 1024³")
            .with_help(format!("write `{key} = {}{upper}`", number.text)));
        }
        return Err(Diagnostic::new(
            Code::BadUnit,
            format!("`{key}` is a count and takes no unit"),
            unit.span,
            "unexpected unit",
        )
        .with_help(format!("write `{key} = {}`", number.text)));
    }
    let plain: String = number.text.chars().filter(|c| *c != '_').collect();
    let exact = plain.parse::<u64>().ok();
    let value = match exact {
        Some(v) => Some(v),
        None => match literal(&number.text) {
            Some(f) if f < 0.0 => {
                return Err(out_of_range(number.span, key, min, max, &format!("{} is negative", number.text)));
            }
            Some(f) if f.fract() != 0.0 => {
                return Err(out_of_range(
                    number.span,
                    key,
                    min,
                    max,
                    &format!("{} is not a whole number", number.text),
                ));
            }
            Some(f) if f < 9.007_199_254_740_992e15 => Some(f as u64),
            _ => None,
        },
    };
    match value {
        Some(v) if v >= min && v <= max => Ok(Spanned::new(v, number.span)),
        Some(v) => Err(out_of_range(number.span, key, min, max, &format!("{v}"))),
        None => Err(out_of_range(number.span, key, min, max, &format!("{} is too large", number.text))),
    }
}

fn float_value(value: &Value, key: &str, min_exclusive: f64) -> Result<f64, Diagnostic> {
    let ValueKind::Number(number) = &value.kind else {
        return Err(wrong_type(value, key, "a number"));
    };
    if let Some(unit) = &number.unit {
        return Err(Diagnostic::new(Code::BadUnit, format!("`{key}` takes no unit"), unit.span, "unexpected unit"));
    }
    match literal(&number.text) {
        Some(v) if v.is_finite() && v > min_exclusive => Ok(v),
        _ => Err(Diagnostic::new(
            Code::OutOfRange,
            format!("`{key}` is out of range: {}", number.text),
            number.span,
            format!("expected a number greater than {min_exclusive}"),
        )),
    }
}

#[derive(Clone, Copy)]
pub(crate) enum QuantityKind {
    Bandwidth,
    Latency,
}

impl QuantityKind {
    fn expected(self) -> &'static str {
        match self {
            QuantityKind::Bandwidth => "a bandwidth such as `450 GB/s`",
            QuantityKind::Latency => "a latency such as `3 us`",
        }
    }

    fn units(self) -> &'static [(&'static str, f64)] {
        match self {
            // Bytes, as vendors quote links, and bits, as network cards are sold (400 Gb/s NDR
            // InfiniBand is 50 GB/s).
            QuantityKind::Bandwidth => &[
                ("B/s", 1.0),
                ("KB/s", 1e3),
                ("MB/s", 1e6),
                ("GB/s", 1e9),
                ("TB/s", 1e12),
                ("b/s", 1.0 / 8.0),
                ("Kb/s", 1e3 / 8.0),
                ("Mb/s", 1e6 / 8.0),
                ("Gb/s", 1e9 / 8.0),
                ("Tb/s", 1e12 / 8.0),
            ],
            QuantityKind::Latency => &[("ns", 1e-9), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0)],
        }
    }
}

/// A number with a unit, in base units (bytes per second, seconds).
fn quantity_value(value: &Value, key: &str, kind: QuantityKind) -> Result<f64, Diagnostic> {
    let ValueKind::Number(number) = &value.kind else {
        return Err(wrong_type(value, key, kind.expected()));
    };
    let names: Vec<&str> = kind.units().iter().map(|u| u.0).collect();
    let Some(unit) = &number.unit else {
        return Err(Diagnostic::new(Code::BadUnit, format!("`{key}` needs a unit"), number.span, "no unit")
            .with_help(format!("write it with one of {}", suggest::one_of(&names))));
    };
    let Some(&(_, scale)) = kind.units().iter().find(|u| u.0 == unit.node) else {
        let mut diag = Diagnostic::new(
            Code::BadUnit,
            format!("`{}` is not a unit of `{key}`", unit.node),
            unit.span,
            "unknown unit here",
        );
        let bits_or_bytes = |s: &str| {
            let other = if s.contains('B') { s.replace('B', "b") } else { s.replace('b', "B") };
            let (bytes, bits) = if s.contains('B') { (s.to_string(), other) } else { (other, s.to_string()) };
            format!("write `{bytes}` for bytes per second or `{bits}` for bits per second (400 Gb/s = 50 GB/s)")
        };
        diag = match suggest::nearest(&unit.node, names.iter().copied()) {
            // `gb/s`: bits or bytes is the user's to say.
            Some(s) if s.to_ascii_lowercase().ends_with("b/s") && s.eq_ignore_ascii_case(&unit.node) => {
                diag.with_help(bits_or_bytes(s))
            }
            Some(s) => diag.with_help(format!("did you mean `{s}`?")),
            None => diag.with_help(format!("`{key}` takes {}", suggest::one_of(&names))),
        };
        return Err(diag);
    };
    match literal(&number.text) {
        Some(v) if v.is_finite() && v > 0.0 => Ok(v * scale),
        _ => Err(Diagnostic::new(
            Code::OutOfRange,
            format!("`{key}` must be positive"),
            number.span,
            "expected a positive number",
        )),
    }
}

fn word_value<'a>(value: &'a Value, key: &str, choices: &[&str]) -> Result<WordValue<'a>, Diagnostic> {
    let ValueKind::Word { name, args } = &value.kind else {
        return Err(wrong_type(value, key, &format!("one of {}", suggest::one_of(choices))));
    };
    if !choices.contains(&name.node.as_str()) {
        let mut diag = Diagnostic::new(
            Code::UnknownValue,
            format!("`{}` is not a value of `{key}`", name.node),
            name.span,
            "unknown value",
        );
        diag = match suggest::nearest(&name.node, choices.iter().copied()) {
            Some(s) => diag.with_help(format!("did you mean `{s}`? `{key}` takes {}", suggest::one_of(choices))),
            None => diag.with_help(format!("`{key}` takes {}", suggest::one_of(choices))),
        };
        return Err(diag);
    }
    Ok(WordValue { name, args: args.as_ref(), span: value.span })
}
