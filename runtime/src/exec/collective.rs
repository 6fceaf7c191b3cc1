//! Collectives of the device executor: with every rank on one device, the members of a group meet
//! on signals and copy (or sum) straight from each other's buffers; with one rank per process,
//! each packs what the others get into staging, hands it to the `Remote` as one `Collective`
//! (one region per other member each way: torch's collectives, or one group of sends and
//! receives), and unpacks or sums it in member order. Runs of rows are found by token,
//! head slices are 2-D copies, sums are `Device::add_2d`.

use std::sync::Arc;

use attnc_compiler::ir::{A2aDir, BufId, Buffer, GroupId, OpId, OpKind, TokenMap};

use super::{Collective, CollectiveKind, Remote, Run, Transfer};
use crate::RuntimeError;
use crate::device::{Device, DeviceError, Dims, PlaneKind, Rows2d, buffer_bytes, plane};
use crate::exec::tokens_in_order;

/// One instance of a collective on one device: each member's signal when its source is ready, then
/// when it has finished reading the others'.
pub(super) struct Meeting<D: Device> {
    pub(super) ready: Vec<Option<Arc<D::Signal>>>,
    pub(super) done: Vec<Option<Arc<D::Signal>>>,
}

impl<D: Device> Run<'_, D> {
    /// A collective with every member on this device: meet, read the others' buffers, meet again.
    pub(super) fn collective_local(&self, rank: u32, s: usize, id: OpId) -> Result<(), RuntimeError> {
        let plan = self.plan;
        match &plan.op(id).kind {
            OpKind::AllGather { group, dst, .. } => {
                self.meet(rank, s, id, *group, || {
                    for (_, m_src) in self.members(id, *group) {
                        let tokens = tokens_in_order(&plan.buf(m_src).tokens);
                        self.place_rows(rank, s, &self.view(m_src), &tokens, &self.view(*dst), false)?;
                    }
                    Ok(())
                })?;
            }
            OpKind::ReduceScatter { group, dst, .. } => {
                self.meet(rank, s, id, *group, || {
                    let mine = tokens_in_order(&plan.buf(*dst).tokens);
                    for (i, (_, m_src)) in self.members(id, *group).into_iter().enumerate() {
                        self.place_rows(rank, s, &self.view(m_src), &mine, &self.view(*dst), i > 0)?;
                    }
                    Ok(())
                })?;
            }
            OpKind::AllToAll { group, dst, dir, .. } => {
                let members = self.members(id, *group);
                let n = members.len();
                let me = members.iter().position(|m| m.0 == rank).expect("a member of its own group");
                self.meet(rank, s, id, *group, || {
                    for (j, &(_, m_src)) in members.iter().enumerate() {
                        match dir {
                            // Member j's rows, heads of my slice, into my rows of its tokens.
                            A2aDir::SeqToHeads { .. } => {
                                let c = plan.buf(m_src).heads as usize / n;
                                let tokens = tokens_in_order(&plan.buf(m_src).tokens);
                                let (from, to) = (self.view(m_src), self.view(*dst));
                                self.place_heads(rank, s, &from, &tokens, (me * c, c), &to, (0, c))?;
                            }
                            // Member j's rows of my tokens, all its heads, into my head slice j.
                            A2aDir::HeadsToSeq { .. } => {
                                let c = plan.buf(m_src).heads as usize;
                                let tokens = tokens_in_order(&plan.buf(*dst).tokens);
                                let (from, to) = (self.view(m_src), self.view(*dst));
                                self.place_heads(rank, s, &from, &tokens, (0, c), &to, (j * c, c))?;
                            }
                        }
                    }
                    Ok(())
                })?;
            }
            other => return Err(self.op_error(rank, id).at(format!("{other:?} is not a collective"))),
        }
        Ok(())
    }

    /// Every member of `group` with its source buffer in the same collective instance as `id`.
    fn members(&self, id: OpId, group: GroupId) -> Vec<(u32, BufId)> {
        self.plan
            .group(group)
            .members
            .iter()
            .map(|&m| {
                let peer = self.plan.op(self.proof.partner(id, m)).kind.collective_buffers();
                (m, peer.expect("verified: members enter the same collective").0)
            })
            .collect()
    }

    /// A collective on one device: every member signals that its source is ready and waits for
    /// the others', does its own reads (`work`, into its own destination), then signals that it
    /// has read and waits until every member has, so no source is overwritten while read.
    pub(super) fn meet(
        &self,
        rank: u32,
        s: usize,
        id: OpId,
        group: GroupId,
        work: impl FnOnce() -> Result<(), RuntimeError>,
    ) -> Result<(), RuntimeError> {
        let mut work = Some(work);
        self.meet_phases(rank, s, id, group, &mut || work.take().map_or(Ok(()), |w| w()))
    }

    fn meet_phases(
        &self,
        rank: u32,
        s: usize,
        id: OpId,
        group: GroupId,
        work: &mut dyn FnMut() -> Result<(), RuntimeError>,
    ) -> Result<(), RuntimeError> {
        let err = self.op_error(rank, id);
        let members = self.plan.group(group).members.clone();
        let me = members.iter().position(|&m| m == rank).expect("a member of its own group");
        let k = self.proof.instance(id);
        for phase in 0..2 {
            let signal = Arc::new(self.device.signal(rank, s).map_err(|e| err.at(e))?);
            {
                let mut meetings = self.meetings.lock().unwrap_or_else(|e| e.into_inner());
                let m = meetings.entry((group, k)).or_insert_with(|| Meeting {
                    ready: (0..members.len()).map(|_| None).collect(),
                    done: (0..members.len()).map(|_| None).collect(),
                });
                let slots = if phase == 0 { &mut m.ready } else { &mut m.done };
                slots[me] = Some(signal);
            }
            self.met.notify_all();
            let mut all = Vec::new();
            self.block(
                (rank, id),
                &self.meetings,
                &self.met,
                || format!("the other members of {}", self.plan.group(group).name),
                |meetings| {
                    let m = &meetings[&(group, k)];
                    let list = if phase == 0 { &m.ready } else { &m.done };
                    all = list.iter().flatten().cloned().collect();
                    all.len() == members.len()
                },
            )?;
            for (i, signal) in all.iter().enumerate() {
                if i != me {
                    self.device.wait(rank, s, signal).map_err(|e| err.at(e))?;
                }
            }
            if phase == 0 {
                work()?;
            }
        }
        Ok(())
    }

    /// A plan buffer where it lives.
    fn view(&self, b: BufId) -> View<'_, D::Mem> {
        View { mem: self.mem(b), base: 0, buf: self.plan.buf(b) }
    }

    fn plane_of<'v>(&self, v: &View<'v, D::Mem>, kind: PlaneKind) -> (&'v D::Mem, usize) {
        let p = &self.plan.problem;
        (v.mem, v.base + plane(v.buf, Dims::of(p), kind).offset)
    }

    /// Copies (`add`: adds) the rows of `tokens` from `src` into the rows of the same tokens of
    /// `dst`, all heads.
    fn place_rows(
        &self,
        rank: u32,
        s: usize,
        src: &View<'_, D::Mem>,
        tokens: &[u64],
        dst: &View<'_, D::Mem>,
        add: bool,
    ) -> Result<(), RuntimeError> {
        if add {
            return self.place_sum(rank, s, src, tokens, dst);
        }
        let heads = dst.buf.heads as usize;
        self.place_heads(rank, s, src, tokens, (0, heads), dst, (0, heads))
    }

    /// Adds the rows of `tokens` of `src` into the rows of the same tokens of `dst` (fp32 planes).
    fn place_sum(
        &self,
        rank: u32,
        s: usize,
        src: &View<'_, D::Mem>,
        tokens: &[u64],
        dst: &View<'_, D::Mem>,
    ) -> Result<(), RuntimeError> {
        let w = |kind: PlaneKind| kind.width(Dims::of(&self.plan.problem)) * dst.buf.heads as usize;
        self.each_run(rank, src, tokens, dst, "a sum into", |kind, from, to, s_row, d_row, len| {
            let w = w(kind);
            let rows = Rows2d {
                src: (from.0, from.1 + s_row * w * 4),
                src_pitch: w,
                dst: (to.0, to.1 + d_row * w * 4),
                dst_pitch: w,
                width: w * len,
                height: 1,
            };
            self.device.add_2d(rank, s, rows)
        })
    }

    /// For each plane of `dst` and each run of rows of `tokens` found in both buffers:
    /// `each(plane, src plane, dst plane, first src row, first dst row, rows)`; an error names the
    /// rank and the op (`what` the destination buffer).
    fn each_run(
        &self,
        rank: u32,
        src: &View<'_, D::Mem>,
        tokens: &[u64],
        dst: &View<'_, D::Mem>,
        what: &str,
        each: impl Fn(PlaneKind, (&D::Mem, usize), (&D::Mem, usize), usize, usize, usize) -> Result<(), DeviceError>,
    ) -> Result<(), RuntimeError> {
        let p = &self.plan.problem;
        let (sb, db) = (src.buf, dst.buf);
        for &kind in crate::device::planes(db.kind) {
            let (from, to) = (self.plane_of(src, kind), self.plane_of(dst, kind));
            let runs = row_runs(&sb.tokens, sb.rows as usize, &db.tokens, db.rows as usize, tokens, p.batch as usize);
            for (_, s_row, d_row, len) in runs {
                each(kind, from, to, s_row, d_row, len).map_err(|m| RuntimeError::Rank {
                    rank,
                    op: format!("{what} {}", db.name),
                    message: m.to_string(),
                })?;
            }
        }
        Ok(())
    }

    /// Copies heads `src_heads = (first, count)` of the rows of `tokens` in `src` to heads
    /// `dst_heads` of the rows of the same tokens in `dst`, every plane.
    #[allow(clippy::too_many_arguments)]
    fn place_heads(
        &self,
        rank: u32,
        s: usize,
        src: &View<'_, D::Mem>,
        tokens: &[u64],
        src_heads: (usize, usize),
        dst: &View<'_, D::Mem>,
        dst_heads: (usize, usize),
    ) -> Result<(), RuntimeError> {
        let (sh, dh) = (src.buf.heads as usize, dst.buf.heads as usize);
        let dims = Dims::of(&self.plan.problem);
        self.each_run(rank, src, tokens, dst, "a collective into", |kind, from, to, s_row, d_row, len| {
            let e = kind.width(dims) * kind.elem(dims.input).bytes();
            let (sp, dp) = (sh * e, dh * e);
            let from = (from.0, from.1 + s_row * sp + src_heads.0 * e);
            let to = (to.0, to.1 + d_row * dp + dst_heads.0 * e);
            let rows = Rows2d { src: from, src_pitch: sp, dst: to, dst_pitch: dp, width: src_heads.1 * e, height: len };
            self.device.copy_2d(rank, s, rows)
        })
    }

    /// The staging layouts of a collective between processes: what this rank packs for each other
    /// member, and what it receives from each, as buffers (kind, rows, heads, tokens).
    pub(super) fn staging(&self, id: OpId) -> (Vec<Staged>, Vec<Staged>) {
        let plan = self.plan;
        let op = plan.op(id);
        let rank = op.rank;
        let (group, src, dst) = match &op.kind {
            OpKind::AllGather { group, src, dst, .. }
            | OpKind::ReduceScatter { group, src, dst, .. }
            | OpKind::AllToAll { group, src, dst, .. } => (*group, *src, *dst),
            _ => return (Vec::new(), Vec::new()),
        };
        let (my_src, my_dst) = (plan.buf(src), plan.buf(dst));
        let members = self.members(id, group);
        let n = members.len() as u32;
        let like = |b: &Buffer, heads: u32| Buffer {
            heads,
            name: format!("staging of {}", b.name),
            rotating: false,
            halo: false,
            ..b.clone()
        };
        let shaped = |kind, rows_of: &Buffer, heads: u32| Buffer {
            kind,
            heads,
            name: format!("staging for {}", rows_of.name),
            rotating: false,
            halo: false,
            ..rows_of.clone()
        };
        let (mut out, mut inc) = (Vec::new(), Vec::new());
        for &(m, m_src) in &members {
            if m == rank {
                continue;
            }
            let m_dst = plan.buf(self.peer_op(id, m).kind.collective_buffers().expect("a collective").1);
            let m_src = plan.buf(m_src);
            let (o, i) = match &op.kind {
                OpKind::AllGather { .. } => (like(my_src, my_src.heads), like(m_src, m_src.heads)),
                OpKind::ReduceScatter { .. } => {
                    (shaped(my_src.kind, m_dst, m_dst.heads), shaped(my_src.kind, my_dst, my_dst.heads))
                }
                OpKind::AllToAll { dir: A2aDir::SeqToHeads { .. }, .. } => {
                    let c = my_src.heads / n;
                    (like(my_src, c), like(m_src, c))
                }
                _ => {
                    let c = my_src.heads;
                    (shaped(my_src.kind, m_dst, c), shaped(my_src.kind, my_dst, c))
                }
            };
            out.push((m, o));
            inc.push((m, i));
        }
        (out, inc)
    }

    /// The op of member `m` in the same collective instance as `id`.
    fn peer_op(&self, id: OpId, m: u32) -> &attnc_compiler::ir::Op {
        self.plan.op(self.proof.partner(id, m))
    }

    /// A collective between processes: pack what each other member gets into staging, exchange
    /// through `remote` as one group, unpack (or sum, in member order) into this rank's buffer.
    pub(super) fn collective_remote(
        &self,
        rank: u32,
        s: usize,
        id: OpId,
        remote: &dyn Remote<D>,
    ) -> Result<(), RuntimeError> {
        let plan = self.plan;
        let dims = Dims::of(&plan.problem);
        let err = self.op_error(rank, id);
        let op = plan.op(id);
        let (group, src, dst) = match &op.kind {
            OpKind::AllGather { group, src, dst, .. }
            | OpKind::ReduceScatter { group, src, dst, .. }
            | OpKind::AllToAll { group, src, dst, .. } => (*group, *src, *dst),
            other => return Err(err.at(format!("{other:?} is not a collective"))),
        };
        let mem = self.staging_mem[rank as usize][s].as_ref().expect("sized for this stream's collectives");
        let (out, inc) = self.staging(id);
        let mut offset = 0;
        let mut place = |bufs: &[Staged]| -> Vec<usize> {
            bufs.iter()
                .map(|(_, b)| {
                    let at = offset;
                    offset += buffer_bytes(b, dims);
                    at
                })
                .collect()
        };
        let (out_at, inc_at) = (place(&out), place(&inc));
        let members = self.members(id, group);
        let n = members.len();
        let me = members.iter().position(|m| m.0 == rank).expect("a member of its own group");
        let (my_src, my_dst) = (self.view(src), self.view(dst));
        let mine = tokens_in_order(&plan.buf(dst).tokens);
        // Pack.
        for ((m, b), &at) in out.iter().zip(&out_at) {
            let j = members.iter().position(|x| x.0 == *m).expect("a member");
            let v = View { mem, base: at, buf: b };
            let tokens = tokens_in_order(&b.tokens);
            match &op.kind {
                OpKind::AllGather { .. } | OpKind::ReduceScatter { .. } => {
                    self.place_rows(rank, s, &my_src, &tokens, &v, false)?
                }
                OpKind::AllToAll { dir: A2aDir::SeqToHeads { .. }, .. } => {
                    let c = b.heads as usize;
                    self.place_heads(rank, s, &my_src, &tokens, (j * c, c), &v, (0, c))?
                }
                _ => {
                    let c = b.heads as usize;
                    self.place_heads(rank, s, &my_src, &tokens, (0, c), &v, (0, c))?
                }
            }
        }
        // Exchange: one contiguous region per other member each way.
        let spans = |bufs: &[Staged], at: &[usize]| -> Vec<Transfer<'_, D::Mem>> {
            bufs.iter().zip(at).map(|((m, b), &base)| (*m, (mem, base), buffer_bytes(b, dims))).collect()
        };
        let kind = match &op.kind {
            OpKind::AllGather { .. } => CollectiveKind::AllGather,
            OpKind::ReduceScatter { .. } => CollectiveKind::ReduceScatter,
            _ => CollectiveKind::AllToAll,
        };
        let exchange = Collective {
            kind,
            members: members.iter().map(|m| m.0).collect(),
            sends: spans(&out, &out_at),
            recvs: spans(&inc, &inc_at),
        };
        remote.collective(self.device, rank, s, &exchange).map_err(|e| err.at(e))?;
        // Unpack, in member order.
        for (i, &(m, _)) in members.iter().enumerate() {
            let received =
                inc.iter().zip(&inc_at).find(|((x, _), _)| *x == m).map(|((_, b), &at)| View { mem, base: at, buf: b });
            let from = received.as_ref().unwrap_or(&my_src);
            let from_tokens = tokens_in_order(&from.buf.tokens);
            match &op.kind {
                OpKind::AllGather { .. } => self.place_rows(rank, s, from, &from_tokens, &my_dst, false)?,
                OpKind::ReduceScatter { .. } => self.place_rows(rank, s, from, &mine, &my_dst, i > 0)?,
                OpKind::AllToAll { dir: A2aDir::SeqToHeads { .. }, .. } => {
                    let c = plan.buf(src).heads as usize / n;
                    let first = if received.is_some() { 0 } else { me * c };
                    self.place_heads(rank, s, from, &from_tokens, (first, c), &my_dst, (0, c))?
                }
                _ => {
                    let c = plan.buf(src).heads as usize;
                    self.place_heads(rank, s, from, &mine, (0, c), &my_dst, (i * c, c))?
                }
            }
        }
        Ok(())
    }
}

/// A staged exchange with one member: the member and the layout of what travels.
type Staged = (u32, Buffer);

/// A buffer's planes in some memory: a plan buffer where it lives, or a staging copy of one.
struct View<'a, M> {
    mem: &'a M,
    base: usize,
    buf: &'a Buffer,
}

/// Runs of `tokens` (in that order) as (batch, first source row, first destination row, rows), rows
/// counted over batch elements (`b · rows + row`), each run consecutive in both buffers.
pub(crate) fn row_runs(
    src: &TokenMap,
    src_rows: usize,
    dst: &TokenMap,
    dst_rows: usize,
    tokens: &[u64],
    batch: usize,
) -> Vec<(usize, usize, usize, usize)> {
    let (si, di) = (crate::exec::RowIndex::new(src), crate::exec::RowIndex::new(dst));
    let mut out: Vec<(usize, usize, usize, usize)> = Vec::new();
    for b in 0..batch {
        for &t in tokens {
            let (Some(sr), Some(dr)) = (si.row(t), di.row(t)) else { continue };
            let (sr, dr) = (b * src_rows + sr, b * dst_rows + dr);
            match out.last_mut() {
                Some(run) if run.0 == b && run.1 + run.3 == sr && run.2 + run.3 == dr => run.3 += 1,
                _ => out.push((b, sr, dr, 1)),
            }
        }
    }
    out
}
