//! Blocking simulation of every rank's program: finds deadlocks and tracks buffer contents.
//!
//! Each rank runs its two streams in issue order; an op starts when its stream reaches it, its
//! dependencies have run and the events it waits on are recorded. A sendrecv group completes
//! once every part has met its peer (as NCCL's grouped calls do for large messages); a
//! collective once every member has entered it. When nothing can move and ops remain, the plan
//! deadlocks, and each blocked op is reported with what it waits for.
//!
//! Contents are symbolic: which tokens (by row) and heads a buffer holds, and for accumulators
//! which attention blocks have been added into it. Blocks are checked against their mask
//! class, and every store hands its contents to `coverage.rs`.

use std::collections::VecDeque;
use std::rc::Rc;

use super::Errors;
use super::comm::Pairs;
use super::coverage;
use crate::ir::mask::classify;
use crate::ir::{A2aDir, BufId, Interval, OpId, OpKind, Plan, RowSet, TokenMap};

/// One attention block's contribution: query tokens × key tokens for some query heads.
#[derive(Debug)]
pub struct Record {
    pub q_heads: Vec<u32>,
    pub q: RowSet,
    pub kv: RowSet,
}

#[derive(Clone, Debug)]
pub struct Content {
    pub heads: Vec<u32>,
    pub map: TokenMap,
    pub records: Vec<Rc<Record>>,
    pub normalized: bool,
    /// For a block's partial output: the rows the block wrote.
    pub valid_rows: Option<RowSet>,
}

impl Content {
    fn new(heads: Vec<u32>, map: TokenMap) -> Content {
        Content { heads, map, records: Vec::new(), normalized: false, valid_rows: None }
    }
}

/// Per-op flags indexed by node index (op ids stay valid when ops are removed, so the table is
/// as long as the largest index, not the op count).
struct OpFlags {
    set: Vec<bool>,
    count: usize,
}

impl OpFlags {
    fn new(plan: &Plan) -> OpFlags {
        OpFlags { set: vec![false; petgraph::visit::NodeIndexable::node_bound(&plan.graph)], count: 0 }
    }

    fn contains(&self, id: OpId) -> bool {
        self.set[id.0.index()]
    }

    fn insert(&mut self, id: OpId) {
        if !std::mem::replace(&mut self.set[id.0.index()], true) {
            self.count += 1;
        }
    }
}

/// The parts of sendrecv ops that met their peers.
struct Matched(Vec<Option<Box<[bool]>>>);

impl Matched {
    fn flags(&mut self, plan: &Plan, id: OpId) -> &mut [bool] {
        self.0[id.0.index()].get_or_insert_with(|| {
            let n = match &plan.op(id).kind {
                OpKind::SendRecv { sends, recvs } => sends.len() + recvs.len(),
                _ => 0,
            };
            vec![false; n].into_boxed_slice()
        })
    }

    /// Part `i` of the sends (`send`) or of the receives.
    fn insert(&mut self, plan: &Plan, (id, i, send): (OpId, usize, bool)) {
        let offset = if send { 0 } else { sends_of(plan, id) };
        self.flags(plan, id)[offset + i] = true;
    }

    fn contains(&self, plan: &Plan, (id, i, send): (OpId, usize, bool)) -> bool {
        let offset = if send { 0 } else { sends_of(plan, id) };
        self.0[id.0.index()].as_ref().is_some_and(|f| f[offset + i])
    }

    fn all(&self, id: OpId) -> bool {
        self.0[id.0.index()].as_ref().is_some_and(|f| f.iter().all(|&m| m))
    }
}

fn sends_of(plan: &Plan, id: OpId) -> usize {
    match &plan.op(id).kind {
        OpKind::SendRecv { sends, .. } => sends.len(),
        _ => 0,
    }
}

struct Sim<'p, 'e, 'a> {
    plan: &'p Plan,
    pairs: &'p Pairs,
    errors: &'e mut Errors<'a>,
    /// Per buffer (by id): what it holds, shared where a transfer copied it unchanged.
    contents: Vec<Option<Rc<Content>>>,
    done: OpFlags,
    posted: OpFlags,
    /// Per sendrecv op (by node index): which of its parts met their peer, sends first.
    matched: Matched,
    /// Per event: recorded yet.
    recorded: Vec<bool>,
    pc: Vec<[usize; 2]>,
    /// Ranks whose heads may move because of what just happened on another rank.
    wake: Vec<usize>,
    /// Per op (by node index): its dependencies not yet done plus its events not yet recorded;
    /// it may start at 0.
    pending: Vec<u32>,
    /// Per event: the ops that wait on it.
    waiters: Vec<Vec<OpId>>,
}

pub fn run(plan: &Plan, pairs: &Pairs, errors: &mut Errors<'_>) {
    let mut sim = Sim {
        plan,
        pairs,
        errors,
        contents: vec![None; plan.buffers.len()],
        done: OpFlags::new(plan),
        posted: OpFlags::new(plan),
        matched: Matched(vec![None; petgraph::visit::NodeIndexable::node_bound(&plan.graph)]),
        recorded: vec![false; plan.n_events as usize],
        pc: vec![[0, 0]; plan.header.cp as usize],
        wake: Vec::new(),
        pending: vec![0; petgraph::visit::NodeIndexable::node_bound(&plan.graph)],
        waiters: vec![Vec::new(); plan.n_events as usize],
    };
    for id in plan.op_ids() {
        let op = plan.op(id);
        sim.pending[id.0.index()] = (plan.deps_of(id).count() + op.waits.len()) as u32;
        for e in &op.waits {
            sim.waiters[e.0 as usize].push(id);
        }
    }
    sim.run();
}

impl Sim<'_, '_, '_> {
    fn head(&self, rank: usize, s: usize) -> Option<OpId> {
        self.plan.programs[rank][s].get(self.pc[rank][s]).copied()
    }

    fn complete(&mut self, id: OpId) {
        let plan = self.plan;
        let op = plan.op(id);
        self.done.insert(id);
        self.pc[op.rank as usize][op.stream.index()] += 1;
        // The ops that depend on it, and those that wait on its event, have one thing fewer to
        // wait for; their ranks (and its own) may move now.
        self.wake.push(op.rank as usize);
        for edge in plan.graph.edges_directed(id.0, petgraph::Direction::Outgoing) {
            let to = petgraph::visit::EdgeRef::target(&edge);
            self.pending[to.index()] = self.pending[to.index()].saturating_sub(1);
            self.wake.push(plan.graph[to].rank as usize);
        }
        if let Some(e) = op.record {
            self.recorded[e.0 as usize] = true;
            for &w in &self.waiters[e.0 as usize] {
                self.pending[w.0.index()] = self.pending[w.0.index()].saturating_sub(1);
            }
        }
    }

    /// Runs ranks from a work queue until none can move: a rank is visited again only when an op
    /// it may wait for completed or one of its transfers was matched, so a ring of n steps costs
    /// O(n) visits per rank, not a sweep of every rank per step.
    fn run(&mut self) {
        let cp = self.plan.header.cp as usize;
        let mut queued = vec![true; cp];
        let mut queue: VecDeque<usize> = (0..cp).collect();
        while let Some(rank) = queue.pop_front() {
            queued[rank] = false;
            loop {
                let mut progress = false;
                for s in 0..2 {
                    while let Some(id) = self.head(rank, s) {
                        if !self.step(id) {
                            break;
                        }
                        progress = true;
                    }
                }
                if !progress {
                    break;
                }
            }
            for woken in std::mem::take(&mut self.wake) {
                if !queued[woken] {
                    queued[woken] = true;
                    queue.push_back(woken);
                }
            }
        }
        self.report_blocked();
    }

    /// Advances one head op; true if anything changed.
    fn step(&mut self, id: OpId) -> bool {
        let plan = self.plan;
        let op = plan.op(id);
        let mut changed = false;
        if !self.posted.contains(id) {
            if self.pending[id.0.index()] > 0 {
                return false;
            }
            self.posted.insert(id);
            changed = true;
            match &op.kind {
                OpKind::SendRecv { .. } => self.match_parts(id),
                k if k.collective_group().is_some() => {}
                _ => {
                    self.execute(id);
                    self.complete(id);
                    return true;
                }
            }
        }
        match &op.kind {
            OpKind::SendRecv { sends, recvs } => {
                let all = (sends.is_empty() && recvs.is_empty()) || self.matched.all(id);
                if all {
                    self.complete(id);
                    return true;
                }
            }
            kind => {
                if let Some(g) = kind.collective_group() {
                    if self.try_collective(id, g) {
                        return true;
                    }
                }
            }
        }
        changed
    }

    /// Pairs the parts of a newly posted sendrecv with posted peers and moves the data.
    fn match_parts(&mut self, id: OpId) {
        let plan = self.plan;
        let OpKind::SendRecv { sends, recvs } = &plan.op(id).kind else { return };
        for (i, t) in sends.iter().enumerate() {
            if let Some(&(peer_op, j)) = self.pairs.send_to_recv.get(&(id, i)) {
                if self.posted.contains(peer_op) {
                    let OpKind::SendRecv { recvs: peer_recvs, .. } = &plan.op(peer_op).kind else { continue };
                    self.transfer(id, t.buf, peer_op, peer_recvs[j].buf);
                    self.matched.insert(plan, (id, i, true));
                    self.matched.insert(plan, (peer_op, j, false));
                    self.wake.push(plan.op(peer_op).rank as usize);
                }
            }
        }
        for (i, t) in recvs.iter().enumerate() {
            if let Some(&(peer_op, j)) = self.pairs.recv_to_send.get(&(id, i)) {
                if self.posted.contains(peer_op) {
                    let OpKind::SendRecv { sends: peer_sends, .. } = &plan.op(peer_op).kind else { continue };
                    self.transfer(peer_op, peer_sends[j].buf, id, t.buf);
                    self.matched.insert(plan, (id, i, false));
                    self.matched.insert(plan, (peer_op, j, true));
                    self.wake.push(plan.op(peer_op).rank as usize);
                }
            }
        }
    }

    fn transfer(&mut self, from_op: OpId, from: BufId, to_op: OpId, to: BufId) {
        if let Some(c) = self.read(from_op, from) {
            self.write(to_op, to, c);
        }
    }

    fn read(&mut self, op: OpId, buf: BufId) -> Option<Rc<Content>> {
        match &self.contents[buf.0 as usize] {
            Some(c) => Some(Rc::clone(c)),
            None => {
                let name = &self.plan.buf(buf).name;
                self.errors.at_op(op, format!("reads {name} before anything wrote it"));
                None
            }
        }
    }

    /// Like [`Self::read`] for a buffer the op is about to write back: its contents are moved
    /// out, not cloned (an accumulator's records grow with every block, so cloning them on every
    /// merge would be quadratic in the blocks).
    fn take(&mut self, op: OpId, buf: BufId) -> Option<Content> {
        let taken = self.contents[buf.0 as usize].take();
        if taken.is_none() {
            let name = &self.plan.buf(buf).name;
            self.errors.at_op(op, format!("reads {name} before anything wrote it"));
        }
        taken.map(Rc::unwrap_or_clone)
    }

    fn put(&mut self, op: OpId, buf: BufId, content: Content) {
        self.write(op, buf, Rc::new(content));
    }

    fn write(&mut self, op: OpId, buf: BufId, content: Rc<Content>) {
        let b = self.plan.buf(buf);
        if content.map != b.tokens {
            self.errors.at_op(
                op,
                format!(
                    "writes tokens {} into {}, which is declared to hold tokens {}",
                    crate::ir::display_intervals_of(&content.map),
                    b.name,
                    crate::ir::display_intervals_of(&b.tokens)
                ),
            );
        } else if content.map.rows() != b.rows || content.heads.len() as u32 != b.heads {
            self.errors.at_op(
                op,
                format!(
                    "writes {} rows x {} heads into {}, which has {} rows x {} heads",
                    content.map.rows(),
                    content.heads.len(),
                    b.name,
                    b.rows,
                    b.heads
                ),
            );
        }
        self.contents[buf.0 as usize] = Some(content);
    }

    fn execute(&mut self, id: OpId) {
        let plan = self.plan;
        let p = &plan.problem;
        match &plan.op(id).kind {
            OpKind::Load { dst, runs, .. } => {
                let map = TokenMap::new(runs.iter().map(|r| Interval::new(r.token, r.token + r.len)).collect());
                let heads = if plan.buf(*dst).kind == crate::ir::BufKind::Kv { p.kv_heads } else { p.heads };
                self.put(id, *dst, Content::new((0..heads).collect(), map));
            }
            OpKind::Zero { dst, like } => {
                if let Some(c) = self.read(id, *like) {
                    self.put(id, *dst, Content::new(c.heads.clone(), c.map.clone()));
                }
            }
            OpKind::RepeatKv { src, dst, factor } => {
                if let Some(c) = self.read(id, *src) {
                    let heads = c.heads.iter().flat_map(|&h| std::iter::repeat_n(h, *factor as usize)).collect();
                    self.put(id, *dst, Content { heads, ..Rc::unwrap_or_clone(c) });
                }
            }
            OpKind::AddRows { src, dst } => {
                let Some(sc) = self.read(id, *src) else { return };
                let Some(mut dc) = self.take(id, *dst) else { return };
                if sc.heads != dc.heads {
                    self.errors.at_op(id, "adds rows of other heads than the accumulator holds");
                }
                let missing = sc.map.token_set().minus(&dc.map.token_set());
                if !missing.is_empty() {
                    self.errors.at_op(id, format!("adds tokens {missing} the accumulator does not hold"));
                }
                dc.records.extend(sc.records.iter().cloned());
                self.put(id, *dst, dc);
            }
            OpKind::CopyRows { src, dst } => {
                let Some(sc) = self.read(id, *src) else { return };
                if plan.buf(*dst).heads as usize != sc.heads.len() {
                    self.errors.at_op(id, "copies rows into a buffer of another head count");
                }
                let map = plan.buf(*dst).tokens.clone();
                let missing = map.token_set().minus(&sc.map.token_set());
                if !missing.is_empty() {
                    self.errors.at_op(id, format!("copies tokens {missing} the source does not hold"));
                }
                self.put(id, *dst, Content::new(sc.heads.clone(), map));
            }
            OpKind::SumHeads { src, dst, factor } => {
                if let Some(c) = self.read(id, *src) {
                    let chunks: Vec<&[u32]> = c.heads.chunks(*factor as usize).collect();
                    if chunks.iter().any(|ch| ch.iter().any(|&h| h != ch[0])) {
                        self.errors.at_op(id, format!("heads {:?} are not runs of {factor} repeats", c.heads));
                    }
                    let heads = chunks.iter().map(|ch| ch[0]).collect();
                    self.put(id, *dst, Content { heads, ..Rc::unwrap_or_clone(c) });
                }
            }
            OpKind::AttnFwd { q, q_rows, kv, kv_rows, part, class } => {
                let (Some(qc), Some(kc)) = (self.read(id, *q), self.read(id, *kv)) else { return };
                self.first_head(id, *q, &qc);
                let Some(record) = self.block(id, &qc, q_rows, &kc, kv_rows, *class) else { return };
                let mut c = Content::new(qc.heads.clone(), qc.map.clone());
                c.records.push(record);
                c.valid_rows = Some(q_rows.clone());
                self.put(id, *part, c);
            }
            OpKind::Merge { acc, part, rows } => {
                let Some(pc) = self.read(id, *part) else { return };
                let Some(mut ac) = self.take(id, *acc) else { return };
                if ac.map != pc.map || ac.heads != pc.heads {
                    self.errors.at_op(id, "the partial output and the accumulator hold different tokens or heads");
                }
                if pc.valid_rows.as_ref() != Some(rows) {
                    let written = pc.valid_rows.as_ref().map_or("no rows".to_string(), |r| r.to_string());
                    self.errors.at_op(id, format!("merges rows {rows}, but the block wrote rows {written}"));
                }
                if ac.normalized {
                    self.errors.at_op(id, "merges into an output that is already normalised");
                }
                ac.records.extend(pc.records.iter().cloned());
                self.put(id, *acc, ac);
            }
            OpKind::Normalize { acc, dst } => {
                if let Some(c) = self.read(id, *acc) {
                    let mut c = Rc::unwrap_or_clone(c);
                    c.normalized = true;
                    self.put(id, *dst, c);
                }
            }
            OpKind::AttnBwd { q, q_rows, kv, kv_rows, dq, dkv, class } => {
                let (Some(qc), Some(kc)) = (self.read(id, *q), self.read(id, *kv)) else { return };
                self.first_head(id, *q, &qc);
                let Some(record) = self.block(id, &qc, q_rows, &kc, kv_rows, *class) else { return };
                let (Some(mut dqc), Some(mut dkc)) = (self.take(id, *dq), self.take(id, *dkv)) else { return };
                if dqc.map != qc.map || dqc.heads != qc.heads {
                    self.errors.at_op(id, "dq accumulator and queries hold different tokens or heads");
                }
                if dkc.map != kc.map || dkc.heads != kc.heads {
                    self.errors.at_op(id, "dk/dv accumulator and keys hold different tokens or heads");
                }
                dqc.records.push(record.clone());
                dkc.records.push(record);
                self.put(id, *dq, dqc);
                self.put(id, *dkv, dkc);
            }
            OpKind::Store { output, src, .. } => {
                if let Some(c) = self.read(id, *src) {
                    coverage::check_store(plan, id, *output, &c, self.errors);
                }
            }
            OpKind::SendRecv { .. }
            | OpKind::AllGather { .. }
            | OpKind::ReduceScatter { .. }
            | OpKind::AllToAll { .. }
            | OpKind::Barrier { .. } => {}
        }
    }

    /// The query buffer's `head0` (what a score that reads the head counts from) is the first of
    /// the heads it holds, and they are consecutive.
    fn first_head(&mut self, id: OpId, q: BufId, qc: &Content) {
        let head0 = self.plan.buf(q).head0;
        let consecutive = qc.heads.iter().enumerate().all(|(i, &h)| h == head0 + i as u32);
        if !consecutive {
            self.errors.at_op(id, format!("the queries hold heads {:?}, not heads from head0 = {head0} on", qc.heads));
        }
    }

    /// Checks one block (heads pair up by GQA, the class fits its tokens) and records it.
    fn block(
        &mut self,
        id: OpId,
        qc: &Content,
        q_rows: &RowSet,
        kc: &Content,
        kv_rows: &RowSet,
        class: crate::ir::MaskClass,
    ) -> Option<Rc<Record>> {
        let p = &self.plan.problem;
        let (nq, nk) = (qc.heads.len(), kc.heads.len());
        if nk == 0 || nq % nk != 0 {
            self.errors.at_op(id, format!("{nq} query heads cannot share {nk} KV heads"));
            return None;
        }
        for (i, &h) in qc.heads.iter().enumerate() {
            let g = kc.heads[i / (nq / nk)];
            if g != h / p.group_size() {
                self.errors.at_op(
                    id,
                    format!("pairs query head {h} with KV head {g}; it belongs to KV head {}", h / p.group_size()),
                );
                return None;
            }
        }
        let q_tokens = qc.map.tokens_of(q_rows);
        let kv_tokens = RowSet::from_intervals(kc.map.tokens_of(kv_rows));
        match classify(p, &q_tokens, &kv_tokens) {
            None => {
                self.errors
                    .at_op(id, "the block has no allowed pair: it lies outside the mask and must not be computed");
                return None;
            }
            Some(want) if want != class => {
                self.errors.at_op(id, format!("marked {}, but its tokens need {}", class.name(), want.name()))
            }
            Some(_) => {}
        }
        Some(Rc::new(Record { q_heads: qc.heads.clone(), q: RowSet::from_intervals(q_tokens), kv: kv_tokens }))
    }

    /// Runs instance k of a collective once every member has entered it.
    fn try_collective(&mut self, id: OpId, g: crate::ir::GroupId) -> bool {
        let plan = self.plan;
        let rank = plan.op(id).rank;
        let Some(k) = self.pairs.collectives.get(&(g, rank)).and_then(|v| v.iter().position(|&o| o == id)) else {
            return false;
        };
        let members = &plan.group(g).members;
        let mut ops = Vec::new();
        for &m in members {
            match self.pairs.collectives.get(&(g, m)).and_then(|v| v.get(k)) {
                Some(&o) if self.posted.contains(o) && !self.done.contains(o) => ops.push(o),
                _ => return false,
            }
        }
        if ops.iter().any(|&o| plan.op(o).kind.name() != plan.op(id).kind.name()) {
            return false; // Order mismatch, reported by comm.rs; the simulation reports the block.
        }
        self.collective(&ops);
        for o in ops {
            self.complete(o);
        }
        true
    }

    fn collective(&mut self, ops: &[OpId]) {
        let plan = self.plan;
        let n = ops.len();
        let srcs: Vec<Option<Rc<Content>>> =
            ops.iter().map(|&o| plan.op(o).kind.collective_buffers().and_then(|(src, _)| self.read(o, src))).collect();
        if matches!(plan.op(ops[0]).kind, OpKind::Barrier { .. }) {
            return;
        }
        let Some(srcs) = srcs.into_iter().collect::<Option<Vec<Rc<Content>>>>() else { return };
        let records: Vec<Rc<Record>> = srcs.iter().flat_map(|c| c.records.iter().cloned()).collect();
        let normalized = srcs.iter().all(|c| c.normalized);
        for (i, &o) in ops.iter().enumerate() {
            let content = match &plan.op(o).kind {
                OpKind::AllGather { natural, dst, .. } => {
                    let map = TokenMap::concat(srcs.iter().map(|c| &c.map));
                    let map = if *natural { map.sorted() } else { map };
                    self.same_heads(o, &srcs);
                    Some((
                        *dst,
                        Content {
                            heads: srcs[i].heads.clone(),
                            map,
                            records: records.clone(),
                            normalized,
                            valid_rows: None,
                        },
                    ))
                }
                OpKind::ReduceScatter { dst, like, .. } => {
                    self.same_heads(o, &srcs);
                    self.read(o, *like).map(|l| {
                        self.holds_all(o, &srcs, &l.map);
                        (
                            *dst,
                            Content {
                                heads: srcs[i].heads.clone(),
                                map: l.map.clone(),
                                records: records.clone(),
                                normalized,
                                valid_rows: None,
                            },
                        )
                    })
                }
                OpKind::AllToAll { dst, dir: A2aDir::SeqToHeads { natural }, .. } => {
                    self.same_heads(o, &srcs);
                    let heads = &srcs[i].heads;
                    if heads.len() % n != 0 {
                        self.errors.at_op(o, format!("{} heads do not split over {n} ranks", heads.len()));
                        return;
                    }
                    let chunk = heads.len() / n;
                    let map = TokenMap::concat(srcs.iter().map(|c| &c.map));
                    let map = if *natural { map.sorted() } else { map };
                    let heads = heads[i * chunk..(i + 1) * chunk].to_vec();
                    Some((*dst, Content { heads, map, records: records.clone(), normalized, valid_rows: None }))
                }
                OpKind::AllToAll { dst, dir: A2aDir::HeadsToSeq { like }, .. } => self.read(o, *like).map(|l| {
                    self.holds_all(o, &srcs, &l.map);
                    let heads = srcs.iter().flat_map(|c| c.heads.iter().copied()).collect();
                    (
                        *dst,
                        Content { heads, map: l.map.clone(), records: records.clone(), normalized, valid_rows: None },
                    )
                }),
                _ => None,
            };
            if let Some((dst, c)) = content {
                self.put(o, dst, c);
            }
        }
    }

    fn same_heads(&mut self, op: OpId, srcs: &[Rc<Content>]) {
        if srcs.iter().any(|c| c.heads != srcs[0].heads) {
            self.errors.at_op(op, "members bring different heads to the collective");
        }
    }

    fn holds_all(&mut self, op: OpId, srcs: &[Rc<Content>], want: &TokenMap) {
        let want = want.token_set();
        for c in srcs {
            if c.map.token_set().intersect(&want) != want {
                self.errors.at_op(op, format!("a member lacks some of the tokens {want} this rank needs"));
                return;
            }
        }
    }

    fn report_blocked(&mut self) {
        let plan = self.plan;
        let total = plan.op_ids().count();
        if self.done.count == total {
            return;
        }
        let mut blocked = Vec::new();
        for rank in 0..plan.header.cp as usize {
            for s in 0..2 {
                let Some(id) = self.head(rank, s) else { continue };
                if !self.posted.contains(id) {
                    continue;
                }
                let why = match &plan.op(id).kind {
                    OpKind::SendRecv { sends, recvs } => {
                        let mut waits = Vec::new();
                        for (i, t) in sends.iter().enumerate() {
                            if !self.matched.contains(plan, (id, i, true)) {
                                waits.push(format!("rank {} to receive", t.peer));
                            }
                        }
                        for (i, t) in recvs.iter().enumerate() {
                            if !self.matched.contains(plan, (id, i, false)) {
                                waits.push(format!("rank {} to send", t.peer));
                            }
                        }
                        format!("waits for {}", waits.join(" and "))
                    }
                    kind => match kind.collective_group() {
                        Some(g) => format!("waits for the other members of {}", plan.group(g).name),
                        None => "waits".to_string(),
                    },
                };
                blocked.push((id, why));
            }
        }
        for (id, why) in blocked {
            self.errors.at_op(id, format!("deadlock: {why}"));
        }
        self.errors.global(format!("deadlock: {} of {total} ops can never run", total - self.done.count));
    }
}
