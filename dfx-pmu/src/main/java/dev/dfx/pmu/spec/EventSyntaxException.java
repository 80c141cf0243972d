package dev.dfx.pmu.spec;

import dev.dfx.error.BadInputException;

/**
 * An event specification that cannot be parsed or resolved, with the character position of the fault.
 *
 * <p>{@link #getMessage()} is one line (the convention for {@link BadInputException}):
 * {@code event syntax error at column 9 of 'msr/tsc,foo=1/': unknown term 'foo' for pmu 'msr' (valid terms: ...)}.
 * {@link #perfStyle(int)} renders what perf prints ({@code __parse_events_print_error},
 * {@code tools/perf/util/parse-events.c}): the spec in quotes, a {@code \___} caret under the column, and the
 * help text after a blank line.
 *
 * <p>Immutable.
 */
public final class EventSyntaxException extends BadInputException {
    private static final long serialVersionUID = 1L;
    /** perf cuts the start of a spec so that the caret is at most this many characters in. */
    private static final int MAX_ERR_IDX = 13;
    private static final String PREFIX = "event syntax error: ";

    private final String input;
    private final int position;
    private final String reason;
    private final String help;

    /**
     * @param input    the whole spec as given
     * @param position 0-based character index the reason refers to
     * @param reason   what is wrong, in perf's words where perf has them (e.g. "parser error")
     * @param help     extra help (e.g. the valid terms), or null
     */
    public EventSyntaxException(String input, int position, String reason, String help) {
        super("event syntax error at column " + (position + 1) + " of '" + input + "': " + reason
                + (help == null ? "" : " (" + help.replace('\n', ' ') + ")"));
        this.input = input;
        this.position = position;
        this.reason = reason;
        this.help = help;
    }

    /** @return the whole spec */
    public String input() {
        return input;
    }

    /** @return the 0-based character position of the fault */
    public int position() {
        return position;
    }

    /** @return the reason, e.g. {@code unknown term 'foo' for pmu 'msr'} */
    public String reason() {
        return reason;
    }

    /** @return the help text, or null */
    public String help() {
        return help;
    }

    /**
     * perf's multi-line rendering, e.g.
     * <pre>
     * event syntax error: 'msr/tsc,foo=1/'
     *                              \___ unknown term 'foo' for pmu 'msr'
     *
     * valid terms: event,config,config1,config2,config3,name,period,percore,metric-id
     * </pre>
     * Long specs are cut with {@code ..} as perf does, so the caret stays within {@code width}.
     *
     * @param width the terminal width perf would use (80 when not a terminal)
     * @return the lines, each ending in a newline
     */
    public String perfStyle(int width) {
        int maxLen = Math.max(10, width - 2 - PREFIX.length());
        int cut = position > MAX_ERR_IDX ? position - MAX_ERR_IDX : 0;
        char[] shown = input.substring(Math.min(cut, input.length()),
                Math.min(input.length(), cut + maxLen)).toCharArray();
        if (cut > 0 && shown.length >= 2) {
            shown[0] = '.';
            shown[1] = '.';
        }
        if (input.length() - cut > maxLen) {
            shown[maxLen - 1] = '.';
            shown[maxLen - 2] = '.';
        }
        int idx = PREFIX.length() + position - cut;
        StringBuilder sb = new StringBuilder();
        sb.append(PREFIX).append('\'').append(shown).append("'\n");
        sb.append(" ".repeat(idx + 1)).append("\\___ ").append(reason).append('\n');
        if (help != null) {
            sb.append('\n').append(help).append('\n');
        }
        return sb.toString();
    }
}
