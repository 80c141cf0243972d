package dev.dfx.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes a file so that a reader (or a crash, or a full disk) never sees half of it: the bytes go to a temporary
 * file in the same folder ({@code .NAME.<random>.tmp}, created new) that is moved over the target in one atomic
 * rename only when the whole body was written and the stream closed. The temporary file is created with the mode
 * the target has, when it exists (a replaced file keeps its mode); a new file gets mode 0600 in a private folder
 * ({@link OwnerOnly}, a run directory) and the default mode elsewhere. On any failure the
 * temporary file is deleted and the target is left as it was (absent, or its old content).
 *
 * <p>A target that exists and is not a regular file or directory (a device such as {@code /dev/null} or
 * {@code /dev/full}, a pipe) is written directly, since a rename would replace the device node. A directory is
 * refused. Stateless; thread-safe (two writers of one target each write their own temporary file; the last rename
 * wins).
 */
public final class AtomicFile {
    /** Writes the content. */
    @FunctionalInterface
    public interface Body<T> {
        /**
         * @param out buffered; closed by {@link AtomicFile} after this returns (closing it here is allowed)
         * @return a result handed back to the caller (e.g. entries written)
         * @throws IOException when writing fails
         */
        T write(OutputStream out) throws IOException;
    }

    /**
     * Temporary files between creation and rename (or deletion), and those of other writers between
     * {@link #inFlight} and {@link #settled}, for {@link #discardOnExit()}.
     */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean DISCARD_HOOK = new AtomicBoolean();

    private AtomicFile() {
    }

    /**
     * Deletes, when the JVM shuts down (SIGINT, SIGTERM, {@link System#exit}), every temporary file still being
     * written, so that an interrupted command leaves no {@code .NAME.<random>.tmp} behind; the targets keep what they
     * held. For commands whose writes are worthless unfinished (an export); not for a recording, whose own shutdown
     * path still completes its files. Registers one shutdown hook, on the first call; later calls do nothing.
     * Thread-safe.
     *
     * @throws IllegalStateException when the JVM is already shutting down
     */
    public static void discardOnExit() {
        if (DISCARD_HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (Path tmp : IN_FLIGHT) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException e) {
                        // the JVM is ending: nothing is left to tell
                    }
                }
            }, "dfx-discard-temporaries"));
        }
    }

    /**
     * Counts {@code file}, a temporary file written outside this class (a trace part's spill file), among those the
     * exit hook of {@link #discardOnExit()} deletes, until {@link #settled}. Thread-safe.
     */
    public static void inFlight(Path file) {
        IN_FLIGHT.add(file);
    }

    /** No longer counts {@code file} ({@link #inFlight}): its writer deleted or kept it. Thread-safe. */
    public static void settled(Path file) {
        IN_FLIGHT.remove(file);
    }

    /**
     * @param target the file to create or replace
     * @param body   writes the content
     * @return what {@code body} returned
     * @throws FileSystemException when {@code target} is a directory or its folder does not exist
     * @throws IOException         when the temporary file cannot be created, written, closed or renamed; the target
     *                             is then unchanged
     */
    public static <T> T write(Path target, Body<T> body) throws IOException {
        if (Files.isDirectory(target)) {
            throw new FileSystemException(target.toString(), null, "is a directory");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 1 << 16)) {
                return body.write(out);
            }
        }
        Path tmp = temporary(target);
        IN_FLIGHT.add(tmp);
        try {
            T result;
            try (OutputStream out = new BufferedOutputStream(Channels.newOutputStream(Files.newByteChannel(tmp,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), modeOf(target))), 1 << 16)) {
                result = body.write(out);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return result;
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof FileSystemException f && tmp.toString().equals(f.getFile())) {
                throw onTarget(f, target);
            }
            throw e;
        } finally {
            IN_FLIGHT.remove(tmp);
        }
    }

    /** @return the attributes that give a new file the mode {@code target} has, or a new file's there */
    private static FileAttribute<?>[] modeOf(Path target) {
        try {
            if (Files.isRegularFile(target)) {
                return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                        Files.getPosixFilePermissions(target))};
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not readable or no POSIX modes: the mode a new file gets there
        }
        return OwnerOnly.forNewFile(target);
    }

    /** @return {@code f} as a failure of {@code target}: the temporary file's name means nothing to a reader */
    private static FileSystemException onTarget(FileSystemException f, Path target) {
        String name = target.toString();
        FileSystemException t = switch (f) {
            case NoSuchFileException n -> new NoSuchFileException(name);
            case AccessDeniedException a -> new AccessDeniedException(name);
            default -> new FileSystemException(name, null, f.getReason());
        };
        t.initCause(f);
        return t;
    }

    /** @return {@code .NAME.<random>.tmp} next to {@code target} */
    static Path temporary(Path target) {
        Path abs = target.toAbsolutePath();
        String name = "." + abs.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1)
                + ".tmp";
        return abs.resolveSibling(name);
    }
}
