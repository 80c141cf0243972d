package dev.dfx.perf.write;

/**
 * Builds the AUX data of one vpa-dtl AUXTRACE buffer as the powerpc {@code vpa_dtl} PMU driver writes it
 * ({@code arch/powerpc/perf/vpa-dtl.c}): in the first buffer of each cpu a 48-byte {@code boottb_freq} record
 * stored host-endian (here little-endian, a ppc64le host), then 48-byte {@code struct dtl_entry} records copied
 * from the hypervisor, all multi-byte fields big-endian. Not thread-safe.
 */
public final class DtlPayload {
    /** Bytes of one entry and of the boot record. */
    public static final int ENTRY_SIZE = 48;

    private final LeBytes b = new LeBytes();

    /**
     * The {@code {u64 boot_tb; u64 tb_freq; u64 timebase = 0; u64 padded[3];}} record, host-endian.
     *
     * @param bootTb timebase at boot, ticks
     * @param tbFreq timebase ticks per second
     * @return this
     */
    public DtlPayload bootRecord(long bootTb, long tbFreq) {
        b.u64(bootTb).u64(tbFreq).u64(0).zeros(24);
        return this;
    }

    /**
     * One dispatch trace log entry (big-endian, {@code arch/powerpc/include/asm/dtl.h}).
     *
     * @param dispatchReason  u8 index into the dispatch reason table
     * @param preemptReason   u8 index into the preempt reason table
     * @param processorId     be16
     * @param enqueueToDispatch be32 ticks
     * @param readyToEnqueue  be32 ticks
     * @param waitingToReady  be32 ticks
     * @param timebase        be64 timebase ticks when the entry was logged
     * @param faultAddr       be64
     * @param srr0            be64 the interrupted instruction address
     * @param srr1            be64
     * @return this
     */
    public DtlPayload entry(int dispatchReason, int preemptReason, int processorId, int enqueueToDispatch,
                            int readyToEnqueue, int waitingToReady, long timebase, long faultAddr, long srr0,
                            long srr1) {
        b.u8(dispatchReason).u8(preemptReason).be16(processorId).be32(enqueueToDispatch).be32(readyToEnqueue)
            .be32(waitingToReady).be64(timebase).be64(faultAddr).be64(srr0).be64(srr1);
        return this;
    }

    /**
     * An entry with the times and addresses that do not matter for ordering set to small fixed values.
     *
     * @param dispatchReason u8 dispatch reason
     * @param preemptReason  u8 preempt reason
     * @param timebase       be64 timebase ticks
     * @return this
     */
    public DtlPayload entry(int dispatchReason, int preemptReason, long timebase) {
        return entry(dispatchReason, preemptReason, 0, 100, 10, 1000, timebase, 0, 0xc0000000000fcd28L, 0);
    }

    /**
     * Appends bytes as they are (e.g. a cut-off entry for corruption tests).
     *
     * @param raw the bytes
     * @return this
     */
    public DtlPayload raw(byte[] raw) {
        b.bytes(raw);
        return this;
    }

    /** @return the payload so far */
    public byte[] bytes() {
        return b.toArray();
    }
}
