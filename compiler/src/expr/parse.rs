//! The parser of mask and score expressions: nom parsers for tokens, recursive descent for
//! precedence (loosest first): `|`, `&`, comparisons (not chained), `+ -`, `* / %`, unary
//! `- !`, then numbers, terms (`q`, `k`, `h`, `s`, `doc(q)`, `doc(k)`), calls and parentheses.
//! nom's error types stop here: callers see a [`ParseError`] with its byte span.

use nom::{
    IResult, Parser as _,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::{digit1, satisfy},
    combinator::{opt, recognize},
    sequence::pair,
};

use super::{BinOp, Expr, ExprKind, Func, UnOp, Var};

/// A syntax error: where, what, and a help line when one is true.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub span: (usize, usize),
    pub message: String,
    pub help: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Float(f64),
    Ident(String),
    Op(&'static str),
    Open,
    Close,
    Comma,
    /// `[` and `]`: a learned parameter's index, `NAME[h]`.
    OpenBracket,
    CloseBracket,
}

/// Operators, longest first so that `<=` is not read as `<`.
const OPS: [&str; 13] = ["<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "%", "&", "|"];

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
}

fn number(i: &str) -> IResult<&str, &str> {
    recognize((digit1, opt(pair(tag("."), take_while1(|c: char| c.is_ascii_digit()))))).parse(i)
}

/// A token and its byte span.
type Spanned = (Tok, (usize, usize));

fn lex(text: &str) -> Result<Vec<Spanned>, ParseError> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let at = text.len() - rest.len();
        if rest.is_empty() {
            return Ok(out);
        }
        let (tok, len) = if let Ok((after, n)) = number(rest) {
            let tok = if n.contains('.') {
                Tok::Float(n.parse().expect("digits.digits parses"))
            } else {
                Tok::Int(n.parse().map_err(|_| ParseError {
                    span: (at, at + n.len()),
                    message: format!("`{n}` does not fit a 64-bit integer"),
                    help: None,
                })?)
            };
            (tok, rest.len() - after.len())
        } else if let Ok((after, name)) = ident(rest) {
            (Tok::Ident(name.to_string()), rest.len() - after.len())
        } else if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            (Tok::Op(op), op.len())
        } else if rest.starts_with('!') {
            (Tok::Op("!"), 1)
        } else if rest.starts_with('(') {
            (Tok::Open, 1)
        } else if rest.starts_with(')') {
            (Tok::Close, 1)
        } else if rest.starts_with(',') {
            (Tok::Comma, 1)
        } else if rest.starts_with('[') {
            (Tok::OpenBracket, 1)
        } else if rest.starts_with(']') {
            (Tok::CloseBracket, 1)
        } else {
            let c = rest.chars().next().expect("not empty");
            return Err(ParseError {
                span: (at, at + c.len_utf8()),
                message: format!("unexpected `{c}` in an expression"),
                help: Some("expressions use + - * / %, comparisons, & | !, parentheses and calls".into()),
            });
        };
        out.push((tok, (at, at + len)));
        rest = &rest[len..];
    }
}

struct Parser {
    toks: Vec<Spanned>,
    pos: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn span(&self) -> (usize, usize) {
        self.toks.get(self.pos).map_or((self.end, self.end), |t| t.1)
    }

    fn error(&self, message: impl Into<String>, help: Option<&str>) -> ParseError {
        ParseError { span: self.span(), message: message.into(), help: help.map(str::to_string) }
    }

    fn op(&mut self, ops: &[&'static str]) -> Option<&'static str> {
        match self.peek() {
            Some(Tok::Op(op)) if ops.contains(op) => {
                let op = *op;
                self.pos += 1;
                Some(op)
            }
            _ => None,
        }
    }

    fn binary(op: &str) -> BinOp {
        match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "&" => BinOp::And,
            _ => BinOp::Or,
        }
    }

    /// One level of left-associative binary operators over `next`.
    fn level(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Parser) -> Result<Expr, ParseError>,
    ) -> Result<Expr, ParseError> {
        let mut left = next(self)?;
        while let Some(op) = self.op(ops) {
            let right = next(self)?;
            let span = (left.span.0, right.span.1);
            left = Expr::new(ExprKind::Binary(Parser::binary(op), Box::new(left), Box::new(right)), span);
        }
        Ok(left)
    }

    fn or(&mut self) -> Result<Expr, ParseError> {
        self.level(&["|"], Parser::and)
    }

    fn and(&mut self) -> Result<Expr, ParseError> {
        self.level(&["&"], Parser::comparison)
    }

    fn comparison(&mut self) -> Result<Expr, ParseError> {
        let left = self.sum()?;
        let Some(op) = self.op(&["<", "<=", ">", ">=", "==", "!="]) else { return Ok(left) };
        let right = self.sum()?;
        if let Some(Tok::Op(next @ ("<" | "<=" | ">" | ">=" | "==" | "!="))) = self.peek() {
            return Err(self.error(
                format!("comparisons do not chain (`… {op} … {next} …`)"),
                Some("join two comparisons with `&`, e.g. `0 <= q - k & q - k < 128`"),
            ));
        }
        let span = (left.span.0, right.span.1);
        Ok(Expr::new(ExprKind::Binary(Parser::binary(op), Box::new(left), Box::new(right)), span))
    }

    fn sum(&mut self) -> Result<Expr, ParseError> {
        self.level(&["+", "-"], Parser::product)
    }

    fn product(&mut self) -> Result<Expr, ParseError> {
        self.level(&["*", "/", "%"], Parser::unary)
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        let start = self.span().0;
        if let Some(op) = self.op(&["-", "!"]) {
            let inner = self.unary()?;
            let span = (start, inner.span.1);
            let op = if op == "-" { UnOp::Neg } else { UnOp::Not };
            return Ok(Expr::new(ExprKind::Unary(op, Box::new(inner)), span));
        }
        self.primary()
    }

    fn close(&mut self, what: &str) -> Result<usize, ParseError> {
        match self.peek() {
            Some(Tok::Close) => {
                let end = self.span().1;
                self.pos += 1;
                Ok(end)
            }
            _ => Err(self.error(format!("expected `)` to close {what}"), None)),
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        let span = self.span();
        let tok = self.peek().cloned();
        let Some(tok) = tok else {
            return Err(self.error("the expression ends too early", Some("complete it, e.g. `k <= q`")));
        };
        self.pos += 1;
        match tok {
            Tok::Int(i) => Ok(Expr::new(ExprKind::Int(i), span)),
            Tok::Float(f) => Ok(Expr::new(ExprKind::Float(f), span)),
            Tok::Open => {
                let inner = self.or()?;
                let end = self.close("the parenthesis")?;
                Ok(Expr { span: (span.0, end), ..inner })
            }
            Tok::Ident(name) => self.named(&name, span),
            Tok::Close | Tok::Comma | Tok::Op(_) | Tok::OpenBracket | Tok::CloseBracket => {
                self.pos -= 1;
                Err(self.error("expected a number, a term (q, k, h, s, doc(q), doc(k)) or `(`", None))
            }
        }
    }

    fn named(&mut self, name: &str, span: (usize, usize)) -> Result<Expr, ParseError> {
        let var = match name {
            "q" => Some(Var::Q),
            "k" => Some(Var::K),
            "h" => Some(Var::H),
            "s" => Some(Var::S),
            _ => None,
        };
        if let Some(v) = var {
            return Ok(Expr::new(ExprKind::Var(v), span));
        }
        if self.peek() == Some(&Tok::OpenBracket) && !NAMES.contains(&name) {
            return self.param(name, span);
        }
        let func = match name {
            "tanh" => Some(Func::Tanh),
            "exp" => Some(Func::Exp),
            "log" => Some(Func::Log),
            "min" => Some(Func::Min),
            "max" => Some(Func::Max),
            "alibi" => Some(Func::Alibi),
            "doc" => None,
            _ => {
                let close = crate::suggest::nearest(name, NAMES);
                return Err(ParseError {
                    span,
                    message: format!("unknown name `{name}` in an expression"),
                    help: Some(match close {
                        Some(c) => format!("did you mean `{c}`?"),
                        None => "terms are q, k, h, s, doc(q), doc(k) and a model's learned parameters \
                                 `NAME[h]`; functions tanh, exp, log, min, max, alibi"
                            .into(),
                    }),
                });
            }
        };
        if self.peek() != Some(&Tok::Open) {
            return Err(self.error(format!("`{name}` is called: `{name}(…)`"), None));
        }
        self.pos += 1;
        let Some(func) = func else {
            // doc(q) or doc(k): the sequence of the query or of the key.
            let var = match self.peek() {
                Some(Tok::Ident(v)) if v == "q" => Var::DocQ,
                Some(Tok::Ident(v)) if v == "k" => Var::DocK,
                _ => return Err(self.error("`doc` takes `q` or `k`", Some("write `doc(q) == doc(k)`"))),
            };
            self.pos += 1;
            let end = self.close("`doc(`")?;
            return Ok(Expr::new(ExprKind::Var(var), (span.0, end)));
        };
        let mut args = vec![self.or()?];
        while self.peek() == Some(&Tok::Comma) {
            self.pos += 1;
            args.push(self.or()?);
        }
        let end = self.close(&format!("`{name}(`"))?;
        Ok(Expr::new(ExprKind::Call(func, args), (span.0, end)))
    }
}

impl Parser {
    /// `NAME[h]` after `NAME`: a learned per-head parameter read at the query head.
    fn param(&mut self, name: &str, span: (usize, usize)) -> Result<Expr, ParseError> {
        self.pos += 1;
        let index = self.or()?;
        if !matches!(index.kind, ExprKind::Var(Var::H)) {
            return Err(ParseError {
                span: index.span,
                message: format!("`{name}[…]` is read at the query head, not at another index"),
                help: Some(format!("a learned parameter has one value per query head: write `{name}[h]`")),
            });
        }
        match self.peek() {
            Some(Tok::CloseBracket) => {
                let end = self.span().1;
                self.pos += 1;
                Ok(Expr::new(ExprKind::Param(name.to_string()), (span.0, end)))
            }
            _ => Err(self.error(format!("expected `]` to close `{name}[`"), None)),
        }
    }
}

/// The names an expression reads: its terms and functions.
pub const NAMES: [&str; 11] = ["q", "k", "h", "s", "doc", "tanh", "exp", "log", "min", "max", "alibi"];

/// Parses `text` as one expression (spans are byte offsets into `text`).
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    let mut p = Parser { toks: lex(text)?, pos: 0, end: text.len() };
    let e = p.or()?;
    if p.pos < p.toks.len() {
        return Err(p.error("unexpected text after the expression", Some("join conditions with `&` or `|`")));
    }
    Ok(e)
}
