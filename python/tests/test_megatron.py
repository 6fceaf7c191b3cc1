"""attnc inside Megatron-Core: a layer spec whose ``core_attention`` is attnc's
(``attnc.megatron.use_attnc``), run by Megatron's own ``SelfAttention`` (its QKV and output
projections, its RoPE table, split by rank) on zigzag shards, against the same layer at CP 1 with an
fp64 SDPA core attention — forward output and the weight gradients, on 2 and 4 gloo
ranks, sbhd and THD (``PackedSeqParams``, also carrying hybrid CP's per-batch group)."""

from __future__ import annotations

import warnings

import pytest
import torch
import torch.distributed as dist

import attnc
from conftest import run_ranks


HIDDEN, HEADS, GROUPS = 64, 4, 2
#: fp32 through two projections and RoPE against an fp64 core (docs/numerics.md's fp32 output tolerance, 2e-5, on O; grads of the weights sum
#: over every token, hence the looser bound for them).
OUT_TOL, GRAD_TOL = 2e-5, 1e-4


def _megatron():
    warnings.filterwarnings("ignore")
    from megatron.core.models.common.embeddings.rotary_pos_embedding import RotaryEmbedding
    from megatron.core.models.gpt.gpt_layer_specs import get_gpt_layer_local_spec
    from megatron.core.process_groups_config import ProcessGroupCollection
    from megatron.core.transformer.attention import SelfAttention
    from megatron.core.transformer.enums import AttnMaskType
    from megatron.core.transformer.transformer_config import TransformerConfig

    return RotaryEmbedding, get_gpt_layer_local_spec, ProcessGroupCollection, SelfAttention, AttnMaskType, TransformerConfig


class _ReferenceCore(torch.nn.Module):
    """The reference ``core_attention``: fp64 causal attention by torch's SDPA on the whole
    sequence (Megatron's own local core needs CUDA for its memory buffer)."""

    def __init__(self, config, layer_number, attn_mask_type, attention_type, cp_comm_type=None, softmax_scale=None,
                 pg_collection=None):  # fmt: skip
        super().__init__()
        assert config.context_parallel_size == 1

    def forward(self, q, k, v, attention_mask, attn_mask_type=None, attention_bias=None, packed_seq_params=None):
        q, k, v = (x.double().permute(1, 2, 0, 3) for x in (q, k, v))  # [b, h, s, d]
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return o.permute(2, 0, 1, 3).flatten(-2).to(torch.float32)


def _layer(cp: int, group, attnc_core: bool, comm: str = "p2p"):
    RotaryEmbedding, local_spec, PGC, SelfAttention, AttnMaskType, TransformerConfig = _megatron()
    from attnc.megatron import use_attnc

    spec = local_spec()
    if attnc_core:
        use_attnc(spec)
    else:
        spec.submodules.self_attention.submodules.core_attention = _ReferenceCore
    config = TransformerConfig(
        num_layers=1, hidden_size=HIDDEN, num_attention_heads=HEADS, num_query_groups=GROUPS,
        use_cpu_initialization=True, attention_dropout=0.0, hidden_dropout=0.0, context_parallel_size=cp,
        cp_comm_type=comm,
    )  # fmt: skip
    torch.manual_seed(3)
    pg = PGC(tp=_single(dist.get_rank()), cp=group)  # TP 1: CP is what runs across the ranks
    layer = SelfAttention(
        config, spec.submodules.self_attention.submodules, layer_number=1, attn_mask_type=AttnMaskType.causal,
        cp_comm_type=comm, pg_collection=pg,
    )  # fmt: skip
    rope = RotaryEmbedding(HIDDEN // HEADS, rotary_percent=1.0, use_cpu_initialization=True, cp_group=group)
    return layer, rope


def _rope_emb(rope, s: int, group):
    """Megatron's ``RotaryEmbedding.forward`` without its moves to CUDA: ``get_emb``'s table, and
    for CP the zigzag slice of the positions (chunks r and 2cp−1−r, what Megatron's
    ``get_pos_emb_on_this_cp_rank`` takes with a CUDA index; ``attnc.shard`` takes the same rows)."""
    freqs = rope.get_freqs_non_repeated(s, 0)
    emb = torch.cat((freqs, freqs), dim=-1)[:, None, None, :]
    return attnc.shard(emb, group.size(), group.rank(), seq_dim=0) if group.size() > 1 else emb


_SINGLE: dict[int, dist.ProcessGroup] = {}


def _single(rank: int):
    """This rank alone, created once per process by this rank only."""
    if rank not in _SINGLE:
        _SINGLE[rank] = dist.new_group([rank], use_local_synchronization=True)
    return _SINGLE[rank]


def _grads(layer) -> dict[str, torch.Tensor]:
    return {n: p.grad.clone() for n, p in layer.named_parameters() if p.grad is not None}


def _sbhd(rank: int, world: int, comm: str):
    """Megatron's layer at CP ``world`` with attnc against the layer at CP 1 with the fp64 core."""
    s, b = 32, 2
    torch.manual_seed(5)
    x = torch.randn(s, b, HIDDEN)
    g = torch.randn(s, b, HIDDEN)
    # CP 1, the fp64 core: the reference.
    ref_layer, ref_rope = _layer(1, _single(rank), attnc_core=False)
    xr = x.clone().requires_grad_(True)
    ref_out, _ = ref_layer(xr, None, rotary_pos_emb=_rope_emb(ref_rope, s, ref_rope.cp_group))
    (ref_out * g).sum().backward()
    # CP world, attnc: zigzag shards of the input, Megatron's RoPE split by its own cp_group.
    layer, rope = _layer(world, dist.group.WORLD, attnc_core=True, comm=comm)
    layer.load_state_dict(ref_layer.state_dict())
    xs = attnc.shard(x, world, rank, seq_dim=0).clone().requires_grad_(True)
    out, _ = layer(xs, None, rotary_pos_emb=_rope_emb(rope, s, dist.group.WORLD))
    (out * attnc.shard(g, world, rank, seq_dim=0)).sum().backward()
    parts = [torch.empty_like(out) for _ in range(world)]
    dist.all_gather(parts, out.detach().contiguous())
    out_err = (attnc.unshard(parts, seq_dim=0) - ref_out.detach()).abs().max().item()
    dx_err = (xs.grad - attnc.shard(xr.grad, world, rank, seq_dim=0)).abs().max().item()
    grads, ref_grads = _grads(layer), _grads(ref_layer)
    grad_err = 0.0
    for name, grad in grads.items():
        dist.all_reduce(grad)  # Megatron sums weight gradients over CP ranks (the dp-cp group)
        grad_err = max(grad_err, (grad - ref_grads[name]).abs().max().item())
    return type(layer.core_attention).__name__, out_err, dx_err, grad_err, sorted(grads) == sorted(ref_grads)


@pytest.mark.parametrize("world,comm", [(2, "p2p"), (4, "p2p"), (4, "a2a")])
def test_megatron_self_attention_with_attnc_core_matches_cp1(world, comm):
    for core, out_err, dx_err, grad_err, same_params in run_ranks(world, _sbhd, comm):
        assert core == "AttncDotProductAttention"
        assert same_params
        assert out_err <= OUT_TOL, out_err
        assert dx_err <= OUT_TOL, dx_err
        assert grad_err <= GRAD_TOL, grad_err


def _thd(rank: int, world: int, hybrid: bool):
    """A packed batch through ``PackedSeqParams`` (THD, TE's split), against each sequence alone at
    CP 1 with the fp64 core. With ``hybrid`` the layer is built without a CP group and the batch
    carries it, as Megatron's hybrid CP does."""
    from megatron.core.packed_seq_params import PackedSeqParams

    lens = [8, 24, 16]  # multiples of 2·cp: no padding between sequences
    cu = torch.tensor([0, 8, 32, 48], dtype=torch.int32)
    torch.manual_seed(9)
    x = torch.randn(sum(lens), 1, HIDDEN)
    ref_layer, _ = _layer(1, _single(rank), attnc_core=False)
    with torch.no_grad():
        ref = torch.cat([ref_layer(x[a:b_], None)[0] for a, b_ in zip(cu[:-1].tolist(), cu[1:].tolist())])
    layer, _ = _layer(1 if hybrid else world, _single(rank) if hybrid else dist.group.WORLD, attnc_core=True)
    layer.load_state_dict(ref_layer.state_dict())
    idx = attnc.shard_indices(sum(lens), world, rank, cu_seqlens_padded=cu.tolist())
    params = PackedSeqParams(
        qkv_format="thd", cu_seqlens_q=cu, cu_seqlens_kv=cu, cu_seqlens_q_padded=cu, cu_seqlens_kv_padded=cu,
        max_seqlen_q=max(lens), max_seqlen_kv=max(lens), cp_group=dist.group.WORLD if hybrid else None,
    )  # fmt: skip
    with torch.no_grad():
        out, _ = layer(x[idx], None, packed_seq_params=params)
    return (out - ref[idx]).abs().max().item()


@pytest.mark.parametrize("hybrid", [False, True])
def test_megatron_packed_thd_and_hybrid_cp_group(hybrid):
    for err in run_ranks(2, _thd, hybrid):
        assert err <= OUT_TOL, err


def test_use_attnc_replaces_core_attention_and_rejects_what_attnc_does_not_run(single_rank_group):
    _, local_spec, PGC, SelfAttention, AttnMaskType, TransformerConfig = _megatron()
    from attnc.megatron import AttncDotProductAttention, use_attnc

    spec = use_attnc(local_spec())
    assert spec.submodules.self_attention.submodules.core_attention is AttncDotProductAttention
    with pytest.raises(ValueError, match="argument `spec`: no core_attention"):
        use_attnc(object())
    pg = PGC(tp=single_rank_group, cp=single_rank_group)
    config = TransformerConfig(num_layers=1, hidden_size=HIDDEN, num_attention_heads=HEADS, use_cpu_initialization=True)
    # Megatron's default attention dropout is 0.1; attnc runs none and says which field to change.
    with pytest.raises(NotImplementedError, match="config.attention_dropout: 0.1"):
        AttncDotProductAttention(config, 1, AttnMaskType.causal, "self", pg_collection=pg)
    config.attention_dropout = 0.0
    core = AttncDotProductAttention(config, 1, AttnMaskType.causal, "self", pg_collection=pg)
    q = torch.randn(8, 1, HEADS, HIDDEN // HEADS)
    with pytest.raises(NotImplementedError, match="argument `attention_bias`"):
        core(q, q, q, None, attn_mask_type=AttnMaskType.causal, attention_bias=torch.zeros(1))
