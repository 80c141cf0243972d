package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A deferred part of a Chrome trace: drawn on its own thread, the same bytes as drawn in place. */
class ChromeTracePartTest {
    private static final long ORIGIN = 5_000_000_000L;

    /** Rows and bars before the part, the part (its own rows), bars drawn while it is drawn, then the metadata. */
    private static void draw(TraceSink w, int partBars, int ownBars) throws IOException {
        draw(w, w::defer, partBars, ownBars);
    }

    /** As {@link #draw(TraceSink, int, int)}, the part deferred by {@code defer}. */
    private static void draw(TraceSink w, Function<TraceSink.Part, TraceSink.Deferred> defer, int partBars,
                             int ownBars) throws IOException {
        w.process(1, "cores", 0);
        w.process(2, "schedulers", 1);
        w.thread(1, 10, "core 0", 10);
        w.complete(1, 10, "first", "task", ORIGIN, 5, Map.of());
        try (TraceSink.Deferred part = defer.apply(p -> {
            p.thread(2, 20, "sched 0 \"phases\"", 20);
            for (int i = 0; i < partBars; i++) {
                p.complete(2, 20, "phase " + i, "phase", ORIGIN + 10L * i, 7, Map.of("i", i, "name", "n\u00e9" + i));
                p.counter(2, "depth", ORIGIN + 10L * i, Map.of("ready", (long) i));
            }
        })) {
            for (int i = 0; i < ownBars; i++) {
                w.complete(1, 10, "task " + i, "task", ORIGIN + 3L * i, 2, Map.of("task_id", "0x" + i));
            }
            part.join();
        }
        w.complete(1, 10, "after", "task", ORIGIN, 1, Map.of());
        w.finish(Map.of("workload", "test"));
    }

    private static byte[] parallel(int partBars, int ownBars) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter w = new ChromeTraceWriter(out, ORIGIN);
        draw(w, partBars, ownBars);
        assertThat(w.eventCount()).isEqualTo(10 + 2L * partBars + ownBars);
        return out.toByteArray();
    }

    private static byte[] inPlace(int partBars, int ownBars) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        draw(SequentialSink.of(new ChromeTraceWriter(out, ORIGIN)), partBars, ownBars);
        return out.toByteArray();
    }

    @Test
    void aPartDrawnOnItsOwnThreadIsTheSameBytesAsDrawnInPlace() throws IOException {
        for (int[] sizes : new int[][] {{0, 0}, {1, 0}, {0, 3}, {3, 2}, {20_000, 30_000}}) {
            byte[] expected = inPlace(sizes[0], sizes[1]);
            assertThat(parallel(sizes[0], sizes[1])).as("%d part bars, %d own", sizes[0], sizes[1])
                    .isEqualTo(expected);
            JsonNode events = new ObjectMapper().readTree(expected).get("traceEvents");
            assertThat(events.size()).isEqualTo(10 + 2 * sizes[0] + sizes[1]);
            assertThat(events.get(events.size() - 1).get("name").asText()).isEqualTo("after");
        }
    }

    /**
     * A part past its memory limit: all of it in the spill file (a limit under a block), or its first block in memory
     * and the rest in the file; the same bytes, the spill file removed when the part is closed. 20,000 bars of the
     * part are some 2.7 MB, three blocks.
     */
    @Test
    void aPartPastItsMemoryLimitGoesOnInTheSpillFileWithTheSameBytes() throws IOException {
        for (long limit : new long[] {1, TraceSpill.BLOCK}) {
            for (int partBars : new int[] {0, 3, 20_000}) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ChromeTraceWriter w = new ChromeTraceWriter(out, ORIGIN);
                List<ChromeTracePart> parts = new ArrayList<>();
                draw(w, p -> {
                    ChromeTracePart part = ChromeTracePart.start(w, p, ORIGIN, limit);
                    parts.add(part);
                    return part;
                }, partBars, 2);
                assertThat(out.toByteArray()).as("limit %d, %d part bars", limit, partBars)
                        .isEqualTo(inPlace(partBars, 2));
                assertThat(parts.getFirst().spill()).doesNotExist();
            }
        }
    }

    @Test
    void theTraceCountsThePartsEventsAndItsLatestEnd() throws IOException {
        ChromeTraceWriter w = new ChromeTraceWriter(new ByteArrayOutputStream(), ORIGIN);
        w.process(1, "p", 0);
        try (TraceSink.Deferred part = w.defer(p -> p.complete(1, 2, "late", "c", ORIGIN + 100, 900, Map.of()))) {
            w.complete(1, 1, "early", "c", ORIGIN, 10, Map.of());
            assertThat(w.latestNs()).isEqualTo(ORIGIN + 10);
            part.join();
        }
        assertThat(w.latestNs()).isEqualTo(ORIGIN + 1000);
        assertThat(w.eventCount()).isEqualTo(4);
    }

    @Test
    void aPartsFailureIsThrownByTheJoinAndItsSpillFileRemoved() {
        ChromeTraceWriter w = new ChromeTraceWriter(new ByteArrayOutputStream(), ORIGIN);
        w.process(1, "p", 0);
        ChromeTracePart part = ChromeTracePart.start(w, p -> {
            p.complete(1, 2, "drawn", "c", ORIGIN, 1, Map.of());
            throw new IOException("chunk file unreadable");
        }, ORIGIN);
        assertThatThrownBy(part::join).isInstanceOf(IOException.class).hasMessage("chunk file unreadable");
        part.close();
        assertThat(part.spill()).doesNotExist();
        assertThat(w.eventCount()).isEqualTo(2);
    }

    @Test
    void aPartNotJoinedIsAwaitedAndRemovedByClose() {
        ChromeTraceWriter w = new ChromeTraceWriter(new ByteArrayOutputStream(), ORIGIN);
        w.process(1, "p", 0);
        ChromeTracePart part = ChromeTracePart.start(w, p -> p.complete(1, 2, "x", "c", ORIGIN, 1, Map.of()), ORIGIN);
        part.close();
        assertThat(part.spill()).doesNotExist();
        assertThat(w.eventCount()).isEqualTo(2);
        assertThatThrownBy(part::join).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPartDrawsNoArrowsNorSampledStacks() throws IOException {
        ChromeTraceWriter w = new ChromeTraceWriter(new ByteArrayOutputStream(), ORIGIN);
        w.process(1, "p", 0);
        try (TraceSink.Deferred part = w.defer(p -> p.complete(1, 2, "x", "c", ORIGIN, 1, Map.of(),
                new SliceFlows("dependency", new long[] {1}, new long[0])))) {
            assertThatThrownBy(part::join).isInstanceOf(IllegalStateException.class).hasMessageContaining("arrows");
        }
        ChromeTracePart stacks = ChromeTracePart.start(w, p -> p.sample(1, 2, "s", "c", ORIGIN, Map.of(),
                new SampledStack(1, 2, "t", 0, 0, List.of())), ORIGIN);
        assertThatThrownBy(stacks::join).isInstanceOf(IllegalStateException.class).hasMessageContaining("stacks");
        stacks.close();
        assertThat(Files.exists(stacks.spill())).isFalse();
    }
}
