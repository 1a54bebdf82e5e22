#!/usr/bin/env bash
# attic against PyTorch 2 on the same CPU, in one run; what `make bench-peer` runs.
#  1. The training step of the laptop recipe (bench train --preset=cpu), 1 and 2 threads,
#     against three PyTorch peers (bench/peer/bench_step.py): nanoGPT eager as its CPU
#     recipe runs it, eager with SDPA and AdamW(fused=True), and torch.compile. Each round
#     runs attic and then each peer once; the table gives the medians over ROUNDS rounds,
#     every round's figures, and attic's speed-up over the FASTEST peer.
#  2. The GEMMs of that step and 1024³ (bench gemm), 1 and 2 threads: GFLOP/s of attic's
#     GEMM and of torch.matmul (MKL), and attic's share of it.
# PyTorch is the current release from PyPI, in build/peer-venv (scripts/install-peer.sh),
# with its own defaults: no CPU-specific tuning variable is set. Each side is given the
# run's thread count (attic's --threads, torch.set_num_threads) and nothing else.
#   bench/peer/compare.sh        ROUNDS=5 ITERS=100 PRESET=cpu bench/peer/compare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ITERS=${ITERS:-100}
ROUNDS=${ROUNDS:-3}
PRESET=${PRESET:-cpu}
PEERS=(eager sdpa-fused compile)
PY=${PEER_PYTHON:-$(scripts/install-peer.sh)}
field() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p"; }
ratio() { awk -v n="$1" -v d="$2" 'BEGIN { printf "%.2f", n / d }'; }
# The median of the values given one per line, and the smallest.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
smallest() { sort -g | head -1; }

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
fam=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
mod=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "CPU: $cpu (family $fam, model $mod), $(nproc) hardware threads"
"$PY" -c 'import torch; b = torch.backends
print("peer: PyTorch %s from PyPI, MKL %s, oneDNN %s" % (torch.__version__,
      "on" if b.mkl.is_available() else "off", "on" if b.mkldnn.is_available() else "off"))'
echo

# Each round runs attic, then each peer, each reporting the median of its ITERS steps. The
# machine's speed drifts by several percent over a minute (other tenants share it), and
# alternating spreads that drift over every side.
printf '%-7s %-7s %9s' preset threads attic
printf ' %11s' "${PEERS[@]}"
printf '   %-30s %s\n' "attic's speed-up over fastest" "each round"
for t in 1 2; do
  declare -A ms=()
  rounds=()
  for ((r = 0; r < ROUNDS; r++)); do
    a=$(./build/attic bench train --preset="$PRESET" --threads="$t" --iters="$ITERS" --json=true | field ms_per_iter)
    ms[attic]+="$a "
    best=
    for p in "${PEERS[@]}"; do
      v=$(OMP_NUM_THREADS=$t "$PY" bench/peer/bench_step.py --peer="$p" --preset="$PRESET" \
            --threads="$t" --iters="$ITERS" 2>/dev/null | field ms_per_iter)
      ms[$p]+="$v "
      best=$(printf '%s\n' $best "$v" | smallest)
    done
    rounds+=("$(ratio "$best" "$a")x")
  done
  am=$(printf '%s\n' ${ms[attic]} | median)
  printf '%-7s %-7s %9s' "$PRESET" "$t" "$am"
  fastest=
  for p in "${PEERS[@]}"; do
    pm=$(printf '%s\n' ${ms[$p]} | median)
    printf ' %11s' "$pm"
    fastest=$(printf '%s\n' $fastest "$pm" | smallest)
  done
  printf '   %-30s %s\n' "$(ratio "$fastest" "$am")x" "${rounds[*]}"
  for side in attic "${PEERS[@]}"; do printf '        %-11s ms/iter by round: %s\n' "$side" "${ms[$side]}"; done
  unset ms
done
echo "(ms/iter, medians over $ROUNDS alternating rounds of $ITERS steps each; speed-up = the fastest"
echo " peer's median ms/iter / attic's, and each round's the same within that round; above 1 means"
echo " attic is faster)"
echo

printf '%-22s %16s %-3s %9s %12s %9s\n' shape "M x N x K" thr "attic" "torch.matmul" "ratio"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in 1 2; do
  # One after the other, never at once: each gets the whole machine.
  ./build/attic bench gemm --threads="$t" --json=true >"$tmp/attic"
  OMP_NUM_THREADS=$t "$PY" bench/peer/bench_gemm.py --threads="$t" >"$tmp/torch"
  paste -d'|' "$tmp/attic" "$tmp/torch" |
  while IFS='|' read -r mine theirs; do
    shape=$(sed -n 's/.*"shape": "\([^"]*\)".*/\1/p' <<<"$mine")
    dims="$(field M <<<"$mine")x$(field N <<<"$mine")x$(field K <<<"$mine")"
    a=$(field gflops <<<"$mine"); o=$(field gflops <<<"$theirs")
    printf '%-22s %16s %-3s %9s %12s %9s\n' "$shape" "$dims" "$t" "$a" "$o" "$(ratio "$a" "$o")"
  done
done
echo "(GFLOP/s, float32, best of 5 runs of each; ratio = attic / torch.matmul)"
