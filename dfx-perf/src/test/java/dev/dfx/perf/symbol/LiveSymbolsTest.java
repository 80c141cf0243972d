package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Symbols as the real perf prints them, on recordings made here with the real perf of a C program built here
 * (its own functions, a shared library, libc, system calls): {@code dfx script} output is byte-identical with
 * {@code perf script}'s for the default fields and for {@code ip,sym,symoff,dso[,addr]}. Both read the same
 * files and an empty build-id cache. Skipped, with the reason, where perf is missing or may not record.
 */
class LiveSymbolsTest {
    /** A line of a resolved symbol of the test program. */
    private static final String USER_SYMBOL = " \\w+\\+0x[0-9a-f]+ \\(/\\S*/symwork\\)";
    /** A line of a kernel symbol. */
    private static final String KERNEL_SYMBOL = " [A-Za-z_][A-Za-z0-9_.]*\\+0x[0-9a-f]+ \\(\\[kernel.kallsyms\\]\\)";

    @TempDir
    static Path dir;
    private static Path emptyCache;

    @BeforeAll
    static void buildAndProbe() throws IOException {
        LivePerf.assumeRecords(dir);
        String cc = CPrograms.compiler();
        Path src = Path.of("src/test/c").toAbsolutePath();
        CPrograms.run(dir, List.of(cc, "-O1", "-fno-omit-frame-pointer", "-fPIC", "-shared", "-o", "libsymlib.so",
            src.resolve("symlib.c").toString()));
        CPrograms.run(dir, List.of(cc, "-O1", "-fno-omit-frame-pointer", "-o", "symwork",
            src.resolve("symwork.c").toString(), "-L.", "-lsymlib", "-Wl,-rpath,$ORIGIN"));
        CPrograms.run(dir, List.of(cc, "-O1", "-fno-omit-frame-pointer", "-s", "-o", "symwork-stripped",
            src.resolve("symwork.c").toString(), "-L.", "-lsymlib", "-Wl,-rpath,$ORIGIN"));
        emptyCache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        Files.createDirectories(dir.resolve("empty-symfs"));
    }

    @ParameterizedTest(name = "{0}: perf script {3}")
    @CsvSource(delimiter = '|', value = {
        "cpu-clock-g|-e cpu-clock -F 4000 -g|symwork||" + USER_SYMBOL,
        "cpu-clock-g|-e cpu-clock -F 4000 -g|symwork|-F ip,sym,symoff,dso|" + KERNEL_SYMBOL,
        "cpu-clock-g-stripped|-e cpu-clock -F 4000 -g|symwork-stripped||\\[unknown\\] \\(/.*symwork-stripped\\)",
        "cpu-clock-g-stripped|-e cpu-clock -F 4000 -g|symwork-stripped|-F ip,sym,symoff,dso|symlib_spin\\+0x",
        "syscalls-g|-e syscalls:sys_enter_write -g|symwork||" + USER_SYMBOL,
        "syscalls-g|-e syscalls:sys_enter_write -g|symwork|-F ip,sym,symoff,dso|" + USER_SYMBOL,
        "page-faults-d-g|-e page-faults -d -g|symwork|-F ip,sym,symoff,dso,addr|" + USER_SYMBOL,
        "page-faults-d-g|-e page-faults -d -g|symwork||" + KERNEL_SYMBOL,
        "cpu-clock-nog|-e cpu-clock -F 4000|symwork-stripped|-F comm,tid,ip,sym,symoff,dso|symlib_spin\\+0x",
    })
    void scriptEqualsPerf(String name, String events, String program, String fields, String resolved)
        throws IOException {
        Path data = record(name, events, program);
        List<String> args = new ArrayList<>(List.of("--buildid-dir", emptyCache.toString(), "script"));
        if (fields != null) {
            args.addAll(List.of(fields.split(" ")));
        }
        args.addAll(List.of("-i", data.getFileName().toString()));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        String ours = Goldens.script(data, data.getFileName().toString(),
            fields == null ? null : fields.substring(3), SymbolOptions.defaults().withBuildIdDir(emptyCache));
        Goldens.assertSame(name + " " + fields, perf.out(), ours);
        assertThat(ours).as("symbols of this recording resolved").containsPattern(resolved);
    }

    /**
     * {@code --call-graph dwarf} where neither tool can read the binaries ({@code --symfs} of an empty folder, an
     * empty build-id cache): nothing is unwound, only the callchain the kernel recorded is printed. Unwinding itself
     * is checked in {@code dev.dfx.perf.unwind.LiveUnwindTest}.
     */
    @ParameterizedTest(name = "dwarf: perf script --symfs EMPTY {0}")
    @CsvSource(delimiter = '|', value = {"''", "-F ip,sym,symoff,dso"})
    void dwarfCallchainsAsPerfPrintsThemWithoutUnwinding(String fields) throws IOException {
        Path data = record("dwarf", "-e cpu-clock -F 4000 --call-graph dwarf,4096", "symwork");
        Path empty = dir.resolve("empty-symfs");
        List<String> args = new ArrayList<>(List.of("--buildid-dir", emptyCache.toString(), "script", "--symfs",
            empty.toString()));
        if (!fields.isEmpty()) {
            args.addAll(List.of(fields.split(" ")));
        }
        args.addAll(List.of("-i", data.getFileName().toString()));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        String ours = Goldens.script(data, data.getFileName().toString(),
            fields.isEmpty() ? null : fields.substring(3),
            SymbolOptions.defaults().withBuildIdDir(emptyCache).withSymfs(empty));
        Goldens.assertSame("dwarf " + fields, perf.out(), ours);
    }

    private static Path record(String name, String events, String program) throws IOException {
        Path data = dir.resolve(name + ".data");
        if (Files.exists(data)) {
            return data;
        }
        List<String> args = new ArrayList<>(List.of("record", "-N", "-q"));
        args.addAll(List.of(events.split(" ")));
        args.addAll(List.of("-o", data.getFileName().toString(), "--", "./" + program, "150"));
        LivePerf rec = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf record " + String.join(" ", args)).isZero();
        return data;
    }
}
