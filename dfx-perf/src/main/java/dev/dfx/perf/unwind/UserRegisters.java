package dev.dfx.perf.unwind;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.read.PerfRecord;

/**
 * The user registers a sample carries (PERF_SAMPLE_REGS_USER: an ABI word, then one u64 per bit set in
 * {@code attr.sample_regs_user}, in bit order), read by x86-64 DWARF register number through perf's
 * {@code perf_reg_value}: a register outside the mask cannot be read. Immutable view of the record.
 */
final class UserRegisters {
    /** perf's x86 register ids ({@code enum perf_event_x86_regs}) of DWARF registers 0..16. */
    private static final int[] PERF_ID = {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8};
    /** {@code PERF_SAMPLE_REGS_ABI_64}. */
    static final long ABI_64 = 2;

    private final PerfRecord record;
    private final long mask;
    private final int offset;

    private UserRegisters(PerfRecord record, long mask, int offset) {
        this.record = record;
        this.mask = mask;
        this.offset = offset;
    }

    /** @return the sample's registers, or {@code null} when it has none (ABI 0, or not sampled) */
    static UserRegisters of(Sample s) {
        if (s.regsUserAbi() == 0 || s.regsUserOffset() < 0) {
            return null;
        }
        return new UserRegisters(s.record(), s.regsUserMask(), s.regsUserOffset());
    }

    /** @return whether DWARF register {@code reg} (0..16) was sampled */
    boolean has(int reg) {
        return (mask & (1L << PERF_ID[reg])) != 0;
    }

    /**
     * @param reg x86-64 DWARF register number 0..16
     * @return its value
     * @throws UnwindException when the register was not sampled
     */
    long get(int reg) {
        int id = PERF_ID[reg];
        if ((mask & (1L << id)) == 0) {
            throw UnwindException.failed("register " + reg + " not sampled (sample_regs_user 0x"
                + Long.toHexString(mask) + ")");
        }
        int index = Long.bitCount(mask & ((1L << id) - 1));
        return record.u64(offset + index * 8);
    }
}
