package dev.dfx.program;

import dev.dfx.error.Count;
import dev.dfx.exec.ProgramNotRunnable;
import dev.dfx.exec.ProgramPath;
import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.ChunkWriter;
import dev.dfx.chunk.RunId;
import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.Collector;
import dev.dfx.region.LaneState;
import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionLane;
import dev.dfx.region.RegionProcess;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import dev.dfx.region.TscCalibration;
import dev.dfx.region.UserEvent;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunLock;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.recording.ManifestFacts;
import dev.dfx.runtime.recording.ManifestReserve;
import dev.dfx.runtime.recording.PoolBudget;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.runtime.recording.SubsystemReports;
import dev.dfx.runtime.recording.WriteLoss;
import dev.dfx.runtime.subsystem.PoolSize;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One {@code dfx record -- COMMAND} (docs/region-abi.md): claims a run directory (private, {@code 0700}), creates the
 * region in it ({@value #REGION_FILE}, mode 0600), writes a {@code running} run.json, starts the command with
 * {@value RegionHost#ENV} set, collects every drained buffer into {@code chunks/user.dfx} (TSC times converted to
 * ns with the producers' calibration) until the command and every process that attached to the region have ended,
 * stops the host (final passes, recovery of a dead producer's committed records, reconcile), and writes the run
 * directory: the lanes' string tables ({@value ProgramReport#STRINGS_FILE}), trace.json and the final run.json
 * with per-process and per-lane counts. The region file is removed at the end. A producer that truncates the region
 * file fails the recording with one reason ({@link RegionHost#cutShort()}) instead of crashing it; what was drained
 * before is kept.
 *
 * <p>Thread-safety: {@link #run} on one thread, once; {@link #signal} from any thread (signal handlers).
 */
public final class ProgramRecording {
    /** The region's file name in the run directory. */
    public static final String REGION_FILE = ProgramReport.REGION_FILE;
    /** How often the end of the producers is checked after the command's exit, ms. */
    private static final long POLL_MS = 10;
    /** After how long a wait for processes the command left behind dfx says so, s. */
    private static final long NOTICE_AFTER_S = 2;

    /**
     * What to record.
     *
     * @param command        the command and its arguments
     * @param policy         block or drop
     * @param backstop       one gate wait's budget
     * @param stallThreshold a gate wait longer than this is a stall
     * @param pool           the user-event pool: buffers per lane x records per buffer
     * @param lanes          lane slots: threads (over the whole run, all processes) that can record
     * @param output         the run directory ({@code -o}), or null for {@code ./dfx-runs/<timestamp>}
     * @param commandLine    dfx's own command line, for run.json
     */
    public record Settings(List<String> command, BackpressurePolicy policy, Duration backstop,
                           Duration stallThreshold, PoolSize pool, int lanes, Path output, List<String> commandLine) {
    }

    /**
     * How the recording ended.
     *
     * @param runDir          the run directory
     * @param manifest        the final run.json
     * @param command         how the command ended
     * @param manifestProblem why the final run.json could not be written, or null
     * @param noticed         a failure that a notice already gave the moment it happened (the chunk file could not be
     *                        written), as run.json's reason words it, or null: a line at the end need not repeat it
     */
    public record Result(Path runDir, RunManifest manifest, ExitStatus command, String manifestProblem,
                         String noticed) {
    }

    private final RunManifest.Host host = ManifestFacts.host();

    private final Settings settings;
    private final Path workDir;
    private final RegionSpec spec;
    private final Consumer<String> notice;
    private final RunId runId = RunId.random();
    private final Map<Long, String> names = new ConcurrentHashMap<>();
    private ProgramProcess process; // guarded by this
    private boolean started; // guarded by this
    private int pending; // guarded by this
    private long commandPid;
    private volatile int lastSignal;
    private volatile boolean stopWaiting;

    /**
     * @param settings what to record
     * @param workDir  the working directory (the command's, and where {@code dfx-runs/} goes)
     * @param notice   receives a line for the user while the recording waits (e.g. for processes the command left
     *                 running)
     */
    public ProgramRecording(Settings settings, Path workDir, Consumer<String> notice) {
        this.settings = settings;
        this.workDir = workDir;
        this.notice = notice;
        this.spec = spec(settings);
    }

    /**
     * Passes a signal dfx got on to the command while it runs, as perf passes the end of a recording on to its
     * workload; once the command has ended, a signal stops the wait for processes it left running (they are
     * reported {@code running}). Any thread.
     *
     * @param number the signal
     */
    public void signal(int number) {
        lastSignal = number;
        synchronized (this) {
            ProgramProcess p = process;
            if (p == null && !started) {
                pending = number; // the command is being started: it gets the signal as soon as it runs
            } else if (p == null || !p.signal(number)) {
                stopWaiting = true;
            }
        }
    }

    /** Makes {@code p} the command that signals go to, and passes on one that came while it was being started. */
    private synchronized void running(ProgramProcess p) {
        process = p;
        started = true;
        if (pending != 0) {
            p.signal(pending);
        }
    }

    private synchronized void ended() {
        process = null;
    }

    /** @return the last signal dfx got during the recording, 0 when none */
    public int lastSignal() {
        return lastSignal;
    }

    /**
     * Records the command.
     *
     * @return the run directory, its manifest and the command's status
     * @throws ProgramNotRunnable when the command cannot be started (nothing is created when it is not found or not
     *                            executable; a later exec failure leaves a run directory whose run.json says so)
     * @throws dev.dfx.error.BadInputException when the run directory cannot be claimed, or the region's pools need
     *                                          more than a quarter of this machine's memory (nothing is created)
     * @throws UncheckedIOException when the run directory cannot be written at all
     * @throws dev.dfx.error.BadInputException also when the file system refuses the region's bytes, naming the file
     *                                          (run.json then says failed, with the same reason)
     * @throws InterruptedException when the recording thread is interrupted
     */
    public Result run() throws InterruptedException {
        ProgramPath.resolve(settings.command().getFirst(), System.getenv("PATH"), workDir);
        PoolSize pool = settings.pool();
        long need;
        try {
            need = Math.multiplyExact(Math.multiplyExact((long) settings.lanes() * pool.buffersPerLane(),
                    pool.recordsPerBuffer()), UserEvent.BYTES);
        } catch (ArithmeticException e) {
            need = Long.MAX_VALUE;
        }
        PoolBudget.refuseOver(setting(settings), need, PoolBudget.physicalMemory(), () -> Count.of(settings.lanes(),
                "lane") + " x " + Count.of(pool.buffersPerLane(), "buffer") + " x " + Count.of(pool.recordsPerBuffer(),
                "record") + " x " + UserEvent.BYTES + " B");
        RunLock claim = RecordingPlan.runDirectory(settings.output(), workDir);
        try {
            return record(claim.directory());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            claim.close();
        }
    }

    private Result record(Path dir) throws IOException, InterruptedException {
        Instant start = Instant.now();
        long originNs = System.nanoTime(); // CLOCK_MONOTONIC on Linux, the producers' clock
        RunManifest.Clock clock = new RunManifest.Clock("CLOCK_MONOTONIC", 1_000_000_000L, originNs,
                start.getEpochSecond() * 1_000_000_000L + start.getNano());
        ProgramReport running = new ProgramReport(settings.command(), 0, null, null, 0, REGION_FILE, null, null, 0,
                List.of());
        ManifestFile.write(dir, manifest(spec, "running", null, clock, start, null, 0, 0, List.of(), List.of(),
                running));
        ChunkWriter chunks = ChunkStore.create(dir, runId, ProgramReport.SUBSYSTEM,
                List.of(BufferKind.timed(0, RegionSpec.USER_POOL, UserEvent.BYTES, (int) UserEvent.U_TIME)));
        ManifestReserve reserve = ManifestReserve.forLanes(dir, spec.lanes());
        Path regionFile = dir.resolve(REGION_FILE);
        ExitStatus exit;
        RegionStats stats;
        long commandStart;
        long commandEnd;
        LaneStrings strings;
        String cutShort;
        UserEventCollector collector = new UserEventCollector(chunks);
        WriteLoss.Refused refused = new WriteLoss.Refused();
        AtomicReference<String> writeFailure = new AtomicReference<>();
        RegionHost started;
        try {
            started = RegionHost.start(regionFile, spec, watched(dir, chunks, collector, refused, writeFailure));
        } catch (RuntimeException e) { // the file system refused the region: no space, a quota
            try {
                reserve.release();
                endBeforeStart(dir, chunks, regionFile, e.getMessage(), clock, start, originNs, running);
            } catch (IOException | RuntimeException again) { // a full disk may refuse these too: the region's
                e.addSuppressed(again);                          // refusal is the one to report
            }
            // its message names the region's file and the bytes the file system refused
            throw e instanceof UncheckedIOException ? new BadInputException(e.getMessage(), e) : e;
        }
        try {
            try (RegionHost host = started) {
                collector.bind(host);
                ProgramProcess p;
                try {
                    Optional<Path> agent = JavaAgent.find();
                    p = ProgramProcess.start(agent.isEmpty() ? settings.command()
                            : JavaAgent.command(settings.command(), agent.get()), host.environment(), workDir);
                } catch (ProgramNotRunnable e) {
                    host.stop();
                    reserve.release();
                    endBeforeStart(dir, chunks, regionFile, e.getMessage(), clock, start, originNs, running);
                    throw e;
                }
                running(p);
                commandPid = p.pid();
                commandStart = p.startNs();
                exit = awaitEnd(p, host);
                commandEnd = System.nanoTime();
                ended();
                host.cutShort(); // a file cut short gets its length back before stop reads every lane
                stats = faultTolerant(host, host::stop);
                faultTolerant(host, () -> {
                    host.close(); // detaches the string tables: they keep what they read
                    return null;
                });
                cutShort = host.cutShort().orElse(null);
                strings = strings(host, stats);
            }
            return end(dir, chunks, stats, exit, commandStart, commandEnd, strings, cutShort, clock, start, originNs,
                    refused, writeFailure.get(), reserve);
        } finally {
            // removed only now: until the final run.json is written, a reader of a run whose recorder was killed
            // takes the lanes' owners (and, before strings.json, their names) from it (UnfinishedRun)
            Files.deleteIfExists(regionFile);
        }
    }

    /**
     * Writes the run directory's outputs and the final run.json of a recording whose command has ended.
     *
     * @param refused      the records of buffers the failed chunk file refused, per lane
     * @param writeFailure why the chunk file failed, or null
     * @param reserve      the disk space kept for the final run.json, released just before it is written
     */
    private Result end(Path dir, ChunkWriter chunks, RegionStats stats, ExitStatus exit,
            long commandStart, long commandEnd, LaneStrings strings, String cutShort, RunManifest.Clock clock,
            Instant start, long originNs, WriteLoss.Refused refused, String writeFailure, ManifestReserve reserve)
            throws IOException {
        String reason = null;
        List<OutputFile> outputs = new ArrayList<>();
        String chunkPath = ChunkStore.FOLDER + "/" + ProgramReport.SUBSYSTEM + ChunkStore.EXTENSION;
        try {
            chunks.close();
        } catch (IOException e) {
            reason = chunkPath + " not completed: " + IoErrors.describe(e);
        }
        // the chunks a failed write cut off were counted collected; the file holds the rest
        List<ChunkInfo> lost = chunks.lostChunks();
        long onDisk = chunks.recordCount() - lost.stream().mapToLong(ChunkInfo::recordCount).sum();
        outputs.add(WriteLoss.chunkFile(chunkPath, chunks.complete(), onDisk));
        reason = join(writeFailure, reason);
        String stringsFile = ProgramReport.STRINGS_FILE;
        try {
            outputs.add(OutputFile.written(stringsFile, strings.write(dir.resolve(stringsFile))));
        } catch (IOException e) {
            outputs.add(OutputFile.refused(stringsFile, IoErrors.describe(e)));
            stringsFile = null;
        }
        long wallNs = commandEnd - commandStart;
        ProgramReport program = report(stats, exit, wallNs, stringsFile, lost);
        RunManifest.SubsystemReport user = SubsystemReports.of(ProgramReport.SUBSYSTEM, stats.pipeline(), wallNs,
                lane -> new SubsystemReports.LaneName(RegionSpec.USER_POOL, ProgramReport.ROLE, lane),
                producer -> new SubsystemReports.LaneName(RegionSpec.USER_POOL, ProgramReport.ROLE, producer),
                details(stats));
        user = WriteLoss.apply(user, ChunkInfo::lane, lost, refused); // a chunk's lane is its pipeline lane
        user = withHeaderDrops(user, ProgramReport.UNLANED, stats.unlanedDropped());
        user = withHeaderDrops(user, ProgramReport.AFTER_EXIT, stats.exitDropped());
        String status = "ok";
        List<String> failed = stats.lanes(LaneState.FAILED).stream().map(l -> "lane " + l.lane() + " (pid " + l.pid()
                + ", tid " + l.tid() + "): " + l.reason()).toList();
        if (cutShort != null) { // the one cause: the lanes that failed read the zeros the lost bytes became
            status = "failed";
            reason = join(cutShort, reason);
        } else if (!failed.isEmpty()) {
            status = "failed";
            reason = join(reason, failed.size() == 1 ? "1 lane failed: " + failed.getFirst()
                    : failed.size() + " lanes failed, the first " + failed.getFirst());
        } else if (reason != null) { // the chunk file could not be written whole
            status = "failed";
        }
        RunManifest m = manifest(spec, status, reason, clock, start, null, 0, wallNs, List.of(user), outputs, program);
        try {
            outputs.add(RunTraceExporter.write(dir, m, dir.resolve(RunTraceExporter.FILE)));
        } catch (IOException e) {
            outputs.add(OutputFile.refused(RunTraceExporter.FILE, IoErrors.describe(e)));
        } catch (UncheckedIOException e) {
            outputs.add(OutputFile.refused(RunTraceExporter.FILE, IoErrors.describe(e)));
        } catch (RuntimeException e) {
            outputs.add(OutputFile.refused(RunTraceExporter.FILE, e.getMessage()));
        }
        outputs.replaceAll(o -> OutputSeal.seal(dir, o));
        RunManifest done = manifest(spec, status, reason, clock, start, Instant.now().toString(),
                System.nanoTime() - originNs, wallNs, List.of(user), outputs, program);
        String problem = null;
        reserve.release();
        try {
            done = ManifestFile.writeFinal(dir, done);
        } catch (IOException e) {
            problem = "cannot write the final " + ManifestFile.of(dir) + " (" + IoErrors.describe(e)
                    + "); it still says running";
        }
        return new Result(dir, done, exit, problem, writeFailure);
    }

    /**
     * The user-event collector, which says once, as soon as it happens, that the chunk file cannot be written (the
     * command runs on; dfx cannot stop it), and counts the records of every buffer it could not write
     * ({@link WriteLoss.Refused}).
     */
    private Collector watched(Path dir, ChunkWriter chunks, UserEventCollector c, WriteLoss.Refused refused,
                              AtomicReference<String> failure) {
        return b -> {
            try {
                c.accept(b);
            } catch (IOException e) {
                refused.add(b.lane(), b.recordCount());
                // the write that failed the file, which another lane's collector may have made
                IOException first = chunks.failure();
                String why = IoErrors.describe(first == null ? e : first);
                if (failure.compareAndSet(null, "writing " + ChunkStore.FOLDER + "/" + ProgramReport.SUBSYSTEM
                        + ChunkStore.EXTENSION + " failed (" + why + "); the records after it were dropped")) {
                    notice.accept(dir.resolve(ChunkStore.FOLDER).resolve(ProgramReport.SUBSYSTEM
                            + ChunkStore.EXTENSION) + ": " + why + "; the command runs on, its records are dropped");
                }
                throw e;
            }
        };
    }

    /**
     * Ends a run whose command never started: closes the (empty) chunk file, removes the region and writes a failed
     * run.json with the reason.
     */
    private void endBeforeStart(Path dir, ChunkWriter chunks, Path regionFile, String reason, RunManifest.Clock clock,
            Instant start, long originNs, ProgramReport running) throws IOException {
        chunks.close();
        Files.deleteIfExists(regionFile);
        ManifestFile.write(dir, manifest(spec, "failed", reason, clock, start, Instant.now().toString(),
                System.nanoTime() - originNs, 0, List.of(), List.of(), running));
    }

    /**
     * Waits for the command's end, then for every process that attached to the region or inherited it (a child the
     * command forked or started, which attaches on its first event, {@link RegionInheritors}), until a signal says
     * to stop waiting. Notes each producer's command name while it is alive.
     */
    private ExitStatus awaitEnd(ProgramProcess p, RegionHost host) throws InterruptedException {
        while (p.alive()) {
            host.cutShort();
            faultTolerant(host, () -> noteNames(host));
            Thread.sleep(POLL_MS);
        }
        ExitStatus exit = p.waitFor();
        String variable = RegionHost.ENV + "=" + host.environment().get(RegionHost.ENV);
        long noticeAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(NOTICE_AFTER_S);
        while (!stopWaiting) {
            host.cutShort();
            List<RegionProcess> attached = faultTolerant(host, () -> noteNames(host));
            Set<Long> left = new TreeSet<>(RegionInheritors.scan(variable));
            attached.stream().filter(RegionProcess::alive).forEach(rp -> left.add(rp.pid()));
            if (left.isEmpty()) {
                break;
            }
            if (noticeAt != 0 && System.nanoTime() - noticeAt > 0) {
                notice.accept("the command ended; waiting for " + left.size()
                        + (left.size() == 1 ? " process that" : " processes that") + " inherited its region (pids " + left.stream().limit(8).map(String::valueOf).collect(Collectors.joining(", "))
                        + (left.size() > 8 ? ", ..." : "") + "); Ctrl-C stops waiting");
                noticeAt = 0;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
        return exit;
    }

    /** @return the processes that attached, after noting the name of each */
    private List<RegionProcess> noteNames(RegionHost host) {
        List<RegionProcess> attached = host.processes();
        for (RegionProcess rp : attached) {
            names.computeIfAbsent(rp.pid(), ProgramRecording::comm); // null (not kept) while it cannot be read
        }
        return attached;
    }

    /**
     * Runs {@code step}, which reads the region, a second time when it faulted because a producer cut the region
     * file short ({@link RegionHost#cutShort()} gives the file its length back, so the second run reads zeros where
     * the first faulted); any other fault is thrown.
     */
    private static <T> T faultTolerant(RegionHost host, Supplier<T> step) {
        try {
            return step.get();
        } catch (InternalError e) { // a mapped read past the end of the file: SIGBUS
            if (host.cutShort().isEmpty()) {
                throw e;
            }
            return step.get();
        }
    }

    /** @return {@code /proc/PID/comm}, or null when it cannot be read (the process is gone) */
    private static String comm(long pid) {
        try {
            String c = Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip();
            return c.isEmpty() ? null : c;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @return the region's shape
     * @throws BadInputException naming the pool, lanes or durations when the region cannot have that shape
     */
    private static RegionSpec spec(Settings s) {
        try {
            return RegionSpec.builder().userPool(s.pool().recordsPerBuffer(), s.pool().buffersPerLane(), s.lanes())
                    .policy(s.policy()).backstop(s.backstop()).stallThreshold(s.stallThreshold()).build();
        } catch (IllegalArgumentException e) {
            throw new BadInputException(setting(s) + ": " + e.getMessage());
        }
    }

    /** @return the options that shape the region, as the user would write them */
    private static String setting(Settings s) {
        return "--pool " + ProgramReport.SUBSYSTEM + "=" + s.pool() + ", --lanes " + s.lanes();
    }

    /** @return every used lane's string table, as the region held it at the end */
    private static LaneStrings strings(RegionHost host, RegionStats stats) {
        Map<Integer, Map<Integer, String>> lanes = new LinkedHashMap<>();
        for (RegionLane l : stats.lanes()) {
            if (l.state() != LaneState.UNUSED) {
                lanes.put(l.lane(), host.strings(l.lane()).entries());
            }
        }
        return new LaneStrings(lanes);
    }

    /** @param lost the chunks a failed write cut off, counted collected by the region: moved to dropped */
    private ProgramReport report(RegionStats stats, ExitStatus exit, long wallNs, String stringsFile,
                                 List<ChunkInfo> lost) {
        List<ProgramReport.Producer> procs = new ArrayList<>();
        for (RegionProcess rp : stats.processes()) {
            List<ProgramReport.ThreadLane> threads = new ArrayList<>();
            long cutOff = 0;
            for (int lane : rp.lanes()) {
                cutOff += lost.stream().filter(c -> c.lane() == lane).mapToLong(ChunkInfo::recordCount).sum();
                RegionLane l = stats.lanes().get(lane);
                threads.add(new ProgramReport.ThreadLane(l.tid(), l.name().isEmpty() ? null : l.name(), l.lane(),
                        laneStatus(l.state()),
                        l.reason().isEmpty() ? null : l.reason()));
            }
            String name = names.get(rp.pid());
            if (name == null) {
                // ended before dfx looked: its main thread's lane kept the name Linux had for it (a forked child's
                // is its parent's command name until it execs)
                name = threads.stream().filter(t -> t.tid() == rp.pid() && t.name() != null)
                        .map(ProgramReport.ThreadLane::name).findFirst().orElse(null);
            }
            if (name == null && rp.pid() == commandPid) {
                // ended before dfx looked: the command's own process runs the file the command names (comm: 15 bytes)
                String file = Path.of(settings.command().getFirst()).getFileName().toString();
                name = file.substring(0, Math.min(15, file.length()));
            }
            procs.add(new ProgramReport.Producer(rp.pid(), name,
                    rp.alive() ? "running" : "exited", rp.total(), rp.collected() - cutOff, rp.dropped() + cutOff,
                    threads));
        }
        ProgramReport.Tsc tsc = stats.tsc().map(ProgramRecording::tsc).orElse(null);
        return new ProgramReport(settings.command(), commandPid, exit.status(), exit.describe(),
                wallNs, REGION_FILE, stringsFile, tsc, stats.unlanedDropped(), procs);
    }

    private static String laneStatus(LaneState s) {
        return switch (s) {
            case FAILED -> "failed";
            case PRODUCER_EXITED -> "producer exited";
            default -> "ok";
        };
    }

    private static ProgramReport.Tsc tsc(TscCalibration c) {
        return new ProgramReport.Tsc(c.ticks0(), c.ns0(), c.ticks1(), c.ns1(), c.mult(), c.shift(), c.hz());
    }

    /**
     * Counts records that no lane holds, counted by the producers in the region's header, as records of the
     * {@code user} subsystem, attempted and dropped: those of threads that found every lane taken (cause
     * {@value ProgramReport#UNLANED}) and those of virtual threads written after their JVM's exit hook (cause
     * {@value ProgramReport#AFTER_EXIT}), so that every total, headline, trace and audit that reads the subsystem
     * sees them.
     *
     * @param cause   the drop cause
     * @param dropped the records (nothing is added when 0)
     */
    static RunManifest.SubsystemReport withHeaderDrops(RunManifest.SubsystemReport s, String cause, long dropped) {
        if (dropped <= 0) {
            return s;
        }
        Map<String, Long> causes = new LinkedHashMap<>(s.droppedByCause());
        causes.merge(cause, dropped, Long::sum);
        return new RunManifest.SubsystemReport(s.name(), s.total() + dropped, s.collected(), s.dropped() + dropped,
                causes, s.silentLoss(), s.reconciled(), s.backstopExpiries(), s.stalls(), s.recordsPerSecond(),
                s.lanes(), s.pools(), s.queues(), s.errors(), s.errorCount(), s.details());
    }

    private static Map<String, Object> details(RegionStats stats) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("unlaned_dropped", stats.unlanedDropped());
        d.put("lanes_used", stats.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).count());
        return d;
    }

    private RunManifest manifest(RegionSpec spec, String status, String reason, RunManifest.Clock clock,
                                 Instant start, String end, long wallNs, long programNs,
                                 List<RunManifest.SubsystemReport> reports, List<OutputFile> outputs,
                                 ProgramReport program) {
        PoolSize pool = settings.pool();
        RunManifest.Config config = new RunManifest.Config(settings.command().getFirst(),
                List.of(ProgramReport.SUBSYSTEM), 0, 0, settings.policy().name().toLowerCase(java.util.Locale.ROOT),
                settings.backstop().toNanos(), settings.stallThreshold().toNanos(), 0, 0, 0, List.of(),
                List.of(new RunManifest.Pool(RegionSpec.USER_POOL, pool.buffersPerLane(), pool.recordsPerBuffer(),
                        UserEvent.BYTES, spec.lanes())));
        RunManifest.Workload w = new RunManifest.Workload(settings.command().getFirst(), 0, programNs, "none");
        return new RunManifest(RunManifest.FORMAT, RunManifest.VERSION, runId.toString(), status, reason,
                settings.commandLine(), config, clock, host, start.toString(), end, wallNs, w, Map.of(),
                reports, outputs, program);
    }

    private static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + "; " + b;
    }
}
