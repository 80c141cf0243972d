#!/usr/bin/env bash
# Prints the path of a compiler: with no argument a C11 compiler for the C producer library (include/dfx.h) and its
# tests ($CC, gcc, then cc); with `c++` a C++ compiler for the tests that build C++ programs ($CXX, g++, then c++).
# On Debian without one, installs gcc (or g++) and libc6-dev with apt-get (as root, or with sudo), as
# scripts/jdk.sh does for the JDK; DFX_NO_INSTALL=1 forbids that. g++ brings binutils (c++filt), which the demangler
# tests compare with. Exits 1 with one line on stderr when no compiler can be had.
set -euo pipefail

case "${1:-c}" in
  c) candidates=("${CC:-}" gcc cc); package=gcc; what="a C compiler (gcc) for the C producer tests" ;;
  c++) candidates=("${CXX:-}" g++ c++); package=g++; what="a C++ compiler (g++) for the C++ symbol tests" ;;
  *) echo "usage: scripts/cc.sh [c|c++]" >&2; exit 2 ;;
esac

find_cc() {
  local c
  for c in "${candidates[@]}"; do
    [ -n "$c" ] || continue
    if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
  done
  return 1
}

if find_cc; then exit 0; fi
if [ -z "${DFX_NO_INSTALL:-}" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else sudo="none"; fi
  fi
  if [ "$sudo" != "none" ]; then
    echo "dfx: no compiler found; installing $package and libc6-dev" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -q "$package" libc6-dev >&2 \
      || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q "$package" libc6-dev >&2; } || true
    if find_cc; then exit 0; fi
  fi
fi
echo "dfx: needs $what; install it, e.g. apt-get install $package" >&2
exit 1
