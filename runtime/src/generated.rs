//! Generated kernels behind the runtime's [`Kernels`] interface.
//!
//! A block's rows are split into runs (consecutive rows of consecutive tokens of one sequence,
//! padding excluded); each query run meets each KV run of its sequence through one kernel call
//! per head, with a mask spec chosen per run pair (no masking when the pair is fully allowed, no
//! call when it is fully hidden). The adapter gathers each query run into a contiguous buffer
//! padded to the query tile and owns the softmax state, so kernels never allocate. The kernel
//! IR interpreter, the Cranelift JIT and LLVM's host kernels are [`Backend`]s of the same adapter.
//! The staging buffers are kept from one call to the next (`Pool`).

use attnc_compiler::back::cranelift::Jit;
use attnc_compiler::kernel::{self, BwdArgs, FwdArgs, KernelKind, KernelMask, KernelSpec, TILE_KV, TILE_Q};
use attnc_compiler::spec::{Dtype, Score};

use attnc_compiler::kernel::launch::{RowRun, pair_mask, runs};

use crate::kernels::{Block, Kernels, Shape};
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

/// Kernels compiled by Cranelift on first use, cached by spec.
#[derive(Default)]
pub struct Cranelift {
    pub jit: Jit,
}

impl Backend for Cranelift {
    unsafe fn forward(&self, spec: &KernelSpec, args: &FwdArgs) -> Result<(), String> {
        let k = self.jit.get(spec).map_err(|e| e.to_string())?;
        let _ftz = FlushDenormals::on();
        // SAFETY: forwarded from the caller; `k` is a forward kernel of `spec`.
        unsafe { k.forward(args) };
        Ok(())
    }

    unsafe fn backward(&self, spec: &KernelSpec, args: &BwdArgs) -> Result<(), String> {
        let k = self.jit.get(spec).map_err(|e| e.to_string())?;
        let _ftz = FlushDenormals::on();
        // SAFETY: as above.
        unsafe { k.backward(args) };
        Ok(())
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
impl Backend for LlvmCpu {
    unsafe fn forward(&self, spec: &KernelSpec, args: &FwdArgs) -> Result<(), String> {
        let k = self.jit.get(spec).map_err(|e| e.to_string())?;
        let _ftz = FlushDenormals::on();
        // SAFETY: forwarded from the caller; `k` is a forward kernel of `spec`.
        unsafe { k.forward(args) };
        Ok(())
    }

    unsafe fn backward(&self, spec: &KernelSpec, args: &BwdArgs) -> Result<(), String> {
        let k = self.jit.get(spec).map_err(|e| e.to_string())?;
        let _ftz = FlushDenormals::on();
        // SAFETY: as above.
        unsafe { k.backward(args) };
        Ok(())
    }
}

/// Copies `width` elements of head `head` of each row of `run` into `dst`, contiguous.
fn gather(src: &[f32], shape: Shape, b: usize, run: &RowRun, head: usize, width: usize, dst: &mut [f32]) {
    for i in 0..run.len {
        let at = shape.at(b, run.row + i, head);
        dst[i * width..(i + 1) * width].copy_from_slice(&src[at..at + width]);
    }
}

/// The runtime's kernel interface over a generated-kernel backend.
pub struct Tiled<B> {
    pub backend: B,
    pub dtype: Dtype,
    /// Threads per kernel call, across batch × KV-head groups (1: the calling thread only).
    pub threads: usize,
    pool: Pool,
    /// The worker threads of `threads > 1`, started once and kept for every call.
    workers: Option<rayon::ThreadPool>,
}

impl<B> Tiled<B> {
    pub fn new(backend: B, dtype: Dtype, threads: usize) -> Tiled<B> {
        // A pool that cannot start (no threads left) leaves the calls on the calling thread.
        let workers =
            (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten();
        Tiled { backend, dtype, threads, pool: Pool::default(), workers }
    }
}

impl<B: Backend> Tiled<B> {
    fn spec(
        &self,
        kind: KernelKind,
        (head_dim, v_head_dim): (usize, usize),
        group: usize,
        mask: KernelMask,
        score: Option<&'static Score>,
    ) -> KernelSpec {
        KernelSpec {
            kind,
            head_dim: head_dim as u32,
            v_head_dim: (v_head_dim != head_dim).then_some(v_head_dim as u32),
            dtype: self.dtype,
            group: group as u32,
            mask,
            score,
            tile_q: TILE_Q,
            tile_kv: TILE_KV,
        }
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

impl<B: Backend> Tiled<B> {
    /// Runs `work(b, kh)` for every batch element and KV head, on the pool's `threads` workers
    /// (a panic in one is re-raised here, for the executor to report with its rank and op). Work
    /// items touch disjoint heads: query heads `kh·group..(kh+1)·group` and KV head `kh`.
    fn for_groups(
        &self,
        batch: usize,
        kv_heads: usize,
        work: impl Fn(usize, usize) -> Result<(), String> + Sync,
    ) -> Result<(), String> {
        use rayon::prelude::*;
        let items: Vec<(usize, usize)> = (0..batch).flat_map(|b| (0..kv_heads).map(move |kh| (b, kh))).collect();
        match &self.workers {
            Some(pool) if items.len() > 1 => pool.install(|| items.par_iter().try_for_each(|&(b, kh)| work(b, kh))),
            _ => items.iter().try_for_each(|&(b, kh)| work(b, kh)),
        }
    }
}

impl<B: Backend> Kernels for Tiled<B> {
    fn forward(&self, blk: &Block<'_>, part: &mut [f32], ps: Shape) -> Result<(), String> {
        // Query and key rows are `d` wide; values, outputs and the state's accumulators `dv`.
        let (d, dv) = (blk.head_dim, blk.v_head_dim);
        let (nq, nk) = (blk.q_shape.heads, blk.kv_shape.heads);
        let group = nq / nk;
        let (q_runs, kv_runs) = (runs(blk.q_rows), runs(blk.kv_rows));
        let tq = TILE_Q as usize;
        let longest = q_runs.iter().map(|r| r.len.div_ceil(tq) * tq).max().unwrap_or(0);
        assert!(part.len() >= ps.len(), "part buffer too small");
        let out = Out(part.as_mut_ptr());
        self.for_groups(blk.q_shape.batch, nk, |b, kh| {
            let row_out = |at: usize| -> &mut [f32] {
                // SAFETY: `at` is a row of a query head of group `kh`, owned by this work item;
                // rows of dv + 1 floats never overlap.
                unsafe { std::slice::from_raw_parts_mut(out.at(at), dv + 1) }
            };
            let mut scratch = self.pool.take((d * TILE_KV as usize) + tq * TILE_KV as usize);
            scratch.fill(0.0);
            let mut qc = self.pool.take(longest * d);
            let mut state = self.pool.take(longest * (dv + 2));
            // This KV head's rows, contiguous: rows of one head sit a whole row of heads apart in
            // the buffer, a stride that maps every row to the same cache sets.
            let kc: Vec<Vec<f32>> = kv_runs
                .iter()
                .map(|run| {
                    let mut dst = self.pool.take(run.len * (d + dv));
                    gather(blk.kv, blk.kv_shape, b, run, kh, d + dv, &mut dst);
                    dst
                })
                .collect();
            for h in kh * group..(kh + 1) * group {
                for qr in blk.q_rows.iter().filter(|r| r.pad) {
                    let o = row_out(ps.at(b, qr.row, h));
                    o[..dv].fill(0.0);
                    o[dv] = f32::NEG_INFINITY;
                }
                for qr in &q_runs {
                    let n_pad = qr.len.div_ceil(tq) * tq;
                    qc[..n_pad * d].fill(0.0);
                    for i in 0..qr.len {
                        let src = blk.q_shape.at(b, qr.row + i, h);
                        qc[i * d..(i + 1) * d].copy_from_slice(&blk.q[src..src + d]);
                    }
                    for row in state[..n_pad * (dv + 2)].chunks_mut(dv + 2) {
                        row.fill(0.0);
                        row[0] = f32::NEG_INFINITY;
                    }
                    for (kr, kc) in kv_runs.iter().zip(&kc) {
                        let Some(mask) = pair_mask(blk.mask, qr, kr) else { continue };
                        let spec = self.spec(KernelKind::Forward, (d, dv), group, mask, blk.score);
                        let args = FwdArgs {
                            q: qc.as_ptr(),
                            k: kc.as_ptr(),
                            state: state.as_mut_ptr(),
                            scratch: scratch.as_mut_ptr(),
                            kv_stride: (d + dv) as i64,
                            n_q: n_pad as i64,
                            n_kv: kr.len as i64,
                            q_pos: qr.pos as i64,
                            kv_pos: kr.pos as i64,
                            scale: blk.scale,
                            head_values: blk.heads_of(h).as_ptr(),
                        };
                        // SAFETY: qc holds n_pad rows, state n_pad rows of dv + 2, scratch the
                        // spec's floats, kc the run's len rows of k and v.
                        unsafe { self.backend.forward(&spec, &args)? };
                    }
                    for i in 0..qr.len {
                        let st = &state[i * (dv + 2)..(i + 1) * (dv + 2)];
                        let o = row_out(ps.at(b, qr.row + i, h));
                        if st[1] == 0.0 || st[0] == f32::NEG_INFINITY {
                            o[..dv].fill(0.0);
                            o[dv] = f32::NEG_INFINITY;
                        } else {
                            for e in 0..dv {
                                o[e] = st[2 + e] / st[1];
                            }
                            o[dv] = st[0] + st[1].ln();
                        }
                    }
                }
            }
            for buffer in [scratch, qc, state].into_iter().chain(kc) {
                self.pool.give(buffer);
            }
            Ok(())
        })
    }

    fn backward(
        &self,
        blk: &Block<'_>,
        dq: &mut [f32],
        dqs: Shape,
        dkv: &mut [f32],
        dkvs: Shape,
    ) -> Result<(), String> {
        let (d, dv) = (blk.head_dim, blk.v_head_dim);
        let (nq, nk) = (blk.q_shape.heads, blk.kv_shape.heads);
        let group = nq / nk;
        let (q_runs, kv_runs) = (runs(blk.q_rows), runs(blk.kv_rows));
        let longest = q_runs.iter().map(|r| r.len).max().unwrap_or(0);
        assert!(dq.len() >= dqs.len() && dkv.len() >= dkvs.len(), "gradient buffers too small");
        let (dq_out, dkv_out) = (Out(dq.as_mut_ptr()), Out(dkv.as_mut_ptr()));
        self.for_groups(blk.q_shape.batch, nk, |b, kh| {
            let mut delta = vec![0.0f32; longest];
            for h in kh * group..(kh + 1) * group {
                for qr in &q_runs {
                    for (i, di) in delta[..qr.len].iter_mut().enumerate() {
                        *di = blk.delta(b, qr.row + i, h);
                    }
                    for kr in &kv_runs {
                        let Some(mask) = pair_mask(blk.mask, qr, kr) else { continue };
                        let spec = self.spec(KernelKind::Backward, (d, dv), group, mask, blk.score);
                        let args = BwdArgs {
                            q: blk.q[blk.q_shape.at(b, qr.row, h)..].as_ptr(),
                            k: blk.kv[blk.kv_shape.at(b, kr.row, kh)..].as_ptr(),
                            // Rows inside the buffers; this work item alone writes query head h
                            // (of group kh) and KV head kh.
                            dq: dq_out.at(dqs.at(b, qr.row, h)),
                            dkv: dkv_out.at(dkvs.at(b, kr.row, kh)),
                            delta: delta.as_ptr(),
                            q_stride: (blk.q_shape.heads * blk.q_shape.elems) as i64,
                            kv_stride: (blk.kv_shape.heads * blk.kv_shape.elems) as i64,
                            dq_stride: (dqs.heads * dqs.elems) as i64,
                            dkv_stride: (dkvs.heads * dkvs.elems) as i64,
                            n_q: qr.len as i64,
                            n_kv: kr.len as i64,
                            q_pos: qr.pos as i64,
                            kv_pos: kr.pos as i64,
                            scale: blk.scale,
                            head_values: blk.heads_of(h).as_ptr(),
                        };
                        // SAFETY: every pointer starts a run of rows that exists in its buffer.
                        unsafe { self.backend.backward(&spec, &args)? };
                    }
                }
            }
            Ok(())
        })
    }
}
