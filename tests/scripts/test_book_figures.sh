#!/usr/bin/env bash
# scripts/book_figures.sh on a one-chapter book: a figure block runs its compare on a tiny
# corpus, its picture is copied into img/, its table is compare.md's, its stamp names the
# commit and the CPU, the text around the block is kept, and --no-run redraws the same. A
# block naming a file that no run wrote fails with a line naming it and leaves the chapter
# as it was.
# Usage: test_book_figures.sh SCRIPT ATTIC
set -u
script=$1
attic=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check WHAT CONDITION...
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=1; fi
}

mkdir -p "$work/book/img"
for i in $(seq 1 60); do echo "To be, or not to be, that is the question: whether 'tis nobler"; done >"$work/corpus.txt"
cat >"$work/base.cfg" <<EOF
dataset = $work/corpus.txt
n_layer = 1
n_head = 2
n_embd = 16
block_size = 16
batch_size = 4
eval_iters = 2
eval_interval = 5
max_iters = 10
warmup_iters = 2
lr_decay_iters = 10
learning_rate = 3e-3
min_lr = 3e-4
log_interval = 5
threads = 1
EOF
printf 'base = base.cfg\nout_dir = out-tiny\nsoftmax: attention=softmax\nlinear_elu: attention=linear_elu\n' >"$work/tiny.cfg"
cat >"$work/book/01-ch.md" <<'EOF'
# 1. A chapter

Text before.

<!-- figure: attic compare tiny.cfg | out-tiny/compare.svg -> 01_tiny.svg | table out-tiny/compare.md -->
| an old | table |
|---|---|

![the two runs](img/01_tiny.svg)

*an old stamp*
<!-- /figure -->

Text after.
EOF
echo old >"$work/book/img/01_tiny.svg"

out=$(bash "$script" --book="$work/book" --in="$work" --attic="$attic" 2>&1); rc=$?
check "the script runs the block's compare (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || echo "$out"
check "img/01_tiny.svg is the run's compare.svg" cmp -s "$work/out-tiny/compare.svg" "$work/book/img/01_tiny.svg"
chapter=$(cat "$work/book/01-ch.md")
check "the old table and stamp are gone" bash -c '! grep -q "an old" "$1"' _ "$work/book/01-ch.md"
check "the table is compare.md's" grep -q '^| softmax | softmax | ' "$work/book/01-ch.md"
check "the title of compare.md is left out" bash -c '! grep -q "^# " <(sed 1d "$1")' _ "$work/book/01-ch.md"
commit=$(git -C "$(dirname "$script")/.." rev-parse --short HEAD 2>/dev/null || echo "no commit")
check "the stamp names the command and the commit" grep -q "^\*Drawn by \`make book-figures\` with \`attic compare tiny.cfg\`, at $commit" "$work/book/01-ch.md"
if [ -r /proc/cpuinfo ]; then
  cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//; s/  */ /g')
  check "the stamp names the CPU" grep -qF "on $cpu, family " "$work/book/01-ch.md"
fi
check "the image line and the text around the block are kept" \
  bash -c 'grep -q "^!\[the two runs\](img/01_tiny.svg)$" "$1" && grep -q "^Text before.$" "$1" && grep -q "^Text after.$" "$1"' _ "$work/book/01-ch.md"

out=$(bash "$script" --no-run --book="$work/book" --in="$work" --attic=/nonexistent 2>&1); rc=$?
check "--no-run redraws the same chapter (rc $rc)" [ $rc -eq 0 ] && [ "$(cat "$work/book/01-ch.md")" = "$chapter" ]

sed -i 's|out-tiny/compare.svg|out-none/compare.svg|' "$work/book/01-ch.md"
before=$(cat "$work/book/01-ch.md")
out=$(bash "$script" --no-run --book="$work/book" --in="$work" 2>&1); rc=$?
check "a missing file fails (rc $rc) with a line naming it" [ $rc -eq 1 ] && grep -q "out-none/compare.svg is missing" <<<"$out"
check "and the chapter is left as it was" [ "$(cat "$work/book/01-ch.md")" = "$before" ]
exit $failures
