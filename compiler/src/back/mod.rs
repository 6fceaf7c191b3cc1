//! Backends of the kernel IR, each behind a cargo feature: `cranelift` (JIT for the host CPU).
//!
//! A backend lowers the steps of `kernel::program` for one `KernelSpec`; it never sees plans.

#[cfg(feature = "cranelift")]
pub mod cranelift;
