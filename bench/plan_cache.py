"""How long attnc.torch waits on the compiler per THD batch: planning (check, plan, verify,
forward and backward) a packed batch of 45 sequences at cp 8 in process, new lengths every step
(a cache miss, what a training step pays when its batch is new), and the same batch again (a
hit). Median over steps, milliseconds.

Usage: .tools/venv/bin/python bench/plan_cache.py [--steps 50] [--sequences 45] [--cp 8]
       [--tokens 65536] [--strategy p2p]      (after `maturin develop --release` in python/)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from attnc import _native


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--sequences", type=int, default=45)
    p.add_argument("--cp", type=int, default=8)
    p.add_argument("--tokens", type=int, default=65536, help="packed tokens per batch, about")
    p.add_argument("--strategy", default="p2p")
    args = p.parse_args()
    rng = random.Random(0)
    unit = 2 * args.cp
    miss, hit = [], []
    for _ in range(args.steps):
        cuts = sorted(rng.sample(range(1, args.tokens), args.sequences - 1))
        lens = [b - a for a, b in zip([0] + cuts, cuts + [args.tokens])]
        padded = [-(-n // unit) * unit for n in lens]
        call = dict(
            heads=8, kv_heads=2, head_dim=128, v_head_dim=128, batch=1, seq=0, format="thd", dtype="bf16",
            mask="padding_causal", window=None, softcap=None, sinks=False, cp=args.cp, strategy=args.strategy,
            hierarchy=None, max_tokens=sum(padded), max_seqlen=max(padded), seqlens=lens, padded_seqlens=padded,
            gpu="h100_sxm",
        )  # fmt: skip
        t0 = time.perf_counter()
        _native.plan_call(**call)
        t1 = time.perf_counter()
        _native.plan_call(**call)
        t2 = time.perf_counter()
        miss.append((t1 - t0) * 1e3)
        hit.append((t2 - t1) * 1e3)
    print(f"{args.sequences} sequences, ~{args.tokens} tokens, cp {args.cp}, {args.strategy}, forward + backward plans, "
          f"{args.steps} batches")  # fmt: skip
    print(f"  new batch (plan, verify, cache): median {statistics.median(miss):.2f} ms, max {max(miss):.2f} ms")
    print(f"  same batch again (cache hit):    median {statistics.median(hit):.3f} ms, max {max(hit):.3f} ms")


if __name__ == "__main__":
    main()
