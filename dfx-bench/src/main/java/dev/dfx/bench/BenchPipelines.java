package dev.dfx.bench;

import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.pipeline.PoolSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/** Pipelines and collectors shared by the benchmarks. */
final class BenchPipelines {
    static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private BenchPipelines() {
    }

    /**
     * An in-memory collector: copies every drained buffer's records into a per-lane sink ring (64 MiB in all),
     * as a collector that keeps data in memory would. One sink per lane, so shards never share one.
     */
    static final class InMemoryCollector implements Collector, AutoCloseable {
        private final Arena arena = Arena.ofShared();
        private final MemorySegment[] sinks;
        private final long[] positions;
        final AtomicLong bytes = new AtomicLong();

        InMemoryCollector(int lanes) {
            sinks = new MemorySegment[lanes];
            positions = new long[lanes];
            long each = (64L << 20) / lanes;
            for (int i = 0; i < lanes; i++) {
                sinks[i] = arena.allocate(each, 4096);
            }
        }

        @Override
        public void accept(DrainedBuffer b) {
            MemorySegment r = b.records();
            MemorySegment sink = sinks[b.lane()];
            long n = r.byteSize();
            long pos = positions[b.lane()];
            if (pos + n > sink.byteSize()) {
                pos = 0;
            }
            MemorySegment.copy(r, 0, sink, pos, n);
            positions[b.lane()] = pos + n;
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    /**
     * A collector that only reads the first and last record of each buffer (so the host touches the data) and
     * counts bytes: isolates producer cost from collector cost.
     */
    static final class TouchingCollector implements Collector {
        final AtomicLong checksum = new AtomicLong();

        @Override
        public void accept(DrainedBuffer b) {
            MemorySegment r = b.records();
            checksum.addAndGet(r.get(LE, 0) + r.get(LE, r.byteSize() - b.recordSize()));
        }
    }

    /** @return a BLOCK pipeline with {@code producers x lanesPerProducer} lanes of one kind */
    static Pipeline start(String name, int producers, int lanesPerProducer, int recordSize, int recordsPerBuffer,
            int buffersPerLane, Collector c) {
        PipelineConfig.Builder b = PipelineConfig.builder(name).policy(BackpressurePolicy.BLOCK);
        int kind = b.pool(new PoolSpec("bench", recordSize, recordsPerBuffer, buffersPerLane));
        for (int q = 0; q < producers; q++) {
            for (int i = 0; i < lanesPerProducer; i++) {
                b.lane(kind, q);
            }
        }
        return Pipeline.start(b.build(), c);
    }

    /**
     * Writes {@code count} 32-byte records (four little-endian longs) into a lane, numbered from {@code first}.
     *
     * @return the next record number
     */
    static long write32(LaneWriter w, long first, int count) {
        long n = first;
        for (int i = 0; i < count; i++, n++) {
            long off = w.claim();
            if (off >= 0) {
                MemorySegment b = w.segment();
                b.set(LE, off, n);
                b.set(LE, off + 8, n);
                b.set(LE, off + 16, n);
                b.set(LE, off + 24, n);
            }
        }
        return n;
    }

    /** @return a page-aligned off-heap ring of {@code bytes}, every byte set to {@code fill} */
    static MemorySegment ring(Arena arena, long bytes, byte fill) {
        MemorySegment s = arena.allocate(bytes, 4096);
        s.fill(fill);
        return s;
    }

    /** Prints the final counts of a benchmark pipeline (loss is reported, never asserted). */
    static void report(String what, PipelineStats s) {
        System.err.printf("%n[dfx] %s: total %d collected %d dropped %d silent loss %d reconciled %s"
                + " stalls %d expiries %d%n", what, s.total(), s.collected(), s.dropped(),
                s.total() - s.collected() - s.dropped(), s.reconciled(),
                s.lanes().stream().mapToLong(l -> l.stallCount()).sum(),
                s.lanes().stream().mapToLong(l -> l.backstopExpiries()).sum());
    }
}
