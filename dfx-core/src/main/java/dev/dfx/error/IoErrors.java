package dev.dfx.error;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * One line for a person from an I/O failure: the file and the operating system's reason, without exception class
 * names ({@code NoSuchFileException: /x} becomes {@code /x: no such file or directory}). Stateless.
 */
public final class IoErrors {
    /** The system's reason for a symbolic link loop ({@code ELOOP}), as the JDK's message begins. */
    private static final String LOOP = "Too many levels of symbolic links";

    private IoErrors() {
    }

    /** @return what went wrong, e.g. {@code /tmp/run/run.json: No space left on device} */
    public static String describe(IOException e) {
        return switch (e) {
            case NoSuchFileException f -> file(f) + ": no such file or directory";
            case AccessDeniedException f -> file(f) + ": permission denied";
            case FileAlreadyExistsException f -> file(f) + ": already exists";
            case NotDirectoryException f -> file(f) + ": not a directory";
            case DirectoryNotEmptyException f -> file(f) + ": directory not empty";
            case FileSystemException f -> file(f) + ": " + (f.getReason() == null ? "I/O error" : reason(f));
            default -> e.getMessage() == null ? "I/O error" : e.getMessage().replace('\n', ' ');
        };
    }

    /**
     * Why {@code path}, which names no file or folder this user can reach, cannot be opened: a symbolic link whose
     * target is gone, one that loops, a folder on the way that cannot be followed or read (the system's reason:
     * permission denied, a loop), or else missing.
     *
     * @param missing  what follows {@code PATH: } when it is simply missing
     * @param expected what was expected, after the other two reasons
     * @return one line, e.g. {@code /tmp/x: a symbolic link whose target is gone; expected a run directory written by
     *         dfx record}
     */
    public static String missing(Path path, String missing, String expected) {
        boolean link = Files.isSymbolicLink(path);
        try {
            path.toRealPath();
        } catch (NoSuchFileException e) {
            if (link) {
                return path + ": a symbolic link whose target is gone; " + expected;
            }
            return path + ": " + missing;
        } catch (IOException e) {
            if (link && e instanceof FileSystemException f && f.getFile() != null && Path.of(f.getFile()).equals(path)
                && LOOP.equals(reason(f))) {
                return path + ": a symbolic link that loops (too many levels of symbolic links); " + expected;
            }
            return describe(e) + "; " + expected;
        }
        // there after all (made meanwhile, or a target this user may reach only by its real path)
        return path + ": " + missing;
    }

    /** @return the reason of {@code e}, the JDK's addition to {@code ELOOP} left out */
    private static String reason(FileSystemException e) {
        String r = e.getReason();
        return r != null && r.startsWith(LOOP) ? LOOP : r;
    }

    /** @return {@link #describe(IOException)} of the cause */
    public static String describe(UncheckedIOException e) {
        return describe(e.getCause());
    }

    private static String file(FileSystemException f) {
        return f.getOtherFile() == null ? String.valueOf(f.getFile()) : f.getFile() + " -> " + f.getOtherFile();
    }
}
