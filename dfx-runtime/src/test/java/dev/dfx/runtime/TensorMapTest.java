package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.ArgRole;
import dev.dfx.runtime.graph.Hazard;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tensor map against its specification: hand-worked sequences, and seeded random access sequences compared
 * with a brute-force model of the rules in {@link TensorMap}'s Javadoc (every entry in one list, the overlapping ones
 * visited by ascending first element, newest first among equal ones): the same edges in the same order, and the same
 * live entry count after every access and release.
 */
@Timeout(60)
class TensorMapTest {
    /** A task: compared by identity, as the map does. */
    private record Task(int id) {
    }

    private record Edge(int pred, int succ, int tensor, int argIndex, Hazard hazard) {
    }

    private static Region box1(int start, int len) {
        return Region.replayed(new int[] {start}, new int[] {len}, new int[] {1});
    }

    @Test
    void handWorkedSequenceThroughOneAndManyEntries() {
        TensorMap<Task> map = new TensorMap<>();
        List<Edge> edges = new ArrayList<>();
        TensorMap.Sink<Task> sink = (p, s, t, i, h) -> edges.add(new Edge(p.id(), s.id(), t, i, h));
        Task t1 = new Task(1);
        Task t2 = new Task(2);
        Task t3 = new Task(3);
        Task t4 = new Task(4);
        Task t5 = new Task(5);
        map.access(t1, 7, box1(0, 8), ArgRole.OUTPUT, 0, sink);    // [0,8) by t1
        map.access(t2, 7, box1(4, 8), ArgRole.INPUT, 1, sink);     // RAW 1->2; adds unwritten [4,12) read by t2
        assertThat(map.liveEntries()).isEqualTo(2);
        map.access(t3, 7, box1(6, 2), ArgRole.OUTPUT, 0, sink);    // WAR 2->3 from both entries (key 0, then key 4)
        map.access(t4, 7, box1(0, 12), ArgRole.INOUT, 2, sink);    // WAR 2->4 twice, RAW 3->4; drops all three
        assertThat(map.liveEntries()).isEqualTo(1);
        map.access(t5, 7, box1(6, 2), ArgRole.INPUT, 0, sink);     // RAW 4->5; contained: no new entry
        map.access(t5, 9, box1(0, 1), ArgRole.INPUT, 1, sink);     // another tensor: nothing written, an entry
        assertThat(map.liveEntries()).isEqualTo(2);
        map.release(7);
        assertThat(map.liveEntries()).isEqualTo(1);
        assertThat(edges).containsExactly(
                new Edge(1, 2, 7, 1, Hazard.RAW),
                new Edge(2, 3, 7, 0, Hazard.WAR),
                new Edge(2, 3, 7, 0, Hazard.WAR),
                new Edge(2, 4, 7, 2, Hazard.WAR),
                new Edge(2, 4, 7, 2, Hazard.WAR),
                new Edge(3, 4, 7, 2, Hazard.RAW),
                new Edge(4, 5, 7, 0, Hazard.RAW));
    }

    @Test
    void randomAccessSequencesMatchTheBruteForceModel() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int tensorCount = 1 + rnd.nextInt(40);
            int[] ids = new int[tensorCount];
            int[][] dims = new int[tensorCount][];
            for (int t = 0; t < tensorCount; t++) {
                // ids spread (negative, dense, far apart) so that the id table probes, grows and unlinks
                ids[t] = switch (rnd.nextInt(3)) {
                    case 0 -> t;
                    case 1 -> t * 64;
                    default -> rnd.nextInt();
                };
                for (int u = 0; u < t; u++) {
                    if (ids[u] == ids[t]) {
                        ids[t] = -t - 1;
                    }
                }
                dims[t] = switch (rnd.nextInt(3)) {
                    case 0 -> new int[] {1 + rnd.nextInt(64)};
                    case 1 -> new int[] {1 + rnd.nextInt(8), 1 + rnd.nextInt(16)};
                    default -> new int[] {1 + rnd.nextInt(4), 1 + rnd.nextInt(4), 1 + rnd.nextInt(6)};
                };
            }
            run(rnd, ids, dims, 50 + rnd.nextInt(1500), seed);
        }
    }

    private static void run(SplittableRandom rnd, int[] ids, int[][] dims, int tasks, long seed) {
        TensorMap<Task> map = new TensorMap<>();
        Model model = new Model();
        List<Edge> got = new ArrayList<>();
        List<Edge> want = new ArrayList<>();
        TensorMap.Sink<Task> sink = (p, s, t, i, h) -> got.add(new Edge(p.id(), s.id(), t, i, h));
        List<List<Region>> used = new ArrayList<>();
        for (int t = 0; t < ids.length; t++) {
            used.add(new ArrayList<>());
        }
        ArgRole[] roles = ArgRole.values();
        for (int k = 0; k < tasks; k++) {
            Task task = new Task(k);
            int args = 1 + rnd.nextInt(3);
            for (int a = 0; a < args; a++) {
                int t = rnd.nextInt(ids.length);
                Region b = region(rnd, dims[t], used.get(t));
                ArgRole role = roles[rnd.nextInt(roles.length)];
                map.access(task, ids[t], b, role, a, sink);
                model.access(task, ids[t], b, role, a, want);
                assertThat(got).as("seed %d task %d arg %d", seed, k, a).isEqualTo(want);
                got.clear();
                want.clear();
                assertThat(map.liveEntries()).as("seed %d task %d arg %d", seed, k, a).isEqualTo(model.live());
            }
            if (rnd.nextInt(50) == 0) {
                int t = rnd.nextInt(ids.length);
                map.release(ids[t]);
                model.release(ids[t]);
                used.get(t).clear();
                assertThat(map.liveEntries()).as("seed %d release at task %d", seed, k).isEqualTo(model.live());
            }
        }
    }

    /** A box of a tensor of shape {@code dims}: often one used before (the same object: reader dedup), the whole
     * tensor, a box inside a used one, or a fresh random one. */
    private static Region region(SplittableRandom rnd, int[] dims, List<Region> used) {
        int n = dims.length;
        int[] strides = new int[n];
        int s = 1;
        for (int d = n - 1; d >= 0; d--) {
            strides[d] = s;
            s *= dims[d];
        }
        int kind = rnd.nextInt(10);
        if (kind < 3 && !used.isEmpty()) {
            return used.get(rnd.nextInt(used.size()));
        }
        int[] start = new int[n];
        int[] shape = new int[n];
        Region inside = kind < 5 && !used.isEmpty() ? used.get(rnd.nextInt(used.size())) : null;
        for (int d = 0; d < n; d++) {
            int lo = inside == null ? 0 : inside.start(d);
            int len = inside == null ? dims[d] : inside.shape(d);
            if (kind == 9) {
                start[d] = 0;
                shape[d] = dims[d];
            } else {
                start[d] = lo + rnd.nextInt(len);
                shape[d] = 1 + rnd.nextInt(Math.min(lo + len - start[d], rnd.nextBoolean() ? 1 + rnd.nextInt(4) : len));
            }
        }
        Region b = Region.replayed(start, shape, strides);
        if (used.size() < 24) {
            used.add(b);
        } else {
            used.set(rnd.nextInt(used.size()), b);
        }
        return b;
    }

    /** The rules of {@link TensorMap}, by brute force: every entry of every tensor in one list. */
    private static final class Model {
        /** An entry: its box, its writer (null: none), when it was added, and its readers with their boxes. */
        private record E(int tensor, Region box, Task writer, long seq, List<Task> readers, List<Region> readerBoxes) {
            E(int tensor, Region box, Task writer, long seq) {
                this(tensor, box, writer, seq, new ArrayList<>(), new ArrayList<>());
            }

            void read(Task t, Region b) {
                int last = readers.size() - 1;
                if (last < 0 || readers.get(last) != t || readerBoxes.get(last) != b) {
                    readers.add(t);
                    readerBoxes.add(b);
                }
            }
        }

        private final List<E> entries = new ArrayList<>();
        private long seq;

        int live() {
            return entries.size();
        }

        void release(int tensor) {
            entries.removeIf(e -> e.tensor() == tensor);
        }

        void access(Task task, int tensor, Region b, ArgRole role, int argIndex, List<Edge> out) {
            List<E> hit = new ArrayList<>();
            for (E e : entries) {
                if (e.tensor() == tensor && e.box().overlaps(b)) {
                    hit.add(e);
                }
            }
            hit.sort(Comparator.comparingLong((E e) -> e.box().offset()).thenComparing(e -> -e.seq()));
            if (role == ArgRole.INPUT) {
                boolean contained = false;
                for (E e : hit) {
                    if (e.writer() != null && e.writer() != task) {
                        out.add(new Edge(e.writer().id(), task.id(), tensor, argIndex, Hazard.RAW));
                    }
                    e.read(task, b);
                    contained |= e.box().contains(b);
                }
                if (!contained) {
                    E e = new E(tensor, b, null, seq++);
                    e.read(task, b);
                    entries.add(e);
                }
                return;
            }
            for (E e : hit) {
                boolean viaReader = false;
                for (int r = 0; r < e.readers().size(); r++) {
                    if (e.readers().get(r) != task && e.readerBoxes().get(r).overlaps(b)) {
                        out.add(new Edge(e.readers().get(r).id(), task.id(), tensor, argIndex, Hazard.WAR));
                        viaReader = true;
                    }
                }
                if (!viaReader && e.writer() != null && e.writer() != task) {
                    out.add(new Edge(e.writer().id(), task.id(), tensor, argIndex,
                            role == ArgRole.INOUT ? Hazard.RAW : Hazard.WAW));
                }
                if (b.contains(e.box())) {
                    entries.removeIf(x -> x == e);
                }
            }
            entries.add(new E(tensor, b, task, seq++));
        }
    }
}
