package dev.dfx.perf.trace;

import dev.dfx.perf.data.Endian;
import java.util.List;
import java.util.Map;

/**
 * Prints a tracepoint record through its {@code print fmt} exactly as libtraceevent's {@code pretty_print}
 * does for perf 6.1 without plugins (the {@code trace} column of {@code perf script}), the printk pointer
 * extensions ({@code %pI4}, {@code %pISpc}, {@code %pM}, {@code %pU}, {@code %*ph}, ...) included
 * ({@link PointerExtensions}). Immutable and
 * thread-safe if the symbol resolver is.
 */
public final class EventPrinter {
    private static final CFormat HEX_LL = CFormat.parse("%llx");

    private final KernelSymbols symbols;
    private final Map<Long, String> printk;
    private final int longSize;

    /**
     * @param symbols  kernel function names for {@code %ps}
     * @param printk   {@code trace_printk} format strings by address (from the tracing data)
     * @param longSize the recording kernel's {@code sizeof(long)}: 4 or 8
     */
    public EventPrinter(KernelSymbols symbols, Map<Long, String> printk, int longSize) {
        this.symbols = symbols;
        this.printk = printk;
        this.longSize = longSize;
    }

    /** Appends the formatted record to {@code out}. */
    public void print(EventFormat ev, RawData d, StringBuilder out) {
        if (ev.failed()) {
            out.append("[FAILED TO PARSE]");
            RawFields.print(ev, d, out);
            return;
        }
        for (Segment s : ev.printFormat().segments()) {
            segment(s, d, out);
        }
    }

    /** Appends one piece of a print format, printed over {@code d}. */
    void segment(Segment s, RawData d, StringBuilder out) {
        switch (s.kind()) {
            case LITERAL -> out.append(s.text());
            case DIGIT -> digit(s, d, out);
            case POINTER -> pointer(s, d, out);
            case STRING -> str(s.arg(), s.format(), s.lenArg() == null ? -1 : (int) Eval.num(s.lenArg(), d), d, out);
            default -> throw new IllegalStateException();
        }
    }

    /** @return the recording kernel's {@code sizeof(long)}: 4 or 8 */
    int longSize() {
        return longSize;
    }

    private static void digit(Segment s, RawData d, StringBuilder out) {
        int star = s.lenArg() == null ? -1 : (int) Eval.num(s.lenArg(), d);
        long v = Eval.num(s.arg(), d);
        int bits = switch (s.ls()) {
            case -2 -> 8;
            case -1 -> 16;
            case 0 -> 32;
            default -> 64;
        };
        s.format().formatInt(v, bits, star, out);
    }

    /** @return the letter after {@code p} in a pointer conversion ({@code S} of {@code %pS}), or 0 */
    private static char pointerKind(String spec) {
        int p = spec.indexOf('p');
        return p + 1 < spec.length() ? spec.charAt(p + 1) : 0;
    }

    /** @return whether a pointer conversion of that kind prints a kernel function's name */
    private static boolean isFunction(char kind) {
        return kind == 'F' || kind == 'f' || kind == 'S' || kind == 's';
    }

    private void pointer(Segment s, RawData d, StringBuilder out) {
        String spec = s.text();
        char kind = pointerKind(spec);
        if (isFunction(kind)) {
            function(kind, Eval.num(s.arg(), d), out);
            return;
        }
        int len = s.lenArg() == null ? -1 : (int) Eval.num(s.lenArg(), d);
        if (!PointerExtensions.print(spec, s.arg(), len, d, out)) {
            out.append(CFormat.pointer(Eval.num(s.arg(), d)));
        }
    }

    private void function(char kind, long v, StringBuilder out) {
        KernelSymbols.Symbol sym = symbols.find(v);
        if (sym != null) {
            out.append(sym.name());
            if (kind == 'F' || kind == 'S') {
                out.append("+0x").append(Long.toHexString(v - sym.start()));
            }
        } else if (longSize == 4) {
            out.append("0x").append(Long.toHexString(v & 0xffff_ffffL));
        } else {
            out.append("0x").append(Long.toHexString(v));
        }
    }

    /** libtraceevent {@code print_str_arg}. */
    private void str(PrintArg a, CFormat fmt, int star, RawData d, StringBuilder out) {
        if (a instanceof PrintArg.Atom atom) {
            fmt.formatString(atom.text(), star, out);
        } else if (a instanceof PrintArg.Field f) {
            field(f.field(), fmt, star, d, out);
        } else if (a instanceof PrintArg.Flags fl) {
            flags(fl, fmt, star, d, out);
        } else if (a instanceof PrintArg.Symbolic sy) {
            long v = Eval.num(sy.field(), d);
            for (PrintArg.FlagSym f : sy.symbols()) {
                if (v == f.number()) {
                    fmt.formatString(f.name(), star, out);
                    return;
                }
            }
            out.append("0x").append(Long.toHexString(v));
        } else if (a instanceof PrintArg.Hex h) {
            hex(h, d, out);
        } else if (a instanceof PrintArg.IntArray ia) {
            intArray(ia, d, out);
        } else if (a instanceof PrintArg.Str s) {
            if (s.field() == null) {
                return;
            }
            long[] loc = Eval.dynamic(s.field(), d);
            if (loc[1] == 0) {
                return; // zero-length dynamic strings print nothing
            }
            cString(fmt, star, d, (int) loc[0], Integer.MAX_VALUE, out);
        } else if (a instanceof PrintArg.Bitmask b) {
            if (b.field() != null) {
                long[] loc = Eval.dynamic(b.field(), d);
                out.append(fmt.formatString(bitmask(d, (int) loc[0], (int) loc[1]), star));
            }
        } else if (a instanceof PrintArg.Op op && op.operator() == Eval.Operator.COND) {
            PrintArg.Op branches = (PrintArg.Op) op.right();
            str(Eval.num(op.left(), d) != 0 ? branches.left() : branches.right(), fmt, star, d, out);
        }
    }

    private void field(FormatField f, CFormat fmt, int star, RawData d, StringBuilder out) {
        if (f == null) {
            return;
        }
        int len = f.size() != 0 ? f.size() : d.size() - f.offset();
        if (!f.array() && f.size() == longSize) {
            long addr = d.number(f.offset(), longSize);
            String s = printk.get(addr);
            out.append(s != null ? s : HEX_LL.formatInt(addr, 64, -1));
            return;
        }
        cString(fmt, star, d, f.offset(), len, out);
    }

    /** A NUL-terminated string of the raw data through {@code %s}: a plain one is copied without making a String. */
    private static void cString(CFormat fmt, int star, RawData d, int off, int max, StringBuilder out) {
        if (fmt.plain) {
            d.appendCString(off, max, out);
        } else {
            fmt.formatString(d.cString(off, max), star, out);
        }
    }

    private static void flags(PrintArg.Flags fl, CFormat fmt, int star, RawData d, StringBuilder out) {
        long v = Eval.num(fl.field(), d);
        boolean printed = false;
        for (PrintArg.FlagSym f : fl.flags()) {
            long fv = f.number();
            if (v == 0 && fv < 0) {
                out.append(fmt.formatString(f.name(), star));
                break;
            }
            if (fv > 0 && (v & fv) == fv) {
                if (printed && fl.delim() != null) {
                    out.append(fl.delim());
                }
                out.append(fmt.formatString(f.name(), star));
                printed = true;
                v &= ~fv;
            }
        }
        if (v != 0) {
            if (printed && fl.delim() != null) {
                out.append(fl.delim());
            }
            out.append("0x").append(Long.toHexString(v));
        }
    }

    private static int dataStart(PrintArg fieldArg, RawData d) {
        if (fieldArg instanceof PrintArg.DynArray arr) {
            return (int) Eval.dynamic(arr.field(), d)[0];
        }
        if (fieldArg instanceof PrintArg.Field f && f.field() != null) {
            return f.field().offset();
        }
        return -1;
    }

    private static void hex(PrintArg.Hex h, RawData d, StringBuilder out) {
        int start = dataStart(h.field(), d);
        if (start < 0) {
            return;
        }
        long len = Eval.num(h.size(), d);
        for (int i = 0; i < len; i++) {
            if (i > 0 && h.spaced()) {
                out.append(' ');
            }
            int b = d.u8(start + i);
            out.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
    }

    private static void intArray(PrintArg.IntArray ia, RawData d, StringBuilder out) {
        int at = dataStart(ia.field(), d);
        if (at < 0) {
            return;
        }
        long len = Eval.num(ia.count(), d);
        int el = (int) Eval.num(ia.elementSize(), d);
        for (int i = 0; i < len; i++) {
            if (i > 0) {
                out.append(' ');
            }
            if (el == 1 || el == 2 || el == 4 || el == 8) {
                out.append(Long.toUnsignedString(d.number(at, el)));
            } else {
                out.append("BAD SIZE:").append(el).append(" 0x").append(Integer.toHexString(d.u8(at)));
                el = 1;
            }
            at += el;
        }
    }

    /** {@code print_bitmask_to_seq}: hex digits, most significant first, a comma every 32 bits. */
    private static String bitmask(RawData d, int off, int size) {
        int nrBits = size * 8;
        int strSize = (nrBits + 3) / 4 + (nrBits - 1) / 32;
        if (strSize <= 0) {
            return "";
        }
        char[] str = new char[strSize];
        int len = 0;
        boolean big = d.endian() == Endian.BIG;
        for (int i = strSize - 2; i >= 0; i -= 2) {
            int index = big ? size - (len + 1) : len;
            int b = d.u8(off + index);
            str[i] = Character.forDigit(b >> 4, 16);
            str[i + 1] = Character.forDigit(b & 15, 16);
            len++;
            if ((len & 3) == 0 && i > 0) {
                i--;
                str[i] = ',';
            }
        }
        return new String(str);
    }

    private static final Map<String, Long> KNOWN_FLAGS = Map.ofEntries(
        Map.entry("HI_SOFTIRQ", 0L), Map.entry("TIMER_SOFTIRQ", 1L), Map.entry("NET_TX_SOFTIRQ", 2L),
        Map.entry("NET_RX_SOFTIRQ", 3L), Map.entry("BLOCK_SOFTIRQ", 4L), Map.entry("IRQ_POLL_SOFTIRQ", 5L),
        Map.entry("TASKLET_SOFTIRQ", 6L), Map.entry("SCHED_SOFTIRQ", 7L), Map.entry("HRTIMER_SOFTIRQ", 8L),
        Map.entry("RCU_SOFTIRQ", 9L), Map.entry("HRTIMER_NORESTART", 0L), Map.entry("HRTIMER_RESTART", 1L));

    /** libtraceevent {@code eval_flag}: a number, one of the few names it knows, else -1 (matches nothing). */
    static long evalFlag(String flag) {
        if (!flag.isEmpty() && Character.isDigit(flag.charAt(0))) {
            return CNumbers.strtoull(flag);
        }
        Long v = KNOWN_FLAGS.get(flag);
        return v != null ? v : -1L;
    }
}
