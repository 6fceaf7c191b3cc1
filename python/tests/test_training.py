"""End to end: a small GPT (2 layers, width 64, attnc attention) trained for 20 steps at CP 1, 2
and 4 with the same seed and data gives the same per-step losses within 1e-4 relative; a wrong
shard order (labels split contiguously while the tokens are split zigzag) does not, and the same
check catches it."""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn.functional as F

from conftest import run_ranks

VOCAB, WIDTH, HEADS, LAYERS, SEQ, BATCH, STEPS = 64, 64, 4, 2, 32, 2, 20
RTOL = 1e-4


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = torch.nn.LayerNorm(WIDTH), torch.nn.LayerNorm(WIDTH)
        self.qkv = torch.nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = torch.nn.Linear(WIDTH, WIDTH)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(WIDTH, 4 * WIDTH), torch.nn.GELU(), torch.nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x, group):
        import attnc.torch as at

        b, n, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, n, 3, HEADS, WIDTH // HEADS).unbind(2)
        a = at.attention(q, k, v, cp_group=group, qkv_format="bshd", attn_mask_type="causal")
        x = x + self.proj(a.reshape(b, n, WIDTH))
        return x + self.mlp(self.ln2(x))


class GPT(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = torch.nn.Embedding(VOCAB, WIDTH)
        self.pos = torch.nn.Embedding(SEQ, WIDTH)
        self.blocks = torch.nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln = torch.nn.LayerNorm(WIDTH)
        self.head = torch.nn.Linear(WIDTH, VOCAB)

    def forward(self, tokens, positions, group):
        x = self.tok(tokens) + self.pos(positions)
        for block in self.blocks:
            x = block(x, group)
        return self.head(self.ln(x))


def train(rank: int, world: int, group, wrong_labels: bool = False) -> list[float]:
    import attnc

    torch.manual_seed(0)
    model = GPT()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    data = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=torch.Generator().manual_seed(1))
    tokens, labels = data[:, :-1], data[:, 1:]
    positions = torch.arange(SEQ).expand(BATCH, SEQ)
    tokens_l = attnc.shard(tokens, world, rank, seq_dim=1)
    positions_l = attnc.shard(positions, world, rank, seq_dim=1)
    labels_l = attnc.shard(labels, world, rank, seq_dim=1, balance="contiguous" if wrong_labels else "zigzag")
    losses = []
    for _ in range(STEPS):
        logits = model(tokens_l, positions_l, group)
        loss_sum = F.cross_entropy(logits.reshape(-1, VOCAB), labels_l.reshape(-1), reduction="sum")
        loss_sum.backward()
        total = torch.tensor([loss_sum.item()], dtype=torch.float64)
        if world > 1:
            # The CP group is part of the data-parallel gradient reduction, as in Megatron.
            for p in model.parameters():
                dist.all_reduce(p.grad, group=group)
            dist.all_reduce(total, group=group)
        for p in model.parameters():
            p.grad /= BATCH * SEQ
        opt.step()
        opt.zero_grad()
        losses.append(total.item() / (BATCH * SEQ))
    return losses


def mismatches(a: list[float], b: list[float]) -> list[tuple[int, float, float]]:
    """The steps whose losses differ by more than RTOL relative."""
    return [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if abs(x - y) > RTOL * abs(y)]


def _train_on_ranks(rank, world):
    right = train(rank, world, dist.group.WORLD)
    wrong = train(rank, world, dist.group.WORLD, wrong_labels=True) if world == 2 else None
    return right, wrong


def test_cp_training_matches_cp1_and_a_wrong_shard_order_is_caught(single_rank_group):
    baseline = train(0, 1, single_rank_group)
    assert baseline[-1] < baseline[0] - 0.5, f"the model does not learn: {baseline}"
    for world in (2, 4):
        results = run_ranks(world, _train_on_ranks)
        right, wrong = results[0]
        assert all(r[0] == right for r in results)
        assert not mismatches(right, baseline), f"cp {world}: {mismatches(right, baseline)}"
        if wrong is not None:
            # The check above, applied to labels that do not follow the tokens' zigzag split.
            assert mismatches(wrong, baseline), "a wrong shard order went unnoticed"
