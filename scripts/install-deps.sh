#!/usr/bin/env bash
# Installs what attic needs to build and test, if missing: cmake, g++, make, and Catch2 v2
# (Debian's catch2). Uses sudo when not root. Prints one clear line if it cannot install.
set -uo pipefail

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
for pkg in "$@"; do  # extra packages a target asks for (e.g. gdb)
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "attic: cannot install ${missing[*]}: not root and sudo is absent; install them and rerun" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "attic: cannot install ${missing[*]}: apt-get not found; install them and rerun" >&2
  exit 1
fi
echo "attic: installing ${missing[*]} with apt-get"
if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; } >/tmp/attic-apt.log 2>&1; then
  echo "attic: apt-get could not install ${missing[*]} (log: /tmp/attic-apt.log)" >&2
  exit 1
fi
