package dev.dfx.program;

import dev.dfx.chunk.ChunkWriter;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.region.RegionHost;
import dev.dfx.region.TscCalibration;
import dev.dfx.region.UserEvent;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * Appends each drained user-event buffer to {@code chunks/user.dfx} as one chunk (kind 0, chunk lane = region lane,
 * the lane's buffer seq), with every TSC timestamp converted to CLOCK_MONOTONIC ns by the producers' calibration
 * ({@link TscCalibration}, perf's TIME_CONV) and its TSC flag cleared, so that the chunk file is on one clock, as
 * the time-ordered merge and the run's time range need. A TSC record drained before any calibration was published
 * is kept as written (flag set; the exporter counts it). Thread-safe (the chunk writer is; each collector lane
 * converts into its own copy).
 */
final class UserEventCollector implements Collector {
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final ChunkWriter chunks;
    private volatile RegionHost host;

    /** @param chunks the user-event chunk file */
    UserEventCollector(ChunkWriter chunks) {
        this.chunks = chunks;
    }

    /** Gives the collector the host whose TSC calibration it converts with (buffers before it are kept as written). */
    void bind(RegionHost h) {
        this.host = h;
    }

    @Override
    public void accept(DrainedBuffer b) throws IOException {
        MemorySegment records = b.records();
        int n = b.recordCount();
        if (hasTsc(records, n)) {
            RegionHost h = host;
            Optional<TscCalibration> tsc = h == null ? Optional.empty() : h.tscCalibration();
            if (tsc.isPresent()) {
                records = toNs(records, n, tsc.get());
            }
        }
        chunks.append(0, b.lane(), b.seq(), records, n);
    }

    private static boolean hasTsc(MemorySegment records, int n) {
        for (int i = 0; i < n; i++) {
            if ((records.get(ValueLayout.JAVA_BYTE, (long) i * UserEvent.BYTES + UserEvent.U_FLAGS)
                    & UserEvent.FLAG_TSC) != 0) {
                return true;
            }
        }
        return false;
    }

    /** @return a copy of the records with each TSC time (and a complete slice's TSC duration) in ns */
    static MemorySegment toNs(MemorySegment records, int n, TscCalibration tsc) {
        MemorySegment copy = MemorySegment.ofArray(new byte[n * UserEvent.BYTES]);
        MemorySegment.copy(records, 0, copy, 0, (long) n * UserEvent.BYTES);
        for (int i = 0; i < n; i++) {
            long at = (long) i * UserEvent.BYTES;
            UserEvent e = UserEvent.read(copy, at);
            if (!e.tsc()) {
                continue;
            }
            copy.set(U64, at + UserEvent.U_TIME, e.timeNs(tsc));
            if (e.type() == dev.dfx.region.UserEventType.SLICE_COMPLETE) {
                copy.set(U64, at + UserEvent.U_VALUE, e.durationNs(tsc));
            }
            copy.set(ValueLayout.JAVA_BYTE, at + UserEvent.U_FLAGS, (byte) (e.flags() & ~UserEvent.FLAG_TSC));
        }
        return copy;
    }
}
