#!/usr/bin/env bash
# attic against PyTorch on the same machine, in one run; what `make bench-peer` runs.
#  1. The training step of the laptop recipe (bench train --preset=cpu), 1 and 2 threads:
#     ms/iter of each and the speedup, medians over ROUNDS alternating rounds.
#  2. The GEMMs of that step and 1024³ (bench gemm), 1 and 2 threads: GFLOP/s of attic's
#     GEMM and of OpenBLAS (through torch.matmul), and attic's share of OpenBLAS.
# PyTorch gets its best settings here: OpenBLAS's Cooperlake kernels and a short OpenMP spin
# (measured faster on the development machine). OPENBLAS_NUM_THREADS is set to the thread
# count of each run: torch.set_num_threads does not reach OpenBLAS's own pool, which would
# otherwise run every GEMM of a "1 thread" PyTorch on all cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
ITERS=${ITERS:-100}
ROUNDS=${ROUNDS:-3}
PRESET=${PRESET:-cpu}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Cooperlake} GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-1000}
PY=/usr/bin/python3
field() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p"; }
ratio() { awk -v n="$1" -v d="$2" 'BEGIN { printf "%.2f", n / d }'; }

# The median of ROUNDS values, given one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Each side runs ROUNDS times, alternating, and each reports the median of its step times;
# the table shows the median over the rounds. The machine's speed drifts by several percent
# over a minute (other tenants share it), and alternating spreads that drift over both.
printf '%-8s %-7s %14s %14s %8s   %s\n' preset threads "attic ms/iter" "torch ms/iter" "speedup" \
  "speedup of each round"
for t in 1 2; do
  as=() ps=() rs=()
  for ((r = 0; r < ROUNDS; r++)); do
    a=$(./build/attic bench train --preset="$PRESET" --threads="$t" --iters="$ITERS" --json=true | field ms_per_iter)
    p=$(OPENBLAS_NUM_THREADS=$t $PY bench/peer/bench_step.py --preset="$PRESET" --threads="$t" --iters="$ITERS" | field ms_per_iter)
    as+=("$a") ps+=("$p") rs+=("$(ratio "$p" "$a")x")
  done
  am=$(printf '%s\n' "${as[@]}" | median) pm=$(printf '%s\n' "${ps[@]}" | median)
  printf '%-8s %-7s %14s %14s %7sx   %s\n' "$PRESET" "$t" "$am" "$pm" "$(ratio "$pm" "$am")" "${rs[*]}"
done
echo "(speedup = PyTorch's ms/iter / attic's, medians over $ROUNDS alternating rounds; above 1 means attic is faster)"
echo

printf '%-22s %16s %-3s %9s %9s %9s %7s\n' shape "M x N x K" thr "attic" "OpenBLAS" "ratio" "% peak"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in 1 2; do
  # One after the other, never at once: each gets the whole machine.
  ./build/attic bench gemm --threads="$t" --json=true >"$tmp/attic"
  OPENBLAS_NUM_THREADS=$t $PY bench/peer/bench_gemm.py --threads="$t" >"$tmp/torch"
  paste -d'|' "$tmp/attic" "$tmp/torch" |
  while IFS='|' read -r mine theirs; do
    shape=$(sed -n 's/.*"shape": "\([^"]*\)".*/\1/p' <<<"$mine")
    dims="$(field M <<<"$mine")x$(field N <<<"$mine")x$(field K <<<"$mine")"
    a=$(field gflops <<<"$mine"); o=$(field gflops <<<"$theirs")
    printf '%-22s %16s %-3s %9s %9s %9s %6s%%\n' "$shape" "$dims" "$t" "$a" "$o" \
      "$(ratio "$a" "$o")" "$(field percent_of_peak <<<"$mine")"
  done
done
echo "(GFLOP/s, float32; ratio = attic / OpenBLAS; % of peak = attic's share of 230 GFLOP/s per thread)"
