package dev.dfx.record;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Base of the flyweights over one fixed-size record: a flyweight is pointed at the record at a byte offset of a
 * segment ({@link #wrap}) and then reads ({@link RecordView}) or writes ({@link RecordEncoder}) its fields in
 * place. It allocates nothing and is re-pointed at the next record, so one instance serves a whole buffer. Not
 * thread-safe: one flyweight per thread.
 *
 * @param <F> the concrete flyweight type, returned by {@link #wrap} for chaining
 */
public abstract class RecordFlyweight<F extends RecordFlyweight<F>> {
    private final int size;
    /** The segment holding the current record. */
    protected MemorySegment segment;
    /** Byte offset of the current record in {@link #segment}. */
    protected long offset;

    /** @param size record size in bytes */
    RecordFlyweight(int size) {
        this.size = size;
    }

    /**
     * Points this flyweight at the record at {@code offset} in {@code segment}.
     *
     * @return this flyweight
     * @throws IndexOutOfBoundsException when the record does not lie wholly inside the segment
     */
    public F wrap(MemorySegment segment, long offset) {
        Objects.checkFromIndexSize(offset, size, segment.byteSize());
        this.segment = segment;
        this.offset = offset;
        return self();
    }

    /** @return this flyweight as its concrete type */
    @SuppressWarnings("unchecked")
    protected final F self() {
        return (F) this;
    }
}
