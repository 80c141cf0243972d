package dev.dfx.pmu.stat;

import java.util.ArrayList;
import java.util.List;

/**
 * The derived metrics perf 6.1 prints next to counts ({@code perf_stat__print_shadow_stats},
 * {@code tools/perf/util/stat-shadow.c}), for the events dfx meets:
 * <ul>
 *   <li>a software clock (task-clock, cpu-clock): {@code ns / wall ns} as {@code %8.3f CPUs utilized};</li>
 *   <li>{@code cycles} with a clock: {@code cycles / clock ns} as {@code %8.3f GHz};</li>
 *   <li>{@code instructions} with cycles: {@code instructions / cycles} as {@code %7.2f  insn per cycle};</li>
 *   <li>any other event with a clock: {@code 1e9 * value / clock ns} as {@code %8.3f} with unit {@code /sec},
 *       {@code K/sec}, {@code M/sec} or {@code G/sec} ({@code convert_unit_double});</li>
 *   <li>nothing otherwise (no clock in the list, or the line is not counted); a clock that is in the list but
 *       did not count gives rates and GHz of 0, as perf's runtime stats do.</li>
 * </ul>
 * Stateless.
 */
public final class ShadowMetrics {
    private ShadowMetrics() {
    }

    /**
     * @param rows   the lines, in print order
     * @param wallNs the wall-clock time they cover, ns (the run, or the interval)
     * @return one metric per row
     */
    public static List<Metric> compute(List<StatRow> rows, long wallNs) {
        double clockNs = -1;
        double cycles = -1;
        for (StatRow r : rows) {
            if (r.supported() && r.isClock() && clockNs < 0) {
                // a clock that did not count (an interval the command slept through) still divides, as 0: perf
                // keeps its runtime stat and prints rates of 0.000 /sec beside it
                clockNs = r.counted() ? r.reading().scaledValue() : 0;
            }
            if (r.counted() && r.isHardware(0) && cycles < 0) {
                cycles = r.reading().scaledValue();
            }
        }
        List<Metric> out = new ArrayList<>(rows.size());
        for (StatRow r : rows) {
            out.add(metric(r, wallNs, clockNs, cycles));
        }
        return out;
    }

    private static Metric metric(StatRow r, long wallNs, double clockNs, double cycles) {
        if (!r.counted()) {
            return Metric.NONE;
        }
        double v = r.reading().scaledValue();
        if (r.isClock()) {
            return new Metric("%8.3f", "CPUs utilized", wallNs > 0 ? v / wallNs : 0);
        }
        if (r.isHardware(1) && cycles >= 0) {
            return new Metric("%7.2f ", "insn per cycle", cycles > 0 ? v / cycles : 0);
        }
        if (clockNs < 0) {
            return Metric.NONE;
        }
        if (r.isHardware(0)) {
            return new Metric("%8.3f", "GHz", clockNs > 0 ? v / clockNs : 0);
        }
        double rate = clockNs > 0 ? 1e9 * v / clockNs : 0;
        String prefix = "";
        if (rate >= 1e9) {
            rate /= 1e9;
            prefix = "G";
        } else if (rate >= 1e6) {
            rate /= 1e6;
            prefix = "M";
        } else if (rate >= 1e3) {
            rate /= 1e3;
            prefix = "K";
        }
        return new Metric("%8.3f", prefix + "/sec", rate);
    }
}
