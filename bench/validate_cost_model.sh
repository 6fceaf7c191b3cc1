#!/bin/bash
# Measured (`attnc run --timings`, best of 3) against predicted (`attnc simulate --profile`) step
# times on this machine, for p2p, all_gather and a2a at cp 2 and 4 (docs/cost-model.md).
# Usage: bench/validate_cost_model.sh [PROFILE]   (default: calibrates into target/profile.json)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
A=./target/release/attnc
F=dsl-examples/llama3_8b_128k.attn
PROFILE=${1:-target/profile.json}
[ -n "${1:-}" ] || $A calibrate -o "$PROFILE"
SEQ=${SEQ:-4096}
best() { sort -g | head -1; }
printf "%-10s %-5s %28s %28s\n" strategy cp "forward measured/predicted" "backward measured/predicted"
for s in p2p all_gather a2a; do for cp in 2 4; do
  SET="--set pretrain.seq=$SEQ --set pretrain.cp=$cp --set pretrain.strategy=$s --set pretrain.dtype=fp32 --set llama3_8b.heads=8 --set llama3_8b.kv_heads=8"
  fwd=(); bwd=()
  for rep in 1 2 3; do
    out=$($A run $F --layout pretrain $SET --backward --kernels cranelift --timings 2>/dev/null | grep "step:" | awk '{print $2}')
    fwd+=($(echo "$out" | sed -n 1p)); bwd+=($(echo "$out" | sed -n 2p))
  done
  mf=$(printf "%s\n" "${fwd[@]}" | best); mb=$(printf "%s\n" "${bwd[@]}" | best)
  pred=$($A simulate $F --layout pretrain $SET --backward --profile "$PROFILE" --emit json |
    python3 -c 'import json, sys; c = json.load(sys.stdin)["classes"][0]; print(c["forward"]["step_s"]); print(c["backward"]["step_s"])')
  pf=$(echo "$pred" | sed -n 1p); pb=$(echo "$pred" | sed -n 2p)
  awk -v s=$s -v cp=$cp -v mf=$mf -v pf=$pf -v mb=$mb -v pb=$pb 'BEGIN {
    printf "%-10s %-5s %9.3f / %6.3f s (%5.2f) %9.3f / %6.3f s (%5.2f)\n", s, cp, mf, pf, pf/mf, mb, pb, pb/mb }'
done; done
