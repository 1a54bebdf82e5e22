#!/usr/bin/env bash
# kill -9 against checkpointing: trains a tiny model that saves at every iteration, kills it
# with SIGKILL at a random moment (often in the middle of a save), and checks that the
# checkpoint left behind still resumes: `attic eval` reads it and a short resume in a copy
# of out_dir goes through. Then resumes the run itself and kills it again, N times.
#
#   scripts/kill_resume.sh [ATTIC_BINARY] [N]      (defaults: build/attic, 20)
#
# Prints one line per kill and "kill_resume: R of N kills left a checkpoint that resumes".
# Exit status 0 when every kill did, 1 otherwise.
set -uo pipefail

attic=${1:-build/attic}
n=${2:-20}
[ -x "$attic" ] || { echo "kill_resume: no attic binary at '$attic' (give its path)"; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/attic-kill-resume.XXXXXX")
trap 'rm -rf "$dir"' EXIT
for i in $(seq 60); do echo "To be, or not to be, that is the question."; done > "$dir/corpus.txt"
out="$dir/out"
flags="--dataset=$dir/corpus.txt --n_layer=1 --n_head=2 --n_embd=16 --block_size=16 --batch_size=4
       --eval_iters=1 --eval_interval=1 --always_save_checkpoint=true --warmup_iters=5
       --lr_decay_iters=1000000 --threads=1 --max_iters=1000000"

# Runs `attic train ARGS` in the background and SIGKILLs it after a random 0.3 to 1.3 s,
# once it has written a first checkpoint.
train_and_kill() {
  "$attic" train $flags "$@" > "$dir/train.log" 2>&1 &
  local pid=$!
  for _ in $(seq 200); do [ -e "$out/ckpt.safetensors" ] && break; sleep 0.05; done
  sleep "0.$((RANDOM % 10 + 3))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

resumed=0
train_and_kill --out_dir="$out"
for k in $(seq "$n"); do
  rm -rf "$dir/check"
  cp -r "$out" "$dir/check"
  leftovers=$(cd "$out" && ls | tr '\n' ' ')
  if ev=$("$attic" eval --out_dir="$dir/check" 2>&1) &&
     re=$("$attic" train --init_from=resume --out_dir="$dir/check" --max_iters=0 2>&1); then
    resumed=$((resumed + 1))
    echo "kill $k: resumes at $(echo "$re" | sed -n 's/^resuming from .* at iteration //p') [$leftovers]"
  else
    echo "kill $k: DOES NOT RESUME [$leftovers]: $(echo "$ev"; echo "${re:-}" | grep '^attic: ')"
    # Go on from a fresh run, as a user with a dead checkpoint would have to.
    rm -rf "$out"
    train_and_kill --out_dir="$out"
    continue
  fi
  train_and_kill --out_dir="$out" --init_from=resume
done
echo "kill_resume: $resumed of $n kills left a checkpoint that resumes"
[ "$resumed" -eq "$n" ]
