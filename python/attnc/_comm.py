"""The executor's transport as torch.distributed: the Rust executor calls ``send_recv`` from a
rank's communication thread with one group of sends and receives of its CP stream."""

from __future__ import annotations

from typing import Callable, Sequence

import torch
import torch.distributed as dist

SendRecv = Callable[[Sequence[tuple[int, bytearray]], Sequence[tuple[int, int]]], list[torch.Tensor]]


class Peers:
    """Plan ranks (the CP group's ranks) as torch.distributed peers: one group, or TE's
    ``[a2a_group, p2p_group]`` of a2a+p2p, where plan rank = p2p rank × a2a size + a2a rank."""

    def __init__(self, groups: Sequence[dist.ProcessGroup]):
        self.groups = list(groups)
        if len(self.groups) == 1:
            group = self.groups[0]
            self.size = dist.get_world_size(group)
            self.rank = dist.get_rank(group)
            self.global_ranks = None
        else:
            a2a, p2p = self.groups
            size_a, size_p = dist.get_world_size(a2a), dist.get_world_size(p2p)
            self.size = size_a * size_p
            self.rank = dist.get_rank(p2p) * size_a + dist.get_rank(a2a)
            self.a2a_ranks = dist.get_process_group_ranks(a2a)
            self.p2p_ranks = dist.get_process_group_ranks(p2p)
            self.size_a = size_a
            self.global_ranks = True
            shared = sorted(set(self.a2a_ranks) & set(self.p2p_ranks))
            if shared != [dist.get_rank()]:
                raise ValueError(
                    "argument `cp_group`: a2a+p2p's [a2a_group, p2p_group] meet in this rank alone (TE's "
                    f"hierarchy: every a2a group crosses every p2p group once); these share global ranks {shared}"
                )

    def op(self, fn, tensor: torch.Tensor, peer: int) -> dist.P2POp:
        if self.global_ranks is None:
            return dist.P2POp(fn, tensor, group=self.groups[0], group_peer=peer)
        mine_i, mine_j = self.rank % self.size_a, self.rank // self.size_a
        i, j = peer % self.size_a, peer // self.size_a
        if j == mine_j:
            return dist.P2POp(fn, tensor, group=self.groups[0], group_peer=i)
        if i == mine_i:
            return dist.P2POp(fn, tensor, group=self.groups[1], group_peer=j)
        raise RuntimeError(
            f"rank {self.rank}: the plan sends to rank {peer}, which shares neither the a2a nor the p2p group"
        )


def send_recv_over(peers: Peers, fail: Callable[[], None] | None = None) -> SendRecv:
    """``send_recv`` on ``peers``: every send and receive of the group posted at once
    (``batch_isend_irecv``), then waited for; sends and receives between two ranks pair in order.

    The tensors handed to torch.distributed own their memory (a copy of each send; fresh receive
    buffers, which the executor reads through their data pointers): a tensor viewing a Python
    object would be released by gloo's threads, which then take the GIL — at interpreter exit
    that aborts the process."""

    def send_recv(sends, recvs):
        if fail is not None:
            fail()
        ops = []
        out: list[torch.Tensor] = []
        for peer, data in sends:
            if len(data):
                ops.append(peers.op(dist.isend, torch.frombuffer(data, dtype=torch.uint8).clone(), peer))
        for peer, nbytes in recvs:
            buf = torch.empty(nbytes, dtype=torch.uint8)
            out.append(buf)
            if nbytes:
                ops.append(peers.op(dist.irecv, buf, peer))
        if ops:
            for work in dist.batch_isend_irecv(ops):
                work.wait()
        return out

    return send_recv
