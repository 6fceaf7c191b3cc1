#!/bin/bash
# How `attnc plan --stats` scales with the CP size: wall seconds (best of 3) and peak memory of
# planning, verifying and printing Llama-3-8B's 128K-token causal ring (p2p, forward) at cp 64,
# 256 and 1024, every rank's program included (docs/perf.md). CP_SIZES overrides the sizes.
# Usage: bench/plan_scaling.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
A=./target/release/attnc
F=dsl-examples/llama3_8b_128k.attn
printf "%-6s %8s %10s %12s %12s\n" cp ranks ops "best of 3" "peak memory"
for cp in ${CP_SIZES:-64 256 1024}; do
  nodes=$(( (cp + 7) / 8 ))
  SET="--set two_nodes.nodes=$nodes --set pretrain.cp=$cp --set pretrain.strategy=p2p"
  best=""; mem=""
  for rep in 1 2 3; do
    line=$( { /usr/bin/time -f "%e %M" $A plan $F --layout pretrain $SET --stats > /tmp/attnc-plan-scaling.txt; } 2>&1 | tail -1 )
    t=${line% *}; m=${line#* }
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; mem=$m; fi
  done
  ops=$(grep -c "^    %" /tmp/attnc-plan-scaling.txt)
  printf "%-6s %8s %10s %10s s %9.0f MiB\n" "$cp" "$cp" "$ops" "$best" "$(echo "$mem / 1024" | bc -l)"
done
rm -f /tmp/attnc-plan-scaling.txt
