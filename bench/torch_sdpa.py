#!/usr/bin/env python3
"""PyTorch's scaled_dot_product_attention on the shapes of `attnc bench kernels`.

On the CPU (the default) it times PyTorch's CPU kernel in fp32; with `--device cuda` it times the
GPU backends named by `--backends` (flash, cudnn, efficient, math: `torch.nn.attention.sdpa_kernel`)
in bf16 or fp16, inputs resident on the GPU, by CUDA events around repeated calls after a warm-up
— as `attnc bench kernels --kernels cuda` times attnc's kernels, so the two sit side by side (the
device check, `scripts/gpu-check.sh`, runs both). A backend this torch or GPU lacks is reported
on its own line and skipped.

FLOPs are counted as attnc counts them: 4 · allowed pairs · head_dim · heads, the pairs of a
causal sequence s(s + 1)/2, backward 2.5× forward. Output: one JSON record per measurement in
the format of `attnc bench kernels --json` (backend "torch-sdpa" on the CPU, "torch-sdpa-NAME" on
the GPU; GFLOP/s on the CPU, ms and TFLOP/s on the GPU), or with `--table` the table
`attnc bench kernels --kernels cuda` prints. Usage:

    python3 bench/torch_sdpa.py [--seq 1024,4096,8192] [--head-dim 64,128] [--heads 8] [--threads 1]
    python3 bench/torch_sdpa.py --device cuda --dtype bf16 --seq 4096,16384 --head-dim 128 --heads 16 --table
"""

import argparse
import json
import time

import torch
import torch.nn.functional as F

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
# `--backends` names and torch's `SDPBackend` members.
BACKENDS = {"flash": "FLASH_ATTENTION", "cudnn": "CUDNN_ATTENTION", "efficient": "EFFICIENT_ATTENTION", "math": "MATH"}


def flops(seq, head_dim, heads, causal, backward):
    pairs = seq * (seq + 1) / 2 if causal else seq * seq
    return 4.0 * pairs * head_dim * heads * (2.5 if backward else 1.0)


def inputs(seq, head_dim, heads, dtype, device, grad):
    make = lambda: torch.randn(1, heads, seq, head_dim, dtype=dtype, device=device, requires_grad=grad)  # noqa: E731
    return make(), make(), make()


def cpu_seconds(seq, head_dim, heads, causal, backward, repeats):
    """The best of `repeats` wall-clock times of one call (fp32)."""
    q, k, v = inputs(seq, head_dim, heads, torch.float32, "cpu", backward)
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
    return best


def gpu_ms(seq, head_dim, heads, causal, dtype, backend, repeats):
    """Milliseconds per forward and per backward call on the GPU, under one SDPA backend."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    # An older torch lacks CUDNN_ATTENTION: AttributeError, reported by the caller.
    chosen = getattr(SDPBackend, BACKENDS[backend])
    q, k, v = inputs(seq, head_dim, heads, dtype, "cuda", True)

    def timed(run):
        run()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeats):
            run()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / repeats

    with sdpa_kernel(chosen):
        with torch.no_grad():
            fwd = timed(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        grad = torch.randn_like(out)
        bwd = timed(lambda: torch.autograd.grad(out, (q, k, v), grad, retain_graph=True))
    return fwd, bwd


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seq", default="1024,4096,8192")
    parser.add_argument("--head-dim", default="64,128")
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--causal", choices=["true", "false", "both"], default="both")
    parser.add_argument("--repeats", type=int, default=None, help="calls timed (CPU: best of, default 2; GPU: 10)")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--dtype", choices=sorted(DTYPES), default=None, help="cpu: fp32 (default); cuda: bf16")
    parser.add_argument("--backends", default="flash,cudnn", help="cuda: flash, cudnn, efficient, math")
    parser.add_argument("--table", action="store_true", help="print a table instead of JSON records")
    args = parser.parse_args()
    causals = {"true": [True], "false": [False], "both": [True, False]}[args.causal]
    shapes = [
        (seq, d, causal)
        for seq in map(int, args.seq.split(","))
        for d in map(int, args.head_dim.split(","))
        for causal in causals
    ]
    def emit(kernel, backend, seq, d, causal, ms, rate, fields):
        """One measurement: a table row (ms and `rate`), or a JSON record with `fields`."""
        if args.table:
            row = f"{kernel:<6} {seq:>6} {d:>4} {args.heads:>6} {str(causal).lower():>7}"
            print(f"{row} {ms:>10.3f} {rate:>9.1f}  {backend}", flush=True)
            return
        record = {"kernel": kernel, "backend": backend, "seq": seq, "head_dim": d, "heads": args.heads}
        print(json.dumps({**record, "causal": causal, **fields}), flush=True)

    header = f"{'kernel':<6} {'seq':>6} {'d':>4} {'heads':>6} {'causal':>7} {'ms':>10}"
    if args.device == "cpu":
        if args.dtype not in (None, "fp32"):
            parser.error("--dtype: the CPU measurement is fp32")
        torch.set_num_threads(args.threads)
        if args.table:
            print(f"{header} {'GFLOP/s':>9}  backend")
        for seq, d, causal in shapes:
            for backward in (False, True):
                s = cpu_seconds(seq, d, args.heads, causal, backward, args.repeats or 2)
                gflops = flops(seq, d, args.heads, causal, backward) / s / 1e9
                fields = {"threads": args.threads, "gflops": round(gflops, 2)}
                emit("bwd" if backward else "fwd", "torch-sdpa", seq, d, causal, s * 1e3, gflops, fields)
        return
    unknown = [b for b in args.backends.split(",") if b not in BACKENDS]
    if unknown:
        parser.error(f"--backends: {', '.join(unknown)} (one of {', '.join(BACKENDS)})")
    if not torch.cuda.is_available():
        parser.error("--device cuda: this torch sees no CUDA device")
    dtype = DTYPES[args.dtype or "bf16"]
    if args.table:
        print(f"{torch.cuda.get_device_name()} (torch {torch.__version__}, {args.dtype or 'bf16'})")
        print(f"{header} {'TFLOP/s':>9}  backend")
    for backend in args.backends.split(","):
        for seq, d, causal in shapes:
            try:
                times = gpu_ms(seq, d, args.heads, causal, dtype, backend, args.repeats or 10)
            except (RuntimeError, AttributeError) as e:
                print(f"torch-sdpa-{backend}: unavailable at seq {seq}, d {d}, causal {causal}: {e}".splitlines()[0])
                continue
            for backward, ms in zip((False, True), times):
                tflops = flops(seq, d, args.heads, causal, backward) / (ms / 1e3) / 1e12
                fields = {"ms": round(ms, 4), "tflops": round(tflops, 2)}
                emit("bwd" if backward else "fwd", f"torch-sdpa-{backend}", seq, d, causal, ms, tflops, fields)

if __name__ == "__main__":
    main()
