#!/usr/bin/env python3
"""PyTorch's CPU scaled_dot_product_attention on the shapes of `attnc bench kernels`.

Prints one JSON record per measurement in the format of `attnc bench kernels --json`
(backend "torch-sdpa"), so both can be put side by side. FLOPs are counted the same way:
4·s²·d·h, halved for causal, backward 2.5× forward. Usage:

    python3 bench/torch_sdpa.py [--seq 1024,4096,8192] [--head-dim 64,128] [--heads 8] [--threads 1]
"""

import argparse
import json
import time

import torch
import torch.nn.functional as F


def measure(seq, head_dim, heads, causal, backward, repeats):
    q = torch.randn(1, heads, seq, head_dim, dtype=torch.float32, requires_grad=backward)
    k = torch.randn(1, heads, seq, head_dim, dtype=torch.float32, requires_grad=backward)
    v = torch.randn(1, heads, seq, head_dim, dtype=torch.float32, requires_grad=backward)
    flops = 4.0 * seq * seq * head_dim * heads * (0.5 if causal else 1.0) * (2.5 if backward else 1.0)
    best = float("inf")
    for _ in range(repeats):
        if backward:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            grad = torch.randn_like(out)
            start = time.perf_counter()
            out.backward(grad)
            best = min(best, time.perf_counter() - start)
            q.grad = k.grad = v.grad = None
        else:
            with torch.no_grad():
                start = time.perf_counter()
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                best = min(best, time.perf_counter() - start)
    return flops / best / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seq", default="1024,4096,8192")
    parser.add_argument("--head-dim", default="64,128")
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--causal", choices=["true", "false", "both"], default="both")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    causals = {"true": [True], "false": [False], "both": [True, False]}[args.causal]
    for seq in map(int, args.seq.split(",")):
        for head_dim in map(int, args.head_dim.split(",")):
            for causal in causals:
                for backward in (False, True):
                    gflops = measure(seq, head_dim, args.heads, causal, backward, args.repeats)
                    record = {
                        "kernel": "bwd" if backward else "fwd",
                        "backend": "torch-sdpa",
                        "seq": seq,
                        "head_dim": head_dim,
                        "heads": args.heads,
                        "causal": causal,
                        "threads": args.threads,
                        "gflops": round(gflops, 2),
                    }
                    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
