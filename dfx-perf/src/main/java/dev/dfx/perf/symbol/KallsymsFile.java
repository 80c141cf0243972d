package dev.dfx.perf.symbol;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@code /proc/kallsyms}-format file read as perf's {@code kallsyms__parse} and
 * {@code map__process_kallsym_symbol} read it: lines {@code ADDRESS TYPE NAME[\t[MODULE]]}, keeping types T, W, D
 * and B in either case (W weak, upper case global, lower case local), names that do not start with {@code $}
 * (a leading {@code .}, which perf skips only to tell idle functions, stays in the name). Symbols are fixed up together ({@link SymbolTable.Builder#build(boolean)} with
 * kallsyms rules) and then split into the kernel's and each module's. The file's bytes stay with the table, which
 * makes a symbol's name from them when a lookup first returns it. Immutable and thread-safe.
 *
 * @param symbols     every kept symbol, fixed up, absolute addresses
 * @param moduleIds   for each symbol, its module's index in {@code moduleNames}, or -1 for the kernel's own
 * @param moduleNames each module named, as the DSO name perf gives it ({@code [ext4]}), once, in the order first met
 * @param usable      false when it has symbols and every address is zero (kptr_restrict hides them from this user)
 * @param text        the address of {@code _text}, or {@code null} when the file has none
 * @param heldModules the modules of {@code moduleNames} that some symbol of the table is in, in that order
 */
record KallsymsFile(SymbolTable symbols, int[] moduleIds, String[] moduleNames, boolean usable, Long text,
                    String[] heldModules) {
    /**
     * The most a kallsyms file is read: some 25 times a large kernel's, so that an endless file ({@code /dev/zero})
     * is refused by name instead of filling the heap.
     */
    static final int MAX_BYTES = 512 << 20;

    /** @return the module of the symbol at {@code index} of {@link #symbols()}, or {@code null} for the kernel's */
    String module(int index) {
        int id = moduleIds[index];
        return id < 0 ? null : moduleNames[id];
    }

    /**
     * Checks, by its first bytes, that {@code path} can be loaded, so that a command can refuse it before it prints
     * anything (perf checks {@code --kallsyms} up front too: "Invalid file").
     *
     * @throws BadInputException when the file cannot be read or is an ELF file (a vmlinux)
     */
    static void check(Path path, String option) {
        byte[] head = new byte[4];
        int n;
        try (var in = Files.newInputStream(path)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw unreadable(path, option, e);
        }
        refuseElf(head, n, path, option);
    }

    private static BadInputException unreadable(Path path, String option, IOException e) {
        return new BadInputException(option + (e instanceof java.nio.file.FileSystemException ? IoErrors.describe(e)
            : path + ": cannot read: " + e.getMessage()), e);
    }

    private static void refuseElf(byte[] bytes, int length, Path path, String option) {
        if (length >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F') {
            throw new BadInputException(option + path + ": an ELF file (a vmlinux?), expected a kallsyms text file;"
                + " dfx reads no vmlinux (perf's -k is --vmlinux, dfx's -k is --kallsyms)");
        }
    }

    /**
     * @throws BadInputException when the file cannot be read, is an ELF file (a vmlinux) or holds more than
     *                           {@link #MAX_BYTES}
     */
    static KallsymsFile load(Path path, String option) {
        return load(path, option, MAX_BYTES);
    }

    /** {@link #load(Path, String)} of a file of at most {@code maxBytes}. */
    static KallsymsFile load(Path path, String option, int maxBytes) {
        byte[] bytes;
        try (var in = Files.newInputStream(path)) {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (IOException e) {
            throw unreadable(path, option, e);
        }
        if (bytes.length > maxBytes) {
            throw new BadInputException(option + path + ": more than " + maxBytes + " bytes; expected a kallsyms text"
                + " file (a running kernel's has some 5-20 MB)");
        }
        refuseElf(bytes, bytes.length, path, option);
        Lines lines = new Lines(bytes);
        for (int p = 0; p < bytes.length; ) {
            p = lines.read(p);
        }
        SymbolTable.Builder b = lines.builder;
        int[] source = new int[b.size()];
        SymbolTable t = b.build(true, new SymbolTable.Builder(), source);
        int[] moduleIds = moduleOf(t, source, b, lines.modules.ids());
        String[] names = lines.modules.names();
        return new KallsymsFile(t, moduleIds, names, lines.nonZero || t.size() == 0, lines.text,
            held(moduleIds, names));
    }

    /**
     * The symbols of a kallsyms file's lines, read one line a call. The loop over lines stays in the caller and a
     * line's work in {@link #read}, which the JIT compiles on its own: as one method with the loop, the reader was
     * compiled on stack by C2 into 8 KB of code, some 80 ms of a compiler thread for a loop that runs once a command.
     * Not thread-safe.
     */
    private static final class Lines {
        final SymbolTable.Builder builder;
        final Modules modules;
        private final byte[] bytes;
        boolean nonZero;
        Long text;

        Lines(byte[] bytes) {
            this.bytes = bytes;
            this.builder = new SymbolTable.Builder(bytes);
            this.modules = new Modules(bytes);
        }

        /**
         * Reads the line that starts at {@code p}: up to 16 hex digits, a space, the type, a space, the name, and
         * after a tab the module. A line of another shape is skipped.
         *
         * @return where the next line starts (past the file's end after the last)
         */
        int read(int p) {
            byte[] bytes = this.bytes;
            int n = bytes.length;
            int q = p;
            long addr = 0;
            for (int last = Math.min(n, p + 16); q < last; q++) {
                int h = HEX[bytes[q] & 0xff];
                if (h < 0) {
                    break;
                }
                addr = addr << 4 | h;
            }
            int nameStart = q + 3;
            if (q == p || nameStart > n || bytes[q] != ' ' || bytes[q + 1] == '\n' || bytes[q + 2] != ' ') {
                return lineEnd(q) + 1;
            }
            // one pass over the name to the tab before a module or the line's end
            int tab = nameStart;
            byte c = 0;
            while (tab < n && (c = bytes[tab]) != '\n' && c != '\t') {
                tab++;
            }
            int eol = tab < n && c == '\t' ? lineEnd(tab) : tab;
            int type = bytes[q + 1];
            int up = type & ~0x20; // the ASCII letters' case bit: 't' and 'T' read alike
            nonZero |= addr != 0;
            if ((up == 'T' || up == 'W' || up == 'D' || up == 'B')
                && (nameStart == tab || bytes[nameStart] != '$')) {
                boolean inModule = tab < eol;
                if (!inModule && text == null && isText(bytes, nameStart, tab)) {
                    text = addr;
                }
                int binding = up == 'W' ? SymbolTable.WEAK : type == up ? SymbolTable.GLOBAL : SymbolTable.LOCAL;
                builder.addRange(addr, addr, binding, inModule, up == 'D' || up == 'B', nameStart, tab - nameStart);
                modules.add(inModule ? modules.id(tab + 1, eol) : -1);
            }
            return eol + 1;
        }

        /** @return the index of the first newline at or after {@code from}, or the file's length */
        private int lineEnd(int from) {
            int eol = from;
            while (eol < bytes.length && bytes[eol] != '\n') {
                eol++;
            }
            return eol;
        }
    }

    private static boolean isText(byte[] bytes, int from, int to) {
        return to - from == 5 && bytes[from] == '_' && bytes[from + 1] == 't' && bytes[from + 2] == 'e'
            && bytes[from + 3] == 'x' && bytes[from + 4] == 't';
    }

    /**
     * Each symbol's module. Not simply its own line's: the module of the last line (in the file's order) that has a
     * module and the symbol's start and name, else none; so where one start and name came twice, the later line's
     * module wins, and a kernel line that won the duplicate fix-up over a module's line of the same name takes that
     * module. Only the lines that name a module are visited, each looked up in the table by its start (the fix-up
     * leaves one symbol per start).
     *
     * @param source  the added line each table index was made from
     * @param lineIds each added line's module index, or -1
     */
    private static int[] moduleOf(SymbolTable t, int[] source, SymbolTable.Builder b, int[] lineIds) {
        int[] out = new int[t.size()];
        java.util.Arrays.fill(out, -1);
        for (int line = 0; line < lineIds.length; line++) {
            if (lineIds[line] >= 0) {
                int i = t.indexOf(b.startAt(line));
                if (i >= 0 && b.sameName(line, source[i])) {
                    out[i] = lineIds[line];
                }
            }
        }
        return out;
    }

    /** @return the names of the modules some symbol is in, in the order of {@code names} */
    private static String[] held(int[] moduleIds, String[] names) {
        if (names.length == 0) {
            return names;
        }
        boolean[] held = new boolean[names.length];
        for (int id : moduleIds) {
            if (id >= 0) {
                held[id] = true;
            }
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            if (held[i]) {
                out.add(names[i]);
            }
        }
        return out.toArray(new String[0]);
    }

    /**
     * The modules named by lines: each line's module index, and each module's name made once (lines of one module
     * come together, so the previous line's module is tried first).
     */
    private static final class Modules {
        private final byte[] bytes;
        private int[] ids = new int[64];
        private int n;
        private final java.util.List<String> names = new java.util.ArrayList<>();
        private final java.util.Map<String, Integer> byName = new java.util.HashMap<>();
        private int lastId = -1;
        private int lastFrom;
        private int lastTo;

        Modules(byte[] bytes) {
            this.bytes = bytes;
        }

        void add(int id) {
            if (n == ids.length) {
                ids = java.util.Arrays.copyOf(ids, n * 2);
            }
            ids[n++] = id;
        }

        /** @return the index of the module named by {@code bytes[from, to)}, trimmed as {@link String#trim()} */
        int id(int from, int to) {
            while (from < to && (bytes[from] & 0xff) <= ' ') {
                from++;
            }
            while (to > from && (bytes[to - 1] & 0xff) <= ' ') {
                to--;
            }
            if (lastId >= 0 && java.util.Arrays.equals(bytes, from, to, bytes, lastFrom, lastTo)) {
                return lastId;
            }
            String name = new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
            Integer id = byName.get(name);
            if (id == null) {
                id = names.size();
                names.add(name);
                byName.put(name, id);
            }
            lastId = id;
            lastFrom = from;
            lastTo = to;
            return id;
        }

        int[] ids() {
            return java.util.Arrays.copyOf(ids, n);
        }

        String[] names() {
            return names.toArray(new String[0]);
        }
    }

    /** Each byte's value as a hex digit, or -1. */
    private static final byte[] HEX = new byte[256];

    static {
        java.util.Arrays.fill(HEX, (byte) -1);
        for (int d = 0; d < 10; d++) {
            HEX['0' + d] = (byte) d;
        }
        for (int d = 0; d < 6; d++) {
            HEX['a' + d] = (byte) (10 + d);
            HEX['A' + d] = (byte) (10 + d);
        }
    }
}
