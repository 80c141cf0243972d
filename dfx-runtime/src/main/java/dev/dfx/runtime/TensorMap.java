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
final class TensorMap {
    /** Receives the edges found. */
    interface Sink {
        void edge(Task pred, Task succ, Tensor tensor, int argIndex, Hazard hazard);
    }

    private static final class Entry {
        final Region box;
        final Task writer;
        // readers: the first inline, more in arrays (most entries have at most one reader)
        Task reader0;
        Region readerBox0;
        Task[] readers;
        Region[] readerBoxes;
        int readerCount;
        Entry next; // next entry with the same first element

        Entry(Region box, Task writer) {
            this.box = box;
            this.writer = writer;
        }

        Task reader(int i) {
            return i == 0 ? reader0 : readers[i - 1];
        }

        Region readerBox(int i) {
            return i == 0 ? readerBox0 : readerBoxes[i - 1];
        }

        void addReader(Task t, Region b) {
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
                    readers = readers == null ? new Task[n] : Arrays.copyOf(readers, n);
                    readerBoxes = readerBoxes == null ? new Region[n] : Arrays.copyOf(readerBoxes, n);
                }
                readers[i] = t;
                readerBoxes[i] = b;
            }
            readerCount++;
        }
    }

    private static final class PerTensor {
        final TreeMap<Long, Entry> byFirst = new TreeMap<>();
        long maxSpan;
        int entries;
    }

    private final Map<Tensor, PerTensor> tensors = new HashMap<>();
    private final ArrayList<Entry> overlapping = new ArrayList<>();
    private volatile int live;

    /** @return entries currently held (a snapshot) */
    int liveEntries() {
        return live;
    }

    /** Reports the edges {@code task} needs for its tensor argument {@code arg}, then records the access. */
    void access(Task task, Arg arg, Sink sink) {
        Region b = arg.region();
        Tensor tensor = b.tensor();
        PerTensor pt = tensors.computeIfAbsent(tensor, k -> new PerTensor());
        for (Entry head : pt.byFirst.subMap(b.offset() - pt.maxSpan, true, b.lastIndex(), true).values()) {
            for (Entry e = head; e != null; e = e.next) {
                if (e.box.overlaps(b)) {
                    overlapping.add(e);
                }
            }
        }
        int idx = arg.index();
        if (arg.role() == ArgRole.INPUT) {
            boolean contained = false;
            for (int i = 0; i < overlapping.size(); i++) {
                Entry e = overlapping.get(i);
                if (e.writer != null && e.writer != task) {
                    sink.edge(e.writer, task, tensor, idx, Hazard.RAW);
                }
                e.addReader(task, b);
                contained |= e.box.contains(b);
            }
            if (!contained) {
                Entry e = new Entry(b, null);
                e.addReader(task, b);
                insert(pt, e);
            }
        } else {
            Hazard onWriter = arg.role() == ArgRole.INOUT ? Hazard.RAW : Hazard.WAW;
            for (int i = 0; i < overlapping.size(); i++) {
                Entry e = overlapping.get(i);
                boolean viaReader = false;
                for (int r = 0; r < e.readerCount; r++) {
                    Task reader = e.reader(r);
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
            insert(pt, new Entry(b, task));
        }
        overlapping.clear();
    }

    /** Drops every entry of {@code tensor} (its scope closed; no later submit names it). */
    void release(Tensor tensor) {
        PerTensor pt = tensors.remove(tensor);
        if (pt != null) {
            live -= pt.entries;
        }
    }

    private void insert(PerTensor pt, Entry e) {
        e.next = pt.byFirst.put(e.box.offset(), e);
        pt.maxSpan = Math.max(pt.maxSpan, e.box.lastIndex() - e.box.offset());
        pt.entries++;
        live++;
    }

    private void remove(PerTensor pt, Entry e) {
        long key = e.box.offset();
        Entry head = pt.byFirst.get(key);
        if (head == e) {
            if (e.next == null) {
                pt.byFirst.remove(key);
            } else {
                pt.byFirst.put(key, e.next);
            }
        } else {
            Entry p = head;
            while (p.next != e) {
                p = p.next;
            }
            p.next = e.next;
        }
        pt.entries--;
        live--;
    }
}
