package dev.dfx.record;

/**
 * Base of the flyweight encoders: an encoder is pointed at one record slot ({@link #wrap}) and written through
 * typed setters named after the record's fields, the same names as its reader view's getters, each returning the
 * encoder for chaining: {@code encoder.wrap(seg, off).startNs(t0).endNs(t1).taskId(id)}. A producer sets every
 * field (the record classes say which setters a record needs); {@code wrap} stores the reserved bytes itself, so
 * stale bytes of a recycled buffer never reach a chunk. Allocates nothing. Not thread-safe: one encoder per
 * producer thread.
 *
 * @param <E> the concrete encoder type, returned by {@link #wrap} and every setter for chaining
 */
public abstract class RecordEncoder<E extends RecordEncoder<E>> extends RecordFlyweight<E> {
    /** @param size record size in bytes */
    protected RecordEncoder(int size) {
        super(size);
    }

    /** Stores the low 8 bits of {@code v} at {@code field}. */
    protected final E u8(long field, int v) {
        segment.set(Le.U8, offset + field, (byte) v);
        return self();
    }

    /** Stores the low 16 bits of {@code v} at {@code field}. */
    protected final E i16(long field, int v) {
        segment.set(Le.I16, offset + field, (short) v);
        return self();
    }

    /** Stores {@code v} at {@code field}. */
    protected final E i32(long field, int v) {
        segment.set(Le.I32, offset + field, v);
        return self();
    }

    /** Stores {@code v} at {@code field}. */
    protected final E i64(long field, long v) {
        segment.set(Le.I64, offset + field, v);
        return self();
    }

    /**
     * Stores {@code s} as ASCII in the {@code width}-byte field at {@code field} ({@link Le#putAscii}).
     *
     * @param pad whether the bytes after the string are zeroed too (not needed in a slot that holds zeros)
     */
    protected final E ascii(long field, int width, String s, boolean pad) {
        Le.putAscii(segment, offset + field, width, s, pad);
        return self();
    }

    /** Zeroes {@code bytes} bytes at {@code field} with the fewest stores; allocates nothing. */
    protected final void zero(long field, int bytes) {
        Le.zero(segment, offset + field, bytes);
    }
}
