//! The attnc runtime: executes compiled plans. Only this crate touches devices and threads.
//!
//! It is empty until the CPU-runtime issue lands the communicator trait, the
//! executor and the reference kernels; the crate exists now so the workspace's
//! dependency direction (cli -> runtime -> compiler) is fixed from the start.

/// The compiler crate this runtime executes plans of.
pub use attnc_compiler as compiler;
