//! The JSON documents of `attnc simulate --emit json` and `attnc tune --emit json`, typed: layers
//! as half-open ranges, strategies and masks as a spec writes them, times in seconds, bytes as
//! integers. The CLI prints its text from the same values.

use serde::{Deserialize, Serialize};

use crate::ir::Interval;
use crate::passes::mask_name;
use crate::spec::{Exchange, Strategy};
use crate::tune::{ClassTuning, Evaluation};

use crate::cost::timeline::Timeline;

/// The version of both documents; bumped when a field changes meaning.
pub const REPORT_VERSION: u32 = 1;

/// A strategy as a spec writes it, with the a2a+p2p levels apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyName {
    /// `p2p`, `all_gather`, `a2a` or `a2a+p2p`.
    pub name: String,
    /// The a2a+p2p levels (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hierarchy: Vec<u32>,
}

impl From<&Strategy> for StrategyName {
    fn from(strategy: &Strategy) -> StrategyName {
        let hierarchy = match strategy {
            Strategy::A2aP2p { hierarchy } => hierarchy.clone(),
            _ => Vec::new(),
        };
        StrategyName { name: strategy.name().to_string(), hierarchy }
    }
}

/// The number of layers in half-open ranges.
pub fn layer_count(layers: &[Interval]) -> u64 {
    layers.iter().map(|l| l.end - l.start).sum()
}

/// `attnc simulate --emit json` of a fixed-CP layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulateReport {
    pub version: u32,
    pub layout: String,
    /// The device profile: `<gpu> preset` or `profile <path>`.
    pub profile: String,
    pub classes: Vec<SimulatedClass>,
    /// Every layer of the model once, one after another (summed over pipeline stages).
    pub model: ModelTime,
}

/// One layer class: one layer's forward (and backward) step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulatedClass {
    pub layers: Vec<Interval>,
    pub layer_count: u64,
    pub strategy: StrategyName,
    pub mask: String,
    pub cp: u32,
    pub forward: SimulatedPass,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backward: Option<SimulatedPass>,
}

/// One plan played: the step (first op start to last op end) and each rank's busy times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulatedPass {
    pub step_s: f64,
    pub ranks: Vec<RankTime>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankTime {
    pub rank: u32,
    pub compute_s: f64,
    pub comm_s: f64,
    /// Communication not overlapped by compute.
    pub exposed_comm_s: f64,
    /// Step time minus the time either stream is busy.
    pub idle_s: f64,
}

impl From<&Timeline> for SimulatedPass {
    fn from(t: &Timeline) -> SimulatedPass {
        SimulatedPass {
            step_s: t.step_s,
            ranks: t
                .ranks
                .iter()
                .map(|r| RankTime {
                    rank: r.rank,
                    compute_s: r.compute_s,
                    comm_s: r.comm_s,
                    exposed_comm_s: r.exposed_comm_s,
                    idle_s: r.idle_s,
                })
                .collect(),
        }
    }
}

/// The whole model's attention: each class's layer time times its layer count, summed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelTime {
    pub layers: u64,
    pub forward_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backward_s: Option<f64>,
}

impl ModelTime {
    /// The total of [`SimulatedClass`]es (only those simulated: `--layer` picks one).
    pub fn of(classes: &[SimulatedClass]) -> ModelTime {
        let backward = classes.iter().all(|c| c.backward.is_some()) && !classes.is_empty();
        ModelTime {
            layers: classes.iter().map(|c| c.layer_count).sum(),
            forward_s: classes.iter().map(|c| c.layer_count as f64 * c.forward.step_s).sum(),
            backward_s: backward.then(|| {
                classes.iter().map(|c| c.layer_count as f64 * c.backward.as_ref().map_or(0.0, |b| b.step_s)).sum()
            }),
        }
    }

    pub fn total_s(&self) -> f64 {
        self.forward_s + self.backward_s.unwrap_or(0.0)
    }
}

/// `attnc simulate --emit json` of a hybrid-CP batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridSimulateReport {
    pub version: u32,
    pub layout: String,
    pub profile: String,
    pub dp_cp: u32,
    pub sub_samples: usize,
    pub classes: Vec<HybridSimulatedClass>,
    /// Every layer's batch, one layer after another.
    pub model_s: f64,
    pub layers: u64,
}

/// One layer class of a hybrid batch: its steps, each as long as its slowest group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridSimulatedClass {
    pub layers: Vec<Interval>,
    pub layer_count: u64,
    pub strategy: StrategyName,
    pub mask: String,
    pub steps: Vec<HybridStep>,
    /// One layer's batch: the steps one after another.
    pub batch_s: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridStep {
    pub step_s: f64,
    pub groups: Vec<HybridGroupTime>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HybridGroupTime {
    pub first_gpu: u32,
    pub size: u32,
    pub sub_samples: usize,
    pub busy_s: f64,
}

/// `attnc tune --emit json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    pub version: u32,
    pub layout: String,
    pub profile: String,
    /// The `--for` target (`te=2.10`, …): candidates are what it runs, priced as it runs them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub classes: Vec<TunedClass>,
}

/// One layer class: every candidate, per layer, forward + backward.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedClass {
    pub layers: Vec<Interval>,
    pub mask: String,
    pub candidates: Vec<Candidate>,
    /// Candidates the target does not run, with why (not planned).
    pub excluded: Vec<Refused>,
    /// Candidates that could not be planned, with why.
    pub rejected: Vec<Refused>,
    pub choice: StrategyName,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refused {
    pub strategy: StrategyName,
    pub why: String,
}

/// One candidate's predicted costs per layer; bytes per rank, max over ranks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub strategy: StrategyName,
    pub chosen: bool,
    pub forward_s: f64,
    pub backward_s: f64,
    pub exposed_comm_s: f64,
    pub intra_sent_bytes: u64,
    pub intra_received_bytes: u64,
    pub inter_sent_bytes: u64,
    pub inter_received_bytes: u64,
    pub memory_bytes: u64,
    pub fits: bool,
    /// Under a window or chunks: the halo exchange against the strategy's own communication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<ExchangeTimes>,
    /// Under a target: attnc's own plan of the same strategy (forward + backward).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_s: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExchangeTimes {
    /// `halo` or `full` (the strategy's own communication), the one these figures are of.
    pub chosen: String,
    pub halo_s: f64,
    pub full_s: f64,
}

fn candidate(e: &Evaluation, chosen: bool) -> Candidate {
    Candidate {
        strategy: (&e.strategy).into(),
        chosen,
        forward_s: e.forward_s,
        backward_s: e.backward_s,
        exposed_comm_s: e.exposed_comm_s,
        intra_sent_bytes: e.intra_sent_bytes,
        intra_received_bytes: e.intra_received_bytes,
        inter_sent_bytes: e.inter_sent_bytes,
        inter_received_bytes: e.inter_received_bytes,
        memory_bytes: e.memory_bytes,
        fits: e.fits,
        exchange: e.exchange.map(|x| ExchangeTimes {
            chosen: if x.chosen == Exchange::Halo { "halo" } else { "full" }.to_string(),
            halo_s: x.halo_s,
            full_s: x.full_s,
        }),
        own_s: e.own_s,
    }
}

impl From<&ClassTuning> for TunedClass {
    fn from(c: &ClassTuning) -> TunedClass {
        let refused = |list: &[(Strategy, String)]| {
            list.iter().map(|(s, why)| Refused { strategy: s.into(), why: why.clone() }).collect()
        };
        TunedClass {
            layers: c.layers.clone(),
            mask: mask_name(c.mask),
            candidates: c.evaluations.iter().enumerate().map(|(i, e)| candidate(e, i == c.choice)).collect(),
            excluded: refused(&c.excluded),
            rejected: refused(&c.rejected),
            choice: c.chosen().into(),
            reason: c.reason.clone(),
        }
    }
}
