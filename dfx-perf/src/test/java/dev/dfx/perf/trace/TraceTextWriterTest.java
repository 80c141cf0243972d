package dev.dfx.perf.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.text.TextSink;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link TraceTextWriter} over hand-built raw records, against texts worked out by hand from glibc's printf and
 * libtraceevent's rules, and against {@link EventPrinter} (the reference it must match byte for byte) over seeded
 * random records of a {@code sched_switch}-like format.
 */
class TraceTextWriterTest {
    /** {@link EventPrinterTest#FORMAT} with a signed 64-bit field (a task state) where it has a pointer. */
    private static final String FORMAT = EventPrinterTest.FORMAT.replace("field:void * ptr;", "field:long state;");

    /** The state test of perf 6.1's sched_switch format, with its masks written out as sums of flag values. */
    private static final String SCHED_SWITCH_STATE = "\"state=%s%s\", (REC->state & ((((0x00000000 | 0x00000001"
        + " | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ?"
        + " __print_flags(REC->state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 |"
        + " 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002,"
        + " \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" },"
        + " { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->state & (((0x00000000 | 0x00000001 |"
        + " 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\"";

    /** {@link EventPrinterTest#record(int, String, boolean, long)}, its last 8 bytes the state. */
    private static RawData record(int val, String comm, boolean name, long state) {
        return EventPrinterTest.record(val, comm, name, state);
    }

    private static EventFormat format(String printFmt) {
        return FormatParser.parse(FORMAT.replace("%s\n", printFmt + "\n"), "test", 8);
    }

    private static String written(TraceTextWriter w, EventFormat f, RawData d) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TextSink out = new TextSink(bytes)) {
            w.print(f, d, out);
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    private static String printed(EventPrinter p, EventFormat f, RawData d) {
        StringBuilder sb = new StringBuilder();
        p.print(f, d, sb);
        return sb.toString();
    }

    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        // plain conversions: signedness from the conversion, the value cast to the conversion's width
        "`\"val=%d uval=%u\", REC->val, REC->val` => val=-3 uval=4294967293",
        "`\"%hhd %hd %lld %llu\", REC->val, REC->val, REC->val, REC->val` => -3 -3 4294967293 4294967293",
        "`\"%ld %lu\", (long)REC->state, REC->state` => -2 18446744073709551614",
        "`\"%x %lx %hx\", REC->val, REC->args[1], REC->val` => fffffffd dead fffd",
        // widths: spaces before a sign, zeros after it (glibc)
        "`\"[%03d] [%5d] [%03u] [%03d]\", REC->flags, REC->val, REC->flags, REC->val` => [032] [   -3] [032] [-03]",
        "`\"[%2d] [%08lu]\", REC->flags, REC->args[1]` => [32] [00057005]",
        // strings: a char array stops at its NUL, __get_str at the dynamic string's
        "`\"comm=%s name=%s|\", REC->comm, __get_str(name)` => comm=bash name=eth0|",
        "`\"%s|%-6s|%6s|\", REC->comm, REC->comm, REC->comm` => bash|bash  |  bash|",
        // a ternary over constant texts, flags and symbolic values
        "`\"%s\", REC->val ? \"yes\" : \"no\"` => yes",
        "`\"%s\", __print_flags(REC->flags & (0x10 | 0x20 | 0x40), \"|\", { 0x10, \"A\" }, { 0x20, \"B\" }, { 0x40, \"C\" })` => B|C",
        "`\"%s\", __print_symbolic(REC->flags >> 5, { HRTIMER_RESTART, \"RESTART\" })` => RESTART",
        "`\"%s\", __print_symbolic(REC->flags, { 0x21, \"X\" })` => 0x20",
        // constants folded where a number is read, the ternary's branches chosen per record
        "`\"%d %d\", (0x1 | 0x2) + 1 << 1, REC->flags & ((0x10 | 0x20) + 0)` => 8 32",
        "`\"%d\", !0 + -1` => 0",
        // pointers and unknown conversions stay with the EventPrinter
        "`\"p=%p f=%ps\", REC->state, REC->args[1]` => p=0xfffffffffffffffe f=0xdead",
        "`\"%c%d\", REC->val` => >c<-3",
        "`\"%%d\"` => %d",
    })
    void writesWhatLibtraceeventPrints(String printFmt, String expected) {
        EventFormat f = format(printFmt);
        EventPrinter printer = new EventPrinter(KernelSymbols.NONE, Map.of(), 8);
        RawData d = record(-3, "bash", true, -2);
        assertThat(written(new TraceTextWriter(printer), f, d)).isEqualTo(expected);
        assertThat(printed(printer, f, d)).isEqualTo(expected);
    }

    @Test
    void aFormatThatFailedPrintsItsFieldsRaw() {
        EventFormat f = format("\"%d\", undefined_function(REC->val)");
        assertThat(f.failed()).isTrue();
        String text = written(new TraceTextWriter(new EventPrinter(KernelSymbols.NONE, Map.of(), 8)), f,
            record(-3, "bash", true, 0));
        assertThat(text).startsWith("[FAILED TO PARSE] flags=32 val=-3 comm=bash");
    }

    @ParameterizedTest(name = "[{0} => {1}]")
    @CsvSource(delimiterString = " => ", value = {
        "0 => state=R", "1 => state=S", "2 => state=D", "3 => state=S|D", "128 => state=I", "256 => state=R+",
        "257 => state=S+", "512 => state=R", "4095 => state=S|D|T|t|X|Z|P|I+",
    })
    void theSchedSwitchStateAsPerfPrintsIt(long state, String expected) {
        EventFormat f = format(SCHED_SWITCH_STATE);
        TraceTextWriter w = new TraceTextWriter(new EventPrinter(KernelSymbols.NONE, Map.of(), 8));
        // a state's text is kept once made: ask twice, after another state in between
        assertThat(written(w, f, record(0, "x", true, state))).isEqualTo(expected);
        written(w, f, record(0, "x", true, state ^ 1));
        assertThat(written(w, f, record(0, "x", true, state))).isEqualTo(expected);
    }

    /**
     * One writer over many records of several formats (the plans and the kept flag texts reused between them),
     * against the EventPrinter record by record: comms of every length up to 16 (no NUL at 16), bytes above 0x7f,
     * empty dynamic strings, every sign and magnitude.
     */
    @Test
    void manyRecordsMatchTheEventPrinter() {
        EventFormat[] formats = {
            format(SCHED_SWITCH_STATE.replace("\"state=%s%s\"", "\"state=%s%s comm=%s\"") + ", REC->comm"),
            format("\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->val, REC->flags, REC->val"),
            format("\"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(name), REC->val, (unsigned long long)REC->state"),
            format("\"%s %5d %-5d| %x %u\", REC->comm, REC->val, REC->val, REC->state, REC->state"),
        };
        EventPrinter printer = new EventPrinter(KernelSymbols.NONE, Map.of(), 8);
        TraceTextWriter w = new TraceTextWriter(printer);
        SplittableRandom rnd = new SplittableRandom(20261203L);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder comm = new StringBuilder();
            int len = rnd.nextInt(17);
            for (int c = 0; c < len; c++) {
                comm.append((char) (rnd.nextBoolean() ? 'a' + rnd.nextInt(26) : 1 + rnd.nextInt(255)));
            }
            int val = rnd.nextInt() >> rnd.nextInt(32);
            long state = rnd.nextInt(4) == 0 ? rnd.nextLong() >> rnd.nextInt(64) : rnd.nextInt(1024);
            RawData d = record(val, comm.toString(), rnd.nextBoolean(), state);
            EventFormat f = formats[rnd.nextInt(formats.length)];
            assertThat(written(w, f, d)).as("record %d", i).isEqualTo(printed(printer, f, d));
        }
    }
}
