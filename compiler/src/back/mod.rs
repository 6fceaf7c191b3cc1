//! Backends of the kernel IR, each behind a cargo feature: `cranelift` (JIT for the host CPU) and
//! `llvm` (PTX for NVIDIA GPUs, AVX2 code for the host).
//!
//! A backend lowers the steps of `kernel::program` for one `KernelSpec`; it never sees plans.

#[cfg(feature = "cranelift")]
pub mod cranelift;

#[cfg(feature = "llvm")]
pub mod llvm;
