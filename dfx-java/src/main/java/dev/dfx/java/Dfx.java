package dev.dfx.java;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records a JVM program's own events into the region of a {@code dfx record -- COMMAND} run: slices, instants,
 * counters and flow arrows, named with the program's strings. The event model and the bytes written are those of
 * {@code include/dfx.h} (one ABI, {@code docs/region-abi.md}; one reader, {@code dfx report / export / script}).
 *
 * <pre>{@code
 * try (Slice s = Dfx.slice("load")) { ... }
 * Dfx.counter("queue depth", depth);
 * Dfx.instant("retry", "attempt", n);
 * Dfx.flowBegin("request", id);   // ... Dfx.flowEnd("request", id) on another thread
 * }</pre>
 *
 * <p><b>Not recording</b>: without the environment variable {@code DFX_REGION} (which {@code dfx record} sets; a
 * program that hosts a region itself may name it in the system property {@code dfx.region} instead, before the first
 * call) every
 * call returns at once: {@link #enabled()} is a constant the JIT folds, {@link #slice(String)} returns a shared
 * constant. A region that cannot be used (missing file, another ABI version, a header that does not check) is
 * named in one {@code dfx: PATH: ...; not recording} line on standard error, and nothing is recorded.
 *
 * <p><b>Clock</b>: the timestamps this class takes are {@link System#nanoTime()}, which HotSpot on Linux reads from
 * {@code clock_gettime(CLOCK_MONOTONIC)}: the region's clock, exact, with no conversion. With {@code DFX_CLOCK=tsc}
 * in the environment (as for dfx.h) and native access enabled ({@code java --enable-native-access=ALL-UNNAMED}) they
 * are the CPU's time-stamp counter instead, read by {@code rdtsc} on x86-64 (about half the cost of a CLOCK_MONOTONIC
 * read where the clock source is a hypervisor's) and converted to CLOCK_MONOTONIC ns by the host with the region's
 * calibration, as dfx.h's are; when the counter cannot be used one line on standard error says why and the clock
 * stays CLOCK_MONOTONIC. Times a program passes ({@link #sliceComplete}) are {@link #nowNs()} ns either way.
 *
 * <p><b>Threads</b>: each platform thread writes its own lane (a row of the trace, named with the thread's name,
 * see {@link #threadName(String)}), claimed at its first event and kept for its life; virtual threads share a few
 * lanes (see {@link Slice}). Lossless as dfx.h: when the collector is behind, a thread waits at a gate (up to the
 * run's backstop) instead of dropping, and a wait longer than the run's stall threshold is recorded as a stall
 * window; everything is counted, so the run's reconcile (collected + dropped == total) holds.
 *
 * <p><b>Strings</b>: names and keys are interned per lane by value; a lane's string table is bounded (a name that
 * does not fit is recorded without its name and counted by the reader). Use a bounded set of names.
 *
 * <p>Thread-safe. No call throws: an internal failure is reported once on standard error and the call returns.
 */
public final class Dfx {
    private static final Producer P = Producer.attach(regionPath(), System.err);
    private static final boolean ON = P != null;
    private static final AtomicBoolean FAILED = new AtomicBoolean();
    /** The records' implicit timestamps are TSC ticks ({@code DFX_CLOCK=tsc}, see {@link Clock}). */
    private static final boolean TSC = ON && Clock.wanted() && Clock.start(P.r, System.err);
    /** The flags of a record whose time is {@link #now()}: {@link UserEvents#FLAG_TSC} when the clock is the TSC. */
    static final int CLOCK_FLAGS = TSC ? UserEvents.FLAG_TSC : 0;

    private Dfx() {
    }

    /** @return {@code DFX_REGION}, else the system property {@code dfx.region} (an in-process host: benchmarks) */
    private static String regionPath() {
        String env = System.getenv(Producer.ENV);
        return env != null && !env.isEmpty() ? env : System.getProperty(Producer.PROPERTY);
    }

    /** @return true when this JVM records into a region ({@code DFX_REGION} named a sound one) */
    public static boolean enabled() {
        return ON;
    }

    /** @return the clock of the times a program passes ({@link #sliceComplete}), ns: {@link System#nanoTime()} */
    public static long nowNs() {
        return System.nanoTime();
    }

    /** @return the records' clock: TSC ticks under {@code DFX_CLOCK=tsc}, else {@link System#nanoTime()} ns */
    static long now() {
        return TSC ? Clock.ticks() : System.nanoTime();
    }

    /**
     * Begins a slice on the calling thread.
     *
     * @param name the slice's name
     * @return the slice; close it (try-with-resources) to end it
     */
    public static Slice slice(String name) {
        if (!ON) {
            return Slices.None.INSTANCE;
        }
        return begin(name, null, 0);
    }

    /**
     * Begins a slice with one integer argument (kept on platform threads, see {@link Slice}).
     *
     * @param name  the slice's name
     * @param key   the argument's name
     * @param value the argument's value
     * @return the slice; close it to end it
     */
    public static Slice slice(String name, String key, long value) {
        if (!ON) {
            return Slices.None.INSTANCE;
        }
        return begin(name, key, value);
    }

    private static Slice begin(String name, String key, long value) {
        long now = now();
        if (Thread.currentThread().isVirtual()) {
            return new Slices.Virtual(name, now);
        }
        write(UserEvents.SLICE_BEGIN, CLOCK_FLAGS, name, now, value, key);
        return Slices.End.INSTANCE;
    }

    /**
     * A whole slice with an explicit start and duration (Perfetto's complete event).
     *
     * @param name       the slice's name
     * @param startNs    start, {@link #nowNs()} ns
     * @param durationNs duration, ns
     */
    public static void sliceComplete(String name, long startNs, long durationNs) {
        if (ON) {
            write(UserEvents.SLICE_COMPLETE, 0, name, startNs, durationNs, null);
        }
    }

    /** An instant on the calling thread. @param name its name */
    public static void instant(String name) {
        if (ON) {
            write(UserEvents.INSTANT, CLOCK_FLAGS, name, now(), 0, null);
        }
    }

    /**
     * An instant with one integer argument.
     *
     * @param name  its name
     * @param key   the argument's name
     * @param value the argument's value
     */
    public static void instant(String name, String key, long value) {
        if (ON) {
            write(UserEvents.INSTANT, CLOCK_FLAGS, name, now(), value, key);
        }
    }

    /**
     * A counter sample (a track of the process named {@code name}).
     *
     * @param name  the counter
     * @param value the sample
     */
    public static void counter(String name, long value) {
        if (ON) {
            write(UserEvents.COUNTER, CLOCK_FLAGS, name, now(), value, null);
        }
    }

    /**
     * A counter sample as a double.
     *
     * @param name  the counter
     * @param value the sample
     */
    public static void counter(String name, double value) {
        if (ON) {
            write(UserEvents.COUNTER, UserEvents.FLAG_F64 | CLOCK_FLAGS, name, now(),
                    Double.doubleToRawLongBits(value), null);
        }
    }

    /**
     * A flow arrow begins here (bound to the innermost slice open on this thread); {@code id} names the flow across
     * threads and processes.
     *
     * @param name the flow's name
     * @param id   the flow id
     */
    public static void flowBegin(String name, long id) {
        if (ON) {
            write(UserEvents.FLOW_BEGIN, CLOCK_FLAGS, name, now(), id, null);
        }
    }

    /** The flow passes here. @param name the flow's name @param id the flow id */
    public static void flowStep(String name, long id) {
        if (ON) {
            write(UserEvents.FLOW_STEP, CLOCK_FLAGS, name, now(), id, null);
        }
    }

    /** The flow ends here. @param name the flow's name @param id the flow id */
    public static void flowEnd(String name, long id) {
        if (ON) {
            write(UserEvents.FLOW_END, CLOCK_FLAGS, name, now(), id, null);
        }
    }

    /**
     * Publishes the calling platform thread's partly filled buffer, so the host has its records before the buffer
     * fills (one push-gate wait at most). Not needed for correctness: the host collects full buffers, buffers
     * flushed at exit and the committed records of any thread still running at the end.
     */
    public static void flush() {
        if (ON) {
            try {
                P.flush();
            } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
                failed(e);
            }
        }
    }

    /**
     * Names the calling platform thread in the trace (its lane's row and {@code threads[].name} in run.json) instead
     * of its Java name, as {@code dfx_thread_name} does in {@code include/dfx.h}: at most 15 bytes of UTF-8 are kept,
     * cut at a character boundary, as Linux keeps a thread's name. The thread's own name ({@link Thread#getName()})
     * is not changed. Without this call a lane carries the thread's Java name, taken at its first event and again
     * when the lane ends (so a thread renamed later shows its last name). On a virtual thread it does nothing: virtual
     * threads share lanes, named {@code virtual threads}.
     *
     * @param name the name; null does nothing
     */
    public static void threadName(String name) {
        if (ON && name != null && !Thread.currentThread().isVirtual()) {
            try {
                P.threadName(name);
            } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
                failed(e);
            }
        }
    }

    static Producer producer() {
        return P;
    }

    /** Writes one record from the calling thread: its own lane, or a shared one on a virtual thread. */
    static void write(int type, int flags, String name, long time, long value, String key) {
        try {
            if (Thread.currentThread().isVirtual()) {
                Lane l = P.borrow();
                if (l == null) {
                    P.noLane(1, true);
                    return;
                }
                try {
                    l.emit(type, flags, name, time, value, key);
                } finally {
                    l.unlock();
                }
            } else {
                Lane l = P.lane();
                if (l == null) {
                    P.noLane(1, false);
                    return;
                }
                l.emit(type, flags, name, time, value, key);
            }
        } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
            failed(e);
        }
    }

    /** Reports an internal failure once; the caller goes on without the record. */
    static void failed(Throwable e) {
        if (FAILED.compareAndSet(false, true)) {
            System.err.println("dfx: recording failed (" + e + "); the program goes on, some events are missing");
        }
    }
}
