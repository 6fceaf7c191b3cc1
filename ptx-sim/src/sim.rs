//! Running a kernel: a grid of blocks, one block after another; in a block, warps of 32 threads
//! in lockstep under an active mask.
//!
//! Lockstep: each step a warp runs the instruction at the lowest program counter among its live
//! lanes, for the lanes that are there (the active mask); the others wait. Lanes that branch apart
//! therefore run one side, then the other, and meet again where their counters do (the
//! post-dominator of structured code, which is what LLVM emits). Instructions that the ISA makes
//! warp-collective (`.sync.aligned`, `bar.sync` = `barrier.sync.aligned`, `shfl.sync`'s member
//! mask) check that the lanes they need are all there, and fail naming the instruction otherwise.
//!
//! Checks, like compute-sanitizer's: global accesses outside every allocation, shared accesses
//! outside the block's shared memory, reads of shared bytes no thread wrote, shared-memory races
//! (two threads touching a byte, one of them writing, with no synchronisation ordering them:
//! `race.rs`), `bar.sync` reached by part of a block, collectives reached by part of a warp or
//! warpgroup, mbarrier misuse and blocks where no warp can go on (`sync.rs`), and
//! the rules of the asynchronous instructions (`cp.async` destinations read before their
//! `wait_group`; `wgmma` registers touched and shared memory rewritten before its `wait_group`,
//! shared memory written through the generic proxy and read by `wgmma` with no
//! `fence.proxy.async` between). Each is an error naming the kernel, the PTX line, the block and
//! thread, and the address or register.

mod race;
mod sync;
mod tensor;

use crate::parse::{Base, Inst, Kernel, Module, Operand};
use crate::value::{Ty, f32_of, read_le, to_f32_bits};

/// Global memory: allocations at addresses `(index + 1) << 40`, so that an address names its
/// allocation and a stray one names none.
#[derive(Default)]
pub struct Global {
    allocs: Vec<Vec<u8>>,
}

const ALLOC_SHIFT: u32 = 40;
const OFFSET_MASK: u64 = (1 << ALLOC_SHIFT) - 1;
/// Generic addresses of shared memory (`cvta.shared`): this window, then the shared offset.
const SHARED_WINDOW: u64 = 0xff << 48;

impl Global {
    pub fn new() -> Global {
        Global::default()
    }

    /// A zeroed allocation of `bytes`; returns its address.
    pub fn alloc(&mut self, bytes: usize) -> u64 {
        self.allocs.push(vec![0; bytes]);
        (self.allocs.len() as u64) << ALLOC_SHIFT
    }

    /// An allocation holding `data`.
    pub fn upload(&mut self, data: &[u8]) -> u64 {
        let at = self.alloc(data.len());
        self.allocs.last_mut().expect("just allocated").copy_from_slice(data);
        at
    }

    pub fn upload_f32(&mut self, values: &[f32]) -> u64 {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.upload(&bytes)
    }

    fn locate(&self, addr: u64, len: usize) -> Option<(usize, usize)> {
        let index = (addr >> ALLOC_SHIFT).checked_sub(1)? as usize;
        let offset = (addr & OFFSET_MASK) as usize;
        let alloc = self.allocs.get(index)?;
        (offset + len <= alloc.len()).then_some((index, offset))
    }

    pub fn read(&self, addr: u64, len: usize) -> Option<&[u8]> {
        let (i, o) = self.locate(addr, len)?;
        Some(&self.allocs[i][o..o + len])
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Option<()> {
        let (i, o) = self.locate(addr, data.len())?;
        self.allocs[i][o..o + data.len()].copy_from_slice(data);
        Some(())
    }

    /// `n` f32 values from `addr` (panics outside the allocations: for tests and callers that
    /// allocated the region themselves).
    pub fn f32s(&self, addr: u64, n: usize) -> Vec<f32> {
        let bytes = self.read(addr, n * 4).expect("a region inside an allocation");
        bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }
}

/// A kernel argument, in the parameter's declared type.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    U64(u64),
    I64(i64),
    U32(u32),
    F32(f32),
    /// A 128-byte parameter: a tensor map (`TensorMap::encode`), passed as a grid constant.
    TensorMap([u8; 128]),
}

impl Arg {
    fn bytes(self) -> Vec<u8> {
        match self {
            Arg::U64(v) => v.to_le_bytes().to_vec(),
            Arg::I64(v) => v.to_le_bytes().to_vec(),
            Arg::U32(v) => v.to_le_bytes().to_vec(),
            Arg::F32(v) => v.to_le_bytes().to_vec(),
            Arg::TensorMap(b) => b.to_vec(),
        }
    }
}

/// Marks the thread of a load or store as an atomic's: atomics do not race one another.
const ATOMIC: usize = 1 << 20;

/// A launch's configuration.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory (after the static variables).
    pub dynamic_shared: usize,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("no kernel `{0}` in the module")]
    NoKernel(String),
    #[error("kernel `{kernel}`: {message}")]
    Launch { kernel: String, message: String },
    #[error("kernel `{kernel}`, PTX line {line} `{text}`, block {block:?} thread {thread:?}: {message}")]
    Fault { kernel: String, line: usize, text: String, block: [u32; 3], thread: [u32; 3], message: String },
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Warp instructions issued (one per warp step).
    pub warp_instructions: u64,
    /// Thread instructions executed (active lanes summed over steps).
    pub thread_instructions: u64,
}

/// At most this many warp steps per block before the run is reported as not finishing: a block of
/// attnc's forward kernel over 32K keys takes about 2·10⁶, so a budget of 2²⁴ stops a kernel that
/// loops forever within seconds and never one that ends.
const STEP_LIMIT: u64 = 1 << 24;

/// Runs `kernel` of `module` over the launch's grid, with `args` for its parameters in order.
pub fn run(
    module: &Module,
    kernel: &str,
    launch: &Launch,
    args: &[Arg],
    global: &mut Global,
) -> Result<Stats, SimError> {
    let k = module.kernel(kernel).ok_or_else(|| SimError::NoKernel(kernel.to_string()))?;
    let launch_error = |message: String| SimError::Launch { kernel: kernel.to_string(), message };
    if args.len() != k.params.len() {
        return Err(launch_error(format!("{} arguments for {} parameters", args.len(), k.params.len())));
    }
    let mut params = Vec::new();
    let mut param_at = Vec::new();
    for (p, a) in k.params.iter().zip(args) {
        let bytes = a.bytes();
        if bytes.len() != p.bytes {
            return Err(launch_error(format!("parameter `{}` is .{} ({} bytes), given {a:?}", p.name, p.ty, p.bytes)));
        }
        param_at.push((p.name.clone(), params.len()));
        params.extend(bytes);
    }
    let threads = launch.block.iter().product::<u32>() as usize;
    if threads == 0 || threads > 1024 {
        return Err(launch_error(format!("a block of {threads} threads")));
    }
    if let Some(max) = k.max_threads
        && threads > max.iter().product::<u32>() as usize
    {
        return Err(launch_error(format!("a block of {threads} threads, over .maxntid {max:?}")));
    }
    let shared_bytes = k.dynamic_shared_at.max(k.shared_bytes) + launch.dynamic_shared;
    let mut stats = Stats::default();
    for bz in 0..launch.grid[2] {
        for by in 0..launch.grid[1] {
            for bx in 0..launch.grid[0] {
                let mut block = Block {
                    kernel: k,
                    launch,
                    ctaid: [bx, by, bz],
                    params: &params,
                    param_at: &param_at,
                    shared: vec![0; shared_bytes],
                    shadow: race::Shadow::new(shared_bytes, threads),
                    inflight: vec![0; shared_bytes],
                    wgmma: tensor::Wgmmas::new(shared_bytes),
                    sync: sync::Sync::new(),
                    copies: (0..threads).map(|_| Copies::default()).collect(),
                    warps: (0..threads.div_ceil(32))
                        .map(|w| Warp::new(k.regs.len(), (threads - w * 32).min(32)))
                        .collect(),
                    stats: &mut stats,
                };
                block.run(global)?;
            }
        }
    }
    Ok(stats)
}

struct Warp {
    /// Live lanes at launch (the last warp of a block may be partial).
    lanes: usize,
    pc: [usize; 32],
    done: [bool; 32],
    /// Register `r` of lane `l` at `r * 32 + l`.
    regs: Vec<u64>,
    wait: Wait,
    /// Per register: in use by a `wgmma.mma_async` not yet waited for (`tensor::IN_D`, `IN_A`).
    pending: Vec<u8>,
    pending_any: bool,
    /// Whether the warp has executed a `wgmma.fence`, and per register whether an instruction
    /// other than `wgmma.mma_async` wrote it since its last one (`tensor::check_wgmma_fence`).
    fenced: bool,
    touched: Vec<bool>,
}

/// Where a warp waits for others of its block.
#[derive(Clone, Copy, PartialEq)]
enum Wait {
    No,
    /// At a barrier (`bar.sync` id), until its thread count has arrived.
    Named(usize),
    /// At an mbarrier wait, until the phase of this parity completes.
    Mbarrier {
        at: usize,
        parity: u64,
    },
    /// At the `wgmma.mma_async` of this instruction index, for its warpgroup.
    Wgmma(usize),
}

impl Warp {
    fn new(n_regs: usize, lanes: usize) -> Warp {
        let mut done = [true; 32];
        done[..lanes].fill(false);
        Warp {
            lanes,
            pc: [0; 32],
            done,
            regs: vec![0; n_regs * 32],
            wait: Wait::No,
            pending: vec![0; n_regs],
            pending_any: false,
            fenced: false,
            touched: vec![false; n_regs],
        }
    }

    fn finished(&self) -> bool {
        self.done[..self.lanes].iter().all(|&d| d)
    }
}

struct Block<'a> {
    kernel: &'a Kernel,
    launch: &'a Launch,
    ctaid: [u32; 3],
    params: &'a [u8],
    param_at: &'a [(String, usize)],
    shared: Vec<u8>,
    /// Per shared byte: who wrote and read it when (never-written reads, races, proxy fences).
    shadow: race::Shadow,
    /// Per shared byte: `cp.async` copies to it not yet waited for (reads of it are errors).
    inflight: Vec<u16>,
    /// Per thread: its `cp.async` copies, by group.
    copies: Vec<Copies>,
    /// `wgmma.mma_async` operations in flight.
    wgmma: tensor::Wgmmas,
    /// Barriers and mbarriers.
    sync: sync::Sync,
    warps: Vec<Warp>,
    stats: &'a mut Stats,
}

/// One `cp.async`: the shared destination and the bytes (read from global when issued).
struct Copy {
    dst: usize,
    data: Vec<u8>,
}

/// A thread's `cp.async` state ("cp.async.commit_group", "cp.async.wait_group"): the copies
/// since its last commit, and its committed groups, oldest first.
#[derive(Default)]
struct Copies {
    open: Vec<Copy>,
    groups: std::collections::VecDeque<Vec<Copy>>,
}

/// A failure inside one lane, before it is given its place.
type LaneResult<T> = Result<T, String>;

impl Block<'_> {
    fn thread_of(&self, w: usize, lane: usize) -> [u32; 3] {
        let t = (w * 32 + lane) as u32;
        let [x, y, _] = self.launch.block;
        [t % x, (t / x) % y, t / (x * y)]
    }

    fn fault(&self, inst: &Inst, w: usize, lane: usize, message: String) -> SimError {
        SimError::Fault {
            kernel: self.kernel.name.clone(),
            line: inst.line,
            text: inst.text.clone(),
            block: self.ctaid,
            thread: self.thread_of(w, lane),
            message,
        }
    }

    fn run(&mut self, global: &mut Global) -> Result<(), SimError> {
        let mut steps = 0u64;
        loop {
            for w in 0..self.warps.len() {
                while !self.warps[w].finished() && self.warps[w].wait == Wait::No {
                    self.step(w, global)?;
                    steps += 1;
                    if steps > STEP_LIMIT {
                        let inst = &self.kernel.body[self.warps[w].pc.iter().copied().min().unwrap_or(0)];
                        return Err(self.fault(inst, w, 0, format!("no end after {STEP_LIMIT} warp steps")));
                    }
                }
            }
            if self.warps.iter().all(Warp::finished) {
                return Ok(());
            }
            // A barrier completed by a later warp of this round released earlier ones: they run
            // first, until every warp has ended or waits.
            if self.warps.iter().any(|x| !x.finished() && x.wait == Wait::No) {
                continue;
            }
            // Then warps asleep at an mbarrier whose phase has completed.
            let mut woke = false;
            for w in 0..self.warps.len() {
                if let Wait::Mbarrier { at, parity } = self.warps[w].wait
                    && self.phase_done(at, parity)
                {
                    self.warps[w].wait = Wait::No;
                    woke = true;
                }
            }
            if woke {
                continue;
            }
            // Then the warpgroups whose four warps all stand at the same wgmma (an error names
            // the warps of a group that are elsewhere).
            if self.warps.iter().any(|x| matches!(x.wait, Wait::Wgmma(_))) {
                self.release_wgmmas()?;
                continue;
            }
            // Barriers complete as their last thread arrives: a warp still at one cannot go on.
            return Err(self.stuck());
        }
    }

    /// The block's threads.
    fn threads(&self) -> usize {
        self.launch.block.iter().product::<u32>() as usize
    }

    /// The counter a waiting warp resumes at.
    fn resume_pc(&self, w: usize) -> usize {
        let warp = &self.warps[w];
        warp.pc.iter().zip(&warp.done).find(|(_, d)| !**d).map_or(0, |(p, _)| *p)
    }

    /// One warp step: the instruction at the lowest counter, for the lanes there.
    fn step(&mut self, w: usize, global: &mut Global) -> Result<(), SimError> {
        let warp = &self.warps[w];
        let live = (0..warp.lanes).filter(|&l| !warp.done[l]);
        let pc = live.clone().map(|l| warp.pc[l]).min().expect("a live lane");
        let body = &self.kernel.body;
        if pc >= body.len() {
            let last = body.last().expect("a kernel with instructions");
            return Err(self.fault(last, w, 0, "ran past the last instruction without ret".to_string()));
        }
        let mask: Vec<usize> = live.filter(|&l| warp.pc[l] == pc).collect();
        let inst = &body[pc];
        self.stats.warp_instructions += 1;
        let run: Vec<usize> = match inst.guard {
            Some((p, negate)) => {
                mask.iter().copied().filter(|&l| (warp.regs[p as usize * 32 + l] != 0) != negate).collect()
            }
            None => mask.clone(),
        };
        self.stats.thread_instructions += run.len() as u64;
        let op = inst.op[0].as_str();
        let warp_wide = matches!(op, "bar" | "barrier") || inst.has("aligned");
        if warp_wide && !run.is_empty() {
            self.check_converged(w, inst, &mask, &run)?;
        }
        let warp = &mut self.warps[w];
        for &l in &mask {
            warp.pc[l] = pc + 1;
        }
        match op {
            "bra" => {
                let target = inst.target.expect("resolved when parsed");
                for &l in &run {
                    warp.pc[l] = target;
                }
            }
            "ret" | "exit" => {
                for &l in &run {
                    warp.done[l] = true;
                }
            }
            // `bar.warp.sync`: the warp's lanes, among themselves.
            "bar" | "barrier" if inst.has("warp") => {
                if !run.is_empty() {
                    self.shadow.barrier(&[w]);
                }
            }
            "bar" | "barrier" if !run.is_empty() => self.barrier_step(w, inst, &run)?,
            "mbarrier" if !run.is_empty() => self.mbarrier_step(w, inst, &run)?,
            "elect" if !run.is_empty() => self.elect(w, inst, &run)?,
            "setmaxnreg" if !run.is_empty() => self.setmaxnreg(w, inst, &run)?,
            "wgmma" if !run.is_empty() => self.wgmma_step(w, pc, inst)?,
            "fence" if !run.is_empty() => self.fence(w, inst, &run)?,
            "shfl" => self.shfl(w, inst, &run)?,
            "ldmatrix" if !run.is_empty() => self.ldmatrix(w, inst, &run, global)?,
            "mma" if !run.is_empty() => self.mma(w, inst, &run)?,
            _ => {
                for &l in &run {
                    self.exec(w, l, inst, global).map_err(|m| self.fault(inst, w, l, m))?;
                }
            }
        }
        Ok(())
    }

    /// Warp-collective instructions need every live lane of the warp (`.aligned`, `bar.sync`), and
    /// no lane skipped by its guard.
    fn check_converged(&self, w: usize, inst: &Inst, mask: &[usize], run: &[usize]) -> Result<(), SimError> {
        let warp = &self.warps[w];
        let live: Vec<usize> = (0..warp.lanes).filter(|&l| !warp.done[l]).collect();
        if mask.len() != live.len() || run.len() != mask.len() {
            let missing: Vec<usize> = live.iter().copied().filter(|l| !run.contains(l)).collect();
            return Err(self.fault(
                inst,
                w,
                run[0],
                format!("`{}` reached by part of the warp: lanes {missing:?} are elsewhere", inst.op.join(".")),
            ));
        }
        Ok(())
    }

    /// `shfl.sync.MODE.b32 d[|p], a, b, c, membermask` (PTX ISA, "shfl.sync").
    fn shfl(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        let mode = inst.op.get(2).map(String::as_str).unwrap_or("");
        let (dst, pred) = match &inst.args[0] {
            Operand::Vector(v) => (v[0].clone(), v.get(1).cloned()),
            d => (d.clone(), None),
        };
        if inst.args.len() != 5 {
            return Err(self.fault(inst, w, run[0], "shfl.sync takes d, a, b, c, membermask".to_string()));
        }
        let mut values = [0u64; 32];
        let mut results = Vec::new();
        for &l in run {
            values[l] = self.operand(w, l, &inst.args[1], Ty::B(32)).map_err(|m| self.fault(inst, w, l, m))?;
        }
        for &l in run {
            let get = |op: &Operand| self.operand(w, l, op, Ty::B(32)).map_err(|m| self.fault(inst, w, l, m));
            let (b, c, member) = (get(&inst.args[2])? as u32, get(&inst.args[3])? as u32, get(&inst.args[4])? as u32);
            let lane = l as u32;
            let (bval, cval, segmask) = (b & 31, c & 31, (c >> 8) & 31);
            let max_lane = (lane & segmask) | (cval & !segmask);
            let min_lane = lane & segmask;
            let (j, ok) = match mode {
                "up" => (lane.wrapping_sub(bval), (lane as i32 - bval as i32) >= max_lane as i32),
                "down" => (lane + bval, lane + bval <= max_lane),
                "bfly" => (lane ^ bval, (lane ^ bval) <= max_lane),
                "idx" => (min_lane | (bval & !segmask), (min_lane | (bval & !segmask)) <= max_lane),
                other => return Err(self.fault(inst, w, l, format!("shfl mode `{other}`"))),
            };
            let j = if ok { j } else { lane };
            if member & (1 << l) == 0 {
                return Err(self.fault(
                    inst,
                    w,
                    l,
                    format!("lane {l} executes shfl.sync outside its membermask {member:#x}"),
                ));
            }
            if member & (1 << j) == 0 || !run.contains(&(j as usize)) {
                return Err(self.fault(
                    inst,
                    w,
                    l,
                    format!("shfl.sync reads lane {j}, which is not in membermask {member:#x} or did not execute it"),
                ));
            }
            results.push((l, values[j as usize], ok));
        }
        for (l, v, ok) in results {
            self.set(w, l, &dst, v, Ty::B(32)).map_err(|m| self.fault(inst, w, l, m))?;
            if let Some(p) = &pred {
                self.set(w, l, p, ok as u64, Ty::Pred).map_err(|m| self.fault(inst, w, l, m))?;
            }
        }
        Ok(())
    }

    /// `cp.async.ca|cg.shared.global [dst], [src], cp-size{, src-size}`, `cp.async.commit_group`,
    /// `cp.async.wait_group N`, `cp.async.wait_all` ("cp.async"): a copy reads its source when
    /// issued (zero-filling past `src-size`) and lands in shared memory when its thread waits for
    /// its group; until then its destination may not be read.
    fn cp_async(&mut self, w: usize, l: usize, inst: &Inst, global: &mut Global) -> LaneResult<()> {
        if inst.op.get(2).map(String::as_str) == Some("bulk") {
            return self.bulk_copy(w, l, inst, global);
        }
        let t = w * 32 + l;
        match inst.op.get(2).map(String::as_str) {
            Some("commit_group") => {
                let open = std::mem::take(&mut self.copies[t].open);
                self.copies[t].groups.push_back(open);
                return Ok(());
            }
            Some("wait_group") | Some("wait_all") => {
                if inst.op[2] == "wait_all" {
                    let open = std::mem::take(&mut self.copies[t].open);
                    self.copies[t].groups.push_back(open);
                }
                let keep = match inst.args.first() {
                    Some(op) => self.operand(w, l, op, Ty::U(32))? as usize,
                    None => 0,
                };
                while self.copies[t].groups.len() > keep {
                    let group = self.copies[t].groups.pop_front().expect("longer than keep");
                    for c in group {
                        let n = c.data.len();
                        self.shared[c.dst..c.dst + n].copy_from_slice(&c.data);
                        self.shadow.write(t, c.dst, n)?;
                        for x in &mut self.inflight[c.dst..c.dst + n] {
                            *x -= 1;
                        }
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        if !(inst.has("shared") && inst.has("global")) {
            return Err(format!("`{}` is not an instruction this interpreter knows", inst.op.join(".")));
        }
        let arg = |i: usize| inst.args.get(i).ok_or_else(|| format!("operand {i} missing"));
        let dst = self.effective(w, l, arg(0)?)? as usize;
        let src = self.effective(w, l, arg(1)?)?;
        let size = self.operand(w, l, arg(2)?, Ty::U(32))? as usize;
        let src_size = match inst.args.get(3) {
            Some(op) if !matches!(op, Operand::Name(_)) => self.operand(w, l, op, Ty::U(32))? as usize,
            _ => size,
        };
        if !matches!(size, 4 | 8 | 16) || (inst.has("cg") && size != 16) || src_size > size {
            return Err(format!("cp.async of {size} bytes ({src_size} from the source)"));
        }
        if dst % size != 0 || src % size as u64 != 0 {
            return Err(format!("misaligned cp.async: {size} bytes from {src:#x} to shared {dst:#x}"));
        }
        if dst + size > self.shared.len() {
            return Err(format!(
                "out-of-bounds cp.async to shared {dst:#x} ({size} bytes; the block has {} bytes)",
                self.shared.len()
            ));
        }
        let mut data = vec![0u8; size];
        if src_size > 0 {
            let bytes = global
                .read(src, src_size)
                .ok_or_else(|| format!("out-of-bounds cp.async read of {src_size} bytes at {src:#x}"))?;
            data[..src_size].copy_from_slice(bytes);
        }
        // The copy may land any time until its wait: it must not race with this epoch's accesses.
        self.shadow.check_write(t, dst, size)?;
        self.check_wgmma_reads(dst, size)?;
        for x in &mut self.inflight[dst..dst + size] {
            *x += 1;
        }
        self.copies[t].open.push(Copy { dst, data });
        Ok(())
    }

    fn reg(&self, w: usize, lane: usize, r: u32) -> u64 {
        self.warps[w].regs[r as usize * 32 + lane]
    }

    fn special(&self, w: usize, lane: usize, name: &str) -> LaneResult<u64> {
        let t = self.thread_of(w, lane);
        let dim = |v: [u32; 3], s: &str| -> LaneResult<u64> {
            Ok(match s {
                "x" => v[0],
                "y" => v[1],
                "z" => v[2],
                other => return Err(format!("special register component `{other}`")),
            } as u64)
        };
        let (base, comp) = name.split_once('.').unwrap_or((name, ""));
        match base {
            "%tid" => dim(t, comp),
            "%ntid" => dim(self.launch.block, comp),
            "%ctaid" => dim(self.ctaid, comp),
            "%nctaid" => dim(self.launch.grid, comp),
            "%laneid" => Ok(lane as u64),
            "%warpid" => Ok(w as u64),
            "%nwarpid" => Ok(self.warps.len() as u64),
            "%warpsize" => Ok(32),
            other => Err(format!("special register `{other}`")),
        }
    }

    /// The value of an operand as bits of `ty`.
    fn operand(&self, w: usize, lane: usize, op: &Operand, ty: Ty) -> LaneResult<u64> {
        Ok(match op {
            Operand::Reg(r) => {
                let warp = &self.warps[w];
                if warp.pending_any && warp.pending[*r as usize] & tensor::IN_D != 0 {
                    return Err(format!(
                        "register {} is read while a wgmma.mma_async that writes it is in flight (before its wgmma.wait_group)",
                        self.kernel.regs[*r as usize]
                    ));
                }
                ty.mask(self.reg(w, lane, *r))
            }
            Operand::Special(name) => self.special(w, lane, name)?,
            Operand::Int(v) => match ty {
                Ty::F(32) => to_f32_bits(*v as f32),
                Ty::F(64) => (*v as f64).to_bits(),
                _ => ty.mask(*v as u64),
            },
            Operand::F32(bits) => match ty {
                Ty::F(64) => (f32::from_bits(*bits) as f64).to_bits(),
                _ => *bits as u64,
            },
            Operand::F64(bits) => match ty {
                Ty::F(32) => to_f32_bits(f64::from_bits(*bits) as f32),
                _ => *bits,
            },
            Operand::Name(n) => self.address_of(n)?,
            other => return Err(format!("operand {other:?} where a value is expected")),
        })
    }

    /// A variable's address: a shared variable's generic address, a parameter's offset.
    fn address_of(&self, name: &str) -> LaneResult<u64> {
        if let Some(v) = self.kernel.shared.iter().find(|v| v.name == name) {
            return Ok(v.offset as u64);
        }
        if let Some((_, at)) = self.param_at.iter().find(|(n, _)| n == name) {
            return Ok(*at as u64);
        }
        Err(format!("unknown variable `{name}`"))
    }

    fn set(&mut self, w: usize, lane: usize, dst: &Operand, value: u64, ty: Ty) -> LaneResult<()> {
        match dst {
            Operand::Reg(r) => {
                let warp = &mut self.warps[w];
                if warp.pending_any && warp.pending[*r as usize] != 0 {
                    return Err(format!(
                        "register {} is written while a wgmma.mma_async that uses it is in flight (before its wgmma.wait_group)",
                        self.kernel.regs[*r as usize]
                    ));
                }
                warp.regs[*r as usize * 32 + lane] = ty.mask(value);
                warp.touched[*r as usize] = true;
                Ok(())
            }
            Operand::Sink => Ok(()),
            other => Err(format!("cannot write to {other:?}")),
        }
    }

    /// The effective address of `[base + offset]`.
    fn effective(&self, w: usize, lane: usize, op: &Operand) -> LaneResult<u64> {
        match op {
            Operand::Addr(Base::Reg(r), off) => Ok(self.reg(w, lane, *r).wrapping_add(*off as u64)),
            Operand::Addr(Base::Name(n), off) => Ok(self.address_of(n)?.wrapping_add(*off as u64)),
            other => Err(format!("{other:?} is not an address")),
        }
    }

    /// Reads `len` bytes of a state space for thread `t` of the block.
    fn load(&mut self, t: usize, space: &str, addr: u64, len: usize, global: &Global) -> LaneResult<Vec<u8>> {
        match space {
            "param" => {
                let a = addr as usize;
                self.params.get(a..a + len).map(<[u8]>::to_vec).ok_or_else(|| {
                    format!(
                        "parameter read of {len} bytes at offset {a}, past the {} bytes of parameters",
                        self.params.len()
                    )
                })
            }
            "shared" => {
                let a = addr as usize;
                let Some(bytes) = self.shared.get(a..a + len) else {
                    return Err(format!(
                        "out-of-bounds shared read of {len} bytes at {a:#x} (the block has {} bytes)",
                        self.shared.len()
                    ));
                };
                if let Some(i) = self.inflight[a..a + len].iter().position(|&n| n > 0) {
                    return Err(format!(
                        "read of shared memory at {:#x} while a cp.async to it is in flight (before its cp.async.wait_group)",
                        a + i
                    ));
                }
                let bytes = bytes.to_vec();
                sync::plain_access(&self.sync, a, len)?;
                if t & ATOMIC == 0 {
                    self.shadow.read(t, a, len)?;
                }
                Ok(bytes)
            }
            "global" => global
                .read(addr, len)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| format!("out-of-bounds global read of {len} bytes at {addr:#x}")),
            "generic" if addr & SHARED_WINDOW == SHARED_WINDOW => {
                self.load(t, "shared", addr & !SHARED_WINDOW, len, global)
            }
            "generic" => self.load(t, "global", addr, len, global),
            other => Err(format!("loads from .{other}")),
        }
    }

    fn store(&mut self, t: usize, space: &str, addr: u64, data: &[u8], global: &mut Global) -> LaneResult<()> {
        match space {
            "shared" => {
                let a = addr as usize;
                let n = self.shared.len();
                let Some(dst) = self.shared.get_mut(a..a + data.len()) else {
                    return Err(format!(
                        "out-of-bounds shared write of {} bytes at {a:#x} (the block has {n} bytes)",
                        data.len()
                    ));
                };
                sync::plain_access(&self.sync, a, data.len())?;
                dst.copy_from_slice(data);
                self.check_wgmma_reads(a, data.len())?;
                if t & ATOMIC != 0 {
                    return self.shadow.atomic(t & !ATOMIC, a, data.len());
                }
                self.shadow.write(t, a, data.len())
            }
            "global" => global
                .write(addr, data)
                .ok_or_else(|| format!("out-of-bounds global write of {} bytes at {addr:#x}", data.len())),
            "generic" if addr & SHARED_WINDOW == SHARED_WINDOW => {
                self.store(t, "shared", addr & !SHARED_WINDOW, data, global)
            }
            "generic" => self.store(t, "global", addr, data, global),
            other => Err(format!("stores to .{other}")),
        }
    }

    /// The state space of a memory instruction (`ld.global.nc.f32`: global; `ld.f32`: generic).
    fn space(inst: &Inst) -> &'static str {
        for p in &inst.op[1..] {
            match p.as_str() {
                "param" => return "param",
                "global" => return "global",
                "shared" => return "shared",
                "local" => return "local",
                "const" => return "const",
                _ => {}
            }
        }
        "generic"
    }

    /// One lane's execution of a scalar instruction.
    fn exec(&mut self, w: usize, l: usize, inst: &Inst, global: &mut Global) -> LaneResult<()> {
        let op = inst.op[0].as_str();
        let last = inst.op.last().map(String::as_str).unwrap_or("");
        let ty = Ty::parse(last);
        let arg = |i: usize| inst.args.get(i).ok_or_else(|| format!("operand {i} missing"));
        match op {
            "ld" => {
                let ty = ty.ok_or_else(|| format!("type of `{}`", inst.op.join(".")))?;
                let space = Block::space(inst);
                let addr = self.effective(w, l, arg(1)?)?;
                let bytes = ty.bytes();
                let dsts: Vec<Operand> = match arg(0)? {
                    Operand::Vector(v) => v.clone(),
                    d => vec![d.clone()],
                };
                let data = self.load(w * 32 + l, space, addr, bytes * dsts.len(), global)?;
                for (i, d) in dsts.iter().enumerate() {
                    let v = read_le(&data[i * bytes..(i + 1) * bytes]);
                    self.set(w, l, d, ty.extend(v), ty.reg_ty())?;
                }
                Ok(())
            }
            "st" => {
                let ty = ty.ok_or_else(|| format!("type of `{}`", inst.op.join(".")))?;
                let space = Block::space(inst);
                let addr = self.effective(w, l, arg(0)?)?;
                let srcs: Vec<Operand> = match arg(1)? {
                    Operand::Vector(v) => v.clone(),
                    s => vec![s.clone()],
                };
                let mut data = Vec::with_capacity(ty.bytes() * srcs.len());
                for s in &srcs {
                    let v = self.operand(w, l, s, ty)?;
                    data.extend_from_slice(&v.to_le_bytes()[..ty.bytes()]);
                }
                self.store(w * 32 + l, space, addr, &data, global)
            }
            "mov" if inst.args.iter().any(|a| matches!(a, Operand::Vector(_))) => {
                // Packing halves into a wider register, or unpacking one ("mov": `mov.b32 d, {a, b}`).
                let ty = ty.ok_or_else(|| format!("type of `{}`", inst.op.join(".")))?;
                match (arg(0)?, arg(1)?) {
                    (d, Operand::Vector(parts)) => {
                        let width = ty.bits() / parts.len() as u32;
                        let mut v = 0u64;
                        for (i, p) in parts.iter().enumerate() {
                            v |= self.operand(w, l, p, Ty::B(width))? << (width * i as u32);
                        }
                        self.set(w, l, d, v, ty)
                    }
                    (Operand::Vector(parts), src) => {
                        let width = ty.bits() / parts.len() as u32;
                        let v = self.operand(w, l, src, ty)?;
                        for (i, p) in parts.iter().enumerate() {
                            self.set(w, l, p, v >> (width * i as u32), Ty::B(width))?;
                        }
                        Ok(())
                    }
                    _ => Err("mov with vectors on both sides".to_string()),
                }
            }
            "cp" => self.cp_async(w, l, inst, global),
            "atom" | "red" => {
                // `atom.SPACE.add.f32 d, [a], b` and `red.SPACE.add.f32 [a], b` ("atom", "red"):
                // blocks run one after another and lanes one at a time, so every update is whole.
                let ty = ty.ok_or_else(|| format!("type of `{}`", inst.op.join(".")))?;
                if !inst.has("add") {
                    return Err(format!("`{}`: only .add atomics are interpreted", inst.op.join(".")));
                }
                let space = Block::space(inst);
                let (addr_at, value_at) = if op == "atom" { (1, 2) } else { (0, 1) };
                let addr = self.effective(w, l, arg(addr_at)?)?;
                let add = self.operand(w, l, arg(value_at)?, ty)?;
                let t = (w * 32 + l) | ATOMIC;
                let old = read_le(&self.load(t, space, addr, ty.bytes(), global)?);
                let new = match ty {
                    Ty::F(32) => to_f32_bits(f32_of(old) + f32_of(add)),
                    Ty::F(64) => (f64::from_bits(old) + f64::from_bits(add)).to_bits(),
                    Ty::U(_) | Ty::S(_) | Ty::B(_) => ty.mask(old.wrapping_add(add)),
                    other => return Err(format!("atomic add of .{other:?}")),
                };
                self.store(t, space, addr, &new.to_le_bytes()[..ty.bytes()], global)?;
                if op == "atom" {
                    self.set(w, l, arg(0)?, old, ty)?;
                }
                Ok(())
            }
            "cvta" => {
                // `cvta.shared.u64 d, a` (shared → generic) and `cvta.to.shared`/`cvta.to.global`.
                let a = self.operand(w, l, arg(1)?, Ty::U(64))?;
                let v = match (inst.has("to"), inst.has("shared")) {
                    (false, true) => a | SHARED_WINDOW,
                    (true, true) => a & !SHARED_WINDOW,
                    _ => a,
                };
                self.set(w, l, arg(0)?, v, Ty::U(64))
            }
            _ => {
                let ty =
                    ty.ok_or_else(|| format!("`{}` is not an instruction this interpreter knows", inst.op.join(".")))?;
                let value = crate::value::compute(inst, ty, |i, t| {
                    let operand = inst.args.get(i).ok_or_else(|| format!("operand {i} missing"))?;
                    self.operand(w, l, operand, t)
                })?;
                match value {
                    crate::value::Out::One(v, t) => self.set(w, l, arg(0)?, v, t),
                    crate::value::Out::Pair(v, p) => {
                        let (d, q) = match arg(0)? {
                            Operand::Vector(v) => (v[0].clone(), v.get(1).cloned()),
                            d => (d.clone(), None),
                        };
                        self.set(w, l, &d, v, Ty::Pred)?;
                        if let Some(q) = q {
                            self.set(w, l, &q, p, Ty::Pred)?;
                        }
                        Ok(())
                    }
                }
            }
        }
    }
}
