package dev.dfx.perf.unwind;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.read.PerfRecord;

/**
 * The copy of the user stack a sample carries (PERF_SAMPLE_STACK_USER: {@code u64 size}, {@code size} bytes,
 * {@code u64 dyn_size}): the {@code dyn_size} valid bytes from the sampled stack pointer up. As in perf's
 * {@code access_mem}, a word is read from the copy when it starts at or above the stack pointer and ends
 * strictly before the copy's end. Immutable view of the record.
 */
final class StackDump {
    private final PerfRecord record;
    private final int dataOffset;
    private final long size;
    private final long sp;

    private StackDump(PerfRecord record, int dataOffset, long size, long sp) {
        this.record = record;
        this.dataOffset = dataOffset;
        this.size = size;
        this.sp = sp;
    }

    /**
     * @param s  a sample with STACK_USER
     * @param sp the sampled stack pointer
     * @return its valid stack bytes, or {@code null} when none were captured; also {@code null} when
     *         {@code dyn_size} exceeds {@code size} (a record perf refuses to parse: "user stack dump failure")
     */
    static StackDump of(Sample s, long sp) {
        if (s.stackUserOffset() < 0 || s.stackUserSize() == 0) {
            return null;
        }
        long dyn = s.stackUserDynSize();
        if (dyn == 0 || Long.compareUnsigned(dyn, s.stackUserSize()) > 0) {
            return null;
        }
        return new StackDump(s.record(), s.stackUserOffset() + 8, dyn, sp);
    }

    /** @return the valid bytes of the copy */
    long size() {
        return size;
    }

    /** @return whether the 8 bytes at {@code addr} are read from the copy (perf: {@code addr + 8 < sp + size}) */
    boolean holds(long addr) {
        long off = addr - sp;
        return Long.compareUnsigned(addr, sp) >= 0 && Long.compareUnsigned(off + 8, size) < 0;
    }

    /** @return the word at {@code addr}, which {@link #holds} */
    long word(long addr) {
        return record.u64(dataOffset + (int) (addr - sp));
    }
}
