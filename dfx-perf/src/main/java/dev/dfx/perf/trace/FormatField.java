package dev.dfx.perf.trace;

/**
 * One field of a tracepoint format ({@code field:TYPE NAME; offset:N; size:N; signed:N;} in
 * {@code /sys/kernel/tracing/events/SYSTEM/EVENT/format}; libtraceevent {@code struct tep_format_field}).
 * Offsets and sizes are in bytes from the start of the raw tracepoint record. Immutable.
 *
 * @param name        field name
 * @param type        C type as written (with array brackets, e.g. {@code "char[16]"}, {@code "__data_loc char[]"})
 * @param offset      byte offset in the raw record
 * @param size        bytes (for {@code __data_loc} fields: 4, the packed offset/length word)
 * @param signed      whether the format marks it signed
 * @param array       whether it is an array (fixed or dynamic)
 * @param dynamic     whether it is a {@code __data_loc} or {@code __rel_loc} field
 * @param relative    whether it is a {@code __rel_loc} field (offset relative to the field's end)
 * @param string      whether it is a char/u8/s8 array
 * @param isLong      whether the type contains {@code long}
 * @param pointer     whether the type contains {@code *}
 * @param arrayLen    declared element count (0 for dynamic or unknown)
 * @param elementSize bytes per element
 */
public record FormatField(String name, String type, int offset, int size, boolean signed, boolean array,
                          boolean dynamic, boolean relative, boolean string, boolean isLong, boolean pointer,
                          int arrayLen, int elementSize) {
}
