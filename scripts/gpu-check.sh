#!/usr/bin/env bash
# The device check: on a machine with one NVIDIA GPU and no network, runs the binaries and PTX that
# scripts/gpu-build.sh prepared (carry dist/), and prints one summary table:
#   devices     the driver, the GPU, NCCL's version;
#   nccl        a single-rank NCCL communicator on the CP stream: all-gather, reduce-scatter,
#               grouped send/recv both ways, all-to-all from grouped send/recv, checked on known data;
#   matrix      the numerics matrix (every strategy × mask × format × GQA × cp, forward and
#               backward), bf16/fp16 at head_dim 64, through the executor on the GPU (buffers in GPU
#               memory, a compute and a CP stream per rank, events, device-to-device transfers and
#               collectives, the PTX attention, merge and add kernels), against fp64 on the CPU;
#   ring        a 4-rank 4K-token causal ring (4 heads, head_dim 128, bf16, forward and backward) on
#               the GPU, checked against fp64, with per-rank stream timings;
#   bench       forward and backward TFLOP/s (bf16, 16 heads, head_dim 64/128, seq 4K–32K,
#               causal and not), inputs resident on the GPU, timed by CUDA events;
#   ws-matrix   on Hopper, the matrix's cp2 p2p cases on the warp-specialized forward (sm_90a-ws);
#   ws-bench    its TFLOP/s at head_dim 128, 4K and 16K (the sm_90a rows of `bench` beside it);
#   sdpa        PyTorch's scaled_dot_product_attention, flash and cuDNN backends, on the same
#               shapes in bf16 (bench/torch_sdpa.py), timed the same way: the baseline of
#               docs/perf.md's GPU table — skipped when this machine's Python has no torch with CUDA.
# Each step has its own time limit; together they stay within 10 minutes. Logs go to $OUT (or
# ./gpu-check-out) so they come back with the device tool.
#
# GPU_CHECK_EMULATE=1 runs the same steps on a machine without a GPU (the test suite does, so the
# script itself is checked end to end): the GPU kernel ABI emulated on the CPU (`--kernels
# gpu-emulated`) on the host device, no NCCL step, small shapes.
# ATTNC_BIN overrides the binary (default dist/bin/attnc); GPU_CHECK_FILTER restricts the matrix
# steps to the cases whose name contains it; GPU_CHECK_PYTHON names the Python for `sdpa` (default:
# python3 on a GPU, the repository's .tools/venv when emulating).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
attnc=${ATTNC_BIN:-dist/bin/attnc}
emulate=${GPU_CHECK_EMULATE:-0}
[ -x "$attnc" ] || { echo "gpu-check: $attnc is missing: run scripts/gpu-build.sh on the build machine and carry dist/" >&2; exit 2; }
filter=()
[ -n "${GPU_CHECK_FILTER:-}" ] && filter=(--filter "$GPU_CHECK_FILTER")

# NCCL: the GPU machine's Python ships it (nvidia-nccl-cu13 or -cu12); cudarc looks for libnccl.so.
nccl_dir=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null ||
    ls -d .tools/nccl-*/nvidia/nccl/lib 2>/dev/null | head -n 1 || true)
if [ -n "$nccl_dir" ] && [ -e "$nccl_dir/libnccl.so.2" ]; then
    mkdir -p /tmp/attnc-nccl
    ln -sf "$nccl_dir/libnccl.so.2" /tmp/attnc-nccl/libnccl.so
    export LD_LIBRARY_PATH=/tmp/attnc-nccl:$nccl_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

declare -a rows
step() { # name, limit (s), command...
    local name=$1 limit=$2
    shift 2
    local start=$SECONDS status
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    status=$?
    local verdict=ok
    [ $status -eq 0 ] || verdict="FAIL (exit $status)"
    [ $status -eq 124 ] && verdict="TIMEOUT (${limit} s)"
    rows+=("$(printf '%-8s %-18s %5d s   %s' "$name" "$verdict" $((SECONDS - start)) "$(tail -n 1 "$out/$name.log")")")
    echo "== $name: $verdict"
    cat "$out/$name.log"
}

skip() { # name, why
    rows+=("$(printf '%-8s %-18s %5d s   %s' "$1" "skipped" 0 "$2")")
    echo "== $1: skipped ($2)"
}

step devices 30 "$attnc" devices
if [ "$emulate" = 1 ]; then
    target=emulated
    kernels=(--kernels gpu-emulated)
    ring=(--kernels gpu-emulated --set pretrain.seq=512 --set llama3_8b.heads=2 --set llama3_8b.kv_heads=2)
    bench=(--kernels gpu-emulated --seq 256 --head-dim 64 --heads 1 --causal true)
    skip nccl "GPU_CHECK_EMULATE=1: no GPU"
else
    target=$(grep -o 'kernels for sm_[0-9a]*' "$out/devices.log" | head -n 1 | awk '{print $3}')
    target=${target:-sm_90a}
    kernels=(--kernels cuda --kernel-dir "dist/kernels-$target")
    ring=(--device cuda --kernel-dir "dist/kernels-$target" --set pretrain.seq=4096 --set llama3_8b.heads=4
        --set llama3_8b.kv_heads=4)
    bench=(--kernels cuda --kernel-dir "dist/kernels-$target" --seq 4096,8192,16384,32768 --head-dim 64,128 --heads 16)
    step nccl 60 "$attnc" devices --nccl-test
fi
step matrix 170 "$attnc" matrix "${kernels[@]}" --head-dim 64 "${filter[@]}"
step ring 70 "$attnc" run dsl-examples/llama3_8b_128k.attn --layout pretrain "${ring[@]}" \
    --set pretrain.cp=4 --set pretrain.strategy=p2p --set llama3_8b.head_dim=128 --set pretrain.dtype=bf16 \
    --backward --check --timings
step bench 100 "$attnc" bench kernels "${bench[@]}"
if [ "$emulate" = 1 ] || [ "$target" != sm_90a ] || [ ! -d dist/kernels-sm_90a-ws ]; then
    skip ws-matrix "the warp-specialized forward runs on sm_90a only"
    skip ws-bench "the warp-specialized forward runs on sm_90a only"
else
    ws=(--kernels cuda --kernel-dir dist/kernels-sm_90a-ws)
    step ws-matrix 60 "$attnc" matrix "${ws[@]}" --head-dim 64 --filter "cp2 p2p"
    step ws-bench 50 "$attnc" bench kernels "${ws[@]}" --seq 4096,16384 --head-dim 128 --heads 16
fi
if [ "$emulate" = 1 ]; then
    python=${GPU_CHECK_PYTHON:-.tools/venv/bin/python}
    step sdpa 60 "$python" bench/torch_sdpa.py --seq 256 --head-dim 64 --heads 1 --causal true --table
else
    python=${GPU_CHECK_PYTHON:-python3}
    if "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' > /dev/null 2>&1; then
        step sdpa 60 "$python" bench/torch_sdpa.py --device cuda --dtype bf16 --seq 4096,8192,16384,32768 \
            --head-dim 64,128 --heads 16 --backends flash,cudnn --table
    else
        skip sdpa "$python has no torch with CUDA"
    fi
fi

echo
echo "== summary ($target kernels)"
printf '%s\n' "${rows[@]}" | tee "$out/summary.txt"
echo
echo "== bench"
cat "$out/bench.log"
[ -f "$out/ws-bench.log" ] && { echo "== ws-bench"; cat "$out/ws-bench.log"; }
[ -f "$out/sdpa.log" ] && { echo "== sdpa"; cat "$out/sdpa.log"; }
grep -q FAIL "$out/summary.txt" && exit 1
grep -q TIMEOUT "$out/summary.txt" && exit 1
exit 0
