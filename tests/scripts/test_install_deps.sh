#!/usr/bin/env bash
# scripts/install-deps.sh under each package manager, with stubs in place of the managers:
# each stub records the command it was given and installs nothing. Checks the packages named
# for the base tools (cmake, a compiler, make, Catch2) and for the extras that make targets
# ask for, by Debian's names, and that nothing is installed when nothing is missing.
# Usage: test_install_deps.sh SCRIPT
set -u
script=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
# Every manager and query tool is a stub that logs its arguments; the query tools answer
# "not installed". sudo runs its command.
for tool in apt-get dnf pacman brew; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/log"\n' "$tool" "$work" >"$work/bin/$tool"
done
for tool in dpkg rpm; do printf '#!/bin/sh\nexit 1\n' >"$work/bin/$tool"; done
printf '#!/bin/sh\n[ "$1" = -Q ] && exit 1\necho "pacman $*" >>"%s/log"\n' "$work" >"$work/bin/pacman"
printf '#!/bin/sh\n[ "$1" = list ] && exit 1\necho "brew $*" >>"%s/log"\n' "$work" >"$work/bin/brew"
printf '#!/bin/sh\nexit 0\n' >"$work/bin/xcode-select"
printf '#!/bin/sh\nexec "$@"\n' >"$work/bin/sudo"
chmod +x "$work/bin/"*
failures=0

# check NAME EXPECTED_LOG ENV... -- ARGS...: run the script, compare the stubs' log.
check() {
  local name=$1 expected=$2
  shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  rm -f "$work/log"
  # Only the variables a case names: a CATCH2_PREFIX that make passed down to this test
  # (make test CATCH2_PREFIX=...) must not answer for Catch2.
  env -u CATCH2_PREFIX -u ATTIC_CATCH2_PREFIXES -u ATTIC_PKG_MANAGER PATH="$work/bin:$PATH" \
    "${envs[@]}" bash "$script" "$@" >/dev/null 2>"$work/err"
  local got
  got=$(cat "$work/log" 2>/dev/null)
  if [ "$got" != "$expected" ]; then
    echo "FAIL: $name: expected '$expected', got '$got' (stderr: $(cat "$work/err"))"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

# The base tools are present here (cmake, make, a compiler; CATCH2_PREFIX stands in for
# Catch2), so only the extras are asked for.
check "apt extras" "apt-get update -qq
apt-get install -y -qq gdb clang" ATTIC_PKG_MANAGER=apt-get CATCH2_PREFIX=/x -- gdb clang
check "dnf extras" "dnf install -y gdb clang compiler-rt" \
  ATTIC_PKG_MANAGER=dnf CATCH2_PREFIX=/x -- gdb clang libclang-rt-dev
check "pacman extras" "pacman -S --needed --noconfirm clang compiler-rt aarch64-linux-gnu-gcc qemu-user" \
  ATTIC_PKG_MANAGER=pacman CATCH2_PREFIX=/x -- clang libclang-rt-dev g++-aarch64-linux-gnu qemu-user
check "brew: Apple clang needs no package" "" ATTIC_PKG_MANAGER=brew CATCH2_PREFIX=/x -- clang
check "nothing missing, nothing installed" "" ATTIC_PKG_MANAGER=dnf CATCH2_PREFIX=/x --

# Without Catch2 (no CATCH2_PREFIX, and none in the prefixes searched), the base packages are
# named.
none="$work/empty"
check "apt base" "apt-get update -qq
apt-get install -y -qq cmake g++ make catch2" ATTIC_PKG_MANAGER=apt-get ATTIC_CATCH2_PREFIXES="$none" --
check "dnf base" "dnf install -y cmake gcc-c++ make catch-devel" ATTIC_PKG_MANAGER=dnf ATTIC_CATCH2_PREFIXES="$none" --
check "pacman base" "pacman -S --needed --noconfirm cmake gcc make catch2" \
  ATTIC_PKG_MANAGER=pacman ATTIC_CATCH2_PREFIXES="$none" --
check "brew base" "brew install cmake catch2" ATTIC_PKG_MANAGER=brew ATTIC_CATCH2_PREFIXES="$none" --
# A Catch2 v3 (its test-macros header, no catch.hpp) counts as Catch2.
mkdir -p "$work/v3/include/catch2" && touch "$work/v3/include/catch2/catch_test_macros.hpp"
check "v3 found" "" ATTIC_PKG_MANAGER=apt-get ATTIC_CATCH2_PREFIXES="$work/v3" --
[ $failures -eq 0 ] || exit 1
