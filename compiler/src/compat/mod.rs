//! What other systems accept, as cited data: TransformerEngine's context-parallel support matrix
//! (`te`) and Megatron-LM's command-line arguments (`megatron`).
//!
//! Nothing here runs or imports those systems; the tables were read from their sources, and each
//! entry says where.

pub mod megatron;
pub mod te;
