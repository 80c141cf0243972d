package dev.dfx.runtime;

import dev.dfx.record.ArgRole;
import dev.dfx.runtime.graph.Hazard;
import java.util.Arrays;
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
 * edges that are implied, never miss one. Overlapping entries are visited in ascending order of their box's first
 * element, the newest first among equal ones, which fixes the order of the edges reported. They are found through
 * a per-tensor sorted map of first elements (none until the tensor holds a second entry), scanning back by the
 * longest entry span seen for the tensor; tensors are found by id in an open-addressing table. Cost per access, for
 * a tensor with n entries: O(log n) plus the entries whose first element lies in that window, in whatever order
 * the tensor is written.
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

    /**
     * One tensor's entries. While it has held at most one entry, that entry is {@link #single} and there is no index:
     * most tensors (a task's private buffer, a tensor written whole by each task) never hold two. From the second
     * entry on, entries are indexed in {@link #byFirst} by their box's first element (the newest entry with that key;
     * older ones chained through {@link Entry#next}): a balanced tree, so that a tensor written in any order (back to
     * front, strided, at random) costs O(log n) an insert or removal.
     */
    private static final class PerTensor<T> {
        final int id;
        Entry<T> single;
        TreeMap<Long, Entry<T>> byFirst;
        long maxSpan;
        /** The highest last element of any entry inserted (entries since dropped included): none lies beyond it. */
        long maxLast = Long.MIN_VALUE;
        int entries;

        PerTensor(int id) {
            this.id = id;
        }

        void insert(Entry<T> e) {
            if (byFirst == null) {
                if (single == null) {
                    single = e;
                    return;
                }
                byFirst = new TreeMap<>();
                byFirst.put(single.box.offset(), single);
                single = null;
            }
            e.next = byFirst.put(e.box.offset(), e);
        }

        void remove(Entry<T> e) {
            if (byFirst == null) {
                single = null;
                return;
            }
            long key = e.box.offset();
            Entry<T> head = byFirst.get(key);
            if (head == e) {
                if (e.next == null) {
                    byFirst.remove(key);
                } else {
                    byFirst.put(key, e.next);
                }
            } else {
                Entry<T> p = head;
                while (p.next != e) {
                    p = p.next;
                }
                p.next = e.next;
            }
        }
    }

    /** Tensors by id: open addressing with linear probing, no boxed ids; capacity a power of two. */
    private PerTensor<T>[] table = newTable(16);
    private int tensorCount;
    private Object[] overlapping = new Object[8];
    private int overlappingCount;
    /** Entries held; written by the resolving thread only, published once per call through {@link #live}. */
    private int entries;
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
        PerTensor<T> pt = tensor(tensor);
        // a box past every entry (a tensor filled front to back, one region per task) overlaps none: no index walk
        if (b.offset() <= pt.maxLast) {
            if (pt.byFirst == null) {
                if (pt.single != null && pt.single.box.overlaps(b)) {
                    addOverlapping(pt.single);
                }
            } else {
                // an overlapping box shares an element with b, so its first element lies in [offset - maxSpan, last]
                // and its last one is at least offset: a cheap test that spares the per-dimension one for most of
                // the entries scanned back over (a box spanning rows puts many rows in the window)
                long first = b.offset();
                long last = b.lastIndex();
                for (Entry<T> head : pt.byFirst.subMap(first - pt.maxSpan, true, last, true).values()) {
                    for (Entry<T> e = head; e != null; e = e.next) {
                        if (e.box.lastIndex() >= first && e.box.overlaps(b)) {
                            addOverlapping(e);
                        }
                    }
                }
            }
        }
        int idx = argIndex;
        if (role == ArgRole.INPUT) {
            boolean contained = false;
            for (int i = 0; i < overlappingCount; i++) {
                Entry<T> e = overlapping(i);
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
            for (int i = 0; i < overlappingCount; i++) {
                Entry<T> e = overlapping(i);
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
                    pt.remove(e);
                    pt.entries--;
                    entries--;
                }
            }
            insert(pt, new Entry<>(b, task));
        }
        Arrays.fill(overlapping, 0, overlappingCount, null);
        overlappingCount = 0;
        live = entries;
    }

    /** Drops every entry of tensor {@code tensor} (its scope closed; no later submit names it). */
    void release(int tensor) {
        int mask = table.length - 1;
        int i = slot(tensor, mask);
        for (PerTensor<T> pt; (pt = table[i]) != null; i = (i + 1) & mask) {
            if (pt.id == tensor) {
                entries -= pt.entries;
                live = entries;
                tensorCount--;
                unlink(i, mask);
                return;
            }
        }
    }

    private void insert(PerTensor<T> pt, Entry<T> e) {
        pt.insert(e);
        pt.maxSpan = Math.max(pt.maxSpan, e.box.lastIndex() - e.box.offset());
        pt.maxLast = Math.max(pt.maxLast, e.box.lastIndex());
        pt.entries++;
        entries++;
    }

    private void addOverlapping(Entry<T> e) {
        if (overlappingCount == overlapping.length) {
            overlapping = Arrays.copyOf(overlapping, overlappingCount * 2);
        }
        overlapping[overlappingCount++] = e;
    }

    @SuppressWarnings("unchecked")
    private Entry<T> overlapping(int i) {
        return (Entry<T>) overlapping[i];
    }

    /** @return tensor {@code id}'s entries, added empty if absent */
    private PerTensor<T> tensor(int id) {
        int mask = table.length - 1;
        int i = slot(id, mask);
        for (PerTensor<T> pt; (pt = table[i]) != null; i = (i + 1) & mask) {
            if (pt.id == id) {
                return pt;
            }
        }
        PerTensor<T> pt = new PerTensor<>(id);
        table[i] = pt;
        if (++tensorCount > table.length / 2) {
            rehash(table.length * 2);
        }
        return pt;
    }

    private static int slot(int id, int mask) {
        return (id * 0x9E3779B9 >>> 16 ^ id * 0x9E3779B9) & mask; // ids are dense: spread them over the table
    }

    /** Empties slot {@code i}, moving later entries of its probe run back so that every lookup still finds them. */
    private void unlink(int i, int mask) {
        PerTensor<T>[] t = table;
        t[i] = null;
        for (int j = (i + 1) & mask; t[j] != null; j = (j + 1) & mask) {
            int home = slot(t[j].id, mask);
            // t[j] may move to i only if i lies on its probe path: cyclically within [home, j)
            if (((j - home) & mask) >= ((j - i) & mask)) {
                t[i] = t[j];
                t[j] = null;
                i = j;
            }
        }
    }

    private void rehash(int capacity) {
        PerTensor<T>[] old = table;
        table = newTable(capacity);
        int mask = capacity - 1;
        for (PerTensor<T> pt : old) {
            if (pt != null) {
                int i = slot(pt.id, mask);
                while (table[i] != null) {
                    i = (i + 1) & mask;
                }
                table[i] = pt;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> PerTensor<T>[] newTable(int capacity) {
        return (PerTensor<T>[]) new PerTensor<?>[capacity];
    }
}
