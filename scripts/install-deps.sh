#!/usr/bin/env bash
# Installs what attic needs to build and test, if missing: cmake, g++, make, and Catch2 v2
# (Debian's catch2), plus the Debian packages a target names as arguments (gdb, clang,
# g++-aarch64-linux-gnu ...). Uses sudo when not root. Prints one clear line if it cannot
# install.
# Without apt-get (macOS, other Linux distributions) it installs nothing: it prints what to
# install and by which command, and returns 0, so that the build goes on and CMake itself
# says what is still missing.
set -uo pipefail

# Catch2 v2's one header, wherever a package manager or `cmake --install` puts it.
has_catch2() {
  local prefix
  for prefix in /usr /usr/local /opt/homebrew "${HOMEBREW_PREFIX:-/usr/local}" "$HOME/.local"; do
    [ -f "$prefix/include/catch2/catch.hpp" ] && return 0
  done
  return 1
}

if ! command -v apt-get >/dev/null 2>&1; then
  missing=()
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v c++ >/dev/null 2>&1 || missing+=("a C++20 compiler")
  command -v make >/dev/null 2>&1 || missing+=(make)
  has_catch2 || missing+=("Catch2 v2")
  for pkg in "$@"; do  # Debian's names; a package is there if its command is (clang, gdb)
    command -v "$pkg" >/dev/null 2>&1 || missing+=("$pkg (Debian's name for it)")
  done
  [ ${#missing[@]} -eq 0 ] && exit 0
  echo "attic: apt-get not found, so nothing is installed; missing: ${missing[*]}." >&2
  if [ "$(uname -s)" = Darwin ]; then
    # Homebrew's catch2 is version 3 (no catch.hpp), so Catch2 v2 is built from its tag.
    cat >&2 <<'EOF'
attic: on macOS, install them with:
  xcode-select --install            # Apple clang and make (the Command Line Tools)
  brew install cmake                # https://brew.sh
  git clone --depth 1 --branch v2.13.10 https://github.com/catchorg/Catch2.git /tmp/Catch2
  cmake -S /tmp/Catch2 -B /tmp/Catch2/build -DCATCH_BUILD_TESTING=OFF -DCATCH_INSTALL_DOCS=OFF
  cmake --install /tmp/Catch2/build --prefix "$(brew --prefix)"
(Not `brew install catch2`: that is Catch2 v3, which attic's tests do not use.)
EOF
  else
    echo "attic: install cmake, g++ (12 or later) or clang++ (14 or later), make and Catch2 v2 (2.13) with your package manager" >&2
  fi
  exit 0
fi

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
echo "attic: installing ${missing[*]} with apt-get"
if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; } >/tmp/attic-apt.log 2>&1; then
  echo "attic: apt-get could not install ${missing[*]} (log: /tmp/attic-apt.log)" >&2
  exit 1
fi
