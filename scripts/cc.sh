#!/usr/bin/env bash
# Prints the path of a C11 compiler for the C producer library (include/dfx.h) and its tests: $CC, gcc, then cc.
# On Debian without one, installs gcc with apt-get (as root, or with sudo), as scripts/jdk.sh does for the JDK;
# DFX_NO_INSTALL=1 forbids that. Exits 1 with one line on stderr when no compiler can be had.
set -euo pipefail

find_cc() {
  local c
  for c in "${CC:-}" gcc cc; do
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
    echo "dfx: no C compiler found; installing gcc and libc6-dev" >&2
    $sudo apt-get install -y -q gcc libc6-dev >&2 || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q gcc libc6-dev >&2; }
    if find_cc; then exit 0; fi
  fi
fi
echo "dfx: needs a C compiler (gcc) for the C producer tests; install it, e.g. apt-get install gcc" >&2
exit 1
