package dev.dfx.export;

import java.io.Closeable;
import java.io.IOException;
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

    /**
     * A slice of a run's task named {@code name.toString()}; see
     * {@link #complete(int, int, String, String, long, long, Map, SliceFlows)}. A sink that writes bytes may write
     * the name from its parts ({@link TaskBarName}) without making the String; by default it is made.
     */
    default void complete(int pid, int tid, TaskBarName name, String cat, long startNs, long durNs,
                          Map<String, ?> args, SliceFlows flows) {
        complete(pid, tid, name.toString(), cat, startNs, durNs, args, flows);
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

    /**
     * Draws a part of the trace whose events follow, in the output, everything drawn on this sink before
     * {@link Deferred#join()} and precede what is drawn after it, so that the part can be drawn while this sink's
     * thread draws what comes before it. A sink that can write elsewhere meanwhile ({@link ChromeTraceWriter})
     * draws the part on a thread of its own; by default the part is drawn by {@link Deferred#join()}, on the
     * joining thread. Either way the output is the same bytes as drawing the part at the join.
     *
     * <p>The part gets a sink of its own, not thread-safe either: the rows it draws on are named on it
     * ({@link #thread}), after their process was named on this sink; it draws neither flow arrows nor sampled
     * stacks (their ids are the trace's), and its rows are not the rows the joining thread draws on.
     *
     * @param part draws the part; runs at most once
     * @return the part being drawn; close it (after {@link Deferred#join()}, or instead of it when the drawing
     *         before it failed)
     */
    default Deferred defer(Part part) {
        return new Deferred() {
            @Override
            public void join() throws IOException {
                part.draw(TraceSink.this);
            }

            @Override
            public void close() {
            }
        };
    }

    /** Draws a part of a trace ({@link #defer}). */
    @FunctionalInterface
    interface Part {
        /**
         * @param sink where the part's events go
         * @throws IOException when its input cannot be read
         */
        void draw(TraceSink sink) throws IOException;
    }

    /** A part of a trace being drawn ({@link #defer}); one thread joins and closes it. */
    interface Deferred extends AutoCloseable {
        /**
         * Waits until the part is drawn and places its events here in the trace; at most once.
         *
         * @throws IOException the part's own, or when its events cannot be placed
         */
        void join() throws IOException;

        /** Waits until a part not joined ends (its events are dropped) and frees what it held. */
        @Override
        void close();
    }
}
