"""Every comm type × format × feature, forward and backward, on 2 and 4 gloo ranks: the gathered
output, LSE and gradients of attnc.torch.attention against fp64 attention of the whole tensors.

All cases of one group size run in one start of the ranks (each start imports torch in every
process); each case is its own test, reading its errors from that run."""

from __future__ import annotations

import math

import pytest
import torch
import torch.distributed as dist

import reference
from conftest import run_ranks

FEATURES = (
    "causal", "no_mask", "window", "sinks", "softcap", "score", "mla", "bf16", "scale", "prefix", "heads", "learned",
    "tested", "tp",
)  # fmt: skip
COMMS = {2: ("p2p", "all_gather", "a2a", "auto"), 4: ("p2p", "all_gather", "a2a", "a2a+p2p")}
FORMATS = ("sbhd", "bshd", "thd")
# THD batches: real lengths (one empty), each padded to a multiple of 2·cp.
THD_SEQLENS = [10, 0, 23, 7]


def cases(world: int) -> list[tuple[str, str, str]]:
    return [(c, f, x) for c in COMMS[world] for f in FORMATS for x in FEATURES]


def _name(case) -> str:
    return "-".join(case)


def _groups(world: int, comm: str):
    """The CP group: the world, or TE's [a2a_group, p2p_group] with a2a groups of 2."""
    if comm != "a2a+p2p":
        return dist.group.WORLD
    a2a = p2p = None
    for start in range(0, world, 2):
        g = dist.new_group(list(range(start, start + 2)))
        if dist.get_rank() in range(start, start + 2):
            a2a = g
    for first in range(2):
        g = dist.new_group(list(range(first, world, 2)))
        if dist.get_rank() % 2 == first:
            p2p = g
    return [a2a, p2p]


def _gather(x: torch.Tensor, world: int) -> list[torch.Tensor]:
    parts = [torch.empty_like(x) for _ in range(world)]
    dist.all_gather(parts, x.contiguous())
    return parts


def run_case(rank: int, world: int, case) -> dict:
    import attnc
    import attnc.torch as at

    comm, fmt, feature = case
    torch.manual_seed(1234)
    # "scale": Gemma-3-27B's softmax scale (168^-1/2, not 1/sqrt(d)) in bf16, in the kernels.
    dtype = torch.bfloat16 if feature in ("bf16", "scale") else torch.float32
    scale = 168**-0.5 if feature == "scale" else None
    h, hk = 8, 4
    d, dv = (24, 16) if feature == "mla" else (16, 16)
    b = 1 if fmt == "thd" else 2
    unit = 2 * world
    if fmt == "thd":
        padded = [-(-n // unit) * unit for n in THD_SEQLENS]
        cu = [0]
        cu_p = [0]
        for n, p in zip(THD_SEQLENS, padded):
            cu.append(cu[-1] + n)
            cu_p.append(cu_p[-1] + p)
        t = cu_p[-1]
        docs = torch.cat([torch.full((p,), i) for i, p in enumerate(padded)]) if t else torch.zeros(0)
        positions = torch.cat([torch.arange(p) for p in padded])
        valid = torch.cat([torch.arange(p) < n for n, p in zip(THD_SEQLENS, padded)])
    else:
        t = 16 * world
        cu = cu_p = None
        docs = positions = valid = None
    q = torch.randn(b, t, h, d).to(dtype)
    k = torch.randn(b, t, hk, d).to(dtype)
    v = torch.randn(b, t, hk, dv).to(dtype)
    d_out = torch.randn(b, t, h, dv).to(dtype)
    if valid is not None:
        d_out = d_out * valid[None, :, None, None]
    sinks = torch.randn(h) if feature == "sinks" else None
    causal = feature != "no_mask"
    window = 9 if feature == "window" else None
    softcap = 5.0 if feature == "softcap" else None
    # "score": a score expression (`score=`) with kinks, against the same function in torch ops.
    # Kinks, the positions within each sequence and the head: ALiBi's slope per head, 2^-(h+1)
    # for 8 heads (under a2a each rank counts `h` from its first head), and the key's position.
    score = (
        "2 * tanh(s / 2) + max(s - 1, 0) / 4 - exp(min(s, 0) - 2) - alibi(h, 8) * (q - k) + k / 64"
        " - log(1 + q - k) / 8"
        if feature == "score"
        else None
    )

    # "learned": learned per-head score parameters (`score_params=`), a distance slope and a
    # temperature, with their gradients against torch autograd's of the same function.
    learned = None
    if feature == "learned":
        score = "s * exp(temp[h]) - slope[h] * (q - k)"
        learned = {"slope": 0.05 * torch.randn(h), "temp": 0.1 * torch.randn(h)}
        p_ref = {name: x.double().requires_grad_() for name, x in learned.items()}

    def score_mod(s, qp, kp, hp):
        if learned is not None:
            slope, temp = (p_ref[n].reshape(-1, 1, 1) for n in ("slope", "temp"))
            return s * torch.exp(temp) - slope * (qp - kp)
        zero = torch.zeros_like(s)
        kinked = 2 * torch.tanh(s / 2) + torch.maximum(s - 1, zero) / 4 - torch.exp(torch.minimum(s, zero) - 2)
        # log(1 + q - k) where the pair is allowed (masked pairs drop out; clamped so autograd stays finite).
        distance = torch.clamp(qp - kp, min=0)
        return kinked - torch.exp2(-(hp + 1)) * (qp - kp) + kp / 64 - torch.log1p(distance) / 8
    # "prefix": prefix-LM as a mask expression (`mask=`), a 5-token bidirectional prefix per sequence.
    prefix = 5 if feature == "prefix" else None
    # "heads": a mask that reads the head (`mask=`): heads 0..3 causal, 4..7 a window of 9 keys
    # (classes of whole GQA pairs); under a2a each rank runs the classes of the heads it holds.
    per_head = "k <= q & (h < 4 | q - k < 9)" if feature == "heads" else None

    def head_mask(qp, kp, hp):
        return (hp < 4) | (qp - kp < 9)

    # "tested": a mask that is no band (an anti-diagonal and a stride; queries 0 and 1 of each
    # sequence see nothing), planned by its hull and tested by the kernels at each pair.
    tested = "k <= q & q + k >= 4 & (q - k) % 3 != 1" if feature == "tested" else None

    def tested_mask(qp, kp, hp):
        return (qp + kp >= 4) & ((qp - kp) % 3 != 1)

    # "tp": a mask that reads the head, run as the second tensor-parallel slice of a 16-head model
    # (`head_offset=8`): heads 8..11 causal, 12..15 a stride of two, tested per pair at the
    # slice's own heads (under a2a each rank's from its first).
    offset = 8 if feature == "tp" else 0
    sliced = "k <= q & (h < 12 | (q - k) % 2 == 0)" if feature == "tp" else None

    def sliced_mask(qp, kp, hp):
        return (hp + offset < 12) | ((qp - kp) % 2 == 0)

    expression = sliced or per_head or tested or (f"k <= q | k < {prefix}" if prefix is not None else None)
    mask_mod = {"heads": head_mask, "tested": tested_mask, "tp": sliced_mask}.get(feature)

    # The fp64 reference on the whole tensors.
    leaves = [x.double().requires_grad_() for x in (q, k, v)]
    s_ref = sinks.double().requires_grad_() if sinks is not None else None
    o_ref, lse_ref = reference.attention(
        *leaves, causal=causal, window=window, softcap=softcap, sinks=s_ref, docs=docs, positions=positions, valid=valid,
        scale=scale, prefix=prefix, score_mod=score_mod if score is not None else None,
        mask_mod=mask_mod,
    )  # fmt: skip
    (o_ref * d_out.double()).sum().backward()

    # The layout the call takes, and this rank's shards.
    def to_fmt(x):
        if fmt == "sbhd":
            return x.transpose(0, 1).contiguous()
        if fmt == "thd":
            return x[0]
        return x

    seq_dim = 1 if fmt == "bshd" else 0
    group = _groups(world, comm)

    def shard(x):
        return attnc.shard(to_fmt(x), world, rank, seq_dim=seq_dim, cu_seqlens_padded=cu_p)

    ql, kl, vl = (shard(x).requires_grad_() for x in (q, k, v))
    sl = sinks.clone().requires_grad_() if sinks is not None else None
    pl = {name: x.clone().requires_grad_() for name, x in learned.items()} if learned is not None else None
    mask = "causal" if causal else "no_mask"
    kwargs = {}
    if fmt == "thd":
        kwargs = dict(cu_seqlens_q=torch.tensor(cu, dtype=torch.int32), cu_seqlens_kv=torch.tensor(cu, dtype=torch.int32),
                      cu_seqlens_q_padded=torch.tensor(cu_p, dtype=torch.int32),
                      cu_seqlens_kv_padded=torch.tensor(cu_p, dtype=torch.int32))  # fmt: skip
    out, lse = at.attention(
        ql, kl, vl, cp_group=group, cp_comm_type=comm, qkv_format=fmt, attn_mask_type=mask,
        window_size=None if window is None else (window - 1, 0), softcap=softcap, sinks=sl, return_lse=True,
        softmax_scale=scale, mask=expression, score=score,
        score_params=pl, head_offset=offset, **kwargs,
    )  # fmt: skip
    out.backward(shard(d_out))

    # Gather and compare on rank 0 (real tokens only).
    def whole(x, dim=seq_dim):
        return attnc.unshard(_gather(x.detach(), world), seq_dim=dim, cu_seqlens_padded=cu_p)

    def canon(x):  # the call's layout back to [b, t, ...]
        if fmt == "sbhd":
            return x.transpose(0, 1)
        if fmt == "thd":
            return x.unsqueeze(0)
        return x

    lse_dim = 1 if fmt == "thd" else 2
    got = {
        "out": canon(whole(out)),
        "lse": whole(lse, lse_dim) if fmt != "thd" else whole(lse, 1).unsqueeze(0),
        "dq": canon(whole(ql.grad)),
        "dk": canon(whole(kl.grad)),
        "dv": canon(whole(vl.grad)),
    }
    if sl is not None:
        dist.all_reduce(sl.grad)
    # Each rank's gradients of the learned parameters are its share of the pairs: summed over the
    # group (as a gradient all-reduce over the CP ranks sums them), the whole.
    for x in (pl or {}).values():
        dist.all_reduce(x.grad)
    if rank != 0:
        return {}
    want = {"out": o_ref, "lse": lse_ref, "dq": leaves[0].grad, "dk": leaves[1].grad, "dv": leaves[2].grad}
    tol = reference.TOLERANCES[dtype]
    errors = {}
    for name in want:
        g, w = got[name].double(), want[name]
        if valid is not None:
            g, w = (g[:, :, valid] if name == "lse" else g[:, valid]), (w[:, :, valid] if name == "lse" else w[:, valid])
        finite = torch.isfinite(w)
        if not torch.equal(finite, torch.isfinite(g)):
            errors[name] = (math.inf, 0.0)
            continue
        err = (g - w)[finite].abs().max().item() if finite.any() else 0.0
        errors[name] = (err, tol["grad"] if name.startswith("d") else tol[name])
    if sl is not None:
        err = (sl.grad.double() - s_ref.grad).abs().max().item()
        errors["dsinks"] = (err, tol["grad"] * math.sqrt(b * t))
    for name, x in (pl or {}).items():
        # A sum over every pair of the head: relative to the gradients' size.
        want_grad = p_ref[name].grad
        err = (x.grad.double() - want_grad).abs().max().item()
        errors[f"d{name}"] = (err, tol["grad"] * max(1.0, want_grad.abs().max().item()))
    return errors


#: The torch.distributed calls of attnc's transport, counted per case.
COUNTED = ("batch_isend_irecv", "all_to_all_single", "all_gather_into_tensor")


def run_all(rank: int, world: int) -> dict:
    import attnc._comm

    results, calls = {}, {}
    counts = dict.fromkeys(COUNTED, 0)

    def counting(name, fn):
        def call(*args, **kwargs):
            counts[name] += 1
            return fn(*args, **kwargs)

        return call

    # The transport's module sees counting wrappers; the test's own gathers are not counted.
    attnc._comm.dist = type("Counted", (), {n: staticmethod(counting(n, getattr(dist, n))) for n in COUNTED})
    for name in dir(dist):
        if not name.startswith("_") and name not in COUNTED:
            setattr(attnc._comm.dist, name, getattr(dist, name))
    for case in cases(world):
        before = dict(counts)
        try:
            results[_name(case)] = run_case(rank, world, case)
        except Exception as e:  # reported per case by the test below
            results[_name(case)] = {"error": f"{type(e).__name__}: {e}"}
        calls[_name(case)] = {n: counts[n] - before[n] for n in COUNTED}
    attnc._comm.dist = dist
    return {"errors": results, "calls": calls}


_RESULTS: dict[int, dict] = {}


def results(world: int) -> dict:
    if world not in _RESULTS:
        _RESULTS[world] = run_ranks(world, run_all)[0]
    return _RESULTS[world]


@pytest.mark.parametrize("world,case", [(w, c) for w in (2, 4) for c in cases(w)], ids=lambda x: _name(x) if isinstance(x, tuple) else f"cp{x}")
def test_against_fp64(world, case):
    got = results(world)["errors"][_name(case)]
    assert "error" not in got, got.get("error")
    failed = {name: (err, tol) for name, (err, tol) in got.items() if not err <= tol}
    assert not failed, f"max abs error over tolerance: {failed}"


@pytest.mark.parametrize("world,comm", [(w, c) for w in (2, 4) for c in COMMS[w] if c != "auto"], ids=str)
def test_collectives_are_torch_collectives(world, comm):
    """A plan's collective over the caller's group is torch's own collective, which NCCL runs on
    its collective paths: a2a's all-to-all is one ``all_to_all_single``, all_gather's gather one
    ``all_gather_into_tensor`` (its reduce-scatter of dK/dV an ``all_to_all_single``, summed in
    member order by the executor); a ring's transfers stay ``batch_isend_irecv``."""
    for fmt in FORMATS:
        calls = results(world)["calls"][_name((comm, fmt, "causal"))]
        if comm == "p2p":
            assert calls["batch_isend_irecv"] > 0 and calls["all_to_all_single"] == 0, (fmt, calls)
            assert calls["all_gather_into_tensor"] == 0, (fmt, calls)
        elif comm == "all_gather":
            assert calls["all_gather_into_tensor"] > 0 and calls["batch_isend_irecv"] == 0, (fmt, calls)
        elif comm == "a2a":
            assert calls["all_to_all_single"] > 0 and calls["batch_isend_irecv"] == 0, (fmt, calls)
        else:  # a2a+p2p: all-to-all inside the a2a group, the ring over the p2p group
            assert calls["all_to_all_single"] > 0 and calls["batch_isend_irecv"] > 0, (fmt, calls)
