"""Two score expressions' host kernels against each other: alternating runs of ``attnc bench
kernels --score A`` and ``--score B`` (each measures the plain kernels and then the scored ones),
the medians of the scored GFLOP/s per kernel and backend, and B's time over A's. What a learned
parameter costs over a constant (docs/perf.md, "Learned score parameters"):

Usage: python3 bench/score_pairs.py [--pairs 4] [--seq 2048] [--head-dim 128]
       ['s - 0.01 * (q - k)'] ['s - b[h] * (q - k)']      (after `cargo build --release`)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a", nargs="?", default="s - 0.01 * (q - k)")
    ap.add_argument("b", nargs="?", default="s - b[h] * (q - k)")
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--bin", default="target/release/attnc")
    args = ap.parse_args()
    cmd = [args.bin, "bench", "kernels", "--seq", str(args.seq), "--head-dim", str(args.head_dim), "--heads", "1",
           "--causal", "true", "--kernels", "llvm-cpu,cranelift", "--json", "--score"]  # fmt: skip
    got: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(args.pairs):
        for score in (args.a, args.b):
            out = subprocess.run(cmd + [score], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                r = json.loads(line)
                if r.get("score"):
                    got.setdefault((score, r["kernel"], r["backend"]), []).append(r["gflops"])
    for kernel in ("fwd", "bwd"):
        for backend in ("llvm-cpu", "cranelift"):
            a = statistics.median(got[(args.a, kernel, backend)])
            b = statistics.median(got[(args.b, kernel, backend)])
            print(f"{kernel} {backend}: {a:.1f} GFLOP/s, {b:.1f} GFLOP/s, time ratio (b / a) {a / b:.3f}")


if __name__ == "__main__":
    main()
