#!/usr/bin/env bash
# GPT-2 124M's shapes on the CPU: attic against PyTorch 2, in alternating rounds on the same
# machine and threads (random weights: none can be downloaded here, and the time does not
# depend on their values).
#  sample  `attic bench gpt2 --what=sample` (KV cache, 256-token prompt, 256 new tokens,
#          batch 1) against transformers' generate with its cache, and nanoGPT's sample loop
#          (no cache; 32 new tokens, as its cost grows with every token)
#  step    `attic bench gpt2 --what=step` (batch 1, T 1024, AdamW with clipping) against
#          nanoGPT's train.py step, eager and under torch.compile
# Each line is one run's JSON; the last lines give the medians and attic's ratio over the
# fastest peer, for speed and for peak resident memory. DTYPE=bfloat16 runs both sides' steps
# and attic's sampling in bfloat16 (attic's --dtype, torch.autocast for the peers' steps;
# transformers' and nanoGPT's sampling stay float32, their form as published).
#   bench/peer/compare_gpt2.sh          ROUNDS=3 THREADS=2 bench/peer/compare_gpt2.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-2}
THREADS=${THREADS:-2}
DTYPE=${DTYPE:-float32}
PY=${PEER_PYTHON:-$(scripts/install-peer.sh)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p"; }  # every line's
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_field() { grep -m1 "^$1" /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'; }
echo "CPU: $(cpu_field 'model name'), family $(cpu_field 'cpu family') model $(cpu_field 'model'), $THREADS threads, $("$PY" -c 'import torch; print("torch", torch.__version__)')"
for r in $(seq "$ROUNDS"); do
  ./build/attic bench gpt2 --what=sample --threads="$THREADS" --dtype="$DTYPE" --json=true | tee -a "$tmp/attic-sample"
  "$PY" bench/peer/bench_gpt2.py sample-hf --threads="$THREADS" | tee -a "$tmp/hf-sample"
  "$PY" bench/peer/bench_gpt2.py sample-nanogpt --threads="$THREADS" | tee -a "$tmp/nanogpt-sample"
  ./build/attic bench gpt2 --what=step --threads="$THREADS" --dtype="$DTYPE" --json=true | tee -a "$tmp/attic-step"
  "$PY" bench/peer/bench_gpt2.py step-eager --threads="$THREADS" --dtype="$DTYPE" | tee -a "$tmp/eager-step"
  "$PY" bench/peer/bench_gpt2.py step-compile --threads="$THREADS" --dtype="$DTYPE" | tee -a "$tmp/compile-step"
done
m() { field "$2" < "$tmp/$1" | median; }
a_s=$(m attic-sample tokens_per_s); h_s=$(m hf-sample tokens_per_s); n_s=$(m nanogpt-sample tokens_per_s)
a_t=$(m attic-step ms_per_step); e_t=$(m eager-step ms_per_step); c_t=$(m compile-step ms_per_step)
best_s=$(printf '%s\n%s\n' "$h_s" "$n_s" | sort -g | tail -1)
best_t=$(printf '%s\n%s\n' "$e_t" "$c_t" | sort -g | head -1)
echo "sample tokens/s (median of $ROUNDS): attic $a_s, transformers $h_s, nanoGPT loop $n_s; attic / fastest peer: $(awk -v a="$a_s" -v b="$best_s" 'BEGIN { printf "%.2f", a / b }')x"
echo "sample peak RSS MiB: attic $(m attic-sample max_rss_mib), transformers $(m hf-sample max_rss_mib), nanoGPT loop $(m nanogpt-sample max_rss_mib)"
echo "step ms (median of $ROUNDS): attic $a_t, eager $e_t, compile $c_t; fastest peer / attic: $(awk -v a="$a_t" -v b="$best_t" 'BEGIN { printf "%.2f", b / a }')x"
echo "step peak RSS MiB: attic $(m attic-step max_rss_mib), eager $(m eager-step max_rss_mib), compile $(m compile-step max_rss_mib)"
