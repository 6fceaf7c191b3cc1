//! The plan IR: every CP rank's operations on named buffers, as one petgraph graph.
//!
//! Nodes are [`Op`]s (loads, transfers, collectives, attention blocks, merges, stores); an op
//! belongs to one rank and one stream. Edges are dependencies inside a rank: data (a read after
//! the write it reads, a write after the reads of the value it replaces) and reuse (added when
//! two logical buffers share one storage slot). Transfers between ranks are not edges: a send
//! and its recv meet by peer and order, as in NCCL, and the verifier matches them.
//!
//! Ids are typed. [`OpId`] wraps a node index of a `StableDiGraph`, so removing a node (the
//! mutation tests do) leaves every other id valid; [`BufId`], [`GroupId`], [`EventId`] index
//! the plan's tables and are never reused. Each rank's program order per stream is kept beside
//! the graph, in `programs`. The JSON artifact (`artifact.rs`) is a separate, versioned format.
//! This module builds and holds plans; it does not decide what they contain (`passes/`) or
//! whether they are right (`verify/`).

pub mod artifact;
pub mod mask;
pub mod needed;
pub mod picture;
pub mod print;
pub mod stats;
pub mod tokens;

use std::collections::HashMap;

use petgraph::stable_graph::StableDiGraph;
use petgraph::visit::{EdgeRef, IntoEdgeReferences};
use serde::{Deserialize, Serialize};

use crate::spec::Dtype;
pub use petgraph::stable_graph::NodeIndex;
use smallvec::{SmallVec, smallvec};

/// The buffers an op reads or writes: up to four inline.
pub type Bufs = SmallVec<[BufId; 4]>;
pub use tokens::{Interval, RowSet, Run, TokenMap, display_intervals, display_layers, layer_ranges};

/// A token map's runs as `0..4, 12..16`.
pub fn display_intervals_of(map: &TokenMap) -> String {
    tokens::display_intervals(&map.runs)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpId(pub NodeIndex);

impl OpId {
    pub fn index(self) -> usize {
        self.0.index()
    }
}

impl std::fmt::Display for OpId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "%{}", self.0.index())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BufId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GroupId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EventId(pub u32);

/// Where an op runs: the compute stream or the dedicated CP (communication) stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stream {
    Compute,
    Cp,
}

impl Stream {
    pub const ALL: [Stream; 2] = [Stream::Compute, Stream::Cp];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Stream::Compute => "compute",
            Stream::Cp => "cp",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Forward,
    Backward,
}

/// What a buffer holds per row and head. Determines its element size and its meaning to the verifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BufKind {
    /// Queries (input dtype).
    Q,
    /// Keys and values together (input dtype), as TransformerEngine's ring sends them.
    Kv,
    /// Backward inputs per query row: q, o, do (input dtype) and lse (fp32).
    QBundle,
    /// A block's partial output and LSE (fp32).
    OPart,
    /// The running output: O, row max and row sum (fp32).
    OAcc,
    /// The normalised output and LSE (o in the input dtype, lse fp32).
    Out,
    /// dQ accumulator (fp32).
    DqAcc,
    /// dK and dV accumulator (fp32); it travels the ring with its KV block.
    DkvAcc,
}

impl BufKind {
    /// Bytes per row and head, for query/key head dim `head_dim` and value head dim `v_head_dim`
    /// (K and V travel at their own widths: MLA's ring sends 192 + 128, not 2·192).
    pub fn bytes_per_row_head(self, head_dim: u32, v_head_dim: u32, dtype: Dtype) -> u64 {
        let (d, dv, e) = (head_dim as u64, v_head_dim as u64, dtype.bytes());
        match self {
            BufKind::Q => d * e,
            BufKind::Kv => (d + dv) * e,
            BufKind::QBundle => (d + 2 * dv) * e + 4,
            BufKind::OPart => (dv + 1) * 4,
            BufKind::OAcc => (dv + 2) * 4,
            BufKind::Out => dv * e + 4,
            BufKind::DqAcc => d * 4,
            BufKind::DkvAcc => (d + dv) * 4,
        }
    }

    /// Whether the verifier tracks which attention blocks contributed to the buffer's rows.
    pub fn is_accumulator(self) -> bool {
        matches!(self, BufKind::OPart | BufKind::OAcc | BufKind::Out | BufKind::DqAcc | BufKind::DkvAcc)
    }

    pub fn name(self) -> &'static str {
        match self {
            BufKind::Q => "q",
            BufKind::Kv => "kv",
            BufKind::QBundle => "qbundle",
            BufKind::OPart => "o_part",
            BufKind::OAcc => "o_acc",
            BufKind::Out => "out",
            BufKind::DqAcc => "dq_acc",
            BufKind::DkvAcc => "dkv_acc",
        }
    }
}

/// A logical buffer on one rank: `rows × heads` of one kind. `storage` names the memory it lives
/// in; buffers of one rank with equal storage alias (the ring's two KV slots).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Buffer {
    pub rank: u32,
    pub name: String,
    pub kind: BufKind,
    pub rows: u64,
    pub heads: u32,
    /// The tokens the buffer holds, row by row, as the lowering intends; the verifier checks it.
    pub tokens: TokenMap,
    pub storage: u32,
    /// A ring step's buffer: these take turns in two storage slots (`assign_slots`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rotating: bool,
    /// A received halo (`lower_halo`): the verifier proves its rows are exactly ones the
    /// receiver's queries read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halo: bool,
    /// The first of the problem's query heads this buffer holds (its heads are consecutive):
    /// nonzero only for the head shards of an all-to-all; a score that reads the head counts
    /// from it. The verifier proves it against the heads the buffer's content holds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub head0: u32,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// A process group of the plan, by CP rank (`members`) and by global rank in the job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub name: String,
    pub members: Vec<u32>,
    pub global: Vec<u32>,
}

/// Input tensors a load slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    Q,
    Kv,
    /// q, o, do and lse (backward).
    QBundle,
}

/// Output tensors a store writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Output {
    /// o and lse.
    O,
    Dq,
    /// dk and dv.
    Dkv,
}

/// How a block is masked, decided from the absolute tokens it covers. Every class is computed
/// with the layout's mask by absolute positions; the class says what the kernel can skip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaskClass {
    /// Every pair is allowed: no masking at all.
    Full,
    /// The causal diagonal cuts the block.
    Causal,
    /// A sliding window's lower edge cuts the block.
    Window,
    /// Only document (THD sequence) boundaries or padding cut the block.
    Document,
}

impl MaskClass {
    pub fn name(self) -> &'static str {
        match self {
            MaskClass::Full => "full",
            MaskClass::Causal => "causal",
            MaskClass::Window => "window",
            MaskClass::Document => "document",
        }
    }
}

/// One side of a point-to-point transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    pub peer: u32,
    pub buf: BufId,
}

/// Direction of an all-to-all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum A2aDir {
    /// Sequence shards in, head shards out; `natural` sorts the gathered tokens into sequence order.
    SeqToHeads { natural: bool },
    /// Head shards in, sequence shards out, in the token order of `like` (this rank's shard).
    HeadsToSeq { like: BufId },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum OpKind {
    /// Slice this rank's rows of an input tensor, RoPE applied at the given positions.
    Load {
        input: Input,
        dst: BufId,
        runs: Vec<Run>,
    },
    /// Clear a buffer (O = 0 and LSE = −inf for outputs, 0 for gradients), shaped like `like`.
    Zero {
        dst: BufId,
        like: BufId,
    },
    /// One NCCL group of sends and recvs; it completes when every part has met its peer.
    SendRecv {
        sends: Vec<Transfer>,
        recvs: Vec<Transfer>,
    },
    AllGather {
        group: GroupId,
        src: BufId,
        dst: BufId,
        natural: bool,
    },
    /// Sums the members' full-size buffers and leaves each the rows of `like`'s tokens.
    ReduceScatter {
        group: GroupId,
        src: BufId,
        dst: BufId,
        like: BufId,
    },
    AllToAll {
        group: GroupId,
        src: BufId,
        dst: BufId,
        dir: A2aDir,
    },
    /// Repeats every KV head `factor` times (GQA under an all-to-all wider than the KV heads).
    RepeatKv {
        src: BufId,
        dst: BufId,
        factor: u32,
    },
    /// Adds `src`'s rows into the rows of `dst` that hold the same tokens (fp32 accumulators:
    /// the dK/dV a halo's receiver computed, returned to the rows' owner).
    AddRows {
        src: BufId,
        dst: BufId,
    },
    /// Copies into `dst` the rows of `src` that hold `dst`'s tokens (a halo cut from a rank's KV
    /// block, or a trimmed ring step cut from the block a holder received, to send to a peer).
    CopyRows {
        src: BufId,
        dst: BufId,
    },
    /// Sums each run of `factor` repeated KV-head gradients back into one head.
    SumHeads {
        src: BufId,
        dst: BufId,
        factor: u32,
    },
    /// Attention of `q_rows` of `q` against `kv_rows` of `kv`, writing O and LSE of those rows to `part`.
    AttnFwd {
        q: BufId,
        q_rows: RowSet,
        kv: BufId,
        kv_rows: RowSet,
        part: BufId,
        class: MaskClass,
    },
    /// LSE-weighted combine of `part`'s rows into `acc` (fp32).
    Merge {
        acc: BufId,
        part: BufId,
        rows: RowSet,
    },
    /// O / rowsum and LSE = max + log(sum), into the output buffer.
    Normalize {
        acc: BufId,
        dst: BufId,
    },
    /// Backward of one block: dQ of `q_rows` into `dq`, dK and dV of `kv_rows` into `dkv` (fp32).
    AttnBwd {
        q: BufId,
        q_rows: RowSet,
        kv: BufId,
        kv_rows: RowSet,
        dq: BufId,
        dkv: BufId,
        class: MaskClass,
    },
    Barrier {
        group: GroupId,
    },
    Store {
        output: Output,
        src: BufId,
        /// With sinks: the O store adds each row's sink term to its softmax (the one place it
        /// enters), the dQ store gathers dsinks; without, false.
        #[serde(default, skip_serializing_if = "is_false")]
        sink: bool,
    },
}

impl OpKind {
    /// Buffers the op reads.
    pub fn reads(&self) -> Bufs {
        match self {
            OpKind::Load { .. } | OpKind::Barrier { .. } => smallvec![],
            OpKind::Zero { like, .. } => smallvec![*like],
            OpKind::SendRecv { sends, .. } => sends.iter().map(|t| t.buf).collect(),
            OpKind::AllGather { src, .. }
            | OpKind::RepeatKv { src, .. }
            | OpKind::CopyRows { src, .. }
            | OpKind::SumHeads { src, .. } => smallvec![*src],
            OpKind::ReduceScatter { src, like, .. } => smallvec![*src, *like],
            OpKind::AddRows { src, dst } => smallvec![*src, *dst],
            OpKind::AllToAll { src, dir, .. } => match dir {
                A2aDir::HeadsToSeq { like } => smallvec![*src, *like],
                A2aDir::SeqToHeads { .. } => smallvec![*src],
            },
            OpKind::AttnFwd { q, kv, .. } => smallvec![*q, *kv],
            OpKind::Merge { acc, part, .. } => smallvec![*acc, *part],
            OpKind::Normalize { acc, .. } => smallvec![*acc],
            OpKind::AttnBwd { q, kv, dq, dkv, .. } => smallvec![*q, *kv, *dq, *dkv],
            OpKind::Store { src, .. } => smallvec![*src],
        }
    }

    /// Buffers the op writes.
    pub fn writes(&self) -> Bufs {
        match self {
            OpKind::Load { dst, .. }
            | OpKind::Zero { dst, .. }
            | OpKind::AllGather { dst, .. }
            | OpKind::ReduceScatter { dst, .. }
            | OpKind::AllToAll { dst, .. }
            | OpKind::RepeatKv { dst, .. }
            | OpKind::SumHeads { dst, .. }
            | OpKind::AddRows { dst, .. }
            | OpKind::CopyRows { dst, .. }
            | OpKind::Normalize { dst, .. } => smallvec![*dst],
            OpKind::SendRecv { recvs, .. } => recvs.iter().map(|t| t.buf).collect(),
            OpKind::AttnFwd { part, .. } => smallvec![*part],
            OpKind::Merge { acc, .. } => smallvec![*acc],
            OpKind::AttnBwd { dq, dkv, .. } => smallvec![*dq, *dkv],
            OpKind::Barrier { .. } | OpKind::Store { .. } => smallvec![],
        }
    }

    /// A data collective's source and destination buffers (all_gather, reduce_scatter, all_to_all).
    pub fn collective_buffers(&self) -> Option<(BufId, BufId)> {
        match self {
            OpKind::AllGather { src, dst, .. }
            | OpKind::ReduceScatter { src, dst, .. }
            | OpKind::AllToAll { src, dst, .. } => Some((*src, *dst)),
            _ => None,
        }
    }

    /// The collective's group, for ops every member of a group must enter together.
    pub fn collective_group(&self) -> Option<GroupId> {
        match self {
            OpKind::AllGather { group, .. }
            | OpKind::ReduceScatter { group, .. }
            | OpKind::AllToAll { group, .. }
            | OpKind::Barrier { group } => Some(*group),
            _ => None,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            OpKind::Load { .. } => "load",
            OpKind::Zero { .. } => "zero",
            OpKind::SendRecv { .. } => "sendrecv",
            OpKind::AllGather { .. } => "all_gather",
            OpKind::ReduceScatter { .. } => "reduce_scatter",
            OpKind::AllToAll { .. } => "all_to_all",
            OpKind::RepeatKv { .. } => "repeat_kv",
            OpKind::SumHeads { .. } => "sum_heads",
            OpKind::AddRows { .. } => "add_rows",
            OpKind::CopyRows { .. } => "copy_rows",
            OpKind::AttnFwd { .. } => "attn_fwd",
            OpKind::Merge { .. } => "merge",
            OpKind::Normalize { .. } => "normalize",
            OpKind::AttnBwd { .. } => "attn_bwd",
            OpKind::Barrier { .. } => "barrier",
            OpKind::Store { .. } => "store",
        }
    }

    /// The stream an op of this kind runs on: transfers and collectives on the CP stream, and
    /// the cuts (`copy_rows`) that prepare a send, so a ring's next transfer does not queue
    /// behind the current step's kernels.
    pub fn default_stream(&self) -> Stream {
        match self {
            OpKind::SendRecv { .. }
            | OpKind::CopyRows { .. }
            | OpKind::AllGather { .. }
            | OpKind::ReduceScatter { .. }
            | OpKind::AllToAll { .. }
            | OpKind::Barrier { .. } => Stream::Cp,
            _ => Stream::Compute,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    pub rank: u32,
    pub stream: Stream,
    pub kind: OpKind,
    /// Events this op waits on before it starts (recorded on the other stream).
    pub waits: Vec<EventId>,
    /// The event this op records when it completes, if another stream waits on it.
    pub record: Option<EventId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dep {
    /// A read after a write, or a write after reads or a write of the same logical buffer.
    Data,
    /// A write into storage that an earlier logical buffer occupied (slot reuse).
    Reuse,
}

/// One sequence of the problem (the whole sequence outside THD): `[start, end)` in the padded
/// buffer, of which the first `len` tokens are real and the rest padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    pub start: u64,
    pub end: u64,
    pub len: u64,
}

/// The attention problem a plan computes, on one tensor-parallel slice: what full attention means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// Rows of the full (unpartitioned, padded) sequence dimension.
    pub tokens: u64,
    pub docs: Vec<Doc>,
    pub causal: bool,
    pub window: Option<u64>,
    /// Chunked attention: causal within chunks of this many tokens of each sequence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<u64>,
    /// A mask that is a band region by region (`expr::regions`), or the hull of a per-head
    /// mask's bands that no named mask covers (one cell, `HeadMasks::hull_regions`); then
    /// `causal` says whether some region is causal, and `window` and `chunk` are `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<crate::spec::Regions>,
    /// A mask that reads the query head (`spec::Mask::Heads`): each class of heads' own band;
    /// `causal` and `window` (or `regions`) are then the classes' hull, which planning and
    /// communication follow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_masks: Option<crate::spec::HeadMasks>,
    /// Query and KV heads of this tensor-parallel slice.
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    /// The value (and output) head dim when it differs from `head_dim` (MLA).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v_head_dim: Option<u32>,
    pub batch: u32,
    pub dtype: Dtype,
    pub thd: bool,
    /// How q and k rotate, when these layers rotate them (base, rotated dims, scaling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rope: Option<crate::spec::Rope>,
    /// The softmax scale when it is not 1/√head_dim (`Problem::scale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub softmax_scale: Option<f64>,
    /// `softcap = X` or `score = EXPR`: every scaled score s becomes the expression's value
    /// before the mask (a soft-cap: X·tanh(s/X)).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::expr::score::deserialize")]
    pub score: Option<&'static crate::spec::Score>,
    /// Learned attention sinks: each row's softmax denominator has one more term, exp(sink_h),
    /// added once where the row's O is stored (and dsinks gathered where its dQ is).
    #[serde(default, skip_serializing_if = "is_false")]
    pub sinks: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Problem {
    /// One unmasked fp32 sequence of `tokens` tokens, batch 1, with `heads` query and KV heads of
    /// `head_dim`: the base that tests and benchmarks change with `..` (masks, docs, dtype).
    pub fn single(tokens: u64, heads: u32, head_dim: u32) -> Problem {
        Problem {
            tokens,
            docs: vec![Doc { start: 0, end: tokens, len: tokens }],
            causal: false,
            window: None,
            chunk: None,
            regions: None,
            head_masks: None,
            heads,
            kv_heads: heads,
            head_dim,
            v_head_dim: None,
            batch: 1,
            dtype: Dtype::Fp32,
            thd: false,
            rope: None,
            softmax_scale: None,
            score: None,
            sinks: false,
        }
    }

    /// The value and output head dim: `v_head_dim`, else `head_dim`.
    pub fn v_dim(&self) -> u32 {
        self.v_head_dim.unwrap_or(self.head_dim)
    }

    /// The dims of each q and k head that RoPE rotates (`Rope::range`); empty without RoPE.
    pub fn rope_range(&self) -> std::ops::Range<usize> {
        let d = self.head_dim as usize;
        match &self.rope {
            None => d..d,
            Some(r) => r.range().start.min(d)..r.range().end.min(d),
        }
    }

    /// The softmax scale multiplying q·k: the model's, else 1/√head_dim.
    pub fn scale(&self) -> f64 {
        self.softmax_scale.unwrap_or(1.0 / (self.head_dim as f64).sqrt())
    }
}

impl Problem {
    /// The index of the sequence a token belongs to (tokens are always inside one).
    pub fn doc_index(&self, token: u64) -> usize {
        self.docs.partition_point(|d| d.end <= token).min(self.docs.len() - 1)
    }

    /// Whether the mask may hide keys far from a query (a window, chunks, or regions): then the
    /// halo exchange and the trimmed ring, which move only needed rows, can beat whole shards.
    pub fn local_mask(&self) -> bool {
        self.window.is_some() || self.chunk.is_some() || self.regions.is_some()
    }

    /// The sequence a token belongs to.
    pub fn doc_of(&self, token: u64) -> Doc {
        self.docs[self.doc_index(token)]
    }

    /// The RoPE position of a token: its index inside its sequence.
    pub fn position(&self, token: u64) -> u64 {
        token - self.doc_of(token).start
    }

    /// Query heads per KV head.
    pub fn group_size(&self) -> u32 {
        self.heads / self.kv_heads.max(1)
    }
}

/// What the plan is of: its layout, layers and settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub layout: String,
    /// The layers this plan serves, as half-open ranges.
    pub layers: Vec<Interval>,
    pub strategy: String,
    pub hierarchy: Vec<u32>,
    pub mask: String,
    pub direction: Direction,
    pub cp: u32,
    /// The job's ranks per node, to tell intra-node from inter-node links.
    pub gpus_per_node: u32,
}

/// A compiled plan for one layer class and one direction.
#[derive(Clone, Debug)]
pub struct Plan {
    pub header: Header,
    pub problem: Problem,
    /// The tokens each CP rank owns (its rows of q, k, v and of every output), in local order.
    pub partition: Vec<TokenMap>,
    pub groups: Vec<Group>,
    pub buffers: Vec<Buffer>,
    pub graph: StableDiGraph<Op, Dep>,
    /// Per rank, per stream: ops in issue order.
    pub programs: Vec<[Vec<OpId>; 2]>,
    pub n_events: u32,
}

impl Plan {
    pub fn new(header: Header, problem: Problem, partition: Vec<TokenMap>) -> Plan {
        let cp = header.cp as usize;
        Plan {
            header,
            problem,
            partition,
            groups: Vec::new(),
            buffers: Vec::new(),
            graph: StableDiGraph::new(),
            programs: vec![[Vec::new(), Vec::new()]; cp],
            n_events: 0,
        }
    }

    pub fn op(&self, id: OpId) -> &Op {
        &self.graph[id.0]
    }

    pub fn op_mut(&mut self, id: OpId) -> &mut Op {
        &mut self.graph[id.0]
    }

    pub fn buf(&self, id: BufId) -> &Buffer {
        &self.buffers[id.0 as usize]
    }

    pub fn group(&self, id: GroupId) -> &Group {
        &self.groups[id.0 as usize]
    }

    pub fn add_group(&mut self, group: Group) -> GroupId {
        self.groups.push(group);
        GroupId(self.groups.len() as u32 - 1)
    }

    pub fn add_buffer(
        &mut self,
        rank: u32,
        name: impl Into<String>,
        kind: BufKind,
        tokens: TokenMap,
        heads: u32,
    ) -> BufId {
        let id = self.buffers.len() as u32;
        let rows = tokens.rows();
        self.buffers.push(Buffer {
            rank,
            name: name.into(),
            kind,
            rows,
            heads,
            tokens,
            storage: id,
            rotating: false,
            halo: false,
            head0: 0,
        });
        BufId(id)
    }

    /// Every op id, in node order.
    pub fn op_ids(&self) -> impl Iterator<Item = OpId> + '_ {
        self.graph.node_indices().map(OpId)
    }

    /// The ops of one rank in issue order, compute stream first.
    pub fn rank_ops(&self, rank: u32) -> impl Iterator<Item = OpId> + '_ {
        self.programs[rank as usize].iter().flatten().copied()
    }

    /// Appends an op to its rank's program on its stream. Dependencies are added by the caller.
    pub fn push_op(&mut self, rank: u32, kind: OpKind) -> OpId {
        let stream = kind.default_stream();
        let id = OpId(self.graph.add_node(Op { rank, stream, kind, waits: Vec::new(), record: None }));
        self.programs[rank as usize][stream.index()].push(id);
        id
    }

    pub fn add_dep(&mut self, from: OpId, to: OpId, dep: Dep) {
        // Look among `to`'s incoming edges: an op has few, while one op (a load of q) may feed
        // every block of a ring (scanning its outgoing edges would make a ring quadratic).
        let exists = self
            .graph
            .edges_directed(to.0, petgraph::Direction::Incoming)
            .any(|e| e.source() == from.0 && *e.weight() == dep);
        if from != to && !exists {
            self.graph.add_edge(from.0, to.0, dep);
        }
    }

    /// Dependencies into `id`.
    pub fn deps_of(&self, id: OpId) -> impl Iterator<Item = (OpId, Dep)> + '_ {
        self.graph.edges_directed(id.0, petgraph::Direction::Incoming).map(|e| (OpId(e.source()), *e.weight()))
    }

    /// Every dependency edge as (from, to, kind).
    pub fn deps(&self) -> impl Iterator<Item = (OpId, OpId, Dep)> + '_ {
        (&self.graph).edge_references().map(|e| (OpId(e.source()), OpId(e.target()), *e.weight()))
    }

    /// Removes an op, its edges and its place in the program; other ids stay valid.
    pub fn remove_op(&mut self, id: OpId) {
        let rank = self.graph[id.0].rank as usize;
        for program in &mut self.programs[rank] {
            program.retain(|&o| o != id);
        }
        self.graph.remove_node(id.0);
    }

    pub fn new_event(&mut self) -> EventId {
        self.n_events += 1;
        EventId(self.n_events - 1)
    }

    pub fn bytes_of(&self, id: BufId) -> u64 {
        let b = self.buf(id);
        b.rows
            * b.heads as u64
            * b.kind.bytes_per_row_head(self.problem.head_dim, self.problem.v_dim(), self.problem.dtype)
            * self.problem.batch as u64
    }

    /// The node (`global rank / gpus_per_node`) of a CP rank, from the plan's CP group.
    pub fn node_of(&self, rank: u32) -> u32 {
        let global = self.groups.first().map_or(rank, |g| g.global[rank as usize]);
        global / self.header.gpus_per_node.max(1)
    }
}

/// Builds plans op by op and adds data dependencies from what each op reads and writes, per
/// logical buffer: read after write, write after read, write after write.
pub struct Builder {
    pub plan: Plan,
    last_write: HashMap<BufId, OpId>,
    reads_since: HashMap<BufId, Vec<OpId>>,
}

impl Builder {
    pub fn new(plan: Plan) -> Builder {
        Builder { plan, last_write: HashMap::new(), reads_since: HashMap::new() }
    }

    pub fn buffer(&mut self, rank: u32, name: impl Into<String>, kind: BufKind, tokens: TokenMap, heads: u32) -> BufId {
        self.plan.add_buffer(rank, name, kind, tokens, heads)
    }

    pub fn push(&mut self, rank: u32, kind: OpKind) -> OpId {
        let (reads, writes) = (kind.reads(), kind.writes());
        let id = self.plan.push_op(rank, kind);
        for b in &reads {
            if let Some(&w) = self.last_write.get(b) {
                self.plan.add_dep(w, id, Dep::Data);
            }
        }
        for b in &writes {
            if let Some(&w) = self.last_write.get(b) {
                self.plan.add_dep(w, id, Dep::Data);
            }
            for r in self.reads_since.remove(b).unwrap_or_default() {
                self.plan.add_dep(r, id, Dep::Data);
            }
        }
        for b in reads {
            self.reads_since.entry(b).or_default().push(id);
        }
        for b in writes {
            self.last_write.insert(b, id);
            // A read-modify-write counts as a read of the new value too.
            self.reads_since.insert(b, Vec::new());
        }
        id
    }

    pub fn finish(self) -> Plan {
        self.plan
    }
}
