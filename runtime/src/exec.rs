//! The executor: one compute thread and one communication thread (the CP stream) per rank.
//!
//! Each thread runs its stream's program in order; an op waits for the events it names, runs,
//! and records its event. Buffers live in per-storage locks; a verified plan never lets two
//! threads conflict on one, so the locks only make the sharing safe, they never order anything.
//! A failing op (an error or a panic inside a kernel) aborts the run: every other thread sees
//! the abort flag in its next wait and returns, and the first failure is reported with its rank
//! and op. Waits time out after the watchdog limit, reporting what every rank is waiting on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use attnc_compiler::ir::{A2aDir, BufId, BufKind, Input, OpId, OpKind, Output, Plan, RowSet, Stream, TokenMap};
use attnc_compiler::verify::Verified;

use crate::RuntimeError;
use crate::comm::{CommError, Communicator, CpuComm, Recv, Send};
use crate::kernels::{Block, Kernels, Mask, Shape, rows_of};
use crate::tensor::round;
use crate::watch::{self, Progress};

/// Canonical inputs of one plan run: `[b][tokens][heads][d]`; lse `[b][heads][tokens]`.
pub struct ExecInputs<'a> {
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    /// Backward only: the forward output and LSE, and the output gradient.
    pub o: Option<&'a [f32]>,
    pub lse: Option<&'a [f32]>,
    pub d_out: Option<&'a [f32]>,
}

/// Canonical outputs; what the plan stores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExecOutputs {
    pub o: Vec<f32>,
    pub lse: Vec<f32>,
    pub dq: Vec<f32>,
    pub dk: Vec<f32>,
    pub dv: Vec<f32>,
}

/// Deliberate faults, for the tests of fault handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The rank's first attention kernel panics.
    PanicInKernel { rank: u32 },
    /// The rank's communication thread stops responding before its first transfer.
    HangBeforeComm { rank: u32 },
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// How long any wait may last before the watchdog fails the run.
    pub timeout: Duration,
    pub fault: Option<Fault>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { timeout: Duration::from_secs(60), fault: None }
    }
}

/// When an op ran, relative to the start of the run: the simulator's span type, so measured
/// and predicted timelines share summaries and traces.
pub use attnc_compiler::cost::timeline::Span;

/// Elements per row and head of a buffer kind in the CPU layout (all fp32).
pub fn elems(kind: BufKind, d: usize) -> usize {
    match kind {
        BufKind::Q | BufKind::DqAcc => d,
        BufKind::Kv | BufKind::DkvAcc => 2 * d,
        BufKind::QBundle => 3 * d + 1,
        BufKind::OPart | BufKind::OAcc | BufKind::Out => d + 1,
    }
}

/// Token → row lookup over a buffer's declared tokens.
pub(crate) struct RowIndex {
    /// (first token, first row, length), sorted by token.
    runs: Vec<(u64, usize, usize)>,
}

impl RowIndex {
    pub(crate) fn new(map: &TokenMap) -> RowIndex {
        let mut runs = Vec::new();
        let mut row = 0;
        for r in &map.runs {
            runs.push((r.start, row, r.len() as usize));
            row += r.len() as usize;
        }
        runs.sort();
        RowIndex { runs }
    }

    pub(crate) fn row(&self, token: u64) -> Option<usize> {
        let i = self.runs.partition_point(|r| r.0 <= token).checked_sub(1)?;
        let (t0, r0, n) = self.runs[i];
        (token < t0 + n as u64).then(|| r0 + (token - t0) as usize)
    }
}

/// The tokens of a buffer's rows, in row order.
pub(crate) fn tokens_in_order(map: &TokenMap) -> Vec<u64> {
    map.runs.iter().flat_map(|r| r.start..r.end).collect()
}

pub(crate) fn row_tokens(map: &TokenMap, rows: &RowSet) -> Vec<(usize, u64)> {
    let all = tokens_in_order(map);
    rows.0.iter().flat_map(|i| (i.start as usize..i.end as usize).map(|r| (r, all[r]))).collect::<Vec<_>>()
}

struct Events {
    recorded: Mutex<Vec<bool>>,
    changed: Condvar,
}

struct Exec<'a> {
    plan: &'a Plan,
    kernels: &'a dyn Kernels,
    inputs: &'a ExecInputs<'a>,
    options: &'a RunOptions,
    comm: CpuComm,
    storage: Vec<RwLock<Vec<f32>>>,
    events: Vec<Events>,
    abort: Arc<AtomicBool>,
    failure: Mutex<Option<RuntimeError>>,
    outputs: Mutex<ExecOutputs>,
    /// Per rank and stream, the op being run or waited for.
    progress: Progress,
    /// What the verifier proved: the matching of each group's collectives.
    proof: &'a Verified,
    spans: Mutex<Vec<Span>>,
    start: Instant,
}

pub fn execute(
    plan: &Plan,
    proof: &Verified,
    kernels: &dyn Kernels,
    inputs: &ExecInputs<'_>,
    options: &RunOptions,
) -> Result<(ExecOutputs, Vec<Span>), RuntimeError> {
    let p = &plan.problem;
    let d = p.head_dim as usize;
    let mut sizes = vec![0usize; plan.buffers.len()];
    for b in &plan.buffers {
        let len = p.batch as usize * b.rows as usize * b.heads as usize * elems(b.kind, d);
        let s = &mut sizes[b.storage as usize];
        *s = (*s).max(len);
    }
    let abort = Arc::new(AtomicBool::new(false));
    let (b, t, h, hk) = (p.batch as usize, p.tokens as usize, p.heads as usize, p.kv_heads as usize);
    let outputs = ExecOutputs {
        o: vec![0.0; b * t * h * d],
        lse: vec![f32::NEG_INFINITY; b * h * t],
        dq: vec![0.0; b * t * h * d],
        dk: vec![0.0; b * t * hk * d],
        dv: vec![0.0; b * t * hk * d],
    };
    let exec = Exec {
        plan,
        kernels,
        inputs,
        options,
        comm: CpuComm::new(plan.header.cp, abort.clone(), options.timeout),
        storage: sizes.into_iter().map(|n| RwLock::new(vec![0.0; n])).collect(),
        events: (0..plan.header.cp)
            .map(|_| Events { recorded: Mutex::new(vec![false; plan.n_events as usize]), changed: Condvar::new() })
            .collect(),
        abort,
        failure: Mutex::new(None),
        outputs: Mutex::new(outputs),
        progress: Progress::new(plan.header.cp),
        proof,
        spans: Mutex::new(Vec::new()),
        start: Instant::now(),
    };
    watch::on_stream_threads("rank", 0..plan.header.cp, |rank, stream| exec.worker(rank, stream));
    if let Some(error) = exec.failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    let spans = exec.spans.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok((exec.outputs.into_inner().unwrap_or_else(|e| e.into_inner()), spans))
}

/// Locked storages of one op: reads shared, writes exclusive, taken in storage order.
struct Locked<'a> {
    reads: HashMap<u32, RwLockReadGuard<'a, Vec<f32>>>,
    writes: HashMap<u32, RwLockWriteGuard<'a, Vec<f32>>>,
}

impl Exec<'_> {
    fn fail(&self, error: RuntimeError) {
        let mut f = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            *f = Some(error);
        }
        self.abort.store(true, Ordering::SeqCst);
        for e in &self.events {
            e.changed.notify_all();
        }
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
            for e in &op.waits {
                if let Err(error) = self.wait_event(rank, id, e.0 as usize) {
                    self.fail(error);
                    return;
                }
            }
            let begin = self.start.elapsed().as_secs_f64();
            let result = watch::catching(self.plan, rank, id, || {
                watch::inject(self.plan, self.options, &self.abort, rank, id)?;
                self.run_op(rank, id)
            });
            let end = self.start.elapsed().as_secs_f64();
            if let Err(error) = result {
                self.fail(error);
                return;
            }
            self.spans.lock().unwrap_or_else(|e| e.into_inner()).push(Span { rank, stream, op: id, start: begin, end });
            if let Some(e) = op.record {
                let events = &self.events[rank as usize];
                events.recorded.lock().unwrap_or_else(|e| e.into_inner())[e.0 as usize] = true;
                events.changed.notify_all();
            }
        }
        self.progress.done(rank, stream);
    }

    fn wait_event(&self, rank: u32, id: OpId, event: usize) -> Result<(), RuntimeError> {
        let events = &self.events[rank as usize];
        let mut recorded = events.recorded.lock().unwrap_or_else(|e| e.into_inner());
        let start = Instant::now();
        while !recorded[event] {
            if self.abort.load(Ordering::SeqCst) {
                return Err(RuntimeError::Aborted);
            }
            if start.elapsed() > self.options.timeout {
                return Err(self.watchdog(rank, id, format!("event e{event}")));
            }
            recorded =
                events.changed.wait_timeout(recorded, Duration::from_millis(20)).unwrap_or_else(|e| e.into_inner()).0;
        }
        Ok(())
    }

    /// What every rank is doing, for a watchdog report.
    fn watchdog(&self, rank: u32, id: OpId, what: String) -> RuntimeError {
        self.progress.watchdog(self.plan, rank, id, what, self.options.timeout)
    }

    fn comm_error(&self, rank: u32, id: OpId, e: CommError) -> RuntimeError {
        match e {
            CommError::Aborted => RuntimeError::Aborted,
            CommError::Timeout { peer, what, .. } => self.watchdog(rank, id, format!("rank {peer} {what}")),
            other => RuntimeError::Rank { rank, op: self.describe(id), message: other.to_string() },
        }
    }

    fn lock(&self, reads: &[BufId], writes: &[BufId]) -> Locked<'_> {
        let mut ids: Vec<(u32, bool)> = Vec::new();
        for &b in writes {
            ids.push((self.plan.buf(b).storage, true));
        }
        for &b in reads {
            let s = self.plan.buf(b).storage;
            if !ids.iter().any(|(x, _)| *x == s) {
                ids.push((s, false));
            }
        }
        ids.sort();
        ids.dedup_by_key(|x| x.0);
        let mut locked = Locked { reads: HashMap::new(), writes: HashMap::new() };
        for (s, write) in ids {
            let lock = &self.storage[s as usize];
            if write {
                locked.writes.insert(s, lock.write().unwrap_or_else(|e| e.into_inner()));
            } else {
                locked.reads.insert(s, lock.read().unwrap_or_else(|e| e.into_inner()));
            }
        }
        locked
    }

    fn shape(&self, b: BufId) -> Shape {
        let buf = self.plan.buf(b);
        let p = &self.plan.problem;
        Shape {
            batch: p.batch as usize,
            rows: buf.rows as usize,
            heads: buf.heads as usize,
            elems: elems(buf.kind, p.head_dim as usize),
        }
    }

    fn run_op(&self, rank: u32, id: OpId) -> Result<(), RuntimeError> {
        let plan = self.plan;
        let op = plan.op(id);
        let kind = &op.kind;
        let p = &plan.problem;
        let d = p.head_dim as usize;
        let reads = kind.reads();
        let writes = kind.writes();
        let mut l = self.lock(&reads, &writes);
        let Locked { reads: r, writes: w } = &mut l;
        let get = |b: BufId| -> &[f32] {
            let s = plan.buf(b).storage;
            // Buffers an op also writes are only in `w`; every op reads those through `w`.
            r.get(&s).map(|g| g.as_slice()).expect("locked for reading")
        };
        match kind {
            OpKind::Load { input, dst, runs } => {
                let shape = self.shape(*dst);
                let data = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                self.load(*input, runs, shape, data);
            }
            OpKind::Zero { dst, .. } => {
                let shape = self.shape(*dst);
                let is_acc = plan.buf(*dst).kind == BufKind::OAcc;
                let data = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                data[..shape.len()].fill(0.0);
                if is_acc {
                    for x in data[..shape.len()].iter_mut().skip(d).step_by(d + 1) {
                        *x = f32::NEG_INFINITY;
                    }
                }
            }
            OpKind::SendRecv { sends, recvs } => {
                let send_views: Vec<(u32, u32, usize)> =
                    sends.iter().map(|t| (t.peer, plan.buf(t.buf).storage, self.shape(t.buf).len())).collect();
                let recv_views: Vec<(u32, u32, usize)> =
                    recvs.iter().map(|t| (t.peer, plan.buf(t.buf).storage, self.shape(t.buf).len())).collect();
                let send_data: Vec<Send<'_>> = send_views
                    .iter()
                    .map(|&(peer, s, n)| Send { peer, data: &r.get(&s).map(|g| g.as_slice()).unwrap_or_default()[..n] })
                    .collect();
                let mut recv_data: Vec<Recv<'_>> = Vec::new();
                let mut targets: Vec<(&u32, &mut RwLockWriteGuard<'_, Vec<f32>>)> = w.iter_mut().collect();
                for &(peer, s, n) in &recv_views {
                    let i = targets.iter().position(|(k, _)| **k == s).expect("locked");
                    let (_, guard) = targets.swap_remove(i);
                    recv_data.push(Recv { peer, data: &mut guard[..n] });
                }
                self.comm
                    .send_recv(rank, "p2p", &send_data, &mut recv_data)
                    .map_err(|e| self.comm_error(rank, id, e))?;
            }
            OpKind::AllGather { group, src, dst, .. } => {
                let members = plan.group(*group).members.clone();
                let mine = &get(*src)[..self.shape(*src).len()];
                let got = self
                    .comm
                    .all_gather(rank, "all_gather", &members, mine)
                    .map_err(|e| self.comm_error(rank, id, e))?;
                let dst_shape = self.shape(*dst);
                let index = RowIndex::new(&plan.buf(*dst).tokens);
                let out = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                for (m, chunk) in members.iter().zip(got) {
                    let peer_src = self.peer_buffers(id, *m).0;
                    let src_shape = self.shape(peer_src);
                    self.place(
                        &chunk,
                        src_shape,
                        &tokens_in_order(&plan.buf(peer_src).tokens),
                        &index,
                        out,
                        dst_shape,
                        0,
                    );
                }
            }
            OpKind::ReduceScatter { group, src, dst, .. } => {
                let members = plan.group(*group).members.clone();
                let src_shape = self.shape(*src);
                let src_index = RowIndex::new(&plan.buf(*src).tokens);
                let data = get(*src);
                let chunks: Vec<Vec<f32>> = members
                    .iter()
                    .map(|&m| {
                        let peer_dst = self.peer_buffers(id, m).1;
                        self.gather_rows(
                            data,
                            src_shape,
                            &src_index,
                            &tokens_in_order(&plan.buf(peer_dst).tokens),
                            0,
                            src_shape.heads,
                        )
                    })
                    .collect();
                let sum = self
                    .comm
                    .reduce_scatter(rank, "reduce_scatter", &members, chunks)
                    .map_err(|e| self.comm_error(rank, id, e))?;
                let n = self.shape(*dst).len();
                w.get_mut(&plan.buf(*dst).storage).expect("locked")[..n].copy_from_slice(&sum);
            }
            OpKind::AllToAll { group, src, dst, dir } => {
                let members = plan.group(*group).members.clone();
                let n = members.len();
                let src_shape = self.shape(*src);
                let dst_shape = self.shape(*dst);
                let data = get(*src);
                let src_tokens = tokens_in_order(&plan.buf(*src).tokens);
                let src_index = RowIndex::new(&plan.buf(*src).tokens);
                match dir {
                    A2aDir::SeqToHeads { .. } => {
                        let c = src_shape.heads / n;
                        let chunks = (0..n)
                            .map(|j| self.gather_rows(data, src_shape, &src_index, &src_tokens, j * c, c))
                            .collect();
                        let got = self
                            .comm
                            .all_to_all(rank, "a2a", &members, chunks)
                            .map_err(|e| self.comm_error(rank, id, e))?;
                        let index = RowIndex::new(&plan.buf(*dst).tokens);
                        let out = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                        for (&m, chunk) in members.iter().zip(got) {
                            let peer_src = self.peer_buffers(id, m).0;
                            let shape = Shape { heads: c, ..self.shape(peer_src) };
                            self.place(
                                &chunk,
                                shape,
                                &tokens_in_order(&plan.buf(peer_src).tokens),
                                &index,
                                out,
                                dst_shape,
                                0,
                            );
                        }
                    }
                    A2aDir::HeadsToSeq { .. } => {
                        let c = src_shape.heads;
                        let chunks = members
                            .iter()
                            .map(|&m| {
                                let peer_dst = self.peer_buffers(id, m).1;
                                self.gather_rows(
                                    data,
                                    src_shape,
                                    &src_index,
                                    &tokens_in_order(&plan.buf(peer_dst).tokens),
                                    0,
                                    c,
                                )
                            })
                            .collect();
                        let got = self
                            .comm
                            .all_to_all(rank, "a2a", &members, chunks)
                            .map_err(|e| self.comm_error(rank, id, e))?;
                        let dst_tokens = tokens_in_order(&plan.buf(*dst).tokens);
                        let index = RowIndex::new(&plan.buf(*dst).tokens);
                        let out = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                        for (j, chunk) in got.into_iter().enumerate() {
                            let shape = Shape { rows: dst_tokens.len(), heads: c, ..dst_shape };
                            self.place(&chunk, shape, &dst_tokens, &index, out, dst_shape, j * c);
                        }
                    }
                }
            }
            OpKind::RepeatKv { src, dst, factor } => {
                let (ss, ds) = (self.shape(*src), self.shape(*dst));
                let input = get(*src);
                let out = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                for b in 0..ss.batch {
                    for row in 0..ss.rows {
                        for h in 0..ds.heads {
                            let from = ss.at(b, row, h / *factor as usize);
                            out[ds.at(b, row, h)..][..ds.elems].copy_from_slice(&input[from..][..ss.elems]);
                        }
                    }
                }
            }
            OpKind::SumHeads { src, dst, factor } => {
                let (ss, ds) = (self.shape(*src), self.shape(*dst));
                let input = get(*src);
                let out = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                out[..ds.len()].fill(0.0);
                for b in 0..ss.batch {
                    for row in 0..ss.rows {
                        for h in 0..ss.heads {
                            let to = ds.at(b, row, h / *factor as usize);
                            for e in 0..ss.elems {
                                out[to + e] += input[ss.at(b, row, h) + e];
                            }
                        }
                    }
                }
            }
            OpKind::AttnFwd { q, q_rows, kv, kv_rows, part, .. } => {
                let mask = Mask::of(p);
                let qr = rows_of(p, row_tokens(&plan.buf(*q).tokens, q_rows).into_iter());
                let kr = rows_of(p, row_tokens(&plan.buf(*kv).tokens, kv_rows).into_iter());
                let block = Block {
                    head_dim: d,
                    scale: 1.0 / (d as f32).sqrt(),
                    mask: &mask,
                    q: get(*q),
                    q_shape: self.shape(*q),
                    q_rows: &qr,
                    kv: get(*kv),
                    kv_shape: self.shape(*kv),
                    kv_rows: &kr,
                    delta: None,
                };
                let part_shape = self.shape(*part);
                let out = w.get_mut(&plan.buf(*part).storage).expect("locked");
                self.kernels.forward(&block, out, part_shape).map_err(|message| RuntimeError::Rank {
                    rank,
                    op: self.describe(id),
                    message,
                })?;
            }
            OpKind::Merge { acc, part, rows } => {
                let shape = self.shape(*acc);
                let part_data = get(*part);
                let out = w.get_mut(&plan.buf(*acc).storage).expect("locked");
                for i in &rows.0 {
                    for row in i.start as usize..i.end as usize {
                        for b in 0..shape.batch {
                            for h in 0..shape.heads {
                                let at = shape.at(b, row, h);
                                merge(&mut out[at..][..d + 1], &part_data[at..][..d + 1]);
                            }
                        }
                    }
                }
            }
            OpKind::Normalize { acc, dst } => {
                let shape = self.shape(*acc);
                let input = get(*acc);
                let out = w.get_mut(&plan.buf(*dst).storage).expect("locked");
                for (i, chunk) in input[..shape.len()].chunks(d + 1).enumerate() {
                    for e in 0..d {
                        out[i * (d + 1) + e] = round(p.dtype, chunk[e]);
                    }
                    out[i * (d + 1) + d] = chunk[d];
                }
            }
            OpKind::AttnBwd { q, q_rows, kv, kv_rows, dq, dkv, .. } => {
                let mask = Mask::of(p);
                let qr = rows_of(p, row_tokens(&plan.buf(*q).tokens, q_rows).into_iter());
                let kr = rows_of(p, row_tokens(&plan.buf(*kv).tokens, kv_rows).into_iter());
                let (dq_shape, dkv_shape) = (self.shape(*dq), self.shape(*dkv));
                let (sq, skv) = (plan.buf(*dq).storage, plan.buf(*dkv).storage);
                let block = Block {
                    head_dim: d,
                    scale: 1.0 / (d as f32).sqrt(),
                    mask: &mask,
                    q: r.get(&plan.buf(*q).storage).expect("locked"),
                    q_shape: self.shape(*q),
                    q_rows: &qr,
                    kv: r.get(&plan.buf(*kv).storage).expect("locked"),
                    kv_shape: self.shape(*kv),
                    kv_rows: &kr,
                    delta: None,
                };
                let [Some(dq_data), Some(dkv_data)] = w.get_disjoint_mut([&sq, &skv]) else {
                    unreachable!("dq and dkv are distinct storages");
                };
                self.kernels
                    .backward(&block, dq_data, dq_shape, dkv_data, dkv_shape)
                    .map_err(|message| RuntimeError::Rank { rank, op: self.describe(id), message })?;
            }
            OpKind::Barrier { group } => {
                let members = plan.group(*group).members.clone();
                self.comm.barrier(rank, "barrier", &members).map_err(|e| self.comm_error(rank, id, e))?;
            }
            OpKind::Store { output, src } => {
                let shape = self.shape(*src);
                let data = get(*src);
                let tokens = tokens_in_order(&plan.buf(*src).tokens);
                self.store(*output, data, shape, &tokens);
            }
        }
        Ok(())
    }

    /// The (source, destination) buffers another member uses in the same collective instance as `id`.
    fn peer_buffers(&self, id: OpId, member: u32) -> (BufId, BufId) {
        let peer = self.proof.partner(self.plan, id, member);
        self.plan.op(peer).kind.collective_buffers().expect("verified: members enter the same collective")
    }

    /// Rows of `tokens` (in that order), heads `h0..h0+n` of a buffer, as `[b][rows][n][elems]`.
    fn gather_rows(
        &self,
        data: &[f32],
        shape: Shape,
        index: &RowIndex,
        tokens: &[u64],
        h0: usize,
        n: usize,
    ) -> Vec<f32> {
        let mut out = Vec::with_capacity(shape.batch * tokens.len() * n * shape.elems);
        for b in 0..shape.batch {
            for &t in tokens {
                let row = index.row(t).expect("verified: every member holds the tokens it sends");
                let at = shape.at(b, row, h0);
                out.extend_from_slice(&data[at..at + n * shape.elems]);
            }
        }
        out
    }

    /// Writes a `[b][rows][heads][elems]` chunk whose rows hold `tokens` into `out` at the rows
    /// of those tokens, heads from `h0`.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &self,
        chunk: &[f32],
        shape: Shape,
        tokens: &[u64],
        index: &RowIndex,
        out: &mut [f32],
        out_shape: Shape,
        h0: usize,
    ) {
        let width = shape.heads * shape.elems;
        for b in 0..shape.batch {
            for (i, &t) in tokens.iter().enumerate() {
                let row = index.row(t).expect("verified: the destination holds every token it receives");
                let from = (b * shape.rows + i) * width;
                let to = out_shape.at(b, row, h0);
                out[to..to + width].copy_from_slice(&chunk[from..from + width]);
            }
        }
    }

    fn load(&self, input: Input, runs: &[attnc_compiler::ir::Run], shape: Shape, out: &mut [f32]) {
        load_rows(&self.plan.problem, self.inputs, input, runs, shape, out);
    }

    fn store(&self, output: Output, data: &[f32], shape: Shape, tokens: &[u64]) {
        let mut out = self.outputs.lock().unwrap_or_else(|e| e.into_inner());
        store_rows(&self.plan.problem, &mut out, output, data, shape, tokens);
    }
}

/// Writes a load's rows (input dtype rounding, RoPE at each row's position) into `out` in the CPU
/// layout `[b][rows][heads][elems]`; the device executor converts them to its planes.
pub(crate) fn load_rows(
    p: &attnc_compiler::ir::Problem,
    inputs: &ExecInputs<'_>,
    input: Input,
    runs: &[attnc_compiler::ir::Run],
    shape: Shape,
    out: &mut [f32],
) {
    let (t, d) = (p.tokens as usize, p.head_dim as usize);
    let (h, hk) = (p.heads as usize, p.kv_heads as usize);
    let mut row = 0;
    for run in runs {
        for i in 0..run.len {
            let (token, position) = ((run.token + i) as usize, run.position + i);
            for b in 0..shape.batch {
                for head in 0..shape.heads {
                    let at = shape.at(b, row, head);
                    let dst = &mut out[at..at + shape.elems];
                    match input {
                        Input::Q | Input::QBundle => {
                            let src = ((b * t + token) * h + head) * d;
                            copy_round(&mut dst[..d], &inputs.q[src..src + d], p.dtype);
                            rope(&mut dst[..d], position, p.rope_theta, 1.0);
                            if input == Input::QBundle {
                                let o = inputs.o.expect("backward has o");
                                let d_out = inputs.d_out.expect("backward has do");
                                dst[d..2 * d].copy_from_slice(&o[src..src + d]);
                                copy_round(&mut dst[2 * d..3 * d], &d_out[src..src + d], p.dtype);
                                dst[3 * d] = inputs.lse.expect("backward has lse")[(b * h + head) * t + token];
                            }
                        }
                        Input::Kv => {
                            let src = ((b * t + token) * hk + head) * d;
                            copy_round(&mut dst[..d], &inputs.k[src..src + d], p.dtype);
                            rope(&mut dst[..d], position, p.rope_theta, 1.0);
                            copy_round(&mut dst[d..2 * d], &inputs.v[src..src + d], p.dtype);
                        }
                    }
                }
            }
            row += 1;
        }
    }
}

/// Writes a store's rows (CPU layout) into the run's outputs: o and lse, or dq, dk and dv with the
/// inverse RoPE at each row's position.
pub(crate) fn store_rows(
    p: &attnc_compiler::ir::Problem,
    out: &mut ExecOutputs,
    output: Output,
    data: &[f32],
    shape: Shape,
    tokens: &[u64],
) {
    let (t, d) = (p.tokens as usize, p.head_dim as usize);
    for b in 0..shape.batch {
        for (row, &token) in tokens.iter().enumerate() {
            let position = p.position(token);
            for head in 0..shape.heads {
                let at = shape.at(b, row, head);
                let dst = ((b * t + token as usize) * shape.heads + head) * d;
                match output {
                    Output::O => {
                        out.o[dst..dst + d].copy_from_slice(&data[at..at + d]);
                        out.lse[(b * shape.heads + head) * t + token as usize] = data[at + d];
                    }
                    Output::Dq => {
                        out.dq[dst..dst + d].copy_from_slice(&data[at..at + d]);
                        rope(&mut out.dq[dst..dst + d], position, p.rope_theta, -1.0);
                    }
                    Output::Dkv => {
                        out.dk[dst..dst + d].copy_from_slice(&data[at..at + d]);
                        rope(&mut out.dk[dst..dst + d], position, p.rope_theta, -1.0);
                        out.dv[dst..dst + d].copy_from_slice(&data[at + d..at + 2 * d]);
                    }
                }
            }
        }
    }
}

fn copy_round(dst: &mut [f32], src: &[f32], dtype: attnc_compiler::sema::spec::Dtype) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = round(dtype, *s);
    }
}

/// Rotates the halves of `x` by `sign` × the RoPE angles of `position` (rotate-half convention).
pub fn rope(x: &mut [f32], position: u64, theta: Option<f64>, sign: f64) {
    let Some(theta) = theta else { return };
    let half = x.len() / 2;
    for (i, c, s) in crate::kernels::rope_rotation(x.len(), position, theta, sign) {
        let (a, b) = (x[i] as f64, x[i + half] as f64);
        x[i] = (a * c - b * s) as f32;
        x[i + half] = (b * c + a * s) as f32;
    }
}

/// LSE-weighted combine of a partial (o, lse) into an accumulator (o, lse).
pub(crate) fn merge(acc: &mut [f32], part: &[f32]) {
    let d = acc.len() - 1;
    let (la, lp) = (acc[d], part[d]);
    if lp == f32::NEG_INFINITY {
        return;
    }
    if la == f32::NEG_INFINITY {
        acc.copy_from_slice(part);
        return;
    }
    let l = la.max(lp) + (-(la - lp).abs()).exp().ln_1p();
    let (wa, wp) = ((la - l).exp(), (lp - l).exp());
    for i in 0..d {
        acc[i] = wa * acc[i] + wp * part[i];
    }
    acc[d] = l;
}
