//! Masks and score modifications as expressions (issue 30's first part): one small typed IR,
//! its parser (`parse.rs`), an interpreter (`eval.rs`), the interval analysis of a tile
//! (`interval.rs`: full, partial or empty, sound for every expression and exact for the named
//! masks), and the named masks written once as library expressions (`library.rs`).
//!
//! A mask is a boolean expression over integer terms: `q` and `k` (token positions within the
//! sequence), `h` (the query head), `doc(q)` and `doc(k)` (THD sequence ids), integer constants,
//! with `+ - * / %`, comparisons, `&`, `|` and `!`. A score is a float expression over `s` (the
//! scaled score) and the same terms, with `tanh`, `exp`, `log`, `min`, `max` and float constants.
//! Division and remainder are Euclidean (positions are never negative; a negative divisor is a
//! type error where it is a constant, and evaluates as Euclidean division otherwise).
//!
//! The `.attn` grammar takes `mask = EXPR` in layouts and `score = EXPR` in models (the front
//! end keeps the expression, `print.rs` prints it back); sema compiles an expression that says a
//! named mask or the soft-cap as that (`named.rs`). No backend lowers a general expression yet:
//! the planner, the verifier and the kernels use the named masks' closed forms.

pub mod eval;
pub mod heads;
pub mod interval;
pub mod library;
pub mod named;
pub mod parse;
mod print;
pub mod regions;
pub mod score;

/// A value the expression reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// The query's position in its sequence.
    Q,
    /// The key's position in its sequence.
    K,
    /// The query head.
    H,
    /// The query's sequence id (THD), `doc(q)`.
    DocQ,
    /// The key's sequence id, `doc(k)`.
    DocK,
    /// The scaled score (score expressions only).
    S,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&",
            BinOp::Or => "|",
        }
    }

    fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }
}

/// Functions of score expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Tanh,
    Exp,
    Log,
    Min,
    Max,
    /// `alibi(x, n)`: ALiBi's slope of head `x` among `n` heads (`library::alibi_slope`).
    Alibi,
}

impl Func {
    pub fn name(self) -> &'static str {
        match self {
            Func::Tanh => "tanh",
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Min => "min",
            Func::Max => "max",
            Func::Alibi => "alibi",
        }
    }

    pub fn arity(self) -> usize {
        match self {
            Func::Tanh | Func::Exp | Func::Log => 1,
            Func::Min | Func::Max | Func::Alibi => 2,
        }
    }
}

/// An expression; `span` is the byte range of its text (for diagnostics).
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: (usize, usize),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Var(Var),
    Int(i64),
    Float(f64),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    /// A learned per-head parameter at the pair's query head, `NAME[h]` (score expressions only;
    /// the model declares it: `params = [NAME]`).
    Param(String),
}

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Bool,
    Float,
}

impl Type {
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "an integer",
            Type::Bool => "a condition",
            Type::Float => "a float",
        }
    }
}

/// Where an expression may appear: a mask reads no score; a score may read `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    Mask,
    Score,
}

/// A type error, with the span it is about and a help line that is true when followed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct TypeError {
    pub span: (usize, usize),
    pub message: String,
    pub help: Option<String>,
}

impl Expr {
    pub fn new(kind: ExprKind, span: (usize, usize)) -> Expr {
        Expr { kind, span }
    }

    /// The expression's type in `context`, or the first type error.
    pub fn type_of(&self, context: Context) -> Result<Type, TypeError> {
        let err = |message: String, help: Option<&str>| TypeError {
            span: self.span,
            message,
            help: help.map(str::to_string),
        };
        match &self.kind {
            ExprKind::Var(Var::S) if context == Context::Mask => Err(err(
                "`s` (the score) is not known where the mask is decided".into(),
                Some("a mask reads q, k, h, doc(q) and doc(k); move score changes to `score = …`"),
            )),
            ExprKind::Var(Var::S) => Ok(Type::Float),
            ExprKind::Param(name) if context == Context::Mask => Err(err(
                format!("`{name}[h]`, a learned parameter, is not known where the mask is decided"),
                Some("a mask reads q, k, h, doc(q) and doc(k); learned parameters belong to `score = …`"),
            )),
            ExprKind::Param(_) => Ok(Type::Float),
            ExprKind::Var(_) | ExprKind::Int(_) => Ok(Type::Int),
            ExprKind::Float(_) => Ok(Type::Float),
            ExprKind::Unary(UnOp::Neg, a) => match a.type_of(context)? {
                Type::Bool => Err(err("`-` of a condition".into(), Some("use `!` to negate a condition"))),
                t => Ok(t),
            },
            ExprKind::Unary(UnOp::Not, a) => match a.type_of(context)? {
                Type::Bool => Ok(Type::Bool),
                t => Err(err(format!("`!` of {}", t.name()), Some("`!` negates a condition such as `k <= q`"))),
            },
            ExprKind::Binary(op, a, b) => {
                let (ta, tb) = (a.type_of(context)?, b.type_of(context)?);
                match op {
                    BinOp::And | BinOp::Or => {
                        if ta == Type::Bool && tb == Type::Bool {
                            Ok(Type::Bool)
                        } else {
                            Err(err(
                                format!("`{}` joins conditions, not {} and {}", op.symbol(), ta.name(), tb.name()),
                                Some("compare first, e.g. `k <= q & q - k < 128`"),
                            ))
                        }
                    }
                    _ if ta == Type::Bool || tb == Type::Bool => Err(err(
                        format!("`{}` of a condition", op.symbol()),
                        Some("conditions combine with `&`, `|` and `!`"),
                    )),
                    op if op.is_comparison() => Ok(Type::Bool),
                    BinOp::Div | BinOp::Rem if b.constant().is_some_and(|d| d <= 0) => Err(TypeError {
                        span: b.span,
                        message: format!("`{}` by {}", op.symbol(), b.constant().unwrap_or(0)),
                        help: Some("divide by a positive constant (chunks of C tokens: `q / C == k / C`)".into()),
                    }),
                    _ if ta == Type::Float || tb == Type::Float => Ok(Type::Float),
                    _ => Ok(Type::Int),
                }
            }
            ExprKind::Call(f, args) => {
                if args.len() != f.arity() {
                    return Err(err(
                        format!("`{}` takes {} argument(s), not {}", f.name(), f.arity(), args.len()),
                        None,
                    ));
                }
                for a in args {
                    if a.type_of(context)? == Type::Bool {
                        return Err(TypeError {
                            span: a.span,
                            message: format!("`{}` of a condition", f.name()),
                            help: None,
                        });
                    }
                }
                if context == Context::Mask {
                    return Err(err(
                        format!("`{}` belongs to score expressions", f.name()),
                        Some("a mask is integer arithmetic and comparisons; write `score = …` for float changes"),
                    ));
                }
                Ok(Type::Float)
            }
        }
    }

    /// The value of an integer expression without terms (`-3`, `2 * 64`), if it has one.
    pub fn constant(&self) -> Option<i64> {
        match &self.kind {
            ExprKind::Int(i) => Some(*i),
            ExprKind::Unary(UnOp::Neg, a) => a.constant()?.checked_neg(),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (a.constant()?, b.constant()?);
                match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    BinOp::Mul => x.checked_mul(y),
                    BinOp::Div if y > 0 => Some(x.div_euclid(y)),
                    BinOp::Rem if y > 0 => Some(x.rem_euclid(y)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The same expression with every span moved `by` bytes later (an expression parsed out of
    /// a larger text).
    pub fn shifted(mut self, by: usize) -> Expr {
        self.visit_spans(&mut |span| *span = (span.0 + by, span.1 + by));
        self
    }

    /// Calls `f` on every span of the tree.
    pub fn visit_spans(&mut self, f: &mut impl FnMut(&mut (usize, usize))) {
        f(&mut self.span);
        match &mut self.kind {
            ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Param(_) => {}
            ExprKind::Unary(_, a) => a.visit_spans(f),
            ExprKind::Binary(_, a, b) => {
                a.visit_spans(f);
                b.visit_spans(f);
            }
            ExprKind::Call(_, args) => args.iter_mut().for_each(|a| a.visit_spans(f)),
        }
    }

    /// The learned parameters the expression reads, each with the span of its first use.
    pub fn params(&self) -> Vec<(&str, (usize, usize))> {
        let mut out: Vec<(&str, (usize, usize))> = Vec::new();
        self.visit(&mut |e| {
            if let ExprKind::Param(name) = &e.kind
                && !out.iter().any(|(n, _)| n == name)
            {
                out.push((name.as_str(), e.span));
            }
        });
        out
    }

    /// Calls `f` on every node of the tree, parents first.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Param(_) => {}
            ExprKind::Unary(_, a) => a.visit(f),
            ExprKind::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.visit(f)),
        }
    }

    /// Whether the expression reads `var`.
    pub fn reads(&self, var: Var) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= e.kind == ExprKind::Var(var));
        found
    }
}

/// A mask: a checked boolean expression.
#[derive(Clone, Debug, PartialEq)]
pub struct MaskExpr(pub Expr);

impl MaskExpr {
    /// `expr` as a mask, type-checked.
    pub fn new(expr: Expr) -> Result<MaskExpr, TypeError> {
        match expr.type_of(Context::Mask)? {
            Type::Bool => Ok(MaskExpr(expr)),
            t => Err(TypeError {
                span: expr.span,
                message: format!("a mask is a condition, not {}", t.name()),
                help: Some("compare positions, e.g. `k <= q` (causal)".into()),
            }),
        }
    }
}

/// The one `&'static` copy of `x` among those `table` holds: masks and kernel specs hold their
/// expression data (scores, regions, head classes) by reference, so that they stay `Copy`. A
/// process leaks one copy per distinct value it reads.
pub(crate) fn intern<T: PartialEq + Sync + 'static>(table: &std::sync::Mutex<Vec<&'static T>>, x: T) -> &'static T {
    let mut table = table.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = table.iter().find(|y| ***y == x) {
        return found;
    }
    let leaked: &'static T = Box::leak(Box::new(x));
    table.push(leaked);
    leaked
}

/// Euclidean division and remainder of integers (`b > 0` in every checked expression).
pub fn div_euclid(a: i64, b: i64) -> Option<i64> {
    (b != 0).then(|| a.div_euclid(b))
}

pub fn rem_euclid(a: i64, b: i64) -> Option<i64> {
    (b != 0).then(|| a.rem_euclid(b))
}
