package dev.dfx.cli;

import dev.dfx.error.UsageException;

/**
 * The one refusal of an empty path on the command line: {@code Path.of("")} is the working directory, which a
 * command would otherwise read as a run directory or write into. A usage error (exit 2), checked before any file is
 * looked at. Stateless.
 */
final class EmptyPath {
    private EmptyPath() {
    }

    /**
     * @param option   the option or parameter as messages name it ({@code -i}, {@code -o}, {@code RUN})
     * @param given    its value as given (a path or its text), or null when it was not given
     * @param expected what the option takes, for the message ({@code a file to write, or - for standard output})
     * @throws UsageException when {@code given} is empty
     */
    static void refuse(String option, Object given, String expected) {
        if (given != null && given.toString().isEmpty()) {
            throw new UsageException("option " + option + ": empty path; expected " + expected);
        }
    }
}
