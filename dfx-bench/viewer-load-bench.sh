#!/usr/bin/env bash
# Times the HTML viewer's opening: records the flood workload (the largest default page) unless --run names a run
# directory, exports its page with `dfx export --format html`, and opens it RUNS times in headless Chromium (found or
# installed by scripts/chromium.sh) with dfx-bench/viewer-load.mjs: per run the ms from the navigation's start to the
# viewer's first complete draw (its performance mark 'dfx-first-draw'), where the time went (bytes read, script
# start, the script's phases) and the CPU time Chromium spent; then `uptime`. Needs node (Debian: nodejs).
# usage: dfx-bench/viewer-load-bench.sh [--run RUN] [--runs N] [--profile FILE.cpuprofile] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run="" runs=5 profile="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --run) run=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--run RUN] [--runs N] [--profile FILE.cpuprofile] [--out DIR]" >&2; exit 2 ;;
  esac
done
command -v node >/dev/null 2>&1 || { echo "dfx: needs node (apt-get install nodejs)" >&2; exit 1; }
out=${out:-$(mktemp -d)}
mkdir -p "$out"
if [ -z "$run" ]; then
  run="$out/flood"
  rm -rf "$run"
  "$root/dfx" record -w flood -o "$run" --quiet >/dev/null
fi
page="$out/$(basename "$run").html"
"$root/dfx" export "$run" --format html -o "$page"
mapfile -t tools < <(bash "$root/scripts/chromium.sh")
echo "page: $page ($(stat -c %s "$page") bytes); $("${tools[0]}" --version 2>/dev/null || true)"
uptime
node "$root/dfx-bench/viewer-load.mjs" "${tools[0]}" "$page" "$runs" ${profile:+"$profile"}
uptime
