//! Score expressions (`expr::score`) in LLVM IR text, for the host kernels (vectors of `w`
//! lanes) and the GPU kernels (one float per thread and element): the primitives of
//! [`Lower`], with `exp` and `tanh` by the target's base-2 exponential as `kernel::tanh_by_exp`
//! computes tanh (1 − 2 / (1 + e^(2x)), x clamped to ±`TANH_CLAMP`).

use super::text::{Fn, V, f32c};
use crate::expr::score::{Lower, Prim};
use crate::kernel::TANH_CLAMP;

/// The base-2 exponential a target has.
#[derive(Clone, Copy, Debug)]
pub enum Exp2 {
    /// The host module's `@exp2_{w}` of `w` lanes.
    Host(u32),
    /// PTX's `ex2.approx.ftz.f32` (and `rcp.approx` for tanh's reciprocal).
    Nvptx,
}

/// A score lowering into `f`.
pub struct Llvm<'a> {
    pub f: &'a mut Fn,
    pub exp2: Exp2,
}

impl Llvm<'_> {
    fn lanes(&self) -> Option<u32> {
        match self.exp2 {
            Exp2::Host(w) => Some(w),
            Exp2::Nvptx => None,
        }
    }

    fn ty(&self) -> String {
        match self.lanes() {
            Some(w) => format!("<{w} x float>"),
            None => "float".into(),
        }
    }

    /// An intrinsic's name for this width (`llvm.minnum` → `llvm.minnum.v8f32` or `.f32`).
    fn intrinsic(&self, stem: &str) -> String {
        match self.lanes() {
            Some(w) => format!("{stem}.v{w}f32"),
            None => format!("{stem}.f32"),
        }
    }

    fn call2(&mut self, stem: &str, a: &V, b: &V) -> V {
        let (ty, name) = (self.ty(), self.intrinsic(stem));
        self.f.call(&ty, &name, &[a, b])
    }

    /// 2^x.
    fn exp2(&mut self, x: &V) -> V {
        match self.exp2 {
            Exp2::Host(w) => {
                let ty = self.ty();
                self.f.call(&ty, &format!("exp2_{w}"), &[x])
            }
            Exp2::Nvptx => self.f.call("float", "llvm.nvvm.ex2.approx.ftz.f", &[x]),
        }
    }

    fn tanh(&mut self, x: &V) -> V {
        let (lo, hi) = (self.constant(-TANH_CLAMP), self.constant(TANH_CLAMP));
        let y = self.call2("llvm.maxnum", x, &lo);
        let y = self.call2("llvm.minnum", &y, &hi);
        let two_log2e = self.constant(2.0 * std::f32::consts::LOG2_E);
        let y = self.f.fast("fmul", &y, &two_log2e);
        let e = self.exp2(&y);
        let one = self.constant(1.0);
        let den = self.f.fast("fadd", &e, &one);
        match self.exp2 {
            Exp2::Host(_) => {
                let two = self.constant(2.0);
                let q = self.f.fast("fdiv", &two, &den);
                self.f.fast("fsub", &one, &q)
            }
            Exp2::Nvptx => {
                // rcp.approx (one MUFU op; relative error 2⁻²³), not the IEEE rcp.rn sequence.
                let r = self.f.call("float", "llvm.nvvm.rcp.approx.ftz.f", &[&den]);
                self.f.call("float", "llvm.fma.f32", &[&r, &f32c(-2.0), &f32c(1.0)])
            }
        }
    }
}

impl Llvm<'_> {
    /// The natural logarithm of max(x, 2⁻¹²⁶) (`score::log_by_bits`): PTX's `lg2.approx` (one
    /// MUFU op) times ln 2 on the GPU; on the host `log_by_bits` on `w` lanes (m·2^e off the bits,
    /// e·ln 2 + z·P(z²)).
    fn log(&mut self, x: &V) -> V {
        use crate::expr::score::{LOG_SERIES, LOG_SQRT_HALF_BITS};
        // max(x, 2⁻¹²⁶) by compare and select, so that NaN takes the floor too.
        let least = self.constant(f32::MIN_POSITIVE);
        let normal = self.f.fcmp("oge", x, &least);
        let x = &self.f.select(&normal, x, &least);
        let Some(w) = self.lanes() else {
            let l = self.f.call("float", "llvm.nvvm.lg2.approx.ftz.f", &[x]);
            return self.f.fast("fmul", &l, &f32c(std::f32::consts::LN_2));
        };
        let ity = format!("<{w} x i32>");
        let int = |c: i64| {
            let lanes: Vec<String> = (0..w).map(|_| format!("i32 {c}")).collect();
            V::new(format!("<{}>", lanes.join(", ")), ity.clone())
        };
        let bits = self.f.cast("bitcast", x, &ity);
        let t = self.f.bin("sub", &bits, &int(LOG_SQRT_HALF_BITS as i64));
        let e = self.f.bin("ashr", &t, &int(23));
        let e_bits = self.f.bin("shl", &e, &int(23));
        let m = self.f.bin("sub", &bits, &e_bits);
        let ty = self.ty();
        let m = self.f.cast("bitcast", &m, &ty);
        let one = self.constant(1.0);
        let num = self.f.fast("fsub", &m, &one);
        let den = self.f.fast("fadd", &m, &one);
        let z = self.f.fast("fdiv", &num, &den);
        let z2 = self.f.fast("fmul", &z, &z);
        let fma = self.intrinsic("llvm.fma");
        let mut p = self.constant(LOG_SERIES[0]);
        for &c in &LOG_SERIES[1..] {
            let c = self.constant(c);
            p = self.f.call(&ty, &fma, &[&p, &z2, &c]);
        }
        let zp = self.f.fast("fmul", &z, &p);
        let ef = self.f.cast("sitofp", &e, &ty);
        let ln2 = self.constant(std::f32::consts::LN_2);
        let y = self.f.call(&ty, &fma, &[&ef, &ln2, &zp]);
        // +inf stays +inf.
        let inf = self.constant(f32::INFINITY);
        let is_inf = self.f.fcmp("oeq", x, &inf);
        self.f.select(&is_inf, &inf, &y)
    }
}

impl Lower for Llvm<'_> {
    type V = V;

    fn constant(&mut self, c: f32) -> V {
        match self.lanes() {
            Some(w) => {
                let name = f32c(c).name;
                let lanes: Vec<String> = (0..w).map(|_| format!("float {name}")).collect();
                V::new(format!("<{}>", lanes.join(", ")), self.ty())
            }
            None => f32c(c),
        }
    }

    fn apply(&mut self, op: Prim, a: &[V]) -> V {
        match op {
            Prim::Neg => {
                let m = self.constant(-1.0);
                self.f.fast("fmul", &a[0], &m)
            }
            Prim::Add => self.f.fast("fadd", &a[0], &a[1]),
            Prim::Sub => self.f.fast("fsub", &a[0], &a[1]),
            Prim::Mul => self.f.fast("fmul", &a[0], &a[1]),
            Prim::Div => self.f.fast("fdiv", &a[0], &a[1]),
            Prim::Tanh => self.tanh(&a[0]),
            Prim::Exp => {
                let log2e = self.constant(std::f32::consts::LOG2_E);
                let x = self.f.fast("fmul", &a[0], &log2e);
                self.exp2(&x)
            }
            Prim::Log => self.log(&a[0]),
            Prim::Floor => {
                let (ty, name) = (self.ty(), self.intrinsic("llvm.floor"));
                self.f.call(&ty, &name, &[&a[0]])
            }
            Prim::Min => self.call2("llvm.minnum", &a[0], &a[1]),
            Prim::Max => self.call2("llvm.maxnum", &a[0], &a[1]),
            Prim::Pick => {
                let c = self.f.fcmp("ole", &a[0], &a[1]);
                self.f.select(&c, &a[2], &a[3])
            }
        }
    }
}
