package dev.dfx.exec;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the file a command names, the way {@code execvp(3)} (and so a shell) does, to refuse a command that cannot be
 * started before anything is created: a name with a {@code /} is that file; any other name is searched in each
 * folder of {@code PATH} in order (an empty entry is the working directory). A name not found is status 127, one that
 * is found but is a folder or not executable is 126, as in a shell. Stateless.
 */
public final class ProgramPath {
    private ProgramPath() {
    }

    /**
     * @param program the command's first word
     * @param path    the value of {@code PATH} (null: the default {@code /usr/local/bin:/usr/bin:/bin})
     * @param workDir the working directory relative names are resolved against
     * @return the file that will be executed
     * @throws ProgramNotRunnable when it cannot be: not found (127), a folder or not executable (126)
     */
    public static Path resolve(String program, String path, Path workDir) {
        if (program.isEmpty()) {
            throw new ProgramNotRunnable("cannot run '': the command is empty", ProgramNotRunnable.NOT_FOUND);
        }
        if (program.contains("/")) {
            Path p = workDir.resolve(program);
            if (!Files.exists(p)) {
                throw new ProgramNotRunnable("cannot run '" + program + "': no such file", ProgramNotRunnable.NOT_FOUND);
            }
            refuseUnlessExecutable(program, p);
            return p;
        }
        Path denied = null;
        for (String dir : (path == null ? "/usr/local/bin:/usr/bin:/bin" : path).split(File.pathSeparator, -1)) {
            Path p = (dir.isEmpty() ? workDir : workDir.resolve(dir)).resolve(program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
            if (denied == null && Files.exists(p)) {
                denied = p; // execvp goes on searching after EACCES and reports it only when nothing else is found
            }
        }
        if (denied != null) {
            refuseUnlessExecutable(program, denied);
        }
        throw new ProgramNotRunnable("cannot run '" + program + "': not found on PATH", ProgramNotRunnable.NOT_FOUND);
    }

    /** @throws ProgramNotRunnable (126) naming the file found on PATH, or the name as given when it has a '/' */
    private static void refuseUnlessExecutable(String program, Path p) {
        String where = program.contains("/") ? "" : p + " ";
        if (Files.isDirectory(p)) {
            throw new ProgramNotRunnable("cannot run '" + program + "': " + where + "is a directory",
                    ProgramNotRunnable.NOT_EXECUTABLE);
        }
        if (!Files.isExecutable(p)) {
            throw new ProgramNotRunnable("cannot run '" + program + "': " + where + "is not executable (permission"
                    + " denied)", ProgramNotRunnable.NOT_EXECUTABLE);
        }
    }
}
