#!/usr/bin/env bash
# attic against PyTorch 2 on the same CPU, in one run; what `make bench-peer` runs.
#  1. The training step of the laptop recipe (bench train --preset=cpu), 1 and 2 threads,
#     against three PyTorch peers (bench/peer/bench_step.py): nanoGPT eager as its CPU
#     recipe runs it, eager with SDPA and AdamW(fused=True), and torch.compile. Each round
#     runs attic and then each peer once; the table gives the medians over ROUNDS rounds,
#     every round's figures, and attic's speed-up over the FASTEST peer. Then the step's
#     memory: attic's allocator peak and each side's peak RSS.
#  2. The sweep (2 threads): the laptop GPT at n_embd 128, 256, 384, 768 and at block 64,
#     256, 1024, the same way; its speed-ups go to build/bench-peer/sweep.tsv and are drawn
#     in build/bench-peer/sweep.svg (attic plot speedup).
#  3. The GPU-size recipe (6 layers, C 384, block 256, batch 64, dropout 0.2) on the CPU,
#     2 threads, a few steps (BIG_ITERS) in one round.
#  4. The new attentions, 2 threads: route attention's training step against the
#     reflex_attention fork's GPT; ELiTA's attention and the Linformer package's layer,
#     forward + backward, as n doubles (bench/peer/bench_attentions.py); and generation,
#     `attic bench sample` against nanoGPT's sample loop.
#  5. The GEMMs of the laptop step, of the C = 768 GPT and 1024³ (bench gemm), 1 and 2
#     threads.
#  6. The whole laptop recipe (config/shakespeare_char_cpu.cfg, 2000 iterations, 2 threads)
#     from start to its evaluation at iteration 2000: attic train against
#     bench/peer/train_peer.py under each peer, RECIPE_ROUNDS alternating rounds, as wall
#     seconds, with both sides' val loss at 2000 and over 400 batches afterwards.
#  7. An AVX2 laptop: the laptop step of section 1, with attic built for x86-64-v3 (AVX2 + FMA,
#     no AVX-512; build-avx2/) and PyTorch held to AVX2 (ATEN_CPU_CAPABILITY, and MKL's and
#     oneDNN's own switches), on a CPU that has AVX2.
#  8. bfloat16: the laptop and GPU-size steps with --dtype=bfloat16 (attic's autocast) against
#     the three peers under torch.autocast("cpu", dtype=torch.bfloat16), 2 threads; then attic's
#     bfloat16 step against its own float32 step in alternating rounds, naming the bf16 GEMM's
#     path (attic bench gemm --dtype=bfloat16).
# SECTIONS="1 6" runs only those sections.
# PyTorch is the current release from PyPI, in build/peer-venv (scripts/install-peer.sh),
# with its own defaults: no CPU-specific tuning variable is set (section 7 aside). Each side is given the
# run's thread count (attic's --threads, torch.set_num_threads) and nothing else.
#   bench/peer/compare.sh        ROUNDS=5 ITERS=100 SWEEP_ITERS=10 bench/peer/compare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ITERS=${ITERS:-100}
ROUNDS=${ROUNDS:-3}
SWEEP_ITERS=${SWEEP_ITERS:-10}
BIG_ITERS=${BIG_ITERS:-2}
RECIPE_ROUNDS=${RECIPE_ROUNDS:-1}
SECTIONS=${SECTIONS:-1 2 3 4 5 6 7 8}
ATTIC=./build/attic  # section 7 swaps in the AVX2 build
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
PEERS=(eager sdpa-fused compile)
PY=${PEER_PYTHON:-$(scripts/install-peer.sh)}
OUT=build/bench-peer
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p" | head -1; }
ratio() { awk -v n="$1" -v d="$2" 'BEGIN { printf "%.2f", n / d }'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
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

# step_row LABEL THREADS ITERS WARMUP ROUNDS FLAGS...: one table row of training steps. Each
# round runs attic, then each peer, each reporting the median of its ITERS steps. The
# machine's speed drifts by several percent over a minute (other tenants share it), and
# alternating spreads that drift over every side. Sets SPEEDUP (attic's over the fastest
# peer's median) and, per side, the median peak RSS in RSS[side]. ATTIC_ARGS go to attic
# only: with --products=true the row is followed by the time of attic's matrix products
# alone (its step's GEMM calls replayed after each step) and what 1.5x the fastest peer
# would ask of the step.
declare -A RSS
ATTIC_ARGS=()
step_row() {
  local label=$1 t=$2 iters=$3 warmup=$4 rounds=$5
  shift 5
  local -A ms=() rss=()
  local rounds_ratio=() a best v p side attic_peak= prod= over=
  for ((r = 0; r < rounds; r++)); do
    local line
    line=$("$ATTIC" bench train "$@" "${ATTIC_ARGS[@]}" --threads="$t" --iters="$iters" \
             --warmup="$warmup" --json=true)
    a=$(field ms_per_iter <<<"$line")
    ms[attic]+="$a "
    v=$(field products_ms <<<"$line")
    [[ -z $v ]] || { prod+="$v "; over+="$(field step_over_products <<<"$line") "; }
    rss[attic]+="$(field peak_rss_bytes <<<"$line") "
    attic_peak=$(field peak_memory_bytes <<<"$line")
    best=
    for p in "${PEERS[@]}"; do
      line=$(OMP_NUM_THREADS=$t "$PY" bench/peer/bench_step.py --peer="$p" "$@" \
               --threads="$t" --iters="$iters" --warmup="$warmup" 2>/dev/null || true)
      v=$(field ms_per_iter <<<"$line")
      [[ -n $v ]] || v=nan
      ms[$p]+="$v "
      rss[$p]+="$(field peak_rss_bytes <<<"$line") "
      [[ $v == nan ]] || best=$(printf '%s\n' $best "$v" | smallest)
    done
    rounds_ratio+=("$(ratio "$best" "$a")x")
  done
  local am fastest= pm
  am=$(printf '%s\n' ${ms[attic]} | median)
  printf '%-26s %-3s %9s' "$label" "$t" "$am"
  for p in "${PEERS[@]}"; do
    pm=$(printf '%s\n' ${ms[$p]} | grep -v nan | median || true)
    printf ' %11s' "${pm:-failed}"
    [[ -z $pm ]] || fastest=$(printf '%s\n' $fastest "$pm" | smallest)
  done
  SPEEDUP=$(ratio "$fastest" "$am")
  printf '   %6sx   %s\n' "$SPEEDUP" "${rounds_ratio[*]}"
  for side in attic "${PEERS[@]}"; do
    printf '        %-11s ms/iter by round: %s\n' "$side" "${ms[$side]}"
    RSS[$side]=$(printf '%s\n' ${rss[$side]} | median)
  done
  if [[ -n $prod ]]; then
    local pm target
    pm=$(printf '%s\n' $prod | median)
    target=$(awk -v f="$fastest" 'BEGIN { printf "%.2f", f / 1.5 }')
    printf "        attic's matrix products alone, ms/iter by round: %s(median %s); the step takes\n" \
      "$prod" "$pm"
    printf '        %sx their time (median; by round %s); 1.5x the fastest peer asks for %s ms/iter\n' \
      "$(printf '%s\n' $over | median)" "$over" "$target"
  fi
  ATTIC_PEAK=$attic_peak
}
header() {
  printf '%-26s %-3s %9s' "$1" thr attic
  printf ' %11s' "${PEERS[@]}"
  printf '   %7s   %s\n' "speedup" "each round"
}
footer() {
  echo "(ms/iter, medians over the rounds of alternating runs; speed-up = the fastest peer's median"
  echo " ms/iter / attic's, and each round's the same within that round; above 1: attic is faster)"
  echo
}

if want 1; then
echo "== 1. the laptop recipe's training step (4 layers, C 128, block 64, batch 12), $ROUNDS rounds of $ITERS steps"
header "shape"
ATTIC_ARGS=(--products=true)
for t in 1 2; do
  step_row "cpu" "$t" "$ITERS" 5 "$ROUNDS" --preset=cpu
  printf '        memory: attic allocator peak %s MiB; peak RSS attic %s MiB' \
    "$(mib "$ATTIC_PEAK")" "$(mib "${RSS[attic]}")"
  for p in "${PEERS[@]}"; do printf ', %s %s MiB' "$p" "$(mib "${RSS[$p]:-0}")"; done
  echo
done
ATTIC_ARGS=()
footer
fi

if want 2; then
echo "== 2. the sweep: the laptop GPT, one axis changed at a time, 2 threads, $ROUNDS rounds of $SWEEP_ITERS steps"
header "n_embd x block_size"
printf '# axis\tvalue\tspeed-up over the fastest PyTorch peer (%s, 2 threads)\n' "$cpu" >"$OUT/sweep.tsv"
for C in 128 256 384 768; do
  step_row "$C x 64" 2 "$SWEEP_ITERS" 2 "$ROUNDS" --preset=cpu --n_embd="$C"
  printf 'n_embd\t%s\t%s\n' "$C" "$SPEEDUP" >>"$OUT/sweep.tsv"
  [[ $C != 128 ]] || printf 'block_size\t64\t%s\n' "$SPEEDUP" >>"$OUT/sweep.tsv"
done
for T in 256 1024; do
  step_row "128 x $T" 2 "$SWEEP_ITERS" 2 "$ROUNDS" --preset=cpu --block_size="$T"
  printf 'block_size\t%s\t%s\n' "$T" "$SPEEDUP" >>"$OUT/sweep.tsv"
done
footer
./build/attic plot speedup --in="$OUT/sweep.tsv" --out="$OUT/sweep.svg" \
  --title="attic's training step against the fastest PyTorch 2 peer, 2 threads of $cpu"
echo
fi

if want 3; then
echo "== 3. the GPU-size recipe on the CPU (6 layers, C 384, block 256, batch 64, dropout 0.2), one round of $BIG_ITERS steps"
header "gpu-size"
step_row "gpu-size" 2 "$BIG_ITERS" 1 1 --preset=gpu-size
footer
fi

if want 4; then
echo "== 4. the new attentions, 2 threads"
header "route attention step"
step_row "cpu, --attention=route" 2 "$SWEEP_ITERS" 2 "$ROUNDS" --preset=cpu --attention=route
footer
# layer rows: each n's fwd+bwd ms from attic's bench (its own timing: best of up to 5, or the
# median of 3 for linformer) and the peer's (the same rule), in ROUNDS alternating rounds (attic's
# whole sweep over n, then the peer's); each side's median over the rounds, and each round's
# speed-up.
layer_rows() {
  local what=$1 max_n=$2 r
  for r in $(seq "$ROUNDS"); do
    ./build/attic bench "$what" --threads=2 --max_n="$max_n" --softmax_max_n=0 --json=true \
      $([ "$what" = linformer ] && echo --causal=none) \
      | grep '"causal": "none"\|"bench": "elita"' >"$OUT/$what.attic.$r"
    OMP_NUM_THREADS=2 "$PY" bench/peer/bench_attentions.py "$what" --threads=2 --max_n="$max_n" >"$OUT/$what.peer.$r"
  done
  local ns n a o each
  ns=$(sed -n 's/.*"n": \([0-9]*\).*/\1/p' "$OUT/$what.attic.1")
  for n in $ns; do
    a=$(for r in $(seq "$ROUNDS"); do grep "\"n\": $n," "$OUT/$what.attic.$r" | field fwd_bwd_ms; done | median)
    o=$(for r in $(seq "$ROUNDS"); do grep "\"n\": $n," "$OUT/$what.peer.$r" | field fwd_bwd_ms; done | median)
    each=$(for r in $(seq "$ROUNDS"); do
      ratio "$(grep "\"n\": $n," "$OUT/$what.peer.$r" | field fwd_bwd_ms)" \
            "$(grep "\"n\": $n," "$OUT/$what.attic.$r" | field fwd_bwd_ms)"
      printf 'x '
    done)
    printf '%-10s %7s %12s %12s %8sx   %s\n' "$what" "$n" "$a" "$o" "$(ratio "$o" "$a")" "$each"
  done
}
printf '%-10s %7s %12s %12s %9s   %s\n' layer n "attic ms" "peer ms" speedup "each round"
layer_rows elita 16384
layer_rows linformer 65536
echo "(forward + backward of sum(out); elita: x [1, n, 128], 4 heads, against the same function in"
echo " PyTorch cumulative sums; linformer: channels 64, 4 heads, k 128, against linformer_pytorch's"
echo " MHAttention, no causal mask)"
echo
a=$(./build/attic bench sample --threads=2 --json=true | grep '"attention": "softmax"')
o=$(OMP_NUM_THREADS=2 "$PY" bench/peer/bench_attentions.py sample --threads=2)
printf 'sample: attic %s tokens/s (KV cache; %s recomputing), nanoGPT generate %s tokens/s: %sx\n' \
  "$(field tokens_per_s_cache <<<"$a")" "$(field tokens_per_s_recompute <<<"$a")" \
  "$(field tokens_per_s <<<"$o")" "$(ratio "$(field tokens_per_s_cache <<<"$a")" "$(field tokens_per_s <<<"$o")")"
echo "(the laptop GPT, block 64, batch 1, 1000 new tokens, temperature 1, no top-k; best of 2 runs)"
echo
fi

if want 5; then
echo "== 5. GEMMs"
printf '%-22s %16s %-3s %9s %12s %9s\n' shape "M x N x K" thr "attic" "torch.matmul" "ratio"
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
fi

if want 6; then
echo "== 6. the laptop recipe, 2000 iterations from start to the val loss at 2000, 2 threads, $RECIPE_ROUNDS round(s)"
printf '%-12s %10s %11s %16s\n' run "wall s" "val @2000" "val, 400 batches"
declare -A WALL VAL FINAL
for r in $(seq "$RECIPE_ROUNDS"); do
  d="$OUT/recipe-attic"
  rm -rf "$d"
  t0=$(date +%s.%N)
  ./build/attic train config/shakespeare_char_cpu.cfg --out_dir="$d" --threads=2 >"$tmp/recipe" 2>&1
  t1=$(date +%s.%N)
  WALL[attic]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') "
  VAL[attic]+="$(sed -n 's/^step 2000: .*val loss \([0-9.]*\).*/\1/p' "$tmp/recipe") "
  FINAL[attic]+="$(./build/attic eval --out_dir="$d" --eval_iters=400 --threads=2 |
    sed -n 's/.*val loss \([0-9.]*\).*/\1/p') "
  for p in "${PEERS[@]}"; do
    OMP_NUM_THREADS=2 "$PY" bench/peer/train_peer.py --threads=2 --peer="$p" --final_eval_iters=400 \
      >"$tmp/recipe" 2>&1
    WALL[$p]+="$(sed -n 's/^wall_s_to_last_eval \([0-9.]*\).*/\1/p' "$tmp/recipe") "
    VAL[$p]+="$(sed -n 's/^step 2000: .*val loss \([0-9.]*\).*/\1/p' "$tmp/recipe") "
    FINAL[$p]+="$(sed -n 's/^final eval.*val loss \([0-9.]*\).*/\1/p' "$tmp/recipe") "
  done
done
best=""
for run in attic "${PEERS[@]}"; do
  w=$(tr ' ' '\n' <<<"${WALL[$run]}" | grep . | median)
  printf '%-12s %10s %11s %16s   rounds: %s\n' "$run" "$w" "$(tr ' ' '\n' <<<"${VAL[$run]}" | grep . | median)" \
    "$(tr ' ' '\n' <<<"${FINAL[$run]}" | grep . | median)" "${WALL[$run]}"
  if [[ $run != attic ]] && { [[ -z $best ]] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; }; then
    best=$w
  fi
done
echo "speed-up: the fastest peer's $best s / attic's $(tr ' ' '\n' <<<"${WALL[attic]}" | grep . | median) s = $(ratio "$best" "$(tr ' ' '\n' <<<"${WALL[attic]}" | grep . | median)")x"
echo "(wall seconds from the command's start, torch's import included, to the evaluation at"
echo " iteration 2000, medians over the rounds; val @2000 is that evaluation (eval_iters 20);"
echo " the last column evaluates 400 batches afterwards: attic eval of the best checkpoint,"
echo " the peer's model after its last step)"
echo
fi

if want 7; then
echo "== 7. an AVX2 laptop: the laptop step, attic built with -march=x86-64-v3, PyTorch held to AVX2, $ROUNDS rounds of $ITERS steps"
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
  cmake -S . -B build-avx2 -DCMAKE_BUILD_TYPE=Release -DATTIC_NATIVE=OFF \
    -DCMAKE_CXX_FLAGS=-march=x86-64-v3 >/dev/null
  cmake --build build-avx2 -j"$(nproc)" --target attic_cli >/dev/null
  header "shape"
  (
    ATTIC=./build-avx2/attic
    # PyTorch's own kernels, MKL's GEMM and oneDNN's each pick their ISA at run time.
    export ATEN_CPU_CAPABILITY=avx2 MKL_ENABLE_INSTRUCTIONS=AVX2 ONEDNN_MAX_CPU_ISA=AVX2
    "$PY" -c 'import torch; print("peer ISA:", torch.backends.cpu.get_cpu_capability())'
    for t in 1 2; do step_row "cpu, AVX2" "$t" "$ITERS" 5 "$ROUNDS" --preset=cpu; done
  )
  footer
else
  echo "skipped: this CPU has no AVX2 + FMA"
fi
fi

if want 8; then
echo "== 8. bfloat16 under autocast, 2 threads: the laptop step ($ROUNDS rounds of $ITERS steps) and the GPU-size step (one round of $BIG_ITERS)"
# The bf16 GEMM's path, from the first line of bench gemm (which then stops on the closed pipe).
"$ATTIC" bench gemm --dtype=bfloat16 --threads=2 | head -1 || true
header "shape"
ATTIC_ARGS=()
step_row "cpu, bfloat16" 2 "$ITERS" 5 "$ROUNDS" --preset=cpu --dtype=bfloat16
step_row "gpu-size, bfloat16" 2 "$BIG_ITERS" 1 1 --preset=gpu-size --dtype=bfloat16
footer
echo "attic bfloat16 against attic float32 (ms/iter, alternating rounds; ratio = float32 / bfloat16):"
for preset in cpu gpu-size; do
  if [[ $preset == cpu ]]; then n=$ITERS; w=5; rounds=$ROUNDS; else n=$BIG_ITERS; w=1; rounds=2; fi
  f32s= bf16s= each=
  for ((r = 0; r < rounds; r++)); do
    f=$("$ATTIC" bench train --preset=$preset --threads=2 --iters=$n --warmup=$w --json=true | field ms_per_iter)
    b=$("$ATTIC" bench train --preset=$preset --dtype=bfloat16 --threads=2 --iters=$n --warmup=$w --json=true | field ms_per_iter)
    f32s+="$f " bf16s+="$b " each+="$(ratio "$f" "$b")x "
  done
  fm=$(printf '%s\n' $f32s | median) bm=$(printf '%s\n' $bf16s | median)
  printf '%-10s float32 %9s  bfloat16 %9s  %6sx   %s\n' "$preset" "$fm" "$bm" "$(ratio "$fm" "$bm")" "$each"
done
echo
fi
