//! Generated host kernels behind the launch ABI ([`Kernels`]).
//!
//! [`Generated`] serves a launch as a GPU grid does: one kernel call per (sequence, query head),
//! the kernel body generated for the launch's spec (the kernel IR interpreter, the Cranelift JIT
//! or LLVM's host kernels: [`Backend`]s, `compiler::kernel::FwdArgs`). The grid stages the
//! sequence's rows of one head into contiguous, tile-padded buffers (what a CTA's loads into
//! shared memory do); the kernel keeps its softmax state in its scratch and writes O and LSE
//! into the launch's output planes itself, as the PTX kernels do. Work spreads over KV-head
//! groups on `threads` workers; staging buffers are kept from one call to the next (`Pool`).

use attnc_compiler::back::cranelift::Jit;
use attnc_compiler::kernel::{self, BwdArgs, FwdArgs, KernelSpec};

use crate::kernels::{BwdLaunch, BwdResult, FwdLaunch, FwdResult, Kernels};
use crate::pool::Pool;

/// Runs kernels of the ABI in `compiler::kernel`.
pub trait Backend: Sync {
    /// # Safety
    /// `args` must satisfy the forward ABI for `spec`.
    unsafe fn forward(&self, spec: &KernelSpec, args: &FwdArgs) -> Result<(), String>;
    /// # Safety
    /// `args` must satisfy the backward ABI for `spec`.
    unsafe fn backward(&self, spec: &KernelSpec, args: &BwdArgs) -> Result<(), String>;
}

/// The kernel IR interpreter (scalar, the oracle of generated code).
pub struct Interpreter;

impl Backend for Interpreter {
    unsafe fn forward(&self, spec: &KernelSpec, args: &FwdArgs) -> Result<(), String> {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::interp::forward(spec, args) };
        Ok(())
    }

    unsafe fn backward(&self, spec: &KernelSpec, args: &BwdArgs) -> Result<(), String> {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::interp::backward(spec, args) };
        Ok(())
    }
}

/// Denormal results flushed to zero and denormal inputs read as zero (x86-64 MXCSR FTZ and DAZ)
/// while a generated kernel runs on this thread, then the caller's mode again. As the GPU
/// kernels' `.ftz`: probabilities of far keys under a distance bias (`score = s - (q - k) / 16`)
/// fall below 2⁻¹²⁶, and denormal arithmetic made such a backward 2.6× slower
/// (docs/perf.md); values that small are below every tolerance.
struct FlushDenormals {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

impl FlushDenormals {
    /// MXCSR's flush-to-zero (bit 15) and denormals-are-zero (bit 6).
    #[cfg(target_arch = "x86_64")]
    const BITS: u32 = (1 << 15) | (1 << 6);

    fn on() -> FlushDenormals {
        #[cfg(target_arch = "x86_64")]
        {
            let mut saved = 0u32;
            // SAFETY: stmxcsr/ldmxcsr read and write this thread's SSE control register only;
            // every x86-64 CPU has them (SSE2 is baseline), and the mode is restored on drop.
            unsafe {
                std::arch::asm!("stmxcsr [{}]", in(reg) &mut saved, options(nostack, preserves_flags));
                let on = saved | Self::BITS;
                std::arch::asm!("ldmxcsr [{}]", in(reg) &on, options(nostack, preserves_flags));
            }
            FlushDenormals { saved }
        }
        #[cfg(not(target_arch = "x86_64"))]
        FlushDenormals {}
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: restores the value read in `on`.
        unsafe {
            std::arch::asm!("ldmxcsr [{}]", in(reg) &self.saved, options(nostack, preserves_flags));
        }
    }
}

/// A JIT of host kernels (Cranelift, LLVM): the compiled kernel of a spec, on first use.
trait Jitted: Sync {
    fn compiled(&self, spec: &KernelSpec) -> Result<attnc_compiler::back::Compiled, String>;
}

impl<J: Jitted> Backend for J {
    unsafe fn forward(&self, spec: &KernelSpec, args: &FwdArgs) -> Result<(), String> {
        let k = self.compiled(spec)?;
        let _ftz = FlushDenormals::on();
        // SAFETY: forwarded from the caller; `k` is a forward kernel of `spec`.
        unsafe { k.forward(args) };
        Ok(())
    }

    unsafe fn backward(&self, spec: &KernelSpec, args: &BwdArgs) -> Result<(), String> {
        let k = self.compiled(spec)?;
        let _ftz = FlushDenormals::on();
        // SAFETY: as above.
        unsafe { k.backward(args) };
        Ok(())
    }
}

/// Kernels compiled by Cranelift on first use, cached by spec.
#[derive(Default)]
pub struct Cranelift {
    pub jit: Jit,
}

impl Jitted for Cranelift {
    fn compiled(&self, spec: &KernelSpec) -> Result<attnc_compiler::back::Compiled, String> {
        self.jit.get(spec).map_err(|e| e.to_string())
    }
}

/// Host kernels compiled by LLVM (x86-64, AVX2 + FMA) on first use, cached by spec.
#[cfg(feature = "llvm")]
#[derive(Default)]
pub struct LlvmCpu {
    pub jit: attnc_compiler::back::llvm::HostJit,
}

#[cfg(feature = "llvm")]
impl LlvmCpu {
    /// The 256-bit kernels on every CPU (see `HostJit::avx2_only`).
    pub fn avx2_only() -> LlvmCpu {
        LlvmCpu { jit: attnc_compiler::back::llvm::HostJit::avx2_only() }
    }
}

#[cfg(feature = "llvm")]
impl Jitted for LlvmCpu {
    fn compiled(&self, spec: &KernelSpec) -> Result<attnc_compiler::back::Compiled, String> {
        self.jit.get(spec).map_err(|e| e.to_string())
    }
}

/// The launch ABI over a generated-kernel backend: the host's grid.
pub struct Generated<B> {
    pub backend: B,
    /// Threads per launch, across KV-head groups (1: the calling thread only).
    pub threads: usize,
    pool: Pool,
    /// The worker threads of `threads > 1`, started once and kept for every call.
    workers: Option<rayon::ThreadPool>,
}

impl<B> Generated<B> {
    pub fn new(backend: B, threads: usize) -> Generated<B> {
        // A pool that cannot start (no threads left) leaves the calls on the calling thread.
        let workers =
            (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten();
        Generated { backend, threads, pool: Pool::default(), workers }
    }
}

/// An output buffer several threads write, each to its own heads.
#[derive(Clone, Copy)]
struct Out(*mut f32);

// SAFETY: threads write through `Out` only at elements of the heads they own (see `for_groups`).
unsafe impl Send for Out {}
unsafe impl Sync for Out {}

impl Out {
    /// The element `i` floats in (a method, so closures capture the whole `Out`, which is `Sync`).
    fn at(self, i: usize) -> *mut f32 {
        self.0.wrapping_add(i)
    }
}

/// Copies `width` floats of head `head` (of `heads`) of rows `rows` of a `[rows][heads][width]`
/// plane into `dst`, contiguous.
fn gather(src: &[f32], heads: usize, width: usize, head: usize, rows: std::ops::Range<usize>, dst: &mut [f32]) {
    for (i, r) in rows.enumerate() {
        let at = (r * heads + head) * width;
        dst[i * width..(i + 1) * width].copy_from_slice(&src[at..at + width]);
    }
}

impl<B: Backend> Generated<B> {
    /// Runs `work(kh)` for every KV head, on the pool's `threads` workers (a panic in one is
    /// re-raised here, for the executor to report with its rank and op). Work items touch
    /// disjoint heads: query heads `kh·group..(kh+1)·group` and KV head `kh`.
    fn for_groups(&self, kv_heads: usize, work: impl Fn(usize) -> Result<(), String> + Sync) -> Result<(), String> {
        use rayon::prelude::*;
        match &self.workers {
            Some(pool) if kv_heads > 1 => pool.install(|| (0..kv_heads).into_par_iter().try_for_each(&work)),
            _ => (0..kv_heads).try_for_each(work),
        }
    }
}

/// The launch's heads agree with its spec's GQA group.
fn check_group(spec: &KernelSpec, l: &FwdLaunch<'_>) -> Result<usize, String> {
    let group = spec.group as usize;
    match l.heads_kv > 0 && l.heads_q == l.heads_kv * group {
        true => Ok(group),
        false => Err(format!(
            "a launch of {} query and {} KV heads does not fit kernel {} (GQA group {group})",
            l.heads_q,
            l.heads_kv,
            spec.name()
        )),
    }
}

impl<B: Backend> Kernels for Generated<B> {
    fn forward(&self, spec: &KernelSpec, l: &FwdLaunch<'_>, out: &mut FwdResult) -> Result<(), String> {
        // Query and key rows are `d` wide; values, outputs and the state's accumulators `dv`.
        let (d, dv, hq, hk) = (l.head_dim, l.v_head_dim, l.heads_q, l.heads_kv);
        let group = check_group(spec, l)?;
        let tq = spec.tile_q as usize;
        let longest = l.max_seqlen_q().div_ceil(tq) * tq;
        out.reset(l);
        let (o_out, lse_out) = (Out(out.o.as_mut_ptr()), Out(out.lse.as_mut_ptr()));
        self.for_groups(hk, |kh| {
            let mut scratch = self.pool.take(spec.scratch_floats());
            let mut qc = self.pool.take(longest * d);
            let mut kc = self.pool.take(l.max_seqlen_kv() * (d + dv));
            for s in 0..l.sequences() {
                let (qs, ks, q_pos, kv_pos) = l.sequence(s);
                if qs.is_empty() || ks.is_empty() {
                    continue;
                }
                // This KV head's rows, k and v interleaved and contiguous: rows of one head sit a
                // whole row of heads apart in the planes, a stride that maps every row to the
                // same cache sets.
                for (i, r) in ks.clone().enumerate() {
                    let row = &mut kc[i * (d + dv)..(i + 1) * (d + dv)];
                    row[..d].copy_from_slice(&l.k[(r * hk + kh) * d..][..d]);
                    row[d..].copy_from_slice(&l.v[(r * hk + kh) * dv..][..dv]);
                }
                let n_pad = qs.len().div_ceil(tq) * tq;
                for h in kh * group..(kh + 1) * group {
                    qc[..n_pad * d].fill(0.0);
                    gather(&l.q, hq, d, h, qs.clone(), &mut qc);
                    let args = FwdArgs {
                        q: qc.as_ptr(),
                        k: kc.as_ptr(),
                        // Rows of query head h (of group kh) in the output planes: this work
                        // item alone writes them.
                        o: o_out.at((qs.start * hq + h) * dv),
                        scratch: scratch.as_mut_ptr(),
                        kv_stride: (d + dv) as i64,
                        n_q: qs.len() as i64,
                        n_kv: ks.len() as i64,
                        q_pos,
                        kv_pos,
                        scale: l.scale,
                        head_values: l.heads_of(spec, h).as_ptr(),
                        lse: lse_out.at(qs.start * hq + h),
                        o_stride: (hq * dv) as i64,
                        lse_stride: hq as i64,
                    };
                    // SAFETY: qc holds the rows rounded up to the tile, scratch the spec's
                    // floats, kc the sequence's KV rows of k and v; the output planes hold
                    // `qs` rows of every head.
                    unsafe { self.backend.forward(spec, &args)? };
                }
            }
            for buffer in [scratch, qc, kc] {
                self.pool.give(buffer);
            }
            Ok(())
        })
    }

    fn backward(&self, spec: &KernelSpec, b: &BwdLaunch<'_>, out: &mut BwdResult) -> Result<(), String> {
        let l = &b.fwd;
        let (d, dv, hq, hk) = (l.head_dim, l.v_head_dim, l.heads_q, l.heads_kv);
        let group = check_group(spec, l)?;
        let (tq, tk) = (l.tokens_q(), l.tokens_kv());
        // The kernels' query rows: q (d), o (dv, unread: D is given), do (dv) and lse, per row
        // and head; their KV rows k (d) and v (dv); their dK and dV rows likewise interleaved.
        let qw = d + 2 * dv + 1;
        let mut bundle = self.pool.take(tq * hq * qw);
        for (i, row) in bundle.chunks_mut(qw).enumerate() {
            row[..d].copy_from_slice(&l.q[i * d..(i + 1) * d]);
            row[d..d + dv].fill(0.0);
            row[d + dv..d + 2 * dv].copy_from_slice(&b.d_out[i * dv..(i + 1) * dv]);
            row[d + 2 * dv] = b.lse[i];
        }
        let mut kv = self.pool.take(tk * hk * (d + dv));
        for (i, row) in kv.chunks_mut(d + dv).enumerate() {
            row[..d].copy_from_slice(&l.k[i * d..(i + 1) * d]);
            row[d..].copy_from_slice(&l.v[i * dv..(i + 1) * dv]);
        }
        out.reset(spec, l);
        let n = spec.score.map_or(0, |s| s.params.len());
        let mut dkv = self.pool.zeros(tk * hk * (d + dv));
        let (dq_out, dkv_out) = (Out(out.dq.as_mut_ptr()), Out(dkv.as_mut_ptr()));
        let dpar_out = Out(out.dparams.as_mut_ptr());
        let result = self.for_groups(hk, |kh| {
            let mut delta = vec![0.0f32; l.max_seqlen_q()];
            for s in 0..l.sequences() {
                let (qs, ks, q_pos, kv_pos) = l.sequence(s);
                if qs.is_empty() || ks.is_empty() {
                    continue;
                }
                for h in kh * group..(kh + 1) * group {
                    for (di, r) in delta.iter_mut().zip(qs.clone()) {
                        *di = b.delta[r * hq + h];
                    }
                    let args = BwdArgs {
                        q: bundle[(qs.start * hq + h) * qw..].as_ptr(),
                        k: kv[(ks.start * hk + kh) * (d + dv)..].as_ptr(),
                        // Rows inside the buffers; this work item alone writes query head h (of
                        // group kh) and KV head kh.
                        dq: dq_out.at((qs.start * hq + h) * d),
                        dkv: dkv_out.at((ks.start * hk + kh) * (d + dv)),
                        delta: delta.as_ptr(),
                        q_stride: (hq * qw) as i64,
                        kv_stride: (hk * (d + dv)) as i64,
                        dq_stride: (hq * d) as i64,
                        dkv_stride: (hk * (d + dv)) as i64,
                        n_q: qs.len() as i64,
                        n_kv: ks.len() as i64,
                        q_pos,
                        kv_pos,
                        scale: l.scale,
                        head_values: l.heads_of(spec, h).as_ptr(),
                        // Query head h's gradients: this work item alone writes them.
                        dparams: if n > 0 { dpar_out.at(h * n) } else { std::ptr::null_mut() },
                    };
                    // SAFETY: every pointer starts the sequence's rows in its buffer, which holds
                    // them at the strides given.
                    unsafe { self.backend.backward(spec, &args)? };
                }
            }
            Ok(())
        });
        for ((row, dk), dvr) in dkv.chunks(d + dv).zip(out.dk.chunks_mut(d)).zip(out.dv.chunks_mut(dv)) {
            dk.copy_from_slice(&row[..d]);
            dvr.copy_from_slice(&row[d..]);
        }
        for buffer in [bundle, kv, dkv] {
            self.pool.give(buffer);
        }
        result
    }
}
