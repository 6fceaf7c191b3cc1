//! Kernel IR → CLIF: one function per step of `kernel::program`, sharing loop and vector helpers.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, I32, I32X4, I64};
use cranelift_codegen::ir::{AbiParam, Function, InstBuilder, MemFlags, Signature, Type, UserFuncName, Value};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};

use crate::expr::score::{Leaves, Lower, Prim, lower_grads};
use crate::kernel::offsets::*;
use crate::kernel::{BLOCK_Q, Band, KernelKind, KernelSpec, Step, TANH_CLAMP, program};
use crate::spec::Score;

const TQ: usize = 2;
const TK: usize = 16;
/// KV rows per cache block of the backward kernel.
const KB: i64 = 64;
/// Vectors per KV tile.
const VK: usize = TK / 4;

struct Cx<'a> {
    b: FunctionBuilder<'a>,
    mem: MemFlags,
    le: MemFlags,
    /// The score's per-head values, splat, loaded once at entry (`Score::head_values`).
    heads: Vec<Value>,
}

impl Cx<'_> {
    fn i64(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I64, v)
    }

    fn f32(&mut self, v: f32) -> Value {
        self.b.ins().f32const(v)
    }

    fn splat_f(&mut self, v: f32) -> Value {
        let x = self.f32(v);
        self.b.ins().splat(F32X4, x)
    }

    /// `base + index·scale + offset` bytes.
    fn addr(&mut self, base: Value, index: Value, scale: i64, offset: i64) -> Value {
        let scaled = self.b.ins().imul_imm(index, scale);
        let a = self.b.ins().iadd(base, scaled);
        if offset == 0 { a } else { self.b.ins().iadd_imm(a, offset) }
    }

    fn load(&mut self, ty: Type, p: Value, offset: i64) -> Value {
        self.b.ins().load(ty, self.mem, p, offset as i32)
    }

    fn store(&mut self, v: Value, p: Value, offset: i64) {
        self.b.ins().store(self.mem, v, p, offset as i32);
    }

    fn splat_load(&mut self, p: Value, offset: i64) -> Value {
        let x = self.load(F32, p, offset);
        self.b.ins().splat(F32X4, x)
    }

    fn min(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().smin(a, b)
    }

    fn max(&mut self, a: Value, b: Value) -> Value {
        self.b.ins().smax(a, b)
    }

    fn clamp(&mut self, v: Value, lo: Value, hi: Value) -> Value {
        let v = self.max(v, lo);
        self.min(v, hi)
    }

    /// `v − c` (no instruction when `c` is 0).
    fn minus(&mut self, v: Value, c: i64) -> Value {
        if c == 0 { v } else { self.b.ins().iadd_imm(v, -c) }
    }

    /// `for i in (start..end).step_by(step) { body(i) }`.
    fn for_loop(&mut self, start: Value, end: Value, step: i64, mut body: impl FnMut(&mut Self, Value)) {
        let var = self.b.declare_var(I64);
        self.b.def_var(var, start);
        let (header, body_block, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(var);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, i, end);
        self.b.ins().brif(more, body_block, &[], exit, &[]);
        self.b.switch_to_block(body_block);
        body(self, i);
        let i = self.b.use_var(var);
        let next = self.b.ins().iadd_imm(i, step);
        self.b.def_var(var, next);
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(exit);
    }

    /// `if cond { then() } else { otherwise() }`.
    fn if_else(&mut self, cond: Value, then: impl FnOnce(&mut Self), otherwise: impl FnOnce(&mut Self)) {
        let (t, e, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().brif(cond, t, &[], e, &[]);
        self.b.switch_to_block(t);
        then(self);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(e);
        otherwise(self);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    fn var(&mut self, ty: Type, init: Value) -> Variable {
        let v = self.b.declare_var(ty);
        self.b.def_var(v, init);
        v
    }

    fn hmax(&mut self, v: Value) -> Value {
        let lanes: Vec<Value> = (0..4u8).map(|i| self.b.ins().extractlane(v, i)).collect();
        let a = self.b.ins().fmax(lanes[0], lanes[1]);
        let c = self.b.ins().fmax(lanes[2], lanes[3]);
        self.b.ins().fmax(a, c)
    }

    fn hsum(&mut self, v: Value) -> Value {
        let lanes: Vec<Value> = (0..4u8).map(|i| self.b.ins().extractlane(v, i)).collect();
        let a = self.b.ins().fadd(lanes[0], lanes[1]);
        let c = self.b.ins().fadd(lanes[2], lanes[3]);
        self.b.ins().fadd(a, c)
    }

    /// Vectorised tanh by one exp (`kernel::tanh_by_exp`): 1 − 2 / (1 + e^(2x)).
    fn tanh(&mut self, x: Value) -> Value {
        let lo = self.splat_f(-TANH_CLAMP);
        let hi = self.splat_f(TANH_CLAMP);
        let x = self.b.ins().fmax(x, lo);
        let x = self.b.ins().fmin(x, hi);
        let x2 = self.b.ins().fadd(x, x);
        let e = self.exp(x2);
        let one = self.splat_f(1.0);
        let two = self.splat_f(2.0);
        let den = self.b.ins().fadd(one, e);
        let q = self.b.ins().fdiv(two, den);
        self.b.ins().fsub(one, q)
    }

    /// The score modification of a vector of scaled scores, and its slope when `slope`; `at`
    /// gives the four pairs' query position (one for all lanes) and the first key's (the lanes'
    /// keys follow it), both i64, read only when the score reads positions.
    /// With `slope`, also the derivatives by the learned parameters (`Score::params`).
    fn score(
        &mut self,
        score: &Score,
        x: Value,
        at: (Value, Value),
        slope: bool,
    ) -> (Value, Option<Value>, Vec<Value>) {
        let leaves = match score.positions() {
            true => {
                let qf = self.b.ins().fcvt_from_sint(F32, at.0);
                let q = self.b.ins().splat(F32X4, qf);
                let k0 = self.b.ins().ireduce(I32, at.1);
                let k0 = self.b.ins().splat(I32X4, k0);
                let iota = self.iota();
                let k = self.b.ins().iadd(k0, iota);
                let k = self.b.ins().fcvt_from_sint(F32X4, k);
                Leaves { s: x, q: Some(q), k: Some(k), heads: &[] }
            }
            false => Leaves::s(x),
        };
        let heads = self.heads.clone();
        lower_grads(score, self, Leaves { heads: &heads, ..leaves }, slope)
    }

    /// Adds the four lanes of `ds · grads[j]` to the float `dparams[j]` for every learned
    /// parameter (the backward's Σ dS·∂score/∂param; `ds` before the slope by `s`).
    fn add_param_grads(&mut self, dparams: Value, ds: Value, grads: &[Value]) {
        for (j, g) in grads.iter().enumerate() {
            let x = self.b.ins().fmul(ds, *g);
            let x = self.hsum(x);
            let old = self.b.ins().load(F32, self.mem, dparams, (j * 4) as i32);
            let new = self.b.ins().fadd(old, x);
            self.b.ins().store(self.mem, new, dparams, (j * 4) as i32);
        }
    }

    /// The lanes' indices, 0 1 2 3.
    fn iota(&mut self) -> Value {
        let lanes = self
            .b
            .func
            .dfg
            .constants
            .insert([0u32, 1, 2, 3].iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>().into());
        self.b.ins().vconst(I32X4, lanes)
    }

    /// Vectorised exp (see the module doc of `back/cranelift`).
    fn exp(&mut self, x: Value) -> Value {
        let lo = self.splat_f(-87.0);
        let small = self.b.ins().fcmp(FloatCC::LessThan, x, lo);
        let xc = self.b.ins().fmax(x, lo);
        let hi = self.splat_f(88.0);
        let xc = self.b.ins().fmin(xc, hi);
        let log2e = self.splat_f(std::f32::consts::LOG2_E);
        let t = self.b.ins().fmul(xc, log2e);
        let n = self.b.ins().nearest(t);
        let ln2_hi = self.splat_f(-0.693_145_75);
        let ln2_lo = self.splat_f(-1.428_606_8e-6);
        let r = self.b.ins().fma(n, ln2_hi, xc);
        let r = self.b.ins().fma(n, ln2_lo, r);
        // exp(r) on [−ln2/2, ln2/2]: Taylor coefficients to degree 6, Horner.
        let coefficients = [1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0];
        let mut p = self.splat_f(coefficients[0]);
        for &c in &coefficients[1..] {
            let c = self.splat_f(c);
            p = self.b.ins().fma(p, r, c);
        }
        let ni = self.b.ins().fcvt_to_sint_sat(I32X4, n);
        let bias = self.b.ins().iconst(I32, 127);
        let bias = self.b.ins().splat(I32X4, bias);
        let e = self.b.ins().iadd(ni, bias);
        let e = self.b.ins().ishl_imm(e, 23);
        let two_n = self.b.ins().bitcast(F32X4, self.le, e);
        let y = self.b.ins().fmul(p, two_n);
        let zero = self.splat_f(0.0);
        let small = self.b.ins().bitcast(F32X4, self.le, small);
        self.b.ins().bitselect(small, zero, y)
    }
}

impl Cx<'_> {
    /// Vectorised natural logarithm, as `score::log_by_bits` computes it: x = m·2^e off its bits,
    /// e·ln 2 + z·P(z²) with z = (m − 1)/(m + 1), and its special values by selects.
    fn log(&mut self, x: Value) -> Value {
        use crate::expr::score::{LOG_SERIES, LOG_SQRT_HALF_BITS};
        // max(x, 2⁻¹²⁶) by compare and select, so that NaN takes the floor too.
        let least = self.splat_f(f32::MIN_POSITIVE);
        let normal = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, x, least);
        let normal = self.b.ins().bitcast(F32X4, self.le, normal);
        let x = self.b.ins().bitselect(normal, x, least);
        let bits = self.b.ins().bitcast(I32X4, self.le, x);
        let half = self.b.ins().iconst(I32, LOG_SQRT_HALF_BITS as i64);
        let half = self.b.ins().splat(I32X4, half);
        let t = self.b.ins().isub(bits, half);
        let e = self.b.ins().sshr_imm(t, 23);
        let e_bits = self.b.ins().ishl_imm(e, 23);
        let m = self.b.ins().isub(bits, e_bits);
        let m = self.b.ins().bitcast(F32X4, self.le, m);
        let one = self.splat_f(1.0);
        let num = self.b.ins().fsub(m, one);
        let den = self.b.ins().fadd(m, one);
        let z = self.b.ins().fdiv(num, den);
        let z2 = self.b.ins().fmul(z, z);
        let mut p = self.splat_f(LOG_SERIES[0]);
        for &c in &LOG_SERIES[1..] {
            let c = self.splat_f(c);
            p = self.b.ins().fma(p, z2, c);
        }
        let zp = self.b.ins().fmul(z, p);
        let ef = self.b.ins().fcvt_from_sint(F32X4, e);
        let ln2 = self.splat_f(std::f32::consts::LN_2);
        let y = self.b.ins().fma(ef, ln2, zp);
        // +inf stays +inf.
        let inf = self.splat_f(f32::INFINITY);
        let is_inf = self.b.ins().fcmp(FloatCC::Equal, x, inf);
        let is_inf = self.b.ins().bitcast(F32X4, self.le, is_inf);
        self.b.ins().bitselect(is_inf, inf, y)
    }
}

/// Score code on `F32X4` vectors.
impl Lower for Cx<'_> {
    type V = Value;

    fn constant(&mut self, c: f32) -> Value {
        self.splat_f(c)
    }

    fn apply(&mut self, op: Prim, a: &[Value]) -> Value {
        match op {
            Prim::Neg => self.b.ins().fneg(a[0]),
            Prim::Add => self.b.ins().fadd(a[0], a[1]),
            Prim::Sub => self.b.ins().fsub(a[0], a[1]),
            Prim::Mul => self.b.ins().fmul(a[0], a[1]),
            Prim::Div => self.b.ins().fdiv(a[0], a[1]),
            Prim::Tanh => self.tanh(a[0]),
            Prim::Exp => self.exp(a[0]),
            Prim::Log => self.log(a[0]),
            Prim::Floor => self.b.ins().floor(a[0]),
            Prim::Min => self.b.ins().fmin(a[0], a[1]),
            Prim::Max => self.b.ins().fmax(a[0], a[1]),
            Prim::Pick => {
                let c = self.b.ins().fcmp(FloatCC::LessThanOrEqual, a[0], a[1]);
                let c = self.b.ins().bitcast(F32X4, self.le, c);
                self.b.ins().bitselect(c, a[2], a[3])
            }
        }
    }
}

/// Builds the kernel's function: `fn(args: *const Args)` with the system calling convention.
pub fn build(spec: &KernelSpec, func: &mut Function, pointer: Type) -> Result<(), String> {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params.push(AbiParam::new(pointer));
    func.signature = sig;
    func.name = UserFuncName::testcase(spec.name());
    let mut fctx = FunctionBuilderContext::new();
    let b = FunctionBuilder::new(func, &mut fctx);
    let mut cx = Cx {
        b,
        mem: MemFlags::new().with_notrap(),
        le: MemFlags::new().with_endianness(cranelift_codegen::ir::Endianness::Little),
        heads: Vec::new(),
    };
    let entry = cx.b.create_block();
    cx.b.append_block_params_for_function_params(entry);
    cx.b.switch_to_block(entry);
    let args = cx.b.block_params(entry)[0];
    let n_heads = spec.score.map_or(0, |s| s.head_count());
    if n_heads > 0 {
        let at = match spec.kind {
            KernelKind::Forward => FWD_HEAD_VALUES,
            KernelKind::Backward => BWD_HEAD_VALUES,
        };
        let p = cx.load(pointer, args, at as i64);
        for i in 0..n_heads {
            let x = cx.load(F32, p, 4 * i as i64);
            let v = cx.b.ins().splat(F32X4, x);
            cx.heads.push(v);
        }
    }
    match spec.kind {
        KernelKind::Forward => forward(&mut cx, spec, args)?,
        KernelKind::Backward => backward(&mut cx, spec, args)?,
    }
    cx.b.ins().return_(&[]);
    cx.b.seal_all_blocks();
    cx.b.finalize();
    Ok(())
}

fn forward(cx: &mut Cx<'_>, spec: &KernelSpec, args: Value) -> Result<(), String> {
    let (d, dv) = (spec.head_dim as usize, spec.dv() as usize);
    let steps = program(spec);
    let [Step::ForQueryBlocks(block_body)] = steps.as_slice() else {
        return Err("unexpected forward program".into());
    };
    let [Step::StartState, Step::ForKvTiles(kv_body), Step::WriteOut] = block_body.as_slice() else {
        return Err("unexpected forward program".into());
    };
    let q = cx.load(I64, args, FWD_Q as i64);
    let k = cx.load(I64, args, FWD_K as i64);
    let kt = cx.load(I64, args, FWD_SCRATCH as i64);
    let pbuf = cx.b.ins().iadd_imm(kt, (d * TK * 4) as i64);
    let state = cx.b.ins().iadd_imm(kt, (spec.state_offset() * 4) as i64);
    let out = Out::load(cx, args);
    let kv_stride = cx.load(I64, args, FWD_KV_STRIDE as i64);
    let kv_row_bytes = cx.b.ins().imul_imm(kv_stride, 4);
    let n_q = cx.load(I64, args, FWD_N_Q as i64);
    let n_kv = cx.load(I64, args, FWD_N_KV as i64);
    let q_pos = cx.load(I64, args, FWD_Q_POS as i64);
    let kv_pos = cx.load(I64, args, FWD_KV_POS as i64);
    let scale = cx.load(F32, args, FWD_SCALE as i64);
    let scale_v = cx.b.ins().splat(F32X4, scale);
    let zero = cx.i64(0);
    let row_state = ((dv + 2) * 4) as i64;
    cx.for_loop(zero, n_q, BLOCK_Q, |cx, rb0| {
        let rb1 = cx.b.ins().iadd_imm(rb0, BLOCK_Q);
        let rb1 = cx.min(rb1, n_q);
        start_state(cx, dv, state, rb0, rb1);
        let (kv_lo, kv_hi) = kv_range(cx, spec.mask, q_pos, rb0, rb1, kv_pos, n_kv);
        cx.for_loop(kv_lo, kv_hi, TK as i64, |cx, c0| {
            let left = cx.b.ins().isub(kv_hi, c0);
            let tk = cx.i64(TK as i64);
            let cols = cx.min(left, tk);
            let partial = cx.b.ins().icmp_imm(IntCC::SignedLessThan, cols, TK as i64);
            let k_lo = cx.b.ins().iadd(kv_pos, c0);
            let k_hi = cx.b.ins().iadd(k_lo, cols);
            let k_hi = cx.b.ins().iadd_imm(k_hi, -1);
            let k_tile = cx.b.ins().imul(c0, kv_row_bytes);
            let k_tile = cx.b.ins().iadd(k, k_tile);
            for step in kv_body {
                match step {
                    Step::TransposeKeys => transpose(cx, d, k_tile, kv_row_bytes, kt, cols, partial),
                    Step::ForQueryTiles(tile_body) => {
                        let (r_lo, r_hi) = query_bounds(cx, spec.mask, k_lo, k_hi, q_pos, n_q);
                        let (r_lo, r_hi) = (cx.max(r_lo, rb0), cx.min(r_hi, rb1));
                        cx.for_loop(r_lo, r_hi, TQ as i64, |cx, r0| {
                            let q_tile = cx.addr(q, r0, (d * 4) as i64, 0);
                            let in_block = cx.b.ins().isub(r0, rb0);
                            let st = cx.addr(state, in_block, row_state, 0);
                            let mut s: Vec<Variable> = Vec::new();
                            let mut alpha: Vec<Value> = Vec::new();
                            for step in tile_body {
                                match step {
                                    Step::Scores => s = scores(cx, d, q_tile, kt, scale_v),
                                    Step::Score => {
                                        let score = spec.score.expect("`program` has this step only with a score");
                                        let q_lo = cx.b.ins().iadd(q_pos, r0);
                                        for (i, &v) in s.iter().enumerate() {
                                            // Row i / VK of the tile, keys 4·(i % VK) onwards.
                                            let qp = cx.b.ins().iadd_imm(q_lo, (i / VK) as i64);
                                            let kp = cx.b.ins().iadd_imm(k_lo, (4 * (i % VK)) as i64);
                                            let x = cx.b.use_var(v);
                                            let (y, _, _) = cx.score(score, x, (qp, kp), false);
                                            cx.b.def_var(v, y);
                                        }
                                    }
                                    Step::MaskEdge => {
                                        mask_edge(cx, spec.mask, &s, q_pos, r0, k_lo, k_hi, cols, partial)
                                    }
                                    Step::OnlineSoftmax => alpha = softmax(cx, dv, &s, st, pbuf),
                                    Step::AccumulatePv => accumulate_pv(
                                        cx,
                                        (d, dv),
                                        &alpha,
                                        st,
                                        pbuf,
                                        k_tile,
                                        kv_row_bytes,
                                        cols,
                                        partial,
                                    ),
                                    other => panic!("{other:?} is not a query-tile step"),
                                }
                            }
                        });
                    }
                    other => panic!("{other:?} is not a kv-tile step"),
                }
            }
        });
        write_out(cx, dv, state, rb0, rb1, out);
    });
    Ok(())
}

/// Where a forward writes O and LSE: base pointers and row strides in bytes.
#[derive(Clone, Copy)]
struct Out {
    o: Value,
    o_row: Value,
    lse: Value,
    lse_row: Value,
}

impl Out {
    fn load(cx: &mut Cx<'_>, args: Value) -> Out {
        let o = cx.load(I64, args, FWD_O as i64);
        let lse = cx.load(I64, args, FWD_LSE as i64);
        let o_stride = cx.load(I64, args, FWD_O_STRIDE as i64);
        let lse_stride = cx.load(I64, args, FWD_LSE_STRIDE as i64);
        let o_row = cx.b.ins().imul_imm(o_stride, 4);
        let lse_row = cx.b.ins().imul_imm(lse_stride, 4);
        Out { o, o_row, lse, lse_row }
    }
}

/// `StartState`: m = −inf, l = 0, acc = 0 for rows `rb0..rb1` of the block (rounded up to the
/// query tile: its padding row is computed on too).
fn start_state(cx: &mut Cx<'_>, dv: usize, state: Value, rb0: Value, rb1: Value) {
    let row_state = ((dv + 2) * 4) as i64;
    let rows = cx.b.ins().isub(rb1, rb0);
    let rows = cx.b.ins().iadd_imm(rows, TQ as i64 - 1);
    let rows = cx.b.ins().band_imm(rows, -(TQ as i64));
    let zero = cx.i64(0);
    cx.for_loop(zero, rows, 1, |cx, r| {
        let st = cx.addr(state, r, row_state, 0);
        let neg_inf = cx.f32(f32::NEG_INFINITY);
        let zero = cx.f32(0.0);
        cx.store(neg_inf, st, 0);
        cx.store(zero, st, 4);
        let zeros = cx.splat_f(0.0);
        for e in (0..dv).step_by(4) {
            cx.store(zeros, st, 8 + 4 * e as i64);
        }
    });
}

/// `WriteOut`: O = acc / l and LSE = m + ln l of rows `rb0..rb1`, or O = 0 and LSE = −inf where
/// l = 0 (the row saw no key).
fn write_out(cx: &mut Cx<'_>, dv: usize, state: Value, rb0: Value, rb1: Value, out: Out) {
    let row_state = ((dv + 2) * 4) as i64;
    cx.for_loop(rb0, rb1, 1, |cx, row| {
        let in_block = cx.b.ins().isub(row, rb0);
        let st = cx.addr(state, in_block, row_state, 0);
        let o_at = cx.b.ins().imul(row, out.o_row);
        let o = cx.b.ins().iadd(out.o, o_at);
        let lse_at = cx.b.ins().imul(row, out.lse_row);
        let lse = cx.b.ins().iadd(out.lse, lse_at);
        let m = cx.load(F32, st, 0);
        let l = cx.load(F32, st, 4);
        let zero = cx.f32(0.0);
        let seen = cx.b.ins().fcmp(FloatCC::GreaterThan, l, zero);
        cx.if_else(
            seen,
            |cx| {
                let lv = cx.b.ins().splat(F32X4, l);
                for e in (0..dv).step_by(4) {
                    let a = cx.b.ins().load(F32X4, cx.mem, st, 8 + 4 * e as i32);
                    let x = cx.b.ins().fdiv(a, lv);
                    cx.b.ins().store(cx.mem, x, o, 4 * e as i32);
                }
                let ln = cx.log(lv);
                let ln = cx.b.ins().extractlane(ln, 0);
                let v = cx.b.ins().fadd(m, ln);
                cx.store(v, lse, 0);
            },
            |cx| {
                let zeros = cx.splat_f(0.0);
                for e in (0..dv).step_by(4) {
                    cx.b.ins().store(cx.mem, zeros, o, 4 * e as i32);
                }
                let neg_inf = cx.f32(f32::NEG_INFINITY);
                cx.store(neg_inf, lse, 0);
            },
        );
    });
}

/// A side of a mask's band as the 32-bit lanes of the edge mask compare it (positions are far
/// below 2³⁰).
fn clamp32(x: i64) -> i64 {
    x.clamp(-(1 << 30), i32::MAX as i64)
}

/// KV rows `[lo, hi)` the query rows `rb0..rb1` may see (`kernel::kv_bounds`): from
/// `q_lo − end + 1` to `q_hi − lo`.
fn kv_range(
    cx: &mut Cx<'_>,
    mask: Band,
    q_pos: Value,
    rb0: Value,
    rb1: Value,
    kv_pos: Value,
    n_kv: Value,
) -> (Value, Value) {
    let zero = cx.i64(0);
    let hi = match mask.lo {
        None => n_kv,
        Some(lo) => {
            let q_hi = cx.b.ins().iadd(q_pos, rb1);
            let hi = cx.minus(q_hi, lo);
            let hi = cx.b.ins().isub(hi, kv_pos);
            cx.clamp(hi, zero, n_kv)
        }
    };
    let lo = match mask.end {
        None => zero,
        Some(end) => {
            let q_lo = cx.b.ins().iadd(q_pos, rb0);
            let lo = cx.b.ins().iadd_imm(q_lo, 1 - end);
            let lo = cx.b.ins().isub(lo, kv_pos);
            cx.clamp(lo, zero, n_kv)
        }
    };
    (lo, hi)
}

fn transpose(cx: &mut Cx<'_>, d: usize, k_tile: Value, row_bytes: Value, kt: Value, cols: Value, partial: Value) {
    let one_row = |cx: &mut Cx<'_>, c: Value| {
        let row = cx.b.ins().imul(c, row_bytes);
        let row = cx.b.ins().iadd(k_tile, row);
        let dst = cx.addr(kt, c, 4, 0);
        for e in 0..d {
            let x = cx.load(F32, row, (e * 4) as i64);
            cx.store(x, dst, (e * TK * 4) as i64);
        }
    };
    cx.if_else(
        partial,
        |cx| {
            let zero = cx.i64(0);
            cx.for_loop(zero, cols, 1, |cx, c| one_row(cx, c));
        },
        |cx| {
            for c in 0..TK {
                let c = cx.i64(c as i64);
                one_row(cx, c);
            }
        },
    );
}

/// Query rows `[lo, hi)` (multiples of the tile) that may see key positions `k_lo..=k_hi`:
/// from `k_lo + lo` to `k_hi + end − 1`.
fn query_bounds(cx: &mut Cx<'_>, mask: Band, k_lo: Value, k_hi: Value, q_pos: Value, n_q: Value) -> (Value, Value) {
    let zero = cx.i64(0);
    let lo = match mask.lo {
        None => zero,
        Some(lo) => {
            let first = cx.minus(k_lo, -lo);
            let first = cx.b.ins().isub(first, q_pos);
            let first = cx.clamp(first, zero, n_q);
            cx.b.ins().band_imm(first, !(TQ as i64 - 1))
        }
    };
    let hi = match mask.end {
        None => n_q,
        Some(end) => {
            let hi = cx.b.ins().iadd_imm(k_hi, end);
            let hi = cx.b.ins().isub(hi, q_pos);
            let hi = cx.clamp(hi, zero, n_q);
            let hi = cx.b.ins().iadd_imm(hi, TQ as i64 - 1);
            cx.b.ins().band_imm(hi, !(TQ as i64 - 1))
        }
    };
    (lo, hi)
}

/// S = Q Kᵀ · scale for a 2×16 tile: 8 accumulators, one FMA chain each.
fn scores(cx: &mut Cx<'_>, d: usize, q_tile: Value, kt: Value, scale: Value) -> Vec<Variable> {
    let zero = cx.splat_f(0.0);
    let mut acc = vec![zero; TQ * VK];
    for e in 0..d {
        let kv: Vec<Value> =
            (0..VK).map(|v| cx.b.ins().load(F32X4, cx.mem, kt, ((e * TK + 4 * v) * 4) as i32)).collect();
        for r in 0..TQ {
            let a = cx.splat_load(q_tile, ((r * d + e) * 4) as i64);
            for v in 0..VK {
                acc[r * VK + v] = cx.b.ins().fma(a, kv[v], acc[r * VK + v]);
            }
        }
    }
    acc.into_iter()
        .map(|a| {
            let s = cx.b.ins().fmul(a, scale);
            cx.var(F32X4, s)
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn mask_edge(
    cx: &mut Cx<'_>,
    mask: Band,
    s: &[Variable],
    q_pos: Value,
    r0: Value,
    k_lo: Value,
    k_hi: Value,
    cols: Value,
    partial: Value,
) {
    let q_lo = cx.b.ins().iadd(q_pos, r0);
    let q_hi = cx.b.ins().iadd_imm(q_lo, TQ as i64 - 1);
    // The tile crosses the band's lower edge where q_lo − k_hi < lo, its upper one where
    // q_hi − k_lo ≥ end.
    let below = mask.lo.map(|lo| {
        let k = cx.minus(k_hi, -lo);
        cx.b.ins().icmp(IntCC::SignedGreaterThan, k, q_lo)
    });
    let above = mask.end.map(|end| {
        let span = cx.b.ins().isub(q_hi, k_lo);
        cx.b.ins().icmp_imm(IntCC::SignedGreaterThanOrEqual, span, end)
    });
    let crosses = match (below, above) {
        (Some(a), Some(b)) => Some(cx.b.ins().bor(a, b)),
        (a, b) => a.or(b),
    };
    let edge = match crosses {
        Some(c) => cx.b.ins().bor(partial, c),
        None => partial,
    };
    cx.if_else(
        edge,
        |cx| {
            let neg_inf = cx.splat_f(f32::NEG_INFINITY);
            let k_lo32 = cx.b.ins().ireduce(I32, k_lo);
            let cols32 = cx.b.ins().ireduce(I32, cols);
            let cols_v = cx.b.ins().splat(I32X4, cols32);
            for v in 0..VK {
                // Column indices 4v..4v+3 of the tile and their positions.
                let mut idx = cx.b.ins().iconst(I32, (4 * v) as i64);
                idx = cx.b.ins().splat(I32X4, idx);
                let iota = cx.iota();
                let col = cx.b.ins().iadd(idx, iota);
                let in_run = cx.b.ins().icmp(IntCC::SignedLessThan, col, cols_v);
                let base = cx.b.ins().splat(I32X4, k_lo32);
                let kpos = cx.b.ins().iadd(base, col);
                for r in 0..TQ {
                    let qp = cx.b.ins().iadd_imm(q_lo, r as i64);
                    let qp = cx.b.ins().ireduce(I32, qp);
                    let qp = cx.b.ins().splat(I32X4, qp);
                    // q − k ≥ lo ⇔ k ≤ q − lo, and q − k < end (32-bit, the sides clamped).
                    let mut ok = in_run;
                    if let Some(lo) = mask.lo {
                        let top = match clamp32(lo) {
                            0 => qp,
                            lo => {
                                let lo = cx.b.ins().iconst(I32, lo);
                                let lo = cx.b.ins().splat(I32X4, lo);
                                cx.b.ins().isub(qp, lo)
                            }
                        };
                        let seen = cx.b.ins().icmp(IntCC::SignedLessThanOrEqual, kpos, top);
                        ok = cx.b.ins().band(ok, seen);
                    }
                    if let Some(end) = mask.end {
                        let dist = cx.b.ins().isub(qp, kpos);
                        let w = cx.b.ins().iconst(I32, clamp32(end));
                        let w = cx.b.ins().splat(I32X4, w);
                        let inside = cx.b.ins().icmp(IntCC::SignedLessThan, dist, w);
                        ok = cx.b.ins().band(ok, inside);
                    }
                    let ok = cx.b.ins().bitcast(F32X4, cx.le, ok);
                    let cur = cx.b.use_var(s[r * VK + v]);
                    let masked = cx.b.ins().bitselect(ok, cur, neg_inf);
                    cx.b.def_var(s[r * VK + v], masked);
                }
            }
        },
        |_| {},
    );
}

/// Online softmax of each row of the tile; returns the rescale factor of each row's accumulator.
/// The online softmax of a query tile; `dv` is the state rows' accumulator width.
fn softmax(cx: &mut Cx<'_>, dv: usize, s: &[Variable], st: Value, pbuf: Value) -> Vec<Value> {
    let row_state = ((dv + 2) * 4) as i64;
    let mut alphas = Vec::new();
    for r in 0..TQ {
        let sv: Vec<Value> = (0..VK).map(|v| cx.b.use_var(s[r * VK + v])).collect();
        let m_old = cx.load(F32, st, r as i64 * row_state);
        let l_old = cx.load(F32, st, r as i64 * row_state + 4);
        let a = cx.b.ins().fmax(sv[0], sv[1]);
        let c = cx.b.ins().fmax(sv[2], sv[3]);
        let vmax = cx.b.ins().fmax(a, c);
        let tile_max = cx.hmax(vmax);
        let m_new = cx.b.ins().fmax(m_old, tile_max);
        let neg_inf = cx.f32(f32::NEG_INFINITY);
        let none = cx.b.ins().fcmp(FloatCC::Equal, m_new, neg_inf);
        let zero = cx.f32(0.0);
        let base = cx.b.ins().select(none, zero, m_new);
        let base_v = cx.b.ins().splat(F32X4, base);
        let mut sum = cx.splat_f(0.0);
        for (v, &x) in sv.iter().enumerate() {
            let shifted = cx.b.ins().fsub(x, base_v);
            let p = cx.exp(shifted);
            sum = cx.b.ins().fadd(sum, p);
            cx.b.ins().store(cx.mem, p, pbuf, ((r * TK + 4 * v) * 4) as i32);
        }
        let total = cx.hsum(sum);
        let diff = cx.b.ins().fsub(m_old, base);
        let diff = cx.b.ins().splat(F32X4, diff);
        let alpha_v = cx.exp(diff);
        let alpha = cx.b.ins().extractlane(alpha_v, 0);
        let l_new = cx.b.ins().fma(l_old, alpha, total);
        cx.store(m_new, st, r as i64 * row_state);
        cx.store(l_new, st, r as i64 * row_state + 4);
        alphas.push(cx.b.ins().splat(F32X4, alpha));
    }
    alphas
}

/// acc = acc·alpha + P V, 16 value columns at a time: a 2×16 register tile per chunk. V (`dv`
/// wide) follows K (`d` wide) in each KV row.
#[allow(clippy::too_many_arguments)]
fn accumulate_pv(
    cx: &mut Cx<'_>,
    (d, dv): (usize, usize),
    alpha: &[Value],
    st: Value,
    pbuf: Value,
    k_tile: Value,
    row_bytes: Value,
    cols: Value,
    partial: Value,
) {
    let row_state = ((dv + 2) * 4) as i64;
    let mut e0 = 0;
    while e0 < dv {
        let width = ((dv - e0) / 4).min(4);
        let acc_at = |r: usize, w: usize| r as i64 * row_state + 8 + ((e0 + 4 * w) * 4) as i64;
        let mut init = Vec::new();
        for (r, &alpha_r) in alpha.iter().enumerate().take(TQ) {
            for w in 0..width {
                let a = cx.b.ins().load(F32X4, cx.mem, st, acc_at(r, w) as i32);
                init.push(cx.b.ins().fmul(a, alpha_r));
            }
        }
        let vars: Vec<Variable> = init.iter().map(|&a| cx.var(F32X4, a)).collect();
        let v_off = ((d + e0) * 4) as i64;
        let step = |cx: &mut Cx<'_>, row: Value, j_bytes: i64, j: Option<Value>| {
            for r in 0..TQ {
                let p = match j {
                    Some(j) => {
                        let at = cx.addr(pbuf, j, 4, (r * TK * 4) as i64);
                        cx.splat_load(at, 0)
                    }
                    None => cx.splat_load(pbuf, (r * TK * 4) as i64 + j_bytes),
                };
                for w in 0..width {
                    // x64's FMA overwrites its first multiplicand: give it a fresh, single-use
                    // load of V (a load µop) rather than a register copy of a shared one.
                    let v = cx.b.ins().load(F32X4, cx.mem, row, (v_off + (w * 16) as i64) as i32);
                    let cur = cx.b.use_var(vars[r * width + w]);
                    let next = cx.b.ins().fma(v, p, cur);
                    cx.b.def_var(vars[r * width + w], next);
                }
            }
        };
        cx.if_else(
            partial,
            |cx| {
                let zero = cx.i64(0);
                cx.for_loop(zero, cols, 1, |cx, j| {
                    let row = cx.b.ins().imul(j, row_bytes);
                    let row = cx.b.ins().iadd(k_tile, row);
                    step(cx, row, 0, Some(j));
                });
            },
            |cx| {
                let mut row = k_tile;
                for j in 0..TK {
                    step(cx, row, (j * 4) as i64, None);
                    row = cx.b.ins().iadd(row, row_bytes);
                }
            },
        );
        for r in 0..TQ {
            for w in 0..width {
                let a = cx.b.use_var(vars[r * width + w]);
                cx.b.ins().store(cx.mem, a, st, acc_at(r, w) as i32);
            }
        }
        e0 += 4 * width;
    }
}

fn backward(cx: &mut Cx<'_>, spec: &KernelSpec, args: Value) -> Result<(), String> {
    let (d, dv) = (spec.head_dim as usize, spec.dv() as usize);
    let (nv, nvv) = (d / 4, dv / 4);
    let steps = program(spec);
    let [Step::ForQueryRows(row_body)] = steps.as_slice() else {
        return Err("unexpected backward program".into());
    };
    let [Step::ForAllowedKeys(pair_body)] = row_body.as_slice() else {
        return Err("unexpected backward program".into());
    };
    let q = cx.load(I64, args, BWD_Q as i64);
    let k = cx.load(I64, args, BWD_K as i64);
    let dq = cx.load(I64, args, BWD_DQ as i64);
    let dkv = cx.load(I64, args, BWD_DKV as i64);
    let delta = cx.load(I64, args, BWD_DELTA as i64);
    let q_stride = cx.load(I64, args, BWD_Q_STRIDE as i64);
    let kv_stride = cx.load(I64, args, BWD_KV_STRIDE as i64);
    let dq_stride = cx.load(I64, args, BWD_DQ_STRIDE as i64);
    let dkv_stride = cx.load(I64, args, BWD_DKV_STRIDE as i64);
    let n_q = cx.load(I64, args, BWD_N_Q as i64);
    let n_kv = cx.load(I64, args, BWD_N_KV as i64);
    let q_pos = cx.load(I64, args, BWD_Q_POS as i64);
    let kv_pos = cx.load(I64, args, BWD_KV_POS as i64);
    let scale = cx.load(F32, args, BWD_SCALE as i64);
    let score = spec.score;
    // Read only by kernels whose score has learned parameters.
    let dparams = score.filter(|s| s.has_params()).map(|_| cx.load(I64, args, BWD_DPARAMS as i64));
    let zero = cx.i64(0);
    // KV blocks of KB rows outer, query rows inner: a block's K, V, dK and dV stay in cache
    // while every query row passes over it.
    cx.for_loop(zero, n_kv, KB, |cx, jb| {
        let jb_end = cx.b.ins().iadd_imm(jb, KB);
        let jb_end = cx.min(jb_end, n_kv);
        cx.for_loop(zero, n_q, 1, |cx, i| {
            let qi_off = cx.b.ins().imul(i, q_stride);
            let qi = cx.addr(q, qi_off, 4, 0);
            let dqi_off = cx.b.ins().imul(i, dq_stride);
            let dqi = cx.addr(dq, dqi_off, 4, 0);
            // Query bundle rows: q (d), o and do (dv each), lse.
            let lse = cx.load(F32, qi, ((d + 2 * dv) * 4) as i64);
            let di = cx.addr(delta, i, 4, 0);
            let delta_i = cx.load(F32, di, 0);
            // Keys the mask allows for this query (the band's bounds for the one row i).
            let qp = cx.b.ins().iadd(q_pos, i);
            let next = cx.b.ins().iadd_imm(i, 1);
            let (j_lo, j_hi) = kv_range(cx, spec.mask, q_pos, i, next, kv_pos, n_kv);
            let neg_inf = cx.f32(f32::NEG_INFINITY);
            let live = cx.b.ins().fcmp(FloatCC::NotEqual, lse, neg_inf);
            let (j_lo, j_hi) = {
                let hi = cx.b.ins().select(live, j_hi, zero);
                (cx.max(j_lo, jb), cx.min(hi, jb_end))
            };
            // Keys four at a time: one vector exp and one reduction per four pairs, and dQ kept in
            // registers across them; the remaining keys one by one.
            let count = cx.b.ins().isub(j_hi, j_lo);
            let count = cx.max(count, zero);
            let quads = cx.b.ins().band_imm(count, !3);
            let mid = cx.b.ins().iadd(j_lo, quads);
            let rows = QuadRows {
                qi,
                dqi,
                lse,
                delta: delta_i,
                scale,
                score,
                qp,
                kv_pos,
                k,
                kv_stride,
                dkv,
                dkv_stride,
                dparams,
            };
            cx.for_loop(j_lo, mid, 4, |cx, j0| backward_quad(cx, (d, dv), &rows, j0));
            cx.for_loop(mid, j_hi, 1, |cx, j| {
                let kj_off = cx.b.ins().imul(j, kv_stride);
                let kj = cx.addr(k, kj_off, 4, 0);
                let dkvj_off = cx.b.ins().imul(j, dkv_stride);
                let dkvj = cx.addr(dkv, dkvj_off, 4, 0);
                let (mut p, mut ds, mut t) = (None, None, None);
                let mut grads = Vec::new();
                for step in pair_body {
                    match step {
                        Step::RecomputeP => {
                            let dot = dot_rows(cx, nv, qi, 0, kj, 0);
                            let s = cx.b.ins().fmul(dot, scale);
                            let sv = cx.b.ins().splat(F32X4, s);
                            let sv = match score {
                                Some(score) => {
                                    let kp = cx.b.ins().iadd(kv_pos, j);
                                    let (y, slope, g) = cx.score(score, sv, (qp, kp), true);
                                    t = slope.map(|d| cx.b.ins().extractlane(d, 0));
                                    grads = g;
                                    y
                                }
                                None => sv,
                            };
                            let lse_v = cx.b.ins().splat(F32X4, lse);
                            let xv = cx.b.ins().fsub(sv, lse_v);
                            let e = cx.exp(xv);
                            p = Some(cx.b.ins().extractlane(e, 0));
                        }
                        Step::Ds => {
                            let dot = dot_rows(cx, nvv, qi, ((d + dv) * 4) as i64, kj, (d * 4) as i64);
                            let diff = cx.b.ins().fsub(dot, delta_i);
                            let g = cx.b.ins().fmul(p.expect("p first"), diff);
                            if let Some(dparams) = dparams {
                                // One lane of the splat score: its gradient counts once.
                                let zero = cx.splat_f(0.0);
                                let gv = cx.b.ins().insertlane(zero, g, 0);
                                cx.add_param_grads(dparams, gv, &grads);
                            }
                            // Times the score's slope f'(s), with a score modification.
                            ds = Some(match t {
                                Some(t) => cx.b.ins().fmul(g, t),
                                None => g,
                            });
                        }
                        Step::AccumulateGrads => {
                            let ds_s = cx.b.ins().fmul(ds.expect("ds first"), scale);
                            let ds_v = cx.b.ins().splat(F32X4, ds_s);
                            let p_v = cx.b.ins().splat(F32X4, p.expect("p first"));
                            for v in 0..nv.max(nvv) {
                                let o = (v * 16) as i32;
                                let kq = (v < nv).then(|| {
                                    (cx.b.ins().load(F32X4, cx.mem, kj, o), cx.b.ins().load(F32X4, cx.mem, qi, o))
                                });
                                let dd =
                                    (v < nvv).then(|| cx.b.ins().load(F32X4, cx.mem, qi, o + ((d + dv) * 4) as i32));
                                if let Some((kk, qq)) = kq {
                                    let g = cx.b.ins().load(F32X4, cx.mem, dqi, o);
                                    let g = cx.b.ins().fma(ds_v, kk, g);
                                    cx.b.ins().store(cx.mem, g, dqi, o);
                                    let gk = cx.b.ins().load(F32X4, cx.mem, dkvj, o);
                                    let gk = cx.b.ins().fma(ds_v, qq, gk);
                                    cx.b.ins().store(cx.mem, gk, dkvj, o);
                                }
                                if let Some(dd) = dd {
                                    let gv = cx.b.ins().load(F32X4, cx.mem, dkvj, o + (d * 4) as i32);
                                    let gv = cx.b.ins().fma(p_v, dd, gv);
                                    cx.b.ins().store(cx.mem, gv, dkvj, o + (d * 4) as i32);
                                }
                            }
                        }
                        other => panic!("{other:?} is not a key-pair step"),
                    }
                }
            });
        });
    });
    Ok(())
}

/// What the four-key body of the backward kernel reads for one query row.
struct QuadRows {
    qi: Value,
    dqi: Value,
    lse: Value,
    delta: Value,
    scale: Value,
    /// The score modification, if any.
    score: Option<&'static Score>,
    /// The query's position and the first key's (i64), for scores that read positions.
    qp: Value,
    kv_pos: Value,
    k: Value,
    kv_stride: Value,
    dkv: Value,
    dkv_stride: Value,
    /// The learned parameters' gradients of the head (`BwdArgs::dparams`), with them only.
    dparams: Option<Value>,
}

/// Backward for one query row against keys `j0..j0 + 4` (all allowed): the steps of
/// `ForAllowedKeys` with the four pairs in the lanes of one vector.
fn backward_quad(cx: &mut Cx<'_>, (d, dv): (usize, usize), r: &QuadRows, j0: Value) {
    let (nv, nvv) = (d / 4, dv / 4);
    // dO and dV sit after the query bundle's q and o, and after each dkv row's dK.
    let (do_off, v_off) = (((d + dv) * 4) as i32, (d * 4) as i32);
    let rows: Vec<(Value, Value)> = (0..4)
        .map(|c| {
            let j = cx.b.ins().iadd_imm(j0, c);
            let k_off = cx.b.ins().imul(j, r.kv_stride);
            let kj = cx.addr(r.k, k_off, 4, 0);
            let g_off = cx.b.ins().imul(j, r.dkv_stride);
            (kj, cx.addr(r.dkv, g_off, 4, 0))
        })
        .collect();
    let zero = cx.splat_f(0.0);
    let (mut acc_s, mut acc_p) = ([zero; 4], [zero; 4]);
    for v in 0..nv.max(nvv) {
        let o = (v * 16) as i32;
        let q = (v < nv).then(|| cx.b.ins().load(F32X4, cx.mem, r.qi, o));
        let d_o = (v < nvv).then(|| cx.b.ins().load(F32X4, cx.mem, r.qi, o + do_off));
        for c in 0..4 {
            // Fresh single-use loads of K and V as the multiplicands x64's FMA overwrites.
            if let Some(q) = q {
                let kk = cx.b.ins().load(F32X4, cx.mem, rows[c].0, o);
                acc_s[c] = cx.b.ins().fma(kk, q, acc_s[c]);
            }
            if let Some(d_o) = d_o {
                let vv = cx.b.ins().load(F32X4, cx.mem, rows[c].0, o + v_off);
                acc_p[c] = cx.b.ins().fma(vv, d_o, acc_p[c]);
            }
        }
    }
    let (mut s, mut dp) = (zero, zero);
    for c in 0..4u8 {
        let x = cx.hsum(acc_s[c as usize]);
        s = cx.b.ins().insertlane(s, x, c);
        let y = cx.hsum(acc_p[c as usize]);
        dp = cx.b.ins().insertlane(dp, y, c);
    }
    let scale = cx.b.ins().splat(F32X4, r.scale);
    let lse = cx.b.ins().splat(F32X4, r.lse);
    let x = cx.b.ins().fmul(s, scale);
    let (x, t, grads) = match r.score {
        Some(score) => {
            let kp = cx.b.ins().iadd(r.kv_pos, j0);
            cx.score(score, x, (r.qp, kp), true)
        }
        None => (x, None, Vec::new()),
    };
    let x = cx.b.ins().fsub(x, lse);
    let p = cx.exp(x);
    let delta = cx.b.ins().splat(F32X4, r.delta);
    let diff = cx.b.ins().fsub(dp, delta);
    let ds = cx.b.ins().fmul(p, diff);
    if let Some(dparams) = r.dparams {
        cx.add_param_grads(dparams, ds, &grads);
    }
    let ds = match t {
        Some(t) => cx.b.ins().fmul(ds, t),
        None => ds,
    };
    let ds = cx.b.ins().fmul(ds, scale);
    let ds_c: Vec<Value> = (0..4u8)
        .map(|c| {
            let x = cx.b.ins().extractlane(ds, c);
            cx.b.ins().splat(F32X4, x)
        })
        .collect();
    let p_c: Vec<Value> = (0..4u8)
        .map(|c| {
            let x = cx.b.ins().extractlane(p, c);
            cx.b.ins().splat(F32X4, x)
        })
        .collect();
    for v in 0..nv.max(nvv) {
        let o = (v * 16) as i32;
        if v < nv {
            let mut g = cx.b.ins().load(F32X4, cx.mem, r.dqi, o);
            for c in 0..4 {
                let kk = cx.b.ins().load(F32X4, cx.mem, rows[c].0, o);
                g = cx.b.ins().fma(kk, ds_c[c], g);
            }
            cx.b.ins().store(cx.mem, g, r.dqi, o);
        }
        for c in 0..4 {
            if v < nv {
                let q = cx.b.ins().load(F32X4, cx.mem, r.qi, o);
                let gk = cx.b.ins().load(F32X4, cx.mem, rows[c].1, o);
                let gk = cx.b.ins().fma(q, ds_c[c], gk);
                cx.b.ins().store(cx.mem, gk, rows[c].1, o);
            }
            if v < nvv {
                let d_o = cx.b.ins().load(F32X4, cx.mem, r.qi, o + do_off);
                let gv = cx.b.ins().load(F32X4, cx.mem, rows[c].1, o + v_off);
                let gv = cx.b.ins().fma(d_o, p_c[c], gv);
                cx.b.ins().store(cx.mem, gv, rows[c].1, o + v_off);
            }
        }
    }
}

/// Dot product of `nv` vectors at `a + a_off` and `b + b_off`, with two accumulators.
fn dot_rows(cx: &mut Cx<'_>, nv: usize, a: Value, a_off: i64, b: Value, b_off: i64) -> Value {
    let zero = cx.splat_f(0.0);
    let mut acc = [zero, zero];
    for v in 0..nv {
        let x = cx.b.ins().load(F32X4, cx.mem, a, (a_off + (v * 16) as i64) as i32);
        let y = cx.b.ins().load(F32X4, cx.mem, b, (b_off + (v * 16) as i64) as i32);
        acc[v % 2] = cx.b.ins().fma(x, y, acc[v % 2]);
    }
    let s = cx.b.ins().fadd(acc[0], acc[1]);
    cx.hsum(s)
}
