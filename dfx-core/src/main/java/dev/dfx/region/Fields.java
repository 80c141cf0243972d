package dev.dfx.region;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian reads of region fields with the ordering named in each method (pairs with the producers'
 * releases). Offsets must be naturally aligned and inside the segment (the segment checks bounds).
 */
final class Fields {
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_VH = LONG.varHandle();
    private static final VarHandle INT_VH = INT.varHandle();

    private Fields() {
    }

    static long longAcquire(MemorySegment s, long offset) {
        return (long) LONG_VH.getAcquire(s, offset);
    }

    static int intAcquire(MemorySegment s, long offset) {
        return (int) INT_VH.getAcquire(s, offset);
    }
}
