#!/bin/bash
# Two builds of attic in alternating rounds on the bf16 laptop and GPU-size steps, then the
# float32 laptop step over its products replayed alone, for BENCHMARKS.md's section "bfloat16
# steps, and the float32 step's overhead". Usage: OLD=... NEW=... bench/peer/alternate_bf16.sh
# OLD, NEW: two attic binaries (default: ./build-old/attic and ./build/attic).
NEW=${NEW:-./build/attic} OLD=${OLD:-./build-old/attic}
echo "# host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2) model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2); $(nproc) cores; $(date -u)"
echo "# new: $NEW, old: $OLD"
for r in 1 2 3; do
  for b in old new; do
    [ $((r % 2)) = 0 ] && b=$([ $b = old ] && echo new || echo old)
    B=$([ $b = old ] && echo $OLD || echo $NEW)
    echo "## laptop bf16 round $r $b"; $B bench train --preset=cpu --dtype=bfloat16 --threads=2 --iters=50 --json | tail -1
  done
done
for r in 1 2; do
  for b in old new; do
    [ $((r % 2)) = 0 ] && b=$([ $b = old ] && echo new || echo old)
    B=$([ $b = old ] && echo $OLD || echo $NEW)
    echo "## gpu-size bf16 round $r $b"; $B bench train --preset=gpu-size --dtype=bfloat16 --threads=2 --iters=2 --warmup=1 --json | tail -1
  done
  echo "## gpu-size float32 round $r new"; $NEW bench train --preset=gpu-size --threads=2 --iters=2 --warmup=1 --json | tail -1
done
for r in 1 2 3; do
  for t in 1 2; do
    echo "## laptop float32 products round $r threads $t"; $NEW bench train --preset=cpu --products=true --threads=$t --iters=50 --json | tail -1
  done
done
