//! Values and the scalar instructions: types as the PTX ISA names them (chapter 5.2, "Types"),
//! registers as raw bits, and what each arithmetic, comparison, selection and conversion
//! instruction computes (chapter 9.7, "Instructions").

use crate::parse::Inst;

/// A PTX scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    U(u32),
    S(u32),
    B(u32),
    F(u32),
    Bf16,
    Pred,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "pred" => Ty::Pred,
            "bf16" => Ty::Bf16,
            "f16x2" | "bf16x2" => Ty::B(32),
            _ => {
                let (kind, bits) = s.split_at(1);
                let bits: u32 = bits.parse().ok()?;
                if !matches!(bits, 8 | 16 | 32 | 64) {
                    return None;
                }
                match kind {
                    "u" => Ty::U(bits),
                    "s" => Ty::S(bits),
                    "b" => Ty::B(bits),
                    "f" if bits >= 16 => Ty::F(bits),
                    _ => return None,
                }
            }
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            Ty::U(b) | Ty::S(b) | Ty::B(b) | Ty::F(b) => b,
            Ty::Bf16 => 16,
            Ty::Pred => 1,
        }
    }

    pub fn bytes(self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }

    /// The low bits of `v` this type holds (a predicate: 0 or 1).
    pub fn mask(self, v: u64) -> u64 {
        match self.bits() {
            64 => v,
            1 => (v != 0) as u64,
            b => v & ((1u64 << b) - 1),
        }
    }

    /// `v` (this type's bits) sign-extended to 64 bits for signed types.
    pub fn extend(self, v: u64) -> u64 {
        match self {
            Ty::S(b) if b < 64 => (((v << (64 - b)) as i64) >> (64 - b)) as u64,
            _ => v,
        }
    }

    /// The register type a load of this type writes (8-bit values widen).
    pub fn reg_ty(self) -> Ty {
        match self {
            Ty::U(8) | Ty::B(8) => Ty::U(32),
            Ty::S(8) => Ty::S(32),
            t => t,
        }
    }

    fn signed(self) -> bool {
        matches!(self, Ty::S(_))
    }

    fn float(self) -> bool {
        matches!(self, Ty::F(_) | Ty::Bf16)
    }

    fn widened(self) -> Ty {
        match self {
            Ty::U(b) => Ty::U(b * 2),
            Ty::S(b) => Ty::S(b * 2),
            Ty::B(b) => Ty::B(b * 2),
            t => t,
        }
    }
}

pub fn to_f32_bits(f: f32) -> u64 {
    f.to_bits() as u64
}

pub fn f32_of(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

/// Little-endian bytes (1 to 8) as a value.
pub fn read_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// What a scalar instruction writes: one value, or a predicate pair (`setp`'s `p|q`).
pub enum Out {
    One(u64, Ty),
    Pair(u64, u64),
}

/// Subnormal f32 inputs and results to (signed) zero, as `.ftz` asks.
fn ftz(x: f32, on: bool) -> f32 {
    if on && x.is_subnormal() { 0.0f32.copysign(x) } else { x }
}

/// A float operation on the type's width: `f(a, b, c)` in f64 for f64, in f32 otherwise.
struct Float {
    ty: Ty,
    ftz: bool,
}

impl Float {
    fn of(&self, bits: u64) -> f64 {
        match self.ty {
            Ty::F(64) => f64::from_bits(bits),
            _ => ftz(f32_of(bits), self.ftz) as f64,
        }
    }

    fn bits(&self, x: f64) -> u64 {
        match self.ty {
            Ty::F(64) => x.to_bits(),
            _ => to_f32_bits(ftz(x as f32, self.ftz)),
        }
    }

    /// `f` on f32 values exactly (the f32 result of an f32 operation, not f64's rounded).
    fn f32op(&self, a: u64, b: u64, f: impl Fn(f32, f32) -> f32, g: impl Fn(f64, f64) -> f64) -> u64 {
        match self.ty {
            Ty::F(64) => g(f64::from_bits(a), f64::from_bits(b)).to_bits(),
            _ => to_f32_bits(ftz(f(ftz(f32_of(a), self.ftz), ftz(f32_of(b), self.ftz)), self.ftz)),
        }
    }
}

fn compare(cmp: &str, ty: Ty, a: u64, b: u64) -> Result<bool, String> {
    if ty.float() {
        let (x, y) = match ty {
            Ty::F(64) => (f64::from_bits(a), f64::from_bits(b)),
            _ => (f32_of(a) as f64, f32_of(b) as f64),
        };
        let unordered = x.is_nan() || y.is_nan();
        return Ok(match cmp {
            "eq" => x == y,
            "ne" => x != y && !unordered,
            "lt" => x < y,
            "le" => x <= y,
            "gt" => x > y,
            "ge" => x >= y,
            "equ" => unordered || x == y,
            "neu" => unordered || x != y,
            "ltu" => unordered || x < y,
            "leu" => unordered || x <= y,
            "gtu" => unordered || x > y,
            "geu" => unordered || x >= y,
            "num" => !unordered,
            "nan" => unordered,
            other => return Err(format!("float comparison `{other}`")),
        });
    }
    let (sa, sb) = (ty.extend(a) as i64, ty.extend(b) as i64);
    let signed = ty.signed();
    Ok(match cmp {
        "eq" => a == b,
        "ne" => a != b,
        "lt" if signed => sa < sb,
        "le" if signed => sa <= sb,
        "gt" if signed => sa > sb,
        "ge" if signed => sa >= sb,
        "lt" | "lo" => a < b,
        "le" | "ls" => a <= b,
        "gt" | "hi" => a > b,
        "ge" | "hs" => a >= b,
        other => return Err(format!("integer comparison `{other}`")),
    })
}

/// A float's round-to-integer by a `cvt` rounding mode.
fn round_mode(x: f64, mode: &str) -> f64 {
    match mode {
        "rni" => x.round_ties_even(),
        "rmi" => x.floor(),
        "rpi" => x.ceil(),
        _ => x.trunc(),
    }
}

/// `cvt.ROUND?.FTZ?.SAT?.DTYPE.ATYPE d, a`.
fn convert(inst: &Inst, get: &dyn Fn(usize, Ty) -> Result<u64, String>) -> Result<Out, String> {
    let n = inst.op.len();
    let (dst, src) = match (Ty::parse(&inst.op[n - 2]), Ty::parse(&inst.op[n - 1])) {
        (Some(d), Some(s)) => (d, s),
        _ => return Err(format!("`{}`: a conversion needs two types", inst.op.join("."))),
    };
    let mode = inst.op.iter().find(|p| matches!(p.as_str(), "rn" | "rz" | "rm" | "rp" | "rni" | "rzi" | "rmi" | "rpi"));
    let mode = mode.map(String::as_str).unwrap_or("");
    let flush = inst.has("ftz");
    let a = get(1, src)?;
    // The source as f64 (floats) or i128 (integers).
    let as_float = |bits: u64| -> f64 {
        match src {
            Ty::F(64) => f64::from_bits(bits),
            Ty::F(32) => ftz(f32_of(bits), flush) as f64,
            Ty::F(16) => half::f16::from_bits(bits as u16).to_f64(),
            Ty::Bf16 => half::bf16::from_bits(bits as u16).to_f64(),
            _ if src.signed() => src.extend(bits) as i64 as f64,
            _ => bits as f64,
        }
    };
    // A float to a float with an integer rounding (`cvt.rmi.f32.f32`: floor) rounds to an integer
    // in the float's type; `rn`, `rz`, … round the precision only.
    let integral = src.float() && matches!(mode, "rni" | "rzi" | "rmi" | "rpi");
    let float_of = |bits: u64| if integral { round_mode(as_float(bits), mode) } else { as_float(bits) };
    let v = match (src.float(), dst) {
        (false, Ty::U(_) | Ty::S(_) | Ty::B(_)) => src.extend(a),
        (_, Ty::F(64)) => float_of(a).to_bits(),
        (_, Ty::F(32)) => to_f32_bits(ftz(float_of(a) as f32, flush)),
        (_, Ty::F(16)) => half::f16::from_f64(float_of(a)).to_bits() as u64,
        (_, Ty::Bf16) => half::bf16::from_f64(float_of(a)).to_bits() as u64,
        (true, Ty::U(b) | Ty::B(b)) => {
            // Float to integer saturates; NaN is 0.
            let x = round_mode(as_float(a), mode);
            let max = if b == 64 { u64::MAX as f64 } else { ((1u64 << b) - 1) as f64 };
            if x.is_nan() { 0 } else { x.clamp(0.0, max) as u64 }
        }
        (true, Ty::S(b)) => {
            let x = round_mode(as_float(a), mode);
            let (lo, hi) = (-(2f64.powi(b as i32 - 1)), 2f64.powi(b as i32 - 1) - 1.0);
            if x.is_nan() { 0 } else { x.clamp(lo, hi) as i64 as u64 }
        }
        (_, Ty::Pred | Ty::F(_)) => return Err(format!("`{}`: conversion to this type", inst.op.join("."))),
    };
    if src.float() && dst.float() && !matches!(mode, "" | "rn") && dst.bits() < src.bits() {
        return Err(format!("`{}`: rounding mode `{mode}` for float narrowing", inst.op.join(".")));
    }
    Ok(Out::One(dst.mask(v), dst))
}

/// Executes a scalar instruction of type `ty` (the opcode's last part); `get(i, t)` reads
/// operand `i` as type `t`.
pub fn compute(inst: &Inst, ty: Ty, get: impl Fn(usize, Ty) -> Result<u64, String>) -> Result<Out, String> {
    let op = inst.op[0].as_str();
    let unknown = || format!("`{}` is not an instruction this interpreter knows", inst.op.join("."));
    let fl = Float { ty, ftz: inst.has("ftz") };
    let one = |v: u64| Ok(Out::One(ty.mask(v), ty));
    if op == "cvt" {
        return convert(inst, &get);
    }
    if op == "setp" {
        let cmp = inst.op.get(1).ok_or_else(unknown)?;
        let p = compare(cmp, ty, get(1, ty)?, get(2, ty)?)?;
        let p = match inst.op.get(2).map(String::as_str) {
            Some("and") => p && get(3, Ty::Pred)? != 0,
            Some("or") => p || get(3, Ty::Pred)? != 0,
            Some("xor") => p ^ (get(3, Ty::Pred)? != 0),
            _ => p,
        };
        return Ok(Out::Pair(p as u64, !p as u64));
    }
    if op == "selp" {
        let c = get(3, Ty::Pred)? != 0;
        return one(if c { get(1, ty)? } else { get(2, ty)? });
    }
    if op == "mov" {
        return one(get(1, ty)?);
    }
    if ty.float() {
        let (a, b) = (|| get(1, ty), || get(2, ty));
        return match op {
            "add" => one(fl.f32op(a()?, b()?, |x, y| x + y, |x, y| x + y)),
            "sub" => one(fl.f32op(a()?, b()?, |x, y| x - y, |x, y| x - y)),
            "mul" => one(fl.f32op(a()?, b()?, |x, y| x * y, |x, y| x * y)),
            "div" => one(fl.f32op(a()?, b()?, |x, y| x / y, |x, y| x / y)),
            "min" => one(fl.f32op(a()?, b()?, f32::min, f64::min)),
            "max" => one(fl.f32op(a()?, b()?, f32::max, f64::max)),
            "fma" | "mad" => {
                let c = get(3, ty)?;
                one(match ty {
                    Ty::F(64) => f64::from_bits(a()?).mul_add(f64::from_bits(b()?), f64::from_bits(c)).to_bits(),
                    _ => fl.bits(
                        ftz(f32_of(a()?), fl.ftz).mul_add(ftz(f32_of(b()?), fl.ftz), ftz(f32_of(c), fl.ftz)) as f64
                    ),
                })
            }
            "neg" => one(fl.bits(-fl.of(a()?))),
            "abs" => one(fl.bits(fl.of(a()?).abs())),
            // The approximate instructions are computed exactly and rounded: within the ISA's
            // stated error of the hardware's results (ex2.approx: 2 ulp; lg2.approx: 2^-22.6
            // absolute; rcp.approx, rsqrt.approx: 1 ulp).
            "ex2" => one(fl.bits(fl.of(a()?).exp2())),
            "lg2" => one(fl.bits(fl.of(a()?).log2())),
            "rcp" => one(fl.f32op(a()?, a()?, |x, _| 1.0 / x, |x, _| 1.0 / x)),
            "sqrt" => one(fl.f32op(a()?, a()?, |x, _| x.sqrt(), |x, _| x.sqrt())),
            "rsqrt" => one(fl.bits(1.0 / fl.of(a()?).sqrt())),
            "sin" => one(fl.bits(fl.of(a()?).sin())),
            "cos" => one(fl.bits(fl.of(a()?).cos())),
            "tanh" => one(fl.bits(fl.of(a()?).tanh())),
            _ => Err(unknown()),
        };
    }
    if ty == Ty::Pred {
        let a = || get(1, Ty::Pred);
        return match op {
            "and" => one(a()? & get(2, ty)?),
            "or" => one(a()? | get(2, ty)?),
            "xor" => one(a()? ^ get(2, ty)?),
            "not" => one(a()? ^ 1),
            _ => Err(unknown()),
        };
    }
    let bits = ty.bits();
    let (a, b) = (|| get(1, ty), || get(2, ty));
    let signed = ty.signed();
    let sx = |v: u64| ty.extend(v) as i64;
    match op {
        "add" => one(a()?.wrapping_add(b()?)),
        "sub" => one(a()?.wrapping_sub(b()?)),
        "mul" | "mad" => {
            let (x, y) = (a()?, b()?);
            let wide = inst.has("wide");
            let product: u128 = if signed {
                (sx(x) as i128).wrapping_mul(sx(y) as i128) as u128
            } else {
                (x as u128).wrapping_mul(y as u128)
            };
            let out_ty = if wide { ty.widened() } else { ty };
            let mut v = if inst.has("hi") { (product >> bits) as u64 } else { product as u64 };
            if op == "mad" {
                v = v.wrapping_add(get(3, out_ty)?);
            }
            Ok(Out::One(out_ty.mask(v), out_ty))
        }
        "div" | "rem" => {
            let (x, y) = (a()?, b()?);
            if ty.mask(y) == 0 {
                // Division by zero has no defined result; the hardware's is all ones.
                return one(u64::MAX);
            }
            one(match (op, signed) {
                ("div", true) => sx(x).wrapping_div(sx(y)) as u64,
                ("rem", true) => sx(x).wrapping_rem(sx(y)) as u64,
                ("div", false) => x / y,
                _ => x % y,
            })
        }
        "min" => one(if signed { sx(a()?).min(sx(b()?)) as u64 } else { a()?.min(b()?) }),
        "max" => one(if signed { sx(a()?).max(sx(b()?)) as u64 } else { a()?.max(b()?) }),
        "neg" => one((a()? as i64).wrapping_neg() as u64),
        "abs" => one(sx(a()?).unsigned_abs()),
        "and" => one(a()? & b()?),
        "or" => one(a()? | b()?),
        "xor" => one(a()? ^ b()?),
        "not" => one(!a()?),
        "shl" => {
            let n = get(2, Ty::U(32))?;
            one(if n >= bits as u64 { 0 } else { a()? << n })
        }
        "shr" => {
            let n = get(2, Ty::U(32))?.min(bits as u64 - 1 + (!signed) as u64);
            one(if signed {
                (sx(a()?) >> n.min(63)) as u64
            } else if n >= bits as u64 {
                0
            } else {
                a()? >> n
            })
        }
        "bfe" => {
            // `bfe.T d, a, pos, len`: len bits from pos, sign-extended from the field's top for
            // signed types (PTX ISA, "bfe").
            let (x, pos, len) = (a()?, get(2, Ty::U(32))? & 0xff, get(3, Ty::U(32))? & 0xff);
            let field = if len == 0 || pos >= bits as u64 {
                0
            } else {
                let len = len.min(bits as u64 - pos);
                let f = (x >> pos) & if len == 64 { u64::MAX } else { (1u64 << len) - 1 };
                if signed && (f >> (len - 1)) & 1 == 1 { f | !((1u64 << len) - 1) } else { f }
            };
            one(field)
        }
        _ => Err(unknown()),
    }
}
