"""Shared helpers: gloo process groups of 1, 2 or 4 ranks started by torch.multiprocessing, and the
path to attnc's example specs."""

from __future__ import annotations

import datetime
import os
import pickle
import socket
import sys
import tempfile
import warnings
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

REPO = Path(__file__).resolve().parents[2]
#: Seconds a gloo operation may wait before it fails (a failing rank surfaces within this).
GROUP_TIMEOUT_S = 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _entry(rank, world, port, fn, args, out_path):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=GROUP_TIMEOUT_S)
    )
    try:
        result = fn(rank, world, *args)
        with open(f"{out_path}.{rank}", "wb") as f:
            pickle.dump(result, f)
    finally:
        dist.destroy_process_group()
    # The rank's work is done and its result written: leave without the interpreter's teardown,
    # where gloo's threads have been seen to abort a rank now and then ("terminate called without
    # an active exception", SIGABRT after the result was written; torch 2.15, 4 ranks on 2 cores).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def run_ranks(world: int, fn, *args):
    """Runs ``fn(rank, world, *args)`` on ``world`` gloo ranks; returns every rank's result."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "result")
        mp.spawn(_entry, args=(world, _free_port(), fn, args, out), nprocs=world, join=True)
        results = []
        for rank in range(world):
            with open(f"{out}.{rank}", "rb") as f:
                results.append(pickle.load(f))
        return results


@pytest.fixture(scope="session")
def single_rank_group():
    """This process as a group of one (cp = 1), for in-process tests."""
    if not dist.is_initialized():
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(_free_port())
        dist.init_process_group("gloo", rank=0, world_size=1)
    return dist.group.WORLD
