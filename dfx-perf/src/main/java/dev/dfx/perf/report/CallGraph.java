package dev.dfx.perf.report;

import java.util.Locale;

/**
 * How {@code perf report -g} prints callchains, read as perf reads its value ({@code __parse_callchain_report_opt},
 * tools/perf/util/callchain.c, perf 6.1): words separated by commas in any order, each a print type ({@code graph},
 * {@code flat}, {@code fractal}, {@code folded}, or {@code none}, which ends the list), an order ({@code caller},
 * {@code callee}), a sort key ({@code function}, {@code address}, {@code srcline}, {@code branch}) or a value
 * ({@code percent}, {@code period}, {@code count}), any prefix of a word naming the first word it starts (perf's
 * {@code strncmp} over the word's length, so {@code c} is {@code caller}); the first number is the threshold, the
 * second the print limit. perf's {@code -g} alone is {@code graph,0.5,caller,function,percent} ({@link #BARE}), which
 * sets the caller order even without children. dfx prints {@code graph} with perf's threshold 0.5, by function, as
 * percentages, in either order, or {@code none}; the rest is refused by name. Words are read in any case, as dfx
 * reads every option value that names something. Immutable.
 *
 * @param print       whether callchains are printed ({@code none} turns them off)
 * @param asked       whether {@code -g} was given with a mode that prints them: perf then refuses a recording without
 *                    callchains ({@link PerfReport#print})
 * @param callerOrder the order {@code -g} set, caller first (true) or callee first (false), or null where it set none:
 *                    then caller with children or {@code -G}, else callee, as perf decides it
 */
public record CallGraph(boolean print, boolean asked, Boolean callerOrder) {
    /** perf's default without {@code -g}: graphs when the recording has callchains, order by children. */
    public static final CallGraph DEFAULT = new CallGraph(true, false, null);
    /** {@code -g none}. */
    public static final CallGraph NONE = new CallGraph(false, false, null);
    /** What perf's {@code -g} alone means ({@code callchain_default_opt}). */
    public static final String BARE = "graph,0.5,caller,function,percent";

    private static final String[] MODES = {"graph", "flat", "fractal", "folded"};
    private static final String[] KEYS = {"function", "address", "srcline", "branch"};
    private static final String[] VALUES = {"percent", "period", "count"};

    /**
     * @param value {@code -g}'s value as given (perf's {@link #BARE} for {@code -g} alone)
     * @return what it asks for, {@link #asked} true unless it turns graphs off
     * @throws IllegalArgumentException naming the word dfx does not print or perf would not take
     */
    public static CallGraph parse(String value) {
        Boolean caller = null;
        int numbers = 0;
        for (String word : value.split(",")) {
            if (word.isEmpty()) {
                continue; // perf's strtok skips empty words
            }
            String w = word.toLowerCase(Locale.ROOT);
            if ("none".startsWith(w)) {
                return NONE; // perf stops reading at none
            }
            String mode = named(w, MODES);
            if (mode != null) {
                if (!mode.equals("graph")) {
                    throw new IllegalArgumentException("'" + word + "' is the call-graph mode " + mode
                        + ", which dfx does not print; expected graph or none");
                }
            } else if ("caller".startsWith(w)) {
                caller = Boolean.TRUE;
            } else if ("callee".startsWith(w)) {
                caller = Boolean.FALSE;
            } else if (named(w, KEYS) != null) {
                refuseUnless(word, named(w, KEYS), "function", "sort key");
            } else if (named(w, VALUES) != null) {
                refuseUnless(word, named(w, VALUES), "percent", "value");
            } else {
                number(word, numbers++);
            }
        }
        return new CallGraph(true, true, caller);
    }

    /** @return the first of {@code words} that {@code w} is a prefix of, or null */
    private static String named(String w, String[] words) {
        for (String s : words) {
            if (s.startsWith(w)) {
                return s;
            }
        }
        return null;
    }

    private static void refuseUnless(String word, String named, String printed, String what) {
        if (!named.equals(printed)) {
            throw new IllegalArgumentException("'" + word + "' is the call-graph " + what + " " + named
                + ", which dfx does not print; expected " + printed);
        }
    }

    /** The {@code index}th number of the list: the threshold (dfx prints perf's 0.5 only), then the print limit. */
    private static void number(String word, int index) {
        double v;
        try {
            v = Double.parseDouble(word);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + word + "' is neither a call-graph mode, order, sort key or value"
                + " nor a number");
        }
        if (index == 0 && v != 0.5) {
            throw new IllegalArgumentException("a call-graph threshold of " + word + ": dfx prints perf's 0.5 only"
                + " (--percent-limit P hides lines and branches under P %)");
        }
        if (index > 0) {
            throw new IllegalArgumentException("'" + word + "': dfx prints callchains without a print limit");
        }
    }
}
