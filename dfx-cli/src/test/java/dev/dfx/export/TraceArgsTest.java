package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceArgsTest {
    @Test
    void isTheMapOfItsEntriesInInsertionOrderWithTheirTypes() {
        TraceArgs a = new TraceArgs();
        Map<String, Object> inner = Map.of("k", 1L);
        a.reset().add("s", "text").add("i", 7).add("l", 1L << 40).add("b", true).add("m", inner).add("d", 2.5);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("s", "text");
        expected.put("i", 7);
        expected.put("l", 1L << 40);
        expected.put("b", true);
        expected.put("m", inner);
        expected.put("d", 2.5);
        assertThat(a).isEqualTo(expected);
        assertThat(List.copyOf(a.keySet())).containsExactly("s", "i", "l", "b", "m", "d");
        assertThat(List.copyOf(a.values())).containsExactlyElementsOf(expected.values());
        assertThat(a.get("i")).isInstanceOf(Integer.class);
        assertThat(a.get("l")).isInstanceOf(Long.class);
        // more entries than the first arrays hold, after a reset
        a.reset();
        for (int k = 0; k < 20; k++) {
            a.add("k" + k, k);
        }
        assertThat(a).hasSize(20).containsEntry("k19", 19).doesNotContainKey("s");
    }

    @Test
    void aTaskIdIsItsText() {
        TraceArgs a = new TraceArgs().addTaskId("task_id", (1L << 32) | 20).addTaskId("dep", -1L);
        assertThat(a).containsExactly(Map.entry("task_id", "0x0000000100000014"),
                Map.entry("dep", "0xffffffffffffffff"));
        assertThat(new TraceArgs().copyOf(a)).isEqualTo(a);
    }

    @Test
    void aRepeatedKeyIsRefused() {
        TraceArgs a = new TraceArgs().add("pid", 1);
        assertThatThrownBy(() -> a.add("pid", 2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pid");
        assertThatThrownBy(() -> a.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void bothWritersWriteItAsTheEquivalentMap() {
        TraceArgs a = new TraceArgs().add("comm", "a\"b").add("pid", -3).add("period", Long.MAX_VALUE).add("ok", false)
                .addTaskId("task_id", 0x1234_5678_9abc_def0L);
        Map<String, Object> same = new LinkedHashMap<>(a);
        for (TraceFormat f : TraceFormat.values()) {
            assertThat(trace(f, a)).as(f.cliName()).isEqualTo(trace(f, same));
        }
    }

    private static String trace(TraceFormat f, Map<String, ?> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceSink w = f.open(out, TraceClock.perf());
        w.process(1, "p", 0);
        w.thread(1, 2, "t", 0);
        w.instant(1, 2, "e", "c", 5, args);
        w.complete(1, 2, "s", "c", 6, 1, args);
        w.finish(args);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void numbersOnlyUntilAnObjectIsAddedAndAgainAfterAReset() {
        TraceArgs a = new TraceArgs().add("i", 1).add("l", 2L).add("b", true).addTaskId("task_id", 5);
        assertThat(a.numbersOnly()).isTrue();
        a.add("s", "text");
        assertThat(a.numbersOnly()).isFalse();
        assertThat(new TraceArgs().copyOf(a).numbersOnly()).isFalse();
        a.reset().add("i", 1);
        assertThat(a.numbersOnly()).isTrue();
        assertThat(a.add("n", (Object) null).numbersOnly()).isFalse();
        assertThat(a.refill().add("i", 3).numbersOnly()).isTrue();
        assertThat(new TraceArgs().copyOf(Map.of("x", 1)).numbersOnly()).isTrue();
        assertThat(new TraceArgs().copyOf(Map.of("x", 1.5)).numbersOnly()).isFalse();
    }
}
