"""Megatron-Core's ``core_attention`` run by attnc: a drop-in for ``TEDotProductAttention``.

Megatron builds each layer's attention from its layer spec; a user who runs attnc changes the
spec's ``core_attention`` and nothing else::

    from attnc.megatron import AttncDotProductAttention, use_attnc
    spec = get_gpt_layer_local_spec()        # or the TE spec
    use_attnc(spec)                          # core_attention = AttncDotProductAttention

The constructor and ``forward`` follow Megatron-Core 0.16's ``TEDotProductAttention``: the CP group
comes from the ``pg_collection`` (or Megatron's ``parallel_state``), ``cp_comm_type`` from the
layer, hierarchical ``a2a+p2p`` groups from ``hcp``; ``PackedSeqParams`` passes THD offsets and
hybrid CP's per-batch ``cp_group``; window layers follow ``window_size`` and
``window_attn_skip_freq``; ``softmax_type='learnable'`` gives the sinks parameter
``softmax_offset``. What attnc does not run (dropout, attention bias, qk-clip, query-key layer
scaling) raises ``NotImplementedError`` naming Megatron's config field.
"""

from __future__ import annotations

from typing import Any, Optional

import torch
import torch.distributed as dist

from .torch import DotProductAttention

__all__ = ["AttncDotProductAttention", "use_attnc"]


class AttncDotProductAttention(DotProductAttention):
    """Megatron's ``core_attention`` (the ``CoreAttentionBuilder`` protocol) over attnc's plans.

    Inputs are Megatron's local shards (``[s, b, h, d]``, zigzag under CP; ``[t, h, d]`` for THD
    with ``packed_seq_params``); the output is ``[s, b, h·dv]`` (``[t, h·dv]`` for THD), as
    ``TEDotProductAttention`` returns it.
    """

    def __init__(
        self,
        config,
        layer_number: int,
        attn_mask_type,
        attention_type: str,
        attention_dropout: Optional[float] = None,
        softmax_scale: Optional[float] = None,
        k_channels: Optional[int] = None,
        v_channels: Optional[int] = None,
        num_splits: Optional[int] = None,
        cp_comm_type: Optional[str] = "p2p",
        pg_collection=None,
    ):
        dropout = config.attention_dropout if attention_dropout is None else attention_dropout
        if dropout:
            raise NotImplementedError(
                f"config.attention_dropout: {dropout}; attnc runs attention without dropout (set "
                "--attention-dropout 0)"
            )
        if getattr(config, "apply_query_key_layer_scaling", False):
            raise NotImplementedError("config.apply_query_key_layer_scaling: attnc scales scores by softmax_scale only")
        if getattr(config, "qk_clip", False) or getattr(config, "log_max_attention_logit", False):
            raise NotImplementedError("config.qk_clip: attnc does not return the maximum attention logit")
        tp, cp, hcp = _groups(pg_collection, cp_comm_type)
        window = None
        if _window_layer(config.window_size, getattr(config, "window_attn_skip_freq", None), layer_number):
            window = tuple(config.window_size)
        kv_channels: Any = (k_channels, v_channels) if k_channels is not None and v_channels is not None else config.kv_channels
        comm = cp_comm_type or "p2p"
        super().__init__(
            config.num_attention_heads,
            kv_channels,
            num_gqa_groups=config.num_query_groups,
            attn_mask_type=attn_mask_type.name,
            window_size=window,
            tp_size=config.tensor_model_parallel_size,
            tp_group=tp,
            layer_number=layer_number,
            attention_type=attention_type,
            softmax_scale=softmax_scale,
            softmax_type=getattr(config, "softmax_type", "vanilla"),
        )
        self.config = config
        self.num_splits = num_splits
        self.cp_comm_type = comm
        if config.context_parallel_size > 1:
            group = hcp if comm == "a2a+p2p" else cp
            if group is None:
                raise ValueError(
                    f"config.context_parallel_size: {config.context_parallel_size} but no CP group "
                    "(pass pg_collection, or initialise Megatron's parallel_state first)"
                )
            ranks = None if comm == "a2a+p2p" else dist.get_process_group_ranks(group)
            self.set_context_parallel_group(group, ranks, None, comm)

    def forward(  # type: ignore[override]
        self,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        attention_mask: Optional[torch.Tensor],
        attn_mask_type=None,
        attention_bias: Optional[torch.Tensor] = None,
        packed_seq_params=None,
        num_splits: Optional[int] = None,
    ) -> torch.Tensor:
        if attention_bias is not None:
            raise NotImplementedError("argument `attention_bias`: attnc runs attention without a bias")
        mask_type = (attn_mask_type.name if attn_mask_type is not None else None) or self.attn_mask_type
        kwargs: dict[str, Any] = {}
        if packed_seq_params is not None:
            if packed_seq_params.cp_group is not None:
                # Hybrid CP: this batch's power-of-two group.
                group = packed_seq_params.cp_group
                self.set_context_parallel_group(group, dist.get_process_group_ranks(group), None, self.cp_comm_type)
            elif packed_seq_params.local_cp_size is not None:
                if packed_seq_params.local_cp_size != 1:
                    raise ValueError(
                        f"packed_seq_params.local_cp_size: {packed_seq_params.local_cp_size} without a "
                        "cp_group; only 1 (CP off for this batch) can go without one"
                    )
                self.set_context_parallel_group(None, None, None, self.cp_comm_type)
            fmt = packed_seq_params.qkv_format or self.qkv_format
            kwargs = dict(
                qkv_format=fmt,
                cu_seqlens_q=packed_seq_params.cu_seqlens_q,
                cu_seqlens_kv=packed_seq_params.cu_seqlens_kv,
                cu_seqlens_q_padded=packed_seq_params.cu_seqlens_q_padded,
                cu_seqlens_kv_padded=packed_seq_params.cu_seqlens_kv_padded,
                max_seqlen_q=packed_seq_params.max_seqlen_q,
                max_seqlen_kv=packed_seq_params.max_seqlen_kv,
            )
            if fmt == "thd":
                # As Megatron does for TE: THD takes the padding mask types.
                mask_type = {"causal": "padding_causal", "no_mask": "padding"}.get(mask_type, mask_type)
        return super().forward(query, key, value, attention_mask, attn_mask_type=mask_type, **kwargs)


def use_attnc(spec) -> Any:
    """Makes every ``core_attention`` in a Megatron layer or block spec attnc's, in place; returns
    the spec. Raises ``ValueError`` when the spec has no ``core_attention`` to replace."""
    replaced = _replace(spec, set())
    if not replaced:
        raise ValueError(f"argument `spec`: no core_attention in {type(spec).__name__}; pass a layer spec or a block spec")
    return spec


def _replace(node, seen: set[int]) -> int:
    if id(node) in seen or node is None or isinstance(node, (str, int, float, bool, type)):
        return 0
    seen.add(id(node))
    count = 0
    if isinstance(node, (list, tuple)):
        return sum(_replace(item, seen) for item in node)
    for holder in ("submodules", "layer_specs"):
        inner = getattr(node, holder, None)
        if inner is not None:
            count += _replace(inner, seen)
    if hasattr(node, "core_attention") and not isinstance(node, torch.nn.Module):
        node.core_attention = AttncDotProductAttention
        count += 1
    for name in ("self_attention", "cross_attention"):
        inner = getattr(node, name, None)
        if inner is not None:
            count += _replace(inner, seen)
    return count


def _groups(pg_collection, cp_comm_type: Optional[str]):
    """The tensor-, context- and hierarchical-CP groups, from the collection or parallel_state."""
    if pg_collection is not None:
        for name in ("tp", "cp"):
            if not hasattr(pg_collection, name):
                raise ValueError(f"argument `pg_collection`: no `{name}` group")
        hcp = getattr(pg_collection, "hcp", None)
        if cp_comm_type == "a2a+p2p" and hcp is None:
            raise ValueError("argument `pg_collection`: cp_comm_type 'a2a+p2p' needs the hierarchical groups `hcp`")
        return pg_collection.tp, pg_collection.cp, hcp
    from megatron.core import parallel_state as ps

    return (
        ps.get_tensor_model_parallel_group(check_initialized=False),
        ps.get_context_parallel_group(check_initialized=False),
        ps.get_hierarchical_context_parallel_groups(check_initialized=False),
    )


def _window_layer(window_size, skip_freq, layer_number: int) -> bool:
    """Megatron's ``is_layer_window_attention`` (layer numbers from 1)."""
    if not window_size:
        return False
    if skip_freq is None:
        return True
    if isinstance(skip_freq, int):
        return layer_number % skip_freq != 0
    return bool(skip_freq[layer_number - 1])
