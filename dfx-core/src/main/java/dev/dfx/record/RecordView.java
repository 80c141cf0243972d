package dev.dfx.record;

/**
 * Base of the reusable reader views: a view is pointed at one record ({@link #wrap}) and read through typed
 * getters named after the record's fields; each record class's {@code Encoder} has a setter of the same name per
 * field. Allocates nothing. Not thread-safe (one view per reading thread).
 *
 * @param <V> the concrete view type, returned by {@link #wrap} for chaining
 */
public abstract class RecordView<V extends RecordView<V>> extends RecordFlyweight<V> {
    /** @param size record size in bytes */
    protected RecordView(int size) {
        super(size);
    }

    /** @return u8 field at {@code field} as 0..255 */
    protected final int u8(long field) {
        return Byte.toUnsignedInt(segment.get(Le.U8, offset + field));
    }

    /** @return i16 field at {@code field} */
    protected final short i16(long field) {
        return segment.get(Le.I16, offset + field);
    }

    /** @return u16 field at {@code field} as 0..65535 */
    protected final int u16(long field) {
        return Short.toUnsignedInt(segment.get(Le.I16, offset + field));
    }

    /** @return i32 field at {@code field} */
    protected final int i32(long field) {
        return segment.get(Le.I32, offset + field);
    }

    /** @return u32 field at {@code field} as 0..2^32-1 */
    protected final long u32(long field) {
        return Integer.toUnsignedLong(segment.get(Le.I32, offset + field));
    }

    /** @return i64 field at {@code field} */
    protected final long i64(long field) {
        return segment.get(Le.I64, offset + field);
    }

    /** @return the ASCII string in the {@code width}-byte field at {@code field}, up to its first zero byte (allocates) */
    protected final String ascii(long field, int width) {
        return Le.getAscii(segment, offset + field, width);
    }
}
