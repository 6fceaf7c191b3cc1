//! Expressions printed back as text: canonical spacing and only the parentheses precedence
//! needs (and those around an `&` inside an `|`, which readers expect), so `attnc fmt` prints
//! `k <= q & (q - k < 128 | k < 4)` however it was written and the printed text parses to the
//! same tree.

use std::fmt;

use super::{BinOp, Expr, ExprKind, UnOp, Var};

/// Binding strength, loosest first (the parser's levels).
fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary(BinOp::Or, ..) => 1,
        ExprKind::Binary(BinOp::And, ..) => 2,
        ExprKind::Binary(op, ..) if op.is_comparison() => 3,
        ExprKind::Binary(BinOp::Add | BinOp::Sub, ..) => 4,
        ExprKind::Binary(..) => 5,
        ExprKind::Unary(..) => 6,
        // A negative constant prints with its sign: bind it like a unary minus.
        ExprKind::Int(i) if *i < 0 => 6,
        ExprKind::Float(f) if f.is_sign_negative() => 6,
        _ => 7,
    }
}

fn operand(f: &mut fmt::Formatter<'_>, e: &Expr, parens: bool) -> fmt::Result {
    if parens { write!(f, "({e})") } else { write!(f, "{e}") }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Var::Q => "q",
            Var::K => "k",
            Var::H => "h",
            Var::DocQ => "doc(q)",
            Var::DocK => "doc(k)",
            Var::S => "s",
        })
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Var(v) => write!(f, "{v}"),
            ExprKind::Param(name) => write!(f, "{name}[h]"),
            ExprKind::Int(i) => write!(f, "{i}"),
            // Floats keep a fractional part so they read back as floats.
            ExprKind::Float(x) if x.fract() == 0.0 && x.abs() < 1e15 => write!(f, "{x:.1}"),
            ExprKind::Float(x) => write!(f, "{x}"),
            ExprKind::Unary(op, a) => {
                f.write_str(if *op == UnOp::Neg { "-" } else { "!" })?;
                operand(f, a, precedence(a) < 6)
            }
            ExprKind::Binary(op, a, b) => {
                let p = precedence(self);
                // Left-associative; comparisons do not chain, so both sides of one bind tighter.
                let left = if op.is_comparison() { precedence(a) <= p } else { precedence(a) < p };
                // An `&` inside an `|` keeps its parentheses: `a | (b & c)` reads as meant.
                let and_in_or = |x: &Expr| *op == BinOp::Or && matches!(x.kind, ExprKind::Binary(BinOp::And, ..));
                operand(f, a, left || and_in_or(a))?;
                write!(f, " {} ", op.symbol())?;
                operand(f, b, precedence(b) <= p || and_in_or(b))
            }
            ExprKind::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
        }
    }
}
