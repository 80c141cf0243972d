package dev.dfx.perf.unwind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Test memory over a file's bytes: address {@code a} reads file offset {@code a - base + offset}; words that do
 * not lie wholly inside the file fault. Immutable.
 *
 * @param bytes  the file
 * @param base   the address of file offset {@code offset}
 * @param offset the file offset mapped at {@code base}
 */
record FileMemory(MemorySegment bytes, long base, long offset) implements Memory {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public long word(long addr) {
        if (status(addr) != READ) {
            throw UnwindException.failed("outside the file: 0x" + Long.toHexString(addr));
        }
        return bytes.get(LE, addr - base + offset);
    }

    @Override
    public int status(long addr) {
        long off = addr - base + offset;
        return off >= 0 && off <= bytes.byteSize() - 8 ? READ : FAULT;
    }
}
