package dev.dfx.program;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the processes that inherited a region: those whose environment holds {@code DFX_REGION=<the region file>}
 * ({@code /proc/PID/environ}, readable for the processes of the same user). A child the command forked has it
 * before its first event attaches it to the region (dfx.h attaches lazily), and an orphan reparented to init keeps
 * it, so the recording waits for them too. A zombie ({@code Z} in {@code /proc/PID/stat}) has ended and an empty
 * environment. Stateless; thread-safe.
 */
final class RegionInheritors {
    private static final Path PROC = Path.of("/proc");

    private RegionInheritors() {
    }

    /**
     * @param variable the environment entry, {@code DFX_REGION=/abs/path/region.dfxr}
     * @return the pids of the live processes whose environment holds it (empty where /proc cannot be read)
     */
    static Set<Long> scan(String variable) {
        byte[] entry = variable.getBytes(StandardCharsets.UTF_8);
        Set<Long> pids = new TreeSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path p : s) {
                if (holds(readEnviron(p.resolve("environ")), entry)) {
                    pids.add(Long.parseLong(p.getFileName().toString()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: only the region's own process table tells who is alive
        }
        return pids;
    }

    private static byte[] readEnviron(Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (IOException | RuntimeException e) {
            return new byte[0]; // another user's, or gone meanwhile
        }
    }

    /** @return whether the NUL-separated environment holds exactly {@code entry} as one of its entries */
    static boolean holds(byte[] environ, byte[] entry) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == entry.length && java.util.Arrays.equals(environ, start, i, entry, 0, entry.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
