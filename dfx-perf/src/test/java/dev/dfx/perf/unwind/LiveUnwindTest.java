package dev.dfx.perf.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.report.PerfReport;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.text.TextSink;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --call-graph dwarf} as the real perf prints it, on recordings made here with the real perf of programs
 * built here: dwarfwork.c at -O2 without frame pointers, with them, and stripped of {@code .symtab} (keeping
 * {@code .eh_frame}), calling into a shared library that calls back, with a signal handler and recursion deeper
 * than 127 frames and than the stack copy; and symwork.c's write system calls (a kernel callchain, then the
 * unwound user one). {@code dfx script} (default fields and {@code -F ip,sym,symoff,dso}) and {@code dfx report}
 * (children, {@code --no-children}, {@code -g none}) equal perf's output byte for byte, also where the stack copies
 * hold random words and where the DSOs' {@code .eh_frame} and {@code .eh_frame_hdr} have random bytes (given through
 * {@code --symfs}). Both run with their defaults, inlined frames included (from libc's debug information where
 * libc6-dbg is installed). Both sides use an empty build-id cache. Skipped, with the reason, where perf is
 * missing or may not record.
 */
class LiveUnwindTest {
    /** perf's random tip at the end of a report: {@code #}, {@code # (Tip: ...)}, {@code #}. */
    private static final int TIP_LINES = 3;
    /** A frame of dwarfwork.c's SIGALRM handler, reached through the kernel's signal frame. */
    private static final String HANDLER_FRAME = "on_alarm+0x";

    @TempDir
    static Path dir;
    private static Path emptyCache;

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        String cc = CPrograms.compiler();
        String src = Path.of("src/test/c").toAbsolutePath().toString();
        String rpath = DwarfWork.RPATH;
        DwarfWork.build(dir);
        CPrograms.run(dir, List.of(cc, "-O2", "-fno-omit-frame-pointer", "-o", "dwarfwork-fp", src + "/dwarfwork.c",
            "-L.", "-ldwarflib", rpath));
        CPrograms.run(dir, List.of(cc, "-O2", "-s", "-o", "dwarfwork-stripped", src + "/dwarfwork.c", "-L.",
            "-ldwarflib", rpath));
        CPrograms.run(dir, List.of(cc, "-O1", "-fPIC", "-shared", "-o", "libsymlib.so", src + "/symlib.c"));
        CPrograms.run(dir, List.of(cc, "-O1", "-o", "symwork", src + "/symwork.c", "-L.", "-lsymlib", rpath));
        emptyCache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        for (String p : List.of("dwarfwork", "dwarfwork-fp", "dwarfwork-stripped")) {
            recordDwarfWork(p);
        }
        record("syscalls.data", "-e", "syscalls:sys_enter_write", "--call-graph", "dwarf", "--", "./symwork", "30");
    }

    @ParameterizedTest(name = "perf script {1} of {0}")
    @CsvSource(delimiter = '|', value = {
        "dwarfwork||main\\+0x[0-9a-f]+ \\(/\\S*/dwarfwork\\)",
        "dwarfwork|-F ip,sym,symoff,dso|on_alarm\\+0x",
        "dwarfwork-fp||dwarflib_apply\\+0x[0-9a-f]+ \\(/\\S*/libdwarflib.so\\)",
        "dwarfwork-fp|-F ip,sym,symoff,dso|recurse\\S*\\+0x",
        "dwarfwork-stripped||\\[unknown\\] \\(/\\S*/dwarfwork-stripped\\)\\n\\s+[0-9a-f]+ dwarflib_apply",
        "dwarfwork-stripped|-F ip,sym,symoff,dso|dwarflib_apply\\+0x",
        "syscalls||syscall_work\\+0x[0-9a-f]+ \\(/\\S*/symwork\\)",
        "syscalls|-F ip,sym,symoff,dso|main\\+0x",
    })
    void scriptEqualsPerf(String name, String fields, String unwound) throws IOException {
        Path data = dir.resolve(name + ".data");
        String ours = Goldens.script(data, data.getFileName().toString(), fields == null ? null : fields.substring(3),
            SymbolOptions.defaults().withBuildIdDir(emptyCache));
        Goldens.assertSame(name + " " + fields, perfScript(data, fields, List.of()), ours);
        assertThat(ours).as("frames unwound from the stack copy").containsPattern(unwound);
    }

    @Test
    void deepRecursionStopsAtPerfsMaximumDepth() throws IOException {
        String ours = Goldens.script(dir.resolve("dwarfwork.data"), "dwarfwork.data", null,
            SymbolOptions.defaults().withBuildIdDir(emptyCache));
        int longest = 0;
        for (String sample : ours.split("\n\n")) {
            int user = 0;
            for (String line : sample.split("\n")) {
                user += line.startsWith("\t") && !line.endsWith("([kernel.kallsyms])") ? 1 : 0;
            }
            longest = Math.max(longest, user);
        }
        assertThat(longest).as("user frames of the deepest sample").isEqualTo(UserStackUnwinder.MAX_STACK);
    }

    @ParameterizedTest(name = "perf report {0}")
    @ValueSource(strings = {"", "--no-children", "-g none"})
    void reportEqualsPerf(String option) throws IOException {
        for (String name : List.of("dwarfwork", "dwarfwork-stripped")) {
            Path data = dir.resolve(name + ".data");
            List<String> args = new ArrayList<>(List.of("--buildid-dir", emptyCache.toString(), "report", "--stdio",
                "-i", data.getFileName().toString()));
            if (!option.isEmpty()) {
                args.addAll(Arrays.asList(option.split(" ")));
            }
            LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
            assertThat(perf).isNotNull();
            assertThat(perf.status()).as("perf report status").isZero();
            String[] lines = perf.out().split("\n", -1);
            assertThat(lines[lines.length - 3]).as("perf's tip").startsWith("# (");
            String expected = String.join("\n", Arrays.copyOf(lines, lines.length - 1 - TIP_LINES)) + "\n";
            PerfReport.Options opt = new PerfReport.Options(null, null,
                option.equals("--no-children") ? Boolean.FALSE : null, !option.equals("-g none"), null,
                SymbolOptions.defaults().withBuildIdDir(emptyCache));
            String ours = Goldens.capture(out -> {
                try (PerfSession s = PerfSession.open(data, data.getFileName().toString())) {
                    TextSink sink = new TextSink(out);
                    PerfReport.print(s, opt, sink);
                    sink.flush();
                }
            });
            Goldens.assertSame(name + " report " + option, expected, ours);
        }
    }

    /** Random words written over parts of every stack copy: garbage return addresses and frame pointers. */
    @ParameterizedTest(name = "random stack words, seed {0}")
    @ValueSource(ints = {1, 2, 3})
    void garbageStacksUnwindAsPerfUnwindsThem(int seed) throws IOException {
        for (String name : List.of("dwarfwork", "dwarfwork-fp")) {
            Path data = dir.resolve(name + ".data");
            byte[] bytes = Files.readAllBytes(data);
            SplittableRandom rnd = new SplittableRandom(seed);
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (long[] stack : stacks(data)) {
                long words = stack[1] / 8;
                long first = stack[0] + 8 + 8 * rnd.nextLong(words);
                for (int i = 0, n = rnd.nextInt(1, 16); i < n && first + 8 * i + 8 <= stack[0] + 8 + stack[1]; i++) {
                    b.putLong((int) (first + 8 * i), rnd.nextBoolean() ? rnd.nextLong() : rnd.nextLong(1 << 16));
                }
            }
            Path garbage = Files.write(dir.resolve(name + "-garbage" + seed + ".data"), bytes);
            String ours = Goldens.script(garbage, garbage.getFileName().toString(), null,
                SymbolOptions.defaults().withBuildIdDir(emptyCache));
            Goldens.assertSame(garbage.getFileName().toString(), perfScript(garbage, null, List.of()), ours);
        }
    }

    /** Random bytes in the program's and the library's unwind tables, read by both tools through --symfs. */
    @ParameterizedTest(name = "corrupt .eh_frame, seed {0}")
    @ValueSource(ints = {11, 12, 15, 16, 18, 21, 22})
    void corruptUnwindTablesUnwindAsPerfUnwindsThem(int seed) throws IOException {
        Path symfs = dir.resolve("symfs-" + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (String file : List.of("dwarfwork", "libdwarflib.so")) {
            byte[] bytes = Files.readAllBytes(dir.resolve(file));
            dev.dfx.perf.symbol.elf.ElfFile elf = dev.dfx.perf.symbol.elf.ElfFile.parse(file, bytes.clone());
            for (int i = 0; i < 2; i++) {
                var s = elf.section(rnd.nextBoolean() ? ".eh_frame" : ".eh_frame_hdr");
                bytes[(int) (s.offset() + rnd.nextLong(s.size()))] = (byte) rnd.nextInt(256);
            }
            Path copy = Path.of(symfs.toString() + dir.resolve(file));
            Files.createDirectories(copy.getParent());
            Files.write(copy, bytes);
        }
        Path data = dir.resolve("dwarfwork.data");
        String ours = Goldens.script(data, data.getFileName().toString(), null,
            SymbolOptions.defaults().withBuildIdDir(emptyCache).withSymfs(symfs));
        Goldens.assertSame("seed " + seed, perfScript(data, null, List.of("--symfs", symfs.toString())), ours);
    }

    /** A stack copy whose dyn_size says more bytes are valid than it holds: perf cannot parse it, nor can dfx. */
    @Test
    void dynSizeBeyondTheCopyIsRefused() throws IOException {
        Path data = dir.resolve("dwarfwork.data");
        byte[] bytes = Files.readAllBytes(data);
        long[] stack = stacks(data).get(5);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
            .putLong((int) (stack[0] + 8 + stack[2]), stack[2] + 4096);
        Path lying = Files.write(dir.resolve("dyn-size.data"), bytes);
        assertThatThrownBy(() -> Goldens.script(lying, "dyn-size.data", null,
            SymbolOptions.defaults().withBuildIdDir(emptyCache)))
            .isInstanceOf(BadInputException.class)
            .hasMessageContaining("byte offset " + stack[3])
            .hasMessageContaining("dyn_size " + (stack[2] + 4096));
        LivePerf perf = LivePerf.run(dir, "script", "-i", "dyn-size.data");
        assertThat(perf).isNotNull();
        Pattern header = Pattern.compile("(?m)^ *dwarfwork ");
        Matcher m = header.matcher(perf.out());
        int printed = 0;
        while (m.find()) {
            printed++;
        }
        assertThat(printed).as("perf stops at the lying sample too").isLessThan(stacks(data).size());
    }

    /**
     * @return per sample with a stack copy: {file offset of its STACK_USER size field, dyn_size, size, file offset
     *         of the record}
     */
    private static List<long[]> stacks(Path data) {
        List<long[]> out = new ArrayList<>();
        try (PerfSession s = PerfSession.open(data, data.getFileName().toString())) {
            for (Iterator<TimedRecord> it = s.fileOrder(); it.hasNext(); ) {
                TimedRecord t = it.next();
                if (t.record().type() == RecordType.SAMPLE && t.sample() != null && t.sample().stackUserSize() > 0
                    && t.sample().stackUserDynSize() > 0) {
                    out.add(new long[] {t.record().fileOffset() + t.sample().stackUserOffset(),
                        t.sample().stackUserDynSize(), t.sample().stackUserSize(), t.record().fileOffset()});
                }
            }
        }
        assertThat(out).as("samples with stack copies").hasSizeGreaterThan(10);
        return out;
    }

    private static String perfScript(Path data, String fields, List<String> more) {
        return LivePerf.script(data, emptyCache, fields, more);
    }

    /**
     * Records {@code program} until perf itself shows a sample taken in the signal handler: the handler runs about 1 %
     * of the time, so on a loaded machine (the kernel lowers the sample rate when dwarf stack copies take long) a short
     * recording can miss it. Each retry runs twice as long; the tests then compare against whatever perf recorded.
     */
    private static void recordDwarfWork(String program) throws IOException {
        String out = program + ".data";
        for (int ms = 300; ; ms *= 2) {
            record(out, "-e", "cpu-clock", "-F", "4000", "--call-graph", "dwarf", "--", "./" + program,
                Integer.toString(ms));
            if (ms >= 2400 || !program.equals("dwarfwork") || perfScript(dir.resolve(out), "-F ip,sym,symoff,dso", List.of())
                .contains(HANDLER_FRAME)) {
                return;
            }
        }
    }

    private static void record(String out, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("record", "-N", "-q", "-o", out));
        cmd.addAll(List.of(args));
        LivePerf rec = LivePerf.run(dir, cmd.toArray(String[]::new));
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf " + String.join(" ", cmd)).isZero();
    }
}
