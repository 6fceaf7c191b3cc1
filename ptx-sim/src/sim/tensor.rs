//! The matrix instructions: `ldmatrix` and `mma.sync` on a warp, and `wgmma.mma_async` on a
//! warpgroup of four warps with its shared-memory matrix descriptors and its asynchronous
//! completion (`wgmma.commit_group`, `wgmma.wait_group`).

use super::*;
use std::collections::{HashMap, VecDeque};

/// A register a `wgmma.mma_async` in flight writes (no access until its wait) …
pub(super) const IN_D: u8 = 1;
/// … or reads as its A fragment (no write until its wait).
pub(super) const IN_A: u8 = 2;

/// One `wgmma.mma_async` in flight: per warp of its warpgroup the registers it holds, and the
/// shared bytes it reads.
struct Op {
    warps: Vec<(usize, Vec<u32>, Vec<u32>)>,
    reads: Vec<(usize, usize)>,
    /// Warps that have waited for it.
    waited: usize,
}

/// The block's `wgmma` state ("wgmma.commit_group", "wgmma.wait_group"): per warp the operations
/// since its last commit and its committed groups, oldest first.
#[derive(Default)]
pub(super) struct Wgmmas {
    ops: HashMap<u64, Op>,
    next: u64,
    open: HashMap<usize, Vec<u64>>,
    groups: HashMap<usize, VecDeque<Vec<u64>>>,
    /// Per shared byte: in-flight operations reading it (writes to it are errors).
    reading: Vec<u16>,
    /// In-flight operations that read shared memory (none: writes need no look).
    readers: usize,
}

impl Wgmmas {
    pub(super) fn new(shared_bytes: usize) -> Wgmmas {
        Wgmmas { reading: vec![0; shared_bytes], ..Wgmmas::default() }
    }
}

impl Block<'_> {
    /// `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16 {d…}, [addr]` ("ldmatrix"): lanes
    /// 8i…8i+7 give the addresses of matrix i's eight rows (16 bytes each); lane t receives in
    /// `d[i]` row t/4, columns 2(t%4) and 2(t%4)+1 of matrix i — with `.trans`, of its transpose.
    pub(super) fn ldmatrix(&mut self, w: usize, inst: &Inst, run: &[usize], global: &Global) -> Result<(), SimError> {
        let count = match inst.op.iter().find(|p| p.starts_with('x')).map(String::as_str) {
            Some("x1") => 1,
            Some("x2") => 2,
            Some("x4") => 4,
            _ => return Err(self.fault(inst, w, run[0], "ldmatrix without .x1, .x2 or .x4".to_string())),
        };
        if !inst.has("m8n8") || !inst.has("b16") {
            return Err(self.fault(inst, w, run[0], "ldmatrix shapes other than .m8n8.b16".to_string()));
        }
        let Operand::Vector(dsts) = &inst.args[0] else {
            return Err(self.fault(inst, w, run[0], "ldmatrix needs a vector destination".to_string()));
        };
        if dsts.len() != count || run.len() != 32 {
            return Err(self.fault(
                inst,
                w,
                run[0],
                format!("ldmatrix .x{count} needs {count} registers and 32 lanes"),
            ));
        }
        // matrices[i][row][col], b16 bits.
        let mut m = vec![[[0u16; 8]; 8]; count];
        for (i, mat) in m.iter_mut().enumerate() {
            for (r, row) in mat.iter_mut().enumerate() {
                let lane = i * 8 + r;
                let addr = self.effective(w, lane, &inst.args[1]).map_err(|e| self.fault(inst, w, lane, e))?;
                if addr % 16 != 0 {
                    return Err(self.fault(
                        inst,
                        w,
                        lane,
                        format!("ldmatrix row address {addr:#x} is not 16-byte aligned"),
                    ));
                }
                let bytes =
                    self.load(w * 32 + lane, "shared", addr, 16, global).map_err(|e| self.fault(inst, w, lane, e))?;
                for (c, v) in row.iter_mut().enumerate() {
                    *v = u16::from_le_bytes([bytes[2 * c], bytes[2 * c + 1]]);
                }
            }
        }
        let trans = inst.has("trans");
        for t in 0..32 {
            let (g, q) = (t / 4, t % 4);
            for (i, d) in dsts.iter().enumerate() {
                let (lo, hi) =
                    if trans { (m[i][2 * q][g], m[i][2 * q + 1][g]) } else { (m[i][g][2 * q], m[i][g][2 * q + 1]) };
                self.set(w, t, d, lo as u64 | (hi as u64) << 16, Ty::B(32)).map_err(|e| self.fault(inst, w, t, e))?;
            }
        }
        Ok(())
    }

    /// `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32 d, a, b, c` ("Matrix
    /// Fragments for mma.m16n8k16 with floating point type"): with g = lane/4 and q = lane%4,
    /// A's element pair j (registers a0…a3) is row g + 8·(j%2), columns 2q + 8·(j/2) and +1; B's
    /// pair j (b0, b1) is rows 2q + 8j and +1, column g; C and D's pair j (c0, c1 and c2, c3) is
    /// row g + 8j, columns 2q and 2q + 1. Products are exact and summed in f64, rounded once.
    pub(super) fn mma(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        let shape_ok = inst.has("m16n8k16") && inst.has("row") && inst.has("col");
        let half = if inst.has("bf16") {
            |b: u16| half::bf16::from_bits(b).to_f64()
        } else if inst.has("f16") {
            |b: u16| half::f16::from_bits(b).to_f64()
        } else {
            return Err(self.fault(inst, w, run[0], "mma input types other than bf16 and f16".to_string()));
        };
        let n = inst.op.len();
        if !shape_ok || inst.op[n - 1] != "f32" || inst.op[n - 4] != "f32" || run.len() != 32 {
            return Err(self.fault(
                inst,
                w,
                run[0],
                "mma shapes other than m16n8k16.row.col with f32 C and D".to_string(),
            ));
        }
        let regs = |i: usize, len: usize| -> Result<Vec<Operand>, SimError> {
            match &inst.args[i] {
                Operand::Vector(v) if v.len() == len => Ok(v.clone()),
                _ => Err(self.fault(inst, w, run[0], format!("mma operand {i} needs {len} registers"))),
            }
        };
        let (d, a, b, c) = (regs(0, 4)?, regs(1, 4)?, regs(2, 2)?, regs(3, 4)?);
        let (mut am, mut bm, mut cm) = ([[0f64; 16]; 16], [[0f64; 8]; 16], [[0f64; 8]; 16]);
        for t in 0..32 {
            let (g, q) = (t / 4, t % 4);
            let get = |op: &Operand, ty: Ty| self.operand(w, t, op, ty).map_err(|e| self.fault(inst, w, t, e));
            for (j, r) in a.iter().enumerate() {
                let v = get(r, Ty::B(32))?;
                let (row, col) = (g + 8 * (j % 2), 2 * q + 8 * (j / 2));
                am[row][col] = half(v as u16);
                am[row][col + 1] = half((v >> 16) as u16);
            }
            for (j, r) in b.iter().enumerate() {
                let v = get(r, Ty::B(32))?;
                let row = 2 * q + 8 * j;
                bm[row][g] = half(v as u16);
                bm[row + 1][g] = half((v >> 16) as u16);
            }
            for (j, r) in c.iter().enumerate() {
                let v = f32_of(get(r, Ty::F(32))?) as f64;
                cm[g + 8 * (j / 2)][2 * q + j % 2] = v;
            }
        }
        for t in 0..32 {
            let (g, q) = (t / 4, t % 4);
            for (j, r) in d.iter().enumerate() {
                let (row, col) = (g + 8 * (j / 2), 2 * q + j % 2);
                let sum: f64 = cm[row][col] + (0..16).map(|k| am[row][k] * bm[k][col]).sum::<f64>();
                self.set(w, t, r, to_f32_bits(sum as f32), Ty::F(32)).map_err(|e| self.fault(inst, w, t, e))?;
            }
        }
        Ok(())
    }

    /// `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group N` for warp `w`; at
    /// `wgmma.mma_async` the warp waits for the rest of its warpgroup (`release_wgmmas`).
    pub(super) fn wgmma_step(&mut self, w: usize, pc: usize, inst: &Inst) -> Result<(), SimError> {
        match inst.op.get(1).map(String::as_str) {
            Some("fence") => {
                let warp = &mut self.warps[w];
                warp.fenced = true;
                warp.touched.fill(false);
                Ok(())
            }
            Some("mma_async") => {
                self.warps[w].wait = Wait::Wgmma(pc);
                Ok(())
            }
            Some("commit_group") => {
                let open = self.wgmma.open.remove(&w).unwrap_or_default();
                self.wgmma.groups.entry(w).or_default().push_back(open);
                Ok(())
            }
            Some("wait_group") => {
                let keep = match inst.args.first() {
                    Some(Operand::Int(n)) if *n >= 0 => *n as usize,
                    _ => return Err(self.fault(inst, w, 0, "wgmma.wait_group needs an immediate count".to_string())),
                };
                let groups = self.wgmma.groups.entry(w).or_default();
                let mut done = Vec::new();
                while groups.len() > keep {
                    done.extend(groups.pop_front().expect("longer than keep"));
                }
                for id in done {
                    let op = self.wgmma.ops.get_mut(&id).expect("an op in a group is in flight");
                    op.waited += 1;
                    if op.waited == 1 {
                        // Complete: its shared reads are over.
                        for &(at, len) in &op.reads {
                            for n in &mut self.wgmma.reading[at..at + len] {
                                *n -= 1;
                            }
                        }
                        self.wgmma.readers -= 1;
                    }
                    if op.waited == op.warps.len() {
                        self.wgmma.ops.remove(&id);
                    }
                }
                self.repend(w);
                Ok(())
            }
            _ => Err(self.fault(
                inst,
                w,
                0,
                format!("`{}` is not an instruction this interpreter knows", inst.op.join(".")),
            )),
        }
    }

    /// Recomputes warp `w`'s registers held by operations it has not waited for.
    fn repend(&mut self, w: usize) {
        let mut ids: Vec<u64> = self.wgmma.open.get(&w).cloned().unwrap_or_default();
        ids.extend(self.wgmma.groups.get(&w).into_iter().flatten().flatten());
        let warp = &mut self.warps[w];
        warp.pending.fill(0);
        warp.pending_any = false;
        for id in ids {
            let op = &self.wgmma.ops[&id];
            if let Some((_, d, a)) = op.warps.iter().find(|(x, _, _)| *x == w) {
                for &r in d {
                    warp.pending[r as usize] |= IN_D;
                }
                for &r in a {
                    warp.pending[r as usize] |= IN_A;
                }
                warp.pending_any = true;
            }
        }
    }

    /// A shared write to `[at, at + len)` while an in-flight `wgmma` or bulk store reads it is an
    /// error.
    pub(super) fn check_wgmma_reads(&self, at: usize, len: usize) -> LaneResult<()> {
        if let Some(a) = self.sync.bulk_reading(at, len) {
            return Err(format!(
                "write to shared memory at {a:#x} that an in-flight cp.async.bulk store reads (before its cp.async.bulk.wait_group.read)"
            ));
        }
        if self.wgmma.readers == 0 {
            return Ok(());
        }
        match self.wgmma.reading[at..at + len].iter().position(|&n| n > 0).map(|i| at + i) {
            Some(a) => Err(format!(
                "write to shared memory at {a:#x} that an in-flight wgmma.mma_async reads (before its wgmma.wait_group)"
            )),
            None => Ok(()),
        }
    }

    /// The ordering `wgmma.fence` gives (PTX ISA 9.7.15.7.1): every warp of the warpgroup has
    /// executed one before its first `wgmma.mma_async`, and none of the accumulator registers `d`
    /// or the A-fragment registers the operation reads was written by another instruction since
    /// the warp's last one (accumulator accesses between `wgmma.mma_async`s need none: their
    /// results are not writes here). Reads by other instructions are not tracked.
    fn check_wgmma_fence(&self, g: usize, inst: &Inst, d: &[u32]) -> Result<(), SimError> {
        let a: Vec<u32> = match inst.args.get(1) {
            Some(Operand::Vector(a)) => {
                a.iter().filter_map(|o| if let Operand::Reg(r) = o { Some(*r) } else { None }).collect()
            }
            _ => Vec::new(),
        };
        for w in 4 * g..4 * g + 4 {
            let warp = &self.warps[w];
            if !warp.fenced {
                return Err(self.fault(
                    inst,
                    w,
                    0,
                    "wgmma.mma_async before any wgmma.fence of this warp (the ISA asks for one before a warpgroup's first wgmma.mma_async)".into(),
                ));
            }
            for (r, role) in d.iter().map(|r| (r, "accumulator")).chain(a.iter().map(|r| (r, "A fragment"))) {
                if warp.touched[*r as usize] {
                    return Err(self.fault(
                        inst,
                        w,
                        0,
                        format!(
                            "wgmma.mma_async reads {role} register {}, written by another instruction since the warp's last wgmma.fence (the ISA asks for one between them)",
                            self.kernel.regs[*r as usize]
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Runs the `wgmma.mma_async` of every warpgroup whose four warps wait at the same one; fails
    /// when a warp waits at one its warpgroup cannot reach.
    pub(super) fn release_wgmmas(&mut self) -> Result<(), SimError> {
        let mut released = false;
        for g in 0..self.warps.len().div_ceil(4) {
            let Wait::Wgmma(pc) = self.warps[4 * g].wait else { continue };
            let group: Vec<usize> = (4 * g..4 * g + 4).collect();
            if group.iter().all(|&w| w < self.warps.len() && self.warps[w].wait == Wait::Wgmma(pc)) {
                self.wgmma_run(g, pc)?;
                for &w in &group {
                    self.warps[w].wait = Wait::No;
                }
                released = true;
            }
        }
        if released {
            return Ok(());
        }
        let w = self.warps.iter().position(|x| matches!(x.wait, Wait::Wgmma(_))).expect("one waits at a wgmma");
        let Wait::Wgmma(pc) = self.warps[w].wait else { unreachable!() };
        let g = w / 4;
        let elsewhere: Vec<String> = (4 * g..4 * g + 4)
            .filter(|&x| x >= self.warps.len() || self.warps[x].wait != Wait::Wgmma(pc))
            .map(|x| {
                if x >= self.warps.len() {
                    format!("warp {x} does not exist (blocks of {} warps)", self.warps.len())
                } else if self.warps[x].finished() {
                    format!("warp {x} has ended")
                } else {
                    format!("warp {x} waits at PTX line {}", self.kernel.body[self.resume_pc(x).saturating_sub(1)].line)
                }
            })
            .collect();
        Err(self.fault(
            &self.kernel.body[pc],
            w,
            0,
            format!("wgmma.mma_async reached by part of warpgroup {g}: {}", elsewhere.join(", ")),
        ))
    }

    /// `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16} d, a, b-desc, scale-d,
    /// imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b` for warpgroup `g` (PTX ISA 9.7.15.5):
    /// D = A·B (+ D when scale-d), A 64×16 from registers or a descriptor, B 16×N from a
    /// descriptor. Register fragments (9.7.15.5.1.1.1, Figures 148 and 149), with warp i of the
    /// warpgroup, g = lane/4, q = lane%4: A's element e (registers a0…a3, two each) is row
    /// 16i + g + 8·((e/2)%2), column 2q + e%2 + 8·(e/4); D's element e (d0…d(N/2−1)) is row
    /// 16i + g + 8·((e/2)%2), column 8·(e/4) + 2q + e%2. Products are exact and summed in f64,
    /// rounded once (as `mma`).
    fn wgmma_run(&mut self, g: usize, pc: usize) -> Result<(), SimError> {
        let kernel = self.kernel;
        let inst = &kernel.body[pc];
        let w0 = 4 * g;
        let fail = |this: &Self, m: String| this.fault(inst, w0, 0, m);
        let n: usize = match inst.op.iter().find_map(|p| p.strip_prefix("m64n")?.strip_suffix("k16")?.parse().ok()) {
            Some(n) if n % 8 == 0 && (8..=256).contains(&n) => n,
            _ => return Err(fail(self, "wgmma shapes other than m64nNk16 (N a multiple of 8 up to 256)".into())),
        };
        let parts = &inst.op;
        let k = parts.len();
        let half: fn(u16) -> f64 = match (parts[k - 2].as_str(), parts[k - 1].as_str()) {
            ("bf16", "bf16") => |b| half::bf16::from_bits(b).to_f64(),
            ("f16", "f16") => |b| half::f16::from_bits(b).to_f64(),
            _ => return Err(fail(self, "wgmma input types other than bf16 and f16".into())),
        };
        if parts[k - 3] != "f32" {
            return Err(fail(self, "wgmma accumulators other than f32".into()));
        }
        let a_regs = matches!(inst.args.get(1), Some(Operand::Vector(_)));
        let n_args = if a_regs { 7 } else { 8 };
        if inst.args.len() != n_args {
            return Err(fail(self, format!("wgmma takes {n_args} operands here, not {}", inst.args.len())));
        }
        let Operand::Vector(d) = &inst.args[0] else {
            return Err(fail(self, "wgmma needs a vector accumulator".into()));
        };
        if d.len() != n / 2 {
            return Err(fail(self, format!("wgmma m64n{n}k16 needs {} accumulator registers, not {}", n / 2, d.len())));
        }
        let d: Vec<u32> = d
            .iter()
            .map(|o| match o {
                Operand::Reg(r) => Ok(*r),
                _ => Err(fail(self, "wgmma accumulators must be registers".into())),
            })
            .collect::<Result<_, _>>()?;
        // Warpgroup-uniform operands: the same in every thread (the ISA requires it).
        let uniform = |this: &Self, i: usize, ty: Ty| -> Result<u64, SimError> {
            let first = this.operand(w0, 0, &inst.args[i], ty).map_err(|e| this.fault(inst, w0, 0, e))?;
            for w in w0..w0 + 4 {
                for l in 0..32 {
                    let v = this.operand(w, l, &inst.args[i], ty).map_err(|e| this.fault(inst, w, l, e))?;
                    if v != first {
                        return Err(this.fault(
                            inst,
                            w,
                            l,
                            format!("wgmma operand {i} differs across the warpgroup ({v:#x}, {first:#x} in its first thread)"),
                        ));
                    }
                }
            }
            Ok(first)
        };
        self.check_wgmma_fence(g, inst, &d)?;
        let b_desc = uniform(self, 2, Ty::B(64))?;
        let scale_d = uniform(self, 3, Ty::U(32))? != 0;
        let imm = |this: &Self, i: usize| match &inst.args[i] {
            Operand::Int(v) => Ok(*v),
            _ => Err(this.fault(inst, w0, 0, format!("wgmma operand {i} must be an immediate"))),
        };
        let (scale_a, scale_b) = (imm(self, 4)?, imm(self, 5)?);
        let trans_b = imm(self, n_args - 1)?;
        if ![scale_a, scale_b].iter().all(|s| *s == 1 || *s == -1) || !(0..=1).contains(&trans_b) {
            return Err(fail(self, "wgmma imm-scale must be 1 or -1 and imm-trans 0 or 1".into()));
        }
        let mut reads = Vec::new();
        // A: 64×16.
        let mut am = vec![[0f64; 16]; 64];
        let mut a_held: Vec<Vec<u32>> = vec![Vec::new(); 4];
        if let Operand::Vector(a) = &inst.args[1] {
            if a.len() != 4 {
                return Err(fail(self, "wgmma with A in registers needs 4 of them".into()));
            }
            for (i, w) in (w0..w0 + 4).enumerate() {
                a_held[i] = a.iter().filter_map(|o| if let Operand::Reg(r) = o { Some(*r) } else { None }).collect();
                for t in 0..32 {
                    let (gr, q) = (t / 4, t % 4);
                    for (j, r) in a.iter().enumerate() {
                        let v = self.operand(w, t, r, Ty::B(32)).map_err(|e| self.fault(inst, w, t, e))?;
                        for h in 0..2 {
                            let e = 2 * j + h;
                            let (row, col) = (16 * i + gr + 8 * ((e / 2) % 2), 2 * q + e % 2 + 8 * (e / 4));
                            am[row][col] = half((v >> (16 * h)) as u16);
                        }
                    }
                }
            }
        } else {
            let a_desc = uniform(self, 1, Ty::B(64))?;
            let trans_a = imm(self, 6)?;
            for (row, r) in am.iter_mut().enumerate() {
                for (col, x) in r.iter_mut().enumerate() {
                    let at = self.descriptor_at(a_desc, row, col, trans_a == 1).map_err(|m| fail(self, m))?;
                    *x = half(self.wgmma_read(g, at, &mut reads).map_err(|m| fail(self, m))?);
                }
            }
        }
        // B: 16×N; element (k, j) by the descriptor, N the MN dimension.
        let mut bm = vec![vec![0f64; n]; 16];
        for (kk, r) in bm.iter_mut().enumerate() {
            for (j, x) in r.iter_mut().enumerate() {
                let at = self.descriptor_at(b_desc, j, kk, trans_b == 1).map_err(|m| fail(self, m))?;
                *x = half(self.wgmma_read(g, at, &mut reads).map_err(|m| fail(self, m))?);
            }
        }
        let sign = (scale_a * scale_b) as f64;
        for (i, w) in (w0..w0 + 4).enumerate() {
            for t in 0..32 {
                let (gr, q) = (t / 4, t % 4);
                for (e, &r) in d.iter().enumerate() {
                    let (row, col) = (16 * i + gr + 8 * ((e / 2) % 2), 8 * (e / 4) + 2 * q + e % 2);
                    let slot = r as usize * 32 + t;
                    let c = if scale_d { f32_of(self.warps[w].regs[slot]) as f64 } else { 0.0 };
                    let sum = c + sign * (0..16).map(|k| am[row][k] * bm[k][col]).sum::<f64>();
                    self.warps[w].regs[slot] = to_f32_bits(sum as f32);
                }
            }
        }
        // In flight until each warp's wait_group.
        let id = self.wgmma.next;
        self.wgmma.next += 1;
        for &(at, len) in &reads {
            for n in &mut self.wgmma.reading[at..at + len] {
                *n += 1;
            }
        }
        self.wgmma.readers += 1;
        let warps = (w0..w0 + 4).zip(a_held).map(|(w, a)| (w, d.clone(), a)).collect();
        self.wgmma.ops.insert(id, Op { warps, reads, waited: 0 });
        for w in w0..w0 + 4 {
            self.wgmma.open.entry(w).or_default().push(id);
            self.repend(w);
        }
        Ok(())
    }

    /// The shared address of element (mn, k) of a 16-bit operand by its matrix descriptor (PTX
    /// ISA 9.7.15.5.1.2.2): bits 0–13 start address >> 4, 16–29 leading-dimension byte offset
    /// (LBO) >> 4, 32–45 stride-dimension byte offset (SBO) >> 4, 49–51 the base offset, 62–63
    /// the swizzle (0 none, 1 128-byte, 2 64-byte, 3 32-byte). The canonical layouts
    /// (9.7.15.5.1.2.1.3, T = 8 elements of 16 bits), the same as CUTLASS CuTe's GMMA atoms
    /// (`cute/atom/mma_traits_sm90_gmma.hpp`: `Layout_K_SW128_Atom_Bits` = `Swizzle<3,4,3>` over
    /// 8 rows of 1024 bits, and so on):
    /// - no swizzle, K-major ((8,m),(T,2k)):((1T,SBO),(1,LBO)): byte 16·(mn%8) + SBO·(mn/8) +
    ///   2·(k%8) + LBO·(k/8); MN-major ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)): byte 2·(mn%8) +
    ///   SBO·(mn/8) + 16·(k%8) + LBO·(k/8);
    /// - a swizzle of S bytes (32, 64, 128), K-major ((8,m),(T,2k)):((S/2,SBO),(1,T)): rows of S
    ///   bytes, byte S·(mn%8) + SBO·(mn/8) + 2·k (LBO unused); MN-major ((T,S/16,m),(8,k)):
    ///   ((1,T,LBO),(S/2,SBO)): byte 2·(mn%(S/2)) + LBO·(mn/(S/2)) + S·(k%8) + SBO·(k/8); then
    ///   the swizzle of the shared address, 16-byte chunk bits 4.. XOR row bits 7.. (`Swizzle<B,4,3>`
    ///   with B = 3, 2, 1), as TMA writes it (`tensor_map::Swizzle::apply`). A base offset (a
    ///   pattern not aligned to its 8 rows) is not interpreted.
    fn descriptor_at(&self, desc: u64, mn: usize, k: usize, mn_major: bool) -> LaneResult<usize> {
        let start = ((desc & 0x3fff) << 4) as usize;
        let lbo = (((desc >> 16) & 0x3fff) << 4) as usize;
        let sbo = (((desc >> 32) & 0x3fff) << 4) as usize;
        let base_offset = (desc >> 49) & 7;
        let swizzle = match desc >> 62 {
            0 => crate::tensor_map::Swizzle::None,
            1 => crate::tensor_map::Swizzle::B128,
            2 => crate::tensor_map::Swizzle::B64,
            _ => crate::tensor_map::Swizzle::B32,
        };
        if base_offset != 0 {
            return Err(format!(
                "wgmma descriptor {desc:#x} has base offset {base_offset}, which this interpreter does not implement"
            ));
        }
        let Some(span) = swizzle.bytes() else {
            return Ok(if mn_major {
                start + 2 * (mn % 8) + sbo * (mn / 8) + 16 * (k % 8) + lbo * (k / 8)
            } else {
                start + 16 * (mn % 8) + sbo * (mn / 8) + 2 * (k % 8) + lbo * (k / 8)
            });
        };
        // A K-major operand may start inside the first row of its pattern (CUTLASS advances the
        // start address by K steps of 32 bytes within a 128-byte row); the rows stay aligned.
        let into_row = start % (8 * span);
        if into_row != 0 && (mn_major || into_row >= span) {
            return Err(format!(
                "wgmma descriptor {desc:#x}: a {span}-byte swizzled operand starts at shared {start:#x}, not aligned to its {} bytes{}",
                8 * span,
                if mn_major { "" } else { " (nor inside its first row)" }
            ));
        }
        let at = if mn_major {
            start + 2 * (mn % (span / 2)) + lbo * (mn / (span / 2)) + span * (k % 8) + sbo * (k / 8)
        } else {
            if into_row + 2 * k >= span {
                return Err(format!("wgmma descriptor {desc:#x}: K element {k} is past the {span}-byte swizzled row"));
            }
            start + span * (mn % 8) + sbo * (mn / 8) + 2 * k
        };
        Ok(swizzle.apply(at))
    }

    /// One 16-bit element read by a `wgmma` from shared memory, checked.
    fn wgmma_read(&mut self, g: usize, at: usize, reads: &mut Vec<(usize, usize)>) -> LaneResult<u16> {
        if at + 2 > self.shared.len() {
            return Err(format!(
                "wgmma reads shared memory at {at:#x}, out of bounds (the block has {} bytes)",
                self.shared.len()
            ));
        }
        if self.inflight[at..at + 2].iter().any(|&n| n > 0) {
            return Err(format!("wgmma reads shared memory at {at:#x} while a cp.async to it is in flight"));
        }
        self.shadow.read_async(4 * g..(4 * g + 4).min(self.warps.len()), at, 2)?;
        match reads.last_mut() {
            Some((s, l)) if *s + *l == at => *l += 2,
            _ => reads.push((at, 2)),
        }
        Ok(u16::from_le_bytes([self.shared[at], self.shared[at + 1]]))
    }

    /// `fence.proxy.async{.shared::cta|.shared::cluster|.global}`: the lanes' earlier shared writes
    /// become visible to the async proxy (`wgmma`). Other fences order nothing this interpreter
    /// could observe out of order (warps run one at a time) and are accepted as no-ops only when
    /// they are `membar`/`fence` of sc/acq_rel kind.
    pub(super) fn fence(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        if inst.has("proxy") {
            // `fence.proxy.tensormap::generic.acquire.SCOPE [map], 128`: tensor maps are read by
            // `cp.async.bulk.tensor` straight from memory here, so there is nothing to acquire.
            if inst.op.iter().any(|p| p == "tensormap::generic") {
                return Ok(());
            }
            if !inst.has("async") && !inst.op.iter().any(|p| p.starts_with("async")) {
                return Err(self.fault(inst, w, run[0], format!("`{}` is not interpreted", inst.op.join("."))));
            }
            for &l in run {
                self.shadow.proxy_fence(w * 32 + l);
            }
            return Ok(());
        }
        // `fence.mbarrier_init`: the interpreter orders a block's warps by its barriers, which the
        // kernels pair it with.
        if inst.has("sc") || inst.has("acq_rel") || inst.has("mbarrier_init") {
            return Ok(());
        }
        Err(self.fault(inst, w, run[0], format!("`{}` is not interpreted", inst.op.join("."))))
    }
}
