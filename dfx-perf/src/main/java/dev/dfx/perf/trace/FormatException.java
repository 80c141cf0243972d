package dev.dfx.perf.trace;

/**
 * A print format libtraceevent would not parse either; the event is then printed as
 * {@code [FAILED TO PARSE]} with its fields. Internal to the format parser.
 */
class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    FormatException(String message) {
        super(message);
    }
}
