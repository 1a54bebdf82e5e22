#!/usr/bin/env bash
# Installs what attic needs to build and test, if missing: cmake, a C++20 compiler, make and
# Catch2 (version 2 or 3, whichever the distribution ships), with the machine's own package
# manager:
#   apt-get  Debian 12 and 13, Ubuntu 22.04 and 24.04   cmake g++ make catch2
#   dnf      Fedora                                     cmake gcc-c++ make catch-devel
#   pacman   Arch                                       cmake gcc make catch2
#   brew     macOS (Homebrew)                           cmake catch2, and the Xcode
#                                                       Command Line Tools for clang and make
# Arguments name further packages that a make target needs, by Debian's names (gdb, clang,
# libclang-rt-dev, g++-aarch64-linux-gnu, qemu-user); each is mapped to the other managers'
# names where they have one. Uses sudo when not root (never with brew). Anywhere else, or
# where a package has no name, it installs nothing and prints exactly what to install, then
# returns 0, so that the build goes on and CMake itself says what is still missing.
# CATCH2_PREFIX (set by `make ... CATCH2_PREFIX=DIR`): a Catch2 of the user's own, so none
# is installed.
set -uo pipefail

# Catch2 v2's one header or v3's test-macros header, where a package manager or
# `cmake --install` puts them (ATTIC_CATCH2_PREFIXES replaces that list, for the script's test).
has_catch2() {
  [ -n "${CATCH2_PREFIX:-}" ] && return 0
  local prefix
  for prefix in ${ATTIC_CATCH2_PREFIXES:-/usr /usr/local /opt/homebrew "${HOMEBREW_PREFIX:-/usr/local}" "$HOME/.local"}; do
    [ -f "$prefix/include/catch2/catch.hpp" ] && return 0
    [ -f "$prefix/include/catch2/catch_test_macros.hpp" ] && return 0
  done
  return 1
}

# The manager of this machine: the first of apt-get, dnf, pacman and brew that exists.
# ATTIC_PKG_MANAGER names one instead (tests/scripts/test_install_deps.sh uses it).
manager="${ATTIC_PKG_MANAGER:-}"
if [ -z "$manager" ]; then
  for m in apt-get dnf pacman brew; do
    if command -v "$m" >/dev/null 2>&1; then manager=$m; break; fi
  done
fi

# pkg_name MANAGER DEBIAN_NAME: that manager's name for a Debian package, or nothing.
pkg_name() {
  case "$1:$2" in
    apt-get:*) echo "$2" ;;
    dnf:libclang-rt-dev | pacman:libclang-rt-dev) echo compiler-rt ;;
    dnf:g++-aarch64-linux-gnu) ;;  # Fedora's cross compiler has no aarch64 C library
    dnf:qemu-user) echo qemu-user-static ;;
    pacman:g++-aarch64-linux-gnu) echo aarch64-linux-gnu-gcc ;;
    pacman:qemu-user) echo qemu-user ;;
    brew:clang | brew:libclang-rt-dev) ;;  # Apple clang comes with the Xcode tools
    brew:g++-aarch64-linux-gnu | brew:qemu-user | brew:gdb) ;;
    *) echo "$2" ;;
  esac
}

# is_installed MANAGER PACKAGE
is_installed() {
  case "$1" in
    apt-get) dpkg -s "$2" >/dev/null 2>&1 ;;
    dnf) rpm -q "$2" >/dev/null 2>&1 ;;
    pacman) pacman -Q "$2" >/dev/null 2>&1 ;;
    brew) brew list --versions "$2" >/dev/null 2>&1 ;;
  esac
}

# What is missing: the base tools by their commands, then each extra package.
missing=()
unnamed=()
base_missing=0
command -v cmake >/dev/null 2>&1 || base_missing=1
command -v make >/dev/null 2>&1 || base_missing=1
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 ||
  command -v clang++ >/dev/null 2>&1 || base_missing=1
has_catch2 || base_missing=1
if [ $base_missing -eq 1 ]; then
  case "$manager" in
    apt-get) missing+=(cmake g++ make catch2) ;;
    dnf) missing+=(cmake gcc-c++ make catch-devel) ;;
    pacman) missing+=(cmake gcc make catch2) ;;
    brew) missing+=(cmake catch2) ;;
  esac
fi
for pkg in "$@"; do
  [ -n "$manager" ] || { unnamed+=("$pkg"); continue; }
  name=$(pkg_name "$manager" "$pkg")
  if [ -z "$name" ]; then
    # brew: clang is Apple's; the others have no package under that manager.
    if [ "$manager" = brew ] && { [ "$pkg" = clang ] || [ "$pkg" = libclang-rt-dev ]; }; then
      continue
    fi
    unnamed+=("$pkg")
  elif ! is_installed "$manager" "$name"; then
    missing+=("$name")
  fi
done
if [ ${#unnamed[@]} -gt 0 ]; then
  echo "attic: no ${manager:-package manager} package for ${unnamed[*]} (Debian's names);" \
       "install the equivalent by hand" >&2
fi

if [ -z "$manager" ]; then
  [ $base_missing -eq 0 ] && exit 0
  echo "attic: no apt-get, dnf, pacman or brew found, so nothing is installed. Install with your" \
       "package manager: cmake (3.20 or later), g++ (12 or later) or clang++ (14 or later)," \
       "make, and Catch2 (v2.13 or v3.x, often named catch2)" >&2
  exit 0
fi
if [ "$manager" = brew ] && ! xcode-select -p >/dev/null 2>&1; then
  echo "attic: clang and make come with Apple's Command Line Tools: run 'xcode-select --install'" >&2
fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$manager" != brew ] && [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "attic: cannot install ${missing[*]}: not root and sudo is absent; install them and rerun" >&2
    exit 1
  fi
fi
log=${TMPDIR:-/tmp}/attic-install-deps.log
echo "attic: installing ${missing[*]} with $manager"
case "$manager" in
  apt-get)
    { $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1 ;;
  dnf) $sudo dnf install -y "${missing[@]}" >"$log" 2>&1 ;;
  pacman) $sudo pacman -S --needed --noconfirm "${missing[@]}" >"$log" 2>&1 ;;
  brew) brew install "${missing[@]}" >"$log" 2>&1 ;;
esac
status=$?
if [ $status -ne 0 ]; then
  echo "attic: $manager could not install ${missing[*]} (log: $log)" >&2
  exit 1
fi
