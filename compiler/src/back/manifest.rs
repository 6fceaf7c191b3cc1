//! `manifest.json`, the index of an ahead-of-time kernel directory (`attnc compile -o`, `attnc
//! kernels -o`): the plans written beside the kernels and, per kernel, its file, entry point, spec,
//! launch configuration, ptxas resources and compile times.
//!
//! The one typed form both the writer (the CLI) and the reader (the CUDA runtime) use; it holds
//! user-facing names (strategy and mask as written in a spec, half-open layer ranges), never a
//! Rust `Debug` string. The LLVM backend fills the launch, resource and timing records with these
//! same types.

use serde::{Deserialize, Serialize};

use crate::ir::Interval;
use crate::kernel::KernelSpec;

/// Version 2: plans name their strategy and mask as a spec writes them, and layers as
/// `{start, end}` ranges (version 1 held Rust debug strings).
pub const MANIFEST_VERSION: u32 = 2;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// `sm_80`, `sm_90a` or `x86-64`.
    pub target: String,
    /// The layout the plans are of; `None` for `attnc kernels` (no layout).
    pub layout: Option<String>,
    #[serde(default)]
    pub plans: Vec<ManifestPlan>,
    pub kernels: Vec<ManifestKernel>,
}

/// One plan file of the directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestPlan {
    /// The layer class's index in the layout's plans.
    pub class: usize,
    /// Half-open layer ranges.
    pub layers: Vec<Interval>,
    /// `p2p`, `all_gather`, `a2a` or `a2a+p2p`.
    pub strategy: String,
    /// The a2a+p2p levels (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hierarchy: Vec<u32>,
    /// The mask as a spec writes it, e.g. `causal { window = 4096 }`.
    pub mask: String,
    /// `forward` or `backward`.
    pub pass: String,
    /// The plan file holding it (`plan.json`: every class, both passes; `attnc run --plan`).
    pub file: String,
}

/// One kernel of the directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestKernel {
    pub name: String,
    pub entry: String,
    pub file: String,
    /// `None` for the merge and strided-add kernels, which have no kernel spec.
    #[serde(default)]
    pub spec: Option<KernelSpec>,
    #[serde(default)]
    pub launch: Option<Launch>,
    /// What ptxas reported for each function, with `attnc compile --ptxas`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resources>,
    /// Seconds per compile stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compile_s: Option<Timings>,
}

/// How a GPU kernel is launched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launch {
    /// Grid dimensions as formulas of the launch's sizes.
    pub grid: [String; 3],
    pub block: [u32; 3],
    pub dynamic_shared_bytes: u32,
    /// The kernel's parameters in order, as `name: type`.
    #[serde(default)]
    pub params: Vec<String>,
}

/// ptxas's report for one entry function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resources {
    pub function: String,
    pub registers: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
    pub stack_bytes: u32,
    pub shared_bytes: u32,
    pub barriers: u32,
}

/// Seconds of each compile stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    pub lower_s: f64,
    pub parse_s: f64,
    pub optimize_s: f64,
    pub codegen_s: f64,
}

impl Timings {
    pub fn total_s(&self) -> f64 {
        self.lower_s + self.parse_s + self.optimize_s + self.codegen_s
    }
}
