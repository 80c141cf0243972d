package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.FormatField;
import dev.dfx.perf.trace.RawData;
import dev.dfx.perf.trace.TracepointFields;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link TaskNames} gives what decoding {@link TracepointFields#string} gives, for names seen before or not, names
 * that collide in its table, and the edge cases of a C string in a fixed field (no NUL, a UTF-8 sequence cut by the
 * field's end, a field that the raw data cuts short). The expected names are written out by hand, and checked against
 * the uncached reading too.
 */
class TaskNamesTest {
    private static final FormatField COMM = field("next_comm", 8, 16);

    private static FormatField field(String name, int offset, int size) {
        return new FormatField(name, "char[" + size + "]", offset, size, false, true, false, false, true, false, false,
            size, 1);
    }

    private static EventFormat format(FormatField... fields) {
        return new EventFormat("sched", "sched_switch", 1, List.of(), List.of(fields), null, "", null, false);
    }

    /** A raw record of {@code size} bytes with {@code name}'s bytes at offset 8 (cut at the record's end). */
    private static RawData record(byte[] name, int size) {
        byte[] raw = new byte[size];
        if (size > 8) {
            System.arraycopy(name, 0, raw, 8, Math.min(name.length, size - 8));
        }
        return new RawData(MemorySegment.ofArray(raw), 0, size, Endian.LITTLE);
    }

    private static String read(TaskNames names, byte[] name, int size, FormatField f) {
        RawData d = record(name, size);
        TracepointFields fields = new TracepointFields(format(f), d);
        String got = names.of(fields, d, f);
        assertThat(got).isEqualTo(Utf8Names.decodeComm(fields.string(f)));
        return got;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void namesAreDecodedOnceAndComeBackTheSame() {
        TaskNames names = new TaskNames();
        String first = read(names, utf8("perf"), 32, COMM);
        assertThat(first).isEqualTo("perf");
        assertThat(read(names, utf8("perf"), 32, COMM)).isSameAs(first);
        assertThat(read(names, utf8("grüße"), 32, COMM)).isEqualTo("grüße");
        assertThat(read(names, utf8("per"), 32, COMM)).isEqualTo("per");
        assertThat(read(names, utf8(""), 32, COMM)).isEmpty();
        assertThat(read(names, utf8("perf"), 32, COMM)).isEqualTo("perf");
    }

    @Test
    void theEdgesOfAFixedField() {
        TaskNames names = new TaskNames();
        // 16 bytes and no NUL: the whole field
        assertThat(read(names, utf8("abcdefghijklmnopXYZ"), 40, COMM)).isEqualTo("abcdefghijklmnop");
        // a 3-byte character cut by the field's end after 15 + 1 bytes: the valid prefix
        byte[] cut = utf8("abcdefghijklmno日");
        assertThat(read(names, cut, 40, COMM)).isEqualTo("abcdefghijklmno");
        // the raw data ends inside the field, and before it
        assertThat(read(names, utf8("perf-exec"), 12, COMM)).isEqualTo("perf");
        assertThat(read(names, utf8("perf-exec"), 8, COMM)).isEmpty();
        assertThat(read(names, utf8("perf-exec"), 4, COMM)).isEmpty();
        // a field longer than those compared in place is read as TracepointFields reads it
        FormatField wide = field("name", 8, TaskNames.MAX_BYTES + 8);
        assertThat(read(names, utf8("wide"), 8 + TaskNames.MAX_BYTES + 8, wide)).isEqualTo("wide");
    }

    /**
     * A comm field read as two words: names that differ only after their NUL (a renamed task's old bytes) come back as
     * the same name, and names that differ in either word, or only in the last byte, stay apart.
     */
    @Test
    void commWordsDifferingAfterTheNulGiveTheSameName() {
        TaskNames names = new TaskNames();
        byte[] renamed = Arrays.copyOf(utf8("sh"), 16);
        System.arraycopy(utf8("orker/0:1H"), 0, renamed, 4, 10); // stale bytes after the NUL
        assertThat(read(names, utf8("sh"), 32, COMM)).isEqualTo("sh");
        assertThat(read(names, renamed, 32, COMM)).isEqualTo("sh");
        assertThat(read(names, utf8("abcdefghijklmnop"), 32, COMM)).isEqualTo("abcdefghijklmnop");
        assertThat(read(names, utf8("abcdefghijklmnoq"), 32, COMM)).isEqualTo("abcdefghijklmnoq");
        assertThat(read(names, utf8("bbcdefghijklmnop"), 32, COMM)).isEqualTo("bbcdefghijklmnop");
        assertThat(read(names, utf8("abcdefghijklmnop"), 32, COMM)).isEqualTo("abcdefghijklmnop");
        // a field at an odd offset (the words are read unaligned) and one of 15 bytes (read byte by byte)
        FormatField odd = field("comm", 9, 16);
        assertThat(read(names, Arrays.copyOf(utf8("xperf"), 17), 40, odd)).isEqualTo("perf");
        FormatField short15 = field("comm", 8, 15);
        assertThat(read(names, utf8("abcdefghijklmnop"), 40, short15)).isEqualTo("abcdefghijklmno");
    }

    /** Many more names than the table holds, in random order: colliding names push each other out, never mix. */
    @Test
    void collidingNamesStayApart() {
        TaskNames names = new TaskNames();
        SplittableRandom r = new SplittableRandom(7);
        String[] all = new String[TaskNames.SLOTS * 4];
        for (int i = 0; i < all.length; i++) {
            all[i] = "t" + i + (i % 3 == 0 ? "é" : "");
        }
        for (int n = 0; n < 50_000; n++) {
            String name = all[r.nextInt(all.length)];
            assertThat(read(names, Arrays.copyOf(utf8(name), 16), 32, COMM)).isEqualTo(name);
        }
    }
}
