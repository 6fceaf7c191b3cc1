//! Shared-memory shadow state, like compute-sanitizer's racecheck and initcheck, with
//! happens-before tracked by vector clocks per warp: every warp counts its own epochs, and knows
//! how far every other warp had got when it last synchronised with it — through a barrier
//! (`bar.sync`, a named barrier with its participants) or an mbarrier (an arrive releases what the
//! warp did, a wait that sees the phase complete acquires every arrival's). The asynchronous copy
//! engine (`ASYNC`) has one component per mbarrier object: a bulk copy is seen by a warp only
//! through a wait on the mbarrier it completes (or from a warp that did), not through another
//! barrier's copies issued later — the copies of one thread land in any order.
//!
//! Rules (PTX ISA "Memory Consistency Model": accesses of different threads to one location, at
//! least one a write, must be ordered by synchronisation):
//! - a read of a byte no thread wrote is an error (initcheck);
//! - an access that conflicts with an earlier one not ordered before it is a race: a read after
//!   another thread's write, a write after another thread's write or read. Lanes of one warp count
//!   as different threads (since Volta a warp's lanes are not guaranteed to run in lockstep), so
//!   two lanes are ordered only once their warp has passed a synchronisation since;
//! - bytes written through the generic proxy (`st.shared`, `cp.async`) must be published to the
//!   async proxy by their writer's `fence.proxy.async` before a `wgmma.mma_async` reads them
//!   (PTX ISA 9.7.15.4, "Async Proxy"); bytes the async proxy wrote (`cp.async.bulk`) need none.

/// The writer id of bytes written by the asynchronous copy engine (`cp.async.bulk`).
pub(super) const ASYNC: u16 = u16::MAX - 1;
/// The lane of a read by several lanes of one warp at one clock.
const MANY: u8 = u8::MAX;

#[derive(Clone, Copy, Default)]
struct Byte {
    written: bool,
    /// The writing thread (`ASYNC`: a bulk copy).
    writer: u16,
    /// The writer warp's own clock at the write (the copy engine's tick, for `ASYNC`).
    clock: u32,
    /// For `ASYNC`: the clock component of the mbarrier the copy completes.
    via: u16,
    /// The writer's count of `fence.proxy.async` at the write (`u32::MAX` for the async proxy).
    fences: u32,
}

/// A vector clock: one component per warp, then the copy engine's per mbarrier object (in the
/// order of their `mbarrier.init`); absent components are 0.
pub(super) type Clock = Vec<u32>;

/// The least clock above both.
pub(super) fn join(into: &mut Clock, other: &Clock) {
    if into.len() < other.len() {
        into.resize(other.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(other) {
        *a = (*a).max(*b);
    }
}

pub(super) struct Shadow {
    warps: usize,
    /// Per warp its clock; own components start at 1 (0: nothing seen).
    clocks: Vec<Clock>,
    bytes: Vec<Byte>,
    /// Per byte and warp: the warp's clock at its last read since the byte's last write (0: none)
    /// and the lane that read (`MANY`: several).
    reads: Vec<u32>,
    read_lanes: Vec<u8>,
    /// Per thread: `fence.proxy.async` executed so far.
    fences: Vec<u32>,
    /// The copy engine's clock: one tick per bulk copy.
    async_clock: u32,
}

impl Shadow {
    pub(super) fn new(bytes: usize, threads: usize) -> Shadow {
        let warps = threads.div_ceil(32);
        let clocks = (0..warps)
            .map(|w| {
                let mut c = vec![0; warps];
                c[w] = 1;
                c
            })
            .collect();
        Shadow {
            warps,
            clocks,
            bytes: vec![Byte::default(); bytes],
            reads: vec![0; bytes * warps],
            read_lanes: vec![0; bytes * warps],
            fences: vec![0; threads],
            async_clock: 0,
        }
    }

    /// Warp `w`'s clock (what it has seen of every warp).
    pub(super) fn clock(&self, w: usize) -> &Clock {
        &self.clocks[w]
    }

    /// A barrier that `warps` passed together: each sees what all did before it, then starts a
    /// new epoch of its own.
    pub(super) fn barrier(&mut self, warps: &[usize]) {
        let mut all = vec![0; self.warps];
        for &w in warps {
            join(&mut all, &self.clocks[w]);
        }
        for &w in warps {
            self.clocks[w].clone_from(&all);
            self.clocks[w][w] += 1;
        }
    }

    /// Warp `w` releases what it did so far (an mbarrier arrive): returns the clock it releases,
    /// and starts a new epoch.
    pub(super) fn release(&mut self, w: usize) -> Clock {
        let released = self.clocks[w].clone();
        self.clocks[w][w] += 1;
        released
    }

    /// Warp `w` acquires `clock` (an mbarrier wait that saw the phase complete), and starts a new
    /// epoch (its lanes are ordered by the wait too).
    pub(super) fn acquire(&mut self, w: usize, clock: &Clock) {
        join(&mut self.clocks[w], clock);
        self.clocks[w][w] += 1;
    }

    /// Thread `t` executed `fence.proxy.async`: its earlier writes are visible to `wgmma`.
    pub(super) fn proxy_fence(&mut self, t: usize) {
        self.fences[t] += 1;
    }

    /// Whether an access by thread `t` at `clock` (its warp's own component) of warp `w` and lane
    /// `lane` is ordered before what thread `u` (of warp `u / 32`) does now.
    fn ordered(&self, (w, lane, clock): (usize, u8, u32), u: usize) -> bool {
        let (v, lu) = (u / 32, (u % 32) as u8);
        if w == v { (lane == lu && lane != MANY) || self.clocks[v][v] > clock } else { self.clocks[v][w] >= clock }
    }

    /// Whether byte `b`'s write is ordered before what thread `u` does now.
    fn write_ordered(&self, b: &Byte, u: usize) -> bool {
        if b.writer == ASYNC {
            return self.clocks[u / 32].get(b.via as usize).copied().unwrap_or(0) >= b.clock;
        }
        let t = b.writer as usize;
        self.ordered((t / 32, (t % 32) as u8, b.clock), u)
    }

    fn who(writer: u16) -> String {
        match writer {
            ASYNC => "a cp.async.bulk".to_string(),
            t => format!("thread {t}"),
        }
    }

    /// A read of `[at, at + len)` by thread `t`.
    pub(super) fn read(&mut self, t: usize, at: usize, len: usize) -> Result<(), String> {
        let (w, lane) = (t / 32, (t % 32) as u8);
        // Neighbouring bytes mostly come from one write: its order is decided once.
        let mut known = None;
        for i in at..at + len {
            let b = self.bytes[i];
            if !b.written {
                return Err(format!("read of shared memory at {i:#x} that no thread has written"));
            }
            if known != Some((b.writer, b.clock)) && !self.write_ordered(&b, t) {
                return Err(format!(
                    "shared-memory race at {i:#x}: thread {t} reads what {} wrote, with no barrier between (bar.sync, or an mbarrier the writer arrived at and this thread waited on)",
                    Shadow::who(b.writer)
                ));
            }
            known = Some((b.writer, b.clock));
            self.record_read(i, w, lane);
        }
        Ok(())
    }

    /// A read of `[at, at + len)` by the warpgroup of warps `group`'s `wgmma`: written, ordered
    /// before every warp of the group (the group's own writes too: its four warps are ordered only
    /// by synchronisation), and published to the async proxy.
    pub(super) fn read_async(&mut self, group: std::ops::Range<usize>, at: usize, len: usize) -> Result<(), String> {
        for i in at..at + len {
            let b = self.bytes[i];
            if !b.written {
                return Err(format!("wgmma reads shared memory at {i:#x} that no thread has written"));
            }
            for w in group.clone() {
                let own = b.writer != ASYNC && b.writer as usize / 32 == w;
                let ordered = if own { self.clocks[w][w] > b.clock } else { self.write_ordered(&b, w * 32) };
                if !ordered {
                    return Err(format!(
                        "shared-memory race at {i:#x}: wgmma reads what {} wrote, with no barrier between",
                        Shadow::who(b.writer)
                    ));
                }
            }
            self.published(&b, i, "wgmma")?;
            for w in group.clone() {
                self.record_read(i, w, MANY);
            }
        }
        Ok(())
    }

    /// A read of `[at, at + len)` by a bulk store thread `t` issued (the async proxy): written,
    /// ordered before `t`, and published to the async proxy by each writer's
    /// `fence.proxy.async` (bytes the async proxy wrote need none).
    pub(super) fn read_by_async(&mut self, t: usize, at: usize, len: usize) -> Result<(), String> {
        for i in at..at + len {
            let b = self.bytes[i];
            if !b.written {
                return Err(format!("a cp.async.bulk store reads shared memory at {i:#x} that no thread has written"));
            }
            if !self.write_ordered(&b, t) {
                return Err(format!(
                    "shared-memory race at {i:#x}: a cp.async.bulk store issued by thread {t} reads what {} wrote, with no barrier between",
                    Shadow::who(b.writer)
                ));
            }
            self.published(&b, i, "a cp.async.bulk store")?;
            self.record_read(i, t / 32, MANY);
        }
        Ok(())
    }

    /// Byte `i`'s write is visible to the async proxy, which `reader` reads it through: written
    /// by the async proxy, or by a thread that executed `fence.proxy.async` since.
    fn published(&self, b: &Byte, i: usize, reader: &str) -> Result<(), String> {
        if b.writer != ASYNC && self.fences[b.writer as usize] <= b.fences {
            return Err(format!(
                "{reader} reads shared memory at {i:#x} that thread {} wrote through the generic proxy with no fence.proxy.async since (PTX ISA 9.7.15.4)",
                b.writer
            ));
        }
        Ok(())
    }

    /// Warp `w` read byte `i` now, by lane `lane` (`MANY`: by several, or on their behalf).
    fn record_read(&mut self, i: usize, w: usize, lane: u8) {
        let (slot, now) = (i * self.warps + w, self.clocks[w][w]);
        self.read_lanes[slot] =
            if lane != MANY && self.reads[slot] == now && self.read_lanes[slot] != lane { MANY } else { lane };
        self.reads[slot] = now;
    }

    /// The race checks of a write of `[at, at + len)` by thread `t`, without recording it.
    pub(super) fn check_write(&self, t: usize, at: usize, len: usize) -> Result<(), String> {
        let mut known = None;
        for i in at..at + len {
            let b = self.bytes[i];
            if b.written && known != Some((b.writer, b.clock)) && !self.write_ordered(&b, t) {
                return Err(format!(
                    "shared-memory race at {i:#x}: thread {t} writes what {} wrote, with no barrier between",
                    Shadow::who(b.writer)
                ));
            }
            known = Some((b.writer, b.clock));
            for r in 0..self.warps {
                let slot = i * self.warps + r;
                let clock = self.reads[slot];
                if clock != 0 && !self.ordered((r, self.read_lanes[slot], clock), t) {
                    let who = match self.read_lanes[slot] {
                        MANY => format!("lanes of warp {r}"),
                        lane => format!("thread {}", r * 32 + lane as usize),
                    };
                    return Err(format!(
                        "shared-memory race at {i:#x}: thread {t} writes what {who} read, with no barrier between"
                    ));
                }
            }
        }
        Ok(())
    }

    /// A write of `[at, at + len)` by thread `t`.
    pub(super) fn write(&mut self, t: usize, at: usize, len: usize) -> Result<(), String> {
        self.check_write(t, at, len)?;
        self.record_write(t, at, len);
        Ok(())
    }

    /// An atomic update by thread `t`: it must read written bytes; atomics do not race each other.
    pub(super) fn atomic(&mut self, t: usize, at: usize, len: usize) -> Result<(), String> {
        if let Some(i) = (at..at + len).find(|&i| !self.bytes[i].written) {
            return Err(format!("atomic on shared memory at {i:#x} that no thread has written"));
        }
        self.record_write(t, at, len);
        Ok(())
    }

    fn record_write(&mut self, t: usize, at: usize, len: usize) {
        let w = t / 32;
        self.record(
            at,
            len,
            Byte { written: true, writer: t as u16, clock: self.clocks[w][w], via: 0, fences: self.fences[t] },
        );
    }

    /// `byte`'s write of `[at, at + len)`: reads before it are ordered before it (checked).
    fn record(&mut self, at: usize, len: usize, byte: Byte) {
        self.bytes[at..at + len].fill(byte);
        self.reads[at * self.warps..(at + len) * self.warps].fill(0);
    }

    /// A bulk copy issued by thread `t` lands `[at, at + len)`: ordered after what `t`'s warp had
    /// seen when it issued the copy (its reads and writes must be), and written by the copy
    /// engine's new tick in component `via` (the mbarrier it completes), which a wait on that
    /// mbarrier acquires. Returns the tick.
    pub(super) fn bulk_write(&mut self, t: usize, at: usize, len: usize, via: usize) -> Result<u32, String> {
        for i in at..at + len {
            let b = self.bytes[i];
            if b.written && !self.write_ordered(&b, t) {
                return Err(format!(
                    "shared-memory race at {i:#x}: a cp.async.bulk overwrites what {} wrote, before the issuing thread {t} could know it was consumed",
                    Shadow::who(b.writer)
                ));
            }
            for r in 0..self.warps {
                let slot = i * self.warps + r;
                let clock = self.reads[slot];
                if clock != 0 && r != t / 32 && self.clocks[t / 32][r] < clock {
                    return Err(format!(
                        "shared-memory race at {i:#x}: a cp.async.bulk issued by thread {t} overwrites what warp {r} still reads (the stage was not released to the producer: no mbarrier arrive after the read that the producer waited on)"
                    ));
                }
            }
        }
        self.async_clock += 1;
        let byte = Byte { written: true, writer: ASYNC, clock: self.async_clock, via: via as u16, fences: u32::MAX };
        self.record(at, len, byte);
        Ok(self.async_clock)
    }

    /// The number of warps (the copy engine's component follows theirs in a clock).
    pub(super) fn warps(&self) -> usize {
        self.warps
    }
}
