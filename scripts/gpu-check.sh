#!/usr/bin/env bash
# The device check: on a machine with one NVIDIA GPU and no network, runs the binaries and PTX that
# scripts/gpu-build.sh prepared (carry dist/), and prints one summary table:
#   devices     the driver, the GPU, NCCL's version;
#   nccl        a single-rank NCCL communicator on the CP stream: all-gather, reduce-scatter,
#               grouped send/recv both ways, all-to-all from grouped send/recv, checked on known data;
#   matrix      the numerics matrix of the CPU runtime (every strategy × mask × format × GQA × cp,
#               forward and backward), bf16/fp16 at head_dim 64, the PTX kernels on the GPU under the
#               CPU executor (host buffers and transfers), against fp64 full attention on the CPU;
#   device      the same matrix through the device executor (buffers in GPU memory, a compute and a
#               CP stream per rank, events, device-to-device transfers and collectives, merge and
#               add kernels): every case;
#   ring        a 4-rank 4K-token causal ring (4 heads, head_dim 128, bf16, forward and backward) on
#               the device executor, checked against fp64, with per-rank stream timings;
#   bench       forward and backward TFLOP/s (bf16, 16 heads, head_dim 64/128, seq 4K–32K,
#               causal and not), inputs resident on the GPU, timed by CUDA events.
# Each step has its own time limit; the whole check stays under 8 minutes. Logs go to $OUT (or
# ./gpu-check-out) so they come back with the device tool.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
attnc=dist/bin/attnc
[ -x "$attnc" ] || { echo "gpu-check: $attnc is missing: run scripts/gpu-build.sh on the build machine and carry dist/" >&2; exit 2; }

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

step devices 60 "$attnc" devices
target=$(grep -o 'kernels for sm_[0-9a]*' "$out/devices.log" | head -n 1 | awk '{print $3}')
target=${target:-sm_90a}
kernels=dist/kernels-$target
step nccl 90 "$attnc" devices --nccl-test
step matrix 150 "$attnc" matrix --kernels cuda --kernel-dir "$kernels" --head-dim 64
step device 90 "$attnc" matrix --kernels cuda --device-executor --kernel-dir "$kernels" --head-dim 64
step ring 90 "$attnc" run dsl-examples/llama3_8b_128k.attn --layout pretrain --device cuda --kernel-dir "$kernels" \
    --set pretrain.seq=4096 --set pretrain.cp=4 --set pretrain.strategy=p2p --set llama3_8b.heads=4 \
    --set llama3_8b.kv_heads=4 --set llama3_8b.head_dim=128 --set pretrain.dtype=bf16 --backward --check --timings
step bench 150 "$attnc" bench kernels --kernels cuda --kernel-dir "$kernels" --seq 4096,8192,16384,32768 --head-dim 64,128 --heads 16

echo
echo "== summary ($target kernels)"
printf '%s\n' "${rows[@]}" | tee "$out/summary.txt"
echo
echo "== bench"
cat "$out/bench.log"
grep -q FAIL "$out/summary.txt" && exit 1
grep -q TIMEOUT "$out/summary.txt" && exit 1
exit 0
