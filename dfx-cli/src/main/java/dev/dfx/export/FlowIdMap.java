package dev.dfx.export;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Values by flow arrow id, for a trace writer's arrows whose one end is written and whose other is not. A run's
 * trace numbers its arrows 1, 2, 3, ... ({@link DependencyFlows}) and opens and closes one per dependency edge: such
 * ids are kept in an array indexed by the id, with no boxed key or map entry per arrow and no hashing (a map of
 * {@code Long} was the largest cost of drawing a run's core bars). Any other id (negative, or far beyond the values
 * put so far: an arrow that leaves an early bar for a late one) goes to a map, until the array grows to cover it.
 *
 * <p>Memory: the array covers ids up to about twice the number of values ever put (a reference per id), the map
 * the rest. Not thread-safe.
 *
 * @param <V> the values
 */
final class FlowIdMap<V> {
    /** Ids below this always go to the array, whatever was put before. */
    private static final int MIN_DENSE = 1024;
    /** Ids from this on always go to the map: the most elements an array can hold. */
    private static final int MAX_DENSE = Integer.MAX_VALUE - 8;

    private Object[] dense = new Object[64];
    private final Map<Long, V> sparse = new HashMap<>();
    /** Values ever put: the array grows to cover about twice as many ids. */
    private long puts;

    /**
     * @param id    an arrow id
     * @param value not null
     * @return the value already held for {@code id} (nothing is put then), or null when {@code value} was put
     */
    V putIfAbsent(long id, V value) {
        V old;
        if (inArray(id, true)) {
            old = at(id);
            if (old == null) {
                dense[(int) id] = value;
            }
        } else {
            old = sparse.putIfAbsent(id, value);
        }
        if (old == null) {
            puts++;
        }
        return old;
    }

    /** @return the value held for {@code id}, no longer held, or null when none is */
    V remove(long id) {
        V old;
        if (inArray(id, false)) {
            old = at(id);
            dense[(int) id] = null;
        } else {
            old = sparse.isEmpty() ? null : sparse.remove(id);
        }
        return old;
    }

    /**
     * @param grow whether to grow the array to cover {@code id} when that keeps it within its bound
     * @return whether {@code id} is kept in the array
     */
    private boolean inArray(long id, boolean grow) {
        if (id >= 0 && id < dense.length) {
            return true;
        }
        if (!grow || id < 0 || id >= Math.min(MAX_DENSE, Math.max(MIN_DENSE, 2 * (puts + 1)))) {
            return false;
        }
        dense = Arrays.copyOf(dense, (int) Math.min(MAX_DENSE, Math.max(id + 1, 2L * dense.length)));
        // the ids the array covers now move into it from the map (an arrow's start may come long before its end)
        for (Iterator<Map.Entry<Long, V>> i = sparse.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<Long, V> e = i.next();
            long k = e.getKey();
            if (k >= 0 && k < dense.length) {
                dense[(int) k] = e.getValue();
                i.remove();
            }
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private V at(long id) {
        return (V) dense[(int) id];
    }
}
