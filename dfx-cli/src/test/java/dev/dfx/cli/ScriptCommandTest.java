package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.runtext.TestRun;
import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx script} / {@code dfx dump} command-line behaviour: perf's -F forms, perf's refusal messages,
 * one-line errors with exit status 1 that keep the output printed before them, run directories and the perf
 * options that do not apply to them.
 */
class ScriptCommandTest {
    private static String fixture(String name) {
        return Fixtures.perf(name).toString();
    }

    @Test
    void missingSampleFieldIsRefusedWithPerfsMessage() {
        CliRun run = CliRun.dfx("script", "-F", "comm,tid,time", "-i", fixture("page-faults-c1-notime.data"));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).endsWith("Samples for 'page-faults' event do not have TIME attribute set. "
            + "Cannot print 'time' field.\n");
        assertThat(run.out()).isEmpty();
    }

    /**
     * A field list without a type prefix warns once per event type it is not valid for, in perf 6.1's words: its
     * event_type() names only hardware, software, tracepoint and hardware-cache, the rest "unknown" (the lines are perf script 6.1.187's stderr on this file).
     */
    @Test
    void untypedFieldListWarnsInPerfsWords() {
        CliRun run = CliRun.dfx("script", "-F", "comm,tid,trace", "-i", fixture("irq-a.data"));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).isEqualTo("'trace' not valid for hardware events. Ignoring.\n"
            + "'trace' not valid for software events. Ignoring.\n"
            + "'trace' not valid for hardware-cache events. Ignoring.\n"
            + "'trace' not valid for unknown events. Ignoring.\n".repeat(4));
    }

    @Test
    void typedFieldListsOnlyChangeTheirType() {
        // sw: prefix: the tracepoint lines keep their defaults, the software lines print comm and period only
        CliRun run = CliRun.dfx("script", "-F", "sw:comm,period", "-i", fixture("raw-R-mixed.data"));
        assertThat(run.status()).as(run.err()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).isEqualTo("              sh 15670 [001]  1455.256093: sched:sched_process_exec: "
            + "filename=/usr/bin/sh pid=15670 old_pid=15670");
        assertThat(lines[1]).isEqualTo("              sh     250000 ");
    }

    @Test
    void addAndRemoveForms() {
        CliRun plus = CliRun.dfx("script", "-F", "+pid", "-i", fixture("irq-a.data"));
        assertThat(plus.out().split("\n")[0])
            .isEqualTo("              sh 17396/17396 [000]  1622.624199:     irq:softirq_raise: vec=9 [action=RCU]");
        CliRun minus = CliRun.dfx("script", "-F", "-cpu,-time", "-i", fixture("irq-a.data"));
        assertThat(minus.out().split("\n")[0])
            .isEqualTo("              sh 17396     irq:softirq_raise: vec=9 [action=RCU]");
        CliRun mixed = CliRun.dfx("script", "-F", "comm,+pid", "-i", fixture("irq-a.data"));
        assertThat(mixed.status()).isEqualTo(2);
        assertThat(mixed.err()).contains("cannot mix +-field with overridden fields");
    }

    @Test
    void unknownFieldIsAUsageError() {
        CliRun run = CliRun.dfx("script", "-F", "comm,bogus", "-i", fixture("irq-a.data"));
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("dfx: script: -F comm,bogus: invalid field requested: 'bogus' (see 'dfx script"
            + " --help')\n");
    }

    @Test
    void srclineIsRefusedNotIgnored() {
        for (String fields : new String[] {"ip,sym,srcline", "+srcline"}) {
            CliRun run = CliRun.dfx("script", "-F", fields, "-i", fixture("irq-a.data"));
            assertThat(run.status()).as(fields).isEqualTo(2);
            assertThat(run.out()).as(fields).isEmpty();
            assertThat(run.err()).as(fields).isEqualTo("dfx: script: -F " + fields + ": field 'srcline' is not"
                + " supported by dfx (source lines are not printed); leave it out (see 'dfx script --help')\n");
        }
    }

    @Test
    void anInputBesidesMinusIIsAUsageErrorNotIgnored() {
        // perf script takes the extra word for a script name and fails (exit 129); dfx must not read A alone
        for (String command : new String[] {"script", "dump"}) {
            CliRun run = CliRun.dfx(command, "-i", fixture("irq-a.data"), fixture("compressed-z.data"));
            assertThat(run.status()).isEqualTo(2);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).isEqualTo("dfx: " + command + ": Unmatched argument '" + fixture("compressed-z.data")
                + "': the input is given with -i already (" + fixture("irq-a.data") + ") (see 'dfx " + command
                + " --help')\n");
        }
    }

    @Test
    void truncatedFilePrintsWhatItReadThenOneErrorLine(@TempDir Path dir) throws IOException {
        byte[] full = Files.readAllBytes(Fixtures.perf("task-clock-c100000-cpu.data"));
        Path cut = dir.resolve("cut.data");
        Files.write(cut, Arrays.copyOf(full, 12000));
        // no kernel symbols: the recording's kernel is not this machine's, which dfx script would say on stderr
        CliRun run = CliRun.dfx("script", "-k", "/dev/null", "-i", cut.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out().split("\n")).hasSizeGreaterThan(200);
        assertThat(run.err()).matches("dfx: " + Pattern.quote(cut.toString()) + ": byte offset \\d+: truncated SAMPLE"
            + " record of 40 bytes: data section truncated at EOF 12000 \\(the header declares data up to byte"
            + " 19376\\)\n");
        assertThat(run.err().lines().count()).isEqualTo(1);
    }

    /**
     * A file cut inside its TRACING_DATA section (perf 6.1 crashes in script, report and report -D): the events lose
     * their formats; a script of their fields is refused in one line before any output, naming the file, the first
     * event's config and the cut, which takes the place of the warning (that the events have no format, and what was
     * read of the features cut: nothing is read after the refusal); a script without the trace field prints every
     * sample after that one warning (without a hint to leave out the trace field, which it already does).
     */
    @Test
    void truncatedTracingDataRefusesTheTraceFieldInOneLine(@TempDir Path dir) throws IOException {
        TracingDataCut c = TracingDataCut.of(Fixtures.perf("sched-switch-wakeup-a.data"), dir);
        CliRun run = CliRun.dfx("script", "-k", "/dev/null", "-i", c.file().toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(c.refusal() + "\n");
        CliRun fields = CliRun.dfx("script", "-k", "/dev/null", "-F", "comm,tid,time", "-i", c.file().toString());
        assertThat(fields.status()).as(fields.err()).isZero();
        assertThat(fields.out().lines().count())
            .isEqualTo(Files.readString(Fixtures.perf("sched-switch-wakeup-a.script.txt")).lines().count());
        // no hint to leave out trace: these fields already do
        c.assertWarning(fields.err(), "");
    }

    /** The same on a fresh system-wide sched_switch recording made here with the real perf (one tracepoint event). */
    @Test
    void aFreshRecordingCutInsideItsTracingDataIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("sched.data");
        List<String> cmd = List.of(LiveRecording.perf(), "record", "-N", "-q", "-e", "sched:sched_switch", "-a", "-o",
            data.toString(), "--", "sleep", "0.1");
        assumeTrue(LiveRecording.run(cmd, null) == 0 && Files.size(data) > 0, "perf record failed here: " + cmd);
        TracingDataCut c = TracingDataCut.of(data, dir);
        CliRun run = CliRun.dfx("script", "-k", "/dev/null", "-i", c.file().toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(c.refusal() + "\n");
        CliRun dump = CliRun.dfx("dump", "-i", c.file().toString());
        assertThat(dump.status()).as(dump.err()).isZero();
        c.assertWarning(dump.err(), "");
    }

    /**
     * The commands that do not refuse a file cut inside its TRACING_DATA section say the cut in one warning, each with
     * its own hint about the missing formats (or none: a dump prints the raw data, folded stacks never read the
     * fields), never script's.
     */
    @Test
    void commandsThatReadACutTracingDataWarnWithTheirOwnHint(@TempDir Path dir) throws IOException {
        TracingDataCut c = TracingDataCut.of(Fixtures.perf("sched-switch-wakeup-a.data"), dir);
        String in = c.file().toString();
        CliRun report = CliRun.dfx("report", "--stdio", "-k", "/dev/null", "-i", in);
        assertThat(report.status()).as(report.err()).isZero();
        c.assertWarning(report.err(), " (dfx report cannot sort them by trace)");
        // sorting by trace needs the formats: refused as script refuses its trace field, one line, nothing printed
        CliRun byTrace = CliRun.dfx("report", "--stdio", "--sort", "comm,trace", "-k", "/dev/null", "-i", in);
        assertThat(byTrace.status()).isEqualTo(1);
        assertThat(byTrace.out()).isEmpty();
        assertThat(byTrace.err()).isEqualTo(c.refusal().replace("whose fields are printed (-F without trace prints the"
            + " rest)", "to sort by trace (--sort without trace reports the rest)") + "\n");
        CliRun dump = CliRun.dfx("dump", "-i", in);
        assertThat(dump.status()).as(dump.err()).isZero();
        c.assertWarning(dump.err(), "");
        for (String format : List.of("chrome", "perfetto", "html")) {
            CliRun export = CliRun.dfx("export", "-k", "/dev/null", "-i", in, "--format", format, "-o",
                dir.resolve("t." + format).toString());
            assertThat(export.status()).as(export.err()).isZero();
            c.assertWarning(export.err(), " (dfx export draws them without their trace argument, and no per-cpu"
                + " task runs from sched:sched_switch)");
        }
        CliRun folded = CliRun.dfx("export", "-k", "/dev/null", "-i", in, "--format", "folded", "-o",
            dir.resolve("t.folded").toString());
        assertThat(folded.status()).as(folded.err()).isZero();
        // folded stacks count the first event's samples and say so in a line of their own after the warnings
        c.assertWarning(folded.err().lines().filter(l -> l.startsWith("dfx: warning: ")).collect(
            java.util.stream.Collectors.joining("\n")), "");
    }

    @Test
    void runDirectoriesAreListedAndDumped(@TempDir Path dir) throws IOException {
        Path run = TestRun.write(dir.resolve("run"));
        // chunk files without run.json: listed, and the missing manifest is named (exit 1)
        String noManifest = "dfx: " + run + ": not a run directory (no run.json); listed the chunk files without it\n";
        CliRun script = CliRun.dfx("script", "--ns", run.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.err()).isEqualTo(noManifest);
        assertThat(script.out().lines().toList()).hasSize(8)
            .first().asString().startsWith("       core-task     0 [000]     2.000500000: swimlane:core-task: ");
        CliRun dump = CliRun.dfx("dump", "-i", run.toString());
        assertThat(dump.status()).isEqualTo(1);
        assertThat(dump.err()).isEqualTo(noManifest);
        assertThat(dump.out()).startsWith("\n0@chunks/deps.dfx [0x48]: chunk file header\n");
    }

    @Test
    void perfOnlyOptionsAreRefusedForARunDirectory(@TempDir Path dir) throws IOException {
        Path run = TestRun.write(dir.resolve("run"));
        CliRun fields = CliRun.dfx("script", "-F", "comm", run.toString());
        assertThat(fields.status()).isEqualTo(1);
        assertThat(fields.err()).isEqualTo("dfx: option -F: for perf.data files; " + run + " is a run directory (its"
            + " listing has every record with all its fields; --ns applies)\n");
        CliRun header = CliRun.dfx("dump", "--header", run.toString());
        assertThat(header.status()).isEqualTo(1);
        assertThat(header.err()).isEqualTo("dfx: option --header: for perf.data files; " + run + " is a run directory"
            + " (its dump is every chunk header and record as stored)\n");
        CliRun evlist = CliRun.dfx("dump", "--evlist", run.toString());
        assertThat(evlist.status()).isEqualTo(1);
        assertThat(evlist.err()).isEqualTo("dfx: option --evlist: for perf.data files; " + run + " is a run directory"
            + " (its dump is every chunk header and record as stored)\n");
        CliRun empty = CliRun.dfx("script", dir.toString());
        assertThat(empty.status()).isEqualTo(1);
        assertThat(empty.err()).isEqualTo("dfx: " + dir + ": not a run directory (neither run.json nor chunks/ in it)"
            + "; expected a run directory written by dfx record, or a perf.data file\n");
    }

    @Test
    void headerOnlyAndEvlistFromTheCommandLine() {
        CliRun header = CliRun.dfx("script", "--header-only", "-i", fixture("irq-a.data"));
        assertThat(header.out()).startsWith("# ========\n# captured on    : ").contains("# hostname : vm\n")
            .endsWith("# ========\n#\n");
        CliRun evlist = CliRun.dfx("dump", "--evlist", "-i", fixture("irq-a.data"));
        assertThat(evlist.out()).startsWith("irq:tasklet_exit: type: 2, size: 128, config: 0xdb,");
    }

    /**
     * perf report -D --header prints the header (perf's --header-only text) and then the dump without the line that
     * points to --header: checked against the two goldens perf printed for the fixture, the file's capture time (its
     * modification time, which a checkout changes) masked.
     */
    @Test
    void dumpWithHeaderIsTheHeaderThenTheDumpWithoutItsPointer() throws IOException {
        String name = fixture("irq-a.data");
        String header = Files.readString(Path.of(name.replace(".data", ".header.txt")));
        String dump = Files.readString(Path.of(name.replace(".data", ".dump.txt")));
        String pointer = "# To display the perf.data header info, please use --header/--header-only options.\n#\n";
        assertThat(dump).startsWith(pointer);
        CliRun run = CliRun.dfx("dump", "--header", "-i", name);
        assertThat(run.status()).isZero();
        // perf report -D names the file as given: the goldens were made inside testdata/perf
        String out = run.out().replace("@" + name + " ", "@irq-a.data ");
        assertThat(maskCaptured(out)).isEqualTo(maskCaptured(header + dump.substring(pointer.length())));
    }

    private static String maskCaptured(String text) {
        return text.replaceFirst("(?m)^# captured on    : .*$", "# captured on    : <masked>");
    }
}
