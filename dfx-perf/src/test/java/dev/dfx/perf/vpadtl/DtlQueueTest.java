package dev.dfx.perf.vpadtl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.auxtrace.AuxtraceBuffer;
import dev.dfx.perf.auxtrace.AuxtraceQueue;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.write.DtlPayload;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One cpu's dtl entries across its AUX buffers: the boot record gives the clock, entries with a non-positive
 * timebase are skipped, buffers follow each other, and damage is reported with its file offset once the walk
 * reaches it. Timestamps are hand-computed: with boot_tb 1000 and 512 MHz, 512 ticks are 1000 ns.
 */
class DtlQueueTest {
    private static final long BOOT = 1000;
    private static final long FREQ = 512_000_000;

    /** Payloads laid out as if buffer i's payload started at byte offset 4096 * (i + 1) of the file. */
    static AuxtraceQueue queue(int cpu, byte[]... payloads) {
        List<AuxtraceBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < payloads.length; i++) {
            long at = 4096L * (i + 1);
            buffers.add(new AuxtraceBuffer(cpu, cpu, -1, 0, 0, at - 48, at, i, MemorySegment.ofArray(payloads[i])));
        }
        return new AuxtraceQueue(cpu, cpu, -1, buffers);
    }

    private static List<Long> walk(DtlQueue q) {
        List<Long> ts = new ArrayList<>();
        for (; q.hasEntry(); q.advance()) {
            ts.add(q.timestamp());
        }
        return ts;
    }

    @Test
    void entriesOfSeveralBuffersInOrderWithTheirTimes() {
        byte[] first = new DtlPayload().bootRecord(BOOT, FREQ).entry(3, 2, BOOT + 512).entry(10, 2, BOOT + 1024)
            .bytes();
        byte[] second = new DtlPayload().entry(0, 4, BOOT + 5120).bytes();
        DtlQueue q = new DtlQueue(queue(1, first, second), Endian.LITTLE, "f.data");
        assertThat(q.clock()).isEqualTo(new Timebase(BOOT, FREQ));
        assertThat(q.cpu()).isEqualTo(1);
        assertThat(q.fileOffset()).isEqualTo(4096 + 48);
        assertThat(DtlEntry.dispatchReason(q.entries(), q.offset())).isEqualTo(3);
        q.advance();
        assertThat(DtlReasons.dispatch(DtlEntry.dispatchReason(q.entries(), q.offset()))).isEqualTo("priv_doorbell");
        q.advance();
        assertThat(q.fileOffset()).isEqualTo(8192);
        assertThat(DtlReasons.preempt(DtlEntry.preemptReason(q.entries(), q.offset()))).isEqualTo("time_slice");
        assertThat(walk(new DtlQueue(queue(1, first, second), Endian.LITTLE, "f.data")))
            .containsExactly(1000L, 2000L, 10000L);
    }

    @Test
    void zeroAndNegativeTimebasesAreSkipped() {
        byte[] p = new DtlPayload().bootRecord(BOOT, FREQ).entry(1, 1, 0).entry(1, 1, -5).entry(1, 1, BOOT + 512)
            .entry(1, 1, Long.MIN_VALUE).bytes();
        assertThat(walk(new DtlQueue(queue(0, p), Endian.LITTLE, "f.data"))).containsExactly(1000L);
    }

    @Test
    void bootRecordIsReadInTheFilesByteOrder() {
        byte[] le = new DtlPayload().bootRecord(BOOT, FREQ).bytes();
        byte[] be = new byte[48];
        for (int i = 0; i < 8; i++) {
            be[i] = le[7 - i];
            be[8 + i] = le[15 - i];
        }
        byte[] entry = new DtlPayload().entry(1, 1, BOOT + 512).bytes();
        byte[] p = new byte[96];
        System.arraycopy(be, 0, p, 0, 48);
        System.arraycopy(entry, 0, p, 48, 48);
        DtlQueue q = new DtlQueue(queue(0, p), Endian.BIG, "f.data");
        assertThat(q.clock()).isEqualTo(new Timebase(BOOT, FREQ));
        assertThat(q.timestamp()).isEqualTo(1000);
    }

    @Test
    void missingBootRecordNamesTheOffset() {
        byte[] p = new DtlPayload().entry(1, 1, BOOT + 512).bytes();
        assertThatThrownBy(() -> new DtlQueue(queue(2, p), Endian.LITTLE, "f.data"))
            .isInstanceOf(BadInputException.class)
            .hasMessage("f.data: vpa-dtl AUX data of queue 2 (cpu 2) at byte offset 4096 does not start with the 48-byte"
                + " {boot_tb, tb_freq} record (timebase 0)");
    }

    @Test
    void zeroFrequencyNamesTheOffset() {
        byte[] p = new DtlPayload().bootRecord(BOOT, 0).entry(1, 1, BOOT + 512).bytes();
        assertThatThrownBy(() -> new DtlQueue(queue(0, p), Endian.LITTLE, "f.data"))
            .isInstanceOf(BadInputException.class)
            .hasMessageContaining("byte offset 4096 has tb_freq 0");
    }

    @Test
    void shortEntryFailsAfterTheWholeEntriesBeforeIt() {
        byte[] whole = new DtlPayload().bootRecord(BOOT, FREQ).entry(1, 1, BOOT + 512).entry(1, 1, BOOT + 1024)
            .bytes();
        byte[] p = new DtlPayload().raw(whole).raw(new byte[20]).bytes();
        DtlQueue q = new DtlQueue(queue(0, p), Endian.LITTLE, "f.data");
        assertThat(q.timestamp()).isEqualTo(1000);
        q.advance();
        assertThat(q.timestamp()).isEqualTo(2000);
        assertThatThrownBy(q::advance).isInstanceOf(BadInputException.class)
            .hasMessage("f.data: short vpa-dtl entry at byte offset 4240: the 164-byte AUXTRACE payload at byte offset"
                + " 4096 ends 20 bytes into a 48-byte entry");
    }

    @Test
    void reasonCodesPastTheTablesAreNamedUnknown() {
        assertThat(DtlReasons.dispatch(10)).isEqualTo("priv_doorbell");
        assertThat(DtlReasons.dispatch(11)).isEqualTo("unknown(11)");
        assertThat(DtlReasons.preempt(9)).isEqualTo("HDEC_adjunct");
        assertThat(DtlReasons.preempt(10)).isEqualTo("unknown(10)");
    }
}
