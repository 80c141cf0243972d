package dev.dfx.pmu.task;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Events of dfx's own PMUs read for the calling thread from their model: each position has a supplier of the
 * thread's raw cumulative value (the accelerator activity model's per-thread counts, or a JVM MXBean call).
 * Confined to its thread.
 */
final class ModelThreadSource implements ThreadSource {
    private final int[] positions;
    private final LongSupplier[] readers;

    /**
     * @param positions the positions these events fill
     * @param readers   one reader per position
     */
    ModelThreadSource(List<Integer> positions, List<LongSupplier> readers) {
        this.positions = positions.stream().mapToInt(Integer::intValue).toArray();
        this.readers = readers.toArray(LongSupplier[]::new);
    }

    @Override
    public void sample(long[] into) {
        for (int i = 0; i < positions.length; i++) {
            into[positions[i]] = readers[i].getAsLong();
        }
    }

    @Override
    public boolean supported(int position) {
        return true;
    }

    @Override
    public void close() {
        // nothing held
    }
}
