package dev.dfx.pmu.attr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code struct perf_event_attr} against uapi linux/perf_event.h: field offsets, and attrs of every size perf has
 * written (PERF_ATTR_SIZE_VER0 = 64 up to VER8 = 136 bytes): fields inside the size are read at their offsets,
 * fields beyond it read as zero, in both byte orders.
 */
class PerfEventAttrTest {

    @Test
    void offsetsMatchTheUapiStruct() {
        assertThat(PerfEventAttr.SIZE_VER8).isEqualTo(136);
        assertThat(PerfEventAttr.offset("config")).isEqualTo(8);
        assertThat(PerfEventAttr.offset("read_format")).isEqualTo(32);
        assertThat(PerfEventAttr.offset("flags")).isEqualTo(40);
        assertThat(PerfEventAttr.offset("config1")).isEqualTo(56);   // VER1 = 72 bytes ends after config2
        assertThat(PerfEventAttr.offset("config2")).isEqualTo(64);
        assertThat(PerfEventAttr.offset("sample_regs_intr")).isEqualTo(96);
        assertThat(PerfEventAttr.offset("sig_data")).isEqualTo(120);
        assertThat(PerfEventAttr.offset("config3")).isEqualTo(128);
    }

    @Test
    void everyFieldsOffsetIsTheOneItsLayoutPathGivesAndUnknownNamesAreRefused() {
        int named = 0;
        for (MemoryLayout member : PerfEventAttr.LAYOUT.memberLayouts()) {
            if (member.name().isPresent()) {
                String name = member.name().get();
                assertThat(PerfEventAttr.offset(name)).as(name)
                    .isEqualTo(PerfEventAttr.LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(name)));
                named++;
            }
        }
        assertThat(named).isGreaterThanOrEqualTo(23); // the uapi struct's named fields up to config3
        assertThatThrownBy(() -> PerfEventAttr.offset("confg"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("confg");
    }

    @ParameterizedTest(name = "attr.size {0}")
    @ValueSource(ints = {64, 72, 80, 96, 104, 112, 120, 128, 136})
    void fieldsWithinTheSizeAreReadOthersAreZero(int size) {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            ByteBuffer b = ByteBuffer.allocate(136).order(order);
            b.putInt(0, 2).putInt(4, size).putLong(8, 0x174).putLong(16, 1).putLong(24, 0x10587).putLong(32, 0x14)
                // sample_id_all is bit-field 18: bit 18 of a little-endian word, bit 63 - 18 of a big-endian one
                .putLong(40, order == ByteOrder.BIG_ENDIAN ? 1L << 45 : 1L << 18).putInt(48, 7).putInt(52, 3).putLong(56, 0x5656).putLong(64, 0x6464)
                .putLong(72, 0x7272).putLong(80, 0x8080).putInt(88, 8192).putInt(92, 1).putLong(96, 0x9696)
                .putInt(104, 4096).putShort(108, (short) 127).putInt(112, 512).putLong(120, 0x120120)
                .putLong(128, 0x128128);
            PerfEventAttr a = PerfEventAttr.read(MemorySegment.ofArray(b.array()), 0, size, order);
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

    /** What {@code perf_event_open} is given reads back field for field: write and read share one layout. */
    @Test
    void writtenAttrReadsBackInNativeOrder() {
        PerfEventAttr a = new PerfEventAttr(4, PerfEventAttr.SIZE_VER8, 0x1cd, 4000, 0x10587, 0x14,
            AttrFlags.DISABLED | AttrFlags.SAMPLE_ID_ALL | AttrFlags.preciseIp(2), 7, 3, 0x5656, 0x6464, 0x7272,
            0x8080, 8192, 1, 0x9696, 4096, 127, 512, 0x120120, 0x128128);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(PerfEventAttr.LAYOUT);
            a.write(seg, 0, ByteOrder.nativeOrder());
            assertThat(seg.get(ValueLayout.JAVA_LONG, 40)).isEqualTo(1L | 1L << 18 | 2L << 15);
            assertThat(PerfEventAttr.read(seg, 0, PerfEventAttr.SIZE_VER8, ByteOrder.nativeOrder())).isEqualTo(a);
        }
        assertThat(a.preciseIp()).isEqualTo(2);
        assertThat(a.flag(AttrFlags.PRECISE_IP_SHIFT)).isEqualTo(2);
    }
}
