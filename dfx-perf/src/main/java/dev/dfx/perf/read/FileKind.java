package dev.dfx.perf.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What kind of file a path names, from the {@code S_IFMT} bits of its {@code st_mode} ({@code <sys/stat.h>}), in
 * words for messages. Stateless.
 */
final class FileKind {
    /** A named pipe. */
    static final String FIFO = "a FIFO";

    private FileKind() {
    }

    /** @return e.g. {@code a character device}, {@link #FIFO}, {@code a socket}; {@code a special file} if unknown */
    static String of(Path path) {
        int mode;
        try {
            mode = (Integer) Files.getAttribute(path, "unix:mode");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "a special file";
        }
        return switch (mode & 0170000) {
            case 0010000 -> FIFO;
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            case 0040000 -> "a directory";
            default -> "a special file";
        };
    }
}
