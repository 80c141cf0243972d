package dev.dfx.perf.report;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a report shows and in which order, settled as perf settles it ({@code util/sort.c setup_sorting},
 * {@code ui/hist.c perf_hpp__init}): the sort keys ({@code --sort}, default {@code comm,dso,sym}, or {@code trace}
 * for a recording of tracepoints only, with the overhead columns put in front of them unless {@code -F} is given),
 * the output columns ({@code -F}, default the overhead columns then the sort keys) and, because perf appends the
 * output columns to the sort keys, the full order of the lines. Immutable.
 *
 * @param sorts        the line order: each column's order in turn
 * @param outputs      the printed columns
 * @param keys         the sort keys that decide which samples share a line
 * @param children     whether entries accumulate the samples whose callchains pass through them
 * @param useCallchain whether the callchains are printed (and kept)
 * @param skipFirst    whether a lone callchain's first frame is left out (sorting starts with {@code sym})
 * @param callerOrder  whether callchains run from caller to callee
 * @param elided       the output columns left out because a filter lists a single value for them
 * @param elideNotes   the {@code # comm: NAME} / {@code # symbol: NAME} lines that say so
 */
record ReportLayout(List<ReportColumn> sorts, List<ReportColumn> outputs, List<SortKey> keys, boolean children,
                    boolean useCallchain, boolean skipFirst, boolean callerOrder, Set<SortKey> elided,
                    List<String> elideNotes) {
    /** The sort keys perf uses when none are given. */
    static final String DEFAULT_SORT = "comm,dso,sym";
    /** The sort key perf uses when none are given and every event of the recording is a tracepoint. */
    static final String TRACEPOINT_SORT = "trace";

    /**
     * @param sort         {@code --sort}, or null; {@code +KEYS} adds KEYS to the default keys
     * @param fields       {@code -F}, or null
     * @param tracepoints  whether every event of the recording is a tracepoint (the default keys are then
     *                     {@code trace}: {@code get_default_sort_order})
     * @param children     {@code --children} / {@code --no-children} given, or null for perf's default (children
     *                     when the recording has callchains)
     * @param graph        whether callchains are printed ({@code -g none} turns them off)
     * @param hasCallchain whether the recording's samples carry callchains
     * @param showNrSamples {@code -n}: a Samples column after the overhead columns (not with {@code -F})
     * @throws BadInputException for a key or field dfx does not know
     */
    static ReportLayout of(String sort, String fields, boolean tracepoints, Boolean children, boolean graph,
                           boolean hasCallchain, boolean showNrSamples) {
        boolean strictFields = fields != null && !fields.startsWith("+");
        boolean acc = hasCallchain && (children == null || children);
        List<ReportColumn> sorts = new ArrayList<>();
        if (sort != null || !strictFields) {
            String defaults = tracepoints ? TRACEPOINT_SORT : DEFAULT_SORT;
            // setup_sort_order: "+KEYS" follows the default keys
            List<String> keys = new ArrayList<>(split(sort == null ? defaults
                : sort.startsWith("+") ? defaults + "," + sort.substring(1) : sort));
            if (!strictFields) {
                if (!keys.contains("overhead")) {
                    keys.addFirst("overhead");
                }
                if (acc && !keys.contains("overhead_children")) {
                    keys.addFirst("overhead_children");
                }
            }
            for (String k : keys) {
                addOnce(sorts, column(k, acc && !strictFields, "--sort"));
            }
        }
        List<ReportColumn> outputs = new ArrayList<>();
        if (strictFields) {
            for (String f : split(fields)) {
                addOnce(outputs, column(f, false, "-F"));
            }
        } else {
            if (acc) {
                outputs.add(column("overhead_children", true, "-F"));
            }
            outputs.add(column("overhead", acc, "-F"));
            if (showNrSamples) {
                outputs.add(column("sample", acc, "-F"));
            }
        }
        sorts.forEach(s -> addOnce(outputs, s));
        outputs.forEach(o -> addOnce(sorts, o));
        List<SortKey> keys = new ArrayList<>();
        for (ReportColumn c : sorts) {
            if (c instanceof ReportColumn.Key k) {
                keys.add(k.key());
            }
        }
        boolean skipFirst = fields == null && sort != null && sort.startsWith("sym");
        return new ReportLayout(List.copyOf(sorts), List.copyOf(outputs), List.copyOf(keys), acc,
            hasCallchain && graph, skipFirst, acc, Set.of(), List.of());
    }

    /**
     * @param callerOrder whether callchains run from caller to callee (perf's {@code ORDER_CALLER}, which children
     *                    mode sets when it is asked for, whether or not it could accumulate)
     * @return this layout with that callchain order
     */
    ReportLayout withCallerOrder(boolean callerOrder) {
        return new ReportLayout(sorts, outputs, keys, children, useCallchain, skipFirst, callerOrder, elided,
            elideNotes);
    }

    /**
     * {@code sort__setup_elide}: a comm or sym column whose filter ({@code --comms}, {@code -S}) lists a single
     * entry is left out, and a {@code # comm: NAME} / {@code # symbol: NAME} line, in column order, says so; when
     * that would leave out every sort key's column, all of them stay (the lines are still printed).
     *
     * @param comms   the {@code --comms} list, or null
     * @param symbols the symbol names of the {@code -S} list (its addresses left out), or null
     * @return this layout with those columns left out
     */
    ReportLayout elide(Set<String> comms, Set<String> symbols) {
        Set<SortKey> out = EnumSet.noneOf(SortKey.class);
        List<String> notes = new ArrayList<>();
        int keyColumns = 0;
        for (ReportColumn c : outputs) {
            if (!(c instanceof ReportColumn.Key k)) {
                continue;
            }
            keyColumns++;
            Set<String> list = k.key() == SortKey.COMM ? comms : k.key() == SortKey.SYM ? symbols : null;
            if (list != null && list.size() == 1) {
                out.add(k.key());
                notes.add("# " + (k.key() == SortKey.COMM ? "comm" : "symbol") + ": " + list.iterator().next());
            }
        }
        return new ReportLayout(sorts, outputs, keys, children, useCallchain, skipFirst, callerOrder,
            out.size() == keyColumns ? Set.of() : out, List.copyOf(notes));
    }

    /** @return the output columns printed ({@link #outputs} less the {@link #elided} ones) */
    List<ReportColumn> printed() {
        return outputs.stream().filter(c -> !(c instanceof ReportColumn.Key k && elided.contains(k.key()))).toList();
    }

    private static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.replaceFirst("^\\+", "").split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    private static ReportColumn column(String name, boolean children, String option) {
        ReportColumn c = ReportColumn.named(name, children);
        if (c == null) {
            throw new UsageException("option " + option + ": unknown key '" + name + "'; dfx report knows comm, dso,"
                + " sym, pid, cpu, trace"
                + (option.equals("-F") ? ", overhead, overhead_children, sample and period" : ""));
        }
        return c;
    }

    private static void addOnce(List<ReportColumn> list, ReportColumn c) {
        for (ReportColumn have : list) {
            if (have.same(c)) {
                return;
            }
        }
        list.add(c);
    }
}
