#!/usr/bin/env bash
# Prepares, on a machine without a GPU, what scripts/gpu-check.sh runs on a machine with one:
#   dist/bin/attnc          release build with the CUDA runtime and without LLVM (the GPU machine
#                           has neither LLVM nor a network; cudarc loads libcuda and libnccl there);
#   dist/kernels-sm_90a/    every kernel the GPU numerics matrix and benchmarks need, as PTX with a
#   dist/kernels-sm_80/     manifest (`attnc kernels`), for Hopper and for Ampere-class devices;
#   dist/kernels-sm_90a-ws/ the same for Hopper with the warp-specialized forward.
# dist/ is ignored by git; carry it to the GPU machine (well under 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup
mkdir -p dist/bin
cargo build --release -q -p attnc --no-default-features --features cuda --target-dir target/gpu
cp target/gpu/release/attnc dist/bin/attnc
cargo build --release -q -p attnc
for target in sm_90a sm_80 sm_90a-ws; do
    rm -rf "dist/kernels-$target"
    target/release/attnc kernels --target "$target" -o "dist/kernels-$target" --matrix-head-dim 64 --bench-head-dims 64,128
done
# Every kernel must assemble: the driver JIT-compiles the PTX there, ptxas catches errors here.
ptxas=$(ls .tools/cuda-nvcc-*/nvidia/cuda_nvcc/bin/ptxas | head -n 1)
for target in sm_90a sm_80 sm_90a-ws; do
    for f in "dist/kernels-$target"/*.ptx; do
        "$ptxas" -arch="${target%-ws}" -o /dev/null "$f" || { echo "gpu-build: ptxas rejects $f" >&2; exit 1; }
    done
done
du -sh dist
