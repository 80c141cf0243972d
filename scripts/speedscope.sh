#!/usr/bin/env bash
# Prints the path of speedscope's published file-format schema (dist/release/file-format-schema.json of the npm
# package speedscope), unpacked into target/speedscope-VERSION/ of the checkout, for the tests that check dfx's
# speedscope export against it. Fetches the package with npm (npm pack: no install scripts run); on Debian without
# npm, installs it with apt-get (as root, or with sudo), as scripts/cc.sh does for gcc; DFX_NO_INSTALL=1 forbids
# that. Exits 1 with one line on stderr when the schema cannot be had (no npm, no registry).
set -euo pipefail
version=1.25.0
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/target/speedscope-$version"
schema="$dir/package/dist/release/file-format-schema.json"
if [ -f "$schema" ]; then echo "$schema"; exit 0; fi

if ! command -v npm >/dev/null 2>&1 && [ -z "${DFX_NO_INSTALL:-}" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else sudo="none"; fi
  fi
  if [ "$sudo" != "none" ]; then
    echo "dfx: npm not found; installing it" >&2
    $sudo apt-get install -y -q npm >&2 || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q npm >&2; }
  fi
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "dfx: needs npm to fetch speedscope's file-format schema; install it, e.g. apt-get install npm" >&2
  exit 1
fi
tmp=$(mktemp -d "$root/target/speedscope.XXXXXX" 2>/dev/null || { mkdir -p "$root/target" && mktemp -d "$root/target/speedscope.XXXXXX"; })
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && npm pack --silent "speedscope@$version" >/dev/null 2>&1 && tar xzf "speedscope-$version.tgz"); then
  echo "dfx: npm could not fetch speedscope@$version (no registry?)" >&2
  exit 1
fi
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/package" "$dir/package"
echo "$schema"
