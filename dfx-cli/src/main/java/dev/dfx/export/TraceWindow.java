package dev.dfx.export;

import java.io.IOException;

import java.util.Map;

/**
 * A {@link TraceSink} that passes on only the events within a time range (a run's: from its clock origin to the end
 * of the recording) and counts the others instead of failing on them. A run directory whose run.json was edited (its
 * {@code clock.origin_ns} moved) or whose records are not its own can hold times before the trace origin, which the
 * trace formats cannot place; such an event is left out and counted ({@link #skipped()}), so that the export draws
 * everything else and its caller says what was left out. Slices whose duration is negative are left out likewise.
 * Process and row names, metadata and the rest pass through. Not thread-safe, as the sink it wraps.
 */
final class TraceWindow implements TraceSink {
    private final TraceSink sink;
    private final long fromNs;
    private final long toNs;
    private long skipped;

    /**
     * @param sink   where the events within the range go
     * @param fromNs the first time kept, ns on the trace clock (the trace origin)
     * @param toNs   the last time kept, ns ({@link Long#MAX_VALUE}: no end)
     */
    TraceWindow(TraceSink sink, long fromNs, long toNs) {
        this.sink = sink;
        this.fromNs = fromNs;
        this.toNs = toNs;
    }

    /** @return events left out so far: slices, instants and counter samples outside the range */
    long skipped() {
        return skipped;
    }

    private boolean outside(long startNs, long durNs) {
        if (startNs < fromNs || startNs > toNs || durNs < 0 || durNs > toNs - startNs) {
            skipped++;
            return true;
        }
        return false;
    }

    @Override
    public void process(int pid, String name, int sortIndex) {
        sink.process(pid, name, sortIndex);
    }

    @Override
    public void thread(int pid, int tid, String name, int sortIndex) {
        sink.thread(pid, tid, name, sortIndex);
    }

    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                         SliceFlows flows) {
        if (!outside(startNs, durNs)) {
            sink.complete(pid, tid, name, cat, startNs, durNs, args, flows);
        }
    }

    @Override
    public void complete(int pid, int tid, TaskBarName name, String cat, long startNs, long durNs,
                         Map<String, ?> args, SliceFlows flows) {
        if (!outside(startNs, durNs)) {
            sink.complete(pid, tid, name, cat, startNs, durNs, args, flows);
        }
    }

    @Override
    public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
        if (!outside(tsNs, 0)) {
            sink.instant(pid, tid, name, cat, tsNs, args);
        }
    }

    @Override
    public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args, SampledStack stack) {
        if (!outside(tsNs, 0)) {
            sink.sample(pid, tid, name, cat, tsNs, args, stack);
        }
    }

    @Override
    public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        if (!outside(tsNs, 0)) {
            sink.counter(pid, name, tsNs, values);
        }
    }

    @Override
    public long latestNs() {
        return sink.latestNs();
    }

    @Override
    public long eventCount() {
        return sink.eventCount();
    }

    @Override
    public void finish(Map<String, ?> metadata) {
        sink.finish(metadata);
    }

    @Override
    public void close() {
        sink.close();
    }

    /** The part draws through a window of its own over the range; what it left out is counted here at the join. */
    @Override
    public Deferred defer(Part part) {
        TraceWindow[] window = new TraceWindow[1]; // set by the part's thread, read after the join
        Deferred d = sink.defer(s -> {
            window[0] = new TraceWindow(s, fromNs, toNs);
            part.draw(window[0]);
        });
        return new Deferred() {
            @Override
            public void join() throws IOException {
                d.join();
                skipped += window[0].skipped;
            }

            @Override
            public void close() {
                d.close();
            }
        };
    }
}
