package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Records fresh perf.data files with the real {@code perf} of this machine (tracepoints, software events with
 * callchains and data addresses, a pipe-mode stream, a zstd-compressed file, the network tracepoints whose formats
 * print IPv4, IPv6 and socket addresses) and compares {@code dfx script}
 * and {@code dfx dump} with {@code perf script} and {@code perf report -D} on them, symbol lookups disabled on
 * both sides. Skipped, with the reason, where perf is missing or cannot record.
 */
class LivePerfTest {
    @TempDir
    static Path dir;

    private static final String WORK = "ls /usr/share/doc > /dev/null; cat /etc/hostname > /dev/null";

    private static String perf;
    /**
     * The recordings perf could make here: each comparison needs only its own (perf 6.1's {@code -z} hangs on some
     * kernels, tracefs or the sock, net, skb and tcp tracepoints may be missing).
     */
    private static final Set<String> RECORDED = new HashSet<>();

    /**
     * Two refused TCP connections over loopback, IPv4 and IPv6, by bash's {@code /dev/tcp}: socket state changes,
     * resets and packets whose formats print addresses with {@code %pI4}, {@code %pI6c} and {@code %pISpc} and
     * code locations with {@code %pS}.
     */
    private static final String NET_WORK =
        "(exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; (exec 3<>/dev/tcp/::1/9) 2>/dev/null; true";

    @BeforeAll
    static void record() throws Exception {
        perf = findPerf();
        assumeTrue(perf != null, "perf is not installed: live comparisons skipped");
        rec("tp.data", "-e", "sched:sched_process_exec,sched:sched_process_exit,"
            + "syscalls:sys_enter_openat,syscalls:sys_exit_openat,sched:sched_wakeup_new");
        rec("sw.data", "-e", "page-faults", "-c", "1", "-g", "-d", "--sample-cpu");
        rec("z.data", "-z", "-e", "page-faults,task-clock", "-c", "20");
        if (perfToFile("pipe.data", perf, "record", "-N", "-q", "-o", "-", "-e", "page-faults", "-c", "1", "-g",
            "--", "sh", "-c", WORK)) {
            RECORDED.add("pipe.data");
        }
        if (run(List.of(perf, "record", "-N", "-q", "-o", dir.resolve("net.data").toString(), "-e",
            "sock:*,net:*,skb:*,tcp:*", "--", "bash", "-c", NET_WORK), null) == 0
            && Files.size(dir.resolve("net.data")) > 0) {
            RECORDED.add("net.data");
        }
        assumeTrue(!RECORDED.isEmpty(), "perf record failed here (permissions or no tracefs): live comparisons"
            + " skipped");
    }

    private static void rec(String name, String... opts) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(perf, "record", "-N", "-q", "-o", dir.resolve(name).toString()));
        cmd.addAll(List.of(opts));
        cmd.addAll(List.of("--", "sh", "-c", WORK));
        if (run(cmd, null) == 0 && Files.size(dir.resolve(name)) > 0) {
            RECORDED.add(name);
        }
    }

    private static boolean perfToFile(String name, String... cmd) throws Exception {
        return run(List.of(cmd), dir.resolve(name).toFile()) == 0;
    }

    private static int run(List<String> cmd, File stdout) throws Exception {
        return LiveRecording.run(cmd, stdout);
    }

    private static String perfOutput(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(perf);
        cmd.addAll(args);
        Path out = Files.createTempFile(dir, "perf", ".txt");
        assertThat(run(cmd, out.toFile())).as("perf " + args).isZero();
        return new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1);
    }

    private static String findPerf() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "perf");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    static Stream<Arguments> comparisons() {
        String nosym = "--symfs=/nonexistent --kallsyms=/dev/null";
        return Stream.of(
            Arguments.of("tp.data", "script " + nosym, "script"),
            Arguments.of("tp.data", "script " + nosym + " -F comm,tid,pid,cpu,time,event,trace --ns",
                "script -F comm,tid,pid,cpu,time,event,trace --ns"),
            Arguments.of("tp.data", "script " + nosym + " --show-task-events --show-mmap-events",
                "script --show-task-events --show-mmap-events"),
            Arguments.of("sw.data", "script " + nosym, "script"),
            Arguments.of("sw.data", "script " + nosym + " -F comm,tid,time,event,period,addr,ip,sym,dso,misc",
                "script -F comm,tid,time,event,period,addr,ip,sym,dso,misc"),
            Arguments.of("z.data", "script " + nosym + " -F comm,tid,pid,time,event,period",
                "script -F comm,tid,pid,time,event,period"),
            Arguments.of("pipe.data", "script " + nosym, "script"),
            Arguments.of("tp.data", "report -D " + nosym, "dump"),
            Arguments.of("sw.data", "report -D " + nosym, "dump"),
            Arguments.of("z.data", "report -D " + nosym, "dump"),
            Arguments.of("pipe.data", "report -D " + nosym, "dump"),
            Arguments.of("sw.data", "evlist -v", "dump --evlist"),
            Arguments.of("net.data", "script " + nosym, "script"),
            Arguments.of("net.data", "report -D " + nosym, "dump"));
    }

    @ParameterizedTest(name = "{0}: perf {1}")
    @MethodSource("comparisons")
    void dfxPrintsWhatPerfPrints(String file, String perfArgs, String dfxArgs) throws Exception {
        assumeTrue(RECORDED.contains(file), "perf could not record " + file + " here: its comparisons are skipped");
        String path = dir.resolve(file).toString();
        List<String> p = new ArrayList<>(List.of(perfArgs.split(" ")));
        p.addAll(List.of("-i", path));
        String expected = perfOutput(p);
        List<String> d = new ArrayList<>(List.of(dfxArgs.split(" ")));
        if (dfxArgs.startsWith("script")) {
            // no symbol lookups, as perf's side: perf 6.1 leaves its build-id cache alone under --symfs
            d.addAll(List.of("--symfs", "/nonexistent", "-k", "/dev/null", "--buildid-dir",
                Files.createDirectories(dir.resolve("empty-buildid-cache")).toString()));
        }
        d.addAll(List.of("-i", path));
        CliRun run = CliRun.dfx(d.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(expected).as("perf printed something").isNotEmpty();
        ScriptGoldenTest.assertSameText(file + " " + dfxArgs, expected, run.out());
    }
}
