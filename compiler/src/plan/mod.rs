//! Planning foundations shared by every strategy: token partitions and process groups.
//!
//! The plan IR, lowering passes and verifier (issue 3) build on these; both
//! modules are pure functions of sizes, exactly as Megatron-LM and
//! TransformerEngine compute them, so their tables can be checked against the
//! published ones.

pub mod groups;
pub mod partition;
