package dev.dfx.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class TaskIdTest {
    @Test
    void textIsTheReferencesHexFormatAndParsesBack() {
        SplittableRandom random = new SplittableRandom(12);
        LongStream edges = LongStream.of(0, 1, 20, 0x1_0000_0005L, 0xFFFF_FFFFL, Long.MAX_VALUE, Long.MIN_VALUE, -1);
        char[] into = new char[TaskId.CHARS + 2];
        LongStream.concat(edges, random.longs(5000)).forEach(id -> {
            String text = TaskId.text(id);
            assertThat(new String(into, 0, TaskId.text(id, into))).isEqualTo(text);
            assertThat(text).as("%x", id).isEqualTo(String.format("0x%016x", id));
            assertThat(TaskId.append(new StringBuilder(), id).toString()).isEqualTo(text);
            assertThat(TaskId.parse(text)).isEqualTo(id);
        });
    }
}
