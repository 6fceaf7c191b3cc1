//! The parser of `.attn` files: nom parsers for tokens, recursive descent for structure.
//!
//! Errors are collected, not first-wins: a bad field is skipped to the end of
//! its line (or the next `,` or `}`), a bad item to the next line that starts
//! with an item keyword, and a block left open is closed where the next item
//! starts. Every loop consumes input before it goes round again, so no input
//! makes the parser hang, and nesting is bounded, so none overflows the stack.
//! nom's error types stop here: callers see only [`Diagnostic`]s.

use nom::{
    IResult, Parser as _,
    bytes::complete::{take_while, take_while1},
    character::complete::{char, digit1, one_of, satisfy},
    combinator::{not, opt, recognize},
    multi::separated_list1,
    sequence::{pair, terminated},
};

use super::ast::*;
use crate::diag::{Code, Diagnostic};
use crate::span::{FileId, Span, Spanned};

/// Blocks and lists nested deeper than this are an error (no real spec comes close).
const MAX_DEPTH: usize = 32;

/// Parses a whole file. The tree holds everything that parsed; the diagnostics, everything that did not.
pub fn parse_file(file: FileId, src: &str) -> (SourceFile, Vec<Diagnostic>) {
    let mut p = Parser::new(file, src, 0);
    let source_file = p.file();
    (source_file, p.diags)
}

/// Parses one value starting at byte `offset` of `src` (used for `--set ITEM.FIELD=VALUE`).
pub fn parse_value_at(file: FileId, src: &str, offset: usize) -> Result<Value, Vec<Diagnostic>> {
    let mut p = Parser::new(file, src, offset);
    p.skip_inline();
    let value = p.value();
    p.skip_inline();
    if value.is_some() && p.peek().is_some() {
        let span = p.span_from(p.pos, src.len());
        p.error(span, "unexpected text after the value", "expected the end of the value here");
    }
    match value {
        Some(value) if p.diags.is_empty() => Ok(value),
        _ => Err(p.diags),
    }
}

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
}

/// A name, possibly joined by `+` as in `a2a+p2p`.
fn word(i: &str) -> IResult<&str, &str> {
    recognize(separated_list1(char('+'), ident)).parse(i)
}

/// A numeric literal: sign, digits with `_`, fraction, exponent, and a binary suffix `K`/`M`/`G`.
fn number(i: &str) -> IResult<&str, &str> {
    let suffix = terminated(one_of("KMG"), not(satisfy(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '/')));
    recognize((
        opt(one_of("+-")),
        digit1,
        take_while(|c: char| c.is_ascii_digit() || c == '_'),
        opt((char('.'), digit1)),
        opt((one_of("eE"), opt(one_of("+-")), digit1)),
        opt(suffix),
    ))
    .parse(i)
}

/// A unit after a number: `us`, `GB/s`.
fn unit(i: &str) -> IResult<&str, &str> {
    recognize((
        take_while1(|c: char| c.is_ascii_alphabetic()),
        opt((char('/'), take_while1(|c: char| c.is_ascii_alphabetic()))),
    ))
    .parse(i)
}

struct Trivia {
    /// Comment text (after `#`), and whether a line break came before it.
    comments: Vec<(String, bool)>,
    /// An empty line came before the next token.
    blank_line: bool,
}

struct Parser<'a> {
    src: &'a str,
    file: FileId,
    pos: usize,
    depth: usize,
    diags: Vec<Diagnostic>,
}

impl<'a> Parser<'a> {
    fn new(file: FileId, src: &'a str, pos: usize) -> Self {
        Parser { src, file, pos, depth: 0, diags: Vec::new() }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    fn span_from(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// The span of the character at the cursor (or an empty span at the end of the file).
    fn here(&self) -> Span {
        let len = self.peek().map_or(0, char::len_utf8);
        self.span_from(self.pos, self.pos + len)
    }

    fn error(&mut self, span: Span, message: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diagnostic::new(Code::Syntax, message, span, label));
    }

    /// Reports a syntax error at the cursor; `message` gets a description of what is there.
    fn error_found(&mut self, message: impl FnOnce(String) -> String, label: &str) {
        let here = self.here();
        let found = self.found();
        self.error(here, message(found), label);
    }

    /// Steps over an opening `{` or `[`, refusing nesting deeper than [`MAX_DEPTH`].
    fn enter_nested(&mut self) -> Option<Span> {
        let open = self.here();
        if self.depth >= MAX_DEPTH {
            self.error(open, "blocks and lists are nested too deeply", "nesting limit reached here");
            return None;
        }
        self.depth += 1;
        self.bump();
        Some(open)
    }

    /// A description of what is at the cursor, for messages.
    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the file".to_string(),
            Some('\n') | Some('\r') => "the end of the line".to_string(),
            Some(c) => {
                if let Ok((_, w)) = word(self.rest()) {
                    format!("`{w}`")
                } else {
                    format!("`{c}`")
                }
            }
        }
    }

    /// Runs a token parser at the cursor and advances past what it recognised.
    fn token(&mut self, parser: fn(&str) -> IResult<&str, &str>) -> Option<Spanned<String>> {
        let rest = self.rest();
        match parser(rest) {
            Ok((after, text)) if !text.is_empty() => {
                let start = self.pos;
                self.pos += rest.len() - after.len();
                Some(Spanned::new(text.to_string(), self.span_from(start, self.pos)))
            }
            _ => None,
        }
    }

    /// Skips spaces and tabs (not line breaks).
    fn skip_inline(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    /// Skips white space, line breaks and comments; commas too where `commas` is set.
    fn trivia(&mut self, commas: bool) -> Trivia {
        let mut trivia = Trivia { comments: Vec::new(), blank_line: false };
        let mut newline_seen = false;
        let mut newlines_since_text = 0;
        while let Some(c) = self.peek() {
            match c {
                '\n' => {
                    newline_seen = true;
                    newlines_since_text += 1;
                    if newlines_since_text >= 2 {
                        trivia.blank_line = true;
                    }
                    self.bump();
                }
                ' ' | '\t' | '\r' => self.bump(),
                ',' if commas => {
                    newlines_since_text = 0;
                    self.bump();
                }
                '#' => {
                    let line = self.rest().split('\n').next().unwrap_or("");
                    let text = line.trim_end().strip_prefix('#').unwrap_or("").to_string();
                    self.pos += line.len();
                    trivia.comments.push((text, newline_seen));
                    // A blank line before a comment stays a blank line before what follows it.
                    newlines_since_text = 0;
                }
                _ => break,
            }
        }
        trivia
    }

    fn file(&mut self) -> SourceFile {
        let mut items = Vec::new();
        let mut includes = Vec::new();
        let mut pending: Vec<String> = Vec::new();
        loop {
            let trivia = self.trivia(false);
            pending.extend(trivia.comments.into_iter().map(|(text, _)| text));
            if self.peek().is_none() {
                break;
            }
            let before = self.pos;
            if self.at_include() {
                match self.include(std::mem::take(&mut pending)) {
                    Some(include) => includes.push(include),
                    None => {
                        self.skip_to_next_item();
                        if self.pos == before {
                            self.bump();
                        }
                    }
                }
                continue;
            }
            match self.item(std::mem::take(&mut pending)) {
                Some(item) => items.push(item),
                None => {
                    self.skip_to_next_item();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        SourceFile { file: self.file, includes, items, trailing_comments: pending }
    }

    /// True before `include` followed by a space or a quote.
    fn at_include(&self) -> bool {
        matches!(ident(self.rest()), Ok((rest, "include")) if rest.starts_with([' ', '\t', '"']))
    }

    /// `include "PATH"` with the cursor on `include`: the path is a string on the same line.
    fn include(&mut self, leading_comments: Vec<String>) -> Option<Include> {
        let start = self.pos;
        self.pos += "include".len();
        self.skip_inline();
        if self.peek() != Some('"') {
            self.error_found(
                |found| format!("expected a quoted path after `include`, found {found}"),
                "expected `\"models.attn\"` here",
            );
            return None;
        }
        let open = self.pos;
        let line = self.rest().split('\n').next().unwrap_or("");
        let Some(close) = line[1..].find('"') else {
            let span = self.span_from(open, open + line.trim_end().len());
            self.diags.push(
                Diagnostic::new(Code::Syntax, "unterminated path string", span, "no closing `\"` on this line")
                    .with_help("write the path in double quotes on one line: `include \"models.attn\"`"),
            );
            self.pos += line.len();
            return None;
        };
        let path = line[1..1 + close].to_string();
        self.pos = open + close + 2;
        let path_span = self.span_from(open, self.pos);
        if path.is_empty() {
            self.diags.push(
                Diagnostic::new(Code::Syntax, "empty include path", path_span, "no file named")
                    .with_help("name a spec file relative to this one: `include \"models.attn\"`"),
            );
            return None;
        }
        Some(Include { path: Spanned::new(path, path_span), leading_comments, span: self.span_from(start, self.pos) })
    }

    fn item(&mut self, leading_comments: Vec<String>) -> Option<Item> {
        let start = self.pos;
        let errors_before = self.diags.len();
        let Some(keyword) = self.token(ident) else {
            let here = self.here();
            let found = self.found();
            self.diags.push(
                Diagnostic::new(
                    Code::Syntax,
                    format!("expected an item, found {found}"),
                    here,
                    "expected `model`, `cluster` or `layout` here",
                )
                .with_help("a spec file holds items such as `model NAME { ... }`"),
            );
            return None;
        };
        let Some(kind) = ItemKind::from_keyword(&keyword.node) else {
            let mut diag = Diagnostic::new(
                Code::Syntax,
                format!("expected an item, found `{}`", keyword.node),
                keyword.span,
                "not an item keyword",
            );
            diag = match crate::suggest::nearest(&keyword.node, ["model", "cluster", "layout"]) {
                Some(s) => diag.with_help(format!("did you mean `{s}`?")),
                None => {
                    diag.with_help("items are `model NAME { ... }`, `cluster NAME { ... }` and `layout NAME { ... }`")
                }
            };
            self.diags.push(diag);
            return None;
        };
        self.skip_inline();
        let Some(name) = self.token(ident) else {
            self.error_found(
                |found| format!("expected a name after `{}`, found {found}", keyword.node),
                "expected the item's name here",
            );
            return None;
        };
        self.trivia(false);
        if self.peek() != Some('{') {
            self.error_found(
                |found| format!("expected `{{` after `{} {}`, found {found}", keyword.node, name.node),
                "expected `{` here",
            );
            return None;
        }
        let body = self.block(true)?;
        let recovered = self.diags.len() > errors_before;
        Some(Item {
            recovered,
            kind: Spanned::new(kind, keyword.span),
            name,
            span: self.span_from(start, body.span.end as usize),
            body,
            leading_comments,
        })
    }

    /// Parses `{ entries }` with the cursor on `{`. `item_body` enables the missing-`}` recovery.
    fn block(&mut self, item_body: bool) -> Option<Block> {
        let open = self.enter_nested()?;
        let mut entries: Vec<Entry> = Vec::new();
        let mut pending: Vec<String> = Vec::new();
        let close;
        loop {
            let trivia = self.trivia(true);
            for (text, own_line) in trivia.comments {
                match entries.last_mut() {
                    Some(last) if !own_line && pending.is_empty() && last.trailing_comment.is_none() => {
                        last.trailing_comment = Some(text)
                    }
                    _ => pending.push(text),
                }
            }
            match self.peek() {
                None => {
                    self.diags.push(
                        Diagnostic::new(Code::Syntax, "unclosed block", open, "this `{` is never closed")
                            .with_help("add the missing `}`"),
                    );
                    close = self.pos;
                    break;
                }
                Some('}') => {
                    self.bump();
                    close = self.pos;
                    break;
                }
                _ => {}
            }
            if item_body && self.at_item_start() {
                self.diags.push(
                    Diagnostic::new(Code::Syntax, "unclosed block", open, "this `{` is never closed")
                        .with_secondary(self.here(), "the next item starts here")
                        .with_help("add the missing `}` before the next item"),
                );
                close = self.pos;
                break;
            }
            let before = self.pos;
            match self.entry() {
                Some(mut entry) => {
                    entry.leading_comments = std::mem::take(&mut pending);
                    entry.blank_before = trivia.blank_line && !entries.is_empty();
                    entries.push(entry);
                }
                None => {
                    self.skip_to_entry_end();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        self.depth -= 1;
        Some(Block { entries, trailing_comments: pending, span: self.span_from(open.start as usize, close) })
    }

    /// True at the start of a line that looks like `model NAME {`.
    fn at_item_start(&self) -> bool {
        let line_start = self.src[..self.pos].rfind('\n').map_or(0, |i| i + 1);
        if !self.src[line_start..self.pos].trim().is_empty() {
            return false;
        }
        let Ok((rest, keyword)) = ident(self.rest()) else {
            return false;
        };
        if ItemKind::from_keyword(keyword).is_none() {
            return false;
        }
        let rest = rest.trim_start_matches([' ', '\t']);
        match ident(rest) {
            Ok((rest, _)) => rest.trim_start().starts_with('{'),
            Err(_) => false,
        }
    }

    fn entry(&mut self) -> Option<Entry> {
        let start = self.pos;
        let Some(key) = self.token(ident) else {
            self.error_found(|found| format!("expected a field name, found {found}"), "expected `name = value` here");
            return None;
        };
        self.skip_inline();
        let kind = if key.node == "layer" && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let range = self.layer_range()?;
            self.skip_inline();
            if self.peek() != Some('{') {
                self.error_found(
                    |found| format!("expected `{{` after the layer range, found {found}"),
                    "expected `{` here",
                );
                return None;
            }
            let body = self.block(false)?;
            EntryKind::Layer { range, body }
        } else {
            match self.peek() {
                Some('=') => {
                    self.bump();
                    self.skip_inline();
                    let value = self.value()?;
                    EntryKind::Field { key, value }
                }
                Some('{') => {
                    let body = self.block(false)?;
                    EntryKind::Nested { key, body }
                }
                _ => {
                    self.error_found(
                        |found| format!("expected `=` or `{{` after `{}`, found {found}", key.node),
                        "expected `=` here",
                    );
                    return None;
                }
            }
        };
        let end = self.pos;
        self.skip_inline();
        match self.peek() {
            None | Some('\n' | '\r' | ',' | '}' | '#') => {}
            Some(_) => {
                self.error_found(
                    |found| format!("expected a line break or `,` after the field, found {found}"),
                    "the next field starts on a new line or after `,`",
                );
                return None;
            }
        }
        Some(Entry {
            kind,
            leading_comments: Vec::new(),
            trailing_comment: None,
            blank_before: false,
            span: self.span_from(start, end),
        })
    }

    fn layer_range(&mut self) -> Option<LayerRange> {
        let start = self.pos;
        let first = self.number_literal()?;
        if !self.rest().starts_with("..") {
            self.error_found(
                |found| format!("expected `..` in the layer range, found {found}"),
                "expected `a..b` here",
            );
            return None;
        }
        self.pos += 2;
        let second = self.number_literal()?;
        let mut end = self.pos;
        let save = self.pos;
        self.skip_inline();
        let step = if self.rest().starts_with("step") && self.token(ident).is_some_and(|w| w.node == "step") {
            self.skip_inline();
            let step = self.number_literal()?;
            end = self.pos;
            Some(step)
        } else {
            self.pos = save;
            None
        };
        Some(LayerRange { start: first, end: second, step, span: self.span_from(start, end) })
    }

    fn number_literal(&mut self) -> Option<Number> {
        match self.token(number) {
            Some(text) => Some(Number { span: text.span, text: text.node, unit: None }),
            None => {
                self.error_found(|found| format!("expected a number, found {found}"), "expected a number here");
                None
            }
        }
    }

    /// Whether the value at `start` goes on as an expression: the text after the name or number
    /// just read continues with an operator.
    fn continues_as_expression(&self) -> bool {
        let rest = self.rest().trim_start_matches([' ', '\t']);
        rest.starts_with(['<', '>', '=', '!', '&', '|', '*', '/', '%', '+', '-', '(', '['])
    }

    /// An expression from `start` (see [`ValueKind::Expr`]).
    fn expression(&mut self, start: usize) -> Option<Value> {
        let mut depth = 0usize;
        let mut end = start;
        for (i, c) in self.src[start..].char_indices() {
            match c {
                '\n' | '\r' | '#' => break,
                ',' | '}' | ']' if depth == 0 => break,
                '(' | '[' => depth += 1,
                ')' | ']' => depth = depth.saturating_sub(1),
                _ => {}
            }
            end = start + i + c.len_utf8();
        }
        let text = self.src[start..end].trim_end();
        let end = start + text.len();
        self.pos = end;
        match crate::expr::parse::parse(text) {
            Ok(e) => Some(Value { kind: ValueKind::Expr(e.shifted(start)), span: self.span_from(start, end) }),
            Err(err) => {
                let span = self.span_from(start + err.span.0, (start + err.span.1).max(start + err.span.0));
                let mut diag = Diagnostic::new(Code::Syntax, err.message, span, "in this expression");
                if let Some(help) = err.help {
                    diag = diag.with_help(help);
                }
                self.diags.push(diag);
                None
            }
        }
    }

    fn value(&mut self) -> Option<Value> {
        let start = self.pos;
        if matches!(self.peek(), Some('(' | '!'))
            || (self.peek() == Some('-') && !self.rest()[1..].starts_with(|c: char| c.is_ascii_digit()))
        {
            return self.expression(start);
        }
        match self.peek() {
            Some('[') => self.list(),
            Some(c) if c.is_ascii_digit() || c == '-' || c == '+' => {
                let mut number = self.number_literal()?;
                let after_number = self.pos;
                self.skip_inline();
                // A unit is a word after the number that does not start the next field.
                let unit_start = self.pos;
                if let Some(u) = self.token(unit) {
                    let mut look = Parser::new(self.file, self.src, self.pos);
                    look.skip_inline();
                    if matches!(look.peek(), Some('=' | '{')) {
                        self.pos = unit_start;
                    } else {
                        number.span = number.span.to(u.span);
                        number.unit = Some(u);
                    }
                }
                if number.unit.is_none() {
                    self.pos = after_number;
                    if self.continues_as_expression() {
                        return self.expression(start);
                    }
                }
                Some(Value { span: number.span, kind: ValueKind::Number(number) })
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let name = self.token(word)?;
                let after_name = self.pos;
                self.skip_inline();
                let args = if self.peek() == Some('{') {
                    Some(self.block(false)?)
                } else {
                    self.pos = after_name;
                    // Only a name an expression can start with (`a2a+` is a strategy cut short).
                    let first = name.node.split('+').next().unwrap_or("");
                    if crate::expr::parse::NAMES.contains(&first) && self.continues_as_expression() {
                        return self.expression(start);
                    }
                    None
                };
                Some(Value { span: self.span_from(start, self.pos), kind: ValueKind::Word { name, args } })
            }
            _ => {
                self.error_found(
                    |found| format!("expected a value, found {found}"),
                    "expected a number, a name or a list here",
                );
                None
            }
        }
    }

    fn list(&mut self) -> Option<Value> {
        let open = self.enter_nested()?;
        let mut values = Vec::new();
        let result = loop {
            self.trivia(false);
            if self.peek() == Some(']') {
                self.bump();
                break Some(());
            }
            let Some(value) = self.value() else {
                break None;
            };
            values.push(value);
            self.trivia(false);
            match self.peek() {
                Some(',') => self.bump(),
                Some(']') => {}
                None => {
                    self.diags.push(
                        Diagnostic::new(Code::Syntax, "unclosed list", open, "this `[` is never closed")
                            .with_help("add the missing `]`"),
                    );
                    break None;
                }
                Some(_) => {
                    self.error_found(
                        |found| format!("expected `,` or `]` in the list, found {found}"),
                        "expected `,` or `]` here",
                    );
                    break None;
                }
            }
        };
        self.depth -= 1;
        result?;
        Some(Value { kind: ValueKind::List(values), span: self.span_from(open.start as usize, self.pos) })
    }

    /// Skips the rest of a bad entry: to the line break, `,` or `}` that ends it, over nested brackets.
    fn skip_to_entry_end(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '\n' | ',' | '}' | ']' if depth == 0 => {
                    if c == ']' {
                        self.bump();
                    }
                    return;
                }
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                '#' => {
                    let line = self.rest().split('\n').next().unwrap_or("");
                    self.pos += line.len();
                    continue;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips a bad item: to the next line that starts with an item keyword outside any block.
    fn skip_to_next_item(&mut self) {
        let mut depth = 0usize;
        let mut at_line_start = false;
        while let Some(c) = self.peek() {
            if at_line_start && depth == 0 && self.at_item_keyword_line() {
                return;
            }
            match c {
                '\n' => {
                    at_line_start = true;
                    self.bump();
                    continue;
                }
                ' ' | '\t' | '\r' => {
                    self.bump();
                    continue;
                }
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                '#' => {
                    let line = self.rest().split('\n').next().unwrap_or("");
                    self.pos += line.len();
                    continue;
                }
                _ => {}
            }
            at_line_start = false;
            self.bump();
        }
    }

    fn at_item_keyword_line(&self) -> bool {
        match ident(self.rest()) {
            Ok((rest, keyword)) => {
                (ItemKind::from_keyword(keyword).is_some() || keyword == "include") && rest.starts_with([' ', '\t'])
            }
            Err(_) => false,
        }
    }
}
