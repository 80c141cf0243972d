package dev.dfx.perf.unwind;

import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Test helper: builds {@code src/test/c/dwarfwork.c} at -O2 without frame pointers as {@code DIR/dwarfwork}, linked
 * to {@code DIR/libdwarflib.so} (from {@code dwarflib.c}, found through {@link #RPATH}), with the compiler
 * {@link CPrograms} provides.
 */
final class DwarfWork {
    /** The run path that finds a library beside the program. */
    static final String RPATH = "-Wl,-rpath,$ORIGIN";

    private DwarfWork() {
    }

    /** @param dir the folder both files are written to */
    static void build(Path dir) throws IOException {
        String cc = CPrograms.compiler();
        String src = Path.of("src/test/c").toAbsolutePath().toString();
        CPrograms.run(dir, List.of(cc, "-O2", "-fPIC", "-shared", "-o", "libdwarflib.so", src + "/dwarflib.c"));
        CPrograms.run(dir, List.of(cc, "-O2", "-fomit-frame-pointer", "-o", "dwarfwork", src + "/dwarfwork.c", "-L.",
            "-ldwarflib", RPATH));
    }
}
