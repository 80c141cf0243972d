package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table whose names are byte ranges of a text (kallsyms read whole) against the same symbols named by strings:
 * the fix-ups' choices (which compare names' underscores and lengths), the order, every lookup and each symbol's
 * module must be the same, and a symbol made on first use must be one instance for every thread.
 */
class SymbolTableNamesTest {
    /**
     * One symbol: start, size (mostly 0, as in kallsyms; sized ones overlap their neighbours), binding, module flag,
     * data object, name.
     */
    private record Line(long start, long size, int binding, boolean module, boolean object, String name) {
    }

    private static List<Line> lines(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 + r.nextInt(2000);
        List<Line> out = new ArrayList<>();
        long addr = r.nextBoolean() ? 0xffffffff81000000L : 0x1000;
        for (int i = 0; i < n; i++) {
            // runs of equal starts, small and page-sized steps, jumps back (out of order), high module addresses
            int step = r.nextInt(10);
            addr += step < 3 ? 0 : step < 8 ? 16L * r.nextInt(4) : 4096;
            long start = r.nextInt(12) == 0 ? 0xffffffffc0000000L + 16L * r.nextInt(4096)
                : r.nextInt(15) == 0 ? addr - 16L * r.nextInt(64) : addr;
            String name = "_".repeat(r.nextInt(3)) + "f" + r.nextInt(n) + (r.nextInt(3) == 0 ? "_longer" : "");
            out.add(new Line(start, r.nextInt(6) == 0 ? 16L * (1 + r.nextInt(40)) : 0, r.nextInt(3), Long.compareUnsigned(start, 0xffffffffc0000000L) >= 0,
                r.nextInt(6) == 0, name));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void namesAsByteRangesGiveTheTableThatNamesAsStringsGive(long seed) {
        List<Line> lines = lines(seed);
        StringBuilder text = new StringBuilder();
        int[] offsets = new int[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            text.append("x\n");
            offsets[i] = text.length();
            text.append(lines.get(i).name()).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
        SymbolTable.Builder strings = new SymbolTable.Builder();
        SymbolTable.Builder ranges = new SymbolTable.Builder(bytes);
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            strings.add(l.start(), l.start() + l.size(), l.binding(), l.name(), l.module(), l.object());
            ranges.addRange(l.start(), l.start() + l.size(), l.binding(), l.module(), l.object(), offsets[i], l.name().length());
        }
        for (boolean kallsyms : new boolean[] {true, false}) {
            SymbolTable expected = strings.build(kallsyms);
            SymbolTable got = ranges.build(kallsyms);
            assertThat(got.size()).isEqualTo(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(got.get(i)).isEqualTo(expected.get(i));
                Symbol s = expected.get(i);
                for (long probe : new long[] {s.start() - 1, s.start(), s.start() + 1, s.end() - 1, s.end()}) {
                    assertThat(got.find(probe)).as("lookup of 0x%x", probe).isEqualTo(expected.find(probe));
                }
            }
        }
        assertThat(strings.sorted().size()).isEqualTo(lines.size());
        SymbolTable sortedStrings = strings.sorted();
        SymbolTable sortedRanges = ranges.sorted();
        for (int i = 0; i < sortedStrings.size(); i++) {
            assertThat(sortedRanges.get(i)).isEqualTo(sortedStrings.get(i));
            long probe = sortedStrings.get(i).start();
            assertThat(sortedRanges.find(probe)).isEqualTo(sortedStrings.find(probe));
        }
    }

    /**
     * The kernel's part of a kallsyms table moved to where the recording's kernel ran: the same as the sorted table of
     * those symbols moved, whether they keep their order and sizes (made from the table's own symbols on first use)
     * or not (a move that wraps past zero; a selection that overlaps).
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void aSelectionMovedDownIsTheSortedTableOfItsSymbolsMoved(long seed) {
        SymbolTable.Builder b = new SymbolTable.Builder();
        for (Line l : lines(seed)) {
            b.add(l.start(), l.start() + l.size(), l.binding(), l.name(), l.module(), l.object());
        }
        SymbolTable t = b.build(seed % 2 == 0);
        SplittableRandom r = new SplittableRandom(seed);
        int[] picked = java.util.stream.IntStream.range(0, t.size()).filter(i -> r.nextInt(4) > 0).toArray();
        for (long delta : new long[] {0, 0x1000, t.start() + 0x10}) {
            SymbolTable.Builder moved = new SymbolTable.Builder();
            for (int i : picked) {
                Symbol s = t.get(i);
                moved.add(s.start() - delta, s.end() - delta, SymbolTable.GLOBAL, s.name(), false, s.object());
            }
            SymbolTable expected = moved.sorted();
            SymbolTable got = t.select(picked, delta);
            assertThat(got.size()).isEqualTo(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(got.get(i)).isEqualTo(expected.get(i));
                Symbol s = expected.get(i);
                for (long probe : new long[] {s.start() - 1, s.start(), s.end() - 1, s.end()}) {
                    assertThat(got.find(probe)).as("lookup of 0x%x", probe).isEqualTo(expected.find(probe));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void aSymbolLookedUpByManyThreadsAtOnceIsOneInstance(long seed) throws Exception {
        List<Line> lines = lines(seed);
        SymbolTable.Builder b = new SymbolTable.Builder();
        for (Line l : lines) {
            b.add(l.start(), l.start() + l.size(), l.binding(), l.name(), l.module(), l.object());
        }
        SymbolTable t = b.build(true);
        int threads = 4;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Symbol[]>> seen = new ArrayList<>();
            for (int k = 0; k < threads; k++) {
                seen.add(pool.submit(() -> {
                    go.await();
                    Symbol[] got = new Symbol[t.size()];
                    for (int i = 0; i < t.size(); i++) {
                        got[i] = t.get(i);
                    }
                    return got;
                }));
            }
            go.countDown();
            Symbol[] first = seen.get(0).get();
            for (Future<Symbol[]> f : seen) {
                Symbol[] other = f.get();
                for (int i = 0; i < first.length; i++) {
                    assertThat(other[i]).isSameAs(first[i]).isSameAs(t.get(i));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
