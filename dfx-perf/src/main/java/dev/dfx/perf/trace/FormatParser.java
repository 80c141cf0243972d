package dev.dfx.perf.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses one tracepoint format file ({@code name:}, {@code ID:}, {@code format:} fields, {@code print fmt:})
 * token by token as libtraceevent's {@code __tep_parse_format} does (perf 6.1's in-tree copy): a file whose name or
 * id cannot be read yields {@code null} (libtraceevent drops the event); the fields are read up to the first one
 * that breaks the grammar ({@code event_read_fields}: the ones before it stay, the rest are lost) and such an
 * event, like one whose print format cannot be parsed, is {@link EventFormat#failed()}. Stateless.
 */
final class FormatParser {
    /** How far the fields of a format could be read ({@link #format}). */
    private static final int NO_FIELDS = 0;
    private static final int COMMON_FIELDS = 1;
    private static final int ALL_FIELDS = 2;
    /** The fields broke off where libtraceevent frees a field it has already linked (see {@link #fields}). */
    private static final int FREED_FIELD = 3;

    /** Outcomes of one field list ({@link #fields}). */
    private static final int LIST_READ = 0;
    private static final int LIST_BROKE = 1;
    private static final int LIST_FREED = 2;

    private FormatParser() {
    }

    /**
     * @param text     the format file
     * @param system   its subsystem
     * @param longSize the kernel's {@code sizeof(long)}
     * @return the event, or {@code null} when the text has no readable name or id
     */
    static EventFormat parse(String text, String system, int longSize) {
        Tokenizer tok = new Tokenizer(text);
        Token name = header(tok, "name");
        if (name == null) {
            return null;
        }
        Token id = header(tok, "ID");
        if (id == null) {
            return null;
        }
        List<FormatField> common = new ArrayList<>();
        List<FormatField> own = new ArrayList<>();
        boolean ftrace = system.equals("ftrace"); // TEP_EVENT_FL_ISFTRACE: its formats bend the grammar
        int fieldsRead = format(tok, common, own, longSize, ftrace);
        List<FormatField> all = new ArrayList<>(common);
        all.addAll(own);
        int at = text.indexOf("print fmt:");
        String fmtText = at < 0 ? "" : text.substring(at + "print fmt:".length()).strip();
        PrintFormat pf = null;
        boolean nullField = false;
        String failure = switch (fieldsRead) {
            case ALL_FIELDS -> null;
            case COMMON_FIELDS -> "its own fields break off (a line that is not \"field:TYPE NAME; offset:N; size:N;"
                + " signed:N;\"); the fields after it and the print fmt are not read";
            default -> "its common fields break off or are missing (a line that is not \"field:TYPE NAME; offset:N;"
                + " size:N; signed:N;\", or no \"format:\" line)";
        };
        if (failure == null && !printFmtHeader(tok)) {
            failure = "no \"print fmt:\" line after its fields";
        } else if (failure == null) {
            try {
                pf = printFormat(tok.rest(), all);
            } catch (NullFieldException e) {
                nullField = true;
                failure = "its print fmt names a field it lacks";
            } catch (FormatException e) {
                failure = "its print fmt: " + e.getMessage();
            }
        }
        return new EventFormat(system, name.text(), (int) CNumbers.strtoull(id.text()), List.copyOf(common),
            List.copyOf(own), pf, fmtText, failure,
            fieldsRead == FREED_FIELD || nullField);
    }

    /**
     * @param text a format file
     * @return its id, or {@code null} when its name or id line cannot be read ({@code __tep_parse_format} then drops
     *         the event)
     */
    static Integer id(String text) {
        Tokenizer tok = new Tokenizer(text);
        Token id = header(tok, "name") == null ? null : header(tok, "ID");
        return id == null ? null : (int) CNumbers.strtoull(id.text());
    }

    /** {@code event_read_name} / {@code event_read_id}: {@code KEY : ITEM}; returns the item or {@code null}. */
    private static Token header(Tokenizer tok, String key) {
        if (!tok.next().is(Token.Kind.ITEM, key) || !tok.nextKeepNewline().isOp(":")) {
            return null;
        }
        Token t = tok.nextKeepNewline();
        return t.kind() == Token.Kind.ITEM ? t : null;
    }

    /**
     * {@code event_read_format}: {@code format:} NEWLINE, the common fields, a blank line, the event's fields.
     *
     * @return {@link #ALL_FIELDS}, {@link #COMMON_FIELDS} (the event's own fields broke off), {@link #NO_FIELDS}
     *         or {@link #FREED_FIELD}
     */
    private static int format(Tokenizer tok, List<FormatField> common, List<FormatField> own, int longSize,
                              boolean ftrace) {
        if (!tok.next().is(Token.Kind.ITEM, "format") || !tok.nextKeepNewline().isOp(":")
            || tok.nextKeepNewline().kind() != Token.Kind.NEWLINE) {
            return NO_FIELDS;
        }
        int c = fields(tok, common, longSize, ftrace);
        if (c != LIST_READ) {
            return c == LIST_FREED ? FREED_FIELD : NO_FIELDS;
        }
        int o = fields(tok, own, longSize, ftrace);
        return o == LIST_READ ? ALL_FIELDS : o == LIST_FREED ? FREED_FIELD : COMMON_FIELDS;
    }

    /**
     * {@code event_read_fields}: fields until a blank line, stopping at the first malformed one. When a line breaks
     * before its type (at {@code field}, the colon or the first type word), libtraceevent frees its field pointer,
     * which still holds the previous field of the list, already linked: a use-after-free that crashes perf.
     *
     * @return {@link #LIST_READ}, {@link #LIST_BROKE} or {@link #LIST_FREED}
     */
    private static int fields(Tokenizer tok, List<FormatField> out, int longSize, boolean ftrace) {
        while (true) {
            Token t = tok.nextKeepNewline();
            if (t.kind() == Token.Kind.NEWLINE) {
                return LIST_READ;
            }
            Token type = t.is(Token.Kind.ITEM, "field") ? typeStart(tok, ftrace) : null;
            if (type == null) {
                return out.isEmpty() ? LIST_BROKE : LIST_FREED;
            }
            FormatField f = field(tok, type, longSize, ftrace);
            if (f == null) {
                return LIST_BROKE;
            }
            out.add(f);
        }
    }

    /** After {@code field}: {@code :} (ftrace formats may have {@code special} first) and the first type word. */
    private static Token typeStart(Tokenizer tok, boolean ftrace) {
        Token colon = tok.nextKeepNewline();
        if (ftrace && colon.is(Token.Kind.ITEM, "special")) {
            colon = tok.nextKeepNewline();
        }
        Token t = colon.isOp(":") ? tok.nextKeepNewline() : null;
        return t != null && t.kind() == Token.Kind.ITEM ? t : null;
    }

    /** {@code event_read_print} up to the format string: {@code print fmt :}. */
    private static boolean printFmtHeader(Tokenizer tok) {
        return tok.next().is(Token.Kind.ITEM, "print") && tok.nextKeepNewline().is(Token.Kind.ITEM, "fmt")
            && tok.nextKeepNewline().isOp(":");
    }

    private static PrintFormat printFormat(String text, List<FormatField> fields) throws FormatException {
        Tokenizer tok = new Tokenizer(text);
        Token t = tok.next();
        if (t.kind() != Token.Kind.DQUOTE) {
            throw new FormatException("it does not start with a quoted string");
        }
        StringBuilder format = new StringBuilder(t.text());
        Token next = tok.next();
        while (next.kind() == Token.Kind.DQUOTE) {
            format.append(next.text());
            next = tok.next();
        }
        // libtraceevent copies the quoted text (adjacent strings joined) into a C string, so a NUL byte in it ends
        // the format there; the arguments after it are parsed all the same
        int nul = format.indexOf("\0");
        if (nul >= 0) {
            format.setLength(nul);
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

    /**
     * One {@code field:...;} line as {@code event_read_fields} reads it, e.g. {@code field:char comm[16];
     * offset:8; size:16; signed:0;}.
     *
     * @return the field, or {@code null} when the line does not follow the grammar
     */
    static FormatField field(String line, int longSize) {
        Tokenizer tok = new Tokenizer(line.strip() + "\n");
        Token type = tok.next().is(Token.Kind.ITEM, "field") ? typeStart(tok, false) : null;
        return type == null ? null : field(tok, type, longSize, false);
    }

    /** The rest of a field from its first type word on; the tokens of one line (a newline ends it). */
    private static FormatField field(Tokenizer tok, Token typeStart, int longSize, boolean ftrace) {
        List<String> typeParts = new ArrayList<>();
        String last = typeStart.text();
        boolean pointer = false;
        Token t = tok.nextKeepNewline();
        while (t.kind() == Token.Kind.ITEM || t.isOp("*") || ftrace && t.isOp(".")) {
            pointer |= t.isOp("*");
            typeParts.add(last);
            last = t.text();
            t = tok.nextKeepNewline();
        }
        if (typeParts.isEmpty() || t.kind() != Token.Kind.OP) {
            return null; // no type, or the name is not followed by '[' or ';'
        }
        String type = String.join(" ", typeParts);
        String name = last;
        boolean array = false;
        int arrayLen = 0;
        int sizeDynamic = 0;
        if (t.isOp("[")) {
            array = true;
            StringBuilder brackets = new StringBuilder("[");
            Token.Kind lastKind = t.kind();
            t = tok.nextKeepNewline();
            while (!t.text().equals("]")) {
                brackets.append(lastKind == Token.Kind.ITEM && t.kind() == Token.Kind.ITEM ? " " : "")
                    .append(t.text());
                lastKind = t.kind();
                arrayLen = (int) CNumbers.strtoull(t.text()); // only the last token counts
                t = tok.nextKeepNewline();
                if (t.kind() == Token.Kind.NONE) {
                    return null;
                }
            }
            brackets.append(']');
            t = tok.nextKeepNewline();
            if (t.kind() == Token.Kind.ITEM) { // "type [] name": the brackets belong to the type
                type = type + " " + name + brackets;
                sizeDynamic = typeSize(name);
                name = t.text();
                t = tok.nextKeepNewline();
            } else {
                type = type + brackets;
            }
        }
        Token offset = t.isOp(";") ? layout(tok, "offset") : null;
        Token size = offset != null ? layout(tok, "size") : null;
        if (size == null) {
            return null;
        }
        boolean signed = false;
        t = tok.nextKeepNewline();
        if (t.kind() != Token.Kind.NEWLINE) { // newer kernels add "signed:N;"
            Token sign = t.is(Token.Kind.ITEM, "signed") && tok.nextKeepNewline().isOp(":")
                ? tok.nextKeepNewline() : null;
            if (sign == null || sign.kind() != Token.Kind.ITEM || !tok.nextKeepNewline().isOp(";")
                || tok.nextKeepNewline().kind() != Token.Kind.NEWLINE) {
                return null;
            }
            signed = CNumbers.strtoull(sign.text()) != 0;
        }
        return build(name, type, pointer, array, arrayLen, sizeDynamic, (int) CNumbers.strtoull(offset.text()),
            (int) CNumbers.strtoull(size.text()), signed, longSize);
    }

    /** {@code KEY : ITEM ;} of a field's layout; returns the item or {@code null}. */
    private static Token layout(Tokenizer tok, String key) {
        if (!tok.nextKeepNewline().is(Token.Kind.ITEM, key) || !tok.nextKeepNewline().isOp(":")) {
            return null;
        }
        Token v = tok.nextKeepNewline();
        return v.kind() == Token.Kind.ITEM && tok.nextKeepNewline().isOp(";") ? v : null;
    }

    /** The flags and element size {@code event_read_fields} derives from a field's type. */
    private static FormatField build(String name, String type, boolean pointer, boolean array, int arrayLen,
                                     int sizeDynamic, int offset, int size, boolean signed, int longSize) {
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
