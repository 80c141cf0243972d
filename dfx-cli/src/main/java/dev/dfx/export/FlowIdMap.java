package dev.dfx.export;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Values by flow arrow id, for a trace writer's arrows whose one end is written and whose other is not. A run's
 * trace numbers its arrows 1, 2, 3, ... ({@link DependencyFlows}) and opens and closes one per dependency edge: such
 * ids are kept in an array indexed by the id, with no boxed key or map entry per arrow and no hashing (a map of
 * {@code Long} was a sixth of the trace's drawing of core bars). Any other id (negative, or far beyond the ids
 * seen so far) goes to a map.
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
    /** Values held now. */
    private int size;

    /** @return whether no value is held */
    boolean isEmpty() {
        return size == 0;
    }

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
            size++;
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
        if (old != null) {
            size--;
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
        if (!sparse.isEmpty()) {
            return false; // an id the array would cover now may be held in the map: it stays there
        }
        dense = Arrays.copyOf(dense, (int) Math.min(MAX_DENSE, Math.max(id + 1, 2L * dense.length)));
        return true;
    }

    @SuppressWarnings("unchecked")
    private V at(long id) {
        return (V) dense[(int) id];
    }
}
