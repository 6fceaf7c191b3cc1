//! A resolved layout back to spec text: the `layout` item that resolves to it, in canonical form,
//! with per-layer settings merged into one set of non-overlapping `layer` blocks.
//!
//! `attnc tune --emit spec` prints it so that the user can replace the layout item of their file
//! with it. It prints what the resolved layout holds (defaults written out), not the user's
//! comments or spelling; the model and cluster items are the file's own and are not printed.

use std::fmt::Write as _;

use crate::span::FileId;
use crate::spec::{Balance, Cp, Format, LayerSettings, Layout, Mask, Strategy};

/// The mask as a spec writes it.
pub fn mask_text(mask: Mask) -> String {
    let args = |m: Mask| match (m.window(), m.chunk()) {
        (Some(w), _) => format!(" {{ window = {w} }}"),
        (None, Some(c)) => format!(" {{ chunk = {c} }}"),
        (None, None) => String::new(),
    };
    match mask {
        Mask::None => "none".to_string(),
        Mask::Causal { .. } => format!("causal{}", args(mask)),
        Mask::Padding => "padding".to_string(),
        Mask::PaddingCausal { .. } => format!("padding_causal{}", args(mask)),
        Mask::Regions { regions, .. } => regions.text.clone(),
        Mask::Heads { heads } => heads.text.clone(),
    }
}

/// The strategy as a spec writes it.
pub fn strategy_text(strategy: &Strategy) -> String {
    match strategy {
        Strategy::A2aP2p { hierarchy } => format!(
            "a2a+p2p {{ hierarchy = [{}] }}",
            hierarchy.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        ),
        other => other.name().to_string(),
    }
}

pub use crate::ir::layer_ranges;

/// The `layout` item that resolves to `layout` with each layer set as `layers` says.
pub fn layout_item(layout: &Layout, layers: &[LayerSettings]) -> String {
    // The layout-wide strategy is the one most layers use; the mask stays the layout's own.
    let mut counts: Vec<(&Strategy, usize)> = Vec::new();
    for l in layers {
        match counts.iter_mut().find(|(s, _)| **s == l.strategy) {
            Some((_, n)) => *n += 1,
            None => counts.push((&l.strategy, 1)),
        }
    }
    let strategy = counts.iter().max_by_key(|(_, n)| *n).map_or(&layout.strategy, |(s, _)| *s).clone();
    let mask = layout.mask;
    let mut t = String::new();
    let _ = writeln!(t, "layout {} {{", layout.name);
    let _ = writeln!(t, "model = {}", layout.model.name);
    let _ = writeln!(t, "cluster = {}", layout.cluster.name);
    match layout.format {
        Format::Sbhd => t.push_str("format = sbhd\n"),
        Format::Bshd => t.push_str("format = bshd\n"),
        Format::Thd { max_seqlen, max_tokens } => {
            let _ = writeln!(t, "format = thd {{ max_seqlen = {max_seqlen}, max_tokens = {max_tokens} }}");
        }
    }
    let _ = writeln!(t, "dtype = {}", layout.dtype.name());
    if !matches!(layout.format, Format::Thd { .. }) {
        if layout.batch != 1 {
            let _ = writeln!(t, "batch = {}", layout.batch);
        }
        let _ = writeln!(t, "seq = {}", layout.seq);
    }
    let _ = writeln!(t, "mask = {}", mask_text(mask));
    if layout.tp != 1 {
        let _ = writeln!(t, "tp = {}", layout.tp);
    }
    let cp_size = match layout.cp {
        Cp::Fixed { size } => {
            let _ = writeln!(t, "cp = {size}");
            size
        }
        Cp::Hybrid { dp_cp, max_seqlen_per_rank } => {
            let _ = writeln!(t, "cp = hybrid {{ dp_cp = {dp_cp}, max_seqlen_per_rank = {max_seqlen_per_rank} }}");
            dp_cp
        }
    };
    if layout.pp != 1 {
        let _ = writeln!(t, "pp = {}", layout.pp);
    }
    if layout.ep != 1 {
        let _ = writeln!(t, "ep = {}", layout.ep);
    }
    // `dp` is written only where it is not what the cluster implies (idle GPUs).
    let replica = layout.tp as u64 * cp_size as u64 * layout.pp as u64;
    if matches!(layout.cp, Cp::Fixed { .. }) && replica * layout.dp as u64 != layout.cluster.gpus as u64 {
        let _ = writeln!(t, "dp = {}", layout.dp);
    }
    if layout.sequence_parallel != (layout.tp > 1) {
        let _ = writeln!(t, "sequence_parallel = {}", layout.sequence_parallel);
    }
    match layout.balance {
        Balance::Zigzag => {}
        Balance::Contiguous => t.push_str("balance = contiguous\n"),
        Balance::Auto => t.push_str("balance = auto\n"),
    }
    let _ = writeln!(t, "strategy = {}", strategy_text(&strategy));
    // One block per distinct setting that differs from the layout-wide one, in order of first layer.
    let mut settings: Vec<(&LayerSettings, Vec<u64>)> = Vec::new();
    for (i, l) in layers.iter().enumerate() {
        if l.strategy == strategy && l.mask == mask {
            continue;
        }
        match settings.iter_mut().find(|(s, _)| *s == l) {
            Some((_, indices)) => indices.push(i as u64),
            None => settings.push((l, vec![i as u64])),
        }
    }
    for (setting, indices) in &settings {
        let mut fields = Vec::new();
        if setting.strategy != strategy {
            fields.push(format!("strategy = {}", strategy_text(&setting.strategy)));
        }
        if setting.mask != mask {
            fields.push(format!("mask = {}", mask_text(setting.mask)));
        }
        for range in layer_ranges(indices) {
            let _ = writeln!(t, "layer {range} {{ {} }}", fields.join(", "));
        }
    }
    t.push_str("}\n");
    let (tree, errors) = crate::front::parse_file(FileId::default(), &t);
    debug_assert!(errors.is_empty(), "unparsed layout does not parse:\n{t}");
    crate::front::print_file(&tree)
}
