package dev.dfx.perf.trace;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A compiled {@code print fmt}: the format string split into literal text and conversions, each
 * conversion bound to its argument as libtraceevent's {@code parse_args} binds them. Conversions
 * libtraceevent does not know (e.g. {@code %c}) become the literal {@code >c<} and take no argument, as in
 * libtraceevent. Immutable.
 */
public final class PrintFormat {
    private final List<Segment> segments;

    private PrintFormat(List<Segment> segments) {
        this.segments = List.copyOf(segments);
    }

    List<Segment> segments() {
        return segments;
    }

    /**
     * @param format the format string (between the quotes, escapes as written)
     * @param args   the parsed arguments
     * @throws FormatException when a conversion has no argument left
     */
    static PrintFormat compile(String format, List<PrintArg> args) throws FormatException {
        List<Segment> out = new ArrayList<>();
        Iterator<PrintArg> it = args.iterator();
        int i = 0;
        int n = format.length();
        while (i < n) {
            if (format.charAt(i) == '%' && (i + 1 >= n || format.charAt(i + 1) != '%')) {
                i = conversion(format, i, it, out);
            } else {
                i = literal(format, i, out);
            }
        }
        return new PrintFormat(out);
    }

    /** {@code parse_arg_string}: text up to the next single '%', with C escapes resolved. */
    private static int literal(String f, int i, List<Segment> out) {
        StringBuilder sb = new StringBuilder();
        int n = f.length();
        while (i < n) {
            char c = f.charAt(i);
            if (c == '\\' && i + 1 < n) {
                char e = f.charAt(++i);
                sb.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    default -> e;
                });
            } else if (c == '%') {
                if (i + 1 < n && f.charAt(i + 1) == '%') {
                    sb.append('%');
                    i++;
                } else {
                    break;
                }
            } else {
                sb.append(c);
            }
            i++;
        }
        out.add(new Segment(Segment.Kind.LITERAL, sb.toString(), null, 0, null, null));
        return i;
    }

    /** {@code parse_arg_format}: one conversion starting at the '%' at {@code start}. */
    private static int conversion(String f, int start, Iterator<PrintArg> args, List<Segment> out)
        throws FormatException {
        int ls = 0;
        PrintArg lenArg = null;
        int i = start + 1;
        int n = f.length();
        for (; i < n; i++) {
            char c = f.charAt(i);
            switch (c) {
                case '#', '.', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
                    break;
                case 'h':
                    ls--;
                    break;
                case 'l':
                    ls++;
                    break;
                case 'L':
                    ls = 2;
                    break;
                case 'z', 'Z':
                    ls = 1;
                    break;
                case '*':
                    if (!args.hasNext()) {
                        throw new FormatException("no argument match");
                    }
                    if (lenArg != null) {
                        throw new FormatException("argument already matched");
                    }
                    lenArg = args.next();
                    break;
                case 'p': {
                    if (!args.hasNext()) {
                        throw new FormatException("no argument match");
                    }
                    int end = i + 1 + pointerSuffix(f, i + 1);
                    String spec = f.substring(start, end);
                    out.add(new Segment(Segment.Kind.POINTER, spec, CFormat.parse(spec), ls, args.next(), lenArg));
                    return end;
                }
                case 'd', 'u', 'i', 'x', 'X', 'o': {
                    if (!args.hasNext()) {
                        throw new FormatException("no argument match");
                    }
                    if (ls < -2 || ls > 2) {
                        throw new FormatException("bad count (" + ls + ")");
                    }
                    String spec = f.substring(start, i + 1);
                    out.add(new Segment(Segment.Kind.DIGIT, spec, CFormat.parse(spec), ls, args.next(), lenArg));
                    return i + 1;
                }
                case 's': {
                    if (!args.hasNext()) {
                        throw new FormatException("no matching argument");
                    }
                    String spec = f.substring(start, i + 1);
                    out.add(new Segment(Segment.Kind.STRING, spec, CFormat.parse(spec), 0, args.next(), lenArg));
                    return i + 1;
                }
                default:
                    out.add(new Segment(Segment.Kind.LITERAL, ">" + c + "<", null, 0, null, null));
                    return i + 1;
            }
        }
        return i;
    }

    /** {@code parse_arg_format_pointer}: how many characters after {@code %p} belong to the conversion. */
    private static int pointerSuffix(String f, int at) {
        char c = at < f.length() ? f.charAt(at) : 0;
        char c1 = at + 1 < f.length() ? f.charAt(at + 1) : 0;
        switch (c) {
            case 'F', 'S', 'f', 's':
                return 1;
            case 'M', 'm':
                return (c1 == 'R' || c1 == 'F') ? 2 : 1;
            case 'I', 'i': {
                int ret = 0;
                int index = 2;
                if (c1 == 'S') {
                    while (at + index < f.length() && "pfs".indexOf(f.charAt(at + index)) >= 0) {
                        ret++;
                        index++;
                    }
                }
                if (c1 == 'S' || c1 == '4') {
                    if (at + index < f.length() && "hnlb".indexOf(f.charAt(at + index)) >= 0) {
                        ret++;
                        index++;
                    }
                    if (c1 == '4') {
                        return ret + 2;
                    }
                }
                if (c1 == 'S' || c1 == '6') {
                    if (at + index < f.length() && f.charAt(at + index) == 'c') {
                        ret++;
                    }
                    ret++;
                }
                return ret + 1;
            }
            case 'U':
                return (c1 == 'L' || c1 == 'l' || c1 == 'B' || c1 == 'b') ? 2 : 1;
            case 'h':
                return (c1 == 'C' || c1 == 'D' || c1 == 'N') ? 2 : 1;
            default:
                return 0;
        }
    }
}
