package dev.dfx.perf.vpadtl;

import dev.dfx.error.BadInputException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The 48-byte dispatch trace log entry the hypervisor writes ({@code struct dtl_entry},
 * {@code arch/powerpc/include/asm/dtl.h}; perf's copy is {@code struct powerpc_vpadtl_entry}); every multi-byte
 * field is big-endian whatever the byte order of the perf.data file:
 * <pre>
 *  0 u8   dispatch_reason            1 u8 preempt_reason          2 be16 processor_id
 *  4 be32 enqueue_to_dispatch_time   8 be32 ready_to_enqueue_time 12 be32 waiting_to_ready_time
 * 16 be64 timebase                  24 be64 fault_addr            32 be64 srr0    40 be64 srr1
 * </pre>
 * Static readers of an entry at a byte offset of a segment; stateless and thread-safe.
 */
public final class DtlEntry {
    /** Bytes per entry. */
    public static final int SIZE = 48;
    /** Offset of the be64 timebase. */
    public static final int TIMEBASE = 16;

    private static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private DtlEntry() {
    }

    /**
     * @param file          the file name
     * @param payloadOffset file offset of an AUXTRACE payload
     * @param payloadSize   its bytes
     * @param at            offset in the payload where fewer than 48 bytes are left
     * @return the error for a payload that ends inside an entry
     */
    static BadInputException shortEntry(String file, long payloadOffset, long payloadSize, long at) {
        return new BadInputException(file + ": short vpa-dtl entry at byte offset " + (payloadOffset + at) + ": the "
            + payloadSize + "-byte AUXTRACE payload at byte offset " + payloadOffset + " ends " + (payloadSize - at)
            + " bytes into a 48-byte entry");
    }

    /** @return u8 dispatch reason (index into {@link DtlReasons#dispatch}) */
    public static int dispatchReason(MemorySegment s, long at) {
        return Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at));
    }

    /** @return u8 preempt reason (index into {@link DtlReasons#preempt}) */
    public static int preemptReason(MemorySegment s, long at) {
        return Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at + 1));
    }

    /** @return be16 processor id, 0..65535 */
    public static int processorId(MemorySegment s, long at) {
        return Short.toUnsignedInt(s.get(BE16, at + 2));
    }

    /** @return be32 enqueue-to-dispatch time, as the signed int perf prints with {@code %d} */
    public static int enqueueToDispatch(MemorySegment s, long at) {
        return s.get(BE32, at + 4);
    }

    /** @return be32 ready-to-enqueue time, signed as perf prints it */
    public static int readyToEnqueue(MemorySegment s, long at) {
        return s.get(BE32, at + 8);
    }

    /** @return be32 waiting-to-ready time, signed as perf prints it */
    public static int waitingToReady(MemorySegment s, long at) {
        return s.get(BE32, at + 12);
    }

    /** @return be64 timebase, ticks (unsigned); 0 marks the boot record */
    public static long timebase(MemorySegment s, long at) {
        return s.get(BE64, at + TIMEBASE);
    }

    /** @return be64 fault address */
    public static long faultAddr(MemorySegment s, long at) {
        return s.get(BE64, at + 24);
    }

    /** @return be64 srr0, the interrupted instruction address (the synthesized sample's ip) */
    public static long srr0(MemorySegment s, long at) {
        return s.get(BE64, at + 32);
    }

    /** @return be64 srr1 */
    public static long srr1(MemorySegment s, long at) {
        return s.get(BE64, at + 40);
    }
}
