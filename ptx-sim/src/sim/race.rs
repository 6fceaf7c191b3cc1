//! Shared-memory shadow state, like compute-sanitizer's racecheck and initcheck: for every byte,
//! which thread last wrote it and in which barrier epoch, and who read it in the current epoch.
//!
//! Rules (PTX ISA "Memory Consistency Model": accesses of different threads to one location, at
//! least one a write, are ordered only through a barrier here, since the kernels use no
//! shared-memory fences or atomics to communicate):
//! - a read of a byte no thread wrote is an error (initcheck);
//! - a read of a byte another thread wrote in the same epoch (since the last `bar.sync` the whole
//!   block passed) is a read-after-write race, a write after another thread's write or read in
//!   the same epoch a write-after-write or write-after-read race. Lanes of one warp count as
//!   different threads: since Volta a warp's lanes are not guaranteed to run in lockstep;
//! - bytes written through the generic proxy (`st.shared`, `cp.async`) must be published to the
//!   async proxy by their writer's `fence.proxy.async` before a `wgmma.mma_async` reads them
//!   (PTX ISA 9.7.15.4, "Async Proxy").

/// Thread id of a read by several threads, or by a warpgroup's `wgmma`.
const MANY: u16 = u16::MAX;

#[derive(Clone, Copy, Default)]
struct Byte {
    /// Epoch of the last write; 0: never written.
    write_epoch: u32,
    writer: u16,
    reader: u16,
    read_epoch: u32,
    /// The writer's count of `fence.proxy.async` at the write.
    fences: u32,
}

pub(super) struct Shadow {
    bytes: Vec<Byte>,
    /// The current epoch: barriers passed by the whole block, plus one.
    epoch: u32,
    /// Per thread: `fence.proxy.async` executed so far.
    fences: Vec<u32>,
}

impl Shadow {
    pub(super) fn new(bytes: usize, threads: usize) -> Shadow {
        Shadow { bytes: vec![Byte::default(); bytes], epoch: 1, fences: vec![0; threads] }
    }

    /// The whole block passed a `bar.sync`.
    pub(super) fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// Thread `t` executed `fence.proxy.async`: its earlier writes are visible to `wgmma`.
    pub(super) fn proxy_fence(&mut self, t: usize) {
        self.fences[t] += 1;
    }

    /// A read of `[at, at + len)` by thread `t`.
    pub(super) fn read(&mut self, t: usize, at: usize, len: usize) -> Result<(), String> {
        let epoch = self.epoch;
        for (i, b) in self.bytes[at..at + len].iter_mut().enumerate() {
            if b.write_epoch == 0 {
                return Err(format!("read of shared memory at {:#x} that no thread has written", at + i));
            }
            if b.write_epoch == epoch && b.writer as usize != t {
                return Err(format!(
                    "shared-memory race at {:#x}: thread {t} reads what thread {} wrote, with no bar.sync between",
                    at + i,
                    b.writer
                ));
            }
            b.reader = if b.read_epoch == epoch && b.reader as usize != t { MANY } else { t as u16 };
            b.read_epoch = epoch;
        }
        Ok(())
    }

    /// A read of `[at, at + len)` by a warpgroup's `wgmma`: written, not racing a write of this
    /// epoch, and published to the async proxy.
    pub(super) fn read_async(&mut self, at: usize, len: usize) -> Result<(), String> {
        let epoch = self.epoch;
        for (i, b) in self.bytes[at..at + len].iter_mut().enumerate() {
            if b.write_epoch == 0 {
                return Err(format!("wgmma reads shared memory at {:#x} that no thread has written", at + i));
            }
            let w = b.writer as usize;
            if b.write_epoch == epoch {
                // Even the warpgroup's own writes: its four warps are ordered only by a barrier.
                return Err(format!(
                    "shared-memory race at {:#x}: wgmma reads what thread {w} wrote, with no bar.sync between",
                    at + i
                ));
            }
            if self.fences[w] <= b.fences {
                return Err(format!(
                    "wgmma reads shared memory at {:#x} that thread {w} wrote through the generic proxy with no fence.proxy.async since (PTX ISA 9.7.15.4)",
                    at + i
                ));
            }
            b.reader = MANY;
            b.read_epoch = epoch;
        }
        Ok(())
    }

    /// The race checks of a write of `[at, at + len)` by thread `t`, without recording it.
    pub(super) fn check_write(&self, t: usize, at: usize, len: usize) -> Result<(), String> {
        for (i, b) in self.bytes[at..at + len].iter().enumerate() {
            if b.write_epoch == self.epoch && b.writer as usize != t {
                return Err(format!(
                    "shared-memory race at {:#x}: thread {t} writes what thread {} wrote, with no bar.sync between",
                    at + i,
                    b.writer
                ));
            }
            if b.read_epoch == self.epoch && b.reader as usize != t {
                let who = if b.reader == MANY { "other threads".to_string() } else { format!("thread {}", b.reader) };
                return Err(format!(
                    "shared-memory race at {:#x}: thread {t} writes what {who} read, with no bar.sync between",
                    at + i
                ));
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
        if let Some(i) = self.bytes[at..at + len].iter().position(|b| b.write_epoch == 0) {
            return Err(format!("atomic on shared memory at {:#x} that no thread has written", at + i));
        }
        self.record_write(t, at, len);
        Ok(())
    }

    fn record_write(&mut self, t: usize, at: usize, len: usize) {
        let (epoch, fences) = (self.epoch, self.fences[t]);
        for b in &mut self.bytes[at..at + len] {
            b.write_epoch = epoch;
            b.writer = t as u16;
            b.fences = fences;
        }
    }
}
