"""The executor's transport as torch.distributed: the Rust executor calls a :class:`Transport`
from a rank's communication thread with one group of sends and receives of its CP stream, or with
one collective."""

from __future__ import annotations

from typing import Callable, Sequence

import torch
import torch.distributed as dist

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

    def group_of(self, members: Sequence[int]):
        """The caller's group made of exactly the plan ranks ``members``, with the map from a
        plan rank to its rank in that group; ``None`` when no group is (a plan's subgroup)."""
        if self.global_ranks is None:
            if sorted(members) == list(range(self.size)):
                return self.groups[0], lambda m: m
            return None
        size_p = self.size // self.size_a
        rows = {m // self.size_a for m in members}
        cols = {m % self.size_a for m in members}
        if len(rows) == 1 and len(cols) == len(members) == self.size_a:
            return self.groups[0], lambda m: m % self.size_a
        if len(cols) == 1 and len(rows) == len(members) == size_p:
            return self.groups[1], lambda m: m // self.size_a
        return None

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


def _frombuffer(data: bytearray) -> torch.Tensor:
    """A uint8 tensor owning a copy of ``data`` (see :class:`Transport` on why a copy)."""
    if not len(data):
        return torch.empty(0, dtype=torch.uint8)
    return torch.frombuffer(data, dtype=torch.uint8).clone()


class Transport:
    """The executor's transport on ``peers``. Called with a group of point-to-point transfers,
    every send and receive is posted at once (``batch_isend_irecv``), then waited for; sends and
    receives between two ranks pair in order. ``collective`` runs a collective of the plan whose
    members make up one of the caller's groups as torch's own (``all_to_all_single``;
    ``all_gather_into_tensor`` when every member contributes as many bytes), which NCCL runs on
    its collective paths; a plan group that is no caller's group travels as point-to-point.

    The tensors handed to torch.distributed own their memory (a copy of each send; fresh receive
    buffers, which the executor reads through their data pointers): a tensor viewing a Python
    object would be released by gloo's threads, which then take the GIL — at interpreter exit
    that aborts the process."""

    def __init__(self, peers: Peers, fail: Callable[[], None] | None = None):
        self.peers = peers
        self.fail = fail
        #: How many exchanges went each way (``p2p``, or the collective's kind), for tests.
        self.counts: dict[str, int] = {}

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def __call__(self, sends, recvs) -> list[torch.Tensor]:
        if self.fail is not None:
            self.fail()
        self._count("p2p")
        ops = []
        out: list[torch.Tensor] = []
        for peer, data in sends:
            if len(data):
                ops.append(self.peers.op(dist.isend, _frombuffer(data), peer))
        for peer, nbytes in recvs:
            buf = torch.empty(nbytes, dtype=torch.uint8)
            out.append(buf)
            if nbytes:
                ops.append(self.peers.op(dist.irecv, buf, peer))
        if ops:
            for work in dist.batch_isend_irecv(ops):
                work.wait()
        return out

    def collective(self, kind: str, members: Sequence[int], sends, recvs) -> list[torch.Tensor]:
        """``kind`` (``all_gather``, ``all_to_all`` or ``reduce_scatter``, the last summed by the
        executor) among the plan ranks ``members``; one send and one receive per other member."""
        found = self.peers.group_of(members)
        if found is None:
            return self(sends, recvs)
        if self.fail is not None:
            self.fail()
        group, index = found
        size = dist.get_world_size(group)
        if kind == "all_gather":
            mine = len(sends[0][1]) if sends else 0
            if all(n == mine for _, n in recvs):
                self._count(kind)
                gathered = torch.empty(size * mine, dtype=torch.uint8)
                dist.all_gather_into_tensor(gathered, _frombuffer(sends[0][1]), group=group)
                return [gathered.narrow(0, index(peer) * mine, mine) for peer, _ in recvs]
        self._count(kind)
        in_splits, out_splits = [0] * size, [0] * size
        for peer, data in sends:
            in_splits[index(peer)] = len(data)
        for peer, nbytes in recvs:
            out_splits[index(peer)] = nbytes
        starts = [sum(in_splits[:i]) for i in range(size)]
        packed = torch.empty(sum(in_splits), dtype=torch.uint8)
        for peer, data in sends:
            if len(data):
                packed.narrow(0, starts[index(peer)], len(data)).copy_(torch.frombuffer(data, dtype=torch.uint8))
        received = torch.empty(sum(out_splits), dtype=torch.uint8)
        dist.all_to_all_single(received, packed, out_splits, in_splits, group=group)
        at = [sum(out_splits[:i]) for i in range(size)]
        return [received.narrow(0, at[index(peer)], nbytes) for peer, nbytes in recvs]
