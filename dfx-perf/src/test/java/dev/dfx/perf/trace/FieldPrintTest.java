package dev.dfx.perf.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.Endian;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pieces of a {@link FieldPrint}, spelled out with {@link Long#toString(long)}, {@link Long#toUnsignedString}
 * and one character per byte, against {@link EventPrinter#print} of the same records (whose own tests hold it to
 * libtraceevent's output): hand-built records first, then random bytes in every field (NULs, bytes past ASCII,
 * data_loc words that point anywhere).
 */
class FieldPrintTest {
    /** Fields of every kind a format taken apart reads: ints of each size and sign, a comm, a data_loc and rel_loc. */
    private static final String FORMAT = EventPrinterTest.HEADER + """
        \tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;
        \tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;
        \tfield:u64 runtime;\toffset:32;\tsize:8;\tsigned:0;
        \tfield:short prio;\toffset:40;\tsize:2;\tsigned:1;
        \tfield:unsigned char cpu;\toffset:42;\tsize:1;\tsigned:0;
        \tfield:__data_loc char[] name;\toffset:44;\tsize:4;\tsigned:0;
        \tfield:__rel_loc char[] rel;\toffset:48;\tsize:4;\tsigned:0;
        \tfield:s64 delta;\toffset:56;\tsize:8;\tsigned:1;

        print fmt: %s
        """;
    private static final int SIZE = 96;

    private static EventFormat format(String printFmt) {
        EventFormat f = FormatParser.parse(FORMAT.replace("%s\n", printFmt + "\n"), "test", 8);
        assertThat(f.failed()).isFalse();
        return f;
    }

    private static String printed(EventFormat f, RawData d) {
        StringBuilder sb = new StringBuilder();
        new EventPrinter(KernelSymbols.NONE, Map.of(), 8).print(f, d, sb);
        return sb.toString();
    }

    /** @return the text the pieces spell, each kind as the class says */
    private static String spelled(FieldPrint p, RawData d) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < p.size(); i++) {
            switch (p.kind(i)) {
                case LITERAL -> sb.append(p.literal(i));
                case SIGNED -> sb.append(Long.toString(p.number(i, d)));
                case UNSIGNED -> sb.append(Long.toUnsignedString(p.number(i, d)));
                case FORMATTED -> p.format(i, p.number(i, d), sb);
                case CHARS -> {
                    long from = p.charsFrom(i, d);
                    if (from >= 0) {
                        long to = p.charsTo(i, d, from);
                        for (long at = from; at < to; at++) {
                            int b = Endian.u8(d.seg(), at);
                            if (b == 0) {
                                break;
                            }
                            sb.append((char) b);
                        }
                    }
                }
            }
        }
        return sb.toString();
    }

    /** comm "perf", pid -3, runtime 2^64 - 5, prio -2, cpu 200, name "eth0" (data_loc), rel "x" (rel_loc). */
    private static RawData record() {
        byte[] b = new byte[SIZE];
        MemorySegment s = MemorySegment.ofArray(b);
        s.setString(8, "perf");
        s.set(ValueLayout.JAVA_INT_UNALIGNED, 24, -3);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 32, -5L);
        s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 40, (short) -2);
        s.set(ValueLayout.JAVA_BYTE, 42, (byte) 200);
        s.set(ValueLayout.JAVA_INT_UNALIGNED, 44, 5 << 16 | 72); // "eth0\0" at 72
        s.setString(72, "eth0");
        s.set(ValueLayout.JAVA_INT_UNALIGNED, 48, 2 << 16 | 28); // 52 + 28 = 80: "x\0"
        s.setString(80, "x");
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 56, Long.MIN_VALUE);
        return new RawData(s, 0, SIZE, Endian.LITTLE);
    }

    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        // the formats of a sched recording's most frequent events
        "`\"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(name), REC->pid, (unsigned long long)REC->runtime`"
            + " => comm=eth0 pid=-3 runtime=18446744073709551611 [ns]",
        "`\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->cpu`"
            + " => comm=perf pid=-3 prio=65534 target_cpu=200",
        // signedness and width come from the conversion; casts mask first
        "`\"%hd %hhd %hu %u %ld %lu\", REC->prio, REC->cpu, REC->prio, REC->pid, REC->pid, REC->delta`"
            + " => -2 -56 65534 4294967293 4294967293 9223372036854775808",
        "`\"%d %lld\", (u8)REC->pid, REC->delta` => 253 -9223372036854775808",
        "`\"%x|%5d|%-4u|%s\", REC->pid, REC->prio, REC->cpu, __get_rel_str(rel)` => fffffffd|65534|200 |x",
    })
    void spellsWhatThePrinterPrints(String printFmt, String expected) {
        EventFormat f = format(printFmt);
        FieldPrint p = FieldPrint.of(f);
        assertThat(p).isNotNull();
        assertThat(printed(f, record())).isEqualTo(expected);
        assertThat(spelled(p, record())).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {
        "\"%s\", REC->comm ? \"a\" : \"b\"",
        "\"%d\", REC->pid + 1",
        "\"p=%p\", REC->runtime",
        "\"%*d\", 4, REC->pid",
        "\"%-16s\", REC->comm",
        "\"%s\", __print_symbolic(REC->cpu, { 200, \"X\" })",
        "\"%s\", REC->pid",
    })
    void leavesOtherFormatsToThePrinter(String printFmt) {
        assertThat(FieldPrint.of(format(printFmt))).isNull();
    }

    /** Random bytes everywhere, data sizes cut short: the pieces still spell the printer's text. */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {
        "\"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(name), REC->pid, (unsigned long long)REC->runtime",
        "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->cpu",
        "\"%hd %hhd %hu %u %ld %lu %x %s\", REC->prio, REC->cpu, REC->prio, REC->pid, REC->pid, REC->delta,"
            + " REC->runtime, __get_rel_str(rel)",
    })
    void spellsRandomRecordsAsThePrinter(String printFmt) {
        EventFormat f = format(printFmt);
        FieldPrint p = FieldPrint.of(f);
        SplittableRandom random = new SplittableRandom(printFmt.hashCode());
        for (int n = 0; n < 5000; n++) {
            byte[] b = new byte[SIZE + 8];
            random.nextBytes(b);
            for (int i = 0; i < b.length; i++) { // many NULs and ASCII, as real names have
                if (random.nextInt(4) == 0) {
                    b[i] = 0;
                } else if (random.nextInt(2) == 0) {
                    b[i] = (byte) ('a' + random.nextInt(26));
                }
            }
            if (random.nextBoolean()) { // a data_loc that points inside the record
                MemorySegment.ofArray(b).set(ValueLayout.JAVA_INT_UNALIGNED, 44,
                    random.nextInt(20) << 16 | random.nextInt(SIZE + 4));
            }
            int size = random.nextInt(4) == 0 ? random.nextInt(SIZE) : SIZE;
            int base = random.nextInt(8);
            RawData d = new RawData(MemorySegment.ofArray(b), base, Math.min(size, b.length - base), Endian.LITTLE);
            assertThat(spelled(p, d)).isEqualTo(printed(f, d));
        }
    }
}
