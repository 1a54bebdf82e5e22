#!/usr/bin/env bash
# scripts/check_layers.sh on a planted tree: an include that points up is listed and fails
# the check; includes down the layers, within a folder, or of the standard library pass.
# Usage: test_check_layers.sh SCRIPT
set -u
script=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tensor/cpu" "$work/nn" "$work/models" "$work/cli"
printf '#include <vector>\n#include "tensor/tensor.h"\n' >"$work/tensor/cpu/k.cpp"
printf '#include "tensor/tensor.h"\n#include "nn/module.h"\n' >"$work/nn/ok.h"
printf '#include "models/gpt.h"\n#include "nn/module.h"\n' >"$work/models/ok.cpp"
failures=0
out=$(bash "$script" "$work"); rc=$?
if [ $rc -ne 0 ] || [ -n "$out" ]; then
  echo "FAIL: a tree whose includes point down was refused (rc $rc): $out"; failures=1
else
  echo "ok: includes down the layers pass"
fi
printf '#include "ops/ops.h"\n' >>"$work/tensor/cpu/k.cpp"
printf '  #include "models/registry.h"\n' >>"$work/nn/ok.h"
out=$(bash "$script" "$work"); rc=$?
expected='nn/ok.h:3: nn includes models/registry.h
tensor/cpu/k.cpp:3: tensor includes ops/ops.h'
if [ $rc -ne 1 ] || [ "$(printf '%s\n' "$out" | sort)" != "$expected" ]; then
  echo "FAIL: expected rc 1 and
$expected
got rc $rc and
$out"; failures=1
else
  echo "ok: two upward includes listed"
fi
[ $failures -eq 0 ]
