package dev.dfx.pmu.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Parses perf's event-list syntax ({@code tools/perf/util/parse-events.l}/{@code .y}, {@code perf-list.txt}):
 * <pre>
 * list  := item (',' item)*
 * item  := '{' event (',' event)* '}' [':' MODS] | event
 * event := NAME '/' [term (',' term)*] '/' [MODS]        PMU event, e.g. accel/sq_waves,se=2/ or msr/tsc/u
 *        | NAME ':' NAME [':' MODS]                      tracepoint, e.g. sched:sched_switch
 *        | NAME [':' MODS]                               symbolic event or alias, e.g. task-clock:u, tsc
 *        | 'r' HEX | 'r0x' HEX [':' MODS]                 raw event, e.g. r1a
 * term  := NAME ['=' (NUMBER | NAME | 'quoted' | '?')]   NUMBER is decimal or 0x hex, at most 64 bits
 * </pre>
 * {@code NAME:MODS} is read as modifiers when every letter after the colon is a modifier letter, otherwise
 * as a tracepoint. Every error carries the 0-based position perf would point its caret at.
 *
 * <p>Stateless and thread-safe (each call uses its own cursor).
 */
public final class EventSpecParser {
    private static final Pattern RAW = Pattern.compile("r(0x)?[0-9a-fA-F]+");

    private final String in;
    private int pos;

    private EventSpecParser(String in) {
        this.in = in;
    }

    /**
     * @param spec an event list, e.g. {@code task-clock,{accel/sq_waves/,accel/grbm_count/}:u}
     * @return its items in order
     * @throws EventSyntaxException with the position of the first fault
     */
    public static List<EventGroupSpec> parse(String spec) {
        EventSpecParser p = new EventSpecParser(spec);
        List<EventGroupSpec> items = new ArrayList<>();
        do {
            items.add(p.item());
        } while (p.accept(','));
        if (p.pos < spec.length()) {
            throw p.error("parser error", "expected ',' or the end of the list");
        }
        return items;
    }

    /**
     * Parses the terms of an events/ alias file or of a term list, e.g. {@code event=0x28,umask=0x3,core=?}.
     *
     * @param text the terms; a trailing newline is ignored
     * @return the terms in order (empty for an empty text)
     * @throws EventSyntaxException with the position of the fault
     */
    public static List<Term> parseTerms(String text) {
        String stripped = text.strip();
        EventSpecParser p = new EventSpecParser(stripped);
        List<Term> terms = new ArrayList<>();
        if (stripped.isEmpty()) {
            return terms;
        }
        do {
            terms.add(p.term());
        } while (p.accept(','));
        if (p.pos < stripped.length()) {
            throw p.error("parser error", "expected ',' between terms");
        }
        return terms;
    }

    private EventGroupSpec item() {
        if (!accept('{')) {
            EventSpec e = event();
            return new EventGroupSpec(List.of(e), Modifiers.NONE, false);
        }
        List<EventSpec> members = new ArrayList<>();
        do {
            members.add(event());
        } while (accept(','));
        if (!accept('}')) {
            throw error("parser error", "expected ',' or '}' to close the group");
        }
        Modifiers mods = Modifiers.NONE;
        if (accept(':')) {
            int at = pos;
            mods = Modifiers.parse(in, letters(), at);
        }
        return new EventGroupSpec(members, mods, true);
    }

    private EventSpec event() {
        int start = pos;
        String name = name("an event name");
        if (accept('/')) {
            List<Term> terms = new ArrayList<>();
            if (peek() != '/') {
                do {
                    terms.add(term());
                } while (accept(','));
            }
            if (!accept('/')) {
                throw error("parser error", "expected ',' or '/' to close the terms of PMU '" + name + "'");
            }
            Modifiers mods = Modifiers.NONE;
            if (Character.isLetter(peek())) {
                int at = pos;
                mods = Modifiers.parse(in, letters(), at);
            }
            return new EventSpec.Pmu(name, terms, mods, in.substring(start, pos), start);
        }
        if (accept(':')) {
            int at = pos;
            String second = name("a modifier or a tracepoint name");
            if (Modifiers.looksLikeModifiers(second) && peek() != ':') {
                Modifiers mods = Modifiers.parse(in, second, at);
                return plain(name, mods, start);
            }
            Modifiers mods = Modifiers.NONE;
            if (accept(':')) {
                int modAt = pos;
                mods = Modifiers.parse(in, letters(), modAt);
            }
            return new EventSpec.Tracepoint(name, second, mods, in.substring(start, pos), start);
        }
        return plain(name, Modifiers.NONE, start);
    }

    private EventSpec plain(String name, Modifiers mods, int start) {
        String text = in.substring(start, pos);
        if (RAW.matcher(name).matches()) {
            String hex = name.startsWith("r0x") ? name.substring(3) : name.substring(1);
            if (hex.length() > 16) {
                throw new EventSyntaxException(in, start, "parser error", "raw event " + name + " is wider than 64 bits");
            }
            return new EventSpec.Raw(Long.parseUnsignedLong(hex, 16), mods, text, start);
        }
        return new EventSpec.Named(name, mods, text, start);
    }

    private Term term() {
        int namePos = pos;
        String name = name("a term name");
        if (!accept('=')) {
            return new Term(name, new TermValue.None(), namePos, namePos);
        }
        int valuePos = pos;
        char c = peek();
        if (c == '?') {
            pos++;
            return new Term(name, new TermValue.Param(), namePos, valuePos);
        }
        if (c == '\'' || c == '"') {
            int close = in.indexOf(c, pos + 1);
            if (close < 0) {
                throw error("parser error", "unterminated quote");
            }
            String text = in.substring(pos + 1, close);
            pos = close + 1;
            return new Term(name, new TermValue.Text(text), namePos, valuePos);
        }
        if (Character.isDigit(c)) {
            return new Term(name, new TermValue.Number(number()), namePos, valuePos);
        }
        int start = pos;
        while (pos < in.length() && isValueChar(in.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw error("parser error", "expected a value after '='");
        }
        return new Term(name, new TermValue.Text(in.substring(start, pos)), namePos, valuePos);
    }

    private long number() {
        int start = pos;
        boolean hex = in.startsWith("0x", pos) || in.startsWith("0X", pos);
        if (hex) {
            pos += 2;
        }
        int digits = pos;
        while (pos < in.length() && (hex ? Character.digit(in.charAt(pos), 16) >= 0 : Character.isDigit(in.charAt(pos)))) {
            pos++;
        }
        if (digits == pos) {
            throw new EventSyntaxException(in, start, "parser error", "expected hex digits after 0x");
        }
        try {
            return Long.parseUnsignedLong(in.substring(digits, pos), hex ? 16 : 10);
        } catch (NumberFormatException e) {
            throw new EventSyntaxException(in, start, "parser error", "number " + in.substring(start, pos)
                    + " is wider than 64 bits");
        }
    }

    private String name(String what) {
        int start = pos;
        if (pos < in.length() && isNameStart(in.charAt(pos))) {
            pos++;
            while (pos < in.length() && isNameChar(in.charAt(pos))) {
                pos++;
            }
        }
        if (start == pos) {
            throw error("parser error", "expected " + what);
        }
        return in.substring(start, pos);
    }

    private String letters() {
        int start = pos;
        while (pos < in.length() && Character.isLetter(in.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw error("parser error", "expected modifier letters");
        }
        return in.substring(start, pos);
    }

    private static boolean isNameStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '*' || c == '?';
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == '*' || c == '?';
    }

    private static boolean isValueChar(char c) {
        return isNameChar(c) || c == ':' || c == '[' || c == ']';
    }

    private char peek() {
        return pos < in.length() ? in.charAt(pos) : '\0';
    }

    private boolean accept(char c) {
        if (pos < in.length() && in.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private EventSyntaxException error(String reason, String detail) {
        String found = pos < in.length() ? "'" + in.charAt(pos) + "'" : "the end";
        return new EventSyntaxException(in, pos, reason + ": " + detail + ", found " + found, null);
    }
}
