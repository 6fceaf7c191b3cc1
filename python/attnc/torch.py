"""attnc's context-parallel attention for PyTorch, with TransformerEngine's argument names.

``attention`` is one call: local shards in (Megatron's zigzag split, TE's THD split), local output
out, communication on the caller's CP process group through torch.distributed. It is a
``torch.library`` custom op (forward and backward), so autograd, ``opcheck`` and
``torch.compile(fullgraph=True)`` see one op; groups travel by name. ``DotProductAttention`` is the
``nn.Module`` with TE's constructor, ``set_context_parallel_group`` and forward subset.

What attnc does not run raises ``NotImplementedError`` naming the argument; arguments that do
not fit (shapes, dtypes, devices, group sizes, THD lengths) raise ``ValueError`` naming it.
"""

from __future__ import annotations

import math
import re
from typing import Optional, Sequence, Union

import torch
import torch.distributed as dist
from torch import Tensor

from attnc import _native
from attnc._comm import Peers, Transport

__all__ = ["DotProductAttention", "attention", "config_for"]

FORMATS = ("sbhd", "bshd", "thd")
COMM_TYPES = ("p2p", "all_gather", "a2a", "a2a+p2p", "auto")
MASKS = ("causal", "no_mask", "padding", "padding_causal")
DTYPES = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}

#: Seconds a rank's run may wait for another rank before it fails, naming the operation.
timeout_s: float = 120.0
#: The CPU kernel set: ``auto`` (the fastest this build has), ``cranelift`` or ``llvm-cpu`` (built
#: with the ``llvm`` feature); ``attnc.kernel_sets()`` lists them.
kernels: str = "auto"
#: The GPU preset attnc's cost model prices ``cp_comm_type="auto"`` with.
gpu_preset: str = "h100_sxm"

# Plans by key (custom ops take strings); the native side caches the compiled plans themselves.
_PLANS: dict[str, "_native.Plans"] = {}
# Tests: a callable run before each of this process's transfers (a rank that fails mid-ring).
_fault = None


def _group_name(groups: Sequence[dist.ProcessGroup]) -> str:
    return ",".join(g.group_name for g in groups)


def _resolve(names: str) -> list[dist.ProcessGroup]:
    from torch.distributed.distributed_c10d import _resolve_process_group

    return [_resolve_process_group(n) for n in names.split(",")]


def _groups(cp_group, cp_comm_type: str) -> list[dist.ProcessGroup]:
    if cp_group is None:
        raise ValueError("argument `cp_group`: a torch.distributed ProcessGroup (or [a2a_group, p2p_group] for a2a+p2p)")
    if isinstance(cp_group, (list, tuple)):
        if cp_comm_type != "a2a+p2p" or len(cp_group) != 2:
            raise ValueError(
                "argument `cp_group`: a list of groups is TE's [a2a_group, p2p_group] of cp_comm_type='a2a+p2p'; "
                f"got {len(cp_group)} groups with cp_comm_type={cp_comm_type!r}"
            )
        return list(cp_group)
    if cp_comm_type == "a2a+p2p":
        raise ValueError("argument `cp_group`: cp_comm_type='a2a+p2p' takes [a2a_group, p2p_group], as TE does")
    return [cp_group]


def _local(x: Tensor, fmt: str) -> Tensor:
    """``[b][n][heads][w]`` fp32, contiguous."""
    if fmt == "sbhd":
        x = x.transpose(0, 1)
    elif fmt == "thd":
        x = x.unsqueeze(0)
    return x.to(torch.float32).contiguous()


def _back(x: Tensor, fmt: str, dtype: torch.dtype) -> Tensor:
    if fmt == "sbhd":
        x = x.transpose(0, 1)
    elif fmt == "thd":
        x = x.squeeze(0)
    return x.to(dtype).contiguous()


def _lse_shape(q: Tensor, fmt: str) -> tuple[int, ...]:
    if fmt == "sbhd":
        return (q.shape[1], q.shape[2], q.shape[0])
    if fmt == "bshd":
        return (q.shape[0], q.shape[2], q.shape[1])
    return (q.shape[1], q.shape[0])


def _ptr(x: Tensor) -> tuple[int, int]:
    return (x.data_ptr(), x.numel())


def _f32_flat(x: Optional[Tensor]) -> Optional[Tensor]:
    """A per-head tensor (sinks ``[h]``, learned score parameters ``[h, n]``) as the native
    module reads it: fp32, contiguous, flat."""
    return None if x is None else x.detach().reshape(-1).to(torch.float32).contiguous()


def _plans(config: str, cu: Optional[Tensor], cu_padded: Optional[Tensor], cu_kv: Optional[Tensor],
           cu_kv_padded: Optional[Tensor]) -> "_native.Plans":  # fmt: skip
    """The plans of a call's static configuration (``_config``) and, for THD, its batch."""
    if config.startswith("file:"):
        return _PLANS[config]
    values = dict(item.split("=", 1) for item in config.split(";"))
    fmt, cp = values["format"], int(values["cp"])
    n = int(values["local"])
    seqlens = padded = None
    max_tokens = max_seqlen = 0
    if fmt == "thd":
        if cu is None:
            raise ValueError("argument `cu_seqlens_q`: qkv_format='thd' needs the batch's sequence offsets")
        cu_q = _cu("cu_seqlens_q", cu)
        if cu_kv is not None and _cu("cu_seqlens_kv", cu_kv) != cu_q:
            raise NotImplementedError("argument `cu_seqlens_kv`: attnc runs self-attention (cu_seqlens_kv = cu_seqlens_q)")
        cu_p = _cu("cu_seqlens_q_padded", cu_padded) if cu_padded is not None else cu_q
        if cu_kv_padded is not None and _cu("cu_seqlens_kv_padded", cu_kv_padded) != cu_p:
            raise NotImplementedError(
                "argument `cu_seqlens_kv_padded`: attnc runs self-attention (equal to cu_seqlens_q_padded)"
            )
        if len(cu_p) != len(cu_q):
            raise ValueError(f"argument `cu_seqlens_q_padded`: {len(cu_p) - 1} sequences, cu_seqlens_q has {len(cu_q) - 1}")
        seqlens = [b - a for a, b in zip(cu_q, cu_q[1:])]
        padded = [b - a for a, b in zip(cu_p, cu_p[1:])]
        max_tokens = cu_p[-1]
        if max_tokens != n * cp:
            raise ValueError(
                f"argument `q`: {n} local tokens × cp {cp} = {n * cp}, but the padded batch "
                f"(cu_seqlens_q_padded[-1]) has {max_tokens}"
            )
        max_seqlen = max(max(padded), int(values["max_seqlen"]), 1)
    key = f"{config};seqlens={seqlens};padded={padded}"
    plans = _PLANS.get(key)
    if plans is None:
        a2a = values["a2a"]
        none = lambda x: None if x == "None" else x  # noqa: E731
        plans = _native.plan_call(
            heads=int(values["heads"]), kv_heads=int(values["kv_heads"]), head_dim=int(values["head_dim"]),
            v_head_dim=int(values["v_head_dim"]), batch=int(values["batch"]),
            seq=0 if fmt == "thd" else n * cp, format=fmt, dtype=values["dtype"], mask=values["mask"],
            window=None if none(values["window"]) is None else int(values["window"]),
            softcap=None if none(values["softcap"]) is None else float(values["softcap"]),
            score=none(values["score"]),
            params=[p for p in values.get("params", "").split(",") if p], tp=int(values.get("tp", 1)),
            softmax_scale=None if none(values["scale"]) is None else float(values["scale"]),
            sinks=values["sinks"] == "True", cp=cp, strategy=values["strategy"],
            hierarchy=None if a2a == "None" else (int(a2a), cp // int(a2a)), max_tokens=max_tokens,
            max_seqlen=max_seqlen, seqlens=seqlens, padded_seqlens=padded, gpu=values["gpu"],
        )  # fmt: skip
        _PLANS[key] = plans
        if plans.warnings:
            import warnings

            for w in plans.warnings:
                warnings.warn(f"attnc: {w}", stacklevel=3)
    return plans


def _head_offset_of(config: str) -> int:
    """The call's ``head_offset`` (0 for a spec file's plans)."""
    for item in config.split(";"):
        if item.startswith("head_offset="):
            return int(item[len("head_offset="):])
    return 0


def _format_of(config: str) -> str:
    for item in config.split(";"):
        if item.startswith("format="):
            return item[len("format="):]
    raise ValueError(f"attnc: a configuration without a format: {config!r}")


@torch.library.custom_op("attnc::cp_attention", mutates_args=())
def _cp_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    sinks: Optional[Tensor],
    params: Optional[Tensor],
    cu_seqlens_q: Optional[Tensor],
    cu_seqlens_q_padded: Optional[Tensor],
    cu_seqlens_kv: Optional[Tensor],
    cu_seqlens_kv_padded: Optional[Tensor],
    config: str,
    layer: int,
    group: str,
) -> tuple[Tensor, Tensor]:
    plans = _plans(config, cu_seqlens_q, cu_seqlens_q_padded, cu_seqlens_kv, cu_seqlens_kv_padded)
    fmt = _format_of(config)
    peers = Peers(_resolve(group))
    if peers.size != plans.cp:
        raise ValueError(f"argument `cp_group`: {peers.size} ranks; the plan is for cp {plans.cp}")
    ql, kl, vl, sl = _local(q, fmt), _local(k, fmt), _local(v, fmt), _f32_flat(sinks)
    b, n, h = ql.shape[0], ql.shape[1], ql.shape[2]
    out = torch.empty((b, n, h, v.shape[-1]), dtype=torch.float32)
    lse = torch.empty((b, h, n), dtype=torch.float32)
    pl = _f32_flat(params)
    plans.forward(
        layer, peers.rank, _ptr(ql), _ptr(kl), _ptr(vl), None if sl is None else _ptr(sl), _ptr(out), _ptr(lse),
        Transport(peers, _fault), timeout_s, torch.get_num_threads(), kernels, _head_offset_of(config),
        params=None if pl is None else _ptr(pl),
    )  # fmt: skip
    lse = lse.squeeze(0) if fmt == "thd" else lse
    return _back(out, fmt, q.dtype), lse.contiguous()


@_cp_attention.register_fake
def _(q, k, v, sinks, params, cu_seqlens_q, cu_seqlens_q_padded, cu_seqlens_kv, cu_seqlens_kv_padded, config, layer, group):
    lse = q.new_empty(_lse_shape(q, _format_of(config)), dtype=torch.float32)
    return q.new_empty((*q.shape[:-1], v.shape[-1])), lse


@torch.library.custom_op("attnc::cp_attention_backward", mutates_args=())
def _cp_attention_backward(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    sinks: Optional[Tensor],
    params: Optional[Tensor],
    cu_seqlens_q: Optional[Tensor],
    cu_seqlens_q_padded: Optional[Tensor],
    cu_seqlens_kv: Optional[Tensor],
    cu_seqlens_kv_padded: Optional[Tensor],
    out: Tensor,
    lse: Tensor,
    d_out: Tensor,
    config: str,
    layer: int,
    group: str,
) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    plans = _plans(config, cu_seqlens_q, cu_seqlens_q_padded, cu_seqlens_kv, cu_seqlens_kv_padded)
    fmt = _format_of(config)
    peers = Peers(_resolve(group))
    ql, kl, vl, sl = _local(q, fmt), _local(k, fmt), _local(v, fmt), _f32_flat(sinks)
    ol, dl = _local(out, fmt), _local(d_out, fmt)
    ll = (lse.unsqueeze(0) if fmt == "thd" else lse).to(torch.float32).contiguous()
    dq, dk, dv = torch.empty_like(ql), torch.empty_like(kl), torch.empty_like(vl)
    dsinks = torch.zeros(0 if sinks is None else sl.numel(), dtype=torch.float32)
    pl = _f32_flat(params)
    dparams = torch.zeros(0 if pl is None else pl.numel(), dtype=torch.float32)
    plans.backward(
        layer, peers.rank, _ptr(ql), _ptr(kl), _ptr(vl), _ptr(ol), _ptr(ll), _ptr(dl),
        None if sl is None else _ptr(sl), _ptr(dq), _ptr(dk), _ptr(dv), None if sinks is None else _ptr(dsinks),
        Transport(peers, _fault), timeout_s, torch.get_num_threads(), kernels, _head_offset_of(config),
        params=None if pl is None else _ptr(pl), dparams=None if pl is None else _ptr(dparams),
    )  # fmt: skip
    dsinks = dsinks if sinks is None else dsinks.reshape(sinks.shape).to(sinks.dtype)
    dparams = dparams if params is None else dparams.reshape(params.shape).to(params.dtype)
    return _back(dq, fmt, q.dtype), _back(dk, fmt, k.dtype), _back(dv, fmt, v.dtype), dsinks, dparams


@_cp_attention_backward.register_fake
def _(q, k, v, sinks, params, cu_q, cu_qp, cu_kv, cu_kvp, out, lse, d_out, config, layer, group):
    dsinks = q.new_empty((0,), dtype=torch.float32) if sinks is None else torch.empty_like(sinks)
    dparams = q.new_empty((0,), dtype=torch.float32) if params is None else torch.empty_like(params)
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v), dsinks, dparams


def _setup_context(ctx, inputs, output):
    q, k, v, sinks, params, cu_q, cu_qp, cu_kv, cu_kvp, config, layer, group = inputs
    out, lse = output
    ctx.save_for_backward(q, k, v, sinks, params, cu_q, cu_qp, cu_kv, cu_kvp, out, lse)
    ctx.args = (config, layer, group)
    ctx.mark_non_differentiable(lse)


def _backward(ctx, d_out, _d_lse):
    q, k, v, sinks, params, cu_q, cu_qp, cu_kv, cu_kvp, out, lse = ctx.saved_tensors
    dq, dk, dv, dsinks, dparams = torch.ops.attnc.cp_attention_backward(
        q, k, v, sinks, params, cu_q, cu_qp, cu_kv, cu_kvp, out, lse, d_out.contiguous(), *ctx.args
    )
    return (
        dq, dk, dv, (dsinks if sinks is not None else None), (dparams if params is not None else None),
        None, None, None, None, None, None, None,
    )  # fmt: skip


_cp_attention.register_autograd(_backward, setup_context=_setup_context)


def _check_tensor(name: str, x, dims: int, fmt: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise ValueError(f"argument `{name}`: a torch.Tensor, got {type(x).__name__}")
    if x.dim() != dims:
        layout = {"sbhd": "[s, b, h, d]", "bshd": "[b, s, h, d]", "thd": "[t, h, d]"}[fmt]
        raise ValueError(f"argument `{name}`: qkv_format={fmt!r} takes {layout}; got shape {list(x.shape)}")
    if x.dtype not in DTYPES:
        raise ValueError(f"argument `{name}`: dtype {x.dtype}; attnc runs float32, bfloat16 and float16")
    if x.device.type != "cpu":
        raise NotImplementedError(
            f"argument `{name}`: tensors on {x.device}; this attnc package runs CP attention on CPU ranks "
            "(Cranelift kernels, gloo); its CUDA path is not built yet"
        )
    return x


def _cu(name: str, cu) -> list[int]:
    values = cu.tolist() if isinstance(cu, Tensor) else list(cu)
    if len(values) < 2 or values[0] != 0 or any(b < a for a, b in zip(values, values[1:])):
        raise ValueError(f"argument `{name}`: offsets [0, e1, e2, ...] that never decrease; got {values}")
    return [int(x) for x in values]


def config_for(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    *,
    cp_size: int,
    cp_comm_type: str = "p2p",
    a2a_size: Optional[int] = None,
    qkv_format: str = "sbhd",
    attn_mask_type: str = "causal",
    window_size: Optional[tuple[int, int]] = None,
    softcap: Optional[float] = None,
    sinks: bool = False,
    max_seqlen_q: Optional[int] = None,
    softmax_scale: Optional[float] = None,
    mask: Optional[str] = None,
    score: Optional[str] = None,
    score_params: Sequence[str] = (),
    head_offset: int = 0,
) -> str:
    """A call's static configuration (shapes, dtype, format, mask, features, group): what the
    custom op plans from, with a THD batch's offsets, when it runs. Checks every argument it can
    without reading tensor values, so that it traces under ``torch.compile``."""
    if mask is not None:
        if not isinstance(mask, str) or not mask.strip() or any(c in mask for c in ";\n#"):
            raise ValueError(
                f"argument `mask`: {mask!r}; a mask expression on one line, such as 'k <= q | k < 4096' "
                "(docs/language.md, Expressions)"
            )
        if attn_mask_type != "causal" or window_size is not None:
            raise ValueError(
                "argument `mask`: an expression replaces attn_mask_type and window_size; leave those at their defaults"
            )
    if isinstance(head_offset, bool) or not isinstance(head_offset, int) or head_offset < 0:
        raise ValueError(
            f"argument `head_offset`: {head_offset!r}; the model's query head of q's first head, an int >= 0 "
            "(tensor parallelism: the TP rank times the heads per rank)"
        )
    if score is not None:
        if not isinstance(score, str) or not score.strip() or any(c in score for c in ";\n#"):
            raise ValueError(
                f"argument `score`: {score!r}; a score expression of `s` on one line, such as "
                "'30 * tanh(s / 30)' (docs/language.md, Score expressions)"
            )
        if softcap is not None:
            raise ValueError("argument `score`: a score expression replaces softcap; give one of the two")
        score = " ".join(score.split())
    if score_params and score is None:
        raise ValueError("argument `score_params`: learned parameters are read by a score expression (`score`)")
    for name in score_params:
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"argument `score_params`: {name!r} is not a name (read it in the score as NAME[h])")
    if qkv_format not in FORMATS:
        raise ValueError(f"argument `qkv_format`: {qkv_format!r}; attnc runs {', '.join(FORMATS)}")
    if cp_comm_type not in COMM_TYPES:
        raise ValueError(f"argument `cp_comm_type`: {cp_comm_type!r}; attnc runs {', '.join(COMM_TYPES)}")
    if attn_mask_type not in MASKS:
        if "bottom_right" in attn_mask_type or attn_mask_type == "arbitrary":
            raise NotImplementedError(
                f"argument `attn_mask_type`: {attn_mask_type!r}; attnc runs {', '.join(MASKS)} "
                "(self-attention: bottom-right and top-left causal differ only when q and kv lengths differ)"
            )
        raise ValueError(f"argument `attn_mask_type`: {attn_mask_type!r}; attnc runs {', '.join(MASKS)}")
    dims = 3 if qkv_format == "thd" else 4
    for name, x in (("q", q), ("k", k), ("v", v)):
        _check_tensor(name, x, dims, qkv_format)
    if not (q.dtype == k.dtype == v.dtype):
        raise ValueError(f"argument `k`/`v`: q, k and v share one dtype; got {q.dtype}, {k.dtype}, {v.dtype}")
    seq_dim = {"sbhd": 0, "bshd": 1, "thd": 0}[qkv_format]
    if k.shape[:-2] != q.shape[:-2] or v.shape[:-2] != q.shape[:-2]:
        raise ValueError(
            f"argument `k`: q, k and v share their sequence and batch dims (self-attention); got {list(q.shape)}, "
            f"{list(k.shape)}, {list(v.shape)}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"argument `v`: {v.shape[-2]} heads, k has {k.shape[-2]}")
    if k.shape[-1] != q.shape[-1]:
        raise ValueError(f"argument `k`: head dim {k.shape[-1]}, q has {q.shape[-1]}")
    heads, kv_heads = q.shape[-2], k.shape[-2]
    if heads % kv_heads:
        raise ValueError(f"argument `k`: {kv_heads} KV heads do not divide q's {heads} heads (GQA groups)")
    tp = 1
    if mask is not None and head_offset and "h" in re.findall(r"[A-Za-z_]\w*", mask):
        # A mask that reads the head is planned as a spec with `tp` plans it: over the heads of
        # every tensor-parallel slice up to this one, tested per pair at the call's own heads.
        if head_offset % heads:
            raise ValueError(
                f"argument `head_offset`: {head_offset} with a mask that reads the head `h`; a tensor-parallel "
                f"slice of {heads} heads starts at a multiple of {heads} (the TP rank times the heads per rank)"
            )
        tp = head_offset // heads + 1
    expression = mask
    mask = attn_mask_type
    window = None
    if window_size is not None:
        left, right = (int(w) for w in window_size)
        if (left, right) not in ((-1, -1), (-1, 0)):
            if right != 0 or left < 0:
                raise NotImplementedError(
                    f"argument `window_size`: {tuple(window_size)}; attnc runs windows that end at the query, (W-1, 0)"
                )
            if mask not in ("causal", "padding_causal"):
                raise NotImplementedError(
                    f"argument `window_size`: a window needs attn_mask_type causal or padding_causal, not {mask!r}"
                )
            window = left + 1
    batch = 1
    if expression is not None:
        # The compiler checks it (and keeps it within each packed sequence under thd).
        mask = " ".join(expression.split())
        if qkv_format != "thd":
            batch = q.shape[1 - seq_dim]
    elif qkv_format == "thd":
        mask = {"causal": "padding_causal", "no_mask": "padding"}.get(mask, mask)
    else:
        batch = q.shape[1 - seq_dim]
        mask = {"no_mask": "none"}.get(mask, mask)
        if mask.startswith("padding"):
            raise NotImplementedError(
                f"argument `attn_mask_type`: {attn_mask_type!r} with qkv_format={qkv_format!r}; attnc runs padding "
                "masks on THD batches (qkv_format='thd' with cu_seqlens)"
            )
    fields = [
        ("heads", heads), ("kv_heads", kv_heads), ("head_dim", q.shape[-1]), ("v_head_dim", v.shape[-1]),
        ("batch", batch), ("local", q.shape[seq_dim]), ("format", qkv_format), ("dtype", DTYPES[q.dtype]),
        ("mask", mask), ("window", window), ("softcap", None if softcap is None else float(softcap)), ("score", score),
        ("sinks", bool(sinks)), ("scale", _scale(softmax_scale, q.shape[-1])), ("cp", cp_size), ("strategy", cp_comm_type),
        ("a2a", a2a_size if cp_comm_type == "a2a+p2p" else None), ("max_seqlen", int(max_seqlen_q or 0)),
        ("gpu", gpu_preset), ("head_offset", head_offset), ("params", ",".join(score_params)), ("tp", tp),
    ]  # fmt: skip
    return ";".join(f"{name}={value}" for name, value in fields)


def _scale(softmax_scale: Optional[float], head_dim: int) -> Optional[float]:
    """The call's softmax scale for its spec: ``None`` where it is 1/sqrt(head_dim) (the same plans)."""
    if softmax_scale is None:
        return None
    scale = float(softmax_scale)
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"argument `softmax_scale`: {softmax_scale}; the scores are scale·q·k with scale > 0")
    return None if abs(scale * math.sqrt(head_dim) - 1.0) <= 1e-12 else scale


def _offsets(name: str, cu) -> Optional[Tensor]:
    if cu is None or isinstance(cu, Tensor):
        return cu
    return torch.tensor([int(x) for x in cu], dtype=torch.int64)


def attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    *,
    cp_group: Union[dist.ProcessGroup, Sequence[dist.ProcessGroup]],
    cp_comm_type: str = "p2p",
    qkv_format: str = "sbhd",
    attn_mask_type: str = "causal",
    window_size: Optional[tuple[int, int]] = None,
    softmax_scale: Optional[float] = None,
    softcap: Optional[float] = None,
    sinks: Optional[Tensor] = None,
    cu_seqlens_q=None,
    cu_seqlens_kv=None,
    cu_seqlens_q_padded=None,
    cu_seqlens_kv_padded=None,
    max_seqlen_q: Optional[int] = None,
    max_seqlen_kv: Optional[int] = None,
    cp_stream=None,
    return_lse: bool = False,
    mask: Optional[str] = None,
    score: Optional[str] = None,
    score_params: Optional[dict] = None,
    head_offset: int = 0,
):
    """Context-parallel attention of this rank's shards ``q``, ``k``, ``v`` over ``cp_group``.

    Shards are Megatron's (zigzag: chunks r and 2cp−1−r of the sequence dim) or TE's THD split
    (each sequence padded to ``cu_seqlens_q_padded`` and split zigzag by itself); the output is
    this rank's rows in the same layout, ``[.., h, dv]``; ``return_lse`` adds the fp32 LSE
    (``[b, h, s]``; thd ``[h, t]``), without a gradient. ``sinks``: TE's learnable softmax offset,
    one logit per head; its gradient is this rank's share (summed over the CP group, as any
    weight's gradient under CP, it is the whole). ``mask``: an attnc mask expression in place of
    ``attn_mask_type`` and ``window_size`` (docs/language.md, Expressions), over positions
    within each sequence: prefix-LM ``'k <= q | k < 4096'``, global tokens with a window
    ``'k < 64 | q < 64 | (k <= q & q - k < 4096)'``; errors in it raise ``ValueError`` naming
    ``mask``. ``score``: an attnc score expression of the scaled score ``s`` (FlexAttention's
    ``score_mod``, written once and compiled into every kernel) over ``s``, the positions ``q``
    and ``k`` within each sequence and the query head ``h`` (from 0 among the heads given here;
    under ``a2a`` each rank counts from its first head), with constants, ``+ - * /``, ``tanh``,
    ``exp``, ``min``, ``max`` and ``alibi(h, N)``: ``'30 * tanh(s / 30)'`` is ``softcap=30``,
    ``'s - alibi(h, 32) * (q - k)'`` is ALiBi over 32 heads; errors in it raise ``ValueError``
    naming ``score``. ``score_params``: the score's learned per-head parameters, a dict of name to
    tensor ``[h]`` (one value per query head given here, in the order the dict gives them), read in
    ``score`` as ``NAME[h]`` (``score='s - slope[h] * (q - k)', score_params={'slope': slope}``);
    their gradients are this rank's share of the pairs (summed over the CP group, as ``sinks``',
    they are the whole). ``head_offset``: the model's query head of ``q``'s first head, which ``h``
    counts from — under tensor parallelism the TP rank times the heads per rank
    (``DotProductAttention`` sets it from ``tp_group``).
    """
    groups = _groups(cp_group, cp_comm_type)
    if cp_stream is not None:
        raise NotImplementedError("argument `cp_stream`: CUDA streams belong to the CUDA path, which is not built yet")
    sizes = [dist.get_world_size(g) for g in groups]
    config = config_for(
        q, k, v, cp_size=math.prod(sizes), cp_comm_type=cp_comm_type, a2a_size=sizes[0] if len(groups) == 2 else None,
        qkv_format=qkv_format, attn_mask_type=attn_mask_type, window_size=window_size, softcap=softcap,
        sinks=sinks is not None, max_seqlen_q=max_seqlen_q, softmax_scale=softmax_scale, mask=mask, score=score,
        score_params=tuple(score_params or ()), head_offset=head_offset,
    )  # fmt: skip
    if sinks is not None and sinks.numel() != q.shape[-2]:
        raise ValueError(f"argument `sinks`: one logit per query head ({q.shape[-2]}); got {sinks.numel()}")
    params = _stack_params(score_params, q.shape[-2])
    offsets = [
        _offsets(name, x)
        for name, x in (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_q_padded", cu_seqlens_q_padded),
                        ("cu_seqlens_kv", cu_seqlens_kv), ("cu_seqlens_kv_padded", cu_seqlens_kv_padded))
    ]  # fmt: skip
    out, lse = torch.ops.attnc.cp_attention(q, k, v, sinks, params, *offsets, config, 0, _group_name(groups))
    return (out, lse) if return_lse else out


def _stack_params(score_params: Optional[dict], heads: int) -> Optional[Tensor]:
    """Learned score parameters ``{name: [h]}`` as the op's ``[h, n]`` tensor, in the dict's order
    (``torch.stack`` carries each one's gradient back)."""
    if not score_params:
        return None
    if not isinstance(score_params, dict):
        raise ValueError(f"argument `score_params`: a dict of name to tensor [{heads}]; got {type(score_params).__name__}")
    columns = []
    for name, x in score_params.items():
        if not isinstance(x, Tensor) or not x.is_floating_point():
            raise ValueError(f"argument `score_params`: `{name}` is a float tensor [{heads}]; got {type(x).__name__}")
        if x.numel() != heads:
            raise ValueError(f"argument `score_params`: `{name}` has one value per query head ({heads}); got {x.numel()}")
        if x.device.type != "cpu":
            raise NotImplementedError(f"argument `score_params`: `{name}` on {x.device}; attnc runs on CPU ranks")
        columns.append(x.reshape(-1))
    return torch.stack(columns, dim=1)


class DotProductAttention(torch.nn.Module):
    """TransformerEngine's ``DotProductAttention`` (the subset attnc runs) over attnc's plans.

    The constructor and ``forward`` take TE's arguments; those attnc does not run (dropout,
    bias tensors, FP8, cross-attention) raise ``NotImplementedError`` naming the argument; ALiBi is
    TE's ``forward(core_attention_bias_type='alibi')`` (the standard slopes, heads counted from
    ``tp_group``'s rank times the heads per rank) or ``forward(alibi_slopes=...)`` (slopes of your
    own, one per head of this rank, with a gradient when they require one), or the constructor's
    ``score='s - alibi(h, N) * (q - k)'``. ``score_params`` (a dict of name to initial values, one
    per query head of this rank) makes the score's learned parameters this module's
    ``nn.Parameter`` s (``module.score_params[name]``), read in ``score`` as ``NAME[h]``. The
    output is TE's: ``[s, b, h·dv]`` (sbhd), ``[b, s, h·dv]`` (bshd), ``[t, h·dv]`` (thd).
    """

    def __init__(
        self,
        num_attention_heads: int,
        kv_channels: Union[int, tuple[int, int]],
        num_gqa_groups: Optional[int] = None,
        attention_dropout: float = 0.0,
        qkv_format: str = "sbhd",
        attn_mask_type: str = "causal",
        window_size: Optional[tuple[int, int]] = None,
        sequence_parallel: bool = False,
        tp_size: int = 1,
        get_rng_state_tracker=None,
        tp_group=None,
        layer_number: Optional[int] = None,
        attention_type: str = "self",
        cp_group=None,
        cp_global_ranks=None,
        cp_stream=None,
        cp_comm_type: str = "p2p",
        softmax_scale: Optional[float] = None,
        softmax_type: str = "vanilla",
        softcap: Optional[float] = None,
        mask: Optional[str] = None,
        score: Optional[str] = None,
        score_params: Optional[dict] = None,
    ):
        super().__init__()
        if attention_dropout:
            raise NotImplementedError(f"argument `attention_dropout`: {attention_dropout}; attnc runs without dropout (0.0)")
        if attention_type != "self":
            raise NotImplementedError(f"argument `attention_type`: {attention_type!r}; attnc runs self-attention")
        if softmax_type not in ("vanilla", "learnable"):
            raise NotImplementedError(
                f"argument `softmax_type`: {softmax_type!r}; attnc runs 'vanilla' and 'learnable' (sinks)"
            )
        self.heads = num_attention_heads // tp_size
        # A score that reads `h` counts the model's heads: this TP rank's start at rank × heads.
        self.tp_size, self.tp_group = tp_size, tp_group
        self.kv_heads = (num_gqa_groups or num_attention_heads) // tp_size
        kv = kv_channels if isinstance(kv_channels, tuple) else (kv_channels, kv_channels)
        self.head_dim, self.v_head_dim = kv
        self.qkv_format = qkv_format
        self.attn_mask_type = attn_mask_type
        self.window_size = window_size
        self.softmax_scale = softmax_scale
        self.softcap = softcap
        # attnc's own: a mask expression in place of attn_mask_type and window_size (`attention`).
        self.mask = mask
        # attnc's own: a score expression of `s` (FlexAttention's score_mod; `attention`), and its
        # learned per-head parameters, this module's (`[heads of this TP rank]` each, as the sinks).
        self.score = score
        self.score_params = torch.nn.ParameterDict()
        for name, init in (score_params or {}).items():
            if not isinstance(init, Tensor) or init.numel() != self.heads:
                got = list(init.shape) if isinstance(init, Tensor) else type(init).__name__
                raise ValueError(
                    f"argument `score_params`: `{name}` starts as a tensor of one value per query head of this "
                    f"rank ({self.heads}); got {got}"
                )
            self.score_params[name] = torch.nn.Parameter(init.detach().reshape(-1).to(torch.float32).clone())
        if self.score_params and score is None:
            raise ValueError("argument `score_params`: learned parameters are read by a score expression (`score`)")
        self.softmax_offset = (
            torch.nn.Parameter(torch.zeros(self.heads, dtype=torch.float32)) if softmax_type == "learnable" else None
        )
        self.cp_group, self.cp_global_ranks, self.cp_stream, self.cp_comm_type = None, None, None, "p2p"
        if cp_group is not None:
            self.set_context_parallel_group(cp_group, cp_global_ranks, cp_stream, cp_comm_type)

    def _head_offset(self) -> int:
        """The model's query head of this TP rank's first (``h`` of a score counts from it)."""
        if self.tp_size <= 1 or self.tp_group is None:
            return 0
        return dist.get_rank(self.tp_group) * self.heads

    def _alibi(self, slopes: Optional[Tensor], mask_type: str) -> tuple[str, Optional[dict]]:
        """TE's ALiBi (``core_attention_bias_type='alibi'``, ``alibi_slopes``) as a score: the bias
        −slope·|q − k| added to the scaled scores (FlashAttention's; under a causal mask q − k).
        Without slopes, ALiBi's own for the model's heads (``alibi(h, N)``, counted from this TP
        rank's first head); with them (``[h]`` of this rank's heads, or ``[b, h]`` equal across the
        batch), a learned per-head parameter, which gets a gradient when it requires one."""
        if self.score is not None or self.softcap is not None:
            raise ValueError(
                "argument `alibi_slopes`/`core_attention_bias_type`: this module already has a score "
                "modification (`score` or `softcap`); give ALiBi as its score instead"
            )
        causal = self.mask is None and mask_type in ("causal", "padding_causal")
        distance = "(q - k)" if causal else "max(q - k, k - q)"
        if slopes is None:
            return f"s - alibi(h, {self.heads * self.tp_size}) * {distance}", None
        if not isinstance(slopes, Tensor) or not slopes.is_floating_point():
            raise ValueError(f"argument `alibi_slopes`: a float tensor [{self.heads}] or [b, {self.heads}]")
        if slopes.dim() == 2:
            if not bool((slopes == slopes[:1]).all()):
                raise NotImplementedError(
                    "argument `alibi_slopes`: slopes that differ across the batch; attnc takes one slope per head"
                )
            slopes = slopes[0]
        if slopes.dim() != 1 or slopes.numel() != self.heads:
            raise ValueError(
                f"argument `alibi_slopes`: one slope per query head of this rank ({self.heads}); got shape "
                f"{list(slopes.shape)}"
            )
        return f"s - alibi_slopes[h] * {distance}", {"alibi_slopes": slopes}

    def set_context_parallel_group(self, cp_group, cp_global_ranks, cp_stream, cp_comm_type: str = "p2p"):
        """TE's: the CP group (or ``[a2a_group, p2p_group]`` for a2a+p2p), its global ranks, the CP
        stream and the communication type; may change from step to step (hybrid CP)."""
        self.cp_group, self.cp_global_ranks, self.cp_stream, self.cp_comm_type = (
            cp_group, cp_global_ranks, cp_stream, cp_comm_type,
        )  # fmt: skip

    def forward(
        self,
        query_layer: Tensor,
        key_layer: Tensor,
        value_layer: Tensor,
        attention_mask=None,
        qkv_format: Optional[str] = None,
        cu_seqlens_q=None,
        cu_seqlens_kv=None,
        cu_seqlens_q_padded=None,
        cu_seqlens_kv_padded=None,
        max_seqlen_q: Optional[int] = None,
        max_seqlen_kv: Optional[int] = None,
        attn_mask_type: Optional[str] = None,
        window_size: Optional[tuple[int, int]] = None,
        core_attention_bias_type: str = "no_bias",
        core_attention_bias: Optional[Tensor] = None,
        alibi_slopes: Optional[Tensor] = None,
        fp8_output: bool = False,
        **unsupported,
    ) -> Tensor:
        fmt = qkv_format or self.qkv_format
        mask_type = attn_mask_type or self.attn_mask_type
        # TE reads attention_mask only for padding masks outside THD and for 'arbitrary'.
        if attention_mask is not None and (mask_type == "arbitrary" or ("padding" in mask_type and fmt != "thd")):
            raise NotImplementedError(
                f"argument `attention_mask`: a mask tensor with attn_mask_type {mask_type!r}; attnc takes padding "
                "as cu_seqlens (qkv_format 'thd') and runs no arbitrary masks"
            )
        score, score_params = self.score, (dict(self.score_params) or None)
        if core_attention_bias_type == "alibi" or alibi_slopes is not None:
            score, score_params = self._alibi(alibi_slopes, mask_type)
        elif core_attention_bias_type != "no_bias" or core_attention_bias is not None:
            raise NotImplementedError("argument `core_attention_bias`: attnc runs attention without a bias tensor")
        if fp8_output:
            raise NotImplementedError("argument `fp8_output`: attnc runs bf16, fp16 and fp32, not FP8")
        for name, value in unsupported.items():
            if value not in (None, False, True) or name not in ("checkpoint_core_attention", "fast_zero_fill", "pad_between_seqs", "inference_params"):
                raise NotImplementedError(f"argument `{name}`: not run by attnc's DotProductAttention")
        group = self.cp_group if self.cp_group is not None else _single_group()
        if self.mask is not None and (attn_mask_type is not None or window_size is not None):
            raise ValueError(
                "argument `attn_mask_type`/`window_size`: this module's `mask` expression replaces them; "
                "leave them out of forward"
            )
        out = attention(
            query_layer, key_layer, value_layer, cp_group=group,
            cp_comm_type=self.cp_comm_type if self.cp_group is not None else "p2p", qkv_format=fmt,
            attn_mask_type=mask_type, window_size=window_size or self.window_size, mask=self.mask,
            softmax_scale=self.softmax_scale, softcap=self.softcap, score=score, score_params=score_params,
            sinks=self.softmax_offset, head_offset=self._head_offset(),
            cu_seqlens_q=cu_seqlens_q, cu_seqlens_kv=cu_seqlens_kv, cu_seqlens_q_padded=cu_seqlens_q_padded,
            cu_seqlens_kv_padded=cu_seqlens_kv_padded, max_seqlen_q=max_seqlen_q, max_seqlen_kv=max_seqlen_kv,
        )  # fmt: skip
        return out.flatten(-2)


def _single_group() -> dist.ProcessGroup:
    """Without a CP group: this rank alone (cp = 1)."""
    if not dist.is_initialized():
        raise ValueError(
            "argument `cp_group`: without one, attnc runs cp = 1 on a group of this rank alone, which needs "
            "torch.distributed initialised (init_process_group)"
        )
    if dist.get_world_size() == 1:
        return dist.group.WORLD
    rank = dist.get_rank()
    group = _SINGLE_GROUPS.get(rank)
    if group is None:
        # Only this rank takes part in creating its group (no collective over the world).
        group = dist.new_group([rank], use_local_synchronization=True)
        _SINGLE_GROUPS[rank] = group
    return group


_SINGLE_GROUPS: dict[int, dist.ProcessGroup] = {}
