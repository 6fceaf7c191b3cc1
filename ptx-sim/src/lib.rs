//! ptx-sim: an interpreter of PTX, the oracle of attnc's GPU code generator.
//!
//! It parses PTX text (`parse.rs`), and runs a kernel over a grid on the CPU (`sim.rs`): blocks
//! one after another, warps of 32 threads in lockstep under an active mask, each instruction's
//! meaning taken from the PTX ISA (`value.rs` for the scalar instructions). It checks what
//! compute-sanitizer checks — out-of-bounds global and shared accesses, reads of shared memory
//! nobody wrote, barriers and warp-collective instructions reached by part of a block or warp —
//! and an instruction it does not know is an error naming it, never a silent skip.
//!
//! It depends on nothing of attnc and knows nothing of how attnc generates PTX: its tests run
//! hand-written PTX with known answers; `codegen-tests/tests/ptx_sim.rs` runs attnc's kernels.

pub mod parse;
pub mod sim;
pub mod tensor_map;
pub mod value;

pub use parse::{Module, ParseError, parse};
pub use sim::{Arg, Global, Launch, SimError, Stats, run};
pub use tensor_map::{Swizzle, TensorMap};
