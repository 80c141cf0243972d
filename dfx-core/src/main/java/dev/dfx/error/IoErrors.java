package dev.dfx.error;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * One line for a person from an I/O failure: the file and the operating system's reason, without exception class
 * names ({@code NoSuchFileException: /x} becomes {@code /x: no such file or directory}). Stateless.
 */
public final class IoErrors {
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
            case FileSystemException f -> file(f) + ": " + (f.getReason() == null ? "I/O error" : f.getReason());
            default -> e.getMessage() == null ? "I/O error" : e.getMessage().replace('\n', ' ');
        };
    }

    /** @return {@link #describe(IOException)} of the cause */
    public static String describe(UncheckedIOException e) {
        return describe(e.getCause());
    }

    private static String file(FileSystemException f) {
        return f.getOtherFile() == null ? String.valueOf(f.getFile()) : f.getFile() + " -> " + f.getOtherFile();
    }
}
