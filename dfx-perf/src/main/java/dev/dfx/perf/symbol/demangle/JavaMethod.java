package dev.dfx.perf.symbol.demangle;

/**
 * Java method names as the JVM writes them into JIT symbol names ({@code Ljava/lang/String;hashCode()I}: the class
 * descriptor, the method name, the parameter descriptors), printed as perf 6.1's
 * {@code java_demangle_sym(name, JAVA_DEMANGLE_NORET)} (tools/perf/util/demangle-java.c) prints them, for every ELF
 * symbol neither the C++ nor the OCaml demangler took; in practice the {@code jitted-PID-N.so} files
 * {@code perf inject --jit} writes from a jitdump, whose symbols are such names
 * ({@code java.lang.String.hashCode()}, {@code java.lang.StringLatin1.equals(byte[], byte[])}).
 *
 * <p>perf's state machine is kept exactly, with its leniencies: the name must contain {@code )} (the last one ends
 * the part printed; the return type is left out), characters before the first {@code L} are copied, {@code /}
 * becomes {@code .}, {@code ;} ends the class (with a {@code .} before a method name that starts with a letter), and
 * in the parameters {@code L...;} is a class, {@code B C D F I J S Z V} are primitive types, {@code [} makes an array;
 * a {@code [}, {@code (}, {@code )}, {@code ;} or {@code /} where perf's grammar has none fails the name. The output
 * is cut at three times the name's length, as perf's buffer. Names are Java strings of one byte per character.
 * Stateless and thread-safe.
 */
final class JavaMethod {
    private enum Mode { PREFIX, CLASS, FUNC, TYPE, CLASS_ARG }

    private JavaMethod() {
    }

    /**
     * @param sym a symbol name
     * @return its demangled form, or {@code null} when perf's Java demangler rejects it
     */
    static String demangle(String sym) {
        int close = sym.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        Out out = new Out(3 * sym.length());
        Mode mode = Mode.PREFIX;
        int array = 0;
        int args = 0;
        for (int q = 0; q <= close && !out.full(); q++) {
            char c = sym.charAt(q);
            switch (c) {
                case 'L' -> {
                    if (mode == Mode.PREFIX) {
                        mode = Mode.CLASS;
                    } else if (mode == Mode.TYPE) {
                        if (args++ > 0) {
                            out.append(", ");
                        }
                        mode = Mode.CLASS_ARG;
                    } else {
                        out.append(c);
                    }
                }
                case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z', 'V' -> {
                    if (mode == Mode.TYPE) {
                        if (c != 'V' && args++ > 0) {
                            out.append(", ");
                        }
                        out.append(primitive(c));
                        out.append("[]".repeat(array));
                        array = 0;
                    } else {
                        out.append(c);
                    }
                }
                case '[' -> {
                    if (mode != Mode.TYPE) {
                        return null;
                    }
                    array++;
                }
                case '(' -> {
                    if (mode != Mode.FUNC) {
                        return null;
                    }
                    out.append(c);
                    mode = Mode.TYPE;
                }
                case ')' -> {
                    if (mode != Mode.TYPE) {
                        return null;
                    }
                    out.append(c);
                    args = 0;
                }
                case ';' -> {
                    if (mode == Mode.CLASS) {
                        if (isAlpha(sym.charAt(q + 1))) {
                            out.append(".");
                        }
                        mode = Mode.FUNC;
                    } else if (mode == Mode.CLASS_ARG) {
                        mode = Mode.TYPE;
                    } else {
                        return null;
                    }
                }
                case '/' -> {
                    if (mode != Mode.CLASS && mode != Mode.CLASS_ARG) {
                        return null;
                    }
                    out.append(".");
                }
                default -> out.append(c);
            }
        }
        return out.b.toString();
    }

    private static String primitive(char c) {
        return switch (c) {
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'D' -> "double";
            case 'F' -> "float";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'S' -> "short";
            case 'Z' -> "boolean";
            default -> "void";
        };
    }

    /** perf's {@code isalpha}: the kernel's ctype table, Latin-1 letters included. */
    private static boolean isAlpha(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0xc0 && c <= 0xff && c != 0xd7 && c != 0xf7;
    }

    /** perf's fixed buffer: what does not fit is cut, as its {@code scnprintf} cuts. */
    private static final class Out {
        final StringBuilder b = new StringBuilder();
        final int cap;

        Out(int cap) {
            this.cap = cap;
        }

        boolean full() {
            return b.length() >= cap;
        }

        void append(char c) {
            b.append(c);
        }

        void append(String s) {
            b.append(s, 0, Math.min(s.length(), cap - b.length()));
        }
    }
}
