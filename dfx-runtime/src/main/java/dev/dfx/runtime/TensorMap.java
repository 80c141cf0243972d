package dev.dfx.runtime;

import dev.dfx.record.ArgRole;
import dev.dfx.runtime.graph.Hazard;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who last wrote, and who has read since, each region of each tensor: the runtime's tensor map. For every
 * tensor argument of a task, in submit order, it reports the edges the task needs and records the access.
 * Generic in the task type so that the same map resolves live tasks ({@link Resolver}) and replays submit
 * records on the host ({@link GraphReplay}); tasks compare by identity, tensors by id.
 *
 * <p>An entry is a box written by one task (or by nobody: a region read before any task wrote it) plus
 * the readers that read part of it since. For a task {@code T} accessing box {@code b}:
 * <ul>
 *   <li>read: a RAW edge from the writer of every entry overlapping {@code b}; {@code T} becomes a reader
 *       of those entries (and of a new writer-less entry for {@code b} unless one entry contains it, so
 *       that a later writer of the unwritten part also waits for {@code T});</li>
 *   <li>write (output) or read-write (in-out): per overlapping entry, a WAR edge from each of its readers
 *       whose box overlaps {@code b}; only if there is none, an edge from its writer (RAW for an in-out,
 *       WAW for an output). Readers already follow their entry's writer, so that edge would be implied.
 *       Entries inside {@code b} are then dropped, and {@code b} becomes a new entry written by
 *       {@code T}.</li>
 * </ul>
 * Boxes compare exactly (per-dimension intervals); an entry only partly overwritten stays, which can add
 * edges that are implied, never miss one. Entries are found through a sorted map keyed by the box's
 * first element, scanning back by the longest entry span seen for the tensor.
 *
 * <p>Used by one thread at a time (the resolving scheduler, under the resolve lock);
 * {@link #liveEntries()} may be read from any thread.
 */
final class TensorMap<T> {
    /** Receives the edges found. */
    interface Sink<T> {
        void edge(T pred, T succ, int tensorId, int argIndex, Hazard hazard);
    }

    private static final class Entry<T> {
        final Region box;
        final T writer;
        // readers: the first inline, more in arrays (most entries have at most one reader)
        T reader0;
        Region readerBox0;
        Object[] readers;
        Region[] readerBoxes;
        int readerCount;
        Entry<T> next; // next entry with the same first element

        Entry(Region box, T writer) {
            this.box = box;
            this.writer = writer;
        }

        @SuppressWarnings("unchecked")
        T reader(int i) {
            return i == 0 ? reader0 : (T) readers[i - 1];
        }

        Region readerBox(int i) {
            return i == 0 ? readerBox0 : readerBoxes[i - 1];
        }

        void addReader(T t, Region b) {
            if (readerCount > 0 && reader(readerCount - 1) == t && readerBox(readerCount - 1) == b) {
                return;
            }
            if (readerCount == 0) {
                reader0 = t;
                readerBox0 = b;
            } else {
                int i = readerCount - 1;
                if (readers == null || i == readers.length) {
                    int n = Math.max(2, i * 2);
                    readers = readers == null ? new Object[n] : Arrays.copyOf(readers, n);
                    readerBoxes = readerBoxes == null ? new Region[n] : Arrays.copyOf(readerBoxes, n);
                }
                readers[i] = t;
                readerBoxes[i] = b;
            }
            readerCount++;
        }
    }

    private static final class PerTensor<T> {
        final TreeMap<Long, Entry<T>> byFirst = new TreeMap<>();
        long maxSpan;
        /** The highest last element of any entry inserted (entries since dropped included): none lies beyond it. */
        long maxLast = Long.MIN_VALUE;
        int entries;
    }

    private final Map<Integer, PerTensor<T>> tensors = new HashMap<>();
    private final ArrayList<Entry<T>> overlapping = new ArrayList<>();
    private volatile int live;

    /** @return entries currently held (a snapshot) */
    int liveEntries() {
        return live;
    }

    /**
     * Reports the edges {@code task} needs for one tensor argument, then records the access.
     *
     * @param tensor   the tensor's id
     * @param b        the region the argument names
     * @param role     how the task accesses it
     * @param argIndex the argument's position among the task's arguments
     */
    void access(T task, int tensor, Region b, ArgRole role, int argIndex, Sink<T> sink) {
        PerTensor<T> pt = tensors.computeIfAbsent(tensor, k -> new PerTensor<>());
        // a box past every entry (a tensor filled front to back, one region per task) overlaps none: no sorted-map walk
        if (b.offset() <= pt.maxLast) {
            for (Entry<T> head : pt.byFirst.subMap(b.offset() - pt.maxSpan, true, b.lastIndex(), true).values()) {
                for (Entry<T> e = head; e != null; e = e.next) {
                    if (e.box.overlaps(b)) {
                        overlapping.add(e);
                    }
                }
            }
        }
        int idx = argIndex;
        if (role == ArgRole.INPUT) {
            boolean contained = false;
            for (int i = 0; i < overlapping.size(); i++) {
                Entry<T> e = overlapping.get(i);
                if (e.writer != null && e.writer != task) {
                    sink.edge(e.writer, task, tensor, idx, Hazard.RAW);
                }
                e.addReader(task, b);
                contained |= e.box.contains(b);
            }
            if (!contained) {
                Entry<T> e = new Entry<>(b, null);
                e.addReader(task, b);
                insert(pt, e);
            }
        } else {
            Hazard onWriter = role == ArgRole.INOUT ? Hazard.RAW : Hazard.WAW;
            for (int i = 0; i < overlapping.size(); i++) {
                Entry<T> e = overlapping.get(i);
                boolean viaReader = false;
                for (int r = 0; r < e.readerCount; r++) {
                    T reader = e.reader(r);
                    if (reader != task && e.readerBox(r).overlaps(b)) {
                        sink.edge(reader, task, tensor, idx, Hazard.WAR);
                        viaReader = true;
                    }
                }
                if (!viaReader && e.writer != null && e.writer != task) {
                    sink.edge(e.writer, task, tensor, idx, onWriter);
                }
                if (b.contains(e.box)) {
                    remove(pt, e);
                }
            }
            insert(pt, new Entry<>(b, task));
        }
        overlapping.clear();
    }

    /** Drops every entry of tensor {@code tensor} (its scope closed; no later submit names it). */
    void release(int tensor) {
        PerTensor<T> pt = tensors.remove(tensor);
        if (pt != null) {
            live -= pt.entries;
        }
    }

    private void insert(PerTensor<T> pt, Entry<T> e) {
        e.next = pt.byFirst.put(e.box.offset(), e);
        pt.maxSpan = Math.max(pt.maxSpan, e.box.lastIndex() - e.box.offset());
        pt.maxLast = Math.max(pt.maxLast, e.box.lastIndex());
        pt.entries++;
        live++;
    }

    private void remove(PerTensor<T> pt, Entry<T> e) {
        long key = e.box.offset();
        Entry<T> head = pt.byFirst.get(key);
        if (head == e) {
            if (e.next == null) {
                pt.byFirst.remove(key);
            } else {
                pt.byFirst.put(key, e.next);
            }
        } else {
            Entry<T> p = head;
            while (p.next != e) {
                p = p.next;
            }
            p.next = e.next;
        }
        pt.entries--;
        live--;
    }
}
