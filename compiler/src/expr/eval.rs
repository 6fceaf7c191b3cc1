//! The interpreter of expressions: the oracle every lowering of a mask or score is checked
//! against (the fp64 reference evaluates masks through it, pair by pair).

use super::{BinOp, Expr, ExprKind, Func, UnOp, Var, div_euclid, rem_euclid};

/// The values an expression reads at one (query, key) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    pub q: i64,
    pub k: i64,
    pub h: i64,
    pub doc_q: i64,
    pub doc_k: i64,
    pub s: f64,
}

/// A value: integers stay exact, floats are fp64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Float(f64),
}

impl Value {
    fn float(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            Value::Bool(b) => b as i64 as f64,
        }
    }
}

/// Why an expression has no value at a point (a type-checked one only for a division by a
/// computed zero, or an integer overflow).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct EvalError(pub String);

/// The expression's value at `at`.
pub fn eval(e: &Expr, at: &Point) -> Result<Value, EvalError> {
    Ok(match &e.kind {
        ExprKind::Var(v) => match v {
            Var::Q => Value::Int(at.q),
            Var::K => Value::Int(at.k),
            Var::H => Value::Int(at.h),
            Var::DocQ => Value::Int(at.doc_q),
            Var::DocK => Value::Int(at.doc_k),
            Var::S => Value::Float(at.s),
        },
        ExprKind::Int(i) => Value::Int(*i),
        ExprKind::Float(f) => Value::Float(*f),
        // Masks read none (the type check); scores are evaluated with their values by the fp64
        // reference (`runtime::reference`).
        ExprKind::Param(name) => {
            return Err(EvalError(format!("`{name}[h]` is a learned parameter, with no value here")));
        }
        ExprKind::Unary(UnOp::Not, a) => match eval(a, at)? {
            Value::Bool(b) => Value::Bool(!b),
            v => return Err(EvalError(format!("`!` of {v:?}"))),
        },
        ExprKind::Unary(UnOp::Neg, a) => match eval(a, at)? {
            Value::Int(i) => Value::Int(i.checked_neg().ok_or_else(|| overflow(e))?),
            v => Value::Float(-v.float()),
        },
        ExprKind::Binary(BinOp::And, a, b) => Value::Bool(truth(a, at)? && truth(b, at)?),
        ExprKind::Binary(BinOp::Or, a, b) => Value::Bool(truth(a, at)? || truth(b, at)?),
        ExprKind::Binary(op, a, b) => binary(*op, eval(a, at)?, eval(b, at)?).ok_or_else(|| overflow(e))?,
        ExprKind::Call(Func::Alibi, args) => match (eval(&args[0], at)?, eval(&args[1], at)?) {
            (Value::Int(head), Value::Int(heads)) => Value::Float(
                super::library::alibi_slope(head, heads)
                    .ok_or_else(|| EvalError(format!("alibi({head}, {heads}): not one of the {heads} heads")))?,
            ),
            (x, n) => return Err(EvalError(format!("alibi of {x:?} and {n:?}: it takes a head and a head count"))),
        },
        ExprKind::Call(f, args) => {
            let x = eval(&args[0], at)?.float();
            Value::Float(match f {
                Func::Tanh => x.tanh(),
                Func::Exp => x.exp(),
                Func::Log => x.ln(),
                Func::Min => x.min(eval(&args[1], at)?.float()),
                Func::Max => x.max(eval(&args[1], at)?.float()),
                Func::Alibi => unreachable!("matched above"),
            })
        }
    })
}

fn overflow(e: &Expr) -> EvalError {
    EvalError(format!("integer overflow or division by zero at bytes {}..{}", e.span.0, e.span.1))
}

/// A condition's value (a mask's: whether the pair is allowed).
pub fn truth(e: &Expr, at: &Point) -> Result<bool, EvalError> {
    match eval(e, at)? {
        Value::Bool(b) => Ok(b),
        v => Err(EvalError(format!("expected a condition, got {v:?}"))),
    }
}

fn binary(op: BinOp, a: Value, b: Value) -> Option<Value> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return Some(match op {
            BinOp::Add => Value::Int(x.checked_add(y)?),
            BinOp::Sub => Value::Int(x.checked_sub(y)?),
            BinOp::Mul => Value::Int(x.checked_mul(y)?),
            BinOp::Div => Value::Int(div_euclid(x, y)?),
            BinOp::Rem => Value::Int(rem_euclid(x, y)?),
            op => Value::Bool(compare(op, x, y)?),
        });
    }
    let (x, y) = (a.float(), b.float());
    Some(match op {
        BinOp::Add => Value::Float(x + y),
        BinOp::Sub => Value::Float(x - y),
        BinOp::Mul => Value::Float(x * y),
        BinOp::Div => Value::Float(x / y),
        BinOp::Rem => Value::Float(x.rem_euclid(y)),
        op => Value::Bool(compare(op, x, y)?),
    })
}

/// A comparison's truth (`None` for an operator that is not one).
fn compare<T: PartialOrd>(op: BinOp, x: T, y: T) -> Option<bool> {
    Some(match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        _ => return None,
    })
}
