#!/usr/bin/env bash
# The C producer benchmark side by side with LTTng-UST, in one command (dev.dfx.bench.region.CProducerCost --lttng):
#
#   scripts/c-producer-bench.sh [ROUNDS] [EVENTS] [BATCH]        (defaults 5 2000000 100)
#
# Installs Debian's liblttng-ust-dev, lttng-tools and babeltrace2 with apt-get when missing (as root, or with sudo;
# DFX_NO_INSTALL=1 forbids that), builds dfx-bench/target/benchmarks.jar when it is missing, starts an LTTng session
# daemon when none answers (and stops that one at the end, however the run ends), prints `uptime` before and after.
# The benchmark itself creates, and destroys, one user-space session per LTTng run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=scripts/jdk.sh
. scripts/jdk.sh
dfx_use_jdk

cc=$(bash scripts/cc.sh)
have_lttng() {
  command -v lttng >/dev/null 2>&1 && command -v lttng-sessiond >/dev/null 2>&1 \
    && command -v babeltrace2 >/dev/null 2>&1 \
    && echo '#include <lttng/tracepoint.h>' | "$cc" -E -x c - >/dev/null 2>&1
}

packages=(liblttng-ust-dev lttng-tools babeltrace2)
if ! have_lttng; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=$(command -v sudo || true); fi
  if [ -n "${DFX_NO_INSTALL:-}" ] || ! command -v apt-get >/dev/null 2>&1 \
    || { [ "$(id -u)" -ne 0 ] && [ -z "$sudo" ]; }; then
    echo "dfx: the LTTng comparison needs ${packages[*]}; install them, e.g. apt-get install ${packages[*]}" >&2
    exit 1
  fi
  echo "dfx: installing ${packages[*]}" >&2
  $sudo apt-get install -y -q "${packages[@]}" >&2 \
    || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q "${packages[@]}" >&2; }
  have_lttng || { echo "dfx: ${packages[*]} did not install" >&2; exit 1; }
fi

if [ ! -f dfx-bench/target/benchmarks.jar ]; then
  echo "dfx: building dfx-bench/target/benchmarks.jar" >&2
  ./test -q -pl dfx-bench -am -DskipTests >&2
fi

# The daemon of this user: root's writes its pid under /var/run/lttng, another user's under $LTTNG_HOME/.lttng.
pidfile=${LTTNG_HOME:-$HOME}/.lttng/lttng-sessiond.pid
if [ "$(id -u)" -eq 0 ]; then pidfile=/var/run/lttng/lttng-sessiond.pid; fi
started=""
stop_sessiond() {
  [ -n "$started" ] || return 0
  kill "$started" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$started" 2>/dev/null || return 0; sleep 0.1; done
  echo "dfx: lttng-sessiond $started did not stop within 10 s" >&2
}
if ! lttng list >/dev/null 2>&1; then
  lttng-sessiond --daemonize --no-kernel
  started=$(cat "$pidfile")
  trap stop_sessiond EXIT
  echo "dfx: started lttng-sessiond (pid $started)" >&2
fi

echo "load before: $(uptime)"
java --enable-native-access=ALL-UNNAMED -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.region.CProducerCost \
  --lttng "$@"
echo "load after: $(uptime)"
