//! The driver above the pipeline: it resolves `strategy = auto` and `balance = auto` with the
//! tuner, and under windows and chunks whether KV moves as halos or by the strategy's own
//! communication, then runs the pipeline (`passes::compile`) on concrete strategies and splits.
//!
//! The pipeline never calls the tuner, and the tuner plans candidates through the pipeline, so
//! the dependency runs one way: driver → tune → passes. Commands that may meet `auto` (every
//! command that plans a user's layout) come here; code that builds its own concrete layouts may
//! call `passes::compile` directly.

use std::borrow::Cow;

use crate::cost::DeviceProfile;
use crate::ir::Interval;
use crate::passes::{self, PlanError, PlanOptions, PlanSet, layer_classes};
use crate::spec::{Balance, Cp, Layout, Strategy};
use crate::tune;

/// `layout` with every `strategy = auto` layer given the strategy the cost model predicts fastest
/// for its layer class (with `options.target`, among what that TransformerEngine runs), and
/// `balance = auto` the split it predicts fastest for those strategies.
pub fn resolve_auto<'l>(layout: &'l Layout, options: &PlanOptions) -> Result<Cow<'l, Layout>, PlanError> {
    let auto: Vec<(Vec<Interval>, _)> = layer_classes(layout)
        .into_iter()
        .filter(|(_, strategy, _)| *strategy == Strategy::Auto)
        .map(|(layers, _, mask)| (layers, mask))
        .collect();
    let auto_balance = layout.balance == Balance::Auto;
    if matches!(layout.cp, Cp::Hybrid { .. })
        || (auto.is_empty() && !auto_balance && !tune::exchange_open_anywhere(layout))
    {
        return Ok(Cow::Borrowed(layout));
    }
    let profile = DeviceProfile::of_cluster(&layout.cluster, layout.dtype);
    let mut resolved = layout.clone();
    for (layers, mask) in auto {
        let chosen = tune::tune_class(layout, &layers, mask, options, &profile)?.chosen().clone();
        for l in layers.iter().flat_map(|l| l.start..l.end) {
            resolved.layers[l as usize].strategy = chosen.clone();
        }
    }
    // `balance = auto`: the split the cost model prefers for the strategies just chosen.
    if auto_balance {
        resolved.balance = tune::auto_balance(&resolved, options, &profile)?;
    }
    // Under a window, chunks or regions: the halo exchange or the strategy's own communication, whichever
    // the cost model simulates faster for the strategy and split just resolved.
    Ok(Cow::Owned(tune::auto_exchange(&resolved, options, &profile)?))
}

/// Every plan of a layout: `auto` resolved, then the pipeline. Layers that resolve to a strategy
/// other layers name share their plan (one class per strategy and mask).
pub fn compile(layout: &Layout, options: &PlanOptions) -> Result<PlanSet, PlanError> {
    passes::compile(resolve_auto(layout, options)?.as_ref(), options)
}

/// The plans whose kernels a layout needs, whatever its batch: its own plans, or for hybrid CP
/// the fixed-CP plans of every power-of-two group size up to `dp_cp`, each over one sequence that
/// fills its group (the kernels depend on head dims, dtype, GQA and mask classes, not on lengths).
pub fn kernel_plan_sets(layout: &Layout, options: &PlanOptions) -> Result<Vec<PlanSet>, PlanError> {
    let Cp::Hybrid { dp_cp, max_seqlen_per_rank } = layout.cp else {
        return Ok(vec![compile(layout, options)?]);
    };
    let mut sets = Vec::new();
    let mut size = 1u32;
    while size <= dp_cp {
        // One sequence that fills the group.
        let len = size as u64 * max_seqlen_per_rank;
        let options = PlanOptions { seqlens: Some(vec![len]), padded_seqlens: None, ..options.clone() };
        sets.push(passes::compile(&passes::hybrid::sample_layout(layout, size, len), &options)?);
        size *= 2;
    }
    Ok(sets)
}
