//! Built-in GPU and link presets: published peak figures the cost model starts from.
//!
//! Figures are dense (no structured sparsity), from the vendors' data sheets.
//! Link bandwidths are one direction; a cluster's `intra`/`inter` fields override them.

use crate::spec::{Gpu, Link};

const GB: f64 = 1e9;
const GIB: u64 = 1 << 30;

/// (name, bf16 TFLOP/s, fp32 TFLOP/s, HBM GB/s, memory GiB, CUDA compute capability × 10).
/// H800: the H100 SXM's compute and memory (it differs in NVLink, a cluster's `intra` link);
/// GB200: one Blackwell GPU of a GB200 NVL72 (the rack's 180 PFLOP/s dense bf16, 576 TB/s and
/// 13.4 TB over 72 GPUs). Compute capabilities from NVIDIA's CUDA GPU list: Ampere A100 8.0, Ada
/// L40S 8.9, Hopper 9.0, Blackwell B200/GB200 10.0; the MI300X is AMD's (none).
type GpuRow = (&'static str, f64, f64, f64, u64, Option<u32>);
const GPUS: &[GpuRow] = &[
    ("h100_sxm", 989.0, 67.0, 3350.0, 80, Some(90)),
    ("h100_pcie", 756.0, 51.0, 2000.0, 80, Some(90)),
    ("h800", 989.0, 67.0, 3350.0, 80, Some(90)),
    ("h200", 989.0, 67.0, 4800.0, 141, Some(90)),
    ("h20", 148.0, 44.0, 4000.0, 96, Some(90)),
    ("b200", 2250.0, 80.0, 8000.0, 180, Some(100)),
    ("gb200", 2500.0, 80.0, 8000.0, 186, Some(100)),
    ("a100_80g", 312.0, 19.5, 2039.0, 80, Some(80)),
    ("a100_40g", 312.0, 19.5, 1555.0, 40, Some(80)),
    ("l40s", 362.0, 91.6, 864.0, 48, Some(89)),
    ("mi300x", 1307.0, 163.4, 5300.0, 192, None),
];

pub fn gpu_names() -> Vec<&'static str> {
    GPUS.iter().map(|g| g.0).collect()
}

pub fn gpu(name: &str) -> Option<Gpu> {
    GPUS.iter().find(|g| g.0 == name).map(|&(name, bf16, fp32, hbm, mem, sm)| Gpu {
        name: name.to_string(),
        peak_bf16_tflops: bf16,
        peak_fp32_tflops: fp32,
        hbm_bytes_per_s: hbm * GB,
        memory_bytes: mem * GIB,
        sm,
    })
}

/// (kind, one-direction GB/s, latency µs); intra-node kinds first.
pub const INTRA_LINKS: &[(&str, f64, f64)] = &[("nvlink", 450.0, 3.0), ("xgmi", 64.0, 4.0), ("pcie", 25.0, 5.0)];
pub const INTER_LINKS: &[(&str, f64, f64)] = &[("ib", 50.0, 12.0), ("roce", 50.0, 15.0), ("ethernet", 12.5, 30.0)];

pub fn link(table: &[(&str, f64, f64)], kind: &str) -> Option<Link> {
    table.iter().find(|l| l.0 == kind).map(|&(kind, gbps, us)| Link {
        kind: kind.to_string(),
        bandwidth_bytes_per_s: gbps * GB,
        latency_s: us * 1e-6,
    })
}
