package dev.dfx.rundir;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.io.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The claim of a run directory by one {@code dfx record}: the file {@code RUN/.dfx-record.lock}, created with
 * {@code O_CREAT|O_EXCL} (so of several recorders started on one directory exactly one gets it) and holding the
 * recorder's process id in decimal. The claim makes the directory private (mode 0700, {@link OwnerOnly}) before
 * anything is written into it, so every file of the run is created with mode 0600. The recorder removes it when its final run.json is written; a lock left behind
 * means the recorder was killed, and {@code dfx report} uses it to tell a run still being recorded from one whose
 * recorder is gone. Thread-safe.
 */
public final class RunLock implements AutoCloseable {
    /** File name in the run directory. */
    public static final String FILE = ".dfx-record.lock";
    /** How long a second recorder waits for the first one's process id to appear in the lock file. */
    private static final long PID_WAIT_MS = 500;
    /** How often that wait looks at the lock file again. */
    private static final long PID_POLL_MS = 5;

    private final Path file;
    private final AtomicBoolean released = new AtomicBoolean();

    private RunLock(Path file) {
        this.file = file;
    }

    /** @return the run directory this claim holds */
    public Path directory() {
        return file.getParent();
    }

    /**
     * Claims {@code dir} for this process: creates it when missing, creates the lock, and checks that nothing else
     * is in it.
     *
     * @param dir    the run directory
     * @param option how the command line named it, for messages ({@code option -o})
     * @return the claim; close it when the recording is done
     * @throws BadInputException when {@code dir} is not a directory, is used by another {@code dfx record} (naming
     *                           its pid), holds files, or cannot be written
     */
    public static RunLock claim(Path dir, String option) {
        if (Files.exists(dir) && !Files.isDirectory(dir) || Files.isSymbolicLink(dir) && !Files.exists(dir)) {
            throw new BadInputException(option + ": " + dir + " " + notADirectory(dir));
        }
        // before anything is created, so a refusal leaves dir untouched; with a lock in it, the lock below says
        // whose it is
        if (Files.isDirectory(dir) && !Files.exists(dir.resolve(FILE), LinkOption.NOFOLLOW_LINKS)) {
            refuseIfNotEmpty(dir, option);
        }
        Path lock = dir.resolve(FILE);
        try {
            Files.createDirectories(dir);
            OwnerOnly.makePrivate(dir); // before its first file: a run directory is its owner's alone, as perf.data
            try (SeekableByteChannel ch = Files.newByteChannel(lock, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), OwnerOnly.forNewFile(lock))) {
                ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            }
        } catch (FileAlreadyExistsException e) {
            if (e.getFile() != null && !Path.of(e.getFile()).equals(lock)) { // a folder on the way is not one
                Path in = Path.of(e.getFile());
                throw new BadInputException(option + ": cannot create " + dir + ": " + in + " " + notADirectory(in), e);
            }
            throw new BadInputException(option + ": " + dir + heldBy(dir, lock), e);
        } catch (IOException e) {
            throw new BadInputException(option + ": cannot write the run directory " + dir + " ("
                    + IoErrors.describe(e) + ")", e);
        }
        RunLock claim = new RunLock(lock);
        try {
            refuseIfNotEmpty(dir, option); // again: another process may have written to it meanwhile
        } catch (BadInputException e) {
            claim.close();
            throw e;
        }
        return claim;
    }

    /**
     * @throws BadInputException when {@code dir} holds anything but a lock, or cannot be listed
     */
    private static void refuseIfNotEmpty(Path dir, String option) {
        try (Stream<Path> s = Files.list(dir)) {
            if (s.anyMatch(p -> !p.getFileName().toString().equals(FILE))) {
                throw new BadInputException(option + ": " + dir
                        + " exists and is not empty; give a new or empty directory");
            }
        } catch (IOException e) {
            throw new BadInputException(option + ": cannot read the run directory " + dir + " ("
                    + IoErrors.describe(e) + ")", e);
        }
    }

    /**
     * @param p a path that exists (or is a link) but cannot be used as a directory
     * @return what it is instead: {@code exists and is not a directory}, or {@code is a symbolic link to T, which does
     *         not exist}
     */
    public static String notADirectory(Path p) {
        if (Files.isSymbolicLink(p) && !Files.exists(p)) {
            try {
                return "is a symbolic link to " + Files.readSymbolicLink(p) + ", which does not exist";
            } catch (IOException e) {
                return "is a symbolic link to nowhere";
            }
        }
        return "exists and is not a directory";
    }

    /**
     * @param dir a run directory
     * @return the process id in its lock, when it has one (waiting briefly for a lock just created to be filled)
     */
    public static OptionalLong holder(Path dir) {
        Path lock = dir.resolve(FILE);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PID_WAIT_MS);
        while (Files.exists(lock)) {
            try {
                String text = Files.readString(lock, StandardCharsets.US_ASCII).trim();
                if (!text.isEmpty()) {
                    return OptionalLong.of(Long.parseLong(text));
                }
            } catch (IOException | NumberFormatException e) {
                return OptionalLong.empty();
            }
            if (System.nanoTime() > deadline) {
                break;
            }
            try {
                Thread.sleep(PID_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return OptionalLong.empty();
    }

    /** @return whether process {@code pid} is alive on this machine */
    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * @return why {@code dir}, whose lock exists, cannot be claimed: in use by a live recorder, or left by one that is
     *         gone, with a run that did not finish or with nothing but its lock (killed before it wrote anything:
     *         removing the lock makes the directory usable)
     */
    private static String heldBy(Path dir, Path lock) {
        OptionalLong pid = holder(dir);
        if (pid.isEmpty()) {
            return " is in use by another dfx record";
        }
        if (alive(pid.getAsLong())) {
            return " is in use by another dfx record (pid " + pid.getAsLong() + ")";
        }
        boolean onlyLock;
        try (Stream<Path> s = Files.list(dir)) {
            onlyLock = s.allMatch(p -> p.getFileName().toString().equals(FILE));
        } catch (IOException e) {
            onlyLock = false;
        }
        return onlyLock
                ? " holds only the lock of a dfx record that is gone (pid " + pid.getAsLong() + ") and recorded"
                        + " nothing; remove " + lock + ", or give a new or empty directory"
                : " holds the run of a dfx record that is gone (pid " + pid.getAsLong() + ") and did not finish it;"
                        + " give a new or empty directory";
    }

    /** Removes the lock; idempotent. A failure is ignored: the lock then tells that the recorder is gone. */
    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // left behind; dfx report reads it as a recorder that is gone
            }
        }
    }
}
