package dev.dfx.export;

import java.io.Closeable;
import java.util.Map;

/**
 * What a trace exporter draws, independent of the file format: processes and their rows (threads), slices, instants,
 * counters and flow arrows, then the trace's metadata. One walk of a run ({@link RunTraceExporter}) or of a
 * perf.data file ({@link PerfDataExporter}) feeds either format: Chrome trace-event JSON ({@link ChromeTraceWriter})
 * or Perfetto's native protobuf trace ({@link PerfettoTraceWriter}).
 *
 * <p>Times are integer nanoseconds on the trace's clock ({@link TraceClock}), never before its origin. A row must be
 * named ({@link #thread}) before anything is drawn on it, and its process ({@link #process}) before the row. Slices
 * of one row must nest (never partially overlap; {@link SubLanes} keeps them apart); the slices of one row are
 * offered in start order, or nested ones after the slice that holds them. Values of {@code args} are strings,
 * numbers (Integer, Long, Double), booleans, or maps of them. A sink reads {@code args} during the call only (a
 * walk refills one {@link TraceArgs} for every event): what it keeps, it copies.
 *
 * <p>Not thread-safe: one writer thread. Output errors are thrown as {@link java.io.UncheckedIOException}.
 */
public interface TraceSink extends Closeable {
    /** Names process {@code pid} and places it among the processes ({@code sortIndex}, lowest first). */
    void process(int pid, String name, int sortIndex);

    /** Names row {@code tid} of process {@code pid} and places it among the process's rows (lowest first). */
    void thread(int pid, int tid, String name, int sortIndex);

    /**
     * A slice on a row, with the flow arrows that leave or end at it.
     *
     * @param startNs start, ns on the trace clock, not before its origin
     * @param durNs   duration, ns, {@code >= 0}
     * @param args    shown in the viewer's details pane; may be empty
     * @param flows   arrows bound to this slice ({@link SliceFlows#NONE} for none)
     */
    void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                  SliceFlows flows);

    /** A slice without flow arrows; see {@link #complete(int, int, String, String, long, long, Map, SliceFlows)}. */
    default void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args) {
        complete(pid, tid, name, cat, startNs, durNs, args, SliceFlows.NONE);
    }

    /** An instant on a row at {@code tsNs}. */
    void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args);

    /**
     * An instant on a row that stands for a sampled callstack: Chrome JSON gives the instant a stack frame
     * ({@code sf}) of the trace's {@code stackFrames}; Perfetto writes the instant and a PerfSample of the sampled
     * thread whose callstack and frames are interned.
     */
    void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args, SampledStack stack);

    /**
     * A sample of the counters of process {@code pid}: each entry of {@code values} is the counter
     * {@code "<name> <key>"}, which takes the value at {@code tsNs}.
     *
     * @param values Long, Integer or Double values
     */
    void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values);

    /** @return the latest end of a slice drawn so far, ns on the trace clock (the origin before any) */
    long latestNs();

    /** @return how many format-level events (JSON trace events, Perfetto packets) have been written */
    long eventCount();

    /**
     * Writes the trace's metadata (facts about the whole trace, e.g. the run's clock and loss counts) and completes
     * and closes the output.
     */
    void finish(Map<String, ?> metadata);

    /** Closes the output; a trace not {@link #finish finished} is incomplete. */
    @Override
    void close();
}
