package dev.dfx.perf.symbol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A JIT's symbol file {@code /tmp/perf-PID.map} ({@code dso__load_perf_map}): lines {@code START SIZE NAME}, hex
 * without {@code 0x}, absolute addresses; lines that do not parse are skipped, no end fix-ups. Stateless.
 */
final class PerfMapFile {
    private PerfMapFile() {
    }

    static SymbolTable load(Path file, Consumer<String> warn) {
        if (!Files.isRegularFile(file)) {
            return SymbolTable.EMPTY;
        }
        SymbolTable.Builder b = new SymbolTable.Builder();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
                String[] p = line.split(" ", 3);
                if (p.length < 3 || p[2].isEmpty()) {
                    continue;
                }
                try {
                    long start = Long.parseUnsignedLong(p[0], 16);
                    long size = Long.parseUnsignedLong(p[1], 16);
                    b.add(start, start + size, SymbolTable.GLOBAL, p[2], false);
                } catch (NumberFormatException e) {
                    // perf skips a line it cannot parse
                }
            }
        } catch (IOException e) {
            warn.accept(file + ": cannot read: " + e.getMessage());
        }
        return b.sorted();
    }
}
