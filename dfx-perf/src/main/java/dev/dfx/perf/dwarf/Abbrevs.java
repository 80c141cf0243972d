package dev.dfx.perf.dwarf;

import java.util.HashMap;
import java.util.Map;

/**
 * One abbreviation table of {@code .debug_abbrev} (DWARF 5 §7.5.3): code to tag, children flag and attribute
 * specifications (name, form, and the value of {@code DW_FORM_implicit_const}). Immutable once read.
 */
final class Abbrevs {
    /** More declarations than this in one table are refused (real tables hold a few hundred). */
    private static final int MAX_ABBREVS = 1 << 20;
    /** More attributes than this in one declaration are refused. */
    private static final int MAX_ATTRS = 1 << 12;

    /** One declaration. */
    record Abbrev(int tag, boolean children, int[] names, int[] forms, long[] consts) {
    }

    private final Map<Integer, Abbrev> byCode = new HashMap<>();

    static Abbrevs read(DwarfSection abbrev, long offset) {
        Abbrevs t = new Abbrevs();
        DwarfCursor c = abbrev.cursor(offset);
        while (true) {
            int code = c.ulebInt("abbreviation code");
            if (code == 0) {
                return t;
            }
            if (t.byCode.size() >= MAX_ABBREVS) {
                throw c.error("more than " + MAX_ABBREVS + " abbreviations in one table");
            }
            int tag = c.ulebInt("tag");
            boolean children = c.u8() != 0;
            int[] names = new int[8];
            int[] forms = new int[8];
            long[] consts = new long[8];
            int n = 0;
            while (true) {
                int name = c.ulebInt("attribute name");
                int form = c.ulebInt("attribute form");
                long value = form == Dw.FORM_IMPLICIT_CONST ? c.sleb() : 0;
                if (name == 0 && form == 0) {
                    break;
                }
                if (n == MAX_ATTRS) {
                    throw c.error("more than " + MAX_ATTRS + " attributes in abbreviation " + code);
                }
                if (n == names.length) {
                    names = java.util.Arrays.copyOf(names, n * 2);
                    forms = java.util.Arrays.copyOf(forms, n * 2);
                    consts = java.util.Arrays.copyOf(consts, n * 2);
                }
                names[n] = name;
                forms[n] = form;
                consts[n] = value;
                n++;
            }
            t.byCode.putIfAbsent(code, new Abbrev(tag, children, java.util.Arrays.copyOf(names, n),
                java.util.Arrays.copyOf(forms, n), java.util.Arrays.copyOf(consts, n)));
        }
    }

    /** @return the declaration of {@code code}, or {@code null} */
    Abbrev get(int code) {
        return byCode.get(code);
    }
}
