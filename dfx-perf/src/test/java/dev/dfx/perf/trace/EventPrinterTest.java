package dev.dfx.perf.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.Endian;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Print formats evaluated over a hand-built raw record, against results worked out by hand from
 * libtraceevent's rules (including its operator re-association, which perf's timer goldens show, and its
 * handling of enum names in {@code __print_symbolic} and of {@code %c}).
 */
class EventPrinterTest {
    /** A format with a field of each kind the print formats below read; {@code %s} is replaced by the print format. */
    static final String FORMAT = """
        name: test_event
        ID: 7
        format:
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
        \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
        \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
        \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

        \tfield:unsigned int flags;\toffset:8;\tsize:4;\tsigned:0;
        \tfield:int val;\toffset:12;\tsize:4;\tsigned:1;
        \tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;
        \tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;
        \tfield:unsigned long args[2];\toffset:40;\tsize:16;\tsigned:0;
        \tfield:void * ptr;\toffset:56;\tsize:8;\tsigned:0;

        print fmt: %s
        """;

    /** flags 0x20, val -3, comm "bash", name "eth0", args {0x10, 0xdead}, ptr 0. */
    private static RawData record() {
        return record(-3, "bash", true, 0);
    }

    /**
     * flags 0x20, val {@code val}, comm {@code comm} (NUL-padded to 16 bytes, none when 16 long), name "eth0" (or an
     * empty dynamic string), args {0x10, 0xdead}, and {@code last} in the 8 bytes at 56 (ptr).
     */
    static RawData record(int val, String comm, boolean name, long last) {
        ByteBuffer b = ByteBuffer.allocate(72).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 7);
        b.putInt(8, 0x20);
        b.putInt(12, val);
        b.put(16, comm.getBytes(StandardCharsets.ISO_8859_1));
        b.putInt(32, name ? (5 << 16) | 64 : 64); // __data_loc: offset 64, length 5 or 0
        b.putLong(40, 0x10);
        b.putLong(48, 0xdead);
        b.putLong(56, last);
        b.put(64, "eth0\0".getBytes(StandardCharsets.US_ASCII));
        return new RawData(MemorySegment.ofArray(b.array()), 0, 72, Endian.LITTLE);
    }

    private static String print(String printFmt, KernelSymbols syms) {
        EventFormat f = FormatParser.parse(FORMAT.replace("%s\n", printFmt + "\n"), "test", 8);
        StringBuilder sb = new StringBuilder();
        new EventPrinter(syms, Map.of(), 8).print(f, record(), sb);
        return sb.toString();
    }

    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        // plain fields: signedness comes from the conversion, not the field
        "`\"val=%d uval=%u\", REC->val, REC->val` => val=-3 uval=4294967293",
        "`\"%s|%-6s|%6s|\", REC->comm, REC->comm, REC->comm` => bash|bash  |  bash|",
        "`\"name=%s\", __get_str(name)` => name=eth0",
        "`\"a1=%lx\", REC->args[1]` => a1=dead",
        // fields are read unsigned at their size (no sign extension), arithmetic is unsigned 64-bit
        "`\"%ld\", (long)REC->val - 1` => 4294967292",
        "`\"%d\", REC->flags >> 4` => 2",
        // ternaries in string context
        "`\"%s\", REC->val ? \"yes\" : \"no\"` => yes",
        "`\"%s%s\", REC->flags & 0x20 ? \"S\" : \"R\", REC->flags & 0x1 ? \"+\" : \"\"` => S",
        // flags with a parenthesized mask: libtraceevent re-associates (flags & 0x10) | 0x20 | 0x40
        "`\"%s\", __print_flags(REC->flags & (0x10 | 0x20 | 0x40), \"|\", { 0x10, \"A\" }, { 0x20, \"B\" }, { 0x40, \"C\" })` => B|C",
        "`\"%s\", __print_flags(REC->flags, \"|\", { 0x10, \"A\" }, { 0x20, \"B\" })` => B",
        "`\"%s\", __print_flags(REC->flags | 0x3, \"|\", { 0x1, \"A\" })` => A|0x22",
        // symbolic: numeric keys match, enum names never do and the value prints in hex
        "`\"%s\", __print_symbolic(REC->flags, { 0x20, \"THIRTY_TWO\" })` => THIRTY_TWO",
        "`\"%s\", __print_symbolic(REC->flags, { SOME_ENUM, \"E\" })` => 0x20",
        "`\"%s\", __print_symbolic(REC->flags >> 5, { HRTIMER_RESTART, \"RESTART\" })` => RESTART",
        // pointers: %p is glibc's, %ps without symbols prints the address
        "`\"p=%p\", REC->ptr` => p=(nil)",
        "`\"f=%ps\", REC->args[1]` => f=0xdead",
        // %c is not a conversion libtraceevent knows: literal >c<, no argument used
        "`\"%c%d\", REC->val` => >c<-3",
        "`\"%%d\"` => %d",
    })
    void printsLikeLibtraceevent(String printFmt, String expected) {
        assertThat(print(printFmt, KernelSymbols.NONE)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        "`\"f=%ps\", REC->args[1]` => f=handler",
        "`\"f=%pS\", REC->args[1]` => f=handler+0xd",
    })
    void functionPointersUseTheKernelSymbols(String printFmt, String expected) {
        KernelSymbols syms = addr -> addr >= 0xdea0 && addr < 0xdf00 ? new KernelSymbols.Symbol("handler", 0xdea0)
            : null;
        assertThat(print(printFmt, syms)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`\"%d\", undefined_function(REC->val)`",
        "`\"%d %d\", REC->val`",
    })
    void unparsableFormatsPrintTheFieldsRaw(String printFmt) {
        assertThat(print(printFmt, KernelSymbols.NONE)).startsWith("[FAILED TO PARSE] flags=32 val=-3 comm=bash");
    }

    /**
     * Only the kernel-function conversions of printk ({@code %pS}, {@code %ps}, {@code %pF}, {@code %pf}) read kernel
     * symbols; other pointer extensions, plain pointers and fields do not (the list of EventPrinter.pointer).
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        "`\"f=%ps\", REC->ptr` => true",
        "`\"f=%pS\", REC->ptr` => true",
        "`\"%s f=%pf\", REC->comm, REC->ptr` => true",
        "`\"f=%pF\", REC->ptr` => true",
        "`\"p=%p\", REC->ptr` => false",
        "`\"%s %d %lx\", REC->comm, REC->val, REC->args[1]` => false",
        "`\"h=%*ph\", 2, REC->args` => false",
    })
    void onlyKernelFunctionConversionsReadSymbols(String printFmt, boolean reads) {
        EventFormat f = FormatParser.parse(FORMAT.replace("%s\n", printFmt + "\n"), "test", 8);
        assertThat(f.failed()).isFalse();
        int[] lookups = {0};
        KernelSymbols counting = addr -> {
            lookups[0]++;
            return null;
        };
        new EventPrinter(counting, Map.of(), 8).print(f, record(), new StringBuilder());
        assertThat(lookups[0] > 0).isEqualTo(reads);
    }
}
