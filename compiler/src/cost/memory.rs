//! A lower bound of each rank's memory for a layout's attention, from the layout alone (no plan):
//! what any plan of its strategy must hold at once for one layer, and what the backward must keep
//! for every layer of the rank's pipeline stage. `attnc check` compares it with the GPU's memory;
//! the plans attnc builds hold at least this much (`plan --stats` gives their exact figure).

use crate::spec::{Cp, Format, Layout, Mask, Strategy};

/// One part of the bound: what it is and its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub what: String,
    pub bytes: u64,
}

/// The bound for the layer class that needs the most.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryBound {
    pub strategy: Strategy,
    pub mask: Mask,
    /// The parts, the working set of one layer first, then what the backward keeps.
    pub parts: Vec<Part>,
}

impl MemoryBound {
    pub fn bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.bytes).sum()
    }
}

/// Bytes as people read them (GiB above one GiB, else MiB).
pub fn gib(bytes: u64) -> String {
    let g = bytes as f64 / (1u64 << 30) as f64;
    if g >= 1.0 { format!("{g:.1} GiB") } else { format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64) }
}

/// The least memory one rank needs, over the layout's layer classes. `whole_shards`: the
/// strategy's own communication under windows (as TransformerEngine runs it), not halos.
pub fn lower_bound(layout: &Layout, whole_shards: bool) -> MemoryBound {
    let mut classes: Vec<(Strategy, Mask)> = Vec::new();
    for l in &layout.layers {
        let key = (l.strategy.clone(), l.mask);
        if !classes.contains(&key) {
            classes.push(key);
        }
    }
    if classes.is_empty() {
        classes.push((layout.strategy.clone(), layout.mask));
    }
    classes
        .into_iter()
        .map(|(strategy, mask)| class_bound(layout, strategy, mask, whole_shards))
        .max_by_key(MemoryBound::bytes)
        .expect("at least one class")
}

fn class_bound(layout: &Layout, strategy: Strategy, mask: Mask, whole_shards: bool) -> MemoryBound {
    let m = &layout.model;
    let b = layout.dtype.bytes();
    let tp = layout.tp.max(1) as u64;
    let (heads, kv) = ((m.heads as u64 / tp).max(1), (m.kv_heads as u64 / tp).max(1));
    let (d, dv) = (m.head_dim as u64, m.v_dim() as u64);
    // The tokens of the whole sequence (or packed batch) and of one rank.
    let (tokens, local, cp) = match (layout.cp, layout.format) {
        (Cp::Hybrid { max_seqlen_per_rank, .. }, _) => (max_seqlen_per_rank, max_seqlen_per_rank, 1),
        (Cp::Fixed { size }, Format::Thd { max_tokens, .. }) => (max_tokens, max_tokens.div_ceil(size as u64), size),
        (Cp::Fixed { size }, _) => {
            let t = layout.seq * layout.batch as u64;
            (t, t.div_ceil(size as u64), size)
        }
    };
    let cp = cp as u64;
    let rows = |n: u64, heads: u64, width: u64| n * heads * width * b;
    let mut parts = vec![
        Part {
            what: format!("q, k and v of its {local} tokens"),
            bytes: rows(local, heads, d) + rows(local, kv, d + dv),
        },
        Part { what: "the attention output".into(), bytes: rows(local, heads, dv) },
    ];
    let local_mask = mask.is_local();
    let remote_kv = |n: u64| rows(n, kv, d + dv);
    match &strategy {
        Strategy::P2p if cp > 1 && (whole_shards || !local_mask) => {
            parts.push(Part { what: "one KV shard received from a ring neighbour".into(), bytes: remote_kv(local) })
        }
        Strategy::AllGather if cp > 1 && (whole_shards || !local_mask) => parts.push(Part {
            what: format!("the K and V gathered from the other {} ranks", cp - 1),
            bytes: remote_kv(tokens - local),
        }),
        Strategy::A2a if cp > 1 => {
            // After the all-to-all: every token, heads/cp of the heads (KV heads replicated when
            // fewer than cp), q, k, v and the output before the reverse all-to-all.
            let (h, k) = ((heads / cp).max(1), (kv / cp).max(1));
            parts.push(Part {
                what: format!("q, k, v and output of all {tokens} tokens for {h} head(s) after the all-to-all"),
                bytes: rows(tokens, h, d + dv) + rows(tokens, k, d + dv),
            })
        }
        Strategy::A2aP2p { hierarchy } if cp > 1 => {
            let a = hierarchy.first().copied().unwrap_or(1) as u64;
            let (h, k) = ((heads / a).max(1), (kv / a).max(1));
            let n = local * a;
            parts.push(Part {
                what: format!("q, k, v and output of {n} tokens for {h} head(s) after the level-1 all-to-all"),
                bytes: rows(n, h, d + dv) + rows(n, k, d + dv),
            });
            if whole_shards || !local_mask {
                parts.push(Part {
                    what: "one KV shard received from a ring neighbour".into(),
                    bytes: rows(n, k, d + dv),
                });
            }
        }
        _ => {}
    }
    // The backward needs each layer's input at least (recomputing everything else, as
    // Megatron-LM's full recomputation does), for every layer of the rank's pipeline stage.
    let hidden = m.hidden.unwrap_or(m.heads as u64 * d);
    let split = if layout.sequence_parallel { tp } else { 1 };
    let stage_layers = (m.layers as u64).div_ceil(layout.pp.max(1) as u64);
    parts.push(Part {
        what: format!("each of its {stage_layers} layers' inputs, kept for the backward"),
        bytes: stage_layers * local.div_ceil(split) * hidden * b,
    });
    MemoryBound { strategy, mask, parts }
}
