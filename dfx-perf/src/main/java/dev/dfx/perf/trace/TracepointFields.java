package dev.dfx.perf.trace;

/**
 * Field values of one tracepoint record by name, read from its raw data with its format
 * ({@code tep_get_field_val} / {@code tep_get_field_raw}). Immutable view; valid while the record's segment is.
 */
public final class TracepointFields {
    private final EventFormat format;
    private final RawData data;

    /**
     * @param format the event's format
     * @param data   the record's raw tracepoint bytes
     */
    public TracepointFields(EventFormat format, RawData data) {
        this.format = format;
        this.data = data;
    }

    /** @return the record's raw tracepoint bytes these fields are read from */
    public RawData data() {
        return data;
    }

    /** @return whether the format has a field of that name (common fields included) */
    public boolean has(String name) {
        return format.field(name) != null;
    }

    /**
     * @return the numeric value of a scalar field, sign-extended when the format marks it signed
     * @throws IllegalArgumentException for an unknown field or an array field
     */
    public long number(String name) {
        return number(require(name));
    }

    /**
     * The same as {@link #number(String)} for a field of this format looked up before ({@link EventFormat#field}),
     * which a reader of millions of records of one format looks up once.
     *
     * @throws IllegalArgumentException for an array field
     */
    public long number(FormatField f) {
        if (f.array()) {
            throw new IllegalArgumentException(format.fullName() + ": field " + f.name() + " is an array");
        }
        long v = data.number(f.offset(), f.size());
        if (f.signed() && f.size() < 8 && f.size() > 0) {
            int shift = 64 - 8 * f.size();
            v = (v << shift) >> shift;
        }
        return v;
    }

    /**
     * @return the text of a char array or {@code __data_loc char[]} field (up to its first NUL)
     * @throws IllegalArgumentException for an unknown or non-string field
     */
    public String string(String name) {
        return string(require(name));
    }

    /**
     * The same as {@link #string(String)} for a field of this format looked up before ({@link EventFormat#field}).
     *
     * @throws IllegalArgumentException for a non-string field
     */
    public String string(FormatField f) {
        if (!f.string()) {
            throw new IllegalArgumentException(format.fullName() + ": field " + f.name() + " is not a string");
        }
        if (f.dynamic()) {
            long[] loc = Eval.dynamic(f, data);
            return data.cString((int) loc[0], (int) loc[1]);
        }
        return data.cString(f.offset(), f.size());
    }

    /**
     * @return element {@code i} of a fixed array field (e.g. {@code args[6]} of {@code raw_syscalls:sys_enter})
     * @throws IllegalArgumentException for an unknown field or an index outside the array
     */
    public long element(String name, int i) {
        FormatField f = require(name);
        if (!f.array() || f.dynamic() || i < 0 || f.elementSize() == 0 || i >= f.size() / f.elementSize()) {
            throw new IllegalArgumentException(format.fullName() + ": no element " + i + " in field " + name);
        }
        return data.number(f.offset() + i * f.elementSize(), f.elementSize());
    }

    private FormatField require(String name) {
        FormatField f = format.field(name);
        if (f == null) {
            throw new IllegalArgumentException(format.fullName() + " has no field " + name);
        }
        return f;
    }
}
