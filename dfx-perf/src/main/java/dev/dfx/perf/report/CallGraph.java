package dev.dfx.perf.report;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How {@code perf report -g} prints callchains, read as perf reads its value ({@code __parse_callchain_report_opt},
 * tools/perf/util/callchain.c, perf 6.1): words separated by commas in any order, each a print type ({@code graph},
 * {@code flat}, {@code fractal}, {@code folded}, or {@code none}, which ends the list), an order ({@code caller},
 * {@code callee}), a sort key ({@code function}, {@code address}, {@code srcline}, {@code branch}) or a value
 * ({@code percent}, {@code period}, {@code count}), any prefix of a word naming the first word it starts (perf's
 * {@code strncmp} over the word's length, so {@code c} is {@code caller}); the first number is the threshold, the
 * second the print limit, each read as C's strtod reads it (its leading number). Several {@code -g} add up, each onto
 * what the ones before it set, and {@code none} followed by a {@code -g} without a print type has nothing to print
 * with (perf: "Can't register callchain params"). perf's {@code -g} alone is {@code graph,0.5,caller,function,percent}
 * ({@link #BARE}), which sets the caller order even without children. dfx prints {@code graph} with perf's threshold
 * 0.5, by function, as percentages, in either order, or {@code none}; the rest is refused by name. Words are read in any case, as dfx
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
     * Reads {@code -g}'s values in command-line order, each onto what the ones before it set, as perf's options
     * accumulate into its {@code callchain_param} ({@code -g 20 -g caller} keeps the threshold 20): only the end result
     * must be one dfx prints.
     *
     * @param values each {@code -g}'s value as given ({@link #BARE} for {@code -g} alone); at least one
     * @return what they ask for together, {@link #asked} true unless the last turns graphs off
     * @throws IllegalArgumentException naming the word that perf would not take, or that set what dfx does not print
     */
    public static CallGraph parse(List<String> values) {
        Reading r = new Reading();
        values.forEach(r::read);
        return r.result();
    }

    /** perf's {@code callchain_param} and {@code use_callchain} as the values are read, with the word that set each. */
    private static final class Reading {
        private boolean none;
        private boolean asked;
        private Boolean caller;
        private String mode = "graph";
        private String modeWord;
        private String key = "function";
        private String keyWord;
        private String value = "percent";
        private String valueWord;
        private double threshold = 0.5;
        private String thresholdWord;
        private double printLimit;
        private String printLimitWord;

        void read(String v) {
            asked = true;
            int numbers = 0;
            for (String word : v.split(",")) {
                if (word.isEmpty()) {
                    continue; // perf's strtok skips empty words
                }
                String w = word.toLowerCase(Locale.ROOT);
                if ("none".startsWith(w)) {
                    none = true; // perf stops reading the value at none
                    asked = false;
                    return;
                }
                String named;
                if ((named = named(w, MODES)) != null) {
                    mode = named;
                    modeWord = word;
                    none = false;
                } else if ("caller".startsWith(w)) {
                    caller = Boolean.TRUE;
                } else if ("callee".startsWith(w)) {
                    caller = Boolean.FALSE;
                } else if ((named = named(w, KEYS)) != null) {
                    key = named;
                    keyWord = word;
                } else if ((named = named(w, VALUES)) != null) {
                    value = named;
                    valueWord = word;
                } else {
                    number(word, numbers++);
                }
            }
        }

        /** The {@code index}th number of one value (perf's strtod and strtoul: its longest leading number). */
        private void number(String word, int index) {
            Double v = leadingNumber(word);
            if (v == null) {
                throw new IllegalArgumentException("'" + word + "' is neither a call-graph mode, order, sort key or"
                    + " value nor a number");
            }
            if (index == 0) {
                threshold = v;
                thresholdWord = word;
            } else if (index == 1) {
                printLimit = v;
                printLimitWord = word;
            } else {
                throw new IllegalArgumentException("'" + word + "': a third number; expected a threshold, then a"
                    + " print limit");
            }
        }

        CallGraph result() {
            if (none && asked) {
                throw new IllegalArgumentException("-g none, then -g without a print type: nothing to print the"
                    + " callchains with (perf: Can't register callchain params); give -g graph");
            }
            if (none) {
                return NONE;
            }
            if (!mode.equals("graph")) {
                throw new IllegalArgumentException("'" + modeWord + "' is the call-graph mode " + mode
                    + ", which dfx does not print; expected graph or none");
            }
            refuseUnless(keyWord, key, "function", "sort key");
            refuseUnless(valueWord, value, "percent", "value");
            if (threshold != 0.5) {
                throw new IllegalArgumentException("a call-graph threshold of " + thresholdWord + ": dfx prints perf's"
                    + " 0.5 only (--percent-limit P hides lines and branches under P %)");
            }
            if (printLimit != 0) {
                throw new IllegalArgumentException("'" + printLimitWord + "': dfx prints callchains without a print"
                    + " limit (0, perf's default)");
            }
            return new CallGraph(true, asked, caller);
        }
    }

    /**
     * @return the longest number {@code word} starts with, as C's strtod reads it (decimal with an exponent,
     *         hexadecimal, inf, infinity, nan), or null where it starts with none
     */
    static Double leadingNumber(String word) {
        Matcher m = LEADING_NUMBER.matcher(word);
        if (!m.lookingAt()) {
            return null;
        }
        String n = m.group().toLowerCase(Locale.ROOT);
        boolean minus = n.startsWith("-");
        String u = minus || n.startsWith("+") ? n.substring(1) : n;
        double v = u.startsWith("inf") ? Double.POSITIVE_INFINITY : u.equals("nan") ? Double.NaN
            : u.startsWith("0x") ? new BigInteger(u.substring(2), 16).doubleValue() : Double.parseDouble(u);
        return minus ? -v : v;
    }

    private static final Pattern LEADING_NUMBER = Pattern.compile(
        "[+-]?(?:0[xX][0-9a-fA-F]+|(?i:infinity|inf|nan)|(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)");

    /** @return the first of {@code words} that {@code w} is a prefix of, or null */
    private static String named(String w, String[] words) {
        for (String s : words) {
            if (s.startsWith(w)) {
                return s;
            }
        }
        return null;
    }

    /** Refuses a sort key or value other than the one dfx prints; {@code word} set it (null: perf's default). */
    private static void refuseUnless(String word, String named, String printed, String what) {
        if (!named.equals(printed)) {
            throw new IllegalArgumentException("'" + word + "' is the call-graph " + what + " " + named
                + ", which dfx does not print; expected " + printed);
        }
    }
}
