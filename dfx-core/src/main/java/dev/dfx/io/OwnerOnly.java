package dev.dfx.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Private folders and files, as perf keeps {@code perf.data} (created with mode 0600): a run directory holds argument
 * payloads and a program's own strings, so it is made {@code 0700} before anything is written into it, and every
 * folder and file dfx creates inside a folder that is private to its owner (no group or other permission bits)
 * is created private too: folders {@code 0700}, files {@code 0600}. The mode is given at creation (never widened
 * later), so no file of a run directory is readable by others for any instant. Outside a private folder files get
 * the default mode (0666 minus the umask), as any tool's output.
 *
 * <p>On a file system without POSIX permissions every method does what it would do without them (no mode is set).
 * Stateless; thread-safe.
 */
public final class OwnerOnly {
    /** {@code rwx------}: a private folder. */
    public static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
    /** {@code rw-------}: a private file. */
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

    private OwnerOnly() {
    }

    /**
     * @param folder a folder
     * @return whether it exists and grants nothing to its group and others ({@code mode & 077 == 0}); false on a file
     *         system without POSIX permissions
     */
    public static boolean isPrivate(Path folder) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(folder);
            return p.stream().noneMatch(x -> x.name().startsWith("GROUP") || x.name().startsWith("OTHERS"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * @param file a file about to be created
     * @return the attributes to create it with: mode {@code 0600} when its folder is private ({@link #isPrivate}),
     *         else none (the default mode)
     */
    public static FileAttribute<?>[] forNewFile(Path file) {
        Path folder = file.toAbsolutePath().getParent();
        return folder != null && isPrivate(folder)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : NONE;
    }

    /**
     * Creates {@code folder} and any missing folders above it; each one created inside a private folder is created
     * private ({@code 0700}).
     *
     * @param folder the folder
     * @throws IOException as {@link Files#createDirectories}
     */
    public static void createFolders(Path folder) throws IOException {
        Path abs = folder.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            return;
        }
        Path parent = abs.getParent();
        if (parent != null) {
            createFolders(parent);
        }
        if (parent != null && isPrivate(parent)) {
            Files.createDirectories(abs, PosixFilePermissions.asFileAttribute(FOLDER));
        } else {
            Files.createDirectories(abs);
        }
    }

    /**
     * Makes an existing folder private ({@code 0700}); a symbolic link is followed (its target's mode changes).
     *
     * @param folder the folder
     * @throws IOException when its mode cannot be changed (not its owner, a read-only file system)
     */
    public static void makePrivate(Path folder) throws IOException {
        try {
            Files.setPosixFilePermissions(folder, FOLDER);
        } catch (UnsupportedOperationException e) {
            // no POSIX modes here: nothing to restrict
        }
    }

    /**
     * @param path a file or folder
     * @return its mode as four octal digits ({@code 0600}), or {@code ?} where the file system has no POSIX modes
     * @throws IOException when it cannot be read
     */
    public static String mode(Path path) throws IOException {
        try {
            int m = 0;
            for (PosixFilePermission p : Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)) {
                m |= 0400 >> p.ordinal();
            }
            return String.format("%04o", m);
        } catch (UnsupportedOperationException e) {
            return "?";
        }
    }
}
