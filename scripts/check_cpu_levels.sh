#!/usr/bin/env bash
# Checks what the per-level namespaces of a portable build (tensor/cpu/cpu_isa.h) cannot: that
# no function the avx2 or avx512 copies of the CPU kernels share with the rest of the program
# was compiled with an instruction above x86-64's baseline.
#
# A function the linker may merge across objects (a weak symbol: an inline function of a
# header, a template instantiation of the standard library) keeps one definition in the
# program, from whichever object the linker saw first. If that one came from an avx512 copy
# and used AVX-512, code of the base level would run it on a CPU without AVX-512 and die of
# SIGILL. A weak function whose name is inside attic::cpu::avx2:: or ::avx512:: (or has a
# type from there among its template arguments: a level's lambda) exists in that level only,
# and may use anything. Every other weak function of the level objects must use no
# VEX- or EVEX-encoded instruction (their mnemonics start with v) and none of BMI1/2,
# LZCNT, MOVBE, POPCNT or F16C. (tzcnt is allowed: GCC emits it as `rep bsf` for x86-64 too,
# and a CPU without BMI1 runs it as bsf.)
#
# usage: scripts/check_cpu_levels.sh BUILD_DIR     (a build configured with ATTIC_NATIVE=OFF)
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR}
status=0
found=0
for level in avx2 avx512; do
  # the namespace attic::cpu::<level> as it appears in a mangled name: 5attic3cpu4avx2
  ns="5attic3cpu${#level}${level}"
  while IFS= read -r obj; do
    found=$((found + 1))
    weak=$(nm --defined-only "$obj" | awk '$2 == "W" || $2 == "u" { print $3 }' | grep -v "$ns" || true)
    [ -z "$weak" ] && continue
    # the instructions of each function, as "symbol mnemonic" lines
    bad=$(objdump -d --no-show-raw-insn "$obj" | awk -v list="$weak" '
      BEGIN { n = split(list, w, "\n"); for (i = 1; i <= n; i++) shared[w[i]] = 1 }
      /^[0-9a-f]+ <.*>:$/ { sym = substr($2, 2, length($2) - 3); next }
      /^ *[0-9a-f]+:\t/ {
        if (!(sym in shared)) next
        split($0, parts, "\t"); split(parts[2], words, " "); m = words[1]
        if (m ~ /^(rep|repz|repnz|lock|notrack|bnd|data16|cs|ds)$/) m = words[2]
        if (m ~ /^v/ || m ~ /^(andn|bextr|blsi|blsmsk|blsr|bzhi|lzcnt|popcnt|pdep|pext|rorx|sarx|shlx|shrx|mulx|movbe)/)
          print sym " " m
      }' | sort -u)
    if [ -n "$bad" ]; then
      status=1
      echo "$obj: functions shared with other levels use instructions above the baseline:"
      echo "$bad" | while read -r sym m; do echo "  $(echo "$sym" | c++filt): $m"; done | sort -u | head -40
    fi
  done < <(find "$build" -path "*cpu_levels/$level/*.o" | sort)
done
if [ "$found" -eq 0 ]; then
  echo "no objects of the avx2 or avx512 kernel copies under $build (configure with ATTIC_NATIVE=OFF)"
  exit 1
fi
[ "$status" -eq 0 ] && echo "$found level objects: no shared function uses an instruction above the baseline"
exit "$status"
