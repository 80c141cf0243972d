package dev.dfx.pipeline;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A drain shard's short sites: lanes whose free queue it could not fill because its recycled lane ran dry, or whose
 * collector backlog was at its limit ({@link CollectorLane#atLimit()}). Each lane is listed once, oldest first; the
 * shard retries them after every sweep until they fill. Owned by
 * one drain shard thread; not thread-safe.
 */
final class ShortSites {
    private final boolean[] listed;
    private int[] lanes = new int[8];
    private int size;

    ShortSites(int laneCount) {
        listed = new boolean[laneCount];
    }

    void add(int lane) {
        if (listed[lane]) {
            return;
        }
        listed[lane] = true;
        if (size == lanes.length) {
            lanes = Arrays.copyOf(lanes, size * 2);
        }
        lanes[size++] = lane;
    }

    /**
     * Retries every listed lane in order and drops those that filled.
     *
     * @param fill tries to fill one lane's free queue; true when it reached its target
     * @return true when any lane filled (progress; a shard whose sites stay short may idle)
     */
    boolean retry(IntPredicate fill) {
        if (size == 0) {
            return false;
        }
        int before = size;
        int kept = 0;
        for (int i = 0; i < size; i++) {
            int lane = lanes[i];
            if (fill.test(lane)) {
                listed[lane] = false;
            } else {
                lanes[kept++] = lane;
            }
        }
        size = kept;
        return kept < before;
    }

    boolean contains(int lane) {
        return listed[lane];
    }
}
