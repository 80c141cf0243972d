package dev.dfx.program;

/**
 * How a command ended, as a shell reports it in {@code $?}: its exit code (0..255), or 128 + N when signal N ended
 * it. The JVM reports a child's end in exactly this one number ({@link Process#exitValue()}), so an exit code above
 * 128 and a signal cannot be told apart here, as they cannot in a shell; {@link #describe()} names both readings.
 * Immutable.
 *
 * @param status the shell's {@code $?}: 0..255
 */
public record ExitStatus(int status) {
    /** @throws IllegalArgumentException when {@code status} is outside 0..255 */
    public ExitStatus {
        if (status < 0 || status > 255) {
            throw new IllegalArgumentException("exit status " + status + " outside 0..255");
        }
    }

    /** @return whether the command succeeded (status 0) */
    public boolean ok() {
        return status == 0;
    }

    /**
     * @return {@code exited with status 3}, or for 129..159 {@code exit status 130 (128 + SIGINT: ended by SIGINT)}
     */
    public String describe() {
        if (status > 128 && status < 128 + 32) {
            return "exit status " + status + " (128 + " + Signals.name(status - 128) + ": ended by "
                    + Signals.name(status - 128) + ")";
        }
        return "exited with status " + status;
    }
}
