package dev.dfx.perf.trace;

/**
 * One piece of a compiled print format ({@code libtraceevent struct tep_print_parse}): literal text, or a
 * conversion with its argument.
 *
 * @param kind     what the piece prints
 * @param text     the literal text, or the conversion spec (e.g. {@code "%-16s"}, {@code "%ps"})
 * @param format   the parsed spec (conversions only)
 * @param ls       length modifier count: -2 hh, -1 h, 0 none, 1 l, 2 ll (digits only)
 * @param arg      the argument (conversions only)
 * @param lenArg   the {@code *} argument, or {@code null}
 */
record Segment(Kind kind, String text, CFormat format, int ls, PrintArg arg, PrintArg lenArg) {
    /** Piece kinds ({@code PRINT_FMT_*}). */
    enum Kind { LITERAL, DIGIT, POINTER, STRING }
}
