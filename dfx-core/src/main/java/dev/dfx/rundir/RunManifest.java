package dev.dfx.rundir;

import dev.dfx.chunk.RunId;
import dev.dfx.pipeline.DepthSample;
import dev.dfx.pipeline.DropWindow;
import java.util.List;
import java.util.Map;

/**
 * {@code run.json}: the manifest of a run directory (docs/run-directory.md), format {@code dfx-run}, version
 * {@value #VERSION}. Written by {@link ManifestFile} with snake_case keys (so {@code commandLine} is
 * {@code command_line}); the schema is documented field by field in dfx-core/README.md. All times are
 * {@code System.nanoTime} nanoseconds (the records' clock, {@code clock.clock_freq_hz = 1e9}) unless the name says
 * otherwise; {@code start}/{@code end} are ISO-8601 wall-clock instants. Immutable.
 *
 * @param format      always {@code dfx-run}
 * @param version     schema version
 * @param runId       the run's identity, 32 hex digits ({@link RunId}), also written in the header of
 *                    each of its chunk files; null in a run.json written before run ids
 * @param status      {@code running} (written at the start, so a crash leaves it), {@code ok}, {@code interrupted}
 *                    or {@code failed}
 * @param reason      why the run is interrupted or failed, else null
 * @param commandLine the command line that made the run
 * @param config      what was asked for
 * @param clock       the records' clock
 * @param host        the machine
 * @param start       wall-clock start
 * @param end         wall-clock end (null while running)
 * @param wallNs      from the start of recording to the end of the exports, ns
 * @param workload    what the runtime ran
 * @param functions   function id (decimal text) to name
 * @param subsystems  per enabled subsystem: counts, reconcile, stalls, watermarks, lanes
 * @param outputs     files of the run directory and whether they were written
 * @param program     what {@code dfx record -- COMMAND} ran and who wrote into its region; null for a run of the
 *                    built-in runtime
 */
public record RunManifest(String format, int version, @OptionalField String runId, String status, String reason,
                          List<String> commandLine, Config config, Clock clock, Host host, String start, String end,
                          long wallNs, Workload workload, Map<String, String> functions,
                          List<SubsystemReport> subsystems, List<OutputFile> outputs, @OptionalField ProgramReport program) {
    /** The manifest format name. */
    public static final String FORMAT = "dfx-run";
    /** The schema version this code writes and reads. */
    public static final int VERSION = 1;
    /** File name in the run directory. */
    public static final String FILE = "run.json";
    /** The status of the run.json written at the start, until the final one replaces it. */
    public static final String RUNNING = "running";

    /**
     * @return the end of the run's time range on the records' clock, ns: {@code clock.origin_ns + wall_ns} (wall_ns
     *         runs to the end of the recording, so no record is later), or {@link Long#MAX_VALUE} when not known
     *         (run.json still says running)
     */
    public long timeRangeEndNs() {
        return status.equals(RUNNING) || wallNs <= 0 ? Long.MAX_VALUE : clock.originNs() + wallNs;
    }

    /** @return the report of subsystem {@code name}, or null when it was not recorded */
    public SubsystemReport subsystem(String name) {
        return subsystems.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * @param note why, appended to the reason
     * @return this manifest without the lanes' stall windows (each counted in {@code windows_omitted}) and drop
     *         windows (their records then have no time: {@link Lane#droppedUnplaced()}), and without the free- and
     *         ready-queue depth series, for a disk with no room for them
     */
    public RunManifest withoutWindows(String note) {
        List<SubsystemReport> reports = subsystems.stream().map(s -> new SubsystemReport(s.name(), s.total(),
                s.collected(), s.dropped(), s.droppedByCause(), s.silentLoss(), s.reconciled(), s.backstopExpiries(),
                s.stalls(), s.recordsPerSecond(), s.lanes().stream().map(Lane::withoutWindows).toList(),
                s.pools(), s.queues().stream().map(Queue::withoutSeries).toList(), s.errors(), s.errorCount(),
                s.details())).toList();
        return new RunManifest(format, version, runId, status, reason == null ? note : reason + "; " + note,
                commandLine, config, clock, host, start, end, wallNs, workload, functions, reports, outputs, program);
    }

    /** @return this manifest with another status, reason, end and outputs */
    public RunManifest finish(String newStatus, String newReason, String newEnd, long newWallNs,
                              List<OutputFile> newOutputs) {
        return new RunManifest(format, version, runId, newStatus, newReason, commandLine, config, clock, host, start,
                newEnd, newWallNs, workload, functions, subsystems, newOutputs, program);
    }

    /**
     * What was asked for.
     *
     * @param workload         the workload name ({@code -w})
     * @param subsystems       enabled subsystems ({@code -s})
     * @param swimlaneLevel    1..4
     * @param argsLevel        1..3
     * @param policy           {@code block} or {@code drop}
     * @param backstopNs       budget of one gate wait
     * @param stallThresholdNs a wait longer than this is a stall
     * @param schedulers       runtime scheduler threads
     * @param cores            runtime core threads
     * @param window           task window per ring
     * @param pmuEvents        counter names of the pmu records, in record order
     * @param pools            per buffer kind of an enabled subsystem, its pool
     */
    public record Config(String workload, List<String> subsystems, int swimlaneLevel, int argsLevel, String policy,
                         long backstopNs, long stallThresholdNs, int schedulers, int cores, int window,
                         List<String> pmuEvents, List<Pool> pools) {
    }

    /**
     * One buffer kind's pool.
     *
     * @param kind             {@code subsystem.kind}, e.g. {@code swimlane.core-task}
     * @param buffersPerLane   buffers per lane
     * @param recordsPerBuffer records per buffer
     * @param recordSize       bytes per record
     * @param lanes            lanes of the kind
     */
    public record Pool(String kind, int buffersPerLane, int recordsPerBuffer, int recordSize, int lanes) {
        /**
         * @return the subsystem whose records the pool holds: {@code kind} up to its dot, or all of it when it has
         *         none (a program's one pool, {@code user}, is named after its subsystem alone)
         */
        public String subsystem() {
            int dot = kind.indexOf('.');
            return dot < 0 ? kind : kind.substring(0, dot);
        }

        /**
         * @return the buffer kind's name, as a chunk file's kind table and {@code subsystems[].lanes[].kind} give it:
         *         {@code kind} after its dot, or all of it when it has none
         */
        public String bufferKind() {
            return kind.substring(kind.indexOf('.') + 1);
        }
    }

    /**
     * The clock of every record and of the stall windows.
     *
     * @param source          {@value #NANO_TIME}
     * @param clockFreqHz     ticks per second ({@value #NANO_TIME_HZ}: ns)
     * @param originNs        the clock when recording started
     * @param epochNsAtOrigin the wall clock (ns since 1970) at {@code originNs}, to place the run in real time;
     *                        {@value #EPOCH_UNKNOWN} when not known
     */
    public record Clock(String source, long clockFreqHz, long originNs, long epochNsAtOrigin) {
        /** The source of every record's timestamp. */
        public static final String NANO_TIME = "System.nanoTime";
        /** Its ticks per second: nanoseconds. */
        public static final long NANO_TIME_HZ = 1_000_000_000L;
        /** {@code epoch_ns_at_origin} of a run whose wall-clock start is not known. */
        public static final long EPOCH_UNKNOWN = -1;

        /** @return the {@link #NANO_TIME} clock with origin {@code originNs} */
        public static Clock nanoTime(long originNs, long epochNsAtOrigin) {
            return new Clock(NANO_TIME, NANO_TIME_HZ, originNs, epochNsAtOrigin);
        }
    }

    /**
     * The machine.
     *
     * @param hostname    host name
     * @param os          operating system name and version
     * @param arch        CPU architecture
     * @param cpus        available processors
     * @param memoryBytes physical memory
     * @param java        Java runtime version
     */
    public record Host(String hostname, String os, String arch, int cpus, long memoryBytes, String java) {
    }

    /**
     * What the runtime ran.
     *
     * @param name   workload name
     * @param tasks  tasks submitted (the workload's expected count when the run ended early)
     * @param wallNs workload run time, ns (program start to last task retired, or to the cancel)
     * @param check  {@code ok}, {@code skipped} (run did not finish) or the first wrong element
     */
    public record Workload(String name, long tasks, long wallNs, String check) {
    }

    /**
     * One subsystem's counts (total / collected / dropped and silent loss, as docs/glossary.md defines them), diagnostics and lanes.
     *
     * @param name             subsystem name
     * @param total            records attempted
     * @param collected        records delivered to the chunk file
     * @param dropped          records dropped, all causes
     * @param droppedByCause   {@code push_gate}, {@code pop_gate}, {@code degraded}, {@code collector},
     *                         {@code producer_exited}, {@code stopped}
     * @param silentLoss       {@code total - collected - dropped}; not 0 is an error
     * @param reconciled       every lane has zero silent loss
     * @param backstopExpiries gate waits that ran their whole backstop
     * @param stalls           stalls over all lanes
     * @param recordsPerSecond collected records per second of workload time
     * @param lanes            per lane
     * @param pools            per buffer kind: lowest free-queue depth seen and buffers allocated
     * @param queues           per ready queue (one per writer thread): highest backlog seen
     * @param errors           host errors (at most 100 kept)
     * @param errorCount       all host errors
     * @param details          subsystem-specific facts (e.g. {@code truncated_chains} of deps)
     */
    public record SubsystemReport(String name, long total, long collected, long dropped,
                                  Map<String, Long> droppedByCause, long silentLoss, boolean reconciled,
                                  long backstopExpiries, Stalls stalls, double recordsPerSecond, List<Lane> lanes,
                                  List<PoolWatermark> pools, List<Queue> queues, List<String> errors, long errorCount,
                                  Map<String, Object> details) {
    }

    /**
     * One lane.
     *
     * @param lane             pipeline lane index
     * @param kind             buffer kind name, e.g. {@code core-task}
     * @param role             writer thread role: {@code core}, {@code scheduler}, {@code orchestrator}
     * @param instance         which core or scheduler (0 for the orchestrator)
     * @param total            records attempted
     * @param collected        records delivered
     * @param droppedByCause   drops by cause
     * @param silentLoss       {@code total - collected - dropped}
     * @param backstopExpiries gate waits that ran their whole backstop
     * @param stalls           the lane's stalls with their windows
     * @param minFreeDepth     fewest buffers left in the lane's free queue after a take
     * @param collectNs        time the lane's collector calls took in all, ns (absent in runs recorded before it was
     *                         kept)
     * @param collectLongestNs the lane's longest single collector call, ns: the lane whose collector was slow has the
     *                         largest (absent in runs recorded before it was kept)
     * @param drops            when the lane's drops happened (absent in runs recorded before it was kept: their
     *                         drops have no time)
     * @param freeDepth        the lane's free-queue depth over time, as the host saw it ({@link DepthSample}; absent
     *                         in runs recorded before it was kept)
     */
    public record Lane(int lane, String kind, String role, int instance, long total, long collected,
                       Map<String, Long> droppedByCause, long silentLoss, long backstopExpiries, Stalls stalls,
                       long minFreeDepth, @OptionalField Long collectNs, @OptionalField Long collectLongestNs,
                       @OptionalField Drops drops, @OptionalField List<DepthSample> freeDepth) {
        /** @return this lane with its stall windows counted as omitted and no drop windows */
        Lane withoutWindows() {
            Stalls s = new Stalls(stalls.count(), stalls.totalNs(), stalls.longestNs(), List.of(),
                    stalls.windowsOmitted() + stalls.windows().size());
            return new Lane(lane, kind, role, instance, total, collected, droppedByCause, silentLoss, backstopExpiries,
                    s, minFreeDepth, collectNs, collectLongestNs, drops == null ? null : new Drops(drops.runs(),
                    List.of()), null);
        }

        /** @return records dropped, all causes */
        public long dropped() {
            return droppedByCause.values().stream().mapToLong(Long::longValue).sum();
        }

        /** @return the lane's free-queue depth series, oldest first; empty when none was kept */
        public List<DepthSample> freeDepthSamples() {
            return freeDepth == null ? List.of() : freeDepth;
        }

        /** @return the lane's drop windows, oldest first; empty when none were kept */
        public List<DropWindow> dropWindows() {
            return drops == null ? List.of() : drops.windows();
        }

        /**
         * @return records dropped whose time is in no drop window: those a producer in another process dropped
         *         itself (it does not tell the host when), those of a run.json without drop windows, none otherwise
         */
        public long droppedUnplaced() {
            return Math.max(0, dropped() - dropWindows().stream().mapToLong(DropWindow::count).sum());
        }
    }

    /**
     * When a lane's drops happened.
     *
     * @param runs    runs of consecutive drops recorded (more than {@code windows} when overlapping runs were joined
     *                or the cap was reached)
     * @param windows each run of consecutive drops: {@code start_ns} and {@code end_ns} of its first and last drop and
     *                the {@code count} of records lost; ordered and disjoint
     */
    public record Drops(long runs, List<DropWindow> windows) {
    }

    /**
     * Stalls (gate waits longer than the threshold).
     *
     * @param count          how many
     * @param totalNs        summed duration
     * @param longestNs      the longest
     * @param windows        each stall's window (a lane's own, oldest first; empty in a subsystem total)
     * @param windowsOmitted stalls whose window was not kept
     */
    public record Stalls(long count, long totalNs, long longestNs, List<Window> windows, long windowsOmitted) {
    }

    /**
     * One stall window.
     *
     * @param startNs wait start
     * @param endNs   wait end
     */
    public record Window(long startNs, long endNs) {
    }

    /**
     * A pool's watermark and host-side buffer flow.
     *
     * @param kind             buffer kind name
     * @param minFreeDepth     lowest free-queue depth seen on any lane of the kind
     * @param buffersAllocated buffers allocated (startup fill plus top-ups)
     * @param freeQueueSlots   slots of each lane's free queue ({@code SLOT_COUNT}); null in older run.json
     * @param flow             buffers handed to the host, their recycle latency W and collector time; null in
     *                         older run.json
     */
    public record PoolWatermark(String kind, long minFreeDepth, long buffersAllocated,
                                @OptionalField Integer freeQueueSlots, @OptionalField Flow flow) {
    }

    /**
     * The host-side flow of one pool: Little's law's λ and W (dfx-core {@code PoolStats}).
     *
     * @param buffersDrained   buffers drain shards took off ready queues
     * @param buffersPerSecond λ: {@code buffers_drained} per second of workload time (as {@code records_per_second})
     * @param buffersRecycled  buffers whose recycle latency was measured (back in a recycled lane)
     * @param recycleMeanNs    W: mean recycle latency, from the drain shard taking a buffer off a ready queue to
     *                         the replenisher putting it back in a recycled lane, ns (0 when none came back)
     * @param recycleMaxNs     the longest recycle latency, ns
     * @param collectNs        collector call time spent on the pool's buffers, summed, ns
     * @param elapsedNs        the pipeline's running time, start to stop, ns
     * @param peakInFlight     the most buffers one lane had out at once (taken from its free queue, not yet back in a
     *                         recycled lane)
     */
    public record Flow(long buffersDrained, double buffersPerSecond, long buffersRecycled, long recycleMeanNs,
                       long recycleMaxNs, long collectNs, long elapsedNs, long peakInFlight) {
    }

    /**
     * A ready queue's watermark and backlog over time.
     *
     * @param role          writer thread role
     * @param instance      which thread
     * @param capacity      entries (one sacrificed)
     * @param maxReadyDepth highest backlog seen
     * @param readyDepth    the queue's backlog over time, as the host saw it ({@link DepthSample}, in entries; absent
     *                      in runs recorded before it was kept)
     */
    public record Queue(String role, int instance, int capacity, long maxReadyDepth,
                        @OptionalField List<DepthSample> readyDepth) {
        /** @return the queue's backlog series, oldest first; empty when none was kept */
        public List<DepthSample> readyDepthSamples() {
            return readyDepth == null ? List.of() : readyDepth;
        }

        /** @return this queue without its backlog series */
        Queue withoutSeries() {
            return new Queue(role, instance, capacity, maxReadyDepth, null);
        }
    }
}
