//! Backends of the kernel IR, each behind a cargo feature: `cranelift` (JIT for the host CPU) and
//! `llvm` (PTX for NVIDIA GPUs, AVX2 code for the host).
//!
//! A backend lowers the steps of `kernel::program` for one `KernelSpec`; it never sees plans.

#[cfg(feature = "cranelift")]
pub mod cranelift;

#[cfg(feature = "llvm")]
pub mod llvm;
pub mod manifest;

use std::time::Duration;

use crate::kernel::{BwdArgs, FwdArgs, KernelKind};

/// A kernel compiled to host code (Cranelift or LLVM): its entry point, of the ABI in
/// `kernel`, and how long compiling took. The code lives as long as the backend's cache.
#[derive(Clone, Copy, Debug)]
pub struct Compiled {
    code: usize,
    pub compile_time: Duration,
    pub kind: KernelKind,
}

impl Compiled {
    /// `code` must be the address of a finalized `extern "C" fn(*const FwdArgs)` (forward) or
    /// `fn(*const BwdArgs)` (backward) that stays mapped for the life of the process.
    #[allow(dead_code)]
    pub(crate) fn new(code: usize, compile_time: Duration, kind: KernelKind) -> Compiled {
        Compiled { code, compile_time, kind }
    }

    /// Runs a forward kernel.
    ///
    /// # Safety
    /// `args` must satisfy the forward ABI (see `kernel::interp::forward`), and this must be a
    /// forward kernel.
    pub unsafe fn forward(&self, args: &FwdArgs) {
        debug_assert_eq!(self.kind, KernelKind::Forward);
        // SAFETY: `code` is the entry of a finalized function with signature `fn(*const FwdArgs)`.
        let f: extern "C" fn(*const FwdArgs) = unsafe { std::mem::transmute(self.code) };
        f(args);
    }

    /// Runs a backward kernel.
    ///
    /// # Safety
    /// `args` must satisfy the backward ABI, and this must be a backward kernel.
    pub unsafe fn backward(&self, args: &BwdArgs) {
        debug_assert_eq!(self.kind, KernelKind::Backward);
        // SAFETY: as above, with `fn(*const BwdArgs)`.
        let f: extern "C" fn(*const BwdArgs) = unsafe { std::mem::transmute(self.code) };
        f(args);
    }
}
