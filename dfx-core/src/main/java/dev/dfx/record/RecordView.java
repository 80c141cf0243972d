package dev.dfx.record;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Base of the reusable reader views: a view is pointed at one record ({@link #wrap}) and read through
 * typed getters; it allocates nothing and can be re-pointed at the next record. Not thread-safe (one
 * view per reading thread).
 *
 * @param <V> the concrete view type, returned by {@link #wrap} for chaining
 */
public abstract class RecordView<V extends RecordView<V>> {
    private final int size;
    /** The segment holding the current record. */
    protected MemorySegment segment;
    /** Byte offset of the current record in {@link #segment}. */
    protected long offset;

    /** @param size record size in bytes */
    protected RecordView(int size) {
        this.size = size;
    }

    /**
     * Points this view at the record at {@code offset} in {@code segment}.
     *
     * @return this view
     * @throws IndexOutOfBoundsException when the record does not lie wholly inside the segment
     */
    @SuppressWarnings("unchecked")
    public final V wrap(MemorySegment segment, long offset) {
        Objects.checkFromIndexSize(offset, size, segment.byteSize());
        this.segment = segment;
        this.offset = offset;
        return (V) this;
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
}
