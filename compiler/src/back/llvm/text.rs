//! A small writer of LLVM IR text: fresh SSA names, typed values, labels, and the handful of
//! instruction shapes the kernel lowerings use. LLVM parses and verifies what it writes.

use std::fmt::Write;

/// A value: its SSA name (or constant) and its IR type.
#[derive(Clone, Debug)]
pub struct V {
    pub name: String,
    pub ty: String,
}

impl V {
    pub fn new(name: impl Into<String>, ty: impl Into<String>) -> V {
        V { name: name.into(), ty: ty.into() }
    }
    /// `ty name`, as an operand with its type.
    pub fn t(&self) -> String {
        format!("{} {}", self.ty, self.name)
    }
}

pub fn i64c(x: i64) -> V {
    V::new(x.to_string(), "i64")
}
pub fn i32c(x: i64) -> V {
    V::new(x.to_string(), "i32")
}
/// An f32 constant in the hexadecimal form LLVM wants for exact values.
pub fn f32c(x: f32) -> V {
    V::new(format!("0x{:016X}", (x as f64).to_bits()), "float")
}

/// An open loop of [`Fn::begin_for`].
pub struct Loop {
    pub i: V,
    next: String,
    step: i64,
    latch: String,
    head: String,
    done: String,
    /// The names the carried values' phis expect from the latch.
    carried: Vec<String>,
}

/// The body of one function being written.
#[derive(Default)]
pub struct Fn {
    pub body: String,
    /// Stack slots, placed in the entry block so loops never grow the stack.
    allocas: String,
    next: usize,
}

impl Fn {
    /// A stack slot of `ty` in the entry block.
    pub fn alloca(&mut self, ty: &str, align: u32) -> V {
        let name = self.fresh("slot");
        let _ = writeln!(self.allocas, "  {name} = alloca {ty}, align {align}");
        V::new(name, "ptr")
    }
    /// The function body: `entry:` with the stack slots, then the code.
    pub fn finish(&self) -> String {
        format!("entry:\n{}{}", self.allocas, self.body)
    }
    pub fn fresh(&mut self, stem: &str) -> String {
        self.next += 1;
        format!("%{stem}{}", self.next)
    }
    pub fn label(&mut self, stem: &str) -> String {
        self.next += 1;
        format!("{stem}{}", self.next)
    }
    /// Writes `%x = <rhs>` and returns `%x` with type `ty`.
    pub fn let_(&mut self, ty: &str, rhs: impl AsRef<str>) -> V {
        let name = self.fresh("v");
        let _ = writeln!(self.body, "  {name} = {}", rhs.as_ref());
        V::new(name, ty)
    }
    /// Writes an instruction without a result.
    pub fn op(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.body, "  {}", text.as_ref());
    }
    pub fn place(&mut self, label: &str) {
        let _ = writeln!(self.body, "{label}:");
    }
    pub fn br(&mut self, label: &str) {
        self.op(format!("br label %{label}"));
    }
    pub fn cond_br(&mut self, c: &V, yes: &str, no: &str) {
        self.op(format!("br i1 {}, label %{yes}, label %{no}", c.name));
    }
    pub fn bin(&mut self, op: &str, a: &V, b: &V) -> V {
        let ty = a.ty.clone();
        self.let_(&ty, format!("{op} {} {}, {}", a.ty, a.name, b.name))
    }
    pub fn fast(&mut self, op: &str, a: &V, b: &V) -> V {
        let ty = a.ty.clone();
        self.let_(&ty, format!("{op} {} {}, {}", a.ty, a.name, b.name))
    }
    pub fn icmp(&mut self, pred: &str, a: &V, b: &V) -> V {
        let ty = if a.ty.starts_with('<') { a.ty.replace("i32", "i1").replace("i64", "i1") } else { "i1".into() };
        self.let_(&ty, format!("icmp {pred} {} {}, {}", a.ty, a.name, b.name))
    }
    pub fn fcmp(&mut self, pred: &str, a: &V, b: &V) -> V {
        let ty = if a.ty.starts_with('<') { a.ty.replace("float", "i1") } else { "i1".into() };
        self.let_(&ty, format!("fcmp {pred} {} {}, {}", a.ty, a.name, b.name))
    }
    pub fn select(&mut self, c: &V, a: &V, b: &V) -> V {
        let ty = a.ty.clone();
        self.let_(&ty, format!("select {}, {}, {}", c.t(), a.t(), b.t()))
    }
    pub fn call(&mut self, ret: &str, f: &str, args: &[&V]) -> V {
        let list: Vec<String> = args.iter().map(|a| a.t()).collect();
        self.let_(ret, format!("call {ret} @{f}({})", list.join(", ")))
    }
    pub fn call_void(&mut self, f: &str, args: &[&V]) {
        let list: Vec<String> = args.iter().map(|a| a.t()).collect();
        self.op(format!("call void @{f}({})", list.join(", ")));
    }
    /// `getelementptr inbounds elem, ptr p, i64 idx`.
    pub fn gep(&mut self, elem: &str, p: &V, idx: &V) -> V {
        let ty = p.ty.clone();
        self.let_(&ty, format!("getelementptr inbounds {elem}, {}, {}", p.t(), idx.t()))
    }
    pub fn load(&mut self, ty: &str, p: &V, align: u32) -> V {
        self.let_(ty, format!("load {ty}, {}, align {align}", p.t()))
    }
    pub fn store(&mut self, v: &V, p: &V, align: u32) {
        self.op(format!("store {}, {}, align {align}", v.t(), p.t()));
    }
    pub fn cast(&mut self, op: &str, v: &V, to: &str) -> V {
        self.let_(to, format!("{op} {} to {to}", v.t()))
    }
    pub fn extract(&mut self, v: &V, lane: u32) -> V {
        let elem =
            v.ty.trim_start_matches('<').trim_end_matches('>').split(" x ").nth(1).unwrap_or("float").to_string();
        self.let_(&elem, format!("extractelement {}, i32 {lane}", v.t()))
    }
    /// A vector of `n` copies of scalar `s`.
    pub fn splat(&mut self, s: &V, n: u32) -> V {
        let vt = format!("<{n} x {}>", s.ty);
        let one = self.let_(&vt, format!("insertelement {vt} poison, {}, i32 0", s.t()));
        self.let_(&vt, format!("shufflevector {vt} {}, {vt} poison, <{n} x i32> zeroinitializer", one.name))
    }
    pub fn shuffle(&mut self, a: &V, b: &V, lanes: &[u32]) -> V {
        let elem =
            a.ty.trim_start_matches('<').trim_end_matches('>').split(" x ").nth(1).unwrap_or("float").to_string();
        let ty = format!("<{} x {elem}>", lanes.len());
        let mask: Vec<String> = lanes.iter().map(|l| format!("i32 {l}")).collect();
        self.let_(&ty, format!("shufflevector {}, {}, <{} x i32> <{}>", a.t(), b.t(), lanes.len(), mask.join(", ")))
    }
    /// A counted loop `for i in start..end step` (i64), with the body written by `body`.
    pub fn for_range(&mut self, start: &V, end: &V, step: i64, body: impl FnOnce(&mut Fn, &V)) {
        let l = self.begin_for(start, end, step);
        let i = l.i.clone();
        body(self, &i);
        self.end_for(l);
    }
    /// A counted loop `for i in start..end step` (i64, while `i < end`) that carries the values
    /// `init` from one iteration to the next as phis: `body` gets the current values and returns
    /// the next ones; the values after the loop are returned.
    pub fn for_carry(
        &mut self,
        start: &V,
        end: &V,
        step: i64,
        init: &[V],
        body: impl FnOnce(&mut Fn, &V, Vec<V>) -> Vec<V>,
    ) -> Vec<V> {
        let (l, cur) = self.open_loop(start, end, step, init);
        let i = l.i.clone();
        let out = body(self, &i, cur.clone());
        self.close_loop(l, &out);
        cur
    }
    /// Opens a counted loop `for i in start..end step`; the body follows until [`Fn::end_for`].
    pub fn begin_for(&mut self, start: &V, end: &V, step: i64) -> Loop {
        self.open_loop(start, end, step, &[]).0
    }
    pub fn end_for(&mut self, l: Loop) {
        self.close_loop(l, &[]);
    }
    /// The head of a loop: the counter's phi and one phi per carried value (returned).
    fn open_loop(&mut self, start: &V, end: &V, step: i64, init: &[V]) -> (Loop, Vec<V>) {
        let (pre, head, work, latch, done) =
            (self.label("pre"), self.label("head"), self.label("body"), self.label("latch"), self.label("done"));
        self.br(&pre);
        self.place(&pre);
        self.br(&head);
        self.place(&head);
        let (i, next) = (self.fresh("i"), self.fresh("inext"));
        self.op(format!("{i} = phi i64 [ {}, %{pre} ], [ {next}, %{latch} ]", start.name));
        let mut carried = Vec::new();
        let mut cur = Vec::new();
        for v in init {
            let (c, nx) = (self.fresh("carry"), self.fresh("carried"));
            self.op(format!("{c} = phi {} [ {}, %{pre} ], [ {nx}, %{latch} ]", v.ty, v.name));
            cur.push(V::new(c, v.ty.clone()));
            carried.push(nx);
        }
        let iv = V::new(i, "i64");
        let c = self.icmp("slt", &iv, end);
        self.cond_br(&c, &work, &done);
        self.place(&work);
        (Loop { i: iv, next, step, latch, head, done, carried }, cur)
    }
    /// The latch of a loop: `out` become the carried values of the next iteration.
    fn close_loop(&mut self, l: Loop, out: &[V]) {
        assert_eq!(out.len(), l.carried.len(), "a loop body must return every carried value");
        self.br(&l.latch);
        self.place(&l.latch);
        for (nx, v) in l.carried.iter().zip(out) {
            // The next value under the name the phi expects (LLVM folds the trivial select).
            self.op(format!("{nx} = select i1 true, {}, {}", v.t(), v.t()));
        }
        self.op(format!("{} = add i64 {}, {}", l.next, l.i.name, l.step));
        self.br(&l.head);
        self.place(&l.done);
    }
    /// `if c { body }`.
    pub fn if_(&mut self, c: &V, body: impl FnOnce(&mut Fn)) {
        let (yes, done) = (self.label("then"), self.label("endif"));
        self.cond_br(c, &yes, &done);
        self.place(&yes);
        body(self);
        self.br(&done);
        self.place(&done);
    }
    pub fn min_i64(&mut self, a: &V, b: &V) -> V {
        self.call("i64", "llvm.smin.i64", &[a, b])
    }
    pub fn max_i64(&mut self, a: &V, b: &V) -> V {
        self.call("i64", "llvm.smax.i64", &[a, b])
    }
    pub fn clamp_i64(&mut self, x: &V, lo: &V, hi: &V) -> V {
        let a = self.max_i64(x, lo);
        self.min_i64(&a, hi)
    }
}

/// Rounds `x` down to a multiple of the power of two... or any positive `m` (x ≥ 0).
pub fn round_down(f: &mut Fn, x: &V, m: i64) -> V {
    let q = f.bin("sdiv", x, &i64c(m));
    f.bin("mul", &q, &i64c(m))
}

/// Rounds `x` up to a multiple of `m` (x ≥ 0).
pub fn round_up(f: &mut Fn, x: &V, m: i64) -> V {
    let a = f.bin("add", x, &i64c(m - 1));
    round_down(f, &a, m)
}
