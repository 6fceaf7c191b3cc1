"""fp64 attention on whole (unsharded) tensors: the oracle of the package's tests, written from the
definitions (docs/numerics.md), independently of attnc's reference."""

from __future__ import annotations

import math
from typing import Optional

import torch


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool,
    window: Optional[int] = None,
    softcap: Optional[float] = None,
    sinks: Optional[torch.Tensor] = None,
    docs: Optional[torch.Tensor] = None,
    positions: Optional[torch.Tensor] = None,
    valid: Optional[torch.Tensor] = None,
    scale: Optional[float] = None,
    prefix: Optional[int] = None,
    score_mod=None,
    mask_mod=None,
):
    """q ``[b, t, h, d]``, k/v ``[b, t, hk, *]`` (fp64, autograd-able). ``docs``/``positions``/
    ``valid``: per token its sequence, position in it and whether it is a real token (THD);
    ``scale``: the softmax scale (1/sqrt(d) when None); ``prefix``: with ``causal``, the first
    ``prefix`` positions of each sequence are seen by every query of it (prefix-LM);
    ``score_mod``: a function of the scaled scores ``[b, h, t, t]``, the query's and key's
    positions within their sequence (``[t, 1]``, ``[1, t]``) and the query head (``[h, 1, 1]``),
    written with torch's own ops
    (autograd gives its slope, ``torch.minimum``/``maximum`` splitting it at a tie);
    ``mask_mod``: which pairs each head sees besides the other rules, a boolean function of the
    same positions and head (``[h, t, t]``).
    Returns O ``[b, t, h, dv]`` and LSE ``[b, h, t]``; rows that see no key have O = 0."""
    b, t, h, d = q.shape
    group = h // k.shape[2]
    k = k.repeat_interleave(group, 2)
    v = v.repeat_interleave(group, 2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) * (scale if scale is not None else 1 / math.sqrt(d))
    if softcap is not None:
        s = softcap * torch.tanh(s / softcap)
    if score_mod is not None:
        pos = positions if positions is not None else torch.arange(t)
        heads = torch.arange(h)[:, None, None].to(s.dtype)
        s = score_mod(s, pos[:, None].to(s.dtype), pos[None, :].to(s.dtype), heads)
    pos = positions if positions is not None else torch.arange(t)
    allowed = torch.ones(t, t, dtype=torch.bool)
    if docs is not None:
        allowed &= docs[:, None] == docs[None, :]
    if valid is not None:
        allowed &= valid[None, :]
    if causal:
        seen = pos[None, :] <= pos[:, None]
        if prefix is not None:
            seen = seen | (pos[None, :] < prefix)
        allowed &= seen
    if window is not None:
        allowed &= pos[:, None] - pos[None, :] < window
    if mask_mod is not None:
        allowed = allowed & mask_mod(pos[:, None], pos[None, :], torch.arange(h)[:, None, None])
    s = s.masked_fill(~allowed, float("-inf"))
    if sinks is not None:
        sink = sinks.reshape(1, h, 1, 1).expand(b, h, t, 1).to(s.dtype)
        full = torch.cat([s, sink], dim=-1)
    else:
        full = s
    any_key = torch.isfinite(full).any(-1, keepdim=True)
    safe = torch.where(any_key, full, torch.zeros_like(full))
    lse = torch.logsumexp(safe, dim=-1, keepdim=True)
    p = torch.exp(safe - lse) * any_key
    p = p[..., :t]
    o = torch.einsum("bhqk,bkhd->bqhd", p, v)
    lse = torch.where(any_key, lse, torch.full_like(lse, float("-inf"))).squeeze(-1)
    return o, lse


#: Max abs error tolerances (docs/numerics.md): O, LSE, gradients.
TOLERANCES = {
    torch.float32: {"out": 2e-5, "lse": 1e-5, "grad": 1e-4},
    torch.bfloat16: {"out": 2e-2, "lse": 2e-2, "grad": 5e-2},
    torch.float16: {"out": 2e-2, "lse": 2e-2, "grad": 5e-2},
}
