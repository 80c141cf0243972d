package dev.dfx.perf.machine;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.trace.KernelSymbols;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Kernel symbols read from a {@code /proc/kallsyms}-format file ({@code perf script --kallsyms FILE}): lines of
 * {@code ADDRESS TYPE NAME [MODULE]}, keeping the types perf keeps (T, W, D, B in either case). A symbol ends
 * where the next one starts ({@code symbols__fixup_end}). Immutable and thread-safe.
 */
public final class Kallsyms implements KernelSymbols {
    private final long[] starts;
    private final String[] names;

    private Kallsyms(long[] starts, String[] names) {
        this.starts = starts;
        this.names = names;
    }

    /**
     * @param path a kallsyms file ({@code /dev/null} gives no symbols, as with perf)
     * @throws BadInputException when it cannot be read
     */
    public static Kallsyms load(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new BadInputException("--kallsyms " + path + ": cannot read: " + e.getMessage(), e);
        }
        List<long[]> addr = new ArrayList<>();
        List<String> name = new ArrayList<>();
        for (String line : lines) {
            String[] p = line.trim().split("\\s+");
            if (p.length < 3 || p[1].length() != 1) {
                continue;
            }
            char t = Character.toUpperCase(p[1].charAt(0));
            if (t != 'T' && t != 'W' && t != 'D' && t != 'B') {
                continue;
            }
            try {
                addr.add(new long[] {Long.parseUnsignedLong(p[0], 16), name.size()});
                name.add(p[2]);
            } catch (NumberFormatException ignored) {
                // not a symbol line
            }
        }
        addr.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
        long[] starts = new long[addr.size()];
        String[] names = new String[addr.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = addr.get(i)[0];
            names[i] = name.get((int) addr.get(i)[1]);
        }
        return new Kallsyms(starts, names);
    }

    @Override
    public Symbol find(long addr) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], addr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? null : new Symbol(names[found], starts[found]);
    }

    /** @return how many symbols were kept */
    public int size() {
        return starts.length;
    }

    @Override
    public String toString() {
        return "Kallsyms" + Arrays.toString(Arrays.copyOf(names, Math.min(3, names.length)));
    }
}
