//! Specs from configurations people already have: `attnc import hf` (Hugging Face `config.json`).
//!
//! An importer writes `.attn` text, which then goes through the same front end, checks and
//! diagnostics as a hand-written spec; it never builds resolved structures itself.

pub mod hf;
