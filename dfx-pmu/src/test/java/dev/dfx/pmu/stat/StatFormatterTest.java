package dev.dfx.pmu.stat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuCatalog;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.TestPmus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines of perf 6.1.187 (reference §3.3 and observations on this machine), rebuilt from their readings. */
class StatFormatterTest {
    private final PmuCatalog catalog = TestPmus.fake().catalog();

    private List<String> lines(StatFormatter f, String spec, List<CounterReading> readings, long wallNs, String prefix) {
        List<ResolvedEvent> events = catalog.resolve(spec);
        List<StatRow> rows = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            CounterReading r = readings.get(i);
            rows.add(new StatRow(events.get(i), r != null, r == null ? CounterReading.ZERO : r));
        }
        List<Metric> metrics = ShadowMetrics.compute(rows, wallNs);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            out.add(f.line(rows.get(i), metrics.get(i), prefix));
        }
        return out;
    }

    @Test
    void csvLinesOfTheReference() {
        // perf stat -e task-clock,context-switches,page-faults -x, -- true: 549000 ns of task-clock;
        // CPUs utilized 0.325 means a wall time of 549000 / 0.325 ns
        long wall = 1_689_231;
        List<String> out = lines(new StatFormatter(","), "task-clock,context-switches,page-faults",
                List.of(new CounterReading(549000, 549000, 549000), new CounterReading(1, 549000, 549000),
                        new CounterReading(48, 549000, 549000)), wall, "");
        assertThat(out).containsExactly(
                "0.55,msec,task-clock,549000,100.00,0.325,CPUs utilized\n",
                "1,,context-switches,549000,100.00,1.821,K/sec\n",
                "48,,page-faults,549000,100.00,87.432,K/sec\n");
    }

    @Test
    void notSupportedAndOtherSeparators() {
        List<String> out = lines(new StatFormatter(","), "cycles,instructions,task-clock",
                Arrays.asList(null, null, new CounterReading(606969, 606969, 606969)), 1_662_929, "");
        assertThat(out).containsExactly(
                "<not supported>,,cycles,0,100.00,,\n",
                "<not supported>,,instructions,0,100.00,,\n",
                "0.61,msec,task-clock,606969,100.00,0.365,CPUs utilized\n");
        assertThat(lines(new StatFormatter(";"), "page-faults,msr/tsc/", List.of(new CounterReading(49, 552739, 552739),
                new CounterReading(1429428, 552739, 552739)), 1_000_000, ""))
                .containsExactly("49;;page-faults;552739;100.00;;\n", "1429428;;msr/tsc/;552739;100.00;;\n");
    }

    @Test
    void intervalCsvLinesOfTheReference() {
        StatFormatter f = new StatFormatter(",");
        String p = f.intervalPrefix(200_250_902);
        assertThat(p).isEqualTo("     0.200250902,");
        List<String> out = lines(f, "task-clock,msr/tsc/",
                List.of(new CounterReading(805771, 805771, 805771), new CounterReading(1962793, 805771, 805771)),
                200_250_902, p);
        assertThat(out).containsExactly(
                "     0.200250902,0.81,msec,task-clock,805771,100.00,0.004,CPUs utilized\n",
                "     0.200250902,1962793,,msr/tsc/,805771,100.00,2.436,G/sec\n");
        String q = f.intervalPrefix(400_696_540);
        assertThat(lines(f, "task-clock,msr/tsc/", List.of(new CounterReading(0, 0, 0), new CounterReading(0, 0, 0)), 200_000_000, q))
                .containsExactly("     0.400696540,<not counted>,msec,task-clock,0,100.00,,\n",
                        "     0.400696540,<not counted>,,msr/tsc/,0,100.00,,\n");
    }

    @Test
    void standardLayoutAsObservedOnThisMachine() {
        StatFormatter f = new StatFormatter(null);
        // hand-computed metrics: 981234 / 101952187 = 0.0096 CPUs; 1e9 * 75 / 981234 = 76434 /sec;
        // 1e9 * 2531932 / 981234 = 2.580e9 /sec
        List<String> out = lines(f, "task-clock,context-switches,page-faults,cycles,msr/tsc/",
                Arrays.asList(new CounterReading(981234, 981234, 981234), new CounterReading(1, 981234, 981234),
                        new CounterReading(75, 981234, 981234), null, new CounterReading(2531932, 981234, 981234)),
                101_952_187, "");
        assertThat(out).containsExactly(
                "              0.98 msec task-clock                       #    0.010 CPUs utilized          \n",
                "                 1      context-switches                 #    1.019 K/sec                  \n",
                "                75      page-faults                      #   76.434 K/sec                  \n",
                "   <not supported>      cycles                                                      \n",
                "           2531932      msr/tsc/                         #    2.580 G/sec                  \n");
        assertThat(out.get(0)).hasSize(92);
        assertThat(out.get(3)).hasSize(85);
        assertThat(lines(f, "page-faults", List.of(new CounterReading(50, 1, 1)), 1, ""))
                .containsExactly("                50      page-faults" + " ".repeat(21 + 35) + "\n");
        assertThat(f.header(List.of("sleep", "0.1"), false)).isEqualTo("\n Performance counter stats for 'sleep 0.1':\n\n");
        assertThat(f.header(List.of("sleep", "0.1"), true)).isEqualTo("\n Performance counter stats for 'system wide':\n\n");
        assertThat(f.footer(101_952_187, 2_005_000, 0)).isEqualTo(
                "\n       0.101952187 seconds time elapsed\n\n       0.002005000 seconds user\n       0.000000000 seconds sys\n\n\n");
        assertThat(f.footer(101_915_213, -1, 0)).isEqualTo("\n       0.101915213 seconds time elapsed\n\n");
        assertThat(f.intervalHeader()).isEqualTo("#           time             counts unit events\n");
        assertThat(f.intervalPrefix(100_247_427) + "x").isEqualTo("     0.100247427 x");
        assertThat(lines(f, "task-clock", List.of(new CounterReading(0, 0, 0)), 1, f.intervalPrefix(200_631_976)))
                .containsExactly("     0.200631976      <not counted> msec task-clock" + " ".repeat(15 + 35) + "\n");
    }

    @Test
    void multiplexedLinesShowTheRunningShare() {
        CounterReading r = new CounterReading(2000, 30_000_000, 20_000_000);
        assertThat(lines(new StatFormatter(null), "accel/ta_ta_busy/", List.of(r), 30_000_000, ""))
                .containsExactly("              3000      accel/ta_ta_busy/" + " ".repeat(15 + 35) + "  (66.67%)\n");
        assertThat(lines(new StatFormatter(","), "accel/ta_ta_busy/", List.of(r), 30_000_000, ""))
                .containsExactly("3000,,accel/ta_ta_busy/,20000000,66.00,,\n");
        CounterReading never = new CounterReading(0, 30_000_000, 0);
        assertThat(lines(new StatFormatter(null), "accel/ta_ta_busy/", List.of(never), 30_000_000, ""))
                .containsExactly("     <not counted>      accel/ta_ta_busy/" + " ".repeat(8 + 35) + "  (0.00%)\n");
    }

    @Test
    void hardwareMetrics() {
        List<String> out = lines(new StatFormatter(","), "task-clock,cycles,instructions",
                List.of(new CounterReading(1_000_000, 1, 1), new CounterReading(3_500_000, 1, 1),
                        new CounterReading(4_375_000, 1, 1)), 2_000_000, "");
        assertThat(out).containsExactly(
                "1.00,msec,task-clock,1,100.00,0.500,CPUs utilized\n",
                "3500000,,cycles,1,100.00,3.500,GHz\n",
                "4375000,,instructions,1,100.00,1.25,insn per cycle\n");
    }

    @Test
    void toolEventsAsPerfPrintsThem() {
        // perf stat -x, -e duration_time,user_time,system_time,task-clock -- sleep 0.1 (perf 6.1.187 here)
        List<String> out = lines(new StatFormatter(","), "duration_time,user_time,system_time,task-clock",
                List.of(new CounterReading(103562979, 103562979, 103562979), new CounterReading(1285000, 1285000, 1285000),
                        CounterReading.ZERO, new CounterReading(737143, 737143, 737143)), 103562979, "");
        assertThat(out).containsExactly(
                "103562979,ns,duration_time,103562979,100.00,140.492,G/sec\n",
                "1285000,ns,user_time,1285000,100.00,1.743,G/sec\n",
                "<not counted>,ns,system_time,0,100.00,,\n",
                "0.74,msec,task-clock,737143,100.00,0.007,CPUs utilized\n");
    }

    @Test
    void aRateBesideAClockThatDidNotCountIsZero() {
        // perf stat -I 100 -e duration_time,user_time,task-clock -- sleep 0.25, second interval: sleep was off CPU,
        // task-clock <not counted>; perf still divides by the clock's (zero) time and prints 0.000 /sec
        StatFormatter f = new StatFormatter(null);
        String p = f.intervalPrefix(200_399_882);
        List<String> out = lines(f, "duration_time,user_time,task-clock",
                List.of(new CounterReading(100249179, 100249179, 100249179), CounterReading.ZERO, CounterReading.ZERO),
                100_249_179, p);
        assertThat(out).containsExactly(
                "     0.200399882          100249179 ns   duration_time                    #    0.000 /sec                   \n",
                "     0.200399882      <not counted> ns   user_time                                                   \n",
                "     0.200399882      <not counted> msec task-clock                                                  \n");
    }
}
