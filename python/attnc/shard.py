"""Splitting sequences over a CP group as Megatron-LM and TransformerEngine do, and joining them.

``shard`` equals Megatron-LM's ``get_batch_on_this_cp_rank`` (zigzag: 2·cp chunks, rank r holds
chunks r and 2cp−1−r) and, for THD, TransformerEngine's ``thd_get_partitioned_indices`` (every
padded sequence split zigzag by itself). The indices come from attnc's own partition, the one its
plans are built on, so a shard and a plan cannot disagree.
"""

from __future__ import annotations

from typing import Sequence

import torch

from attnc import _native


def _padded(cu_seqlens_padded) -> list[int]:
    cu = [int(x) for x in (cu_seqlens_padded.tolist() if torch.is_tensor(cu_seqlens_padded) else cu_seqlens_padded)]
    return [b - a for a, b in zip(cu, cu[1:])]


def shard_indices(
    total: int, cp_size: int, cp_rank: int, *, cu_seqlens_padded=None, balance: str = "zigzag"
) -> torch.Tensor:
    """The global token indices rank ``cp_rank`` holds, in local order (int64)."""
    if cu_seqlens_padded is not None:
        tokens = _native.partition_tokens(cp_size, cp_rank, padded_seqlens=_padded(cu_seqlens_padded))
    else:
        tokens = _native.partition_tokens(cp_size, cp_rank, seq=total, balance=balance)
    return torch.tensor(tokens, dtype=torch.int64)


def shard(
    x: torch.Tensor,
    cp_size: int,
    cp_rank: int,
    *,
    seq_dim: int = 0,
    cu_seqlens_padded=None,
    balance: str = "zigzag",
) -> torch.Tensor:
    """Rank ``cp_rank``'s rows of ``x`` along ``seq_dim`` (0 for sbhd and thd, 1 for bshd)."""
    index = shard_indices(x.shape[seq_dim], cp_size, cp_rank, cu_seqlens_padded=cu_seqlens_padded, balance=balance)
    return x.index_select(seq_dim, index.to(x.device))


def unshard(
    shards: Sequence[torch.Tensor],
    *,
    seq_dim: int = 0,
    cu_seqlens_padded=None,
    balance: str = "zigzag",
) -> torch.Tensor:
    """The whole tensor from every rank's shard, in rank order (the inverse of ``shard``)."""
    cp = len(shards)
    total = sum(s.shape[seq_dim] for s in shards)
    shape = list(shards[0].shape)
    shape[seq_dim] = total
    out = shards[0].new_empty(shape)
    for rank, part in enumerate(shards):
        index = shard_indices(total, cp, rank, cu_seqlens_padded=cu_seqlens_padded, balance=balance)
        out.index_copy_(seq_dim, index.to(out.device), part)
    return out
