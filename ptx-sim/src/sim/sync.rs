//! Synchronisation between warps of a block: barriers (`bar.sync`/`barrier.sync` with an id and a
//! thread count, `bar.arrive`), mbarrier objects in shared memory (PTX ISA 9.7.13.15: init,
//! arrive, arrive with `expect_tx`, `expect_tx`, `complete_tx`, `try_wait`/`test_wait` by phase
//! parity or by state), bulk copies that complete an mbarrier's transactions
//! (`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`), and `elect.sync`.
//!
//! A barrier completes when its thread count has arrived, and orders everything its participants
//! did before it (`race::Shadow::barrier`). An mbarrier's phase completes when its pending
//! arrivals reach zero with no transaction bytes outstanding: the phase then carries every
//! arrival's clock and every bulk copy it counted, and a wait that sees it complete acquires them
//! (the default `.release` and `.acquire` semantics; `.relaxed` arrivals and waits order nothing).
//! A wait whose phase has not completed blocks its warp (the kernel's own retry loop then sees it
//! complete); when no warp can go on, the block is reported deadlocked with every warp's
//! position and what it waits for.

use std::collections::HashMap;

use super::race::{Clock, join};
use super::{Block, Global, LaneResult, SimError, Wait};
use crate::parse::{Inst, Operand};
use crate::value::Ty;

/// One mbarrier object.
pub(super) struct MBarrier {
    expected: u32,
    pending: u32,
    /// Transaction bytes expected and not yet delivered.
    tx: i64,
    /// Phases completed so far; the current phase is `phase`.
    phase: u64,
    /// The clocks released into the current phase (arrivals, bulk copies).
    released: Clock,
    /// The clocks of the last completed phase of each parity.
    completed: [Clock; 2],
    /// The warp that initialised it and its clock then.
    init: (usize, u32),
    /// Its bulk copies' component of the clocks (`race::Clock`).
    via: usize,
}

/// A barrier id's arrivals so far.
#[derive(Default, Clone)]
pub(super) struct Named {
    /// Warps arrived (and whether each waits).
    arrived: Vec<(usize, bool)>,
    /// The thread count the arrivals named.
    count: usize,
}

pub(super) struct Sync {
    pub(super) mbarriers: HashMap<usize, MBarrier>,
    pub(super) named: Vec<Named>,
    /// Per warp: the counts of the `setmaxnreg`s it executed, in order.
    maxnreg: HashMap<usize, Vec<u32>>,
    /// Per thread: its bulk stores' shared source ranges since its last commit, and its committed
    /// bulk groups, oldest first (`cp.async.bulk.commit_group`, `wait_group`).
    bulk_open: HashMap<usize, Vec<(usize, usize)>>,
    bulk_groups: HashMap<usize, std::collections::VecDeque<Vec<(usize, usize)>>>,
    /// mbarrier objects initialised so far (each takes the next clock component).
    inits: usize,
}

impl Sync {
    pub(super) fn new() -> Sync {
        Sync {
            mbarriers: HashMap::new(),
            named: vec![Named::default(); 16],
            maxnreg: HashMap::new(),
            bulk_open: HashMap::new(),
            bulk_groups: HashMap::new(),
            inits: 0,
        }
    }

    /// The first byte of `[at, at + len)` an in-flight bulk store (one not waited for, committed or
    /// not) still reads.
    pub(super) fn bulk_reading(&self, at: usize, len: usize) -> Option<usize> {
        let open = self.bulk_open.values().flatten();
        let committed = self.bulk_groups.values().flatten().flatten();
        open.chain(committed).filter(|&&(s, n)| s < at + len && at < s + n).map(|&(s, _)| s.max(at)).min()
    }

    /// Registers per thread warp `w` holds: its last `setmaxnreg`, else the kernel's `.maxnreg`.
    fn regs_held(&self, w: usize, maxnreg: Option<u32>) -> Option<u32> {
        self.maxnreg.get(&w).and_then(|h| h.last().copied()).or(maxnreg)
    }

    /// Whether `[at, at + len)` overlaps an mbarrier object (which plain loads and stores may not
    /// touch).
    pub(super) fn object_at(&self, at: usize, len: usize) -> Option<usize> {
        self.mbarriers.keys().copied().find(|&m| m < at + len && at < m + 8)
    }
}

impl Block<'_> {
    /// `bar.sync a{, b}`, `barrier.sync{.aligned} a{, b}`, `bar.arrive a, b`, `barrier.arrive a, b`:
    /// warp `w` arrives at barrier `a` (0..15) of `b` threads (a multiple of 32; all the block's
    /// by default), and waits unless it only arrives.
    pub(super) fn barrier_step(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        let lane = run[0];
        let fail = |b: &Block<'_>, m: String| b.fault(inst, w, lane, m);
        let threads = self.threads();
        let id = match inst.args.first() {
            Some(op) => self.operand(w, lane, op, Ty::U(32)).map_err(|m| fail(self, m))? as usize,
            None => 0,
        };
        let count = match inst.args.get(1) {
            Some(op) => self.operand(w, lane, op, Ty::U(32)).map_err(|m| fail(self, m))? as usize,
            None => threads,
        };
        let waits = !(inst.has("arrive"));
        if id >= 16 {
            return Err(fail(self, format!("barrier {id}: ids are 0..15")));
        }
        if count == 0 || count % 32 != 0 && count != threads || count > threads {
            return Err(fail(
                self,
                format!("barrier {id} of {count} threads: a multiple of 32 up to the block's {threads}"),
            ));
        }
        if inst.has("red") {
            return Err(fail(self, format!("`{}` is not interpreted", inst.op.join("."))));
        }
        let named = &mut self.sync.named[id];
        if !named.arrived.is_empty() && named.count != count {
            let was = named.count;
            return Err(fail(
                self,
                format!("barrier {id} named with {count} threads here and {was} by a warp already there"),
            ));
        }
        if named.arrived.iter().any(|a| a.0 == w) {
            return Err(fail(self, format!("warp {w} arrives at barrier {id} twice before it completes")));
        }
        named.count = count;
        named.arrived.push((w, waits));
        if waits {
            self.warps[w].wait = Wait::Named(id);
        }
        let arrived: usize = named.arrived.iter().map(|a| self.warps[a.0].lanes).sum();
        if arrived >= count {
            let done = std::mem::take(&mut named.arrived);
            let warps: Vec<usize> = done.iter().map(|a| a.0).collect();
            self.shadow.barrier(&warps);
            for (x, waited) in done {
                if waited {
                    self.warps[x].wait = Wait::No;
                }
            }
        }
        Ok(())
    }

    /// The shared offset an address operand names (a shared offset, or a generic address in the
    /// shared window).
    fn shared_address(&self, w: usize, lane: usize, op: &Operand) -> LaneResult<usize> {
        Ok(self.effective(w, lane, op)? as usize & !(super::SHARED_WINDOW as usize))
    }

    /// The mbarrier at `[addr]` (operand `i`), initialised and visible to warp `w`.
    fn mbarrier_at(&self, w: usize, lane: usize, inst: &Inst, i: usize) -> LaneResult<usize> {
        let op = inst.args.get(i).ok_or_else(|| format!("operand {i} missing"))?;
        let at = self.shared_address(w, lane, op)?;
        let m = self.sync.mbarriers.get(&at).ok_or_else(|| format!("no mbarrier initialised at shared {at:#x}"))?;
        let (by, clock) = m.init;
        if by != w && self.shadow.clock(w)[by] < clock {
            return Err(format!(
                "the mbarrier at shared {at:#x} is used before its initialisation by warp {by} is visible here (a bar.sync after mbarrier.init, with fence.mbarrier_init for other CTAs)"
            ));
        }
        Ok(at)
    }

    /// Completes the mbarrier's current phase when nothing is pending.
    fn settle(&mut self, at: usize) {
        let warps = self.shadow.warps();
        let m = self.sync.mbarriers.get_mut(&at).expect("checked by the caller");
        if m.pending == 0 && m.tx == 0 {
            let parity = (m.phase % 2) as usize;
            m.completed[parity] = std::mem::replace(&mut m.released, vec![0; warps]);
            m.phase += 1;
            m.pending = m.expected;
        }
    }

    /// Whether the phase of `parity` has completed (the current phase's parity differs).
    pub(super) fn phase_done(&self, at: usize, parity: u64) -> bool {
        self.sync.mbarriers.get(&at).is_some_and(|m| m.phase % 2 != parity % 2)
    }

    /// One warp step of an `mbarrier` instruction for lanes `run`.
    pub(super) fn mbarrier_step(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        let kind = inst.op.get(1).map(String::as_str).unwrap_or("");
        let fail = |b: &Block<'_>, l: usize, m: String| b.fault(inst, w, l, m);
        let lane = run[0];
        match kind {
            "init" => {
                for &l in run {
                    let op = inst.args.first().ok_or_else(|| fail(self, l, "operand 0 missing".into()))?;
                    let at = self.shared_address(w, l, op).map_err(|m| fail(self, l, m))?;
                    let count = match inst.args.get(1) {
                        Some(op) => self.operand(w, l, op, Ty::U(32)).map_err(|m| fail(self, l, m))? as u32,
                        None => return Err(fail(self, l, "mbarrier.init needs a count".into())),
                    };
                    if at % 8 != 0 || at + 8 > self.shared.len() {
                        return Err(fail(
                            self,
                            l,
                            format!(
                                "mbarrier at shared {at:#x}: 8-byte aligned, inside the block's {} bytes",
                                self.shared.len()
                            ),
                        ));
                    }
                    if count == 0 || count >= 1 << 20 {
                        return Err(fail(self, l, format!("mbarrier.init with count {count}: 1 ..= 2^20 - 1")));
                    }
                    let warps = self.shadow.warps();
                    let clock = self.shadow.clock(w)[w];
                    let m = MBarrier {
                        expected: count,
                        pending: count,
                        tx: 0,
                        phase: 0,
                        released: vec![0; warps],
                        completed: [vec![0; warps], vec![0; warps]],
                        init: (w, clock),
                        via: warps + self.sync.inits,
                    };
                    self.sync.inits += 1;
                    self.sync.mbarriers.insert(at, m);
                }
                Ok(())
            }
            "arrive" | "arrive_drop" | "expect_tx" | "complete_tx" => {
                let expect = kind == "expect_tx" || inst.has("expect_tx");
                let arrives = kind != "expect_tx" && kind != "complete_tx";
                // `state, [addr]{, count | tx}` when it returns a state; `[addr], tx` otherwise.
                let (addr_i, dst) = match inst.args.first() {
                    Some(Operand::Addr(..)) => (0, None),
                    d => (1, d.cloned()),
                };
                let mut arrivals = Vec::new();
                for &l in run {
                    let at = self.mbarrier_at(w, l, inst, addr_i).map_err(|m| fail(self, l, m))?;
                    let extra = match inst.args.get(addr_i + 1) {
                        Some(op) => Some(self.operand(w, l, op, Ty::U(32)).map_err(|m| fail(self, l, m))?),
                        None => None,
                    };
                    let m = self.sync.mbarriers.get_mut(&at).expect("found above");
                    let state = m.phase;
                    if expect {
                        m.tx += extra.unwrap_or(0) as i64;
                    }
                    if kind == "complete_tx" {
                        m.tx -= extra.unwrap_or(0) as i64;
                        if m.tx < 0 {
                            let over = -m.tx;
                            return Err(fail(
                                self,
                                l,
                                format!(
                                    "mbarrier at shared {at:#x}: more transaction bytes completed than expected ({over} over)"
                                ),
                            ));
                        }
                    }
                    if arrives {
                        let by = if expect { 1 } else { extra.unwrap_or(1) as u32 };
                        if by > m.pending {
                            let (pending, phase) = (m.pending, m.phase);
                            return Err(fail(
                                self,
                                l,
                                format!(
                                    "mbarrier at shared {at:#x}: {by} arrivals where {pending} are pending in phase {phase}"
                                ),
                            ));
                        }
                        m.pending -= by;
                        if kind == "arrive_drop" {
                            m.expected -= by;
                        }
                    }
                    if let Some(d) = &dst {
                        self.set(w, l, d, state, Ty::B(64)).map_err(|m| fail(self, l, m))?;
                    }
                    arrivals.push(at);
                }
                // The warp releases what it did to each mbarrier it arrived at, once per step
                // (`.relaxed` releases nothing: it orders no memory).
                if arrives && !inst.has("relaxed") {
                    let released = self.shadow.release(w);
                    arrivals.dedup();
                    for at in &arrivals {
                        join(&mut self.sync.mbarriers.get_mut(at).expect("found above").released, &released);
                    }
                }
                for at in arrivals {
                    self.settle(at);
                }
                Ok(())
            }
            "try_wait" | "test_wait" => {
                let dst = inst.args.first().cloned().ok_or_else(|| fail(self, lane, "operand 0 missing".into()))?;
                let mut wait = None;
                for &l in run {
                    let at = self.mbarrier_at(w, l, inst, 1).map_err(|m| fail(self, l, m))?;
                    let op = inst.args.get(2).ok_or_else(|| fail(self, l, "operand 2 missing".into()))?;
                    let v = self.operand(w, l, op, Ty::B(64)).map_err(|m| fail(self, l, m))?;
                    // By parity, or by the state an arrive returned (its phase, whose parity it is).
                    let parity = v % 2;
                    if !inst.has("parity") && self.sync.mbarriers[&at].phase > v + 1 {
                        return Err(fail(
                            self,
                            l,
                            format!(
                                "mbarrier at shared {at:#x}: waits on phase {v}, two or more phases behind ({})",
                                self.sync.mbarriers[&at].phase
                            ),
                        ));
                    }
                    let done = self.phase_done(at, parity);
                    self.set(w, l, &dst, done as u64, Ty::Pred).map_err(|m| fail(self, l, m))?;
                    if done && !inst.has("relaxed") {
                        let clock = self.sync.mbarriers[&at].completed[parity as usize].clone();
                        self.shadow.acquire(w, &clock);
                    } else if !done {
                        wait = Some((at, parity));
                    }
                }
                if let Some((at, parity)) = wait {
                    // The warp sleeps until the phase completes; its retry loop then sees it.
                    self.warps[w].wait = Wait::Mbarrier { at, parity };
                }
                Ok(())
            }
            "inval" => {
                for &l in run {
                    let at = self.mbarrier_at(w, l, inst, 0).map_err(|m| fail(self, l, m))?;
                    self.sync.mbarriers.remove(&at);
                }
                Ok(())
            }
            other => Err(fail(self, lane, format!("`mbarrier.{other}` is not interpreted"))),
        }
    }

    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size,
    /// [mbar]`: `size` bytes (a multiple of 16, both addresses 16-byte aligned) land in shared
    /// memory, written by the copy engine, and complete `size` transaction bytes of the mbarrier,
    /// whose phase then carries the copy.
    pub(super) fn bulk_copy(&mut self, w: usize, l: usize, inst: &Inst, global: &mut Global) -> LaneResult<()> {
        let t = w * 32 + l;
        match inst.op.get(3).map(String::as_str) {
            Some("commit_group") => {
                let open = self.sync.bulk_open.remove(&t).unwrap_or_default();
                self.sync.bulk_groups.entry(t).or_default().push_back(open);
                return Ok(());
            }
            Some("wait_group") => {
                let keep = match inst.args.first() {
                    Some(op) => self.operand(w, l, op, Ty::U(32))? as usize,
                    None => 0,
                };
                let groups = self.sync.bulk_groups.entry(t).or_default();
                while groups.len() > keep {
                    groups.pop_front();
                }
                return Ok(());
            }
            _ => {}
        }
        // Shared to global: `.global` named before `.shared`.
        let global_at = inst.op.iter().position(|p| p == "global");
        let shared_at = inst.op.iter().position(|p| p.starts_with("shared"));
        if let (Some(g), Some(s)) = (global_at, shared_at)
            && g < s
        {
            return self.bulk_store(w, l, inst, global);
        }
        if !(inst.has("global")
            && inst.op.iter().any(|p| p.starts_with("shared"))
            && inst.op.iter().any(|p| p.starts_with("mbarrier")))
        {
            return Err(format!("`{}` is not interpreted (global to shared with an mbarrier is)", inst.op.join(".")));
        }
        let arg = |i: usize| inst.args.get(i).ok_or_else(|| format!("operand {i} missing"));
        let dst = self.shared_address(w, l, arg(0)?)?;
        let (data, at) = if inst.has("tensor") {
            (self.tensor_box(w, l, inst, dst, global)?, self.mbarrier_at(w, l, inst, 2)?)
        } else {
            let src = self.effective(w, l, arg(1)?)?;
            let size = self.operand(w, l, arg(2)?, Ty::U(32))? as usize;
            if size == 0 || size % 16 != 0 || dst % 16 != 0 || src % 16 != 0 {
                return Err(format!(
                    "cp.async.bulk of {size} bytes from {src:#x} to shared {dst:#x}: sizes and addresses are multiples of 16"
                ));
            }
            let data = global
                .read(src, size)
                .ok_or_else(|| format!("out-of-bounds cp.async.bulk read of {size} bytes at {src:#x}"))?;
            (data.to_vec(), self.mbarrier_at(w, l, inst, 3)?)
        };
        let size = data.len();
        if dst + size > self.shared.len() {
            return Err(format!(
                "out-of-bounds cp.async.bulk to shared {dst:#x} ({size} bytes; the block has {} bytes)",
                self.shared.len()
            ));
        }
        if self.sync.object_at(dst, size).is_some() {
            return Err(format!("cp.async.bulk to shared {dst:#x} overwrites an mbarrier object"));
        }
        self.check_wgmma_reads(dst, size)?;
        let via = self.sync.mbarriers.get(&at).expect("found above").via;
        let tick = self.shadow.bulk_write(w * 32 + l, dst, size, via)?;
        self.shared[dst..dst + size].copy_from_slice(&data);
        let m = self.sync.mbarriers.get_mut(&at).expect("found above");
        m.tx -= size as i64;
        if m.tx < 0 {
            return Err(format!(
                "mbarrier at shared {at:#x}: a cp.async.bulk completes {size} bytes, {} more than expected (mbarrier.arrive.expect_tx)",
                -m.tx
            ));
        }
        if m.released.len() <= via {
            m.released.resize(via + 1, 0);
        }
        m.released[via] = m.released[via].max(tick);
        self.settle(at);
        Ok(())
    }

    /// `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size` and
    /// `cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group [tensorMap, {c0, …}], [src]`:
    /// shared bytes read by the async proxy — written, ordered before the issuing thread, and
    /// published by their writers' `fence.proxy.async` — land in global memory (the box's elements
    /// inside the tensor, for a tensor store). The source may not be written again until the
    /// thread's `cp.async.bulk.wait_group.read` for its group.
    fn bulk_store(&mut self, w: usize, l: usize, inst: &Inst, global: &mut Global) -> LaneResult<()> {
        let t = w * 32 + l;
        let arg = |i: usize| inst.args.get(i).ok_or_else(|| format!("operand {i} missing"));
        let src = self.shared_address(w, l, arg(1)?)?;
        let (map, coords, size) = if inst.has("tensor") {
            let (map, coords) = self.tensor_operand(w, l, inst, 0, global)?;
            let size = map.box_bytes();
            (Some(map), coords, size)
        } else {
            let size = self.operand(w, l, arg(2)?, Ty::U(32))? as usize;
            (None, Vec::new(), size)
        };
        if size == 0 || size % 16 != 0 || src % 16 != 0 || src + size > self.shared.len() {
            return Err(format!(
                "cp.async.bulk store of {size} bytes from shared {src:#x}: 16-byte multiples inside the block's {} bytes",
                self.shared.len()
            ));
        }
        self.shadow.read_by_async(t, src, size)?;
        let data = self.shared[src..src + size].to_vec();
        match map {
            Some(map) => map.store_box(&coords, &data, |at, bytes| global.write(at, bytes))?,
            None => {
                let dst = self.effective(w, l, arg(0)?)?;
                global
                    .write(dst, &data)
                    .ok_or_else(|| format!("out-of-bounds cp.async.bulk store of {size} bytes at {dst:#x}"))?;
            }
        }
        self.sync.bulk_open.entry(t).or_default().push((src, size));
        Ok(())
    }

    /// A tensor map operand `[map, {coords}]` (operand `i`) and its coordinates.
    fn tensor_operand(
        &self,
        w: usize,
        l: usize,
        inst: &Inst,
        i: usize,
        global: &Global,
    ) -> LaneResult<(crate::tensor_map::TensorMap, Vec<i64>)> {
        if inst.has("im2col") || inst.op.iter().any(|p| p.starts_with("multicast")) {
            return Err(format!("`{}` is not interpreted (tile mode is)", inst.op.join(".")));
        }
        let rank = inst
            .op
            .iter()
            .find_map(|p| p.strip_suffix('d').and_then(|n| n.parse::<usize>().ok()))
            .ok_or_else(|| format!("`{}` names no dimension count (.1d ..= .5d)", inst.op.join(".")))?;
        let Some(Operand::Tensor(base, coords)) = inst.args.get(i) else {
            return Err("cp.async.bulk.tensor takes [tensorMap, {coordinates}]".to_string());
        };
        let bytes = match base {
            crate::parse::Base::Name(n) => {
                let at = self.address_of(n)? as usize;
                self.params
                    .get(at..at + 128)
                    .ok_or_else(|| format!("`{n}` is not a 128-byte tensor map parameter"))?
                    .to_vec()
            }
            crate::parse::Base::Reg(r) => {
                let at = self.reg(w, l, *r);
                match self.params.get(at as usize..(at as usize).saturating_add(128)) {
                    Some(p) if at < self.params.len() as u64 => p.to_vec(),
                    _ => global.read(at, 128).ok_or_else(|| format!("no tensor map at {at:#x}"))?.to_vec(),
                }
            }
        };
        let map = crate::tensor_map::TensorMap::decode(&bytes)?;
        if coords.len() != rank || map.dims.len() != rank {
            return Err(format!(
                "a .{rank}d copy with {} coordinates of a tensor map of {} dimensions",
                coords.len(),
                map.dims.len()
            ));
        }
        let c = coords
            .iter()
            .map(|op| Ok(self.operand(w, l, op, Ty::S(32))? as u32 as i32 as i64))
            .collect::<LaneResult<_>>()?;
        Ok((map, c))
    }

    /// `cp.async.bulk.tensor.Nd{.tile}...` `[dst], [tensorMap, {c0, …}], [mbar]`: the box at the
    /// coordinates, as it lands in shared memory (`TensorMap::load_box`). The tensor map is a
    /// parameter (by name, or a register holding its parameter offset) or in global memory.
    fn tensor_box(&self, w: usize, l: usize, inst: &Inst, dst: usize, global: &Global) -> LaneResult<Vec<u8>> {
        let (map, c) = self.tensor_operand(w, l, inst, 1, global)?;
        let align = map.swizzle.bytes().map_or(128, |s| 8 * s);
        if dst % align != 0 {
            return Err(format!("cp.async.bulk.tensor to shared {dst:#x}: {align}-byte aligned under this swizzle"));
        }
        map.load_box(&c, |at, n| global.read(at, n).map(<[u8]>::to_vec))
    }

    /// `elect.sync d|p, membermask`: the lowest lane of the mask among `run` is the leader; every
    /// lane gets its id and the leader `p = 1`.
    pub(super) fn elect(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        let (dst, pred) = match inst.args.first() {
            Some(Operand::Vector(v)) => (v[0].clone(), v.get(1).cloned()),
            Some(d) => (d.clone(), None),
            None => return Err(self.fault(inst, w, run[0], "elect.sync takes d|p, membermask".into())),
        };
        let member = match inst.args.get(1) {
            Some(op) => self.operand(w, run[0], op, Ty::B(32)).map_err(|m| self.fault(inst, w, run[0], m))? as u32,
            None => return Err(self.fault(inst, w, run[0], "elect.sync takes d|p, membermask".into())),
        };
        let leader = run.iter().copied().find(|&l| member & (1 << l) != 0);
        for &l in run {
            if member & (1 << l) == 0 {
                return Err(self.fault(
                    inst,
                    w,
                    l,
                    format!("lane {l} executes elect.sync outside its membermask {member:#x}"),
                ));
            }
            let id = leader.unwrap_or(0) as u64;
            self.set(w, l, &dst, id, Ty::B(32)).map_err(|m| self.fault(inst, w, l, m))?;
            if let Some(p) = &pred {
                self.set(w, l, p, (Some(l) == leader) as u64, Ty::Pred).map_err(|m| self.fault(inst, w, l, m))?;
            }
        }
        Ok(())
    }

    /// `setmaxnreg.{inc,dec}.sync.aligned.u32 N` (PTX ISA "setmaxnreg"): the warp's registers per
    /// thread become N (24 ..= 256, a multiple of 8), up for `.inc` and down for `.dec` from what
    /// it holds (`.maxnreg`, or an earlier `setmaxnreg`); the four warps of a warpgroup execute
    /// the same one; and the block's warps never hold more than the SM's 64K registers.
    pub(super) fn setmaxnreg(&mut self, w: usize, inst: &Inst, run: &[usize]) -> Result<(), SimError> {
        let lane = run[0];
        let fail = |b: &Block<'_>, m: String| b.fault(inst, w, lane, m);
        let n = match inst.args.first() {
            Some(Operand::Int(v)) => *v as u32,
            _ => return Err(fail(self, "setmaxnreg takes an immediate register count".into())),
        };
        if !(24..=256).contains(&n) || n % 8 != 0 {
            return Err(fail(self, format!("setmaxnreg {n}: a multiple of 8 in 24 ..= 256")));
        }
        let inc = inst.has("inc");
        if !inc && !inst.has("dec") {
            return Err(fail(self, "setmaxnreg needs .inc or .dec".into()));
        }
        if let Some(held) = self.sync.regs_held(w, self.kernel.max_regs)
            && (inc && n < held || !inc && n > held)
        {
            let verb = if inc { "raise" } else { "lower" };
            return Err(fail(
                self,
                format!(
                    "setmaxnreg.{} {n} would not {verb} the {held} registers warp {w} holds",
                    if inc { "inc" } else { "dec" }
                ),
            ));
        }
        // The k-th setmaxnreg of every warp of the warpgroup names the same count.
        let k = self.sync.maxnreg.get(&w).map_or(0, Vec::len);
        let peers = (w / 4 * 4..w / 4 * 4 + 4).filter(|&x| x != w);
        if let Some((x, other)) = peers
            .filter_map(|x| self.sync.maxnreg.get(&x).and_then(|h| h.get(k)).map(|&o| (x, o)))
            .find(|&(_, o)| o != n)
        {
            return Err(fail(self, format!("warp {w} sets {n} registers where warp {x} of its warpgroup set {other}")));
        }
        self.sync.maxnreg.entry(w).or_default().push(n);
        let held: Option<usize> =
            (0..self.warps.len()).map(|x| self.sync.regs_held(x, self.kernel.max_regs).map(|r| r as usize * 32)).sum();
        if let Some(total) = held
            && total > 65536
        {
            return Err(fail(self, format!("the block's warps would hold {total} registers, over the SM's 65536")));
        }
        Ok(())
    }

    /// No warp can go on: the block is deadlocked (or a barrier was left by a warp that ended).
    pub(super) fn stuck(&self) -> SimError {
        let threads = self.threads();
        let ended: Vec<usize> = (0..self.warps.len()).filter(|&w| self.warps[w].finished()).collect();
        let at = |w: usize| &self.kernel.body[self.resume_pc(w).saturating_sub(1)];
        for (w, x) in self.warps.iter().enumerate() {
            if let (Wait::Named(id), Some(&e)) = (x.wait, ended.first())
                && self.sync.named[id].count == threads
            {
                let which = if id == 0 { "bar.sync".to_string() } else { format!("barrier {id}") };
                return self.fault(
                    at(w),
                    w,
                    0,
                    format!("{which} reached by part of the block: warp {e} ended without reaching it"),
                );
            }
        }
        let positions: Vec<String> = self
            .warps
            .iter()
            .enumerate()
            .map(|(w, x)| {
                let line = at(w).line;
                match x.wait {
                    _ if x.finished() => format!("warp {w} has ended"),
                    Wait::Named(id) => {
                        let n = &self.sync.named[id];
                        let arrived: usize = n.arrived.iter().map(|a| self.warps[a.0].lanes).sum();
                        format!("warp {w} waits at barrier {id} (PTX line {line}): {arrived} of {} threads arrived", n.count)
                    }
                    Wait::Mbarrier { at, parity } => {
                        let m = &self.sync.mbarriers[&at];
                        format!(
                            "warp {w} waits for phase parity {parity} of the mbarrier at shared {at:#x} (PTX line {line}): phase {} has {} of {} arrivals pending and {} transaction bytes outstanding",
                            m.phase, m.pending, m.expected, m.tx
                        )
                    }
                    _ => format!("warp {w} at PTX line {line}"),
                }
            })
            .collect();
        let w = (0..self.warps.len()).find(|&w| !self.warps[w].finished()).unwrap_or(0);
        self.fault(at(w), w, 0, format!("deadlock: no warp can go on; {}", positions.join("; ")))
    }
}

/// A plain load or store of `[at, at + len)`: not of an mbarrier object.
pub(super) fn plain_access(sync: &Sync, at: usize, len: usize) -> LaneResult<()> {
    match sync.object_at(at, len) {
        Some(m) => Err(format!(
            "plain access to shared {at:#x} touches the mbarrier object at {m:#x} (only mbarrier instructions may)"
        )),
        None => Ok(()),
    }
}
