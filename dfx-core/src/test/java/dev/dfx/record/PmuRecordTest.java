package dev.dfx.record;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class PmuRecordTest {

    @Test
    void sizeOffsetsAndKind() {
        assertThat(PmuRecord.LAYOUT.byteSize()).isEqualTo(64);
        assertThat(new long[] {PmuRecord.TASK_ID, PmuRecord.FUNC_ID, PmuRecord.CORE_TYPE, PmuRecord.TOTAL_NS,
                PmuRecord.COUNTERS_OFF, PmuRecord.END_NS}).containsExactly(0, 8, 12, 16, 24, 56);
        assertThat(PmuRecord.KIND).isEqualTo(BufferKind.timed(0, "pmu", 64, 56));
    }

    @Test
    void decodesHandBuiltBytes() {
        MemorySegment seg = Bytes.hex("""
                2a 00 00 00 00 00 00 00 | 07 00 00 00 | 02 00 00 00 | e8 03 00 00 00 00 00 00
                01 00 00 00 02 00 00 00 ff ff ff ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                10 27 00 00 00 00 00 00""");
        PmuRecord.View v = new PmuRecord.View().wrap(seg, 0);
        assertThat(v.taskId()).isEqualTo(42);
        assertThat(v.funcId()).isEqualTo(7);
        assertThat(v.coreType()).isEqualTo(CoreType.CPU);
        assertThat(v.totalNs()).isEqualTo(1000);
        assertThat(v.counter(0)).isEqualTo(1);
        assertThat(v.counter(1)).isEqualTo(2);
        assertThat(v.counter(2)).isEqualTo(0xFFFF_FFFFL);
        assertThat(v.counter(7)).isZero();
        assertThat(v.endNs()).isEqualTo(10_000);

        MemorySegment out = Bytes.zeroed(64);
        out.fill((byte) 0x77);
        // 3 counters given: the third saturates, the other five are zeroed
        new PmuRecord.Encoder().wrap(out, 0).taskId(42).funcId(7).coreType(CoreType.CPU).totalNs(1000)
                .counters(new long[] {1, 2, 1L << 33, 99}, 3).endNs(10_000);
        assertThat(out.toArray(JAVA_BYTE)).isEqualTo(seg.toArray(JAVA_BYTE));
    }
}
