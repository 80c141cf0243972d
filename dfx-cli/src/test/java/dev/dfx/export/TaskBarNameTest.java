package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link TaskBarName} against hand-written names and against {@link TraceEventBytes#string} of its text. */
class TaskBarNameTest {
    private static String written(TaskBarName name) {
        TraceEventBytes b = new TraceEventBytes();
        name.write(b);
        return new String(Arrays.copyOf(b.array(), b.size()), StandardCharsets.UTF_8);
    }

    @Test
    void namesAreTheReferenceBarNames() {
        TaskBarName n = new TaskBarName(Map.of("3", "axpb", "70000", "wide"));
        assertThat(n.bar(3, 20).toString()).isEqualTo("axpb(t20)");
        assertThat(n.bar(3, (1L << 32) | 5).toString()).isEqualTo("axpb(r1t5)");
        assertThat(n.bar(9, 0xFFFF_FFFFL).toString()).isEqualTo("func_9(t4294967295)");
        assertThat(n.bar(-2, 1).toString()).isEqualTo("func_-2(t1)");
        assertThat(n.bar(70000, -1L).toString()).isEqualTo("wide(r4294967295t4294967295)");
        assertThat(n.submit(3, 0).toString()).isEqualTo("submit axpb(t0)");
        assertThat(n.submit(7L << 32).toString()).isEqualTo("submit r7t0");
        assertThat(n.bar(3, 20).toString()).isEqualTo("axpb(t20)"); // the function kept from the first bar
        assertThat(written(n.submit(-2, 12))).isEqualTo("\"submit func_-2(t12)\"");
        assertThat(written(new TaskBarName(Map.of("1", "a\"b\\c\u00e9")).bar(1, 2)))
                .isEqualTo("\"a\\\"b\\\\c\u00e9(t2)\"");
    }

    @Test
    void writesTheBytesOfItsTextAsAJsonString() {
        SplittableRandom random = new SplittableRandom(20261203);
        Map<String, String> functions = new HashMap<>();
        for (int f = 0; f < 40; f++) {
            functions.put(Integer.toString(f), JsonWriterTest.hostile(random, random.nextInt(12)));
        }
        TaskBarName name = new TaskBarName(functions);
        TraceEventBytes written = new TraceEventBytes();
        TraceEventBytes expected = new TraceEventBytes();
        for (int i = 0; i < 5000; i++) {
            int funcId = random.nextInt(-3, 50);
            long taskId = random.nextBoolean() ? random.nextLong(1 << 20) : random.nextLong();
            switch (i % 3) {
                case 0 -> name.bar(funcId, taskId);
                case 1 -> name.submit(funcId, taskId);
                default -> name.submit(taskId);
            }
            name.write(written.reset());
            expected.reset().string(name.toString());
            assertThat(Arrays.copyOf(written.array(), written.size())).as("%s", name)
                    .isEqualTo(Arrays.copyOf(expected.array(), expected.size()));
        }
    }
}
