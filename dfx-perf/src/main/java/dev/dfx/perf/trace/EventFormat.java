package dev.dfx.perf.trace;

import java.util.List;

/**
 * A parsed tracepoint format: identity, fields and the compiled {@code print fmt}
 * ({@code libtraceevent struct tep_event}). When the print format cannot be parsed, {@link #failed()}
 * is true and the event prints as {@code [FAILED TO PARSE]} followed by its fields, as libtraceevent does.
 * Immutable after parsing; thread-safe.
 *
 * @param system       subsystem, e.g. {@code "sched"}
 * @param name         event name, e.g. {@code "sched_switch"}
 * @param id           the tracepoint id ({@code attr.config} of its events)
 * @param commonFields {@code common_*} fields
 * @param fields       the event's own fields
 * @param printFormat  the compiled print format, or {@code null} when {@link #failed()}
 * @param printFmtText the print format text as stored (for diagnostics)
 * @param failure      what could not be parsed, the fields or the print format (one line, for a warning), or
 *                     {@code null} when the event parsed
 * @param unusable     whether perf 6.1's libtraceevent cannot use the format safely: giving up on a field freed one
 *                     already read (a use-after-free), or {@code __print_flags}/{@code __print_symbolic} names a
 *                     field the format lacks (a null dereference while parsing); a format whose fields break off
 *                     otherwise is only {@link #failed() failed}
 */
public record EventFormat(String system, String name, int id, List<FormatField> commonFields,
                          List<FormatField> fields, PrintFormat printFormat, String printFmtText, String failure,
                          boolean unusable) {

    /** @return the field named {@code n} among common and own fields ({@code tep_find_any_field}), or null */
    public FormatField field(String n) {
        for (FormatField f : commonFields) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        for (FormatField f : fields) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        return null;
    }

    /** @return whether the fields or the print format could not be parsed ({@link #failure()} says which) */
    public boolean failed() {
        return failure != null;
    }

    /** @return {@code system:name} */
    public String fullName() {
        return system + ":" + name;
    }
}
