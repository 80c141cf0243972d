package dev.dfx.perf.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses one tracepoint format file ({@code name:}, {@code ID:}, {@code format:} fields, {@code print fmt:})
 * as libtraceevent's {@code tep_parse_event} does. A print format it cannot parse yields an event marked
 * {@link EventFormat#failed()}; an unreadable header yields {@code null}. Stateless.
 */
final class FormatParser {
    private static final Pattern NAME = Pattern.compile("(?m)^name:\\s*(\\S+)");
    private static final Pattern ID = Pattern.compile("(?m)^ID:\\s*(\\d+)");
    private static final Pattern LAYOUT = Pattern.compile(
        "offset:\\s*(\\d+);\\s*size:\\s*(\\d+);(?:\\s*signed:\\s*(\\d+);)?");

    private FormatParser() {
    }

    /**
     * @param text     the format file
     * @param system   its subsystem
     * @param longSize the kernel's {@code sizeof(long)}
     * @return the event, or {@code null} when the text has no name or id
     */
    static EventFormat parse(String text, String system, int longSize) {
        Matcher n = NAME.matcher(text);
        Matcher i = ID.matcher(text);
        if (!n.find() || !i.find()) {
            return null;
        }
        List<FormatField> common = new ArrayList<>();
        List<FormatField> own = new ArrayList<>();
        boolean inOwn = false;
        boolean inFormat = false;
        boolean fieldsFailed = false;
        String printFmt = null;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (t.startsWith("format:")) {
                inFormat = true;
                continue;
            }
            if (t.startsWith("print fmt:")) {
                int at = text.indexOf("print fmt:");
                printFmt = text.substring(at + "print fmt:".length());
                break;
            }
            if (!inFormat) {
                continue;
            }
            if (t.isEmpty()) {
                if (!common.isEmpty()) {
                    inOwn = true;
                }
                continue;
            }
            if (t.startsWith("field:")) {
                FormatField f = field(t, longSize);
                if (f == null) {
                    fieldsFailed = true;
                } else if (inOwn) {
                    own.add(f);
                } else {
                    common.add(f);
                }
            }
        }
        List<FormatField> all = new ArrayList<>(common);
        all.addAll(own);
        PrintFormat pf = null;
        String fmtText = printFmt == null ? "" : printFmt.strip();
        if (!fieldsFailed && printFmt != null) {
            try {
                pf = printFormat(printFmt, all);
            } catch (FormatException e) {
                pf = null;
            }
        }
        return new EventFormat(system, n.group(1), Integer.parseInt(i.group(1)), List.copyOf(common),
            List.copyOf(own), pf, fmtText, pf == null);
    }

    private static PrintFormat printFormat(String text, List<FormatField> fields) throws FormatException {
        Tokenizer tok = new Tokenizer(text);
        Token t = tok.next();
        if (t.kind() != Token.Kind.DQUOTE) {
            throw new FormatException("print fmt does not start with a string");
        }
        StringBuilder format = new StringBuilder(t.text());
        Token next = tok.next();
        while (next.kind() == Token.Kind.DQUOTE) {
            format.append(next.text());
            next = tok.next();
        }
        List<PrintArg> args = List.of();
        if (next.kind() != Token.Kind.NONE) {
            if (!next.isDelim(",")) {
                throw new FormatException("expected ',' after the format string");
            }
            args = new ArgParser(tok, name -> find(fields, name)).parseArgs();
        }
        return PrintFormat.compile(format.toString(), args);
    }

    private static FormatField find(List<FormatField> fields, String name) {
        for (FormatField f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** One {@code field:...;} line ({@code event_read_fields}). */
    static FormatField field(String line, int longSize) {
        int colon = line.indexOf(':');
        int semi = line.indexOf(';');
        if (colon < 0 || semi < colon) {
            return null;
        }
        Matcher m = LAYOUT.matcher(line.substring(semi + 1));
        if (!m.find()) {
            return null;
        }
        Tokenizer tok = new Tokenizer(line.substring(colon + 1, semi));
        Token first = tok.next();
        if (first.kind() != Token.Kind.ITEM) {
            return null;
        }
        List<String> typeParts = new ArrayList<>();
        String last = first.text();
        boolean pointer = false;
        Token t = tok.next();
        while (t.kind() == Token.Kind.ITEM || t.isOp("*")) {
            if (t.isOp("*")) {
                pointer = true;
            }
            typeParts.add(last);
            last = t.text();
            t = tok.next();
        }
        if (typeParts.isEmpty()) {
            return null;
        }
        String type = String.join(" ", typeParts);
        String name = last;
        boolean array = false;
        int arrayLen = 0;
        int sizeDynamic = 0;
        if (t.isOp("[")) {
            array = true;
            StringBuilder brackets = new StringBuilder("[");
            Token in = tok.next();
            while (in.kind() != Token.Kind.NONE && !in.isOp("]")) {
                brackets.append(in.text());
                arrayLen = (int) CNumbers.strtoull(in.text());
                in = tok.next();
            }
            brackets.append(']');
            Token after = tok.next();
            if (after.kind() == Token.Kind.ITEM) {
                type = type + " " + name + brackets;
                sizeDynamic = typeSize(name);
                name = after.text();
            } else {
                type = type + brackets;
            }
        }
        int offset = Integer.parseInt(m.group(1));
        int size = Integer.parseInt(m.group(2));
        boolean signed = m.group(3) != null && !m.group(3).equals("0");
        boolean string = array && (type.contains("char") || type.contains("u8") || type.contains("s8"));
        boolean relative = type.startsWith("__rel_loc");
        boolean dynamic = type.startsWith("__data_loc") || relative;
        boolean isLong = type.contains("long");
        int elementSize;
        if (array) {
            if (arrayLen != 0) {
                elementSize = size / arrayLen;
            } else if (dynamic) {
                elementSize = sizeDynamic;
            } else if (string) {
                elementSize = 1;
            } else if (isLong) {
                elementSize = longSize;
            } else {
                elementSize = 0;
            }
        } else {
            elementSize = size;
        }
        return new FormatField(name, type, offset, size, signed, array, dynamic, relative, string, isLong, pointer,
            arrayLen, elementSize);
    }

    private static int typeSize(String name) {
        return switch (name) {
            case "u8", "s8", "char" -> 1;
            case "u16", "s16" -> 2;
            case "u32", "s32" -> 4;
            case "u64", "s64" -> 8;
            default -> 0;
        };
    }
}
