"""The op as torch sees it: ``torch.library.opcheck`` of the forward and backward custom ops, and
``torch.compile(fullgraph=True)`` forward and backward with the aot_eager and inductor backends,
on one rank in process and on two gloo ranks; Megatron-Core's own ``get_batch_on_this_cp_rank``
produces the shards attnc takes; a spec file runs through ``attnc.load``."""

from __future__ import annotations

import pytest
import torch
import torch.distributed as dist

import attnc
import attnc.torch as at
import reference
from conftest import REPO, run_ranks


def _inputs(s=16, b=2, h=4, hk=2, d=16, requires_grad=True):
    torch.manual_seed(7)
    return [torch.randn(s, b, n, d, requires_grad=requires_grad) for n in (h, hk, hk)]


def test_opcheck_forward_and_backward(single_rank_group):
    q, k, v = _inputs()
    config = at.config_for(q, k, v, cp_size=1)
    name = single_rank_group.group_name
    none4 = (None, None, None, None)
    torch.library.opcheck(torch.ops.attnc.cp_attention.default, (q, k, v, None, None, *none4, config, 0, name))
    out, lse = torch.ops.attnc.cp_attention(q, k, v, None, None, *none4, config, 0, name)
    args = (q.detach(), k.detach(), v.detach(), None, None, *none4, out.detach(), lse, torch.randn_like(out), config, 0, name)
    torch.library.opcheck(torch.ops.attnc.cp_attention_backward.default, args)
    # Learned score parameters: a [heads, n] input with a gradient.
    score, names = "s * exp(temp[h]) - slope[h] * (q - k)", ("slope", "temp")
    config = at.config_for(q, k, v, cp_size=1, score=score, score_params=names)
    params = (0.05 * torch.randn(4, 2)).requires_grad_()
    torch.library.opcheck(torch.ops.attnc.cp_attention.default, (q, k, v, None, params, *none4, config, 0, name))
    out, lse = torch.ops.attnc.cp_attention(q, k, v, None, params, *none4, config, 0, name)
    args = (q.detach(), k.detach(), v.detach(), None, params.detach(), *none4, out.detach(), lse,
            torch.randn_like(out), config, 0, name)  # fmt: skip
    torch.library.opcheck(torch.ops.attnc.cp_attention_backward.default, args)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_fullgraph_forward_and_backward(single_rank_group, backend):
    q, k, v = _inputs()
    # Learned score parameters, one tensor each, with gradients through the compiled graph.
    slope, temp = (torch.full((4,), x, requires_grad=True) for x in (0.03, -0.2))
    leaves = (q, k, v, slope, temp)

    def f(q, k, v, slope, temp):
        out = at.attention(
            q, k, v, cp_group=single_rank_group, qkv_format="sbhd", score="s * exp(temp[h]) - slope[h] * (q - k)",
            score_params={"slope": slope, "temp": temp},
        )  # fmt: skip
        return out.square().sum()

    eager = f(*leaves)
    eager.backward()
    grads = [x.grad.clone() for x in leaves]
    assert all(g.abs().sum() > 0 for g in grads[3:]), grads[3:]
    for x in leaves:
        x.grad = None
    compiled = torch.compile(f, fullgraph=True, backend=backend)
    loss = compiled(*leaves)
    loss.backward()
    torch.testing.assert_close(loss, eager, rtol=0, atol=0)
    for g, x in zip(grads, leaves):
        torch.testing.assert_close(x.grad, g, rtol=0, atol=0)


def _compiled_on_two_ranks(rank, world):
    import attnc
    import attnc.torch as at

    torch.manual_seed(3)
    q, k, v = (torch.randn(32, 1, 4, 16) for _ in range(3))
    parts = [attnc.shard(x, world, rank).requires_grad_() for x in (q, k, v)]

    def f(q, k, v):
        return at.attention(q, k, v, cp_group=dist.group.WORLD, cp_comm_type="p2p").sum()

    loss = torch.compile(f, fullgraph=True, backend="aot_eager")(*parts)
    loss.backward()
    eager = [x.detach().clone().requires_grad_() for x in parts]
    f(*eager).backward()
    return [bool(torch.equal(a.grad, b.grad)) for a, b in zip(parts, eager)]


def test_compile_fullgraph_over_a_process_group():
    assert run_ranks(2, _compiled_on_two_ranks) == [[True] * 3] * 2


def _megatron_handoff(rank, world):
    """Megatron-Core's own split of a batch (seq dim 1, bshd) feeds attnc; its output, gathered
    and joined by attnc.unshard, is fp64 attention of the whole batch."""
    import attnc
    import attnc.torch as at
    from megatron.core.utils import get_batch_on_this_cp_rank

    torch.manual_seed(11)
    b, s, h, d = 2, 32, 4, 16
    q, k, v = (torch.randn(b, s, h, d) for _ in range(3))
    tokens = torch.arange(s).repeat(b, 1)
    batch = get_batch_on_this_cp_rank(
        {"q": q.clone(), "k": k.clone(), "v": v.clone(), "tokens": tokens.clone()}, cp_group=dist.group.WORLD
    )
    # Megatron's split is attnc's: the same tokens in the same local order.
    same_split = bool(torch.equal(batch["tokens"][0], attnc.shard_indices(s, world, rank)))
    out = at.attention(batch["q"], batch["k"], batch["v"], cp_group=dist.group.WORLD, qkv_format="bshd")
    parts = [torch.empty_like(out) for _ in range(world)]
    dist.all_gather(parts, out.contiguous())
    whole = attnc.unshard(parts, seq_dim=1)
    want, _ = reference.attention(q.double(), k.double(), v.double(), causal=True)
    return same_split, (whole.double() - want).abs().max().item()


@pytest.mark.parametrize("world", [2, 4])
def test_megatron_get_batch_on_this_cp_rank_feeds_attnc(world):
    for same_split, err in run_ranks(world, _megatron_handoff):
        assert same_split
        assert err <= reference.TOLERANCES[torch.float32]["out"], err


def _te_thd_indices(cu_seqlens_padded: list[int], total: int, cp: int, rank: int) -> list[int]:
    """TransformerEngine's ``thd_get_partitioned_indices`` (its CUDA kernel, read from
    transformer_engine/common/fused_attn/context_parallel.cu and written here as a loop): each
    sequence of the padded buffer splits into 2·cp chunks, rank r takes chunks r and 2cp−1−r."""
    out = []
    for start, end in zip(cu_seqlens_padded, cu_seqlens_padded[1:]):
        chunk = (end - start) // (2 * cp)
        out += list(range(start + rank * chunk, start + (rank + 1) * chunk))
        out += list(range(start + (2 * cp - 1 - rank) * chunk, start + (2 * cp - rank) * chunk))
    assert len(out) == total // cp
    return out


@pytest.mark.parametrize("cp", [2, 4])
def test_thd_shards_are_te_partitioned_indices(cp):
    cu_p = [0, 16, 16, 40, 48]
    for rank in range(cp):
        got = attnc.shard_indices(48, cp, rank, cu_seqlens_padded=cu_p).tolist()
        assert got == _te_thd_indices(cu_p, 48, cp, rank)


def test_shard_and_unshard_are_inverse():
    x = torch.randn(2, 48, 3)
    for cp in (1, 2, 4):
        parts = [attnc.shard(x, cp, r, seq_dim=1) for r in range(cp)]
        assert torch.equal(attnc.unshard(parts, seq_dim=1), x)


def _spec_layout(rank, world):
    import attnc

    spec = attnc.load(str(REPO / "dsl-examples" / "qwen2_gqa_ulysses.attn"))
    return spec.layouts


def test_load_a_spec_file_and_explain_its_plans(tmp_path, single_rank_group):
    spec_file = tmp_path / "tiny.attn"
    spec_file.write_text(
        "model tiny {\n  layers = 2\n  heads = 4\n  kv_heads = 2\n  head_dim = 16\n}\n"
        "cluster one { nodes = 1\n gpus_per_node = 1\n gpu = h100_sxm\n}\n"
        "layout solo {\n  model = tiny\n  cluster = one\n  format = bshd\n  dtype = fp32\n  seq = 32\n"
        "  cp = 1\n  strategy = auto\n}\n"
    )
    spec = attnc.load(spec_file)
    assert spec.layouts == ["solo"]
    layout = spec.layout("solo")
    assert layout.strategy(1) in ("p2p", "all_gather", "a2a")
    text = layout.explain()
    assert "layers 0..2: strategy" in text and "FLOPs" in text and "rank 0" in text
    svg = layout.picture(1)
    assert svg.startswith("<svg") and 'data-class="full"' in svg and 'data-ranks="0"' in svg
    with pytest.raises(ValueError, match="argument `layer`"):
        layout.picture(7)
    q, k, v = (torch.randn(1, 32, n, 16) for n in (4, 2, 2))
    out = layout.attention(q, k, v, cp_group=single_rank_group, layer=1)
    want, _ = reference.attention(q.double(), k.double(), v.double(), causal=True)
    assert (out.double() - want).abs().max().item() <= reference.TOLERANCES[torch.float32]["out"]


def test_a_spec_files_learned_score_parameters(tmp_path, single_rank_group):
    spec_file = tmp_path / "learned.attn"
    spec_file.write_text(
        "model tiny {\n  layers = 1\n  heads = 4\n  kv_heads = 2\n  head_dim = 16\n  params = [slope, temp]\n"
        "  score = s * exp(temp[h]) - slope[h] * (q - k)\n}\n"
        "cluster one { nodes = 1\n gpus_per_node = 1\n gpu = h100_sxm\n}\n"
        "layout solo {\n  model = tiny\n  cluster = one\n  format = bshd\n  dtype = fp32\n  seq = 32\n  cp = 1\n}\n"
    )
    layout = attnc.load(spec_file).layout("solo")
    assert layout.params == ["slope", "temp"]
    torch.manual_seed(5)
    q, k, v = (torch.randn(1, 32, n, 16, requires_grad=True) for n in (4, 2, 2))
    slope, temp = (0.05 * torch.randn(4)).requires_grad_(), (0.1 * torch.randn(4)).requires_grad_()
    # Given in any order, by name.
    out = layout.attention(q, k, v, cp_group=single_rank_group, params={"temp": temp, "slope": slope})
    d_out = torch.randn_like(out)
    out.backward(d_out)
    leaves = [x.detach().double().requires_grad_() for x in (q, k, v, slope, temp)]

    def score_mod(s, qp, kp, hp):
        return s * torch.exp(leaves[4].reshape(-1, 1, 1)) - leaves[3].reshape(-1, 1, 1) * (qp - kp)

    want, _ = reference.attention(*leaves[:3], causal=True, score_mod=score_mod)
    (want * d_out.double()).sum().backward()
    tol = reference.TOLERANCES[torch.float32]
    assert (out.double() - want).abs().max().item() <= tol["out"]
    for got, ref in zip((slope, temp), leaves[3:]):
        assert (got.grad.double() - ref.grad).abs().max().item() <= tol["grad"] * max(1.0, ref.grad.abs().max().item())
    with pytest.raises(ValueError, match="argument `params`: layout `solo`'s model declares"):
        layout.attention(q, k, v, cp_group=single_rank_group, params={"slope": slope})


def test_dot_product_attention_owns_its_learned_score_parameters(single_rank_group):
    """`score_params` in the constructor become the module's parameters, trained like any other:
    their gradients against torch autograd's through the same score."""
    torch.manual_seed(11)
    init = {"slope": 0.05 * torch.arange(4.0), "temp": torch.full((4,), 0.1)}
    module = at.DotProductAttention(4, 16, num_gqa_groups=2, cp_group=single_rank_group, cp_global_ranks=[0],
                                    score="s * exp(temp[h]) - slope[h] * (q - k)", score_params=init)  # fmt: skip
    names = [n for n, _ in module.named_parameters()]
    assert names == ["score_params.slope", "score_params.temp"], names
    q, k, v = (torch.randn(16, 1, n, 16) for n in (4, 2, 2))
    out = module(q, k, v)
    d_out = torch.randn_like(out)
    out.backward(d_out)
    leaves = [x.double().transpose(0, 1).requires_grad_() for x in (q, k, v)]
    ref = {n: x.double().requires_grad_() for n, x in init.items()}

    def score_mod(s, qp, kp, hp):
        return s * torch.exp(ref["temp"].reshape(-1, 1, 1)) - ref["slope"].reshape(-1, 1, 1) * (qp - kp)

    want, _ = reference.attention(*leaves, causal=True, score_mod=score_mod)
    want = want.transpose(0, 1).flatten(-2)
    tol = reference.TOLERANCES[torch.float32]
    assert (out.double() - want).abs().max().item() <= tol["out"]
    (want * d_out.double()).sum().backward()
    for name, p in module.score_params.items():
        err = (p.grad.double() - ref[name].grad).abs().max().item()
        assert err <= tol["grad"] * max(1.0, ref[name].grad.abs().max().item()), (name, p.grad, ref[name].grad)
    with pytest.raises(ValueError, match=r"argument `score_params`: `slope` starts as a tensor of one value per query head of this rank \(4\)"):
        at.DotProductAttention(4, 16, score="s - slope[h]", score_params={"slope": torch.zeros(8)})
    with pytest.raises(ValueError, match="argument `score_params`: learned parameters are read by a score"):
        at.DotProductAttention(4, 16, score_params={"slope": torch.zeros(4)})


def test_spec_file_errors_are_value_errors_with_the_diagnostics(tmp_path):
    bad = tmp_path / "bad.attn"
    bad.write_text("model m {\n  layers = 2\n  heads = 4\n  head_dim = 12\n}\n")
    with pytest.raises(ValueError, match=r"(?s)bad.attn:4:\d+.*head_dim"):
        attnc.load(bad)
    with pytest.raises(ValueError, match="argument `seqlens`"):
        attnc.load(REPO / "dsl-examples" / "sft_packed_thd.attn").layout("sft")


def test_dot_product_attention_is_te_shaped_and_learns_its_sinks(single_rank_group):
    torch.manual_seed(5)
    module = at.DotProductAttention(4, 16, num_gqa_groups=2, softmax_type="learnable", cp_group=single_rank_group,
                                    cp_global_ranks=[0], cp_stream=None, cp_comm_type="p2p")  # fmt: skip
    with torch.no_grad():
        module.softmax_offset.copy_(torch.randn(4))
    q, k, v = (torch.randn(16, 2, n, 16, requires_grad=True) for n in (4, 2, 2))
    out = module(q, k, v)
    assert out.shape == (16, 2, 4 * 16)  # TE's [s, b, h·d]
    (out * torch.linspace(-1, 1, out.numel()).reshape(out.shape)).sum().backward()
    sinks = module.softmax_offset.detach().double().requires_grad_()
    leaves = [x.detach().double().transpose(0, 1).requires_grad_() for x in (q, k, v)]
    want, _ = reference.attention(*leaves, causal=True, sinks=sinks)
    want = want.transpose(0, 1).flatten(-2)
    (want * torch.linspace(-1, 1, want.numel()).reshape(want.shape).double()).sum().backward()
    tol = reference.TOLERANCES[torch.float32]
    assert (out.double() - want).abs().max().item() <= tol["out"]
    assert (module.softmax_offset.grad.double() - sinks.grad).abs().max().item() <= tol["grad"] * (16 * 2) ** 0.5


def test_dot_product_attention_takes_a_mask_expression(single_rank_group):
    """attnc's `mask` (prefix-LM here): the module's output against fp64 attention with the prefix."""
    torch.manual_seed(6)
    module = at.DotProductAttention(4, 16, num_gqa_groups=2, cp_group=single_rank_group, cp_global_ranks=[0],
                                    cp_stream=None, mask="k <= q | k < 6")  # fmt: skip
    q, k, v = (torch.randn(16, 2, n, 16) for n in (4, 2, 2))
    out = module(q, k, v)
    leaves = [x.double().transpose(0, 1) for x in (q, k, v)]
    want, _ = reference.attention(*leaves, causal=True, prefix=6)
    assert (out.double() - want.transpose(0, 1).flatten(-2)).abs().max().item() <= reference.TOLERANCES[torch.float32]["out"]
    # Without the prefix the first rows differ: the mask reached the plan.
    plain, _ = reference.attention(*leaves, causal=True)
    assert (out.double() - plain.transpose(0, 1).flatten(-2)).abs().max().item() > 1e-3
    with pytest.raises(ValueError, match="argument `attn_mask_type`/`window_size`"):
        module(q, k, v, attn_mask_type="causal")


def test_dot_product_attention_takes_a_score_expression(single_rank_group):
    """attnc's `score` (tanh, exp, min and max): the module's output and gradients against fp64
    attention with the same function written in torch ops."""
    torch.manual_seed(7)
    text = "2 * tanh(s / 2) + max(s - 1, 0) / 4 - exp(min(s, 0) - 2)"
    module = at.DotProductAttention(4, 16, num_gqa_groups=2, cp_group=single_rank_group, cp_global_ranks=[0],
                                    cp_stream=None, score=text)  # fmt: skip
    q, k, v = (torch.randn(16, 2, n, 16, requires_grad=True) for n in (4, 2, 2))
    out = module(q, k, v)
    d_out = torch.randn_like(out)
    out.backward(d_out)
    leaves = [x.detach().double().transpose(0, 1).requires_grad_() for x in (q, k, v)]

    def score_mod(s, qp, kp, hp):
        zero = torch.zeros_like(s)
        return 2 * torch.tanh(s / 2) + torch.maximum(s - 1, zero) / 4 - torch.exp(torch.minimum(s, zero) - 2)

    want, _ = reference.attention(*leaves, causal=True, score_mod=score_mod)
    want = want.transpose(0, 1).flatten(-2)
    tol = reference.TOLERANCES[torch.float32]
    assert (out.double() - want).abs().max().item() <= tol["out"]
    want.backward(d_out.double())
    for name, got, ref in zip("qkv", (q, k, v), leaves):
        err = (got.grad.double() - ref.grad.transpose(0, 1)).abs().max().item()
        assert err <= tol["grad"], f"d{name}: {err}"
    # Without the score the output differs: the expression reached the kernels.
    plain, _ = reference.attention(*[x.detach() for x in leaves], causal=True)
    assert (out.double() - plain.transpose(0, 1).flatten(-2)).abs().max().item() > 1e-3


def _against_fp64(out, want, qkv, leaves):
    """An sbhd fp32 output against fp64 attention (`want`, sbhd), forward and backward: one random
    output gradient through both, q's, k's and v's gradients against the fp64 leaves'."""
    tol = reference.TOLERANCES[torch.float32]
    assert (out.double() - want).abs().max().item() <= tol["out"]
    d_out = torch.randn_like(out)
    out.backward(d_out)
    want.backward(d_out.double())
    for name, got, ref in zip("qkv", qkv, leaves):
        err = (got.grad.double() - ref.grad.transpose(0, 1)).abs().max().item()
        assert err <= tol["grad"], f"d{name}: {err}"


def test_alibi_counts_heads_from_the_head_offset(single_rank_group):
    """ALiBi over a model of 8 heads, run as the second tensor-parallel slice (heads 4..7):
    `head_offset=4` gives those heads' slopes, 2^-(h+1) for h = 4..7, against fp64 attention
    with them written in torch ops; DotProductAttention's `tp_group` sets the same offset, and
    TE's ALiBi arguments point at the score."""
    torch.manual_seed(9)
    text = "s - alibi(h, 8) * (q - k)"
    q, k, v = (torch.randn(16, 1, 4, 16, requires_grad=True) for _ in range(3))
    out = at.attention(q, k, v, cp_group=single_rank_group, score=text, head_offset=4)
    leaves = [x.detach().double().transpose(0, 1).requires_grad_() for x in (q, k, v)]

    def alibi(s, qp, kp, hp):
        return s - torch.exp2(-(hp + 4 + 1)) * (qp - kp)

    want, _ = reference.attention(*leaves, causal=True, score_mod=alibi)
    want = want.transpose(0, 1)
    _against_fp64(out, want, (q, k, v), leaves)
    tol = reference.TOLERANCES[torch.float32]
    # The first slice's slopes differ: the offset reached the kernels.
    first = at.attention(q.detach(), k.detach(), v.detach(), cp_group=single_rank_group, score=text)
    assert (first.double() - want).abs().max().item() > 1e-3
    # DotProductAttention: 8 heads over tp_size 2, this process the tp_group's only rank (0).
    module = at.DotProductAttention(8, 16, tp_size=2, tp_group=single_rank_group, cp_group=single_rank_group,
                                    cp_global_ranks=[0], cp_stream=None, score=text)  # fmt: skip
    assert (module(q.detach(), k.detach(), v.detach()).double() - first.double().flatten(-2)).abs().max().item() == 0.0
    # TE's own ALiBi arguments: the standard slopes by core_attention_bias_type, and slopes given.
    plain = at.DotProductAttention(8, 16, tp_size=2, tp_group=single_rank_group, cp_group=single_rank_group,
                                   cp_global_ranks=[0], cp_stream=None)  # fmt: skip
    got = plain(q.detach(), k.detach(), v.detach(), core_attention_bias_type="alibi")
    assert (got.double() - first.double().flatten(-2)).abs().max().item() == 0.0
    with pytest.raises(ValueError, match="already has a score modification"):
        module(q.detach(), k.detach(), v.detach(), core_attention_bias_type="alibi")
    # Slopes of one's own, with gradients: against torch autograd through the same bias.
    slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625], requires_grad=True)
    qg, kg, vg = (x.detach().clone().requires_grad_() for x in (q, k, v))
    out = plain(qg, kg, vg, alibi_slopes=slopes)
    slopes_ref = slopes.detach().double().requires_grad_()
    leaves = [x.detach().double().transpose(0, 1).requires_grad_() for x in (q, k, v)]

    def given(s, qp, kp, hp):
        return s - slopes_ref.reshape(-1, 1, 1) * (qp - kp)

    want, _ = reference.attention(*leaves, causal=True, score_mod=given)
    want = want.transpose(0, 1).flatten(-2)
    assert (out.double() - want).abs().max().item() <= tol["out"]
    d_out = torch.randn_like(out)
    out.backward(d_out)
    want.backward(d_out.double())
    err = (slopes.grad.double() - slopes_ref.grad).abs().max().item()
    assert err <= tol["grad"] * max(1.0, slopes_ref.grad.abs().max().item()), (slopes.grad, slopes_ref.grad)
    # Without a causal mask the bias is −slope·|q − k|, FlashAttention's.
    both = plain(q.detach(), k.detach(), v.detach(), attn_mask_type="no_mask", alibi_slopes=slopes.detach())

    def symmetric(s, qp, kp, hp):
        return s - slopes.detach().double().reshape(-1, 1, 1) * (qp - kp).abs()

    want, _ = reference.attention(*[x.detach() for x in leaves], causal=False, score_mod=symmetric)
    assert (both.double() - want.transpose(0, 1).flatten(-2)).abs().max().item() <= tol["out"]
    with pytest.raises(ValueError, match="argument `head_offset`"):
        at.attention(q, k, v, cp_group=single_rank_group, score=text, head_offset=-1)


def test_a_mask_that_reads_the_head_counts_heads_from_the_head_offset(single_rank_group):
    """A per-head mask over a model of 8 heads, run as the second tensor-parallel slice (heads
    4..7): heads 4 and 5 causal, 6 and 7 a stride of two, tested per pair at the slice's own
    heads, against fp64 attention forward and backward; the first slice (every head causal)
    differs, so the offset reached the kernels."""
    torch.manual_seed(11)
    text = "k <= q & (h < 6 | (q - k) % 2 == 0)"
    q, k, v = (torch.randn(16, 1, n, 16, requires_grad=True) for n in (4, 2, 2))
    out = at.attention(q, k, v, cp_group=single_rank_group, mask=text, head_offset=4)
    leaves = [x.detach().double().transpose(0, 1).requires_grad_() for x in (q, k, v)]

    def heads_4_to_7(qp, kp, hp):
        return (kp <= qp) & ((hp + 4 < 6) | ((qp - kp) % 2 == 0))

    want, _ = reference.attention(*leaves, causal=False, mask_mod=heads_4_to_7)
    want = want.transpose(0, 1)
    _against_fp64(out, want, (q, k, v), leaves)
    first = at.attention(q.detach(), k.detach(), v.detach(), cp_group=single_rank_group, mask=text)
    assert (first.double() - want).abs().max().item() > 1e-3


def test_a_score_the_kernels_cannot_compute_names_the_argument(single_rank_group):
    q, k, v = (torch.randn(8, 1, 2, 16) for _ in range(3))
    # doc(q) is the packed sequence's index: 0 outside thd, so the plain score.
    plain = at.attention(q, k, v, cp_group=single_rank_group)
    assert torch.equal(at.attention(q, k, v, cp_group=single_rank_group, score="s * (1 + doc(q))"), plain)
    with pytest.raises(ValueError, match=r"argument `score`.*`alibi` takes a head"):
        at.attention(q, k, v, cp_group=single_rank_group, score="s - alibi(q, 2) * (q - k)")
    # Slopes for one head, on two: head 1 has none.
    with pytest.raises(ValueError, match=r"argument `score`.*no value at query head 1"):
        at.attention(q, k, v, cp_group=single_rank_group, score="s - alibi(h, 1) * (q - k)")
    with pytest.raises(ValueError, match=r"argument `score`: a score expression replaces softcap"):
        at.attention(q, k, v, cp_group=single_rank_group, score="s", softcap=30.0)
    with pytest.raises(ValueError, match=r"argument `score`"):
        at.attention(q, k, v, cp_group=single_rank_group, score="s < 3")


def _group_changes_per_call(rank, world):
    """Hybrid CP hands each batch its own group: one call over all 4 ranks, the next over pairs."""
    import attnc
    import attnc.torch as at

    pairs = [dist.new_group([0, 1]), dist.new_group([2, 3])]
    errors = []
    for group, size, index in ((dist.group.WORLD, world, rank), (pairs[rank // 2], 2, rank % 2)):
        torch.manual_seed(100 + size + (rank // 2 if size == 2 else 0))
        q, k, v = (torch.randn(32, 1, 2, 16) for _ in range(3))
        out = at.attention(*(attnc.shard(x, size, index) for x in (q, k, v)), cp_group=group)
        parts = [torch.empty_like(out) for _ in range(size)]
        dist.all_gather(parts, out.contiguous(), group=group)
        want, _ = reference.attention(*(x.transpose(0, 1).double() for x in (q, k, v)), causal=True)
        errors.append((attnc.unshard(parts).double() - want.transpose(0, 1)).abs().max().item())
    return errors


def test_the_group_may_change_from_call_to_call():
    for errors in run_ranks(4, _group_changes_per_call):
        assert max(errors) <= reference.TOLERANCES[torch.float32]["out"], errors
