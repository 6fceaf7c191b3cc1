//! The cost model: a duration for every plan op from a device profile and the links it crosses.
//!
//! Attention kernels take mask-aware FLOPs over `peak × efficiency` (one efficiency per kernel
//! kind); element-wise ops (load, merge, normalize, …) take the bytes they touch over memory
//! bandwidth (plus RoPE rotations where the profile prices them apart); every kernel adds a
//! launch overhead. Communication is `α + bytes/β` on the link
//! it crosses (intra-node when every peer or member shares the rank's node, else inter-node):
//! a grouped send/recv moves both directions at once, so it takes its larger direction per link
//! level; ring all-gather and reduce-scatter take `(n−1)·α + (n−1)/n · bytes/β`, all-to-all
//! (pairwise) the same, a barrier `ceil(log2 n)·α`. Contention between ranks is not modelled.
//! [`timeline`] plays plans with these durations; [`trace`] writes what it played (or what the
//! CPU runtime measured) as a Chrome/Perfetto trace. This module never measures anything:
//! `attnc calibrate` (in the CLI) does, and writes a [`DeviceProfile`].

pub mod memory;
pub mod timeline;
pub mod trace;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::ir::stats::op_flops;
use crate::ir::{MaskClass, OpId, OpKind, Output, Plan};
use crate::spec::{Cluster, Dtype};

/// One link level: latency and one-direction bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkCost {
    pub alpha_s: f64,
    pub bytes_per_s: f64,
}

impl LinkCost {
    pub fn time(&self, bytes: f64) -> f64 {
        if bytes <= 0.0 { 0.0 } else { self.alpha_s + bytes / self.bytes_per_s }
    }
}

/// What one rank's device and links can do. Presets come from the cluster's GPU (published
/// peaks, assumed efficiencies); `attnc calibrate` measures one for this machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceProfile {
    pub name: String,
    /// Dense peak for the plan's dtype, FLOP/s.
    pub peak_flops: f64,
    /// Achieved fraction of the peak: forward and backward attention kernels.
    pub fwd_efficiency: f64,
    pub bwd_efficiency: f64,
    /// The same for blocks a mask edge cuts (causal diagonal, window edge, documents): their
    /// FLOPs count only allowed pairs, but the kernel also works on the masked part of its tiles.
    /// Missing in a profile: the full-block figures.
    #[serde(default)]
    pub fwd_masked_efficiency: Option<f64>,
    #[serde(default)]
    pub bwd_masked_efficiency: Option<f64>,
    /// Memory bandwidth for element-wise ops, bytes/s.
    pub memory_bytes_per_s: f64,
    /// Fixed cost of every kernel call.
    pub launch_s: f64,
    /// RoPE rotations (one pair of elements each) per second where loads and stores rotate
    /// separately from the copy (the CPU runtime); missing when it is fused into the copy.
    #[serde(default)]
    pub rope_pairs_per_s: Option<f64>,
    pub intra: LinkCost,
    pub inter: LinkCost,
    /// Memory per rank, bytes (the limit autotuning respects).
    pub memory_bytes: u64,
    /// Ranks that can compute at once (CPU runs: the cores); 0 when every rank has its own
    /// device. With more ranks than that, compute ops take `ranks / cores` times as long.
    #[serde(default)]
    pub cores: u32,
}

/// Assumed kernel efficiencies per GPU family, forward and backward. They are FlashAttention-2
/// class figures (FA2 paper: 50–73% of A100 peak forward, ~35–40% on H100 without Hopper
/// instructions; backward lower); calibrate replaces them with measurements.
fn efficiencies(gpu: &str) -> (f64, f64) {
    if gpu.starts_with("a100") || gpu.starts_with("a800") { (0.60, 0.45) } else { (0.40, 0.32) }
}

impl DeviceProfile {
    /// The preset for a cluster's GPU and links, at a dtype.
    pub fn of_cluster(cluster: &Cluster, dtype: Dtype) -> DeviceProfile {
        let gpu = &cluster.gpu;
        let peak_tflops = match dtype {
            Dtype::Fp32 => gpu.peak_fp32_tflops,
            Dtype::Bf16 | Dtype::Fp16 => gpu.peak_bf16_tflops,
        };
        let (fwd, bwd) = efficiencies(&gpu.name);
        DeviceProfile {
            name: gpu.name.clone(),
            peak_flops: peak_tflops * 1e12,
            fwd_efficiency: fwd,
            bwd_efficiency: bwd,
            fwd_masked_efficiency: None,
            bwd_masked_efficiency: None,
            memory_bytes_per_s: gpu.hbm_bytes_per_s * 0.8,
            launch_s: 5e-6,
            rope_pairs_per_s: None,
            intra: LinkCost { alpha_s: cluster.intra.latency_s, bytes_per_s: cluster.intra.bandwidth_bytes_per_s },
            inter: LinkCost { alpha_s: cluster.inter.latency_s, bytes_per_s: cluster.inter.bandwidth_bytes_per_s },
            memory_bytes: gpu.memory_bytes,
            cores: 0,
        }
    }
}

pub struct CostModel<'a> {
    pub profile: &'a DeviceProfile,
}

impl CostModel<'_> {
    /// Seconds the op takes on its stream once it has started.
    pub fn op(&self, plan: &Plan, id: OpId) -> f64 {
        let profile = self.profile;
        let op = plan.op(id);
        // Ranks beyond the cores that can compute at once share them.
        let sharing = if profile.cores == 0 { 1.0 } else { (plan.header.cp as f64 / profile.cores as f64).max(1.0) };
        let compute = |seconds: f64| seconds * sharing;
        let memory = |bytes: u64| compute(profile.launch_s + bytes as f64 / profile.memory_bytes_per_s);
        match &op.kind {
            OpKind::AttnFwd { class, .. } => {
                let flops = op_flops(plan, id);
                let efficiency = match class {
                    MaskClass::Full => profile.fwd_efficiency,
                    _ => profile.fwd_masked_efficiency.unwrap_or(profile.fwd_efficiency),
                };
                compute(profile.launch_s + flops / (profile.peak_flops * efficiency))
            }
            OpKind::AttnBwd { class, .. } => {
                let flops = op_flops(plan, id);
                let efficiency = match class {
                    MaskClass::Full => profile.bwd_efficiency,
                    _ => profile.bwd_masked_efficiency.unwrap_or(profile.bwd_efficiency),
                };
                compute(profile.launch_s + flops / (profile.peak_flops * efficiency))
            }
            OpKind::Load { dst, .. } | OpKind::Store { src: dst, .. } => {
                let mut seconds = memory(2 * plan.bytes_of(*dst));
                let rotates = !matches!(op.kind, OpKind::Store { output: Output::O, .. });
                if let (Some(rate), Some(_), true) = (profile.rope_pairs_per_s, plan.problem.rope.as_ref(), rotates) {
                    let buf = plan.buf(*dst);
                    let rotated = plan.problem.rope_range().len() as u64;
                    let pairs = buf.rows * buf.heads as u64 * plan.problem.batch as u64 * rotated / 2;
                    seconds += sharing * pairs as f64 / rate;
                }
                seconds
            }
            OpKind::Zero { dst, .. } => memory(2 * plan.bytes_of(*dst)),
            OpKind::RepeatKv { dst, .. } => memory(2 * plan.bytes_of(*dst)),
            OpKind::AddRows { src, .. } => memory(3 * plan.bytes_of(*src)),
            OpKind::CopyRows { dst, .. } => memory(2 * plan.bytes_of(*dst)),
            OpKind::SumHeads { src, .. } => memory(2 * plan.bytes_of(*src)),
            OpKind::Merge { part, .. } => memory(3 * plan.bytes_of(*part)),
            OpKind::Normalize { acc, .. } => memory(2 * plan.bytes_of(*acc)),
            OpKind::SendRecv { sends, recvs } => {
                let node = plan.node_of(op.rank);
                // Per link level: bytes out and in; both directions move at once.
                let mut levels = [[0u64; 2]; 2];
                for (dir, transfers) in [(0, sends), (1, recvs)] {
                    for t in transfers {
                        let level = usize::from(plan.node_of(t.peer) != node);
                        levels[level][dir] += plan.bytes_of(t.buf);
                    }
                }
                let link = [profile.intra, profile.inter];
                (0..2).map(|l| link[l].time(levels[l][0].max(levels[l][1]) as f64)).fold(0.0, f64::max)
            }
            OpKind::AllGather { group, dst: buf, .. }
            | OpKind::ReduceScatter { group, src: buf, .. }
            | OpKind::AllToAll { group, src: buf, .. } => {
                let members = &plan.group(*group).members;
                let n = members.len() as f64;
                let nodes: BTreeSet<u32> = members.iter().map(|&m| plan.node_of(m)).collect();
                let inter = nodes.len() > 1;
                let link = if inter { profile.inter } else { profile.intra };
                let moved = plan.bytes_of(*buf) as f64 * (n - 1.0) / n;
                if n <= 1.0 { 0.0 } else { (n - 1.0) * link.alpha_s + moved / link.bytes_per_s }
            }
            OpKind::Barrier { group } => {
                let members = &plan.group(*group).members;
                let nodes: BTreeSet<u32> = members.iter().map(|&m| plan.node_of(m)).collect();
                let link = if nodes.len() > 1 { profile.inter } else { profile.intra };
                let rounds = (members.len() as f64).log2().ceil().max(0.0);
                rounds * link.alpha_s
            }
        }
    }
}
