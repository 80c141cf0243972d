package dev.dfx.pmu.stat;

import dev.dfx.pmu.linux.CpuTopology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How {@code dfx stat -a} groups its per-CPU counts besides the global sum ({@code enum aggr_mode} of perf 6.1):
 * one line per CPU ({@code -A}/{@code --no-aggr}), per core ({@code --per-core}) or per socket ({@code --per-socket}).
 * Immutable.
 */
public enum Aggregation {
    /** {@code -A}: every CPU on its own, {@code CPU<n>}. */
    NO_AGGR,
    /** {@code --per-core}: the CPUs of one core summed, {@code S<socket>-D<die>-C<core>} and how many CPUs. */
    PER_CORE,
    /** {@code --per-socket}: the CPUs of one socket summed, {@code S<socket>} and how many CPUs. */
    PER_SOCKET;

    /**
     * A group of CPUs whose counts make one line.
     *
     * @param id      the CPU ({@link #NO_AGGR}), or the core's or socket's place (the parts that do not name the
     *                unit are -1)
     * @param indexes positions of its CPUs in the counted CPU list, ascending
     */
    public record Unit(CpuTopology id, List<Integer> indexes) {
        /** Copies the list. */
        public Unit {
            indexes = List.copyOf(indexes);
        }
    }

    /**
     * @param cpus the counted CPUs' topology, in the order they were opened
     * @return the units, ordered as perf orders its aggregation map (by socket, die, core; CPUs by number)
     */
    public List<Unit> units(List<CpuTopology> cpus) {
        Map<CpuTopology, List<Integer>> groups = new TreeMap<>(Comparator.comparingInt(CpuTopology::socket)
            .thenComparingInt(CpuTopology::die).thenComparingInt(CpuTopology::core)
            .thenComparingInt(CpuTopology::cpu));
        for (int i = 0; i < cpus.size(); i++) {
            CpuTopology t = cpus.get(i);
            CpuTopology id = switch (this) {
                case NO_AGGR -> new CpuTopology(t.cpu(), -1, -1, -1);
                case PER_CORE -> new CpuTopology(-1, t.socket(), t.die(), t.core());
                case PER_SOCKET -> new CpuTopology(-1, t.socket(), -1, -1);
            };
            groups.computeIfAbsent(id, k -> new ArrayList<>()).add(i);
        }
        List<Unit> out = new ArrayList<>();
        groups.forEach((id, idx) -> out.add(new Unit(id, idx)));
        return out;
    }

    /**
     * {@code aggr_printout} of perf 6.1's stat-display.c: the text before a line's value.
     *
     * @param unit the unit
     * @param sep  the CSV separator, or {@code null} for the standard layout (whose separator is a space)
     * @return {@code CPU%-7d } / {@code S%d-D%d-C%-8d %4d } / {@code S%-5d %4d }, or in CSV the same without widths
     */
    public String prefix(Unit unit, String sep) {
        boolean csv = sep != null;
        String s = csv ? sep : " ";
        CpuTopology id = unit.id();
        int nr = unit.indexes().size();
        return switch (this) {
            case NO_AGGR -> "CPU" + pad(id.cpu(), csv ? 0 : -7) + s;
            case PER_CORE -> "S" + id.socket() + "-D" + id.die() + "-C" + pad(id.core(), csv ? 0 : -8) + s
                + pad(nr, csv ? 0 : 4) + s;
            case PER_SOCKET -> "S" + pad(id.socket(), csv ? 0 : -5) + s + pad(nr, csv ? 0 : 4) + s;
        };
    }

    /** @return {@code printf("%*d", width, v)}: a negative width pads on the right */
    private static String pad(int v, int width) {
        String t = Integer.toString(v);
        int n = Math.abs(width) - t.length();
        if (n <= 0) {
            return t;
        }
        return width < 0 ? t + " ".repeat(n) : " ".repeat(n) + t;
    }
}
