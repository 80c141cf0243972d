package dev.dfx.perf.symbol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.List;

/**
 * The vDSO image of this process, as perf 6.1 uses its own ({@code vdso.c get_file}: the {@code [vdso]} range of
 * {@code /proc/self/maps} copied from memory into a temporary file) for a {@code [vdso]} whose build id the recording
 * does not give, as in pipe mode: the running kernel's vDSO is the one the recorded program had when the recording
 * was made on this machine. Written once per process, on first use; the file is deleted at exit. Thread-safe.
 */
final class OwnVdso {
    /** An image larger than this is not a vDSO (Linux maps 2 to 4 pages of it on x86-64). */
    private static final long MAX_BYTES = 1 << 20;

    private OwnVdso() {
    }

    /** @return the copied image, or {@code null} where it cannot be read (no /proc, no {@code [vdso]} mapping) */
    static Path image() {
        return Holder.IMAGE;
    }

    private static final class Holder {
        static final Path IMAGE = copy();
    }

    private static Path copy() {
        try {
            long[] range = range(Files.readAllLines(Path.of("/proc/self/maps")));
            if (range == null || range[1] - range[0] <= 0 || range[1] - range[0] > MAX_BYTES) {
                return null;
            }
            ByteBuffer bytes = ByteBuffer.allocate((int) (range[1] - range[0]));
            try (FileChannel mem = FileChannel.open(Path.of("/proc/self/mem"), StandardOpenOption.READ)) {
                while (bytes.hasRemaining()) {
                    if (mem.read(bytes, range[0] + bytes.position()) < 0) {
                        return null;
                    }
                }
            }
            Path file = Files.createTempFile("dfx-vdso.so-", "");
            file.toFile().deleteOnExit();
            Files.write(file, bytes.array());
            return file;
        } catch (IOException | RuntimeException e) {
            return null; // [unknown], as where perf cannot copy its own
        }
    }

    /** @return {@code {start, end}} of the {@code [vdso]} line of a {@code /proc/PID/maps} text, or null */
    static long[] range(List<String> maps) {
        for (String line : maps) {
            if (line.endsWith(" [vdso]")) {
                String[] bounds = line.substring(0, line.indexOf(' ')).split("-");
                return new long[] {HexFormat.fromHexDigitsToLong(bounds[0]), HexFormat.fromHexDigitsToLong(bounds[1])};
            }
        }
        return null;
    }
}
