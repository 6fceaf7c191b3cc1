"""attnc's op against a pure-PyTorch zigzag ring, forward and backward, on CPU gloo ranks.

The baseline is what ring-flash-attn's ``zigzag_ring_flash_attn_func`` does, written with torch's
own CPU flash attention per block (``_scaled_dot_product_flash_attention_for_cpu`` and its
backward, which return and take the LSE) and ``batch_isend_irecv`` per ring step: KV travels the
ring forward, dK/dV travel it backward, partial outputs merge by their LSE. Both sides get the
same zigzag shards and one thread per rank; runs alternate (attnc, torch, attnc, ...) after a
warm-up of each, and the report is the median of each side and their ratio. The outputs and
gradients of the two are compared too, so the baseline is checked as well as timed.

Usage: .tools/venv/bin/python bench/torch_ring.py [--ranks 4] [--seq 16384] [--heads 8]
       [--head-dim 128] [--repeats 3] [--kernels auto|cranelift|llvm-cpu]
       (after scripts/setup and, in python/, `maturin develop --release --features llvm`)
"""

from __future__ import annotations

import argparse
import datetime
import os
import socket
import statistics
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

FA = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
FA_BWD = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward


def _ring_start(tensors, rank, world, reverse=False):
    """Starts sending `tensors` to the next rank of the ring and receiving the previous rank's;
    returns the receive buffers and the work to wait for (the caller computes meanwhile)."""
    nxt, prv = (rank + 1) % world, (rank - 1) % world
    if reverse:
        nxt, prv = prv, nxt
    out = [torch.empty_like(t) for t in tensors]
    ops = [dist.P2POp(dist.isend, t, nxt) for t in tensors] + [dist.P2POp(dist.irecv, t, prv) for t in out]
    return out, dist.batch_isend_irecv(ops)


def _ring(tensors, rank, world, reverse=False):
    out, works = _ring_start(tensors, rank, world, reverse)
    for w in works:
        w.wait()
    return out


def _merge(o, lse, o2, lse2):
    """Merges a block's (o2, lse2) into (o, lse); o ``[b, h, s, d]``, lse ``[b, h, s]``."""
    if o is None:
        return o2, lse2
    new = torch.logaddexp(lse, lse2)
    return o * torch.exp(lse - new).unsqueeze(-1) + o2 * torch.exp(lse2 - new).unsqueeze(-1), new


def torch_zigzag_forward(q, k, v, rank, world):
    """q, k, v ``[b, h, n, d]`` (zigzag: chunks r and 2cp−1−r); returns o, lse."""
    half = q.shape[2] // 2
    o = lse = None
    kv = (k, v)
    for step in range(world):
        # The next step's KV travels while this step computes (ring-flash-attn's overlap).
        pending = _ring_start(kv, rank, world) if step + 1 < world else None
        kk, vv = kv
        src = (rank - step) % world
        if step == 0:
            o2, l2 = FA(q, kk, vv, is_causal=True)
            o, lse = _merge(o, lse, o2, l2)
        elif src < rank:
            o2, l2 = FA(q, kk[:, :, :half], vv[:, :, :half])
            o, lse = _merge(o, lse, o2, l2)
        else:
            o2, l2 = FA(q[:, :, half:], kk, vv)
            o_h, l_h = _merge(o[:, :, half:], lse[:, :, half:], o2, l2)
            o = torch.cat([o[:, :, :half], o_h], 2)
            lse = torch.cat([lse[:, :, :half], l_h], 2)
        if pending is not None:
            nxt, works = pending
            for w in works:
                w.wait()
            kv = nxt
    return o, lse


def torch_zigzag_backward(do, q, k, v, o, lse, rank, world):
    half = q.shape[2] // 2
    dq = torch.zeros_like(q)
    kv = (k, v)
    dkv = (torch.zeros_like(k), torch.zeros_like(v))
    for step in range(world):
        # The next step's KV travels while this step computes; dK/dV follow once computed.
        pending = _ring_start(kv, rank, world) if step + 1 < world else None
        kk, vv = kv
        src = (rank - step) % world
        dk, dv = dkv
        if step == 0:
            gq, gk, gv = FA_BWD(do, q, kk, vv, o, lse, 0.0, True)
            dq += gq
            dk, dv = dk + gk, dv + gv
        elif src < rank:
            gq, gk, gv = FA_BWD(do, q, kk[:, :, :half], vv[:, :, :half], o, lse, 0.0, False)
            dq += gq
            dk = torch.cat([dk[:, :, :half] + gk, dk[:, :, half:]], 2)
            dv = torch.cat([dv[:, :, :half] + gv, dv[:, :, half:]], 2)
        else:
            sl = slice(half, None)
            gq, gk, gv = FA_BWD(do[:, :, sl], q[:, :, sl], kk, vv, o[:, :, sl], lse[:, :, sl], 0.0, False)
            dq[:, :, sl] += gq
            dk, dv = dk + gk, dv + gv
        if pending is not None:
            nxt, works = pending
            dkv = _ring((dk, dv), rank, world)
            for w in works:
                w.wait()
            kv = nxt
        else:
            dkv = (dk, dv)
    # dK/dV of the KV held at the last step belong to rank + 1: one more hop home.
    dk, dv = _ring(dkv, rank, world)
    return dq, dk, dv


def _worker(rank, world, port, args, out):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=600))
    import attnc
    import attnc.torch as at

    at.kernels = args.kernels
    if os.environ.get("BENCH_GC_FREEZE"):
        import gc

        gc.freeze()
    torch.manual_seed(0)
    s, h, d = args.seq, args.heads, args.head_dim
    q, k, v, do = (torch.randn(1, s, h, d) for _ in range(4))
    ql, kl, vl, dol = (attnc.shard(x, world, rank, seq_dim=1) for x in (q, k, v, do))  # bshd shards

    def run_attnc():
        a = [x.clone().requires_grad_() for x in (ql, kl, vl)]
        o = at.attention(*a, cp_group=dist.group.WORLD, cp_comm_type="p2p", qkv_format="bshd")
        o.backward(dol)
        return o.detach(), [x.grad for x in a]

    def run_torch():
        qt, kt, vt, dot = (x.transpose(1, 2).contiguous() for x in (ql, kl, vl, dol))
        o, lse = torch_zigzag_forward(qt, kt, vt, rank, world)
        grads = torch_zigzag_backward(dot, qt, kt, vt, o, lse, rank, world)
        return o.transpose(1, 2), [g.transpose(1, 2) for g in grads]

    times = {"attnc": [], "torch": []}
    results = {}
    for rep in range(args.repeats + 1):
        for name, fn in (("attnc", run_attnc), ("torch", run_torch)):
            dist.barrier()
            t0 = time.perf_counter()
            results[name] = fn()
            dist.barrier()
            if rep > 0:
                times[name].append(time.perf_counter() - t0)
    (oa, ga), (ot, gt) = results["attnc"], results["torch"]
    diff = max([(oa - ot).abs().max().item()] + [(x - y).abs().max().item() for x, y in zip(ga, gt)])
    if rank == 0:
        with open(out, "w") as f:
            f.write(repr((times, diff)))
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ranks", type=int, default=4)
    p.add_argument("--seq", type=int, default=16384)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--kernels", default="auto", help="attnc's CPU kernel set (attnc.kernel_sets())")
    args = p.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    out = f"/tmp/attnc-torch-ring-{os.getpid()}.txt"
    mp.spawn(_worker, args=(args.ranks, port, args, out), nprocs=args.ranks, join=True)
    with open(out) as f:
        times, diff = eval(f.read())  # noqa: S307 (our own repr)
    os.remove(out)
    a, t = statistics.median(times["attnc"]), statistics.median(times["torch"])
    import attnc

    kernels = attnc.kernel_sets()[0] if args.kernels == "auto" else args.kernels
    print(f"{args.ranks} gloo ranks, {args.seq} tokens, {args.heads} heads, d {args.head_dim}, causal, fp32, "
          f"forward + backward, median of {args.repeats} alternating runs; attnc kernels {kernels}")  # fmt: skip
    print(f"  attnc  {a:8.3f} s   (runs: {', '.join(f'{x:.3f}' for x in times['attnc'])})")
    print(f"  torch  {t:8.3f} s   (runs: {', '.join(f'{x:.3f}' for x in times['torch'])})")
    print(f"  ratio torch / attnc: {t / a:.2f}   (max abs difference of outputs and gradients: {diff:.1e})")


if __name__ == "__main__":
    main()
