#!/usr/bin/env bash
# Prints two lines, the paths of a headless-capable Chromium and of its chromedriver, for the HTML viewer's browser
# tests: $DFX_CHROMIUM / $DFX_CHROMEDRIVER, else chromium (or chromium-browser, google-chrome) and chromedriver on
# PATH or in /usr/lib/chromium. On Debian without them, installs chromium and chromium-driver with apt-get (as root,
# or with sudo), as scripts/cc.sh does for gcc; DFX_NO_INSTALL=1 forbids that. Exits 1 with one line on stderr when
# they cannot be had.
set -euo pipefail

first() {
  local c
  for c in "$@"; do
    [ -n "$c" ] || continue
    if [ -x "$c" ] && [ ! -d "$c" ]; then echo "$c"; return 0; fi
    if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
  done
  return 1
}

find_both() {
  local browser driver
  browser=$(first "${DFX_CHROMIUM:-}" chromium chromium-browser google-chrome /usr/lib/chromium/chromium) || return 1
  driver=$(first "${DFX_CHROMEDRIVER:-}" chromedriver /usr/lib/chromium/chromedriver) || return 1
  printf '%s\n%s\n' "$browser" "$driver"
}

if find_both; then exit 0; fi
if [ -z "${DFX_NO_INSTALL:-}" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else sudo="none"; fi
  fi
  if [ "$sudo" != "none" ]; then
    echo "dfx: no chromium and chromedriver found; installing chromium and chromium-driver" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -q chromium chromium-driver >&2 \
      || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q chromium chromium-driver >&2; } || true
    if find_both; then exit 0; fi
  fi
fi
echo "dfx: needs chromium and chromedriver for the HTML viewer's browser tests; install them, e.g. apt-get install chromium chromium-driver" >&2
exit 1
