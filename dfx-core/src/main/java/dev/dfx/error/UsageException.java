package dev.dfx.error;

/**
 * A command line dfx cannot run whatever its input: an option value that is not one the option takes (an unknown
 * sort key or field, a malformed duration or list), options that exclude each other. Checked before any input is
 * read; the command line prints it as a usage error (exit status 2, as picocli's own value errors), where other
 * {@link BadInputException}s, which depend on the input given, exit 1. Immutable.
 */
public class UsageException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the option, its value and what was expected */
    public UsageException(String message) {
        super(message);
    }

    /**
     * @param message one line naming the option, its value and what was expected
     * @param cause   the lower-level failure (kept for debugging, not printed to users)
     */
    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
