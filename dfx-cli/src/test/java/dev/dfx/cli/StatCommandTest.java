package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.pmu.linux.LinuxSyscalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx stat} against real {@code perf stat} (perf 6.1 on the development machines): same rows, units and
 * layout; values within what the run-to-run noise of each event allows. Skipped where perf is absent.
 */
class StatCommandTest {
    private static final String EVENTS = "task-clock,context-switches,page-faults";
    /** A std counted line: value, unit, name, metric value and unit. */
    private static final Pattern STD = Pattern.compile("^ {0,17}([0-9.]+) (msec|    ) (\\S+) +# +([0-9.]+) (\\S.*?) *$");

    private static void assumePerf() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        assumeTrue(CliRun.perfWorks(), "perf is not installed or cannot count here: skipping the comparison with perf stat");
    }

    @Test
    void standardOutputMatchesPerfStat() {
        assumePerf();
        CliRun ours = CliRun.dfx("stat", "-e", EVENTS, "--", "sleep", "0.1");
        CliRun perf = CliRun.perf("stat", "-e", EVENTS, "--", "sleep", "0.1");
        assertThat(ours.status()).isZero();
        assertThat(perf.status()).isZero();
        String[] a = ours.err().split("\n", -1);
        String[] b = perf.err().split("\n", -1);
        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.length; i++) {
            // same layout line by line: same widths; the header and the words are identical
            assertThat(a[i].length()).as("line %d: '%s' vs '%s'", i, a[i], b[i]).isEqualTo(b[i].length());
            assertThat(shape(a[i])).isEqualTo(shape(b[i]));
        }
        List<double[]> av = values(a);
        List<double[]> bv = values(b);
        assertThat(av).hasSize(3);
        assertThat(bv).hasSize(3);
        // task-clock (msec): a sleep's CPU time is ~1 ms on either tool; a loaded 2-core machine adds noise
        assertThat(av.get(0)[0]).isBetween(bv.get(0)[0] / 5, bv.get(0)[0] * 5 + 1);
        // context switches: a handful
        assertThat(av.get(1)[0]).isBetween(0.0, 50.0);
        // page faults: the same program, so the same order of magnitude
        assertThat(av.get(2)[0]).isBetween(bv.get(2)[0] / 10, bv.get(2)[0] * 10);
        // elapsed: both ran sleep 0.1
        assertThat(elapsed(a)).isBetween(0.1, 2.0);
    }

    /**
     * perf's tool events: same lines as perf stat; duration_time is the
     * elapsed time and user_time the "seconds user" of the footer, to the ns; system_time of a sleep is 0, so
     * {@code <not counted>}, in both tools' runs.
     */
    @Test
    void toolEventsAreTheRunsTimesAsPerfStatPrintsThem() {
        assumePerf();
        String events = "duration_time,user_time,task-clock";
        CliRun ours = CliRun.dfx("stat", "-e", events, "--", "sleep", "0.1");
        CliRun perf = CliRun.perf("stat", "-e", events, "--", "sleep", "0.1");
        assertThat(ours.status()).isZero();
        String[] a = ours.err().split("\n", -1);
        String[] b = perf.err().split("\n", -1);
        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.length; i++) {
            // a sleep's user time is a few hundred us or, now and then, 0 (<not counted>): its line is checked below
            if (!a[i].contains(" user_time ")) {
                assertThat(shape(a[i])).as("line %d: '%s' vs '%s'", i, a[i], b[i]).isEqualTo(shape(b[i]));
            }
        }
        Matcher duration = Pattern.compile(" +([0-9]+) ns   duration_time ").matcher(ours.err());
        assertThat(duration.find()).as(ours.err()).isTrue();
        assertThat(Long.parseLong(duration.group(1))).isEqualTo(Math.round(elapsed(a) * 1e9));
        Matcher seconds = Pattern.compile(" +([0-9.]+) seconds user").matcher(ours.err());
        assertThat(seconds.find()).as(ours.err()).isTrue();
        long userNs = Math.round(Double.parseDouble(seconds.group(1)) * 1e9);
        assertThat(ours.err()).contains(userNs == 0 ? "     <not counted> ns   user_time "
                : String.format("%18d ns   user_time ", userNs));
    }

    @Test
    void csvOutputMatchesPerfStat() {
        assumePerf();
        CliRun ours = CliRun.dfx("stat", "-x,", "-e", EVENTS, "--", "sleep", "0.1");
        CliRun perf = CliRun.perf("stat", "-x,", "-e", EVENTS, "--", "sleep", "0.1");
        List<String[]> a = csv(ours.err());
        List<String[]> b = csv(perf.err());
        assertThat(a).hasSameSizeAs(b).hasSize(3);
        for (int i = 0; i < a.size(); i++) {
            String[] x = a.get(i);
            String[] y = b.get(i);
            assertThat(x).hasSize(7).hasSameSizeAs(y);
            assertThat(x[1]).isEqualTo(y[1]);          // unit
            assertThat(x[2]).isEqualTo(y[2]);          // event
            assertThat(x[4]).isEqualTo(y[4]).isEqualTo("100.00");
            assertThat(Long.parseLong(x[3])).isPositive();
            assertThat(Double.parseDouble(x[0])).isGreaterThanOrEqualTo(0);
            assertThat(x[5]).matches("[0-9.]+");
            assertThat(x[6]).endsWith(y[6].equals("CPUs utilized") ? "CPUs utilized" : "/sec");
        }
        double ourClock = Double.parseDouble(a.get(0)[0]);
        double perfClock = Double.parseDouble(b.get(0)[0]);
        assertThat(ourClock).isBetween(perfClock / 5, perfClock * 5 + 1);
        // the run time column is task-clock's ns, as perf prints it
        assertThat(Math.abs(Long.parseLong(a.get(0)[3]) / 1e6 - ourClock)).isLessThan(0.01);
        double ourFaults = Double.parseDouble(a.get(2)[0]);
        assertThat(ourFaults).isBetween(Double.parseDouble(b.get(2)[0]) / 10, Double.parseDouble(b.get(2)[0]) * 10);
    }

    /**
     * {@code event=NAME} names an event of the PMU, as the bare name does ({@code msr/event=tsc/} is
     * {@code msr/tsc/}): perf stat's CSV row for it, the name as written, a count of the same order.
     */
    @Test
    void anEventTermNamingAnEventOfThePmuCountsThatEvent() {
        assumePerf();
        assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of("/sys/bus/event_source/devices/msr/events")),
            "no msr PMU here");
        CliRun ours = CliRun.dfx("stat", "-x,", "-e", "msr/event=tsc/,msr/tsc/", "--", "sleep", "0.1");
        CliRun perf = CliRun.perf("stat", "-x,", "-e", "msr/event=tsc/,msr/tsc/", "--", "sleep", "0.1");
        assertThat(ours.status()).as(ours.err()).isZero();
        List<String[]> a = csv(ours.err());
        List<String[]> b = csv(perf.err());
        assertThat(a).hasSameSizeAs(b).hasSize(2);
        for (int i = 0; i < a.size(); i++) {
            String[] x = a.get(i);
            String[] y = b.get(i);
            assertThat(x).hasSameSizeAs(y);
            assertThat(x[1]).isEqualTo(y[1]);
            assertThat(x[2]).isEqualTo(y[2]).isEqualTo(i == 0 ? "msr/event=tsc/" : "msr/tsc/");
            assertThat(x[4]).isEqualTo(y[4]);
            double ours0 = Double.parseDouble(x[0]);
            double perf0 = Double.parseDouble(y[0]);
            assertThat(ours0).isBetween(perf0 / 20, perf0 * 20);
        }
    }

    /**
     * {@code -a -A}, {@code --per-core} and {@code --per-socket} against perf stat on this machine, in CSV: the same
     * rows in the same order with the same unit columns (CPU, or place and CPU count), units, events and metric
     * units; the clock of each unit is about its CPU count times the elapsed time, so each unit's CPUs utilized is
     * close to its CPU count. The standard layout's prefix columns are perf's too.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-A", "--per-core", "--per-socket"})
    void perCpuCoreAndSocketLinesMatchPerfStat(String option) {
        assumePerf();
        String events = "task-clock,context-switches";
        CliRun ours = CliRun.dfx("stat", "-a", option, "-x,", "-e", events, "--", "sleep", "0.2");
        CliRun perf = CliRun.perf("stat", "-a", option, "-x,", "-e", events, "--", "sleep", "0.2");
        assertThat(ours.status()).as(ours.err()).isZero();
        List<String[]> a = csv(ours.err());
        List<String[]> b = csv(perf.err());
        assertThat(a).hasSameSizeAs(b).isNotEmpty();
        int lead = option.equals("-A") ? 1 : 2;
        for (int i = 0; i < a.size(); i++) {
            String[] x = a.get(i);
            String[] y = b.get(i);
            assertThat(x).hasSameSizeAs(y);
            for (int c = 0; c < lead; c++) {
                assertThat(x[c]).isEqualTo(y[c]);
            }
            assertThat(x[lead + 1]).isEqualTo(y[lead + 1]);   // unit
            assertThat(x[lead + 2]).isEqualTo(y[lead + 2]);   // event
            if (x[lead + 2].equals("task-clock")) {
                int nr = lead == 1 ? 1 : Integer.parseInt(x[1]);
                assertThat(x[lead + 6]).isEqualTo("CPUs utilized");
                assertThat(Double.parseDouble(x[lead + 5])).isBetween(nr * 0.8, nr * 1.2);
            }
        }
        CliRun std = CliRun.dfx("stat", "-a", option, "-e", "task-clock", "--", "sleep", "0.1");
        CliRun perfStd = CliRun.perf("stat", "-a", option, "-e", "task-clock", "--", "sleep", "0.1");
        List<String> ourLines = std.err().lines().filter(l -> l.contains("task-clock")).toList();
        List<String> perfLines = perfStd.err().lines().filter(l -> l.contains("task-clock")).toList();
        assertThat(ourLines).hasSameSizeAs(perfLines);
        for (int i = 0; i < ourLines.size(); i++) {
            // the value column ends where perf's does, after the same unit columns
            String ourLine = ourLines.get(i);
            String perfLine = perfLines.get(i);
            int end = perfLine.indexOf(" msec");
            assertThat(ourLine.indexOf(" msec")).isEqualTo(end);
            assertThat(ourLine.substring(0, end).replaceAll("[0-9.]+$", "").strip())
                .isEqualTo(perfLine.substring(0, end).replaceAll("[0-9.]+$", "").strip());
        }
    }

    @Test
    void perCpuLinesNeedSystemWideCounting() {
        CliRun r = CliRun.dfx("stat", "--per-core", "-e", "task-clock", "--", "true");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: stat: option --per-core: only available in system-wide mode (-a), as in"
            + " perf stat (see 'dfx stat --help')\n");
    }

    @Test
    void intervalLinesHavePerfsShape() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        CliRun ours = CliRun.dfx("stat", "-x,", "-I", "100", "-e", "task-clock,page-faults", "--", "sleep", "0.25");
        assertThat(ours.status()).isZero();
        List<String> lines = ours.err().lines().toList();
        // intervals at 0.1 s, 0.2 s (more when a loaded machine notices the exit late), then the last partial one:
        // two lines each, both events under one timestamp
        assertThat(lines.size()).isEven().isGreaterThanOrEqualTo(6);
        Pattern line = Pattern.compile("^ {5}[0-9]\\.[0-9]{9},(<not counted>|[0-9.]+),(msec)?,(task-clock|page-faults),[0-9]+,100\\.00,.*$");
        double previous = 0;
        for (int i = 0; i < lines.size(); i += 2) {
            assertThat(lines.get(i)).matches(line).contains(",task-clock,");
            assertThat(lines.get(i + 1)).matches(line).contains(",page-faults,");
            assertThat(lines.get(i).substring(0, 16)).isEqualTo(lines.get(i + 1).substring(0, 16));
            double t = Double.parseDouble(lines.get(i).substring(0, 15));
            assertThat(t).isGreaterThan(previous);
            previous = t;
        }
        assertThat(Double.parseDouble(lines.getFirst().substring(0, 15))).isBetween(0.09, 0.3);
        assertThat(previous).isGreaterThanOrEqualTo(0.25);
        // the first interval holds sleep's exec: it ran and faulted pages in
        assertThat(lines.get(1)).doesNotContain("<not counted>");
    }

    /**
     * Each interval's "CPUs utilized" is its task-clock over the time the interval really lasted (the difference of
     * the printed timestamps), and the intervals end on the grid of MS from the start: the k-th full one lies in
     * [k MS, (k + 1) MS). perf 6.1 divides by the nominal MS instead (builtin-stat.c process_interval), which the
     * second half checks against the real perf where it is installed, as StatCommand's Javadoc says.
     */
    @Test
    void intervalMetricsDivideByTheElapsedIntervalOnTheGrid() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        List<String[]> ours = csv(CliRun.dfx("stat", "-x,", "-I", "200", "-a", "-e", "task-clock", "--", "sleep", "0.5").err());
        assertThat(ours.size()).isBetween(3, 5);
        double previous = 0;
        for (int k = 1; k <= ours.size(); k++) {
            String[] f = ours.get(k - 1);
            double t = Double.parseDouble(f[0]);
            double value = Double.parseDouble(f[1]);
            assertThat(f[3]).isEqualTo("task-clock");
            assertThat(f[7]).isEqualTo("CPUs utilized");
            // printed to 3 decimals from msec printed to 2
            assertThat(Double.parseDouble(f[6])).as("interval %d", k)
                    .isCloseTo(value / ((t - previous) * 1000), org.assertj.core.data.Offset.offset(0.002));
            if (k < ours.size()) {
                assertThat(Math.floor(t / 0.2)).as("interval %d ends at %.9f", k, t).isEqualTo(k);
            }
            previous = t;
        }
        assumeTrue(CliRun.perfWorks(), "perf is not installed or cannot count here: skipping perf's nominal interval");
        List<String[]> perf = csv(CliRun.perf("stat", "-x,", "-I", "200", "-a", "-e", "task-clock", "--", "sleep", "0.5").err());
        assertThat(perf).isNotEmpty();
        for (String[] f : perf) {
            assertThat(Double.parseDouble(f[6])).isCloseTo(Double.parseDouble(f[1]) / 200, org.assertj.core.data.Offset.offset(0.002));
        }
    }

    @Test
    void systemWideCountsEveryCpu() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        CliRun r = CliRun.dfx("stat", "-a", "-e", "task-clock", "--", "sleep", "0.1");
        assertThat(r.status()).isZero();
        assertThat(r.err()).startsWith("\n Performance counter stats for 'system wide':\n\n").doesNotContain("seconds user");
        Matcher m = Pattern.compile("# +([0-9.]+) CPUs utilized").matcher(r.err());
        assertThat(m.find()).isTrue();
        // per-CPU clocks run on every online CPU for the whole run, as perf stat -a shows (2.000 on 2 CPUs)
        int cpus = dev.dfx.pmu.linux.OnlineCpus.read().size();
        assertThat(Double.parseDouble(m.group(1))).isBetween(0.5 * cpus, 1.1 * cpus);
    }

    @Test
    void exitStatusIsTheCommands() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        CliRun r = CliRun.dfx("stat", "-e", "task-clock", "--", "sh", "-c", "exit 3");
        assertThat(r.status()).isEqualTo(3);
        assertThat(r.err()).contains(" Performance counter stats for 'sh -c exit 3':");
    }

    @Test
    void multiplexedAccelEventsShowTheirRunningShare() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        // GFX12's TA block has 2 slots for 3 events: each runs about 2/3 of the time, the shares add up to 200 %
        CliRun r = CliRun.dfx("stat", "-e", "accel/ta_ta_busy/,accel/ta_ta_busy,se=1/,accel/ta_ta_busy,se=2/",
                "--", "sleep", "0.1");
        assertThat(r.status()).isZero();
        Matcher m = Pattern.compile("accel/ta_ta_busy[^ ]*/ +\\(([0-9.]+)%\\)").matcher(r.err());
        double sum = 0;
        int n = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
            n++;
        }
        assertThat(n).isEqualTo(3);
        assertThat(sum).isCloseTo(200.0, org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void syntaxErrorsShowPerfsCaretAndOneDfxLine(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.dfx("stat", "-e", "accel/sq_waves,foo=1/", "--", "true");
        assertThat(r.status()).as("a usage error, as a bad value of any option").isEqualTo(2);
        // perf cuts specs whose fault lies past column 13: two characters cut, marked '..', caret after 34 spaces
        assertThat(r.err()).startsWith("event syntax error: '..l/sq_waves,foo=1/'\n" + " ".repeat(34)
                + "\\___ unknown term 'foo' for pmu 'accel'\n");
        assertThat(r.err()).contains("\ndfx: stat: option -e: event syntax error at column 16 of"
                + " 'accel/sq_waves,foo=1/'");
        CliRun unknown = CliRun.dfx("stat", "-e", "nosuch", "--", "true");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err().lines().filter(l -> l.startsWith("dfx: ")).toList()).containsExactly("dfx: stat:"
                + " option -e: event syntax error at column 1 of 'nosuch': parser error: unknown event 'nosuch'"
                + " ('dfx list' shows the known events) (see 'dfx stat --help')");
        CliRun dim = CliRun.dfx("stat", "-e", "accel/sq_waves,se=99/", "--", "true");
        assertThat(dim.status()).isEqualTo(1);
        assertThat(dim.err()).isEqualTo("dfx: dimension out of range: se=99 (max: 3)\n");
        CliRun missing = CliRun.dfx("stat", "-e", "task-clock", "--", "no-such-program-dfx");
        assertThat(missing.err()).isEqualTo("dfx: cannot run 'no-such-program-dfx': not found on PATH\n");
        assertThat(missing.status()).as("a shell's status for a command not found, as dfx record").isEqualTo(127);
        CliRun noFile = CliRun.dfx("stat", "--", "/nonexistent-dfx/prog");
        assertThat(noFile.err()).isEqualTo("dfx: cannot run '/nonexistent-dfx/prog': no such file\n");
        assertThat(noFile.status()).isEqualTo(127);
        Path plain = Files.writeString(dir.resolve("plain"), "echo hi\n"); // created without the execute bit
        CliRun notExecutable = CliRun.dfx("stat", "--", plain.toString());
        assertThat(notExecutable.err()).isEqualTo("dfx: cannot run '" + plain + "': is not executable (permission"
                + " denied)\n");
        assertThat(notExecutable.status()).isEqualTo(126);
    }

    /** A line with its numbers (and the padding before them) and its rate unit blanked out. */
    private static String shape(String line) {
        return line.replaceAll(" *[0-9.]+", " N").replaceAll("N [KMG]?/sec *$", "N RATE");
    }

    private static List<double[]> values(String[] lines) {
        List<double[]> out = new ArrayList<>();
        for (String l : lines) {
            Matcher m = STD.matcher(l);
            if (m.matches()) {
                out.add(new double[]{Double.parseDouble(m.group(1)), Double.parseDouble(m.group(4))});
            }
        }
        return out;
    }

    private static double elapsed(String[] lines) {
        for (String l : lines) {
            if (l.endsWith("seconds time elapsed")) {
                return Double.parseDouble(l.strip().split(" ")[0]);
            }
        }
        throw new AssertionError("no elapsed line");
    }

    private static List<String[]> csv(String text) {
        return text.lines().filter(l -> !l.isBlank()).map(l -> l.split(",", -1)).toList();
    }
}
