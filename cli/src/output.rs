//! Output forms several commands share: text or JSON, and JSON alone.

use clap::ValueEnum;

/// `--emit text|json`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    Text,
    Json,
}

/// The output of commands that print only JSON (the flag is accepted for symmetry with `plan`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum JsonOnly {
    Json,
}
