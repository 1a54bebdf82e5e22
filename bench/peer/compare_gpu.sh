#!/usr/bin/env bash
# attic against PyTorch on one GPU, in one run: the training step of the GPU recipe
# (config/shakespeare_char.cfg), attic's `bench train --preset=gpu-size --device=cuda` beside
# PyTorch eager and torch.compile (bench/peer/bench_gpu.py). Needs a CUDA build of attic in
# build/ (nvcc found at configure time) and a python3 with a CUDA PyTorch.
#   bench/peer/compare_gpu.sh            ITERS=200 PYTHON=python3.11 bench/peer/compare_gpu.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ITERS=${ITERS:-100}
PYTHON=${PYTHON:-python3}
BIN=${BIN:-./build/attic}
field() { sed -n 's/.*"ms_per_iter": \([0-9.]*\).*/\1/p'; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
a=$("$BIN" bench train --preset=gpu-size --device=cuda --iters="$ITERS" --json=true | field)
py=$("$PYTHON" bench/peer/bench_gpu.py --iters="$ITERS")
e=$(echo "$py" | grep '"mode": "eager"' | field)
c=$(echo "$py" | grep '"mode": "compile"' | field)
printf '%-22s %10s %12s\n' "gpu-size step" "ms/iter" "vs attic"
printf '%-22s %10s %12s\n' "attic (cuda)" "$a" "1.00x"
printf '%-22s %10s %11.2fx\n' "pytorch eager" "$e" "$(awk -v p="$e" -v a="$a" 'BEGIN { print p / a }')"
printf '%-22s %10s %11.2fx\n' "pytorch torch.compile" "$c" "$(awk -v p="$c" -v a="$a" 'BEGIN { print p / a }')"
echo "(vs attic = PyTorch's ms/iter / attic's; above 1 means attic is faster)"
