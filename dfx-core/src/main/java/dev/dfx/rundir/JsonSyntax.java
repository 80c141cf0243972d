package dev.dfx.rundir;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON syntax error in a file of a run directory (run.json, strings.json, args.json, ...), as a person reads it:
 * {@code line 3, column 7: not valid JSON (found 'x', expected ',' or '}')}, without the JSON library's token
 * names, character codes or source descriptions. Stateless.
 */
public final class JsonSyntax {
    /** Jackson's note of where an unclosed object or array began: {@code (start marker at [Source: ...; line: 3, column: 5])}. */
    private static final Pattern START_MARKER =
            Pattern.compile("\\(start marker at \\[Source: .*?; line: (\\d+), column: (\\d+)\\]\\)");
    /** The character or token the parser stopped at: {@code Unexpected character ('g' (code 103))}, {@code Unrecognized token 'x'}. */
    private static final Pattern FOUND =
            Pattern.compile("^(?:Unexpected character \\('(.*?)' \\(code \\d+\\)\\)|Unrecognized token '(.*?)')");

    private JsonSyntax() {
    }

    /**
     * @param e a parse failure of Jackson's (a syntax error; for a value of the wrong type see the reader's own
     *          field check)
     * @return one line: where ({@code line L, column C: }, left out when the parser does not know) and what was
     *         expected there, e.g. {@code line 1, column 5: not valid JSON (found 'x', expected a JSON value)}
     */
    public static String describe(JacksonException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : "line " + at.getLineNr() + ", column "
                + at.getColumnNr() + ": ";
        String what = e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
        return where + "not valid JSON (" + expected(what) + ")";
    }

    /** @return Jackson's message {@code what} as the token found and what was expected instead */
    static String expected(String what) {
        if (what == null) {
            return "unreadable";
        }
        String m = what.lines().findFirst().orElse("");
        Matcher opened = START_MARKER.matcher(m);
        String since = opened.find() ? " opened at line " + opened.group(1) + ", column " + opened.group(2) : "";
        String lower = m.toLowerCase(Locale.ROOT);
        if (lower.contains("end-of-input")) {
            // "close marker for OBJECT", "within/between Array entries": the innermost open one
            String close = lower.contains("object") ? "'}' to close the object" + since
                    : lower.contains("array") ? "']' to close the array" + since : "more JSON";
            return "the file ends early, expected " + close;
        }
        Matcher f = FOUND.matcher(m);
        String found = !f.find() ? "" : "found '" + (f.group(1) != null ? f.group(1) : f.group(2)) + "', ";
        int i = m.indexOf("expect");
        if (i < 0) {
            return found.isEmpty() ? "unexpected content" : found.substring(0, found.length() - 2);
        }
        String want = m.substring(m.indexOf(' ', i) + 1).toLowerCase(Locale.ROOT);
        String expected = want.contains("json string") || want.contains("valid value") ? "a JSON value"
                : want.contains("start field name") ? "a field name in double quotes"
                : want.contains("separate object entries") ? "',' or '}'"
                : want.contains("separate array entries") ? "',' or ']'"
                : want.contains("colon") ? "':' after the field name"
                : "valid JSON";
        return found + "expected " + expected;
    }
}
