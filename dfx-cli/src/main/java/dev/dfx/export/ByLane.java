package dev.dfx.export;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * What a trace keeps per lane of a run (a core's sub-lanes, a scheduler's last queue depths), made on first use and
 * looked up for every record drawn: lanes are small numbers (a core's, a scheduler's), kept in an array by lane with
 * no boxed key and no hashing per record; any other lane number (negative, or past {@value #MAX_DENSE}) in a map.
 * Not thread-safe.
 *
 * @param <T> what is kept per lane
 */
final class ByLane<T> {
    /** Lanes from this on are kept in the map. */
    private static final int MAX_DENSE = 4096;

    private final IntFunction<T> make;
    private Object[] dense = new Object[8];
    private final Map<Integer, T> sparse = new HashMap<>();

    /** @param make makes a lane's value on its first use, given the lane */
    ByLane(IntFunction<T> make) {
        this.make = make;
    }

    /** @return lane {@code lane}'s value, made now when this is its first use */
    @SuppressWarnings("unchecked")
    T get(int lane) {
        if (lane < 0 || lane >= MAX_DENSE) {
            return sparse.computeIfAbsent(lane, make::apply);
        }
        if (lane >= dense.length) {
            dense = Arrays.copyOf(dense, Math.max(lane + 1, 2 * dense.length));
        }
        Object v = dense[lane];
        if (v == null) {
            v = make.apply(lane);
            dense[lane] = v;
        }
        return (T) v;
    }
}
