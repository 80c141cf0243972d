package dev.dfx.exec;

import dev.dfx.error.BadInputException;

/**
 * The command cannot be started: not found (a shell's status 127) or found but not executable (126). The message is
 * the one {@code dfx:} line, e.g. {@code cannot run 'prog': not found on PATH}.
 */
public final class ProgramNotRunnable extends BadInputException {
    /** Status of a command that was not found, as a shell reports it. */
    public static final int NOT_FOUND = 127;
    /** Status of a command that was found but could not be executed, as a shell reports it. */
    public static final int NOT_EXECUTABLE = 126;

    private final int status;

    /**
     * @param message what and why, without the {@code dfx:} prefix
     * @param status  {@link #NOT_FOUND} or {@link #NOT_EXECUTABLE}
     */
    public ProgramNotRunnable(String message, int status) {
        super(message);
        this.status = status;
    }

    /** @return the exit status a shell gives this failure: 127 not found, 126 not executable */
    public int status() {
        return status;
    }
}
