# shellcheck shell=bash
# The JVM options of each dfx command. Sourced by ./dfx, which starts every command and trains its AOT caches with
# them, and by dfx-bench/speed-bench.sh, so that a benchmark of what a command does (RecordOverhead for dfx record)
# runs its JVM as the launcher would.
#
# The JVM options of every dfx run, the training run included (a cache is only valid for the options it was made
# with). Serial GC: the commands people wait for are single-threaded readers and writers on small heaps, which
# start faster and stay smaller without G1's threads and regions; dfx record's collectors allocate little.
# -XX:-UsePerfData: no hsperfdata file to create and map at start-up (jps and jstat do not list dfx; jcmd PID works).
# -XX:CompileThresholdScaling=4: a method is compiled after four times the calls and loops of the JVM's default. A
# small command (dfx script of a 54 KB file) asked for some 575 compilations, each a hand-off to a compiler thread
# from the main thread; with 4: 15 % less process CPU and 10 ms less on the main thread, while a 155 MB file's script
# and export stayed within the noise of their runs (docs/benchmarks.md).
base_opts=(--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:-UsePerfData -XX:CompileThresholdScaling=4)
# dfx script and dump stream a file: what they allocate per record dies young, except the records waiting in the
# reordering queue (a round or two). A small young generation keeps the resident size near the live data (the default
# is a third of an initial heap of 1/64 of the machine's memory, all of it touched between collections), with survivor
# spaces that hold the queue, and what outlives two collections is old at once instead of being copied back and forth.
# The heap's maximum stays the JVM's default. report keeps more in flight (the records read ahead on their own thread
# and the reordering queue, each sample's resolution) while what it keeps for good (its lines, the symbol tables) is
# made once: with 32 MB its young collections copied 8 MB each into fresh old memory, 60 collections and 590-830 ms
# of pauses on a 192 MB sched recording; with 96 MB and the heap in huge pages (below) 20 collections and 51-115 ms,
# 194 MB resident against 248 MB (perf report: 208 MB). export streams its trace (no per-event map or string beyond
# the event's own text) but keeps as much in flight: the reordering queue and the trace batches its writer thread has
# not taken yet, 6-8 MB live at each young collection of a 196 MB sched recording. With 32 MB: 52 collections and
# 166-171 ms of pauses, the first two 25-30 ms each (the survivor spaces' first touch, 4 KiB page by page); with
# report's 96 MB in huge pages: 17 collections and 62-76 ms, 1.594 against 1.664 s of wall (median of 20 alternating
# runs), 128 against 85 MB resident (perf script: 210 MB). An AOT cache is valid whatever the heap sizes.
# Sets cmd_opts to the JVM options of the subcommand named.
command_opts() {
  cmd_opts=("${base_opts[@]}")
  case "${1:-}" in
    script | dump) cmd_opts+=(-Xmn32m -XX:SurvivorRatio=2 -XX:MaxTenuringThreshold=2) ;;
    report | export) cmd_opts+=(-Xmn96m -XX:SurvivorRatio=2 -XX:MaxTenuringThreshold=2) ;;
  esac
  # export, script and report: C2 inlines a hot callee of up to 100 bytecodes (the default is 325). The walk's
  # per-record method and the trace writer's loop otherwise inline the record decoder, the tracepoint printer and the
  # JSON generator whole, and compiling those few giant methods was a third of export's CPU time (on the 2-CPU machine
  # at load 13-16, the C2 thread 1.1-1.4 s of CPU against 0.6-0.8 s with the limit), while the compiled code ran no
  # faster (main thread 1.6-1.7 s against 1.2-1.6 s). script's per-sample printer likewise: on a 154 MB sched
  # recording its C2 thread took 0.34-0.39 s against 0.62-0.66 s, the main thread the same within the runs' spread
  # (dfx-bench/README.md). report of a 196 MB sched recording: 1.38 s of CPU against 1.19 s with the limit, output
  # identical (docs/benchmarks.md).
  case "${1:-}" in
    export | script | report) cmd_opts+=(-XX:FreqInlineSize=100) ;;
  esac
  # dfx record, report and export: -XX:+UseTransparentHugePages, the heap in 2 MiB pages where the kernel gives them on
  # request. A fresh heap's first touch of each 4 KiB page is a page fault; on a virtual machine one can cost 10 µs or
  # more (on the 2-CPU VM a fresh JVM took 1.1 s to fill 400 MB of heap, 0.5-0.7 s in huge pages). record fills a
  # fresh heap with the workload's tensors and the outputs (`dfx record -w flood`'s command 2.8-2.9 s against 2.1-2.5 s,
  # its workload 1.17-1.40 s against 1.08-1.23 s); report's young collections copy into old memory not touched before
  # (their pauses 590-830 ms against 365-490 ms with 32 MB young, and see above); export's likewise (above). Not for
  # script and dump, whose small young generation is reused and whose collections copy little (pauses 45-100 ms either
  # way, wall the same), with 6-10 MB more resident. Only where the kernel's mode is madvise or always: with never the
  # JVM would print a warning.
  if [ "${1:-}" = record ] || [ "${1:-}" = report ] || [ "${1:-}" = export ]; then
    case "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" in
      *"[madvise]"* | *"[always]"*) cmd_opts+=(-XX:+UseTransparentHugePages) ;;
    esac
  fi
}
