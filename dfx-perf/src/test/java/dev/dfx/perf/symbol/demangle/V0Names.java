package dev.dfx.perf.symbol.demangle;

import java.util.SplittableRandom;

/**
 * Seeded random Rust v0 names from the grammar of RFC 2603: paths (crate roots, nested namespaces with upper- and
 * lower-case tags, inherent and trait impls, generic arguments, back-references to earlier positions), types (basic,
 * references with lifetimes, pointers, arrays, slices, tuples, function pointers with binders, {@code unsafe} and
 * ABIs, trait objects with bindings), constants of every tag (string constants libiberty rejects among them),
 * punycode identifiers with random deltas, instantiating crates, {@code .suffix}es, and one name in eight damaged by
 * one inserted or deleted character. Most are valid or nearly so, to reach the printer's corners.
 */
final class V0Names {
    private static final String B62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String[] WORDS = {"std", "core", "foo", "Bar", "iter", "fmt", "_x", "9lives", "new", "a_b",
        "Vec", "drop_in_place", "call_once", "F", "x"};
    private static final String[] ABIS = {"Rust_intrinsic", "system", "a__b", "_x", "C_unwind", "sysv64"};
    private static final String[] CHARS = {"9_", "a_", "d_", "20_", "7e_", "7d_", "27_", "5c_", "41_", "2202_", "0_",
        "10ffff_", "110000_", "123456789_"};

    private final SplittableRandom r;
    private final StringBuilder b = new StringBuilder();
    private int depth;

    V0Names(long seed) {
        r = new SplittableRandom(seed);
    }

    /** @return the next name */
    String next() {
        b.setLength(0);
        b.append("_R");
        depth = 0;
        if (r.nextInt(20) == 0) {
            b.append('0'); // an encoding version, which libiberty does not accept
        }
        path();
        if (r.nextInt(4) == 0) {
            path(); // the instantiating crate
        }
        if (r.nextInt(8) == 0) {
            b.append(r.nextBoolean() ? ".llvm.123" : ".0.0");
        }
        if (r.nextInt(8) == 0 && b.length() > 3) {
            int at = 2 + r.nextInt(b.length() - 2);
            if (r.nextBoolean()) {
                b.deleteCharAt(at);
            } else {
                b.insert(at, B62.charAt(r.nextInt(62)));
            }
        }
        return b.toString();
    }

    private void base62(long v) {
        if (v == 0) {
            b.append('_');
            return;
        }
        long x = v - 1;
        StringBuilder d = new StringBuilder();
        do {
            d.append(B62.charAt((int) (x % 62)));
            x /= 62;
        } while (x > 0);
        b.append(d.reverse()).append('_');
    }

    private void disambiguator() {
        if (r.nextInt(3) == 0) {
            b.append('s');
            base62(r.nextInt(5) == 0 ? r.nextLong(1L << 40) : r.nextInt(100));
        }
    }

    private void backref() {
        b.append('B');
        base62(r.nextInt(Math.max(1, b.length() - 2 + (r.nextInt(10) == 0 ? 5 : 0))));
    }

    private void ident() {
        if (r.nextInt(6) == 0) {
            String ascii = r.nextBoolean() ? "" : word();
            StringBuilder deltas = new StringBuilder();
            int n = 1 + r.nextInt(8);
            for (int i = 0; i < n; i++) {
                deltas.append("abcdefghijklmnopqrstuvwxyz0123456789".charAt(r.nextInt(r.nextInt(4) == 0 ? 36 : 26)));
            }
            String body = ascii.isEmpty() && r.nextBoolean() ? deltas.toString() : ascii + "_" + deltas;
            b.append('u').append(body.length());
            if (Character.isDigit(body.charAt(0)) || body.charAt(0) == '_' || r.nextInt(4) == 0) {
                b.append('_');
            }
            b.append(body);
            return;
        }
        String w = r.nextInt(15) == 0 ? "" : word();
        b.append(w.length());
        if (!w.isEmpty() && (Character.isDigit(w.charAt(0)) || w.charAt(0) == '_')) {
            b.append('_');
        }
        b.append(w);
    }

    private String word() {
        return WORDS[r.nextInt(WORDS.length)];
    }

    private void path() {
        if (++depth > 6) {
            b.append('C');
            ident();
            depth--;
            return;
        }
        switch (r.nextInt(12)) {
            case 0, 1 -> {
                b.append('C');
                disambiguator();
                ident();
            }
            case 2, 3, 4 -> {
                b.append('N').append("vvtCSXAuq".charAt(r.nextInt(9)));
                path();
                disambiguator();
                ident();
            }
            case 5 -> {
                b.append('M');
                disambiguator();
                path();
                type();
            }
            case 6 -> {
                b.append('X');
                disambiguator();
                path();
                type();
                path();
            }
            case 7 -> {
                b.append('Y');
                type();
                path();
            }
            case 8, 9 -> {
                b.append('I');
                path();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    genericArg();
                }
                b.append('E');
            }
            default -> {
                if (b.length() > 3) {
                    backref();
                } else {
                    b.append('C');
                    ident();
                }
            }
        }
        depth--;
    }

    private void genericArg() {
        int k = r.nextInt(6);
        if (k == 0) {
            lifetime();
        } else if (k == 1) {
            b.append('K');
            constant();
        } else {
            type();
        }
    }

    private void lifetime() {
        b.append('L');
        base62(r.nextInt(4));
    }

    private void binder() {
        if (r.nextInt(3) == 0) {
            b.append('G');
            base62(r.nextInt(3));
        }
    }

    private void type() {
        if (++depth > 6) {
            b.append("hjmbuez".charAt(r.nextInt(7)));
            depth--;
            return;
        }
        switch (r.nextInt(16)) {
            case 0, 1, 2 -> b.append("abcdefhijlmnostuvxyzp".charAt(r.nextInt(21)));
            case 3 -> {
                b.append(r.nextBoolean() ? 'R' : 'Q');
                if (r.nextBoolean()) {
                    lifetime();
                }
                type();
            }
            case 4 -> {
                b.append(r.nextBoolean() ? 'P' : 'O');
                type();
            }
            case 5 -> {
                b.append('A');
                type();
                constant();
            }
            case 6 -> {
                b.append('S');
                type();
            }
            case 7 -> {
                b.append('T');
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    type();
                }
                b.append('E');
            }
            case 8 -> fnType();
            case 9 -> {
                b.append('D');
                binder();
                int n = r.nextInt(3);
                for (int i = 0; i < n; i++) {
                    path();
                    while (r.nextInt(3) == 0) {
                        b.append('p');
                        ident();
                        type();
                    }
                }
                b.append('E');
                lifetime();
            }
            case 10 -> {
                if (b.length() > 3) {
                    backref();
                } else {
                    b.append('u');
                }
            }
            default -> path();
        }
        depth--;
    }

    private void fnType() {
        b.append('F');
        binder();
        if (r.nextBoolean()) {
            b.append('U');
        }
        if (r.nextBoolean()) {
            b.append('K');
            if (r.nextBoolean()) {
                b.append('C');
            } else {
                String a = ABIS[r.nextInt(ABIS.length)];
                b.append(a.length());
                if (a.charAt(0) == '_') {
                    b.append('_');
                }
                b.append(a);
            }
        }
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) {
            type();
        }
        b.append('E');
        if (r.nextBoolean()) {
            b.append('u');
        } else {
            type();
        }
    }

    private void hex(int maxDigits) {
        int n = r.nextInt(maxDigits + 1);
        for (int i = 0; i < n; i++) {
            b.append("0123456789abcdef".charAt(r.nextInt(16)));
        }
        b.append('_');
    }

    private void constant() {
        switch (r.nextInt(9)) {
            case 0 -> b.append('p');
            case 1, 2 -> {
                b.append("htmyoj".charAt(r.nextInt(6)));
                hex(r.nextInt(5) == 0 ? 20 : 4);
            }
            case 3 -> {
                b.append("asxlni".charAt(r.nextInt(6)));
                if (r.nextBoolean()) {
                    b.append('n');
                }
                hex(4);
            }
            case 4 -> {
                b.append('b');
                hex(2);
            }
            case 5 -> b.append('c').append(CHARS[r.nextInt(CHARS.length)]);
            case 6 -> {
                if (b.length() > 3) {
                    backref();
                } else {
                    b.append('p');
                }
            }
            case 7 -> {
                b.append('e');
                hex(4);
            }
            default -> {
                b.append('j');
                hex(3);
            }
        }
    }
}
