"""Bad input is a Python exception naming the argument, never a crash or a hang; a rank that fails
mid-ring surfaces as an exception on every rank."""

from __future__ import annotations

import time

import pytest
import torch
import torch.distributed as dist

import attnc
import attnc.torch as at
from conftest import GROUP_TIMEOUT_S, run_ranks


def qkv(s=16, b=1, h=4, hk=2, d=16, dtype=torch.float32):
    return torch.randn(s, b, h, d, dtype=dtype), torch.randn(s, b, hk, d, dtype=dtype), torch.randn(s, b, hk, d, dtype=dtype)


def raises(exc, match, fn, **kwargs):
    with pytest.raises(exc, match=match):
        fn(**kwargs)


@pytest.mark.parametrize(
    "change,exc,match",
    [
        (dict(qkv_format="bhsd"), ValueError, "argument `qkv_format`"),
        (dict(cp_comm_type="ring"), ValueError, "argument `cp_comm_type`"),
        (dict(attn_mask_type="causal_bottom_right"), NotImplementedError, "argument `attn_mask_type`"),
        (dict(attn_mask_type="arbitrary"), NotImplementedError, "argument `attn_mask_type`"),
        (dict(attn_mask_type="padding_causal"), NotImplementedError, "argument `attn_mask_type`.*thd"),
        (dict(window_size=(4, 4)), NotImplementedError, "argument `window_size`"),
        (dict(window_size=(4, 0), attn_mask_type="no_mask"), NotImplementedError, "argument `window_size`"),
        (dict(cp_stream=object()), NotImplementedError, "argument `cp_stream`"),
        (dict(softmax_scale=-0.3), ValueError, "argument `softmax_scale`"),
        (dict(sinks=torch.zeros(3)), ValueError, "argument `sinks`"),
        (dict(cp_group=None), ValueError, "argument `cp_group`"),
        (dict(cp_comm_type="a2a+p2p"), ValueError, "argument `cp_group`"),
        (dict(mask="k <= q; k < 4"), ValueError, "argument `mask`: .*one line"),
        (dict(mask="k <= q | k < 4", window_size=(3, 0)), ValueError, "argument `mask`: an expression replaces"),
        (dict(mask="q - k"), ValueError, "(?s)argument `mask`: .*a mask is a condition"),
        (dict(mask="k <= q & h < 2"), ValueError, "(?s)argument `mask`: .*cannot compile this mask yet: head 2 sees no key"),
        (dict(mask="k <= q & (h < 2 | q - k < 4)", head_offset=3), ValueError, "argument `head_offset`: 3 with a mask that reads the head `h`; .*a multiple of 4"),
        # Learned score parameters: one value per query head, declared by name, read by the score.
        (dict(score="s - b[h] * (q - k)", score_params={"b": torch.zeros(3)}), ValueError, r"argument `score_params`: `b` has one value per query head \(4\)"),
        (dict(score="s - b[h] * (q - k)"), ValueError, r"(?s)argument `score`: .*`b\[h\]` is not a learned parameter.*params = \[b\]"),
        (dict(score="s - b[h] * (q - k)", score_params={"c": torch.zeros(4)}), ValueError, r"(?s)argument `score`: .*did you mean `c\[h\]`"),
        (dict(score="s - b[h] * (q - k)", score_params={"b": torch.zeros(4), "c": torch.zeros(4)}), ValueError, "(?s)argument `score_params`: .*`c` is declared, and the score does not read it"),
        (dict(score_params={"b": torch.zeros(4)}), ValueError, "argument `score_params`: learned parameters are read by a score"),
        (dict(score="s - b[q]", score_params={"b": torch.zeros(4)}), ValueError, r"(?s)argument `score`: .*read at the query head"),
    ],
)
def test_unsupported_or_wrong_arguments_name_the_argument(single_rank_group, change, exc, match):
    change = dict(change)
    q, k, v = qkv(dtype=change.pop("dtype", torch.float32))
    kwargs = dict(cp_group=single_rank_group) | change
    raises(exc, match, at.attention, q=q, k=k, v=v, **kwargs)


@pytest.mark.parametrize(
    "tensors,match",
    [
        (lambda: (torch.randn(16, 4, 16), *qkv()[1:]), r"argument `q`: qkv_format='sbhd' takes \[s, b, h, d\]"),
        (lambda: (qkv()[0].to(torch.float64), *qkv()[1:]), "argument `q`: dtype torch.float64"),
        (lambda: (qkv()[0], qkv()[1].bfloat16(), qkv()[2]), "argument `k`/`v`: q, k and v share one dtype"),
        (lambda: (qkv()[0], *qkv(s=8)[1:]), "argument `k`: q, k and v share their sequence"),
        (lambda: (qkv(h=4)[0], *qkv(hk=3)[1:]), "argument `k`: 3 KV heads do not divide"),
        (lambda: (qkv()[0], qkv(d=8)[1], qkv()[2]), "argument `k`: head dim 8"),
        (lambda: (qkv(d=12)[0], qkv(d=12)[1], qkv(d=12)[2]), "(?s)argument `q`: head_dim = 12 is not supported.*help: .*multiple of 8"),
        (lambda: ("q", *qkv()[1:]), "argument `q`: a torch.Tensor"),
    ],
)
def test_shapes_dtypes_and_head_dims_name_the_tensor(single_rank_group, tensors, match):
    q, k, v = tensors()
    raises(ValueError, match, at.attention, q=q, k=k, v=v, cp_group=single_rank_group)


def test_thd_lengths_the_split_cannot_take(single_rank_group):
    q, k, v = (x[:, 0] for x in qkv(s=12))
    cu = torch.tensor([0, 5, 12], dtype=torch.int32)
    # Padded lengths must be multiples of 2·cp (here 2) and at least the real ones.
    with pytest.raises(ValueError, match="(?s)argument `cu_seqlens_q_padded`: sequence 0 is padded to 5 tokens, not a multiple of 2.*help: .*pad it to 6"):
        at.attention(q, k, v, cp_group=single_rank_group, qkv_format="thd", cu_seqlens_q=cu,
                     cu_seqlens_q_padded=torch.tensor([0, 5, 12]))  # fmt: skip
    with pytest.raises(ValueError, match="argument `q`: 12 local tokens .* has 14"):
        at.attention(q, k, v, cp_group=single_rank_group, qkv_format="thd", cu_seqlens_q=cu,
                     cu_seqlens_q_padded=torch.tensor([0, 6, 14]))  # fmt: skip
    with pytest.raises(ValueError, match="argument `cu_seqlens_q`: qkv_format='thd' needs"):
        at.attention(q, k, v, cp_group=single_rank_group, qkv_format="thd")
    with pytest.raises(ValueError, match="argument `cu_seqlens_q`: offsets"):
        at.attention(q, k, v, cp_group=single_rank_group, qkv_format="thd", cu_seqlens_q=[0, 7, 5])


def test_te_features_attnc_does_not_run(single_rank_group):
    with pytest.raises(NotImplementedError, match="argument `attention_dropout`"):
        at.DotProductAttention(4, 16, attention_dropout=0.1)
    with pytest.raises(NotImplementedError, match="argument `attention_type`"):
        at.DotProductAttention(4, 16, attention_type="cross")
    m = at.DotProductAttention(4, 16, num_gqa_groups=2, cp_group=single_rank_group)
    q, k, v = qkv()
    with pytest.raises(NotImplementedError, match="argument `core_attention_bias`"):
        m(q, k, v, core_attention_bias_type="post_scale_bias", core_attention_bias=torch.zeros(1))
    with pytest.raises(ValueError, match=r"argument `alibi_slopes`: one slope per query head of this rank \(4\)"):
        m(q, k, v, alibi_slopes=torch.zeros(3))
    with pytest.raises(NotImplementedError, match="argument `alibi_slopes`: slopes that differ across the batch"):
        m(q, k, v, alibi_slopes=torch.arange(8.0).reshape(2, 4))
    with pytest.raises(NotImplementedError, match="argument `fp8_output`"):
        m(q, k, v, fp8_output=True)


def test_devices_other_than_the_cpu_are_refused_by_name(single_rank_group):
    q, k, v = qkv()
    q = q.to("meta")
    with pytest.raises(NotImplementedError, match="argument `q`: tensors on meta"):
        at.attention(q, k, v, cp_group=single_rank_group)


def _group_size_mismatch(rank, world):
    import attnc.torch as at

    q, k, v = qkv(s=16, h=2, hk=2)
    # a2a+p2p's groups say 2 × 1 ranks, but the layout's a2a over 2 with heads 2 and kv 2: fine;
    # hierarchy must multiply to the group: a2a group of 2 and a p2p group of 2 is 4 ranks.
    groups = [dist.group.WORLD, dist.group.WORLD]
    try:
        at.attention(q, k, v, cp_group=groups, cp_comm_type="a2a+p2p")
    except (ValueError, RuntimeError) as e:
        return f"{type(e).__name__}: {e}"
    return "no error"


def test_groups_that_do_not_form_the_hierarchy_are_refused():
    results = run_ranks(2, _group_size_mismatch)
    assert all("Error" in r for r in results), results


def _fail_mid_ring(rank, world):
    import attnc
    import attnc.torch as at

    torch.manual_seed(0)
    q, k, v = (attnc.shard(x, world, rank) for x in qkv(s=32, h=4, hk=4))
    calls = {"n": 0}

    def fault():
        calls["n"] += 1
        if rank == 1 and calls["n"] == 1:
            raise RuntimeError("injected fault in rank 1's first ring transfer")

    at._fault = fault
    at.timeout_s = 2 * GROUP_TIMEOUT_S
    start = time.monotonic()
    try:
        at.attention(q, k, v, cp_group=dist.group.WORLD, cp_comm_type="p2p")
        return ("no error", time.monotonic() - start)
    except Exception as e:
        return (f"{type(e).__name__}: {e}", time.monotonic() - start)


def test_a_rank_that_fails_mid_ring_is_an_exception_on_every_rank():
    results = run_ranks(2, _fail_mid_ring)
    (m0, t0), (m1, t1) = results
    assert "rank 1" in m1 and "injected fault" in m1, m1
    assert m0.startswith("RuntimeError") and "rank 0" in m0, m0
    # Within the group's timeout (and the executor's), never a hang.
    assert t0 < 3 * GROUP_TIMEOUT_S, t0
