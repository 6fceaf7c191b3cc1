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
    /// `sm_80`, `sm_90a`, `sm_90a-ws` or `x86-64`.
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
    /// The tensor maps the kernel reads or writes through TMA, in the order of its `tmaps`
    /// parameter (an array of 128-byte maps in global memory the device builds for each launch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tensor_maps: Vec<TensorMapUse>,
}

impl Launch {
    /// The rows of the longest run one CTA takes, from an attention kernel's grid formula
    /// `ceil(max_seqlen_q / N)` (forward) or `ceil(max_seqlen_kv / N)` (backward).
    pub fn rows_per_cta(&self) -> Option<usize> {
        let inner = self.grid[0].strip_prefix("ceil(")?.strip_suffix(')')?;
        let (what, n) = inner.split_once(" / ")?;
        matches!(what, "max_seqlen_q" | "max_seqlen_kv").then_some(())?;
        n.parse().ok().filter(|&n: &usize| n > 0)
    }
}

/// A tensor map's fields as `cuTensorMapEncodeTiled` takes them, innermost dimension first: the
/// element size (2: the inputs' 16-bit dtype, 4: fp32), the sizes, the byte strides of
/// dimensions 1 and 2, the box, the swizzle's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapFields {
    pub base: u64,
    pub elem_bytes: u32,
    pub dims: [u64; 3],
    pub strides: [u64; 2],
    pub box_dims: [u32; 3],
    pub swizzle_bytes: u32,
}

impl TensorMapUse {
    /// The map over a launch's plane at global address `base` (its first head): `rows` rows of
    /// `row_elems` elements each, `heads` heads of `width` from `base`. TMA needs the base and the
    /// strides in multiples of 16 bytes; an error names what is not.
    pub fn fields(&self, base: u64, heads: usize, row_elems: usize, rows: usize) -> Result<MapFields, String> {
        let (width, e) = (self.width as u64, self.elem_bytes as u64);
        if base % 16 != 0 {
            return Err(format!("the {} plane's tensor map: address {base:#x} is not 16-byte aligned", self.tensor));
        }
        if (e * width) % 16 != 0 || (e * row_elems as u64) % 16 != 0 {
            return Err(format!(
                "the {} plane's tensor map: heads of {width} and rows of {row_elems} elements are not 16-byte strides",
                self.tensor
            ));
        }
        Ok(MapFields {
            base,
            elem_bytes: self.elem_bytes,
            dims: [width, heads as u64, rows as u64],
            strides: [e * width, e * row_elems as u64],
            box_dims: [self.box_width, 1, self.box_rows],
            swizzle_bytes: self.swizzle_bytes,
        })
    }
}

/// A tensor map a kernel reads or writes: the launch's plane `tensor` (`q`, `k`, `v`: the
/// inputs, 16-bit; `o`: the output, fp32) as `[rows][heads][width]` elements of `elem_bytes`
/// (rows: the launch's, heads: the launch's head range, the plane's row stride), boxes of
/// `box_rows` rows × `box_width` elements of one head, swizzled in shared memory by
/// `swizzle_bytes` (0, 32, 64 or 128), zeros outside the tensor (a store leaves what lies
/// outside untouched).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorMapUse {
    pub tensor: String,
    pub width: u32,
    pub box_width: u32,
    pub box_rows: u32,
    pub swizzle_bytes: u32,
    /// Bytes per element: 2 (the inputs' bf16/fp16) or 4 (fp32).
    #[serde(default = "two")]
    pub elem_bytes: u32,
}

fn two() -> u32 {
    2
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

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(grid0: &str) -> Launch {
        Launch {
            grid: [grid0.into(), "heads_q".into(), "sequences".into()],
            block: [384, 1, 1],
            dynamic_shared_bytes: 0,
            params: Vec::new(),
            tensor_maps: Vec::new(),
        }
    }

    #[test]
    fn rows_per_cta_read_from_the_grid_formula() {
        assert_eq!(launch("ceil(max_seqlen_q / 128)").rows_per_cta(), Some(128));
        assert_eq!(launch("ceil(max_seqlen_kv / 64)").rows_per_cta(), Some(64));
        for other in
            ["ceil(tokens * heads_q / 128)", "ceil(max_seqlen_q / 0)", "max_seqlen_q", "ceil(max_seqlen_q / x)"]
        {
            assert_eq!(launch(other).rows_per_cta(), None, "{other}");
        }
    }

    #[test]
    fn tensor_map_fields_follow_the_plane_and_name_what_tma_refuses() {
        let k = TensorMapUse {
            tensor: "k".into(),
            width: 128,
            box_width: 64,
            box_rows: 64,
            swizzle_bytes: 128,
            elem_bytes: 2,
        };
        // Two KV heads from the range's first, rows of 8 heads, 300 rows in the launch.
        let f = k.fields(0x1000, 2, 8 * 128, 300).unwrap();
        assert_eq!(f.dims, [128, 2, 300]);
        assert_eq!(f.strides, [256, 2048]);
        assert_eq!(f.box_dims, [64, 1, 64]);
        assert_eq!(f.swizzle_bytes, 128);
        let e = k.fields(0x1008, 2, 8 * 128, 300).unwrap_err();
        assert!(e.contains("the k plane's tensor map: address 0x1008 is not 16-byte aligned"), "{e}");
        let e = k.fields(0x1000, 2, 8 * 128 + 4, 300).unwrap_err();
        assert!(e.contains("not 16-byte strides"), "{e}");
        // O: fp32 rows of 4 heads of 64, boxes of 32 columns (128 bytes) × 64 rows.
        let o = TensorMapUse { tensor: "o".into(), width: 64, box_width: 32, elem_bytes: 4, ..k };
        let f = o.fields(0x2000, 4, 4 * 64, 300).unwrap();
        assert_eq!((f.elem_bytes, f.dims, f.strides, f.box_dims), (4, [64, 4, 300], [256, 1024], [32, 1, 64]));
        // A manifest written before the field: 16-bit.
        let old: TensorMapUse = serde_json::from_str(
            r#"{"tensor": "q", "width": 64, "box_width": 64, "box_rows": 128, "swizzle_bytes": 128}"#,
        )
        .unwrap();
        assert_eq!(old.elem_bytes, 2);
    }
}
