package dev.dfx.perf.trace;

/**
 * A {@code __print_flags} or {@code __print_symbolic} applied to {@code REC->name} where the format has no field
 * {@code name}: libtraceevent marks the field it looks up without checking that it found one ({@code process_entry}),
 * so perf crashes while it reads such a format. Internal to the format parser.
 */
final class NullFieldException extends FormatException {
    private static final long serialVersionUID = 1L;

    NullFieldException(String field) {
        super("__print_flags or __print_symbolic of REC->" + field + ", a field the format does not have");
    }
}
