package dev.dfx.perf.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.InputErrors;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.ReadFormat;
import dev.dfx.pmu.attr.SampleType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Sample decoding against hand-built records: every field lands where perf_event.h puts it, in
 * {@code sample_type} order, and the sample_id trailer of other records is read from the end.
 */
class SampleParserTest {
    private static final InputErrors T_DATA = new InputErrors("t.data", 0);

    private static PerfEventAttr attr(long sampleType, long readFormat, long regsUser) {
        return new PerfEventAttr(1, 128, 0, 4000, sampleType, readFormat, AttrFlags.SAMPLE_ID_ALL, 0, 0, 0, 0, 0,
            regsUser, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    private static PerfRecord record(int type, int misc, long... words) {
        ByteBuffer b = ByteBuffer.allocate(8 + 8 * words.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(type).putShort((short) misc).putShort((short) b.capacity());
        for (long w : words) {
            b.putLong(w);
        }
        return new PerfRecord(MemorySegment.ofArray(b.array()), 0, Endian.LITTLE, 0x40, 0, null, false);
    }

    private static long pidTid(int pid, int tid) {
        return (pid & 0xffffffffL) | ((long) tid << 32);
    }

    @Test
    void everyFixedAndVariableFieldInSampleTypeOrder() {
        long type = SampleType.IDENTIFIER | SampleType.IP | SampleType.TID | SampleType.TIME | SampleType.ADDR
            | SampleType.ID | SampleType.STREAM_ID | SampleType.CPU | SampleType.PERIOD | SampleType.READ
            | SampleType.CALLCHAIN | SampleType.RAW | SampleType.REGS_USER | SampleType.WEIGHT | SampleType.DATA_SRC
            | SampleType.PHYS_ADDR;
        long rf = ReadFormat.TOTAL_TIME_ENABLED | ReadFormat.ID | ReadFormat.LOST;
        PerfRecord r = record(RecordType.SAMPLE, 2,
            77, 0x401000, pidTid(10, 11), 123456789, 0xdead0000L, 77, 99, 3, 250000,
            /* read: value, enabled, id, lost */ 42, 1000, 77, 5,
            /* callchain */ 2, -512, 0x401000,
            /* raw: u32 size 4 + 4 bytes */ 4L | (0xabcdL << 32),
            /* regs: abi 2, two regs */ 2, 0x11, 0x22,
            /* weight */ 31, /* data_src */ 0x1e05080021L, /* phys */ 0x7000);
        Sample s = SampleParser.parse(r, attr(type, rf, 0b101), T_DATA);
        assertThat(s.id()).isEqualTo(77);
        assertThat(s.ip()).isEqualTo(0x401000);
        assertThat(s.pid()).isEqualTo(10);
        assertThat(s.tid()).isEqualTo(11);
        assertThat(s.time()).isEqualTo(123456789);
        assertThat(s.addr()).isEqualTo(0xdead0000L);
        assertThat(s.streamId()).isEqualTo(99);
        assertThat(s.cpu()).isEqualTo(3);
        assertThat(s.period()).isEqualTo(250000);
        assertThat(s.read().values()).containsExactly(42);
        assertThat(s.read().timeEnabled()).isEqualTo(1000);
        assertThat(s.read().ids()).containsExactly(77);
        assertThat(s.read().lost()).containsExactly(5);
        assertThat(s.callchainNr()).isEqualTo(2);
        assertThat(s.callchain(0)).isEqualTo(-512);
        assertThat(s.callchain(1)).isEqualTo(0x401000);
        assertThat(s.rawSize()).isEqualTo(4);
        assertThat(r.u16(s.rawOffset())).isEqualTo(0xabcd);
        assertThat(s.regsUserAbi()).isEqualTo(2);
        assertThat(r.u64(s.regsUserOffset() + 8)).isEqualTo(0x22);
        assertThat(s.weight()).isEqualTo(31);
        assertThat(s.dataSrc()).isEqualTo(0x1e05080021L);
        assertThat(s.physAddr()).isEqualTo(0x7000);
        assertThat(s.cpumode()).isEqualTo(2);
    }

    @Test
    void withoutPeriodTheAttrsFixedPeriodApplies() {
        PerfRecord r = record(RecordType.SAMPLE, 1, 0xffffffff81000000L, pidTid(1, 1));
        Sample s = SampleParser.parse(r, attr(SampleType.IP | SampleType.TID, 0, 0), T_DATA);
        assertThat(s.period()).isEqualTo(4000);
        assertThat(s.time()).isEqualTo(-1);
        assertThat(s.cpu()).isEqualTo(-1);
    }

    @Test
    void otherRecordsCarryTheSampleIdTrailerAtTheirEnd() {
        long type = SampleType.TID | SampleType.TIME | SampleType.CPU | SampleType.IDENTIFIER;
        // COMM body: pid/tid, "sh\0..." (8 bytes), then trailer: pid/tid, time, cpu, identifier
        PerfRecord r = record(RecordType.COMM, 0, pidTid(5, 6), 0x6873, pidTid(5, 6), 777, 1, 1234);
        Sample s = SampleParser.parse(r, attr(type, 0, 0), T_DATA);
        assertThat(s.pid()).isEqualTo(5);
        assertThat(s.tid()).isEqualTo(6);
        assertThat(s.time()).isEqualTo(777);
        assertThat(s.cpu()).isEqualTo(1);
        assertThat(s.id()).isEqualTo(1234);
        assertThat(SampleParser.timestamp(r, attr(type, 0, 0))).isEqualTo(777);
    }

    @Test
    void aFieldRunningPastTheRecordIsRefusedWithTheRecordsOffset() {
        PerfRecord r = record(RecordType.SAMPLE, 1, 0x1000, /* callchain nr */ 50, 1);
        assertThatThrownBy(() -> SampleParser.parse(r, attr(SampleType.IP | SampleType.CALLCHAIN, 0, 0), T_DATA))
            .isInstanceOf(BadInputException.class)
            .hasMessageStartingWith("t.data: byte offset 64: SAMPLE record of 32 bytes ends inside its CALLCHAIN field");
    }
}
