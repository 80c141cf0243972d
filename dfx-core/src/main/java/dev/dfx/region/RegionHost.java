package dev.dfx.region;

import dev.dfx.error.Count;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.pipeline.LaneStats;
import dev.dfx.pipeline.Pipeline;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.pipeline.RegionLayout;
import dev.dfx.pipeline.StallWindow;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The host side of a region (docs/region-abi.md): creates the region file (mode 0600) for a {@link RegionSpec}, runs the
 * lossless pipeline on it (drain shards, collectors, replenisher), and reports which processes and threads
 * attached and how each lane stands. Producers in other processes find the file through the environment variable
 * {@value #ENV} and write into it with {@code include/dfx.h} (ABI: {@code docs/region-abi.md}).
 *
 * <pre>{@code
 * try (RegionHost host = RegionHost.start(runDir.resolve("region.dfxr"), RegionSpec.builder().build(), collector)) {
 *     ProcessBuilder pb = new ProcessBuilder(command);
 *     pb.environment().putAll(host.environment());
 *     int status = pb.start().waitFor();
 *     while (host.producersAlive()) Thread.sleep(10);   // children that inherited the region
 *     RegionStats s = host.stop();                        // collects everything, recovers dead producers' buffers
 * }
 * }</pre>
 *
 * <p>The host trusts nothing a producer wrote: every index, count, handle and string offset is checked before use;
 * a lane whose producer wrote one out of bounds is marked {@link LaneState#FAILED} with the reason and no longer
 * followed. A collector resolves the names in a lane's user events with {@link #strings(int)}; timestamps in TSC
 * ticks convert with {@link #tscCalibration()}. Each lane's stall windows, which its producer writes to the lane's
 * stall ring, are copied before each of its buffers reaches the collector and at every snapshot ({@link StallRing}),
 * so {@link #stats()} carries them as the pipeline's own lanes carry theirs; {@link RegionLane#name()} is the thread
 * name the producer wrote in the lane table.
 *
 * <p>Thread-safety: every method from any thread. {@link #stop()} once the producers have ended (a producer still
 * writing at stop loses what it writes after it, counted as silent loss or {@code producer_exited}).
 */
public final class RegionHost implements AutoCloseable {
    /** The environment variable naming the region file, read by producers. */
    public static final String ENV = "DFX_REGION";

    private final Path file;
    /** The file's length when the host started: every buffer block lies below it (header field fileBytes). */
    private final long fileBytes;
    private final RegionSpec spec;
    private final Pipeline pipeline;
    private final RegionLayout layout;
    private final Arena arena;
    private final MemorySegment region;
    private final StringTable[] strings;
    private final StallRing[] stallRings;
    private final String[] poolOfLane;
    private volatile TscCalibration tsc;
    private volatile String tscProblem;
    /** Why the file can no longer be trusted ({@link #cutShort()}), or null while it is whole. */
    private volatile String cutShort;
    private final Object cutShortLock = new Object();
    private RegionStats finalStats;
    /** Each lane's attach state just before stop moved it (stop closes flushed and dead lanes alike), or null. */
    private int[] attachAtStop;
    private volatile boolean closed;
    /** Guards reading the TSC calibration, apart from this host's monitor (see {@link #tscCalibration()}). */
    private final Object tscLock = new Object();

    private RegionHost(Path file, RegionSpec spec, Pipeline pipeline) throws IOException {
        this.file = file;
        this.spec = spec;
        this.pipeline = pipeline;
        PipelineConfig c = pipeline.config();
        RegionHeader header = RegionHeader.read(file);
        this.layout = header.layout();
        this.fileBytes = header.fileBytes();
        this.arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            this.region = ch.map(FileChannel.MapMode.READ_ONLY, 0, layout.regionBytes(), arena);
        }
        this.strings = new StringTable[layout.lanes()];
        this.stallRings = new StallRing[layout.lanes()];
        this.poolOfLane = new String[layout.lanes()];
        for (PipelineConfig.LaneSpec l : c.lanes()) {
            strings[l.lane()] = new StringTable(l.lane(),
                    region.asSlice(layout.stringTable(l.lane()), layout.stringTableBytes()));
            stallRings[l.lane()] = new StallRing(l.lane(), c.maxStallWindows());
            poolOfLane[l.lane()] = c.pools().get(l.kind()).name();
        }
    }

    /**
     * Creates the region file (replacing one that exists; mode 0600) with every buffer block, and starts the host.
     *
     * @param file      where the region lives (e.g. in the run directory, or under /dev/shm)
     * @param spec      its shape
     * @param collector receives every drained buffer (see {@link Collector}); a buffer's lane is a lane of
     *                  {@link #stats()}
     * @return the running host
     * @throws UncheckedIOException when the file cannot be created or mapped
     */
    public static RegionHost start(Path file, RegionSpec spec, Collector collector) {
        PipelineConfig config = spec.pipelineConfig(file, "region");
        StallPolling polling = new StallPolling(collector);
        Pipeline p = Pipeline.start(config, polling);
        try {
            RegionHost h = new RegionHost(file, spec, p);
            polling.host = h;
            return h;
        } catch (IOException e) {
            p.close();
            throw new UncheckedIOException("cannot map region " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            p.close();
            throw e;
        }
    }

    /**
     * Copies the stall windows of a lane's ring before its buffer goes to the collector: a lane that stalls writes a
     * window per stall, and the buffers that follow a stall reach the host soon after it, well before the ring of
     * {@value RegionLayout#STALL_RING_WINDOWS} windows wraps.
     */
    private static final class StallPolling implements Collector {
        private final Collector collector;
        private volatile RegionHost host;

        StallPolling(Collector collector) {
            this.collector = collector;
        }

        @Override
        public void accept(DrainedBuffer b) throws Exception {
            RegionHost h = host;
            if (h != null) {
                h.pollStalls(b.lane());
            }
            collector.accept(b);
        }
    }

    /** Copies lane {@code lane}'s new stall windows out of the region, while it is mapped. */
    private void pollStalls(int lane) {
        StallRing r = lane >= 0 && lane < stallRings.length ? stallRings[lane] : null;
        if (r != null && !closed) {
            r.poll(region, layout);
        }
    }

    /** @return the region file */
    public Path file() {
        return file;
    }

    /** @return the spec it was created with */
    public RegionSpec spec() {
        return spec;
    }

    /** @return the layout of the region (offsets of every table) */
    public RegionLayout layout() {
        return layout;
    }

    /** @return the variables a producer process needs: {@value #ENV} = the file's absolute path */
    public Map<String, String> environment() {
        return Map.of(ENV, file.toAbsolutePath().toString());
    }

    /**
     * @param lane a lane index (as in {@link dev.dfx.pipeline.DrainedBuffer#lane()})
     * @return the lane's string table (also after {@link #stop()}: it keeps what it read)
     * @throws IllegalArgumentException when there is no such lane
     */
    public StringTable strings(int lane) {
        if (lane < 0 || lane >= strings.length) {
            throw new IllegalArgumentException("region " + file + ": no lane " + lane + " (lanes 0.."
                    + (strings.length - 1) + ")");
        }
        return strings[lane];
    }

    /**
     * @return the TSC calibration a producer published in the header, once it is complete and plausible (read once,
     *         then kept: a later overwrite does not change it)
     */
    public Optional<TscCalibration> tscCalibration() {
        // Collector threads call this while stop() holds this host's monitor and waits for them to drain, so the
        // calibration has a lock of its own; close() unmaps only after stop() has drained every collector.
        synchronized (tscLock) {
            if (tsc == null && !closed && tscProblem == null
                    && Fields.intAcquire(region, RegionLayout.H_TSC_STATE) == 2) {
                try {
                    tsc = TscCalibration.of(region.get(Fields.LONG, RegionLayout.H_TSC_TICKS0),
                            region.get(Fields.LONG, RegionLayout.H_TSC_NS0), region.get(Fields.LONG,
                                    RegionLayout.H_TSC_TICKS1), region.get(Fields.LONG, RegionLayout.H_TSC_NS1));
                } catch (IllegalArgumentException e) {
                    tscProblem = e.getMessage();
                }
            }
            return Optional.ofNullable(tsc);
        }
    }

    /** @return why the published TSC calibration was refused, if it was */
    public Optional<String> tscProblem() {
        return Optional.ofNullable(tscProblem);
    }

    /**
     * Checks that the region file still has every byte the host mapped. A producer may truncate the file (by mistake,
     * or a hostile one): a mapped read past its new end faults (SIGBUS, thrown as {@link InternalError}), and the
     * records, lane counters and queues it held are gone. A file found short gets its length back, the lost bytes
     * reading as zeros, so that no later read of the host faults and {@link #stop()} still ends the recording (a lane
     * whose counters now read zero then fails). Any thread; costs one {@code stat} of the file.
     *
     * @return why the region can no longer be trusted, naming the file, the length it was cut to and the length it
     *         needs, from the first check that found it short on; empty while it is whole
     */
    public Optional<String> cutShort() {
        synchronized (cutShortLock) {
            if (cutShort != null) {
                return Optional.ofNullable(cutShort);
            }
            long size;
            try {
                size = Files.size(file);
            } catch (IOException e) {
                return Optional.empty(); // removed or renamed: the mapping still holds every byte
            }
            if (size < fileBytes) {
                cutShort = "region file " + file + " was cut to " + size + " bytes while recording, below the "
                        + fileBytes + " bytes dfx made it: a producer truncated it, and the records it held then are"
                        + " lost; the records drained before are kept";
                try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                    f.setLength(fileBytes);
                } catch (IOException e) {
                    cutShort += " (its length could not be given back: " + e.getMessage() + ")";
                }
            }
            return Optional.ofNullable(cutShort);
        }
    }

    /** @return every process that attached (process table and lane owners), with whether it is alive now */
    public synchronized List<RegionProcess> processes() {
        if (finalStats != null) {
            return finalStats.processes();
        }
        return snapshot(pipeline.stats()).processes();
    }

    /** @return true while any process that attached is alive */
    public boolean producersAlive() {
        return processes().stream().anyMatch(RegionProcess::alive);
    }

    /** @return a live snapshot, or the final one after {@link #stop()} */
    public synchronized RegionStats stats() {
        if (finalStats != null) {
            return finalStats;
        }
        return snapshot(pipeline.stats());
    }

    /**
     * Stops the host in the pipeline's order: drains every published buffer, recovers each lane's current buffer
     * up to its committed count, and reconciles. Idempotent.
     *
     * @return the final snapshot
     */
    public synchronized RegionStats stop() {
        if (finalStats == null) {
            tscCalibration();
            attachAtStop = new int[layout.lanes()];
            for (int l = 0; l < attachAtStop.length; l++) {
                attachAtStop[l] = Fields.intAcquire(region, layout.lane(l) + RegionLayout.L_ATTACH);
            }
            PipelineStats s = pipeline.stop();
            finalStats = snapshot(s); // polls the stall rings once more: every producer has ended or was revoked
        }
        return finalStats;
    }

    /** {@link #stop()}, then unmaps the region; the file stays (the caller deletes it). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            stop();
            for (StringTable t : strings) {
                if (t != null) {
                    t.detach();
                }
            }
        } finally {
            closed = true;
            pipeline.close();
            arena.close();
        }
    }

    private RegionStats snapshot(PipelineStats stats) {
        PipelineStats s = withStallWindows(stats);
        Map<Long, List<Integer>> lanesOf = new LinkedHashMap<>();
        Map<Long, Boolean> detached = new LinkedHashMap<>();
        for (int p = 0; p < layout.processSlots(); p++) {
            long e = layout.processEntry(p);
            long pid = Integer.toUnsignedLong(Fields.intAcquire(region, e + RegionLayout.P_PID));
            if (pid == 0) {
                continue;
            }
            lanesOf.putIfAbsent(pid, new ArrayList<>());
            int state = region.get(Fields.INT, e + RegionLayout.P_STATE);
            detached.merge(pid, state == RegionLayout.PROCESS_DETACHED, Boolean::logicalAnd);
        }
        Map<Long, Boolean> alive = new LinkedHashMap<>();
        List<RegionLane> lanes = new ArrayList<>();
        for (LaneStats l : s.lanes()) {
            long owner = Fields.longAcquire(region, layout.laneEntry(l.lane()) + RegionLayout.T_OWNER);
            long pid = owner >>> 32;
            long tid = owner & 0xFFFFFFFFL;
            int attach = Fields.intAcquire(region, layout.lane(l.lane()) + RegionLayout.L_ATTACH);
            int before = attachAtStop == null ? attach : attachAtStop[l.lane()];
            // detached, or closed by stop when it had not been attached then (a dead producer's lane is closed too)
            boolean flushed = attach == RegionLayout.LANE_DETACHED
                    || attach == RegionLayout.LANE_CLOSED && before != RegionLayout.LANE_ATTACHED;
            LaneState state;
            String reason = "";
            if (l.failed()) {
                state = LaneState.FAILED;
                reason = l.failure();
            } else if (owner == 0) {
                state = LaneState.UNUSED;
            } else if (flushed) {
                state = LaneState.CLOSED;
            } else if (alive.computeIfAbsent(pid, RegionHost::isAlive)) {
                // closed by stop while alive: it detached during stop's wait; otherwise attached (or revoked: still
                // writing when stop's wait ended)
                state = attach == RegionLayout.LANE_CLOSED ? LaneState.CLOSED : LaneState.ACTIVE;
            } else if (Boolean.TRUE.equals(detached.get(pid))) {
                state = LaneState.CLOSED;  // the process flushed every lane at exit; this thread was still running
            } else {
                state = LaneState.PRODUCER_EXITED;
                reason = "producer exited (pid " + pid + ")"
                        + (l.droppedExited() > 0 ? "; " + Count.of(l.droppedExited(), "record")
                                + " counted but not committed" : "");
            }
            if (owner != 0) {
                lanesOf.computeIfAbsent(pid, k -> new ArrayList<>()).add(l.lane());
            }
            lanes.add(new RegionLane(l.lane(), poolOfLane[l.lane()], pid, tid,
                    owner == 0 ? "" : threadName(l.lane()), state, reason, l));
        }
        List<RegionProcess> processes = new ArrayList<>();
        for (Map.Entry<Long, List<Integer>> e : lanesOf.entrySet()) {
            long total = 0;
            long collected = 0;
            long dropped = 0;
            for (int lane : e.getValue()) {
                LaneStats l = s.lanes().get(lane);
                total += l.total();
                collected += l.collected();
                dropped += l.dropped();
            }
            processes.add(new RegionProcess(e.getKey(), alive.computeIfAbsent(e.getKey(), RegionHost::isAlive),
                    detached.getOrDefault(e.getKey(), false), e.getValue(), total, collected, dropped));
        }
        long unlaned = region.get(Fields.LONG, RegionLayout.H_UNLANED_DROPPED);
        long exit = region.get(Fields.LONG, RegionLayout.H_EXIT_DROPPED);
        return new RegionStats(s, lanes, processes, Math.max(0, unlaned), Math.max(0, exit),
                Optional.ofNullable(tsc));
    }

    /**
     * @return the pipeline's stats with each lane's stall windows as its producer wrote them to the lane's stall ring
     *         (the pipeline's own stall log holds only the windows of producers in this process)
     */
    private PipelineStats withStallWindows(PipelineStats s) {
        List<LaneStats> lanes = new ArrayList<>(s.lanes().size());
        for (LaneStats l : s.lanes()) {
            StallRing r = stallRings[l.lane()];
            if (r == null) {
                lanes.add(l);
                continue;
            }
            pollStalls(l.lane());
            List<StallWindow> windows = new ArrayList<>(l.stallWindows());
            windows.addAll(r.windows());
            lanes.add(new LaneStats(l.lane(), l.kind(), l.producer(), l.total(), l.collected(), l.droppedPushGate(),
                    l.droppedPopGate(), l.droppedDegraded(), l.droppedCollector(), l.droppedExited(),
                    l.droppedStopped(), l.backstopExpiries(), l.stallCount(), l.stallTotalNs(), l.stallLongestNs(),
                    windows, l.stallWindowsOmitted() + r.omitted(), l.minFreeDepth(), l.degraded(), l.failure(),
                    l.collectNs(), l.collectLongestNs(), l.dropWindows(), l.dropRuns(), l.freeDepthSamples()));
        }
        return new PipelineStats(s.name(), s.policy(), s.memoryMode(), s.started(), s.stopped(), s.elapsedNs(), lanes,
                s.pools(), s.queues(), s.errors(), s.errorCount(), s.stuck());
    }

    /**
     * @return the lane's thread name as its producer wrote it in the lane table: the bytes up to the first NUL (at most
     *         {@value RegionLayout#THREAD_NAME_BYTES}), as UTF-8 with malformed bytes replaced; empty when none
     */
    private String threadName(int lane) {
        return RegionRemains.threadName(region, layout, lane);
    }

    /** @return whether the process {@code pid} exists and has not ended ({@link ProcessHandle#isAlive()}) */
    static boolean isAlive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
