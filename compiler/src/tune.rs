//! Autotuning: every valid CP strategy for a layer class, planned, verified and played by the
//! timeline simulator; the fastest that fits in memory wins, with the reason.
//!
//! Candidates for a fixed CP size `n`: `p2p`, `all_gather`, `a2a` (when the heads split or the
//! KV heads replicate over `n`, as the checker requires), and `a2a+p2p` with every hierarchy
//! `[a, n/a]`, `1 < a < n`, whose first level is such a degree. Each is planned forward and
//! backward; a candidate that fails to plan is listed with its error, not chosen. The balance
//! (zigzag or contiguous) fixes the token split every layer shares, so it is compared for the
//! whole layout ([`balances`]), not per layer. Under a window, chunks or regions, `p2p`, `all_gather` and
//! `a2a+p2p` are each played twice — with the halo exchange of exactly the needed rows and with
//! the strategy's own communication — and keep the faster ([`ExchangeChoice`]); the driver writes
//! that choice into the layers ([`auto_exchange`]).

use crate::compat::te;
use crate::cost::DeviceProfile;
use crate::cost::timeline::simulate;
use crate::ir::Interval;
use crate::ir::stats::stats;
use crate::passes::{PlanError, PlanOptions, compile_class, display_layers};
use crate::spec::{Cp, Exchange, Layout, Mask, Strategy};

/// One strategy's predicted costs for one layer (forward + backward).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub strategy: Strategy,
    pub forward_s: f64,
    pub backward_s: f64,
    /// Communication not hidden behind compute, max over ranks, forward + backward.
    pub exposed_comm_s: f64,
    /// Bytes one rank sends per layer (forward + backward), intra- and inter-node, max over ranks.
    pub intra_sent_bytes: u64,
    pub inter_sent_bytes: u64,
    /// Bytes one rank receives per layer (forward + backward), intra- and inter-node, max over ranks.
    pub intra_received_bytes: u64,
    pub inter_received_bytes: u64,
    /// Plan buffers per rank (max over ranks and directions).
    pub memory_bytes: u64,
    pub fits: bool,
    /// Under a window, chunks or regions, for strategies that can exchange halos: which exchange these
    /// figures are of, against the other.
    pub exchange: Option<ExchangeChoice>,
    /// With a `--for te` target, these figures are of the communication TransformerEngine performs
    /// (whole shards: the ring's and the all-gather's own exchange, never halos); this is attnc's
    /// own plan of the same strategy (forward + backward), what attnc's runtime would run.
    pub own_s: Option<f64>,
}

/// The halo exchange against the strategy's own communication, both simulated (forward +
/// backward per layer); the one that fits in memory is chosen, else the faster, the halo on a tie
/// (it moves fewer bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExchangeChoice {
    pub chosen: Exchange,
    pub halo_s: f64,
    pub full_s: f64,
}

impl Evaluation {
    pub fn total_s(&self) -> f64 {
        self.forward_s + self.backward_s
    }
}

/// The tuning of one layer class.
#[derive(Clone, Debug)]
pub struct ClassTuning {
    pub layers: Vec<Interval>,
    pub mask: Mask,
    pub evaluations: Vec<Evaluation>,
    /// Candidates that could not be planned, with why.
    pub rejected: Vec<(Strategy, String)>,
    /// Candidates the `--for` target does not run, with why (not planned).
    pub excluded: Vec<(Strategy, String)>,
    pub choice: usize,
    pub reason: String,
}

impl ClassTuning {
    pub fn chosen(&self) -> &Strategy {
        &self.evaluations[self.choice].strategy
    }
}

/// Whether an all-to-all of `degree` can split the heads (or replicate the KV heads) per TP rank.
fn a2a_degree_ok(layout: &Layout, degree: u32) -> bool {
    let tp = layout.tp.max(1);
    let (heads, kv) = (layout.model.heads / tp, layout.model.kv_heads / tp);
    heads % degree == 0 && (kv % degree == 0 || (kv < degree && degree % kv == 0))
}

pub fn candidates(layout: &Layout) -> Vec<Strategy> {
    let n = match layout.cp {
        Cp::Fixed { size } => size,
        Cp::Hybrid { .. } => return vec![Strategy::P2p, Strategy::A2a],
    };
    let mut out = vec![Strategy::P2p, Strategy::AllGather];
    if n > 1 && a2a_degree_ok(layout, n) {
        out.push(Strategy::A2a);
    }
    for a in 2..n {
        if n % a == 0 && a2a_degree_ok(layout, a) {
            out.push(Strategy::A2aP2p { hierarchy: vec![a, n / a] });
        }
    }
    out
}

/// Whether a class's exchange is left to the cost model: a window, chunks or regions, a strategy with a
/// point-to-point level over more than one rank, and no exchange fixed yet.
fn exchange_open(layout: &Layout, layers: &[Interval], mask: Mask, strategy: &Strategy) -> bool {
    let local = mask.is_local();
    let ranks = match layout.cp {
        Cp::Fixed { size } => size,
        Cp::Hybrid { .. } => return false,
    };
    let p2p_level = match strategy {
        Strategy::P2p | Strategy::AllGather => ranks > 1,
        Strategy::A2aP2p { hierarchy } => hierarchy.last().is_some_and(|&outer| outer > 1),
        Strategy::A2a | Strategy::Auto => false,
    };
    let open = layers.first().and_then(|l| layout.layers.get(l.start as usize)).is_some_and(|l| l.exchange.is_auto());
    local && p2p_level && open
}

/// `layout` with `layers` set to `exchange`.
fn with_exchange(layout: &Layout, layers: &[Interval], exchange: Exchange) -> Layout {
    let mut out = layout.clone();
    for l in layers.iter().flat_map(|l| l.start..l.end) {
        if let Some(setting) = out.layers.get_mut(l as usize) {
            setting.exchange = exchange;
        }
    }
    out
}

/// One strategy's evaluation; where the exchange is open, the faster of the halo exchange and the
/// strategy's own communication.
fn evaluate(
    layout: &Layout,
    layers: &[Interval],
    mask: Mask,
    strategy: &Strategy,
    base: &PlanOptions,
    profile: &DeviceProfile,
) -> Result<Evaluation, PlanError> {
    if !exchange_open(layout, layers, mask, strategy) {
        return evaluate_one(layout, layers, mask, strategy, base, profile);
    }
    let halo = evaluate_one(&with_exchange(layout, layers, Exchange::Halo), layers, mask, strategy, base, profile)?;
    let full = evaluate_one(&with_exchange(layout, layers, Exchange::Full), layers, mask, strategy, base, profile)?;
    let (halo_s, full_s) = (halo.total_s(), full.total_s());
    // The one that fits in memory; of two that fit (or two that do not), the faster.
    let halo_wins = if halo.fits != full.fits { halo.fits } else { halo_s <= full_s };
    let (chosen, mut evaluation) = if halo_wins { (Exchange::Halo, halo) } else { (Exchange::Full, full) };
    evaluation.exchange = Some(ExchangeChoice { chosen, halo_s, full_s });
    Ok(evaluation)
}

/// The exchange of every class the cost model decides (a window or chunks under `p2p`,
/// `all_gather` or `a2a+p2p`) written into its layers: the halo exchange where it simulates
/// faster than the strategy's own communication. Strategies must be concrete.
pub fn auto_exchange(layout: &Layout, options: &PlanOptions, profile: &DeviceProfile) -> Result<Layout, PlanError> {
    let mut out = layout.clone();
    for (layers, strategy, mask) in crate::passes::layer_classes(layout) {
        if !exchange_open(layout, &layers, mask, &strategy) {
            continue;
        }
        let evaluation = evaluate(layout, &layers, mask, &strategy, options, profile)?;
        if let Some(choice) = evaluation.exchange {
            out = with_exchange(&out, &layers, choice.chosen);
        }
    }
    Ok(out)
}

/// Whether any class of a layout has its exchange left to the cost model.
pub fn exchange_open_anywhere(layout: &Layout) -> bool {
    crate::passes::layer_classes(layout)
        .iter()
        .any(|(layers, strategy, mask)| exchange_open(layout, layers, *mask, strategy))
}

fn evaluate_one(
    layout: &Layout,
    layers: &[Interval],
    mask: Mask,
    strategy: &Strategy,
    base: &PlanOptions,
    profile: &DeviceProfile,
) -> Result<Evaluation, PlanError> {
    let options = PlanOptions { backward: true, verify: false, ..base.clone() };
    let class = compile_class(layout, layers.to_vec(), strategy.clone(), mask, &options)?;
    let mut evaluation = Evaluation {
        strategy: strategy.clone(),
        forward_s: 0.0,
        backward_s: 0.0,
        exposed_comm_s: 0.0,
        intra_sent_bytes: 0,
        inter_sent_bytes: 0,
        intra_received_bytes: 0,
        inter_received_bytes: 0,
        memory_bytes: 0,
        fits: true,
        exchange: None,
        own_s: None,
    };
    for (index, plan) in class.verified().enumerate() {
        let timeline = simulate(plan, profile);
        if index == 0 {
            evaluation.forward_s = timeline.step_s
        } else {
            evaluation.backward_s = timeline.step_s
        }
        evaluation.exposed_comm_s += timeline.ranks.iter().map(|r| r.exposed_comm_s).fold(0.0, f64::max);
        let s = stats(plan);
        let max = |f: &dyn Fn(&crate::ir::stats::RankStats) -> u64| s.ranks.iter().map(f).max().unwrap_or(0);
        evaluation.intra_sent_bytes += max(&|r| r.sent_intra_bytes);
        evaluation.inter_sent_bytes += max(&|r| r.sent_inter_bytes);
        evaluation.intra_received_bytes += max(&|r| r.received_intra_bytes);
        evaluation.inter_received_bytes += max(&|r| r.received_inter_bytes);
        evaluation.memory_bytes = evaluation.memory_bytes.max(max(&|r| r.buffer_bytes));
    }
    evaluation.fits = evaluation.memory_bytes <= profile.memory_bytes;
    Ok(evaluation)
}

/// Evaluates every candidate for one layer class and chooses.
pub fn tune_class(
    layout: &Layout,
    layers: &[Interval],
    mask: Mask,
    options: &PlanOptions,
    profile: &DeviceProfile,
) -> Result<ClassTuning, PlanError> {
    if matches!(layout.cp, Cp::Hybrid { .. }) {
        return Err(PlanError::Hybrid { layout: layout.name.clone() });
    }
    let mut evaluations = Vec::new();
    let mut rejected = Vec::new();
    let mut excluded = Vec::new();
    for strategy in candidates(layout) {
        if let Some(target) = options.target {
            let verdict = te::evaluate(&te::Setting::of_layout(layout, &strategy, mask), &target);
            if !verdict.runs() {
                excluded.push((strategy, format!("{target}: {}", verdict.reasons().join("; "))));
                continue;
            }
        }
        let priced = match options.target {
            // As TransformerEngine runs it: the strategy's own communication, beside attnc's plan.
            Some(_) => {
                evaluate(&with_exchange(layout, layers, Exchange::Full), layers, mask, &strategy, options, profile)
                    .and_then(|mut te| {
                        let own = evaluate(layout, layers, mask, &strategy, options, profile)?;
                        te.own_s = Some(own.total_s());
                        Ok(te)
                    })
            }
            None => evaluate(layout, layers, mask, &strategy, options, profile),
        };
        match priced {
            Ok(evaluation) => evaluations.push(evaluation),
            // Errors of the batch, not of the strategy, end the tuning.
            Err(
                error @ (PlanError::NeedSeqlens { .. } | PlanError::SeqlensNotThd { .. } | PlanError::Partition { .. }),
            ) => return Err(error),
            Err(error) => rejected.push((strategy, error.to_string())),
        }
    }
    let mut order: Vec<usize> = (0..evaluations.len()).filter(|&i| evaluations[i].fits).collect();
    order.sort_by(|&a, &b| evaluations[a].total_s().total_cmp(&evaluations[b].total_s()));
    let Some(&choice) = order.first() else {
        // When the target excludes every candidate, no strategy is the way out: another tp, cp or
        // format may be (the CLI searches for them).
        let help = (evaluations.is_empty() && rejected.is_empty() && !excluded.is_empty())
            .then_some(options.target)
            .flatten()
            .map(|t| {
                format!(
                    "{t} runs none of these strategies here; a change of tp, cp, the format, the dtype or the balance may make one run (`attnc check --for {}` searches for them)",
                    t.flag()
                )
            });
        let reasons = excluded
            .iter()
            .map(|(s, why)| format!("{}: excluded: {why}", s.label()))
            .chain(rejected.iter().map(|(s, why)| format!("{}: {}", s.label(), why.lines().next().unwrap_or(""))))
            .chain(evaluations.iter().map(|e| format!("{}: over memory", e.strategy.label())))
            .collect();
        return Err(PlanError::Auto { layout: layout.name.clone(), layers: display_layers(layers), reasons, help });
    };
    let chosen = &evaluations[choice];
    let ms = |s: f64| format!("{:.3} ms", s * 1e3);
    let reason = match order.get(1) {
        Some(&second) => {
            let runner = &evaluations[second];
            let why = if (runner.exposed_comm_s - chosen.exposed_comm_s) > 0.5 * (runner.total_s() - chosen.total_s()) {
                format!(
                    "it exposes {} of communication against {}",
                    ms(chosen.exposed_comm_s),
                    ms(runner.exposed_comm_s)
                )
            } else {
                "its kernels and transfers are shorter".to_string()
            };
            format!(
                "{} takes {} per layer (fwd+bwd), {:.1}% less than {} at {}: {why}",
                chosen.strategy.label(),
                ms(chosen.total_s()),
                100.0 * (1.0 - chosen.total_s() / runner.total_s()),
                runner.strategy.label(),
                ms(runner.total_s())
            )
        }
        None => format!("{} is the only candidate that fits", chosen.strategy.label()),
    };

    Ok(ClassTuning { layers: layers.to_vec(), mask, evaluations, rejected, excluded, choice, reason })
}

/// The layout's balance against the other one, for the chosen strategies: forward + backward
/// time per layer summed over every layer, with the layout's balance first. `None` for thd
/// (always zigzag per sequence) and for layouts the other balance cannot split.
pub fn balances(
    layout: &Layout,
    classes: &[ClassTuning],
    profile: &DeviceProfile,
) -> Option<[(crate::spec::Balance, f64); 2]> {
    use crate::spec::{Balance, Format};
    if matches!(layout.format, Format::Thd { .. }) {
        return None;
    }
    // The classes were evaluated with the layout's split (`auto` unresolved splits zigzag).
    let current = layout.balance.concrete();
    let other = match current {
        Balance::Zigzag | Balance::Auto => Balance::Contiguous,
        Balance::Contiguous => Balance::Zigzag,
    };
    let mut flipped = layout.clone();
    flipped.balance = other;
    let mut totals = [0.0f64; 2];
    for class in classes {
        let layers: u64 = class.layers.iter().map(|l| l.end - l.start).sum();
        totals[0] += layers as f64 * class.evaluations[class.choice].total_s();
        let e = evaluate(&flipped, &class.layers, class.mask, class.chosen(), &PlanOptions::default(), profile).ok()?;
        totals[1] += layers as f64 * e.total_s();
    }
    Some([(current, totals[0]), (other, totals[1])])
}

/// `balance = auto` resolved for a layout of concrete strategies: the split whose plans the cost
/// model simulates faster, forward + backward summed over every layer (zigzag on a tie, and for
/// thd, which is always split zigzag per sequence).
pub fn auto_balance(
    layout: &Layout,
    options: &PlanOptions,
    profile: &DeviceProfile,
) -> Result<crate::spec::Balance, PlanError> {
    use crate::spec::{Balance, Format};
    if matches!(layout.format, Format::Thd { .. }) {
        return Ok(Balance::Zigzag);
    }
    let mut totals = [0.0f64; 2];
    for (total, balance) in totals.iter_mut().zip([Balance::Zigzag, Balance::Contiguous]) {
        let split = Layout { balance, ..layout.clone() };
        for (layers, strategy, mask) in crate::passes::layer_classes(&split) {
            let n: u64 = layers.iter().map(|l| l.end - l.start).sum();
            *total += n as f64 * evaluate(&split, &layers, mask, &strategy, options, profile)?.total_s();
        }
    }
    Ok(if totals[1] < totals[0] { Balance::Contiguous } else { Balance::Zigzag })
}

/// Tunes every mask class of a layout's attention layers (whatever strategies they name; layers
/// of other kinds have no attention to tune).
pub fn tune(layout: &Layout, options: &PlanOptions, profile: &DeviceProfile) -> Result<Vec<ClassTuning>, PlanError> {
    let mut classes: Vec<(Vec<Interval>, Mask)> = Vec::new();
    for (i, setting) in layout.layers.iter().enumerate() {
        let i = i as u64;
        if !setting.kind.is_attention() {
            continue;
        }
        match classes.iter_mut().find(|(_, mask)| *mask == setting.mask) {
            Some((layers, _)) => match layers.last_mut() {
                Some(last) if last.end == i => last.end = i + 1,
                _ => layers.push(Interval::new(i, i + 1)),
            },
            None => classes.push((vec![Interval::new(i, i + 1)], setting.mask)),
        }
    }
    classes.into_iter().map(|(layers, mask)| tune_class(layout, &layers, mask, options, profile)).collect()
}
