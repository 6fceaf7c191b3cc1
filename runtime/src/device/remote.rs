//! The seam between ranks in different processes: a [`Remote`] moves one op's sends and
//! receives, or one whole collective, of a device's memory (NCCL on GPUs, torch.distributed
//! from Python). The executor (`crate::exec`) packs what moves; a transport only carries it.

use super::Device;

/// A region to send or receive: the peer, the device memory and offset, the bytes.
pub type Transfer<'a, M> = (u32, (&'a M, usize), usize);

/// Transfers between processes: one SendRecv op's sends and recvs as one group, enqueued on the
/// rank's CP stream (NCCL's `ncclGroupStart`/`ncclSend`/`ncclRecv`/`ncclGroupEnd`). Sends and
/// recvs between two ranks pair up in order.
pub trait Remote<D: Device>: Sync {
    fn send_recv(
        &self,
        device: &D,
        rank: u32,
        stream: usize,
        sends: &[Transfer<'_, D::Mem>],
        recvs: &[Transfer<'_, D::Mem>],
    ) -> Result<(), String>;

    /// One collective between processes, packed by the executor (`collective.rs`): one staged
    /// region per other member each way. A transport with collectives of its own (torch's
    /// `all_to_all_single`, `all_gather_into_tensor`) runs it as one; the default sends and
    /// receives the regions as one group.
    fn collective(
        &self,
        device: &D,
        rank: u32,
        stream: usize,
        collective: &Collective<'_, D::Mem>,
    ) -> Result<(), String> {
        self.send_recv(device, rank, stream, &collective.sends, &collective.recvs)
    }
}

/// Which collective a [`Collective`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveKind {
    /// Every member's rows to every other member: each send holds the same bytes.
    AllGather,
    /// Each member's slice for each other member (sequence to heads or back).
    AllToAll,
    /// Each member's partial rows for each other member, summed by the receiver in member order
    /// (an all-to-all on the wire, so the sum's order, hence its bits, is the plan's).
    ReduceScatter,
}

impl CollectiveKind {
    /// The name a transport sees (`all_gather`, `all_to_all`, `reduce_scatter`).
    pub fn name(self) -> &'static str {
        match self {
            CollectiveKind::AllGather => "all_gather",
            CollectiveKind::AllToAll => "all_to_all",
            CollectiveKind::ReduceScatter => "reduce_scatter",
        }
    }
}

/// One collective between processes as the executor hands it to a [`Remote`]: `members` are the
/// group's plan ranks in member order (the same list on every member), `sends` and `recvs` one
/// contiguous staged region per other member, in member order; the region for (or from) a member
/// has the same size on both sides.
pub struct Collective<'a, M> {
    pub kind: CollectiveKind,
    pub members: Vec<u32>,
    pub sends: Vec<Transfer<'a, M>>,
    pub recvs: Vec<Transfer<'a, M>>,
}
