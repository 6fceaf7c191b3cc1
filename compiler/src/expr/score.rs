//! Score modifications in the kernel IR: a `score = EXPR` over the scaled score `s` (and
//! `softcap = X`, the library expression `X * tanh(s / X)`) as straight-line code with its
//! derivative by `s`, built here once and lowered by every backend through [`Lower`].
//!
//! A backend implements the few primitive operations ([`Prim`]) on its own values (a Cranelift
//! vector, an LLVM vector or scalar, a Rust `f32`); [`lower`] walks the code. The forward kernels
//! lower the value's steps only; the backward kernels lower the derivative too, which multiplies
//! dS. The derivative is forward-mode differentiation with constants folded, so `s` alone has
//! slope 1 and `X * tanh(s / X)` has `X · (1 − t²) · (1/X)` with `t` shared with the value.

use super::{BinOp, Expr, ExprKind, Func, UnOp, Var};
use crate::spec::{Score, ScoreOp};

/// The primitive operations a backend lowers (operands in order; `Pick` is `x where a ≤ b, else y`
/// for operands `[a, b, x, y]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    Neg,
    Add,
    Sub,
    Mul,
    Div,
    Tanh,
    Exp,
    Log,
    Floor,
    Min,
    Max,
    Pick,
}

/// A backend's values and primitive operations.
pub trait Lower {
    type V: Clone;
    fn constant(&mut self, c: f32) -> Self::V;
    fn apply(&mut self, op: Prim, args: &[Self::V]) -> Self::V;
}

/// What a score reads at one pair: the scaled score and, when the score reads them
/// ([`Score::positions`]), the query's and the key's positions within their sequence as floats,
/// and its per-head values ([`Score::head_values`] of the pair's head, when
/// [`Score::reads_head`]).
#[derive(Clone, Debug)]
pub struct Leaves<'a, V> {
    pub s: V,
    pub q: Option<V>,
    pub k: Option<V>,
    pub heads: &'a [V],
}

impl<V> Leaves<'_, V> {
    /// Only the score (a score that reads no position and no head).
    pub fn s(s: V) -> Self {
        Leaves { s, q: None, k: None, heads: &[] }
    }
}

pub use crate::spec::ScoreRole as Role;

/// Per step: whether it reads, directly or through its operands, a leaf `leaf` says yes to
/// (steps come after their operands, so one pass forward).
fn reads(ops: &[ScoreOp], leaf: impl Fn(ScoreOp) -> bool) -> Vec<bool> {
    let mut out: Vec<bool> = Vec::with_capacity(ops.len());
    for &op in ops {
        let mut r = leaf(op);
        renumber(op, |j| {
            r |= out[j as usize];
            j
        });
        out.push(r);
    }
    out
}

/// Per step: whether it reads the score or a position, so is computed per pair, not per head.
fn per_pair(ops: &[ScoreOp]) -> Vec<bool> {
    reads(ops, |op| matches!(op, ScoreOp::S | ScoreOp::Q | ScoreOp::K))
}

/// Each step's role (`Score::roles`, computed when the score is built); the slots of per-head
/// values are numbered in step order, the same for the forward and the backward kernels.
fn roles_of(ops: &[ScoreOp], roots: &[usize]) -> Vec<Role> {
    let n = ops.len();
    // Steps that read the head (or a learned parameter, a value per head) and nothing per pair.
    let leaf = |op| matches!(op, ScoreOp::H | ScoreOp::Param(_) | ScoreOp::Doc);
    let (pair, reads_h) = (per_pair(ops), reads(ops, leaf));
    let head: Vec<bool> = (0..n).map(|i| reads_h[i] && !pair[i]).collect();
    let mut needed = vec![false; n];
    roots.iter().for_each(|&r| needed[r] = true);
    for i in (0..n).rev() {
        if needed[i] && !head[i] {
            renumber(ops[i], |j| {
                needed[j as usize] = true;
                j
            });
        }
    }
    let mut slot = 0;
    (0..n)
        .map(|i| match (needed[i], head[i]) {
            (false, _) => Role::Unused,
            (true, false) => Role::Pair,
            (true, true) => {
                slot += 1;
                Role::Head(slot - 1)
            }
        })
        .collect()
}

impl Score {
    /// How many per-head values the kernels read (0 unless [`Score::reads_head`]).
    pub fn head_count(&self) -> usize {
        if !self.reads_head() {
            return 0;
        }
        self.roles.iter().filter(|r| matches!(r, Role::Head(_))).count()
    }

    /// Head `h`'s values in an array of several heads' (`[heads][head_count]`).
    pub fn values_of_head<'a>(&self, values: &'a [f32], h: usize) -> &'a [f32] {
        let n = self.head_count();
        &values[h * n..(h + 1) * n]
    }

    /// Per slot of [`Score::head_values`]: whether it reads what only a run gives, a learned
    /// parameter (the caller's tensor) or the document (the launch's), not only the spec.
    pub fn run_slots(&self) -> Vec<bool> {
        let learned = reads(&self.ops, |op| matches!(op, ScoreOp::Param(_) | ScoreOp::Doc));
        (0..self.ops.len()).filter(|&i| matches!(self.roles[i], Role::Head(_))).map(|i| learned[i]).collect()
    }

    /// The per-head values of query head `head` (among the heads the attention computes), in
    /// slot order: computed here in f64 and rounded to f32, once per head, where the kernels
    /// would compute them at every pair. `params` are the head's learned parameters in
    /// declaration order (a slot that reads a missing one is NaN); `doc` the launch's document
    /// (`doc(q)`, `doc(k)`).
    pub fn head_values(&self, head: u32, doc: u64, params: &[f32]) -> Vec<f32> {
        if !self.reads_head() {
            return Vec::new();
        }
        let roles = &self.roles;
        let mut vals: Vec<f64> = Vec::with_capacity(self.ops.len());
        let mut out = Vec::new();
        for (i, &op) in self.ops.iter().enumerate() {
            let at = |j: u16| vals[j as usize];
            let v = match op {
                // Per-pair steps are never read by a per-head one.
                ScoreOp::S | ScoreOp::Q | ScoreOp::K => f64::NAN,
                // A mask's test of the head alone (`h < 4`).
                ScoreOp::Pick(a, b, x, y) => {
                    if at(a) <= at(b) {
                        at(x)
                    } else {
                        at(y)
                    }
                }
                ScoreOp::H => head as f64,
                ScoreOp::Doc => doc as f64,
                ScoreOp::Param(j) => params.get(j as usize).map_or(f64::NAN, |&p| p as f64),
                ScoreOp::Alibi(a, n) => super::library::alibi_slope(at(a) as i64, n as i64).unwrap_or(f64::NAN),
                ScoreOp::Const(bits) => f32::from_bits(bits) as f64,
                ScoreOp::Neg(a) => -at(a),
                ScoreOp::Add(a, b) => at(a) + at(b),
                ScoreOp::Sub(a, b) => at(a) - at(b),
                ScoreOp::Mul(a, b) => at(a) * at(b),
                ScoreOp::Div(a, b) => at(a) / at(b),
                ScoreOp::Tanh(a) => at(a).tanh(),
                ScoreOp::Exp(a) => at(a).exp(),
                ScoreOp::Log(a) => at(a).ln(),
                ScoreOp::Floor(a) => at(a).floor(),
                ScoreOp::Min(a, b) => at(a).min(at(b)),
                ScoreOp::Max(a, b) => at(a).max(at(b)),
            };
            vals.push(v);
            if let Role::Head(_) = roles[i] {
                out.push(v as f32);
            }
        }
        out
    }
}

/// The score's value at its leaves and, when `slope`, its derivative by `s`.
pub fn lower<L: Lower>(score: &Score, target: &mut L, leaves: Leaves<'_, L::V>, slope: bool) -> (L::V, Option<L::V>) {
    let (value, slope, _) = lower_grads(score, target, leaves, slope);
    (value, slope)
}

/// [`lower`], and when `slope` the derivatives by the learned parameters (`Score::params`, in
/// declaration order), which the backward kernels multiply by dS and sum per head.
pub fn lower_grads<L: Lower>(
    score: &Score,
    target: &mut L,
    leaves: Leaves<'_, L::V>,
    slope: bool,
) -> (L::V, Option<L::V>, Vec<L::V>) {
    let upto = if slope { score.ops.len() } else { score.values };
    let roles = &score.roles;
    let mut vals: Vec<Option<L::V>> = Vec::with_capacity(upto);
    let position = |v: &Option<L::V>, name: &str| -> L::V {
        v.clone().unwrap_or_else(|| panic!("a score that reads `{name}` is lowered with its position"))
    };
    for (i, op) in score.ops[..upto].iter().enumerate() {
        let at = |i: u16| vals[i as usize].clone().expect("a per-pair step reads lowered steps");
        let v = match (roles[i], *op) {
            (Role::Unused, _) => None,
            (Role::Head(slot), _) => {
                Some(leaves.heads.get(slot).cloned().expect("a score that reads `h` is lowered with its head values"))
            }
            (Role::Pair, op) => Some(match op {
                ScoreOp::S => leaves.s.clone(),
                ScoreOp::Q => position(&leaves.q, "q"),
                ScoreOp::K => position(&leaves.k, "k"),
                ScoreOp::H | ScoreOp::Doc | ScoreOp::Param(_) | ScoreOp::Alibi(..) => {
                    unreachable!("per-head steps are head values")
                }
                ScoreOp::Const(bits) => target.constant(f32::from_bits(bits)),
                ScoreOp::Neg(a) => target.apply(Prim::Neg, &[at(a)]),
                ScoreOp::Tanh(a) => target.apply(Prim::Tanh, &[at(a)]),
                ScoreOp::Exp(a) => target.apply(Prim::Exp, &[at(a)]),
                ScoreOp::Log(a) => target.apply(Prim::Log, &[at(a)]),
                ScoreOp::Floor(a) => target.apply(Prim::Floor, &[at(a)]),
                ScoreOp::Add(a, b) => target.apply(Prim::Add, &[at(a), at(b)]),
                ScoreOp::Sub(a, b) => target.apply(Prim::Sub, &[at(a), at(b)]),
                ScoreOp::Mul(a, b) => target.apply(Prim::Mul, &[at(a), at(b)]),
                ScoreOp::Div(a, b) => target.apply(Prim::Div, &[at(a), at(b)]),
                ScoreOp::Min(a, b) => target.apply(Prim::Min, &[at(a), at(b)]),
                ScoreOp::Max(a, b) => target.apply(Prim::Max, &[at(a), at(b)]),
                ScoreOp::Pick(a, b, x, y) => target.apply(Prim::Pick, &[at(a), at(b), at(x), at(y)]),
            }),
        };
        vals.push(v);
    }
    let value = vals[score.value].clone().expect("the value is lowered");
    let grads = match slope {
        true => score.params.iter().map(|&p| vals[p].clone().expect("a parameter's slope is lowered")).collect(),
        false => Vec::new(),
    };
    (value, slope.then(|| vals[score.slope].clone().expect("the slope is lowered")), grads)
}

/// |x| beyond which tanh(x) rounds to ±1 in f32 (tanh(9.1) = 1 − 2.4e-8).
pub const TANH_CLAMP: f32 = 9.1;

/// tanh by one exponential, the formula the backends lower: 1 − 2 / (1 + e^(2x)), x clamped to
/// ±`TANH_CLAMP` so that e^(2x) stays finite.
pub fn tanh_by_exp(x: f32) -> f32 {
    let x = x.clamp(-TANH_CLAMP, TANH_CLAMP);
    1.0 - 2.0 / (1.0 + (2.0 * x).exp())
}

/// The bits of √½: `log_by_bits` splits x as m·2^e with m in [√½, √2) (backends that lower it
/// on integer lanes subtract them too).
pub const LOG_SQRT_HALF_BITS: i32 = 0x3f35_04f3;

/// The natural logarithm as the CPU backends lower it: x = m·2^e with m in [√½, √2) read off
/// its bits, then e·ln 2 + 2·atanh(z), z = (m − 1)/(m + 1) (|z| ≤ 0.172; the series to z⁹ is
/// within 1e-9 of it). Every backend takes the logarithm of max(x, 2⁻¹²⁶): below the smallest
/// normal float (0, denormals, negatives, NaN) it is ln 2⁻¹²⁶ ≈ −87.3, a weight of e⁻⁸⁷, not a
/// NaN — the kernels score masked pairs too (`log(1 + q - k)` where k > q + 1), and a NaN there
/// would reach dS through the slope. log(+inf) = +inf.
pub fn log_by_bits(x: f32) -> f32 {
    let x = if x >= f32::MIN_POSITIVE { x } else { f32::MIN_POSITIVE };
    if x == f32::INFINITY {
        return x;
    }
    let bits = x.to_bits() as i32;
    let e = (bits - LOG_SQRT_HALF_BITS) >> 23;
    let m = f32::from_bits((bits - (e << 23)) as u32);
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut p = LOG_SERIES[0];
    for c in &LOG_SERIES[1..] {
        p = p.mul_add(z2, *c);
    }
    (e as f32).mul_add(std::f32::consts::LN_2, z * p)
}

/// 2·atanh(z)/z = 2 + 2z²/3 + 2z⁴/5 + 2z⁶/7 + 2z⁸/9, highest power first (Horner in z²).
pub const LOG_SERIES: [f32; 5] = [2.0 / 9.0, 2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0, 2.0];

/// A stable 32-bit FNV-1a hash of a score's steps (kernel names of scores other than soft-caps):
/// two spellings that fold to the same steps name the same kernel.
pub fn fingerprint(score: &Score) -> u32 {
    let steps = format!("{:?}", score.ops);
    steps.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// Plain `f32` arithmetic (tanh as the kernels compute it): the interpreter's and the reference
/// kernels' lowering.
pub struct Scalar;

impl Lower for Scalar {
    type V = f32;

    fn constant(&mut self, c: f32) -> f32 {
        c
    }

    fn apply(&mut self, op: Prim, a: &[f32]) -> f32 {
        match op {
            Prim::Neg => -a[0],
            Prim::Add => a[0] + a[1],
            Prim::Sub => a[0] - a[1],
            Prim::Mul => a[0] * a[1],
            Prim::Div => a[0] / a[1],
            Prim::Tanh => tanh_by_exp(a[0]),
            Prim::Exp => a[0].exp(),
            Prim::Log => log_by_bits(a[0]),
            Prim::Floor => a[0].floor(),
            Prim::Min => a[0].min(a[1]),
            Prim::Max => a[0].max(a[1]),
            Prim::Pick => {
                if a[0] <= a[1] {
                    a[2]
                } else {
                    a[3]
                }
            }
        }
    }
}

/// The score and its slope at `s`, in `f32` (the kernel-IR interpreter's semantics).
///
/// `q` and `k` are the pair's positions within its sequence (read only by scores with
/// [`Score::positions`]); `heads` the score's [`Score::head_values`] of the pair's head.
pub fn eval(score: &Score, s: f32, at: (i64, i64), heads: &[f32]) -> (f32, f32) {
    let (v, d, _) = eval_grads(score, s, at, heads);
    (v, d)
}

/// [`eval`], and the derivatives by the learned parameters (`Score::params`).
pub fn eval_grads(score: &Score, s: f32, (q, k): (i64, i64), heads: &[f32]) -> (f32, f32, Vec<f32>) {
    let leaves = Leaves { s, q: Some(q as f32), k: Some(k as f32), heads };
    let (v, d, g) = lower_grads(score, &mut Scalar, leaves, true);
    (v, d.unwrap_or(1.0), g)
}

/// What a score expression uses that the kernels cannot compute yet, with its byte span.
#[derive(Clone, Debug, PartialEq)]
pub struct Unsupported {
    pub message: String,
    pub span: (usize, usize),
}

/// A value being built: a step, or a constant not yet written (so that constants fold).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Op(u16),
    K(f32),
}

/// Straight-line code under construction, with constant folding and the identities of 0 and 1.
struct Builder {
    ops: Vec<ScoreOp>,
    /// Lowering a mask's integer terms, where `/` is floor division.
    integers: bool,
}

impl Builder {
    fn push(&mut self, op: ScoreOp) -> Val {
        if let Some(i) = self.ops.iter().position(|o| *o == op) {
            return Val::Op(i as u16);
        }
        self.ops.push(op);
        Val::Op((self.ops.len() - 1) as u16)
    }

    fn index(&mut self, v: Val) -> u16 {
        match v {
            Val::Op(i) => i,
            Val::K(c) => match self.push(ScoreOp::Const(c.to_bits())) {
                Val::Op(i) => i,
                Val::K(_) => unreachable!("push returns a step"),
            },
        }
    }

    fn unary(&mut self, f: fn(u16) -> ScoreOp, fold: fn(f32) -> f32, a: Val) -> Val {
        match a {
            Val::K(c) => Val::K(fold(c)),
            Val::Op(i) => self.push(f(i)),
        }
    }

    fn binary(&mut self, f: fn(u16, u16) -> ScoreOp, fold: fn(f32, f32) -> f32, a: Val, b: Val) -> Val {
        if let (Val::K(x), Val::K(y)) = (a, b) {
            return Val::K(fold(x, y));
        }
        let (a, b) = (self.index(a), self.index(b));
        self.push(f(a, b))
    }

    fn neg(&mut self, a: Val) -> Val {
        self.unary(ScoreOp::Neg, |x| -x, a)
    }

    fn add(&mut self, a: Val, b: Val) -> Val {
        let (a, b) = (self.known(a), self.known(b));
        match (a, b) {
            (Val::K(z), x) | (x, Val::K(z)) if z == 0.0 => x,
            _ => self.binary(ScoreOp::Add, |x, y| x + y, a, b),
        }
    }

    fn sub(&mut self, a: Val, b: Val) -> Val {
        let (a, b) = (self.known(a), self.known(b));
        match (a, b) {
            (x, Val::K(0.0)) => x,
            (Val::K(0.0), x) => self.neg(x),
            _ => self.binary(ScoreOp::Sub, |x, y| x - y, a, b),
        }
    }

    fn mul(&mut self, a: Val, b: Val) -> Val {
        let (a, b) = (self.known(a), self.known(b));
        match (a, b) {
            (Val::K(z), _) | (_, Val::K(z)) if z == 0.0 => Val::K(0.0),
            (Val::K(o), x) | (x, Val::K(o)) if o == 1.0 => x,
            // (x·c₁)·c₂ is x·(c₁c₂): a soft-cap's slope, (1 − t²)·(1/X)·X, is 1 − t² (fast math
            // would reassociate it too; written once here, every backend gets it).
            (Val::Op(i), Val::K(c2)) | (Val::K(c2), Val::Op(i)) if self.scaled(i).is_some() => {
                let (x, c1) = self.scaled(i).expect("matched");
                self.mul(Val::Op(x), Val::K(c1 * c2))
            }
            _ => self.binary(ScoreOp::Mul, |x, y| x * y, a, b),
        }
    }

    /// A step that is a constant, as the constant (so that it folds like one).
    fn known(&self, v: Val) -> Val {
        match v {
            Val::Op(i) => match self.ops[i as usize] {
                ScoreOp::Const(bits) => Val::K(f32::from_bits(bits)),
                _ => v,
            },
            k => k,
        }
    }

    /// Step `i` as `x · c` with a constant `c`, if it is one.
    fn scaled(&self, i: u16) -> Option<(u16, f32)> {
        let constant = |j: u16| match self.known(Val::Op(j)) {
            Val::K(c) => Some(c),
            Val::Op(_) => None,
        };
        match self.ops[i as usize] {
            ScoreOp::Mul(x, y) => constant(y).map(|c| (x, c)).or_else(|| constant(x).map(|c| (y, c))),
            _ => None,
        }
    }

    /// A division; by a constant, a multiplication by its reciprocal (what every backend would
    /// do with fast math, written once).
    fn div(&mut self, a: Val, b: Val) -> Val {
        let (a, b) = (self.known(a), self.known(b));
        match b {
            // 0 / x: the slope of a part that does not read `s` (log(1 + q - k)'s).
            _ if a == Val::K(0.0) => Val::K(0.0),
            Val::K(c) if c != 0.0 && !matches!(a, Val::K(_)) => self.mul(a, Val::K(1.0 / c)),
            _ => self.binary(ScoreOp::Div, |x, y| x / y, a, b),
        }
    }

    /// floor(x / c) for a constant c > 0, by a true division (exact for integers below 2^24,
    /// where a multiplication by 1/c is not).
    fn floor_div(&mut self, x: Val, c: Val) -> Val {
        if let (Val::K(x), Val::K(c)) = (self.known(x), self.known(c)) {
            return Val::K((x / c).floor());
        }
        let (xi, ci) = (self.index(x), self.index(c));
        let quotient = self.push(ScoreOp::Div(xi, ci));
        self.unary(ScoreOp::Floor, f32::floor, quotient)
    }

    /// x mod c, Euclidean, for a constant c > 0: x − c·floor(x / c).
    fn rem(&mut self, x: Val, c: Val) -> Val {
        if let (Val::K(x), Val::K(c)) = (self.known(x), self.known(c)) {
            return Val::K(x.rem_euclid(c));
        }
        let floor = self.floor_div(x, c);
        let whole = self.mul(c, floor);
        self.sub(x, whole)
    }

    fn pick(&mut self, a: Val, b: Val, x: Val, y: Val) -> Val {
        if x == y {
            return x;
        }
        if let (Val::K(a), Val::K(b)) = (self.known(a), self.known(b)) {
            return if a <= b { x } else { y };
        }
        let (a, b, x, y) = (self.index(a), self.index(b), self.index(x), self.index(y));
        self.push(ScoreOp::Pick(a, b, x, y))
    }
}

/// The value of an expression over `s` and constants, as steps (`params`: the model's learned
/// parameters in declaration order).
fn value(b: &mut Builder, e: &Expr, params: &[String]) -> Result<Val, Unsupported> {
    let unsupported = |what: &str| Unsupported { message: what.to_string(), span: e.span };
    let value = |b: &mut Builder, e: &Expr| value(b, e, params);
    Ok(match &e.kind {
        ExprKind::Param(name) => match params.iter().position(|p| p == name) {
            Some(j) => b.push(ScoreOp::Param(j as u16)),
            None => return Err(unsupported(&format!("`{name}[h]` is not one of the model's learned parameters"))),
        },
        ExprKind::Var(Var::S) => b.push(ScoreOp::S),
        ExprKind::Var(Var::Q) => b.push(ScoreOp::Q),
        ExprKind::Var(Var::K) => b.push(ScoreOp::K),
        ExprKind::Var(Var::H) => b.push(ScoreOp::H),
        // Equal wherever a pair is scored: pairs across packed sequences are never allowed.
        ExprKind::Var(Var::DocQ | Var::DocK) => b.push(ScoreOp::Doc),
        ExprKind::Int(i) => Val::K(*i as f32),
        ExprKind::Float(f) => Val::K(*f as f32),
        ExprKind::Unary(UnOp::Neg, a) => {
            let a = value(b, a)?;
            b.neg(a)
        }
        ExprKind::Unary(UnOp::Not, _) => return Err(unsupported("`!` is not a number")),
        ExprKind::Binary(op, x, y) => {
            let (x, y) = (value(b, x)?, value(b, y)?);
            match op {
                BinOp::Add => b.add(x, y),
                BinOp::Sub => b.sub(x, y),
                BinOp::Mul => b.mul(x, y),
                BinOp::Div if !b.integers => b.div(x, y),
                // A mask's integer division: Euclidean, by a positive constant.
                BinOp::Div => match b.known(y) {
                    Val::K(c) if c > 0.0 => b.floor_div(x, y),
                    _ => return Err(unsupported("`/` divides by a positive constant")),
                },
                // Euclidean, by a positive constant (the type check).
                BinOp::Rem => match b.known(y) {
                    Val::K(c) if c > 0.0 => b.rem(x, y),
                    _ => return Err(unsupported("`%` divides by a positive constant")),
                },
                other => {
                    return Err(unsupported(&format!("it uses `{}`", other.symbol())));
                }
            }
        }
        ExprKind::Call(Func::Alibi, args) => {
            let head = value(b, &args[0])?;
            let count = match value(b, &args[1])? {
                Val::K(n) if n.fract() == 0.0 && (1.0..=u16::MAX as f32).contains(&n) => n as u16,
                _ => {
                    return Err(Unsupported {
                        message: "`alibi`'s second argument is the model's head count, a whole number from 1 (e.g. `alibi(h, 32)`)".into(),
                        span: args[1].span,
                    });
                }
            };
            match b.known(head) {
                Val::K(c) => match super::library::alibi_slope(c as i64, count as i64) {
                    Some(slope) if c.fract() == 0.0 => Val::K(slope as f32),
                    _ => {
                        return Err(Unsupported {
                            message: format!("alibi({c}, {count}): {c} is not one of the {count} heads"),
                            span: args[0].span,
                        });
                    }
                },
                Val::Op(i) if per_pair(&b.ops)[i as usize] => {
                    return Err(Unsupported {
                        message: "`alibi` takes a head: its first argument reads only `h` and constants".into(),
                        span: args[0].span,
                    });
                }
                Val::Op(i) => b.push(ScoreOp::Alibi(i, count)),
            }
        }
        ExprKind::Call(f, args) => {
            let x = value(b, &args[0])?;
            match f {
                Func::Tanh => b.unary(ScoreOp::Tanh, f32::tanh, x),
                Func::Exp => b.unary(ScoreOp::Exp, f32::exp, x),
                Func::Min | Func::Max => {
                    let y = value(b, &args[1])?;
                    match f {
                        Func::Min => b.binary(ScoreOp::Min, f32::min, x, y),
                        _ => b.binary(ScoreOp::Max, f32::max, x, y),
                    }
                }
                Func::Log => match b.known(x) {
                    Val::K(c) if c > 0.0 => Val::K(c.ln()),
                    Val::K(c) => {
                        return Err(Unsupported { message: format!("log({c}) is not a number"), span: e.span });
                    }
                    Val::Op(i) => b.push(ScoreOp::Log(i)),
                },
                Func::Alibi => unreachable!("matched above"),
            }
        }
    })
}

/// The derivative by the leaf `by` (`s` or a learned parameter) of the steps up to `n`,
/// appended after them (forward mode).
fn slopes(b: &mut Builder, n: usize, by: ScoreOp) -> Vec<Val> {
    let mut d: Vec<Val> = Vec::with_capacity(n);
    for i in 0..n {
        let v = Val::Op(i as u16);
        let dv = match b.ops[i] {
            leaf if leaf == by => Val::K(1.0),
            ScoreOp::S | ScoreOp::Param(_) => Val::K(0.0),
            ScoreOp::Q | ScoreOp::K | ScoreOp::H | ScoreOp::Doc | ScoreOp::Alibi(..) => Val::K(0.0),
            ScoreOp::Const(_) => Val::K(0.0),
            ScoreOp::Neg(a) => {
                let da = d[a as usize];
                b.neg(da)
            }
            ScoreOp::Add(x, y) => b.add(d[x as usize], d[y as usize]),
            ScoreOp::Sub(x, y) => b.sub(d[x as usize], d[y as usize]),
            ScoreOp::Mul(x, y) => {
                let l = b.mul(d[x as usize], Val::Op(y));
                let r = b.mul(Val::Op(x), d[y as usize]);
                b.add(l, r)
            }
            ScoreOp::Div(x, y) => {
                // (dx − v·dy) / y, v = x / y.
                let t = b.mul(v, d[y as usize]);
                let num = b.sub(d[x as usize], t);
                b.div(num, Val::Op(y))
            }
            ScoreOp::Tanh(a) => {
                let tt = b.mul(v, v);
                let one_minus = b.sub(Val::K(1.0), tt);
                b.mul(one_minus, d[a as usize])
            }
            ScoreOp::Exp(a) => b.mul(v, d[a as usize]),
            // Floor steps: 0 almost everywhere (`x % c` has the slope of x).
            ScoreOp::Floor(_) => Val::K(0.0),
            // The slope of log(max(x, 2⁻¹²⁶)) (`log_by_bits`): dx / x, and 0 below the floor, so
            // that x = 0 at a masked pair gives no infinity to multiply a zero probability.
            ScoreOp::Log(a) => match b.div(d[a as usize], Val::Op(a)) {
                Val::K(0.0) => Val::K(0.0),
                q => b.pick(Val::K(f32::MIN_POSITIVE), Val::Op(a), q, Val::K(0.0)),
            },
            // At a tie the slope is the mean of both sides' (what `torch.minimum` and
            // `torch.maximum` give their two inputs), so a kink hit exactly — a zero padding row
            // makes `s` exactly 0 — differentiates as PyTorch would.
            ScoreOp::Min(x, y) => tie(b, (Val::Op(x), Val::Op(y)), d[x as usize], d[y as usize]),
            ScoreOp::Max(x, y) => tie(b, (Val::Op(x), Val::Op(y)), d[y as usize], d[x as usize]),
            // A mask's test: the slope of the side taken (0 where the mask hides the pair).
            ScoreOp::Pick(a, c, x, y) => b.pick(Val::Op(a), Val::Op(c), d[x as usize], d[y as usize]),
        };
        d.push(dv);
    }
    d
}

/// `below` where `x < y`, `above` where `y < x`, their mean at a tie: the slope of `min(x, y)` is
/// `tie((x, y), dx, dy)`, of `max(x, y)` `tie((x, y), dy, dx)`.
fn tie(b: &mut Builder, (x, y): (Val, Val), below: Val, above: Val) -> Val {
    if below == above {
        return below;
    }
    let sum = b.add(below, above);
    let half = b.mul(sum, Val::K(0.5));
    // x ≤ y: the mean (a tie) or `below`, settled by the outer pick; x > y: `above`.
    let not_below = b.pick(x, y, half, above);
    b.pick(y, x, not_below, below)
}

/// `yes` where the mask condition `e` holds, else `no`, as picks (`x` where `a ≤ b`): integer
/// comparisons, `&`, `|` and `!`. `doc(q) == doc(k)` holds wherever a pair is scored.
fn cond(b: &mut Builder, e: &Expr, yes: Val, no: Val) -> Result<Val, Unsupported> {
    Ok(match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => cond(b, a, no, yes)?,
        ExprKind::Binary(BinOp::And, x, y) => {
            let inner = cond(b, y, yes, no)?;
            cond(b, x, inner, no)?
        }
        ExprKind::Binary(BinOp::Or, x, y) => {
            let inner = cond(b, y, yes, no)?;
            cond(b, x, yes, inner)?
        }
        ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), x, y)
            if matches!(
                (&x.kind, &y.kind),
                (ExprKind::Var(Var::DocQ), ExprKind::Var(Var::DocK))
                    | (ExprKind::Var(Var::DocK), ExprKind::Var(Var::DocQ))
            ) =>
        {
            if *op == BinOp::Eq {
                yes
            } else {
                no
            }
        }
        ExprKind::Binary(op, x, y) if op.is_comparison() => {
            // Integer terms: `/` floors. Exact while every value stays within ±2^24, which
            // [`of_masked`]'s caller checks over the positions it plans (`interval::magnitude`).
            b.integers = true;
            let terms = value(b, x, &[]).and_then(|x| Ok((x, value(b, y, &[])?)));
            b.integers = false;
            let (x, y) = terms?;
            let one = Val::K(1.0);
            match op {
                BinOp::Le => b.pick(x, y, yes, no),
                BinOp::Lt => {
                    let y = b.sub(y, one);
                    b.pick(x, y, yes, no)
                }
                BinOp::Ge => b.pick(y, x, yes, no),
                BinOp::Gt => {
                    let x = b.sub(x, one);
                    b.pick(y, x, yes, no)
                }
                BinOp::Eq => {
                    let inner = b.pick(y, x, yes, no);
                    b.pick(x, y, inner, no)
                }
                _ => {
                    let inner = b.pick(y, x, no, yes);
                    b.pick(x, y, inner, yes)
                }
            }
        }
        _ => return Err(Unsupported { message: "this condition".into(), span: e.span }),
    })
}

/// A score expression as kernel code (`Ok(None)` for the plain score `s`, or any expression
/// that is `s` once constants fold); `params` are the model's learned parameters in declaration
/// order.
pub fn of(e: &Expr, text: &str, params: &[String]) -> Result<Option<Score>, Unsupported> {
    let mut b = Builder { ops: Vec::new(), integers: false };
    let root = value(&mut b, e, params)?;
    if let Val::Op(i) = root
        && b.ops[i as usize] == ScoreOp::S
    {
        return Ok(None);
    }
    finish(b, root, e, text, params, None)
}

/// The score `score` (`None`: `s`) with the mask `mask` tested at each pair: the value where
/// the mask holds, −∞ where it does not (slopes 0 there), for a mask that is no band region by
/// region (`spec::Regions::predicate`). The planner's bands contain every pair the mask allows;
/// this makes the kernels exact. Integer terms are f32 steps, exact while they stay within
/// ±2^24 (`interval::magnitude` checks that over the planned positions).
pub fn of_masked(score: Option<&Score>, mask: &Expr) -> Result<Score, Unsupported> {
    let (text, params) = score.map_or(("s".to_string(), Vec::new()), |s| (s.text.clone(), s.param_names.clone()));
    let e = super::parse::parse(&text)
        .map_err(|err| Unsupported { message: format!("score `{text}`: {}", err.message), span: (0, 0) })?;
    let mut b = Builder { ops: Vec::new(), integers: false };
    let value = value(&mut b, &e, &params)?;
    let root = cond(&mut b, mask, value, Val::K(f32::NEG_INFINITY))?;
    let masked = finish(b, root, &e, &text, &params, Some(mask.to_string()))?;
    masked.ok_or_else(|| Unsupported { message: "the mask holds everywhere".into(), span: mask.span })
}

/// The rest of [`of`] and [`of_masked`]: slopes, live steps and roles of the value `root`.
fn finish(
    mut b: Builder,
    root: Val,
    e: &Expr,
    text: &str,
    params: &[String],
    mask: Option<String>,
) -> Result<Option<Score>, Unsupported> {
    let Val::Op(value) = root else {
        return Err(Unsupported {
            message: "the score is a constant, which makes every pair's weight equal; is `s` missing?".into(),
            span: e.span,
        });
    };
    if !b.ops[..=value as usize].contains(&ScoreOp::S) {
        return Err(Unsupported { message: "the score does not read `s`".into(), span: e.span });
    }
    let values = b.ops.len();
    let d = slopes(&mut b, values, ScoreOp::S);
    let slope = b.index(d[value as usize]);
    let mut roots = vec![value, slope];
    for j in 0..params.len() {
        let d = slopes(&mut b, values, ScoreOp::Param(j as u16));
        let at = b.index(d[value as usize]);
        roots.push(at);
    }
    let (ops, values, roots) = live(&b.ops, values, &roots);
    let roots: Vec<usize> = roots.into_iter().map(usize::from).collect();
    let roles = roles_of(&ops, &roots);
    Ok(Some(Score {
        text: text.to_string(),
        ops,
        values,
        value: roots[0],
        slope: roots[1],
        roles,
        param_names: params.to_vec(),
        params: roots[2..].to_vec(),
        mask,
    }))
}

/// The steps `roots` read, in their order (those of the first `values` steps first), renumbered:
/// folding leaves steps nothing reads, such as a soft-cap slope's `(1 − t²)·(1/X)` before the
/// `·X` that cancels it.
fn live(ops: &[ScoreOp], values: usize, roots: &[u16]) -> (Vec<ScoreOp>, usize, Vec<u16>) {
    let mut used = vec![false; ops.len()];
    roots.iter().for_each(|&r| used[r as usize] = true);
    for i in (0..ops.len()).rev() {
        if used[i] {
            renumber(ops[i], |j| {
                used[j as usize] = true;
                j
            });
        }
    }
    let mut new = vec![0u16; ops.len()];
    let mut out = Vec::new();
    for (i, &op) in ops.iter().enumerate() {
        if used[i] {
            new[i] = out.len() as u16;
            out.push(renumber(op, |j| new[j as usize]));
        }
    }
    let kept = used[..values].iter().filter(|&&u| u).count();
    (out, kept, roots.iter().map(|&r| new[r as usize]).collect())
}

/// `op` with each operand `j` replaced by `f(j)` (in operand order; leaves unchanged).
fn renumber(op: ScoreOp, mut f: impl FnMut(u16) -> u16) -> ScoreOp {
    match op {
        ScoreOp::S | ScoreOp::Q | ScoreOp::K | ScoreOp::H | ScoreOp::Doc | ScoreOp::Param(_) | ScoreOp::Const(_) => op,
        ScoreOp::Alibi(a, n) => ScoreOp::Alibi(f(a), n),
        ScoreOp::Neg(a) => ScoreOp::Neg(f(a)),
        ScoreOp::Tanh(a) => ScoreOp::Tanh(f(a)),
        ScoreOp::Exp(a) => ScoreOp::Exp(f(a)),
        ScoreOp::Log(a) => ScoreOp::Log(f(a)),
        ScoreOp::Floor(a) => ScoreOp::Floor(f(a)),
        ScoreOp::Add(a, b) => ScoreOp::Add(f(a), f(b)),
        ScoreOp::Sub(a, b) => ScoreOp::Sub(f(a), f(b)),
        ScoreOp::Mul(a, b) => ScoreOp::Mul(f(a), f(b)),
        ScoreOp::Div(a, b) => ScoreOp::Div(f(a), f(b)),
        ScoreOp::Min(a, b) => ScoreOp::Min(f(a), f(b)),
        ScoreOp::Max(a, b) => ScoreOp::Max(f(a), f(b)),
        ScoreOp::Pick(a, b, x, y) => ScoreOp::Pick(f(a), f(b), f(x), f(y)),
    }
}

/// One shared copy of each distinct score, so that kernel specs stay `Copy`.
pub fn intern(s: Score) -> &'static Score {
    static TABLE: std::sync::Mutex<Vec<&'static Score>> = std::sync::Mutex::new(Vec::new());
    super::intern(&TABLE, s)
}

/// The interned score of an expression's text (the text must parse and compile).
pub fn parse(text: &str) -> Result<Option<&'static Score>, String> {
    parse_with(text, &[])
}

/// [`parse`] for a model with learned parameters (`params`, in declaration order).
pub fn parse_with(text: &str, params: &[String]) -> Result<Option<&'static Score>, String> {
    let e = super::parse::parse(text).map_err(|err| format!("score `{text}`: {}", err.message))?;
    of(&e, &e.to_string(), params).map(|s| s.map(intern)).map_err(|u| format!("score `{text}`: {}", u.message))
}

/// The interned score `text` (with learned parameters `params`) testing the mask `mask`
/// ([`of_masked`]): how plans and manifests read a masked score back.
pub fn parse_masked(text: &str, params: &[String], mask: &str) -> Result<&'static Score, String> {
    let score = parse_with(text, params)?;
    let e = super::parse::parse(mask).map_err(|err| format!("mask `{mask}`: {}", err.message))?;
    of_masked(score, &e).map(intern).map_err(|u| format!("mask `{mask}`: {}", u.message))
}

/// [`parse`] where no model declares the learned parameters: every `NAME[h]` the text reads is
/// declared, in the order they first appear (benchmarks and tests).
pub fn parse_declaring(text: &str) -> Result<Option<&'static Score>, String> {
    let e = super::parse::parse(text).map_err(|err| format!("score `{text}`: {}", err.message))?;
    let names: Vec<String> = e.params().into_iter().map(|(n, _)| n.to_string()).collect();
    parse_with(text, &names)
}

/// The head count `N` of a score that is exactly ALiBi, `s - alibi(h, N) * (q - k)` however
/// spelt (TransformerEngine's `core_attention_bias_type = "alibi"` with its default slopes).
pub fn alibi_of(score: &Score) -> Option<u16> {
    let n = score.ops.iter().find_map(|op| match op {
        ScoreOp::Alibi(_, n) => Some(*n),
        _ => None,
    })?;
    let pure = parse(&format!("s - alibi(h, {n}) * (q - k)")).ok().flatten()?;
    (pure.ops == score.ops).then_some(n)
}

/// `softcap = X` as its library expression (`X > 0`).
pub fn softcap(cap: f64) -> &'static Score {
    let text = super::library::softcap(cap);
    parse(&text).ok().flatten().expect("the library's soft-cap compiles")
}

/// The cap of a score that is the soft-cap's expression (`X * tanh(s / X)`), for kernel names
/// and messages.
pub fn cap_of(score: &Score) -> Option<f64> {
    if score.mask.is_some() {
        return None;
    }
    let e = super::parse::parse(&score.text).ok()?;
    super::named::softcap(&e).ok().flatten()
}

/// Reads a score from its text (plans and kernel manifests hold the text).
pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'static Score>, D::Error> {
    use serde::Deserialize;
    match Option::<crate::spec::ScoreText>::deserialize(d)? {
        None => Ok(None),
        Some(crate::spec::ScoreText::Text(text)) => parse(&text).map_err(serde::de::Error::custom),
        Some(crate::spec::ScoreText::WithParams { text, params, mask: None }) => {
            parse_with(&text, &params).map_err(serde::de::Error::custom)
        }
        Some(crate::spec::ScoreText::WithParams { text, params, mask: Some(mask) }) => {
            parse_masked(&text, &params, &mask).map(Some).map_err(serde::de::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(text: &str) -> &'static Score {
        parse(text).unwrap().expect("not the plain score")
    }

    #[test]
    fn softcap_shares_tanh_with_its_slope() {
        let s = score("30 * tanh(s / 30)");
        // s, 1/30, s·(1/30), tanh, 30, 30·t; then t², 1, 1 − t² (·(1/30)·30 folds away).
        assert_eq!(s.values, 6, "{:?}", s.ops);
        assert_eq!(s.ops.len(), 9, "{:?}", s.ops);
        assert_eq!(s.ops[s.slope], ScoreOp::Sub(7, 6), "{:?}", s.ops);
        for x in [-200.0f32, -3.0, 0.0, 0.5, 45.0] {
            let (v, d) = eval(s, x, (0, 0), &[]);
            let t = (x / 30.0).tanh();
            assert!((v - 30.0 * t).abs() < 1e-4, "{x}: {v}");
            assert!((d - (1.0 - t * t)).abs() < 1e-5, "{x}: {d}");
        }
    }

    #[test]
    fn slopes_match_differences() {
        for text in [
            "min(s, 5) + 0.5 * s",
            "max(s * 2, -1)",
            "s - exp(s / 4)",
            "2 / (1 + exp(-s))",
            "-s * s",
            "log(1 + s * s) - s",
        ] {
            let sc = score(text);
            for x in [-3.0f32, -0.7, 0.3, 2.5, 7.0] {
                let h = 1e-2f32;
                let num = (eval(sc, x + h, (0, 0), &[]).0 - eval(sc, x - h, (0, 0), &[]).0) / (2.0 * h);
                let d = eval(sc, x, (0, 0), &[]).1;
                assert!((num - d).abs() < 2e-2 * (1.0 + d.abs()), "{text} at {x}: {d} vs {num}");
            }
        }
    }

    #[test]
    fn ties_split_the_slope_as_torch_does() {
        // torch.minimum/maximum give each input half the gradient where they are equal.
        for (text, below, tie, above) in [
            ("min(s, 0)", 1.0, 0.5, 0.0),
            ("max(s, 0)", 0.0, 0.5, 1.0),
            ("max(s - 1, 0) / 4", 0.0, 0.125, 0.25),
            ("min(2 * s, s)", 2.0, 1.5, 1.0),
        ] {
            let sc = score(text);
            let at = if text.contains("- 1") { 1.0 } else { 0.0 };
            assert_eq!(eval(sc, at - 0.5, (0, 0), &[]).1, below, "{text} below the kink");
            assert_eq!(eval(sc, at, (0, 0), &[]).1, tie, "{text} at the kink");
            assert_eq!(eval(sc, at + 0.5, (0, 0), &[]).1, above, "{text} above the kink");
        }
    }

    #[test]
    fn positions_are_leaves_without_slope() {
        let sc = score("s - (q - k) / 8");
        assert!(sc.positions());
        assert_eq!(eval(sc, 1.5, (10, 2), &[]), (0.5, 1.0));
        assert_eq!(eval(sc, 1.5, (2, 2), &[]), (1.5, 1.0));
        assert!(!score("30 * tanh(s / 30)").positions());
    }

    #[test]
    fn the_plain_score_and_constants_fold() {
        assert_eq!(parse("s").unwrap(), None);
        assert_eq!(parse("1 * s + 0").unwrap(), None);
        let two = score("s * (1 + 1)");
        assert_eq!(two.ops, [ScoreOp::S, ScoreOp::Const(2.0f32.to_bits()), ScoreOp::Mul(0, 1)]);
        assert_eq!(eval(two, 3.0, (0, 0), &[]), (6.0, 2.0));
    }

    #[test]
    fn log_by_bits_is_the_logarithm() {
        let mut x = 1e-30f32;
        while x < 1e30 {
            for y in [x, x * 1.37, x * 1.41, x * 1.9999] {
                let (got, want) = (log_by_bits(y) as f64, (y as f64).ln());
                assert!((got - want).abs() <= 4e-7 * want.abs().max(1.0), "log({y}) = {got}, not {want}");
            }
            x *= 3.1;
        }
        assert_eq!(log_by_bits(1.0), 0.0);
        assert_eq!(log_by_bits(f32::INFINITY), f32::INFINITY);
        // Below the smallest normal float, the logarithm of it: finite, whatever the masked pairs hold.
        let least = log_by_bits(f32::MIN_POSITIVE);
        assert!((least as f64 - (f32::MIN_POSITIVE as f64).ln()).abs() < 1e-5, "{least}");
        for x in [0.0, 1e-40, -1.0, f32::NEG_INFINITY, f32::NAN] {
            assert_eq!(log_by_bits(x), least, "log({x})");
        }
        // Below the floor the slope is 0, not dx / x.
        let sq = score("log(s * s) + s");
        assert_eq!(eval(sq, 0.0, (0, 0), &[]).1, 1.0);
        assert!((eval(sq, 0.5, (0, 0), &[]).1 - 5.0).abs() < 1e-5);
        // A logarithm of positions only has no slope step by `s`.
        let sc = score("s - log(1 + q - k)");
        assert_eq!(eval(sc, 0.5, (8, 1), &[]).1, 1.0);
        assert!((eval(sc, 0.5, (8, 1), &[]).0 - (0.5 - 8f32.ln())).abs() < 1e-6);
    }

    #[test]
    fn per_head_steps_become_head_values() {
        let alibi = score("s - alibi(h, 8) * (q - k)");
        assert!(alibi.reads_head() && alibi.positions());
        assert_eq!(alibi.head_count(), 1, "{:?} {:?}", alibi.ops, alibi.roles);
        assert_eq!(alibi.head_values(0, 0, &[]), [0.5]);
        assert_eq!(alibi.head_values(7, 0, &[]), [0.00390625]);
        assert_eq!(eval(alibi, 1.0, (10, 2), &alibi.head_values(0, 0, &[])), (-3.0, 1.0));
        // Two per-head values, in step order: h itself and exp(−h/4); the slope is the second.
        let mixed = score("s * exp(-h / 4) + h");
        assert_eq!(mixed.head_count(), 2, "{:?} {:?}", mixed.ops, mixed.roles);
        let hv = mixed.head_values(2, 0, &[]);
        assert_eq!(hv, [2.0, (-0.5f64).exp() as f32]);
        let (v, d) = eval(mixed, 3.0, (0, 0), &hv);
        assert!((v - (3.0 * (-0.5f32).exp() + 2.0)).abs() < 1e-6 && (d - (-0.5f32).exp()).abs() < 1e-7, "{v} {d}");
        // Kernels never compute a per-head step: the host does, once per head.
        assert!(
            mixed
                .roles
                .iter()
                .zip(&mixed.ops)
                .all(|(r, op)| *r != Role::Pair || !matches!(op, ScoreOp::H | ScoreOp::Alibi(..)))
        );
        assert!(!score("s - (q - k) / 8").reads_head());
        assert_eq!(score("s - (q - k) / 8").head_values(3, 0, &[]), Vec::<f32>::new());
        // A constant head folds: alibi(1, 8) is 1/4.
        assert_eq!(score("s - alibi(1, 8) * (q - k)").head_count(), 0);
    }

    #[test]
    fn learned_parameters_are_head_values_with_gradients() {
        let names = ["slope".to_string(), "temp".to_string()];
        let text = "s * exp(temp[h]) - slope[h] * (q - k)";
        let sc = parse_with(text, &names).unwrap().unwrap();
        assert!(sc.has_params() && sc.reads_head() && sc.positions());
        assert_eq!(sc.param_names, names);
        // Per-head values: slope and exp(temp) (the host's, from the caller's tensor); the kernels
        // compute neither.
        let (slope, temp) = (0.25f32, -0.5f32);
        let hv = sc.head_values(3, 0, &[slope, temp]);
        assert_eq!(sc.run_slots(), vec![true; hv.len()]);
        assert!(hv.contains(&slope) && hv.contains(&((temp as f64).exp() as f32)), "{hv:?}");
        assert!(sc.roles.iter().zip(&sc.ops).all(|(r, op)| *r != Role::Pair || !matches!(op, ScoreOp::Param(_))));
        // Value, slope by s, and the derivatives by slope and by temp, against the formula.
        let (s, q, k) = (1.5f32, 9i64, 2i64);
        let (v, d, g) = eval_grads(sc, s, (q, k), &hv);
        let e = temp.exp();
        assert!((v - (s * e - slope * 7.0)).abs() < 1e-5, "{v}");
        assert!((d - e).abs() < 1e-6, "{d}");
        assert_eq!(g.len(), 2);
        assert!((g[0] + 7.0).abs() < 1e-6 && (g[1] - s * e).abs() < 1e-5, "{g:?}");
        // A parameter read through a nonlinearity: d/dp tanh(s·p) = (1 − tanh²)·s.
        let one = parse_with("tanh(s * p[h])", &["p".to_string()]).unwrap().unwrap();
        let (v, _, g) = eval_grads(one, 0.5, (0, 0), &one.head_values(0, 0, &[2.0]));
        assert!((g[0] - (1.0 - v * v) * 0.5).abs() < 1e-6, "{g:?}");
        // The same text with the parameters in the other order is another score (and kernel).
        let swapped = parse_with(text, &["temp".to_string(), "slope".to_string()]).unwrap().unwrap();
        assert_ne!(sc.ops, swapped.ops);
        assert_ne!(fingerprint(sc), fingerprint(swapped));
        // An undeclared parameter is named.
        let e = crate::expr::parse::parse("s - b[h]").unwrap();
        assert!(of(&e, "s - b[h]", &names).unwrap_err().message.contains("`b[h]`"));
        // Read back from a plan: the text and the names.
        let json = serde_json::to_string(&sc).unwrap();
        assert!(json.contains("\"params\":[\"slope\",\"temp\"]"), "{json}");
        #[derive(serde::Deserialize)]
        struct Holder {
            #[serde(deserialize_with = "deserialize")]
            s: Option<&'static Score>,
        }
        let back: Holder = serde_json::from_str(&format!("{{\"s\":{json}}}")).unwrap();
        assert!(std::ptr::eq(back.s.unwrap(), sc));
    }

    #[test]
    fn the_document_is_a_value_per_launch() {
        // doc(q) and doc(k) are one leaf: equal wherever a pair is scored.
        let sc = score("s * (1 + doc(q) / 8) - doc(k) / 4");
        assert!(sc.reads_doc() && sc.reads_head() && !sc.positions());
        assert_eq!(sc.run_slots(), vec![true; sc.head_count()]);
        let hv = sc.head_values(5, 2, &[]);
        let (v, d) = eval(sc, 1.0, (0, 0), &hv);
        assert!((v - (1.25 - 0.5)).abs() < 1e-6 && (d - 1.25).abs() < 1e-6, "{v} {d} {hv:?}");
        assert!(!score("s - (q - k) / 8").reads_doc());
    }

    #[test]
    fn alibi_is_recognised_however_spelt() {
        assert_eq!(alibi_of(score("s - alibi(h, 32) * (q - k)")), Some(32));
        assert_eq!(alibi_of(score("s + alibi(h, 12) * (k - q)")), None, "a different order of steps");
        assert_eq!(alibi_of(score("s - (q - k) * alibi(h, 12)")), None);
        assert_eq!(alibi_of(score("2 * tanh(s / 2) - alibi(h, 8) * (q - k)")), None);
        assert_eq!(alibi_of(score("s - (q - k) / 16")), None);
    }

    #[test]
    fn alibi_takes_a_head_and_a_count() {
        for (text, says) in [
            ("s - alibi(q, 8)", "reads only `h`"),
            ("s - alibi(h, 0)", "head count"),
            ("s - alibi(h, k)", "head count"),
            ("s - alibi(h, 2.5)", "head count"),
            ("s - alibi(9, 8)", "not one of the 8 heads"),
        ] {
            let e = crate::expr::parse::parse(text).unwrap();
            let err = of(&e, text, &[]).unwrap_err();
            assert!(err.message.contains(says), "{text}: {}", err.message);
        }
    }

    #[test]
    fn remainders_are_euclidean() {
        let sc = score("s + (q - k) % 7 / 4 - k % 5");
        for (q, k) in [(0i64, 0i64), (13, 6), (6, 13), (100, 3), (16_000_000, 1)] {
            let want = (q - k).rem_euclid(7) as f32 / 4.0 - k.rem_euclid(5) as f32;
            let (v, d) = eval(sc, 0.25, (q, k), &[]);
            assert_eq!((v, d), (0.25 + want, 1.0), "q {q} k {k}");
        }
        // Of the score itself: the slope of x.
        assert_eq!(eval(score("s % 2"), -0.5, (0, 0), &[]), (1.5, 1.0));
    }

    #[test]
    fn what_the_kernels_cannot_compute_is_named() {
        for (text, says) in [("s + log(-2)", "log(-2)"), ("3", "constant")] {
            let e = crate::expr::parse::parse(text).unwrap();
            let err = of(&e, text, &[]).unwrap_err();
            assert!(err.message.contains(says), "{text}: {}", err.message);
        }
    }
}
