package dev.dfx.export;

import dev.dfx.record.TaskId;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The args of one trace event, refilled for every event ({@link #reset()}, then {@link #add}), so that a walk that
 * draws millions of events allocates no map, entry or boxed number per event: the trace writers read the entries
 * through {@link #size()}, {@link #key(int)} and the typed accessors. Seen as a {@link Map} (what {@link TraceSink}
 * takes), it is a read-only view in insertion order whose numbers are boxed on access ({@link Integer} or
 * {@link Long}, as added).
 *
 * <p>Keys must be distinct within one event (checked). Values: strings, ints, longs, booleans, task ids (seen as their
 * text, a string), or any other object the sink contract allows (maps, doubles), kept by reference. Not thread-safe;
 * a sink must not keep the instance past the call it was given to.
 */
public final class TraceArgs extends AbstractMap<String, Object> {
    private static final byte OBJECT = 0, INT = 1, LONG = 2, BOOLEAN = 3, TASK_ID = 4;

    private String[] keys = new String[8];
    private Object[] objects = new Object[8];
    private long[] numbers = new long[8];
    private byte[] kinds = new byte[8];
    private int size;
    /** Entries whose value is an object ({@link #add(String, Object)}); the others hold no reference. */
    private int objectEntries;
    private final Set<Map.Entry<String, Object>> entries = new Entries();

    /** Empties the args for the next event; returns this. */
    public TraceArgs reset() {
        if (objectEntries > 0) {
            Arrays.fill(objects, 0, size, null);
        }
        size = 0;
        objectEntries = 0;
        return this;
    }

    /**
     * Empties the args for the next event, which fills them right away, without clearing the values' references
     * first: each is replaced as its entry is added, and those past the new size stay reachable until the args are
     * filled that far again. Returns this. For the args an {@link AsyncTraceSink} lends per call, refilled millions
     * of times.
     */
    TraceArgs refill() {
        size = 0;
        objectEntries = 0;
        return this;
    }

    /** Adds a string (or any other allowed object) value; returns this. @throws IllegalArgumentException on a repeated key */
    public TraceArgs add(String key, Object value) {
        return entry(key, OBJECT, 0, value);
    }

    /** Adds an int value; returns this. @throws IllegalArgumentException on a repeated key */
    public TraceArgs add(String key, int value) {
        return entry(key, INT, value, null);
    }

    /** Adds a long value; returns this. @throws IllegalArgumentException on a repeated key */
    public TraceArgs add(String key, long value) {
        return entry(key, LONG, value, null);
    }

    /** Adds a boolean value; returns this. @throws IllegalArgumentException on a repeated key */
    public TraceArgs add(String key, boolean value) {
        return entry(key, BOOLEAN, value ? 1 : 0, null);
    }

    /**
     * Adds a task id, whose value is its text ({@link TaskId#text(long)}, a string): kept as the number, so that a
     * writer of bytes writes the text in place and a run's trace makes no String per bar. Returns this.
     *
     * @throws IllegalArgumentException on a repeated key
     */
    public TraceArgs addTaskId(String key, long taskId) {
        return entry(key, TASK_ID, taskId, null);
    }

    /**
     * Makes this args a copy of {@code from}'s entries, in its order: of another {@link TraceArgs} as they were added,
     * of any other map with its Integer, Long and Boolean values as ints, longs and booleans (what {@link #value}
     * gives back), the rest by reference. Returns this.
     *
     * @throws IllegalArgumentException when {@code from} is this args
     */
    public TraceArgs copyOf(Map<String, ?> from) {
        if (from == this) {
            throw new IllegalArgumentException("args copied onto themselves");
        }
        reset();
        if (from instanceof TraceArgs a) {
            if (keys.length < a.size) {
                grow(a.keys.length);
            }
            System.arraycopy(a.keys, 0, keys, 0, a.size);
            System.arraycopy(a.objects, 0, objects, 0, a.size);
            System.arraycopy(a.numbers, 0, numbers, 0, a.size);
            System.arraycopy(a.kinds, 0, kinds, 0, a.size);
            size = a.size;
            objectEntries = a.objectEntries;
            return this;
        }
        for (Map.Entry<String, ?> e : from.entrySet()) {
            switch (e.getValue()) {
                case Integer i -> add(e.getKey(), (int) i);
                case Long l -> add(e.getKey(), (long) l);
                case Boolean b -> add(e.getKey(), (boolean) b);
                case null, default -> add(e.getKey(), e.getValue());
            }
        }
        return this;
    }

    private TraceArgs entry(String key, byte kind, long number, Object object) {
        int at = slot(key);
        kinds[at] = kind;
        if (kind == OBJECT) {
            objectEntries++;
        }
        numbers[at] = number;
        if (objects[at] != object) { // see slot
            objects[at] = object;
        }
        return this;
    }

    private int slot(String key) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                throw new IllegalArgumentException("arg '" + key + "' given twice");
            }
        }
        if (size == keys.length) {
            grow(size * 2);
        }
        // A reference is stored only where it changes: args refilled per event ({@link #refill}) mostly repeat their
        // keys and many values, and the args an AsyncTraceSink lends live long enough to be old, where G1's write
        // barrier makes every reference stored into them cost a memory fence (under G1, filling the lent args was a
        // sixth of a perf.data export's walk); the serial collector's barrier is one store either way.
        if (keys[size] != key) {
            keys[size] = key;
        }
        return size++;
    }

    private void grow(int n) {
        keys = Arrays.copyOf(keys, n);
        objects = Arrays.copyOf(objects, n);
        numbers = Arrays.copyOf(numbers, n);
        kinds = Arrays.copyOf(kinds, n);
    }

    @Override
    public int size() {
        return size;
    }

    /** @return whether every entry is an int, a long, a boolean or a task id: none holds an object */
    boolean numbersOnly() {
        return objectEntries == 0;
    }

    /** @return the key of entry {@code i} (insertion order, 0-based) */
    String key(int i) {
        return keys[i];
    }

    /** @return whether entry {@code i} is an int or a long ({@link #number(int)}) */
    boolean isInteger(int i) {
        return kinds[i] == INT || kinds[i] == LONG;
    }

    /** @return whether entry {@code i} is a boolean ({@link #number(int)}: 1 or 0) */
    boolean isBoolean(int i) {
        return kinds[i] == BOOLEAN;
    }

    /** @return whether entry {@code i} is a task id ({@link #number(int)}), whose value is its text */
    boolean isTaskId(int i) {
        return kinds[i] == TASK_ID;
    }

    /** @return the integer (or 1/0 for a boolean, the id of a task id) of entry {@code i} */
    long number(int i) {
        return numbers[i];
    }

    /** @return entry {@code i}'s value, boxed when it is a number or boolean, a task id's text */
    Object value(int i) {
        return switch (kinds[i]) {
            case INT -> (int) numbers[i];
            case LONG -> numbers[i];
            case BOOLEAN -> numbers[i] != 0;
            case TASK_ID -> TaskId.text(numbers[i]);
            default -> objects[i];
        };
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        return entries;
    }

    private final class Entries extends AbstractSet<Map.Entry<String, Object>> {
        @Override
        public Iterator<Map.Entry<String, Object>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < size;
                }

                @Override
                public Map.Entry<String, Object> next() {
                    if (next >= size) {
                        throw new NoSuchElementException();
                    }
                    int i = next++;
                    return new SimpleImmutableEntry<>(keys[i], value(i));
                }
            };
        }

        @Override
        public int size() {
            return size;
        }
    }
}
