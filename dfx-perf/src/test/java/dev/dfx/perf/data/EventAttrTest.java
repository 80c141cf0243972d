package dev.dfx.perf.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attrs of every size perf has written (PERF_ATTR_SIZE_VER0 = 64 up to VER8 = 136 bytes): fields inside the
 * size are read at their perf_event.h offsets, fields beyond it read as zero, in both byte orders.
 */
class EventAttrTest {
    @ParameterizedTest(name = "attr.size {0}")
    @ValueSource(ints = {64, 72, 80, 96, 104, 112, 120, 128, 136})
    void fieldsWithinTheSizeAreReadOthersAreZero(int size) {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            ByteBuffer b = ByteBuffer.allocate(136).order(order);
            b.putInt(0, 2).putInt(4, size).putLong(8, 0x174).putLong(16, 1).putLong(24, 0x10587).putLong(32, 0x14)
                .putLong(40, 1L << 18).putInt(48, 7).putInt(52, 3).putLong(56, 0x5656).putLong(64, 0x6464)
                .putLong(72, 0x7272).putLong(80, 0x8080).putInt(88, 8192).putInt(92, 1).putLong(96, 0x9696)
                .putInt(104, 4096).putShort(108, (short) 127).putInt(112, 512).putLong(120, 0x120120)
                .putLong(128, 0x128128);
            Endian e = order == ByteOrder.LITTLE_ENDIAN ? Endian.LITTLE : Endian.BIG;
            EventAttr a = EventAttr.read(MemorySegment.ofArray(b.array()), 0, size, e);
            assertThat(a.type()).isEqualTo(2);
            assertThat(a.config()).isEqualTo(0x174);
            assertThat(a.sampleType()).isEqualTo(0x10587);
            assertThat(a.sampleIdAll()).isTrue();
            assertThat(a.config1()).isEqualTo(0x5656);
            assertThat(a.config2()).isEqualTo(size >= 72 ? 0x6464 : 0);
            assertThat(a.branchSampleType()).isEqualTo(size >= 80 ? 0x7272 : 0);
            assertThat(a.sampleRegsUser()).isEqualTo(size >= 96 ? 0x8080 : 0);
            assertThat(a.clockid()).isEqualTo(size >= 96 ? 1 : 0);
            assertThat(a.sampleRegsIntr()).isEqualTo(size >= 104 ? 0x9696 : 0);
            assertThat(a.sampleMaxStack()).isEqualTo(size >= 112 ? 127 : 0);
            assertThat(a.auxSampleSize()).isEqualTo(size >= 120 ? 512 : 0);
            assertThat(a.sigData()).isEqualTo(size >= 128 ? 0x120120 : 0);
            assertThat(a.config3()).isEqualTo(size >= 136 ? 0x128128 : 0);
        }
    }
}
