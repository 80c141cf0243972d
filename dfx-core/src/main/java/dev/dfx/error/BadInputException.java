package dev.dfx.error;

/**
 * Input that dfx cannot use: a corrupt or truncated file, an unknown event, workload or subsystem, an
 * impossible option. The message is one line for a person and names what was wrong and where (a file
 * and byte offset, an option and its value, a field) and what was expected.
 *
 * <p>The command line prints {@link #getMessage()} prefixed with {@code dfx: } and exits non-zero; it
 * never prints a stack trace for this exception. Thrown from any thread; immutable.
 */
public class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming what was wrong, where, and what was expected */
    public BadInputException(String message) {
        super(message);
    }

    /**
     * @param message one line naming what was wrong, where, and what was expected
     * @param cause   the lower-level failure (kept for debugging, not printed to users)
     */
    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
