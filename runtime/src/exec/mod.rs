//! The executor: a verified plan on a [`Device`], every rank's two streams issued by two host
//! threads. It is the only one: the CPU is a device (`device::host`, any host kernel set), the
//! GPU another (`cuda::device`).
//!
//! Setup allocates each storage once (plane layouts, `device::layout`), builds every attention
//! op's launch tables and uploads them once per rank. Then each (rank, stream) thread walks its
//! program in order: an op first waits for the events it names — on the host until the recording
//! op has been *issued*, then on the device for the point it recorded — and, after issuing the
//! op, records its own event. On a GPU the threads only enqueue; streams and events order the
//! work, so the plan's overlap of transfers and compute is the device's. Loads prepare rows on the
//! host (dtype rounding, RoPE, D = rowsum(dO ∘ O)) and upload them; stores download and scatter.
//!
//! Transfers between ranks of one device: the sender offers its buffer's planes and a signal of
//! its CP stream; the receiver's CP stream waits for that signal, copies, and signals back; the
//! sender's CP stream waits for the copy before it may overwrite the buffer (NCCL's semantics for
//! grouped send/recv). Between processes (`Ranks::One`), the planes travel through a [`Remote`]
//! (NCCL). Collectives are in `collective.rs`; head repetition is 2-D copies, head sums are
//! `Device::add_2d`. Barriers meet like collectives without data (between processes they are
//! refused before anything runs). Threads, panics, deliberate faults and the watchdog's report of
//! every rank are `watch.rs`'s; the host-side rows of loads and stores are `rows.rs`'s.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use attnc_compiler::ir::{BufId, Buffer, GroupId, OpId, OpKind, Plan, Stream};
use attnc_compiler::verify::Verified;

mod collective;
mod rows;
mod watch;

pub use crate::device::remote::{Collective, CollectiveKind, Remote, Transfer};

pub use attnc_compiler::kernel::launch::op_tables;
use rows::Shape;
pub use rows::{ExecInputs, ExecOutputs, Extent, Fault, RunOptions, Span, elems};
pub(crate) use rows::{Rope as RopeTable, rope};
pub(crate) use rows::{RowIndex, tokens_in_order};

use crate::RuntimeError;
use crate::device::{
    BwdCall, Device, DeviceError, Dims, Elem, FwdCall, LaunchTable, PlaneKind, Rows2d, buffer_bytes, plane,
};
use crate::kernels::to_bits;
use collective::Meeting;
use rows::{load_planes, store_rows};
use watch::Progress;

/// Which ranks of a plan this process runs, and how their transfers travel.
pub enum Ranks<'a, D: Device> {
    /// Every rank, on one device: transfers are device-to-device copies between ranks' memory.
    All,
    /// One rank of a job of one process per rank (`attnc launch`, torchrun): transfers go through
    /// `remote` (NCCL on the rank's CP stream); only this rank's buffers are allocated.
    One { rank: u32, remote: &'a dyn Remote<D> },
}

impl<D: Device> Ranks<'_, D> {
    fn runs(&self, rank: u32) -> bool {
        match self {
            Ranks::All => true,
            Ranks::One { rank: mine, .. } => *mine == rank,
        }
    }
}

/// Why a plan cannot run on the device executor (`None`: it can), with every rank in this process
/// or one rank per process: barriers meet on one device, not yet between processes.
pub fn unsupported(plan: &Plan, one_rank_per_process: bool) -> Option<String> {
    let barrier = plan.graph.node_weights().any(|op| matches!(op.kind, OpKind::Barrier { .. }));
    (barrier && one_rank_per_process).then(|| {
        "the device executor with one process per rank does not run plans with a barrier (hybrid-CP steps); run every rank in one process".to_string()
    })
}

/// A launch of an attention op and where its table sits in the rank's table memory.
struct Launch {
    table: LaunchTable,
    offsets: [usize; 4],
    /// A later launch over heads an earlier one of its op wrote: it writes a scratch partial,
    /// merged into the op's (classes of a per-head mask write disjoint heads of the partial).
    merges: bool,
}

/// A send waiting for its receiver: the planes, the sender's ready point, and the receiver's
/// answer (the point after its copy).
struct Offer<D: Device> {
    planes: Vec<(u32, usize, usize)>,
    ready: D::Signal,
    done: Arc<(Mutex<Option<D::Signal>>, Condvar)>,
}

/// An issued op with the device's stamps before and after it.
type Stamped<D> = (u32, Stream, OpId, <D as Device>::Stamp, <D as Device>::Stamp);

/// The o and lse planes of a partial or running output.
type Planes<'a, M> = ((&'a M, usize), (&'a M, usize));

/// A recorded event's signal, once its op has been issued.
type EventSlot<D> = Mutex<Option<Arc<<D as Device>::Signal>>>;
/// Offers waiting per (sender, receiver).
type Mailbox<D> = Mutex<HashMap<(u32, u32), VecDeque<Offer<D>>>>;

struct Run<'a, D: Device> {
    plan: &'a Plan,
    device: &'a D,
    ranks: &'a Ranks<'a, D>,
    inputs: &'a ExecInputs<'a>,
    options: &'a RunOptions,
    /// One allocation per storage of the ranks this process runs.
    storage: Vec<Option<D::Mem>>,
    /// Per rank: its launch tables' memory, and a scratch partial output for second launches.
    tables: Vec<Option<D::Mem>>,
    /// Per rank and stream: staging for collectives between processes.
    staging_mem: Vec<[Option<D::Mem>; 2]>,
    scratch: Vec<Option<D::Mem>>,
    /// Per rank: the learned score parameters' gradients, fp32 `[heads][params]` (backward plans
    /// of a score with parameters).
    dparams: Vec<Option<D::Mem>>,
    launches: HashMap<OpId, Vec<Launch>>,
    /// Per rank and event: the signal of its record, once issued.
    events: Vec<Vec<EventSlot<D>>>,
    issued: Condvar,
    issued_lock: Mutex<()>,
    mailbox: Mailbox<D>,
    posted: Condvar,
    /// What the verifier proved: each group's collectives matched across members (instance k of
    /// a collective is the k-th entry of every member).
    proof: &'a Verified,
    meetings: Mutex<HashMap<(GroupId, usize), Meeting<D>>>,
    met: Condvar,
    abort: AtomicBool,
    failure: Mutex<Option<RuntimeError>>,
    outputs: Mutex<ExecOutputs>,
    /// Per issued op: its rank, stream, id, and the device's stamps around it.
    stamps: Mutex<Vec<Stamped<D>>>,
    /// Per rank and stream, the op being run or waited for (the watchdog's report).
    progress: Progress,
}

/// Runs the ranks `ranks` names of a verified plan (the proof owns its plan: no plan runs with
/// another's proof); the outputs hold the rows those ranks store (zeros, and −inf LSE, elsewhere).
pub fn execute<D: Device>(
    proof: &Verified,
    device: &D,
    inputs: &ExecInputs<'_>,
    options: &RunOptions,
    ranks: &Ranks<'_, D>,
) -> Result<(ExecOutputs, Vec<Span>), RuntimeError> {
    let plan = proof.plan();
    if proof.stage() != attnc_compiler::verify::Stage::Scheduled {
        return Err(RuntimeError::Plan(
            "the plan was verified before scheduling: only a scheduled plan (streams and events) runs".into(),
        ));
    }
    if let Some(why) = unsupported(plan, matches!(ranks, Ranks::One { .. })) {
        return Err(RuntimeError::Plan(why));
    }
    let p = &plan.problem;
    let (batch, d, dv) = (p.batch as usize, p.head_dim as usize, p.v_dim() as usize);
    let setup = |what: &str, e: DeviceError| RuntimeError::Plan(format!("device setup, {what}: {e}"));
    // Storages: sized for the largest buffer they hold, on the rank of their buffers.
    let n_storage = plan.buffers.iter().map(|b| b.storage as usize + 1).max().unwrap_or(0);
    let mut sizes = vec![(0u32, 0usize); n_storage];
    for b in &plan.buffers {
        let s = &mut sizes[b.storage as usize];
        *s = (b.rank, s.1.max(buffer_bytes(b, Dims::of(p))));
    }
    let storage = sizes
        .iter()
        .map(|&(rank, bytes)| ranks.runs(rank).then(|| device.alloc(rank, bytes.max(256))).transpose())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| setup("allocating buffers", e))?;
    // Launch tables of every attention op, and scratch for blocks of several launches.
    let cp = plan.header.cp as usize;
    let mut launches = HashMap::new();
    let mut table_bytes: Vec<Vec<u8>> = vec![Vec::new(); cp];
    let mut scratch_bytes = vec![0usize; cp];
    for rank in (0..cp as u32).filter(|&r| ranks.runs(r)) {
        for id in plan.rank_ops(rank) {
            let Some(tables) = op_tables(plan, id) else { continue };
            let merges: Vec<bool> =
                (0..tables.len()).map(|i| tables[..i].iter().any(|u| u.heads == tables[i].heads)).collect();
            if let OpKind::AttnFwd { part, .. } = &plan.op(id).kind
                && merges.contains(&true)
            {
                let r = rank as usize;
                scratch_bytes[r] = scratch_bytes[r].max(buffer_bytes(plan.buf(*part), Dims::of(p)));
            }
            let bytes = &mut table_bytes[rank as usize];
            let encoded: Vec<Launch> = tables
                .into_iter()
                .zip(merges)
                .map(|(table, merges)| {
                    let (b, offsets) = crate::device::encode(&table);
                    let base = bytes.len();
                    bytes.extend_from_slice(&b);
                    Launch { table, offsets: offsets.map(|o| base + o), merges }
                })
                .collect();
            launches.insert(id, encoded);
        }
    }
    let mut tables = Vec::new();
    let mut scratch = Vec::new();
    for rank in 0..cp {
        let t = if table_bytes[rank].is_empty() || !ranks.runs(rank as u32) {
            None
        } else {
            let mem = device.alloc(rank as u32, table_bytes[rank].len()).map_err(|e| setup("launch tables", e))?;
            device.upload(rank as u32, 0, (&mem, 0), &table_bytes[rank]).map_err(|e| setup("launch tables", e))?;
            Some(mem)
        };
        tables.push(t);
        scratch.push(if scratch_bytes[rank] > 0 && ranks.runs(rank as u32) {
            Some(device.alloc(rank as u32, scratch_bytes[rank]).map_err(|e| setup("scratch", e))?)
        } else {
            None
        });
    }
    // The learned parameters' gradients, zeroed on the compute stream before any kernel.
    let n_params = p.score.map_or(0, |s| s.params.len());
    let backward = plan.header.direction == attnc_compiler::ir::Direction::Backward;
    let mut dparams = Vec::new();
    for rank in 0..cp as u32 {
        dparams.push(if backward && n_params > 0 && ranks.runs(rank) {
            let count = p.heads as usize * n_params;
            let mem = device.alloc(rank, count * 4).map_err(|e| setup("parameter gradients", e))?;
            device
                .fill(rank, Stream::Compute.index(), (&mem, 0), count, 0.0)
                .map_err(|e| setup("parameter gradients", e))?;
            Some(mem)
        } else {
            None
        });
    }
    let t = inputs.extent.map_or(p.tokens as usize, Extent::rows);
    let (b, h, hk) = (batch, p.heads as usize, p.kv_heads as usize);
    let mut run = Run {
        plan,
        device,
        ranks,
        inputs,
        options,
        storage,
        tables,
        staging_mem: (0..cp).map(|_| [None, None]).collect(),
        scratch,
        dparams,
        launches,
        events: (0..cp).map(|_| (0..plan.n_events).map(|_| Mutex::new(None)).collect()).collect(),
        issued: Condvar::new(),
        issued_lock: Mutex::new(()),
        mailbox: Mutex::new(HashMap::new()),
        posted: Condvar::new(),
        proof,
        meetings: Mutex::new(HashMap::new()),
        met: Condvar::new(),
        abort: AtomicBool::new(false),
        progress: Progress::new(plan.header.cp),
        failure: Mutex::new(None),
        outputs: Mutex::new(ExecOutputs {
            o: vec![0.0; b * t * h * dv],
            lse: vec![f32::NEG_INFINITY; b * h * t],
            dq: vec![0.0; b * t * h * d],
            dk: vec![0.0; b * t * hk * d],
            dv: vec![0.0; b * t * hk * dv],
            dsinks: vec![0.0; if plan.problem.sinks { h } else { 0 }],
            dparams: vec![0.0; if backward { h * n_params } else { 0 }],
        }),
        stamps: Mutex::new(Vec::new()),
    };
    // Collectives between processes pack and receive through staging, one per rank and stream,
    // sized for the largest of them.
    if let Ranks::One { rank, .. } = ranks {
        let mut sizes = [0usize; 2];
        for id in plan.rank_ops(*rank) {
            let (out, inc) = run.staging(id);
            let bytes: usize = out.iter().chain(&inc).map(|(_, b)| buffer_bytes(b, Dims::of(p))).sum();
            let s = &mut sizes[plan.op(id).stream.index()];
            *s = (*s).max(bytes);
        }
        for (stream, bytes) in sizes.into_iter().enumerate() {
            if bytes > 0 {
                let mem = device.alloc(*rank, bytes).map_err(|e| setup("collective staging", e))?;
                run.staging_mem[*rank as usize][stream] = Some(mem);
            }
        }
    }
    let run = run;
    let first = (0..plan.header.cp).find(|&r| ranks.runs(r)).unwrap_or(0);
    let origin = device.stamp(first, 0).map_err(|e| setup("timing", e))?;
    let local = (0..plan.header.cp).filter(|&r| ranks.runs(r));
    watch::on_stream_threads("device-rank", local, |rank, stream| run.worker(rank, stream));
    if let Some(error) = run.failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    // The learned parameters' gradients of the ranks run here, summed.
    let mut outputs = run.outputs.into_inner().unwrap_or_else(|e| e.into_inner());
    for (rank, mem) in run.dparams.iter().enumerate() {
        let Some(mem) = mem else { continue };
        let bytes = device
            .download(rank as u32, Stream::Compute.index(), (mem, 0), outputs.dparams.len() * 4)
            .map_err(|e| setup("parameter gradients", e))?;
        let values: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
        outputs.dparams.iter_mut().zip(values).for_each(|(x, v)| *x += v);
    }
    // The timeline as the device ran it: every op between its stamps, from the origin.
    let mut spans = Vec::new();
    for (rank, stream, op, begin, end) in run.stamps.into_inner().unwrap_or_else(|e| e.into_inner()) {
        let start = device.seconds(&origin, &begin).map_err(|e| setup("timing", e))?;
        let end = device.seconds(&origin, &end).map_err(|e| setup("timing", e))?;
        spans.push(Span { rank, stream, op, start, end });
    }
    Ok((outputs, spans))
}

impl<D: Device> Run<'_, D> {
    fn fail(&self, error: RuntimeError) {
        let mut f = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            *f = Some(error);
        }
        self.abort.store(true, Ordering::SeqCst);
        self.issued.notify_all();
        self.posted.notify_all();
        self.met.notify_all();
    }

    fn describe(&self, id: OpId) -> String {
        watch::describe(self.plan, id)
    }

    fn worker(&self, rank: u32, stream: Stream) {
        for &id in &self.plan.programs[rank as usize][stream.index()] {
            if self.abort.load(Ordering::SeqCst) {
                return;
            }
            self.progress.at(rank, stream, id);
            let op = self.plan.op(id);
            let stamp = || self.device.stamp(rank, stream.index()).map_err(|e| self.op_error(rank, id).at(e));
            let mut stamps = None;
            // Stamps after the waits and around the op: on a GPU they time the op as it ran. A
            // panic (a device wrapper's, an injected one) fails this rank and aborts the others.
            let result = watch::catching(self.plan, rank, id, || {
                for e in &op.waits {
                    self.wait_event(rank, stream, id, e.0 as usize)?;
                }
                let begin = stamp()?;
                watch::inject(self.plan, self.options, &self.abort, rank, id)?;
                self.run_op(rank, stream, id)?;
                let end = stamp()?;
                if let Some(e) = op.record {
                    self.record_event(rank, stream, id, e.0 as usize)?;
                }
                stamps = Some((begin, end));
                Ok(())
            });
            match result {
                Ok(()) => {
                    let (begin, end) = stamps.expect("stamped");
                    self.stamps.lock().unwrap_or_else(|e| e.into_inner()).push((rank, stream, id, begin, end))
                }
                Err(error) => {
                    self.fail(error);
                    return;
                }
            }
        }
        self.progress.done(rank, stream);
    }

    /// The error of op `id` on `rank`: `.at(e)` names the rank and the op before `e`.
    fn op_error(&self, rank: u32, id: OpId) -> OpError<'_, D> {
        OpError { run: self, rank, id }
    }

    /// Blocks until `ready` holds, polling the abort flag; at the watchdog limit, the error says
    /// what op `id` of `rank` waited for and what every rank was doing.
    fn block<T>(
        &self,
        (rank, id): (u32, OpId),
        lock: &Mutex<T>,
        cv: &Condvar,
        what: impl Fn() -> String,
        mut ready: impl FnMut(&mut T) -> bool,
    ) -> Result<(), RuntimeError> {
        let start = Instant::now();
        let mut guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        while !ready(&mut guard) {
            if self.abort.load(Ordering::SeqCst) {
                return Err(RuntimeError::Aborted);
            }
            if start.elapsed() > self.options.timeout {
                return Err(self.progress.watchdog(self.plan, rank, id, what(), self.options.timeout));
            }
            guard = cv.wait_timeout(guard, Duration::from_millis(20)).unwrap_or_else(|e| e.into_inner()).0;
        }
        Ok(())
    }

    fn wait_event(&self, rank: u32, stream: Stream, id: OpId, event: usize) -> Result<(), RuntimeError> {
        let slot = &self.events[rank as usize][event];
        let mut signal = None;
        self.block(
            (rank, id),
            &self.issued_lock,
            &self.issued,
            || format!("event e{event}"),
            |_| {
                signal = slot.lock().unwrap_or_else(|e| e.into_inner()).clone();
                signal.is_some()
            },
        )?;
        let signal = signal.expect("ready");
        self.device.wait(rank, stream.index(), &signal).map_err(|e| self.op_error(rank, id).at(e))
    }

    fn record_event(&self, rank: u32, stream: Stream, id: OpId, event: usize) -> Result<(), RuntimeError> {
        let signal = self.device.signal(rank, stream.index()).map_err(|e| self.op_error(rank, id).at(e))?;
        *self.events[rank as usize][event].lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(signal));
        let _guard = self.issued_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.issued.notify_all();
        Ok(())
    }

    fn mem(&self, b: BufId) -> &D::Mem {
        self.storage[self.plan.buf(b).storage as usize].as_ref().expect("a buffer of a rank this process runs")
    }

    fn at(&self, b: BufId, kind: PlaneKind) -> (&D::Mem, usize) {
        let p = &self.plan.problem;
        (self.mem(b), plane(self.plan.buf(b), Dims::of(p), kind).offset)
    }

    /// The runs of rows (batch, src row, dst row, count) where `src` and `dst` hold the same
    /// tokens, over the tokens of `by` (the smaller of the two) in its row order.
    fn same_token_runs(&self, src: BufId, dst: BufId, by: BufId) -> Vec<(usize, usize, usize, usize)> {
        let (sb, db) = (self.plan.buf(src), self.plan.buf(dst));
        let tokens = tokens_in_order(&self.plan.buf(by).tokens);
        let batch = self.plan.problem.batch as usize;
        collective::row_runs(&sb.tokens, sb.rows as usize, &db.tokens, db.rows as usize, &tokens, batch)
    }

    fn plane_bytes(&self, b: BufId, kind: PlaneKind) -> usize {
        let p = &self.plan.problem;
        plane(self.plan.buf(b), Dims::of(p), kind).bytes
    }

    /// Merges `n` rows from row `r0` (every head) of the (o, lse) planes `from` into `into`.
    #[allow(clippy::too_many_arguments)]
    fn merge_rows(
        &self,
        rank: u32,
        s: usize,
        into: Planes<'_, D::Mem>,
        from: Planes<'_, D::Mem>,
        (heads, (h0, h1)): (usize, (usize, usize)),
        r0: usize,
        n: usize,
    ) -> Result<(), DeviceError> {
        // Output rows are the value head dim wide.
        let d = self.plan.problem.v_dim() as usize;
        let ((o, l), (po, pl)) = (into, from);
        let merge = |first: usize, count: usize| {
            let (oo, lo) = (first * d * 4, first * 4);
            let (o, l, po, pl) = ((o.0, o.1 + oo), (l.0, l.1 + lo), (po.0, po.1 + oo), (pl.0, pl.1 + lo));
            self.device.merge(rank, s, d, o, l, po, pl, count)
        };
        if (h0, h1) == (0, heads) {
            return merge(r0 * heads, n * heads);
        }
        // A class of a per-head mask: its heads of each row.
        (r0..r0 + n).try_for_each(|r| merge(r * heads + h0, h1 - h0))
    }

    fn cpu_shape(&self, buf: &Buffer) -> Shape {
        let p = &self.plan.problem;
        Shape {
            batch: p.batch as usize,
            rows: buf.rows as usize,
            heads: buf.heads as usize,
            elems: elems(buf.kind, p.head_dim as usize, p.v_dim() as usize),
        }
    }

    fn run_op(&self, rank: u32, stream: Stream, id: OpId) -> Result<(), RuntimeError> {
        let plan = self.plan;
        let p = &plan.problem;
        let d = p.head_dim as usize;
        let s = stream.index();
        let err = self.op_error(rank, id);
        match &plan.op(id).kind {
            OpKind::Load { input, dst, runs } => {
                let buf = plan.buf(*dst);
                let planes = load_planes(p, self.inputs, *input, runs, buf.heads as usize).map_err(|e| err.at(e))?;
                for (&kind, values) in crate::device::planes(buf.kind).iter().zip(planes) {
                    // An input plane (q, k, v, do) in the input dtype: 16-bit values, or fp32.
                    let bits: Vec<u16>;
                    let bytes: &[u8] = match kind.elem(Dims::of(p).input) {
                        Elem::Half => {
                            bits = values.iter().map(|&x| to_bits(p.dtype, x)).collect();
                            bytemuck::cast_slice(&bits)
                        }
                        Elem::F32 => bytemuck::cast_slice(&values),
                    };
                    self.device.upload(rank, s, self.at(*dst, kind), bytes).map_err(|e| err.at(e))?;
                }
            }
            OpKind::Zero { dst, .. } => {
                let buf = plan.buf(*dst);
                for &kind in crate::device::planes(buf.kind) {
                    let acc_lse = buf.kind == attnc_compiler::ir::BufKind::OAcc && kind == PlaneKind::Lse;
                    let value = if acc_lse { f32::NEG_INFINITY } else { 0.0 };
                    let count = self.plane_bytes(*dst, kind) / 4;
                    self.device.fill(rank, s, self.at(*dst, kind), count, value).map_err(|e| err.at(e))?;
                }
            }
            OpKind::SendRecv { sends, recvs } if matches!(self.ranks, Ranks::One { .. }) => {
                let Ranks::One { remote, .. } = self.ranks else { unreachable!("matched") };
                let regions = |transfers: &[attnc_compiler::ir::Transfer]| -> Vec<Transfer<'_, D::Mem>> {
                    transfers
                        .iter()
                        .flat_map(|t| {
                            crate::device::planes(plan.buf(t.buf).kind)
                                .iter()
                                .map(move |&k| (t.peer, self.at(t.buf, k), self.plane_bytes(t.buf, k)))
                        })
                        .collect()
                };
                remote.send_recv(self.device, rank, s, &regions(sends), &regions(recvs)).map_err(|e| err.at(e))?;
            }
            OpKind::SendRecv { sends, recvs } => {
                let mut waiting = Vec::new();
                for t in sends {
                    let planes = crate::device::planes(plan.buf(t.buf).kind)
                        .iter()
                        .map(|&k| (plan.buf(t.buf).storage, self.at(t.buf, k).1, self.plane_bytes(t.buf, k)))
                        .collect();
                    let done = Arc::new((Mutex::new(None), Condvar::new()));
                    let ready = self.device.signal(rank, s).map_err(|e| err.at(e))?;
                    let offer = Offer { planes, ready, done: done.clone() };
                    self.mailbox
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .entry((rank, t.peer))
                        .or_default()
                        .push_back(offer);
                    self.posted.notify_all();
                    waiting.push((t.peer, done));
                }
                for t in recvs {
                    let mut offer = None;
                    self.block(
                        (rank, id),
                        &self.mailbox,
                        &self.posted,
                        || format!("a send from rank {}", t.peer),
                        |m| {
                            offer = m.get_mut(&(t.peer, rank)).and_then(VecDeque::pop_front);
                            offer.is_some()
                        },
                    )?;
                    let offer = offer.expect("ready");
                    let kinds = crate::device::planes(plan.buf(t.buf).kind);
                    if offer.planes.len() != kinds.len() {
                        return Err(err.at(format!(
                            "rank {} sent {} planes, expected {}",
                            t.peer,
                            offer.planes.len(),
                            kinds.len()
                        )));
                    }
                    self.device.wait(rank, s, &offer.ready).map_err(|e| err.at(e))?;
                    for (&(st, off, len), &k) in offer.planes.iter().zip(kinds) {
                        if len != self.plane_bytes(t.buf, k) {
                            return Err(err.at(format!(
                                "rank {} sent {len} bytes of {k:?}, expected {}",
                                t.peer,
                                self.plane_bytes(t.buf, k)
                            )));
                        }
                        let src = self.storage[st as usize].as_ref().expect("every rank runs in this process");
                        self.device.copy(rank, s, (src, off), self.at(t.buf, k), len).map_err(|e| err.at(e))?;
                    }
                    let copied = self.device.signal(rank, s).map_err(|e| err.at(e))?;
                    let (slot, cv) = &*offer.done;
                    *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(copied);
                    cv.notify_all();
                }
                for (peer, done) in waiting {
                    let (slot, cv) = &*done;
                    self.block((rank, id), slot, cv, || format!("rank {peer} to receive"), |s| s.is_some())?;
                    let signal = slot.lock().unwrap_or_else(|e| e.into_inner()).take().expect("ready");
                    self.device.wait(rank, s, &signal).map_err(|e| err.at(e))?;
                }
            }
            OpKind::AttnFwd { q, kv, part, .. } => {
                let (qb, kb) = (plan.buf(*q), plan.buf(*kv));
                let o_count = self.plane_bytes(*part, PlaneKind::O) / 4;
                let lse_count = self.plane_bytes(*part, PlaneKind::Lse) / 4;
                self.device.fill(rank, s, self.at(*part, PlaneKind::O), o_count, 0.0).map_err(|e| err.at(e))?;
                self.device
                    .fill(rank, s, self.at(*part, PlaneKind::Lse), lse_count, f32::NEG_INFINITY)
                    .map_err(|e| err.at(e))?;
                let tables = self.tables[rank as usize].as_ref();
                // The first launch of each head range writes the partial; later ones a scratch
                // partial, merged in over their rows and heads (`Launch::merges`).
                for l in &self.launches[&id] {
                    let tm = tables.expect("a rank with attention ops has tables");
                    let heads = l.table.head_range(qb.heads);
                    let head_values = head_values(p, qb, l.table.doc, self.inputs).map_err(|e| err.at(e))?;
                    let (o, lse) = if !l.merges {
                        (self.at(*part, PlaneKind::O), self.at(*part, PlaneKind::Lse))
                    } else {
                        let scratch = self.scratch[rank as usize].as_ref().expect("sized for multi-launch blocks");
                        ((scratch, self.at(*part, PlaneKind::O).1), (scratch, self.at(*part, PlaneKind::Lse).1))
                    };
                    let call = FwdCall {
                        table: &l.table,
                        arrays: l.offsets.map(|off| (tm, off)),
                        q: self.at(*q, PlaneKind::Q),
                        k: self.at(*kv, PlaneKind::K),
                        v: self.at(*kv, PlaneKind::V),
                        o,
                        lse,
                        heads_q: qb.heads as usize,
                        heads_kv: kb.heads as usize,
                        head_dim: d,
                        v_head_dim: p.v_dim() as usize,
                        scale: p.scale() as f32,
                        head_values: &head_values,
                        heads,
                    };
                    self.device.forward(rank, s, &call).map_err(|e| err.at(e))?;
                    if l.merges {
                        let into = (self.at(*part, PlaneKind::O), self.at(*part, PlaneKind::Lse));
                        for &(r0, r1) in &l.table.q_ranges {
                            self.merge_rows(rank, s, into, (o, lse), (qb.heads as usize, heads), r0, r1 - r0)
                                .map_err(|e| err.at(e))?;
                        }
                    }
                }
            }
            OpKind::Merge { acc, part, rows } => {
                let buf = plan.buf(*acc);
                let (h, n_rows) = (buf.heads as usize, buf.rows as usize);
                let into = (self.at(*acc, PlaneKind::O), self.at(*acc, PlaneKind::Lse));
                let from = (self.at(*part, PlaneKind::O), self.at(*part, PlaneKind::Lse));
                for b in 0..p.batch as usize {
                    for i in &rows.0 {
                        let (r0, n) = (b * n_rows + i.start as usize, (i.end - i.start) as usize);
                        self.merge_rows(rank, s, into, from, (h, (0, h)), r0, n).map_err(|e| err.at(e))?;
                    }
                }
            }
            OpKind::Normalize { acc, dst } => {
                for kind in [PlaneKind::O, PlaneKind::Lse] {
                    let len = self.plane_bytes(*acc, kind);
                    self.device.copy(rank, s, self.at(*acc, kind), self.at(*dst, kind), len).map_err(|e| err.at(e))?;
                }
            }
            OpKind::AttnBwd { q, kv, dq, dkv, .. } => {
                let (qb, kb) = (plan.buf(*q), plan.buf(*kv));
                let n_params = p.score.map_or(0, |s| s.params.len());
                let tm = self.tables[rank as usize].as_ref().expect("a rank with attention ops has tables");
                for l in &self.launches[&id] {
                    let heads = l.table.head_range(qb.heads);
                    let head_values = head_values(p, qb, l.table.doc, self.inputs).map_err(|e| err.at(e))?;
                    let call = BwdCall {
                        fwd: FwdCall {
                            table: &l.table,
                            arrays: l.offsets.map(|off| (tm, off)),
                            q: self.at(*q, PlaneKind::Q),
                            k: self.at(*kv, PlaneKind::K),
                            v: self.at(*kv, PlaneKind::V),
                            o: self.at(*dq, PlaneKind::Dq),
                            lse: self.at(*q, PlaneKind::Lse),
                            heads_q: qb.heads as usize,
                            heads_kv: kb.heads as usize,
                            head_dim: d,
                            v_head_dim: p.v_dim() as usize,
                            scale: p.scale() as f32,
                            head_values: &head_values,
                            heads,
                        },
                        d_out: self.at(*q, PlaneKind::DOut),
                        delta: self.at(*q, PlaneKind::Delta),
                        dq: self.at(*dq, PlaneKind::Dq),
                        dk: self.at(*dkv, PlaneKind::Dk),
                        dv: self.at(*dkv, PlaneKind::Dv),
                        // The buffer's heads start at its first head (an all-to-all's shard).
                        dparams: self.dparams[rank as usize].as_ref().map(|m| (m, qb.head0 as usize * n_params * 4)),
                    };
                    self.device.backward(rank, s, &call).map_err(|e| err.at(e))?;
                }
            }
            OpKind::Store { output, src, sink } => {
                let buf = plan.buf(*src);
                let shape = self.cpu_shape(buf);
                let n = shape.batch * shape.rows * shape.heads;
                let mut rows = vec![0.0f32; shape.len()];
                for (i, &kind) in crate::device::planes(buf.kind).iter().enumerate() {
                    let bytes = self
                        .device
                        .download(rank, s, self.at(*src, kind), self.plane_bytes(*src, kind))
                        .map_err(|e| err.at(e))?;
                    let w = kind.width(Dims::of(p));
                    let values: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
                    // Planes go back to the CPU layout, each after the ones before it: o (rounded
                    // to the input dtype) then lse; dq; dk then dv.
                    let off: usize = crate::device::planes(buf.kind)[..i].iter().map(|k| k.width(Dims::of(p))).sum();
                    for r in 0..n {
                        for j in 0..w {
                            let x = values[r * w + j];
                            // With a sink, O is rounded after the sink rescales it (`store_rows`).
                            rows[r * shape.elems + off + j] =
                                if kind == PlaneKind::O && !sink { crate::tensor::round(p.dtype, x) } else { x };
                        }
                    }
                }
                let tokens = tokens_in_order(&buf.tokens);
                let mut out = self.outputs.lock().unwrap_or_else(|e| e.into_inner());
                let sinks = if *sink {
                    let sinks = self.inputs.sinks.ok_or_else(|| {
                        err.at("the problem has learned sinks and the inputs none (tensor `sinks`, [heads])"
                                .to_string())
                    })?;
                    Some(sinks)
                } else {
                    None
                };
                store_rows(p, &mut out, *output, (&rows, shape), &tokens, self.inputs, sinks).map_err(|e| err.at(e))?;
            }
            OpKind::AllGather { .. } | OpKind::ReduceScatter { .. } | OpKind::AllToAll { .. }
                if matches!(self.ranks, Ranks::One { .. }) =>
            {
                let Ranks::One { remote, .. } = self.ranks else { unreachable!("matched") };
                self.collective_remote(rank, s, id, *remote)?;
            }
            OpKind::AllGather { .. } | OpKind::ReduceScatter { .. } | OpKind::AllToAll { .. } => {
                self.collective_local(rank, s, id)?;
            }
            // Every member's stream waits until all have reached it (refused between processes).
            OpKind::Barrier { group } => self.meet(rank, s, id, *group, || Ok(()))?,
            OpKind::RepeatKv { src, dst, factor } => {
                let (sb, db) = (plan.buf(*src), plan.buf(*dst));
                let rows = p.batch as usize * sb.rows as usize;
                for &kind in crate::device::planes(db.kind) {
                    let row = kind.width(Dims::of(p)) * kind.elem(Dims::of(p).input).bytes();
                    let (from, to) = (self.at(*src, kind), self.at(*dst, kind));
                    for h in 0..db.heads as usize {
                        let src_head = (from.0, from.1 + h / *factor as usize * row);
                        let dst_head = (to.0, to.1 + h * row);
                        let (sp, dp) = (sb.heads as usize * row, db.heads as usize * row);
                        let region = Rows2d {
                            src: src_head,
                            src_pitch: sp,
                            dst: dst_head,
                            dst_pitch: dp,
                            width: row,
                            height: rows,
                        };
                        self.device.copy_2d(rank, s, region).map_err(|e| err.at(e))?;
                    }
                }
            }
            OpKind::AddRows { src, dst } => {
                // Each plane (dK, dV) of the source's rows into the rows of the same tokens.
                let db = plan.buf(*dst);
                let runs = self.same_token_runs(*src, *dst, *src);
                for &kind in crate::device::planes(db.kind) {
                    if kind.elem(Dims::of(p).input) != Elem::F32 {
                        return Err(err.at(format!("row sums of {kind:?} (16-bit) planes")));
                    }
                    let w = kind.width(Dims::of(p)) * db.heads as usize;
                    let (from, to) = (self.at(*src, kind), self.at(*dst, kind));
                    for &(_, sr, dr, n) in &runs {
                        let region = Rows2d {
                            src: (from.0, from.1 + sr * w * 4),
                            src_pitch: w,
                            dst: (to.0, to.1 + dr * w * 4),
                            dst_pitch: w,
                            width: w,
                            height: n,
                        };
                        self.device.add_2d(rank, s, region).map_err(|e| err.at(e))?;
                    }
                }
            }
            OpKind::CopyRows { src, dst } => {
                // Each plane (K, V) of the source's rows that hold the destination's tokens.
                let db = plan.buf(*dst);
                let runs = self.same_token_runs(*src, *dst, *dst);
                for &kind in crate::device::planes(db.kind) {
                    let w = kind.width(Dims::of(p)) * db.heads as usize * kind.elem(Dims::of(p).input).bytes();
                    let (from, to) = (self.at(*src, kind), self.at(*dst, kind));
                    for &(_, sr, dr, n) in &runs {
                        let region = Rows2d {
                            src: (from.0, from.1 + sr * w),
                            src_pitch: w,
                            dst: (to.0, to.1 + dr * w),
                            dst_pitch: w,
                            width: w,
                            height: n,
                        };
                        self.device.copy_2d(rank, s, region).map_err(|e| err.at(e))?;
                    }
                }
            }
            OpKind::SumHeads { src, dst, factor } => {
                let (sb, db) = (plan.buf(*src), plan.buf(*dst));
                let rows = p.batch as usize * sb.rows as usize;
                for &kind in crate::device::planes(db.kind) {
                    if kind.elem(Dims::of(p).input) != Elem::F32 {
                        return Err(err.at(format!("head sums of {kind:?} (16-bit) planes")));
                    }
                    let w = kind.width(Dims::of(p));
                    let count = self.plane_bytes(*dst, kind) / 4;
                    let (from, to) = (self.at(*src, kind), self.at(*dst, kind));
                    self.device.fill(rank, s, to, count, 0.0).map_err(|e| err.at(e))?;
                    for h in 0..sb.heads as usize {
                        let src_head = (from.0, from.1 + h * w * 4);
                        let dst_head = (to.0, to.1 + h / *factor as usize * w * 4);
                        let (sp, dp) = (sb.heads as usize * w, db.heads as usize * w);
                        let region = Rows2d {
                            src: src_head,
                            src_pitch: sp,
                            dst: dst_head,
                            dst_pitch: dp,
                            width: w,
                            height: rows,
                        };
                        self.device.add_2d(rank, s, region).map_err(|e| err.at(e))?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The failing op of a run, for errors that name the rank and the op.
pub(crate) struct OpError<'r, D: Device> {
    run: &'r Run<'r, D>,
    rank: u32,
    id: OpId,
}

impl<D: Device> OpError<'_, D> {
    /// `failure`: the executor's own message, or a device's typed error.
    pub(crate) fn at(&self, failure: impl std::fmt::Display) -> RuntimeError {
        RuntimeError::Rank { rank: self.rank, op: self.run.describe(self.id), message: failure.to_string() }
    }
}

/// The score's per-head values of a query buffer's heads, `[heads][n]` (`Score::head_values`):
/// the model's heads from the inputs' `head_offset` (a tensor-parallel slice's first head) plus
/// the buffer's first head (an all-to-all's shard holds heads from `head0`), with the learned
/// parameters of the slice's head `head0 + h` and the launch's document (`LaunchTable::doc`).
fn head_values(
    p: &attnc_compiler::ir::Problem,
    q: &attnc_compiler::ir::Buffer,
    doc: Option<u64>,
    inputs: &ExecInputs<'_>,
) -> Result<Vec<f32>, String> {
    let Some(s) = p.score.filter(|s| s.reads_head()) else { return Ok(Vec::new()) };
    let n = s.params.len();
    let params = match (n, inputs.params) {
        (0, _) => &[][..],
        (_, Some(params)) if params.len() == p.heads as usize * n => params,
        (_, Some(params)) => {
            return Err(format!(
                "the learned parameters (tensor `params`) hold {} values, the score needs [{}, {n}] ({})",
                params.len(),
                p.heads,
                s.param_names.join(", ")
            ));
        }
        (_, None) => {
            return Err(format!(
                "the score has learned parameters ({}) and the inputs none (tensor `params`, [{}, {n}])",
                s.param_names.join(", "),
                p.heads
            ));
        }
    };
    let offset = inputs.head_offset;
    let mut out = Vec::with_capacity(q.heads as usize * s.head_count());
    for h in 0..q.heads {
        let head = offset + q.head0 + h;
        let local = (q.head0 + h) as usize;
        let values = s.head_values(head, doc.unwrap_or(0), params.get(local * n..(local + 1) * n).unwrap_or(&[]));
        if let Some((_, run)) = values.iter().zip(s.run_slots()).find(|(v, _)| !v.is_finite()) {
            return Err(match run {
                true => format!(
                    "the score `{}` is not finite at query head {head} of document {} with its learned parameters ({} = {:?}): check tensor `params`",
                    s.text,
                    doc.unwrap_or(0),
                    s.param_names.join(", "),
                    params.get(local * n..(local + 1) * n).unwrap_or(&[])
                ),
                false => format!(
                    "the score `{}` has no value at query head {head} (head offset {offset}): is `alibi(h, N)`'s N the model's heads?",
                    s.text
                ),
            });
        }
        out.extend(values);
    }
    Ok(out)
}
