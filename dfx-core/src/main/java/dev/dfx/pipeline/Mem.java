package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian field access to the region with the memory ordering named in each method (Agrona style).
 * Offsets must be naturally aligned. Release stores pair with acquire loads of the same field on another
 * thread (or process): everything written before the release is visible after the acquire.
 */
final class Mem {
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_VH = LONG.varHandle();
    private static final VarHandle INT_VH = INT.varHandle();

    private Mem() {
    }

    static long getLongAcquire(MemorySegment s, long offset) {
        return (long) LONG_VH.getAcquire(s, offset);
    }

    static void setLongRelease(MemorySegment s, long offset, long value) {
        LONG_VH.setRelease(s, offset, value);
    }

    static long getLongOpaque(MemorySegment s, long offset) {
        return (long) LONG_VH.getOpaque(s, offset);
    }

    static void setLongOpaque(MemorySegment s, long offset, long value) {
        LONG_VH.setOpaque(s, offset, value);
    }

    static int getIntAcquire(MemorySegment s, long offset) {
        return (int) INT_VH.getAcquire(s, offset);
    }

    static int getIntOpaque(MemorySegment s, long offset) {
        return (int) INT_VH.getOpaque(s, offset);
    }

    static void setIntRelease(MemorySegment s, long offset, int value) {
        INT_VH.setRelease(s, offset, value);
    }

    /** Sequentially consistent compare-and-set; @return the value found (the swap happened when it equals expected) */
    static int compareAndExchangeInt(MemorySegment s, long offset, int expected, int value) {
        return (int) INT_VH.compareAndExchange(s, offset, expected, value);
    }
}
