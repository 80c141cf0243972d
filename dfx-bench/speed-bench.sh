#!/usr/bin/env bash
# Speed where users wait, side by side with the peer in one run, as one table of ratios (docs/benchmarks.md):
#
#   dfx-bench/speed-bench.sh [--runs N] [--file PERF_DATA] [--skip-record] [--skip-drain]
#
#   start-up     `./dfx --version` (answered by the launcher) and the same through the JVM against `java -version`,
#                and `./dfx script` against `perf script`
#                on the largest fixture (testdata/perf/irq-a.data, 54 KB)
#   large file   with --file: `dfx script` against `perf script`, `dfx dump` against `perf report -D`,
#                `dfx report` against `perf report --stdio` and `dfx export FILE --format chrome` against
#                `perf script` on FILE (a 100+ MB `perf record -e 'sched:*' -a` recording), with the output compared
#                byte for byte (perf report's closing tip, a random line, left out) and each side's peak RSS
#   recording    dev.dfx.bench.runtime.RecordOverhead on flood, scoped and attention: all five subsystems against none;
#                the rest of the recording (the command's wall less the workload's), also less the unrecorded run's rest
#   drain        DrainRatio: drained bytes against MemorySegment.copy measured around each slice, by wall time and per
#                CPU-second, 32 B records (8 x 16 KiB, dfx record's 8 x 64 KiB, 8 x 256 KiB buffers) and 4096 B
#                records (4 x 4 MiB as deps.submit, 64 and 256 KiB), and the same two copies over a bare two-thread
#                hand-off and on one thread
#
# Every command runs N times (default 5), the sides alternating (with --file, row by row, the side that goes first
# alternating too), so that a change of the machine's load hits both;
# the table gives medians and the spread (lowest-highest). Wall times are measured with GNU time(1) (Debian's
# `time`, installed with apt-get when missing, unless DFX_NO_INSTALL=1). Prints `uptime` before and after: on a
# shared machine compare only the ratios of one run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=scripts/jdk.sh
. scripts/jdk.sh
dfx_use_jdk

runs=5 file="" record=1 drain=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --file) file=$2; shift 2 ;;
    --skip-record) record=""; shift ;;
    --skip-drain) drain=""; shift ;;
    *) echo "usage: $0 [--runs N] [--file PERF_DATA] [--skip-record] [--skip-drain]" >&2; exit 2 ;;
  esac
done

if [ ! -x /usr/bin/time ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=$(command -v sudo || true); fi
  if [ -n "${DFX_NO_INSTALL:-}" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "dfx: this benchmark needs GNU time (/usr/bin/time); install it, e.g. apt-get install time" >&2
    exit 1
  fi
  $sudo apt-get install -y -q time >&2 || { $sudo apt-get update -q >&2 && $sudo apt-get install -y -q time >&2; }
fi
command -v perf >/dev/null 2>&1 || { echo "dfx: this benchmark needs perf (Debian: linux-perf)" >&2; exit 1; }

if [ ! -f dfx-bench/target/benchmarks.jar ] && { [ -n "$record" ] || [ -n "$drain" ]; }; then
  echo "dfx: building dfx-bench/target/benchmarks.jar" >&2
  ./test -q -pl dfx-bench -am -DskipTests >&2
fi
./dfx --version >/dev/null # builds the CLI jar and its AOT cache when they are missing or stale

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=()

# measure LABEL OUTFILE CMD...: one run; appends "wall_ms cpu_ms rss_kb" to $work/LABEL and keeps stdout in OUTFILE.
# Each run starts with no written data waiting for the disk (sync): the output of the run before (perf report -D and
# dfx dump write 1.4 GB for a 196 MB recording) would otherwise be written back by the kernel during this one, on the
# CPUs it runs on.
measure() {
  local label=$1 out=$2
  shift 2
  sync
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >"$out" 2>/dev/null || {
    echo "dfx: failed: $*" >&2
    exit 1
  }
  awk '{ printf "%.1f %.1f %d\n", $1 * 1000, ($2 + $3) * 1000, $4 }' "$work/t" >>"$work/$label"
}

# spread LABEL COLUMN: "median lowest highest" of one column of LABEL's runs
spread() {
  sort -n -k"$2" "$work/$1" | awk -v c="$2" '{ v[NR] = $c } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'
}

# side_by_side WHAT TARGET DFX_LABEL PEER_LABEL IDENTICAL: one row of the table from two labels' runs
side_by_side() {
  local what=$1 target=$2 dfx=$3 peer=$4 same=$5 d p dc pc dr pr
  read -r d dlo dhi < <(spread "$dfx" 1)
  read -r p plo phi < <(spread "$peer" 1)
  read -r dc _ _ < <(spread "$dfx" 2)
  read -r pc _ _ < <(spread "$peer" 2)
  read -r dr _ _ < <(spread "$dfx" 3)
  read -r pr _ _ < <(spread "$peer" 3)
  rows+=("$(awk -v what="$what" -v target="$target" -v same="$same" -v d="$d" -v dlo="$dlo" -v dhi="$dhi" -v dc="$dc" \
    -v dr="$dr" -v p="$p" -v plo="$plo" -v phi="$phi" -v pc="$pc" -v pr="$pr" 'BEGIN {
      printf "| %s | %.0f ms (%.0f-%.0f), cpu %.0f ms, %.0f MB | %.0f ms (%.0f-%.0f), cpu %.0f ms, %.0f MB | %.2fx | %s | %s |",
        what, d, dlo, dhi, dc, dr / 1024, p, plo, phi, pc, pr / 1024, d / p, same, target }')")
}

echo "load before: $(uptime)"
fixture=testdata/perf/irq-a.data
for ((i = 0; i < runs; i++)); do
  measure dfx-version "$work/o" ./dfx --version
  measure java-version "$work/o" "$JAVA_HOME/bin/java" -version
  # DFX_JAVA_OPTS set (to an option dfx uses anyway): the launcher does not answer --version itself, the JVM starts
  measure dfx-version-jvm "$work/o" env DFX_JAVA_OPTS=-XX:+UseSerialGC ./dfx --version
  measure dfx-script-small "$work/dfx-small.txt" ./dfx script -i "$fixture"
  measure perf-script-small "$work/perf-small.txt" perf script -i "$fixture"
done
same() { if cmp -s "$1" "$2"; then echo identical; else echo DIFFERENT; fi; }
# untip FILE: perf report --stdio's output without the tip it closes with, picked at random ("#", "# (Tip: ...)", "#",
# the last without a newline), or the note it prints in its place when it cannot find its tips file
untip() {
  awk '{ l[NR] = $0 } END {
    n = NR
    if (n >= 3 && l[n - 2] == "#" && l[n - 1] ~ /^# \((Tip: |Cannot load tips)/ && l[n] == "#") n -= 3
    for (i = 1; i <= n; i++) print l[i]
  }' "$1"
}
side_by_side 'start-up: `dfx --version` / `java -version`' '<= 100 ms' dfx-version java-version -
side_by_side 'start-up: `dfx --version` through the JVM / `java -version`' '-' dfx-version-jvm java-version -
side_by_side 'start-up: `script` on irq-a.data (54 KB)' '<= 150 ms' dfx-script-small perf-script-small \
  "$(same "$work/dfx-small.txt" "$work/perf-small.txt")"

if [ -n "$file" ]; then
  # pair DFX_LABEL DFX_OUT PEER_LABEL PEER_OUT -- DFX_CMD... -- PEER_CMD...: the two commands of one row, runs times,
  # one row after the other, the side that goes first alternating run by run. A command that comes right after a long
  # heavy one (perf report -D takes 20 s) was seen to run some 100 ms slower, whichever it was; so each row's runs
  # follow only that row's, and each side follows the other as often as itself.
  pair() {
    local dl=$1 dout=$2 pl=$3 pout=$4 i
    shift 5
    local dcmd=() pcmd=()
    while [ "$1" != -- ]; do dcmd+=("$1"); shift; done
    shift
    pcmd=("$@")
    for ((i = 0; i < runs; i++)); do
      if ((i % 2 == 0)); then
        measure "$dl" "$dout" "${dcmd[@]}"
        measure "$pl" "$pout" "${pcmd[@]}"
      else
        measure "$pl" "$pout" "${pcmd[@]}"
        measure "$dl" "$dout" "${dcmd[@]}"
      fi
    done
  }
  pair dfx-script "$work/dfx-script.txt" perf-script "$work/perf-script.txt" -- ./dfx script -i "$file" \
    -- perf script -i "$file"
  pair dfx-dump "$work/dfx-dump.txt" perf-dump "$work/perf-dump.txt" -- ./dfx dump -i "$file" \
    -- perf report -D -i "$file"
  pair dfx-report "$work/dfx-report.txt" perf-report "$work/perf-report.txt" -- ./dfx report -i "$file" \
    -- perf report --stdio -i "$file"
  pair dfx-export "$work/o" perf-script-export "$work/o" -- ./dfx export "$file" --format chrome -o "$work/trace.json" \
    -- perf script -i "$file"
  size="$(($(stat -c %s "$file") / 1000000)) MB"
  side_by_side "\`script\`, $size" '>= 2x faster, RSS <= perf' dfx-script perf-script \
    "$(same "$work/dfx-script.txt" "$work/perf-script.txt")"
  side_by_side "\`dump\` / \`perf report -D\`, $size" '>= 2x faster' dfx-dump perf-dump \
    "$(same "$work/dfx-dump.txt" "$work/perf-dump.txt")"
  untip "$work/perf-report.txt" >"$work/perf-report-untipped.txt"
  side_by_side "\`report\` / \`perf report --stdio\`, $size" '<= perf, RSS <= perf' dfx-report perf-report \
    "$(same "$work/dfx-report.txt" "$work/perf-report-untipped.txt")"
  side_by_side "\`export --format chrome\` / \`perf script\`, $size" '>= 2x faster' dfx-export perf-script-export -
fi

if [ -n "$record" ]; then
  # the JVM options dfx record runs with (its collector, compiler thresholds), so that the ratio is what a user gets
  # shellcheck source=scripts/jvm-options.sh
  . scripts/jvm-options.sh
  command_opts record
  # ten uncounted rounds first: with RecordOverhead's default three, C2 still compiled inside counted recordings
  java "${cmd_opts[@]}" -cp dfx-bench/target/benchmarks.jar \
    dev.dfx.bench.runtime.RecordOverhead "$runs" flood,scoped,attention --warmup 10 >"$work/record.txt"
  # columns: workload recording tasks wall_ms ratio cpu_ms ratio jit_ms gc_ms records stall_ms record_ms rest_cpu_ms
  # The rest of a recording also holds what an unrecorded run does outside its workload: dfx record's own set-up and
  # the built-in workload's check of its results (which runs beside the outputs); the second row takes the unrecorded
  # run's rest off, so it counts what recording adds there: the pipelines' set-up, stop, the outputs and the trace.
  awk '$1 ~ /^(flood|scoped|attention)$/ && $2 == "none" { off[$1] = $4; offcpu[$1] = $6; offrest[$1] = $12 - $4 }
       $1 ~ /^(flood|scoped|attention)$/ && $2 == "all" {
         printf "| recording %s: all five subsystems / none (workload wall) | %.1f ms, cpu %.0f ms | %.1f ms, cpu %.0f ms | %.2fx | - | <= 1.15x |\n", $1, $4, $6, off[$1], offcpu[$1], $5
         printf "| recording %s: the rest of the recording (set-up, outputs, trace, the workload check) / the workload | %.1f ms, cpu %.0f ms | %.1f ms | %.2fx | - | <= 1x |\n", $1, $12 - $4, $13, $4, ($12 - $4) / $4
         printf "| recording %s: the rest beyond an unrecorded run'"'"'s (%.1f ms: set-up, the workload check) / the workload | %.1f ms | %.1f ms | %.2fx | - | <= 1x |\n", $1, offrest[$1], $12 - $4 - offrest[$1], $4, ($12 - $4 - offrest[$1]) / $4
       }' "$work/record.txt" >"$work/record-rows.txt"
  mapfile -t -O "${#rows[@]}" rows <"$work/record-rows.txt"
fi

if [ -n "$drain" ]; then
  # DrainRatio: MemorySegment.copy measured right before and after every slice of each case, in one process (JMH's
  # DrainBandwidthBenchmark measures it once, in a trial of its own). Shapes: 32 B records in 8 x 16 KiB, dfx record's
  # user pool (8 x 64 KiB) and 8 x 256 KiB; 4096 B records in 4 x 4 MiB (deps.submit's 4 x 1024 records), then
  # 64 and 256 KiB. Columns of its "row" lines are named by its "header" line.
  java --enable-native-access=ALL-UNNAMED -Xmx1g -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.DrainRatio \
    "$runs" 500 >"$work/drain.txt" 2>"$work/drain.log"
  awk -F'\t' '$1 == "header" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 != "row" { next }
    { w = sprintf("drain, %d B records, %d x %d KiB buffers", $col["record_bytes"], $col["buffers"], $col["buffer_bytes"] / 1024)
      what = $2 == "drained" ? "drained / MemorySegment.copy" : $2 == "handoff" ? "bare two-thread hand-off / MemorySegment.copy (the ceiling)" : "both copies on one thread / MemorySegment.copy"
      target = $2 != "drained" ? "-" : $col["record_bytes"] == 32 ? ">= 30 %" : ">= 60 %"
      printf "| %s: %s | %.2f GB/s (%.2f-%.2f), %.2f CPUs; per CPU-s %.2f GB | %.2f GB/s; per CPU-s %.2f GB | %.0f %% (%.0f-%.0f); per CPU-s %.0f %% (%.0f-%.0f) | - | %s |\n",
        w, what, $col["gb_s"], $col["gb_s_low"], $col["gb_s_high"], $col["cpus"], $col["gb_cpu_s"], $col["copy_gb_s"],
        $col["copy_gb_cpu_s"], $col["ratio_pct"], $col["ratio_low"], $col["ratio_high"], $col["cpu_ratio_pct"],
        $col["cpu_ratio_low"], $col["cpu_ratio_high"], target }' "$work/drain.txt" >"$work/drain-rows.txt"
  mapfile -t -O "${#rows[@]}" rows <"$work/drain-rows.txt"
fi

echo "load after: $(uptime)"
echo
echo "| what | dfx: median (lowest-highest) | peer | dfx / peer | output | target |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
