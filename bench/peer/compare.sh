#!/usr/bin/env bash
# attic against PyTorch on the same machine, in one run: the training step of the laptop
# recipe (bench train --preset=cpu), with 1 and 2 threads, and the ratio. What `make
# bench-peer` runs. PyTorch gets its best settings here: OpenBLAS's Cooperlake kernels and
# a short OpenMP spin (measured faster on the development machine).
set -euo pipefail
cd "$(dirname "$0")/../.."
ITERS=${ITERS:-100}
PRESET=${PRESET:-cpu}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Cooperlake} GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-1000}
field() { sed -n 's/.*"ms_per_iter": \([0-9.]*\).*/\1/p'; }
printf '%-8s %-7s %14s %14s %8s\n' preset threads "attic ms/iter" "torch ms/iter" "speedup"
for t in 1 2; do
  a=$(./build/attic bench train --preset="$PRESET" --threads="$t" --iters="$ITERS" --json=true | field)
  p=$(/usr/bin/python3 bench/peer/bench_step.py --preset="$PRESET" --threads="$t" --iters="$ITERS" | field)
  printf '%-8s %-7s %14s %14s %7.2fx\n' "$PRESET" "$t" "$a" "$p" "$(awk -v p="$p" -v a="$a" 'BEGIN { print p / a }')"
done
echo "(speedup = PyTorch's ms/iter / attic's; above 1 means attic is faster)"
