#!/usr/bin/env bash
# Installs Chrome's trace engine (npm @paulirish/trace_engine, the version pinned in
# dfx-cli/src/test/trace-engine/package-lock.json) and its small loader script into DIR, for the tests that load a
# trace.json with it, and prints DIR. Needs node and npm: on Debian without them, installs nodejs and npm with
# apt-get (as root, or with sudo), as scripts/cc.sh does for gcc; DFX_NO_INSTALL=1 forbids that. An install that
# is already there with the same lock file is kept.
# Exit status: 0 ready; 3 the npm registry cannot be reached (tests skip); 1 anything else, with one line on stderr.
set -euo pipefail
dir=${1:?usage: scripts/trace-engine.sh DIR}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../dfx-cli/src/test/trace-engine" && pwd)

have_node() { command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; }

if ! have_node && [ -z "${DFX_NO_INSTALL:-}" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else sudo="none"; fi
  fi
  if [ "$sudo" != "none" ]; then
    echo "dfx: node and npm not found; installing nodejs and npm" >&2
    $sudo apt-get install -y -q nodejs npm >&2 || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q nodejs npm >&2; }
  fi
fi
if ! have_node; then
  echo "dfx: needs node and npm for the trace-engine tests; install them, e.g. apt-get install nodejs npm" >&2
  exit 1
fi

mkdir -p "$dir"
stamp="$dir/node_modules/.dfx-package-lock.json"
if [ -f "$stamp" ] && cmp -s "$stamp" "$src/package-lock.json"; then
  cp "$src/trace-counts.mjs" "$dir/"
  echo "$dir"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$src/trace-counts.mjs" "$dir/"
if ! (cd "$dir" && timeout 600 npm ci --no-audit --no-fund --prefer-offline >npm-ci.log 2>&1); then
  if ! timeout 60 npm ping >/dev/null 2>&1; then
    echo "dfx: the npm registry cannot be reached; @paulirish/trace_engine not installed (see $dir/npm-ci.log)" >&2
    exit 3
  fi
  echo "dfx: npm ci of @paulirish/trace_engine failed in $dir:" >&2
  tail -5 "$dir/npm-ci.log" >&2
  exit 1
fi
cp "$src/package-lock.json" "$stamp"
echo "$dir"
