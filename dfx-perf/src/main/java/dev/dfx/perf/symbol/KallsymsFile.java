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
 * and B in either case (W weak, upper case global, lower case local), names that do not start with {@code $},
 * a leading {@code .} dropped. Symbols are fixed up together ({@link SymbolTable.Builder#build(boolean)} with
 * kallsyms rules) and then split into the kernel's and each module's. Immutable.
 *
 * @param symbols every kept symbol, fixed up, absolute addresses
 * @param modules for each symbol, its module as the DSO name perf gives it ({@code [ext4]}), or {@code null}
 * @param usable  false when it has symbols and every address is zero (kptr_restrict hides them from this user)
 * @param text    the address of {@code _text}, or {@code null} when the file has none
 */
record KallsymsFile(SymbolTable symbols, String[] modules, boolean usable, Long text) {
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
     * @throws BadInputException when the file cannot be read or is an ELF file (a vmlinux)
     */
    static KallsymsFile load(Path path, String option) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw unreadable(path, option, e);
        }
        refuseElf(bytes, bytes.length, path, option);
        SymbolTable.Builder b = new SymbolTable.Builder();
        java.util.List<String> mods = new java.util.ArrayList<>();
        boolean nonZero = false;
        Long text = null;
        int p = 0;
        int n = bytes.length;
        while (p < n) {
            int eol = p;
            while (eol < n && bytes[eol] != '\n') {
                eol++;
            }
            int q = p;
            long addr = 0;
            int digits = 0;
            while (q < eol && hex(bytes[q]) >= 0 && digits < 16) {
                addr = addr << 4 | hex(bytes[q++]);
                digits++;
            }
            if (digits > 0 && q + 3 <= eol && bytes[q] == ' ' && bytes[q + 2] == ' ') {
                char type = (char) bytes[q + 1];
                int nameStart = q + 3;
                int tab = nameStart;
                while (tab < eol && bytes[tab] != '\t') {
                    tab++;
                }
                String name = new String(bytes, nameStart, tab - nameStart, StandardCharsets.ISO_8859_1);
                String module = null;
                if (tab < eol) {
                    int ms = tab + 1;
                    module = new String(bytes, ms, eol - ms, StandardCharsets.ISO_8859_1).trim();
                }
                nonZero |= addr != 0;
                char up = Character.toUpperCase(type);
                if ((up == 'T' || up == 'W' || up == 'D' || up == 'B') && !name.startsWith("$")) {
                    if (name.equals("_text") && module == null && text == null) {
                        text = addr;
                    }
                    int binding = up == 'W' ? SymbolTable.WEAK
                        : Character.isUpperCase(type) ? SymbolTable.GLOBAL : SymbolTable.LOCAL;
                    b.add(addr, addr, binding, name.startsWith(".") ? name.substring(1) : name, module != null,
                        up == 'D' || up == 'B');
                    mods.add(module);
                }
            }
            p = eol + 1;
        }
        // the builder reorders; remember each symbol's module by its (unique after fix-up) start and name
        SymbolTable t = b.build(true);
        String[] byIndex = moduleOf(t, b, mods);
        return new KallsymsFile(t, byIndex, nonZero || t.size() == 0, text);
    }

    /**
     * Each symbol's module, matched by start and name: the builder reorders and drops symbols. Keyed by start alone
     * (a boxed address, not a string made of name and address for every symbol of the table), the name compared
     * only where a module symbol starts there; where one start and name came twice, the later line's module wins.
     */
    private static String[] moduleOf(SymbolTable t, SymbolTable.Builder b, java.util.List<String> mods) {
        java.util.Map<Long, java.util.List<Integer>> byStart = new java.util.HashMap<>();
        for (int i = 0; i < mods.size(); i++) {
            if (mods.get(i) != null) {
                byStart.computeIfAbsent(b.startAt(i), k -> new java.util.ArrayList<>(1)).add(i);
            }
        }
        String[] out = new String[t.size()];
        if (byStart.isEmpty()) {
            return out;
        }
        for (int i = 0; i < t.size(); i++) {
            Symbol s = t.get(i);
            java.util.List<Integer> at = byStart.get(s.start());
            if (at == null) {
                continue;
            }
            for (int k = at.size() - 1; k >= 0 && out[i] == null; k--) {
                if (b.nameAt(at.get(k)).equals(s.name())) {
                    out[i] = mods.get(at.get(k));
                }
            }
        }
        return out;
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
