"""Spec files from Python: ``attnc.load("model.attn").layout("pretrain")`` runs what the file
describes (``strategy = auto`` resolved by attnc's tuner, RoPE applied as the model says)."""

from __future__ import annotations

from typing import Optional, Sequence

from attnc import _native


class Layout:
    """One layout of a spec file, planned for a batch (THD: give its lengths)."""

    def __init__(self, path: str, name: str, seqlens: Optional[Sequence[int]] = None, padded=None):
        self.path, self.name = path, name
        self.plans = _native.load(
            path, name, None if seqlens is None else list(seqlens), None if padded is None else list(padded)
        )

    @property
    def cp(self) -> int:
        return self.plans.cp

    def strategy(self, layer: int = 0) -> str:
        """The strategy of layer ``layer`` (``auto`` as the tuner resolved it)."""
        return self.plans.strategy(layer)

    def rope(self, layer: int = 0):
        """How layer ``layer`` rotates q and k: ``None`` without RoPE, else ``(inv_freqs,
        attention_factor, first_dim, end_dim)`` — the scaled inverse frequencies of its rotated
        pairs (what ``transformers``' RoPE initialisation computes), the factor on cos and sin
        (YaRN's), and the rotated dims of a head."""
        return self.plans.rope(layer)

    def explain(self, rank: Optional[int] = None) -> str:
        """The plans as text: strategy and mask per layer class, per plan and rank the blocks,
        FLOPs and bytes; with ``rank``, that rank's programs."""
        return self.plans.explain(rank)

    def picture(self, layer: int = 0, backward: bool = False) -> str:
        """Layer ``layer``'s attention matrix as its plan computes it, as SVG text (what ``attnc
        plan --emit svg`` prints): tiles full, partial or empty under the mask, coloured by the
        rank that computes them, and the key rows each rank receives."""
        return self.plans.picture(layer, backward)

    @property
    def params(self) -> list:
        """The model's learned score parameters, in declaration order (``params = [...]``)."""
        return self.plans.params

    def attention(self, q, k, v, *, cp_group, layer: int = 0, sinks=None, params=None, return_lse: bool = False):
        """Layer ``layer``'s attention of this rank's shards over ``cp_group``, as the spec plans it.

        ``params``: the model's learned score parameters (``params = [...]`` in the spec), a dict of
        name to tensor ``[h]`` (one value per query head of ``q``); their gradients are this rank's
        share of the pairs, whole once summed over the CP group."""
        import torch

        from attnc import torch as at
        from attnc._comm import Peers

        groups = at._groups(cp_group, "a2a+p2p" if isinstance(cp_group, (list, tuple)) else "p2p")
        peers = Peers(groups)
        if peers.size != self.cp:
            raise ValueError(f"argument `cp_group`: {peers.size} ranks; layout `{self.name}` has cp {self.cp}")
        key = f"file:{self.path}:{self.name}:{id(self.plans)};format={self.plans.format}"
        at._PLANS[key] = self.plans
        declared = self.params
        given = dict(params or {})
        if sorted(given) != sorted(declared):
            raise ValueError(
                f"argument `params`: layout `{self.name}`'s model declares {declared or 'no learned parameters'}; "
                f"got {sorted(given) or 'none'}"
            )
        stacked = at._stack_params({name: given[name] for name in declared}, q.shape[-2])
        out, lse = torch.ops.attnc.cp_attention(
            q, k, v, sinks, stacked, None, None, None, None, key, layer, at._group_name(groups)
        )
        return (out, lse) if return_lse else out


class Spec:
    """A checked spec file."""

    def __init__(self, path: str):
        self.path = str(path)
        self.layouts = _native.layouts(self.path)

    def layout(self, name: Optional[str] = None, *, seqlens=None, padded_seqlens=None) -> Layout:
        if name is None:
            if len(self.layouts) != 1:
                raise ValueError(f"argument `name`: the file defines {len(self.layouts)} layouts: {self.layouts}")
            name = self.layouts[0]
        if name not in self.layouts:
            raise ValueError(f"argument `name`: no layout `{name}`; the file defines {self.layouts}")
        return Layout(self.path, name, seqlens, padded_seqlens)


def load(path) -> Spec:
    """Checks a ``.attn`` file; errors raise ``ValueError`` with the rendered diagnostics."""
    return Spec(path)
