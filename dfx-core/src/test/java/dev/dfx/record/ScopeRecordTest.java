package dev.dfx.record;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class ScopeRecordTest {

    @Test
    void sizeOffsetsKeepTheReferencePositionsAfterTheSiteName() {
        assertThat(ScopeRecord.LAYOUT.byteSize()).isEqualTo(80);
        assertThat(new long[] {ScopeRecord.TIME_NS, ScopeRecord.SITE_FILE, ScopeRecord.HEAP_START,
                ScopeRecord.HEAP_END, ScopeRecord.SITE_LINE, ScopeRecord.TASK_START, ScopeRecord.TASK_END,
                ScopeRecord.DEP_POOL_START, ScopeRecord.DEP_POOL_END, ScopeRecord.TENSORMAP_USED, ScopeRecord.DEPTH,
                ScopeRecord.RING_ID, ScopeRecord.PHASE, ScopeRecord.RESERVED})
                .containsExactly(0, 8, 32, 40, 48, 52, 56, 60, 64, 68, 72, 74, 76, 78);
        assertThat(ScopeRecord.KIND).isEqualTo(BufferKind.timed(0, "scope", 80, 0));
    }

    @Test
    void decodesHandBuiltBytesAndWritesThemBack() {
        // "Scoped.java" = 53 63 6f 70 65 64 2e 6a 61 76 61, then 13 zero bytes
        MemorySegment seg = Bytes.hex("""
                00 ca 9a 3b 00 00 00 00 | 53 63 6f 70 65 64 2e 6a 61 76 61 00 00 00 00 00 00 00 00 00 00 00 00 00
                00 01 00 00 00 00 00 00 | 00 03 00 00 00 00 00 00 | 2a 00 00 00 | 0a 00 00 00 | 0c 00 00 00
                14 00 00 00 | 1e 00 00 00 | 05 00 00 00 | 02 00 | 01 00 | 01 00 | 00 00""");
        ScopeRecord.View v = new ScopeRecord.View().wrap(seg, 0);
        assertThat(v.timeNs()).isEqualTo(1_000_000_000L);
        assertThat(v.siteFile()).isEqualTo("Scoped.java");
        assertThat(v.heapStart()).isEqualTo(256);
        assertThat(v.heapEnd()).isEqualTo(768);
        assertThat(v.siteLine()).isEqualTo(42);
        assertThat(new int[] {v.taskStart(), v.taskEnd(), v.depPoolStart(), v.depPoolEnd(), v.tensorMapUsed()})
                .containsExactly(10, 12, 20, 30, 5);
        assertThat(new int[] {v.depth(), v.ringId()}).containsExactly(2, 1);
        assertThat(v.phase()).isEqualTo(ScopePhase.END);

        MemorySegment out = Bytes.zeroed(80);
        out.fill((byte) 0x33);
        new ScopeRecord.Encoder().wrap(out, 0).timeNs(1_000_000_000L).siteFile("Scoped.java").siteLine(42)
                .heapStart(256).heapEnd(768).taskStart(10).taskEnd(12).depPoolStart(20).depPoolEnd(30).tensorMapUsed(5)
                .depth(2).ringId(1).phase(ScopePhase.END);
        assertThat(out.toArray(JAVA_BYTE)).isEqualTo(seg.toArray(JAVA_BYTE));
    }

    @Test
    void longSiteNamesAreTruncatedAndWindowCountersWrap() {
        MemorySegment out = Bytes.zeroed(80);
        new ScopeRecord.Encoder().wrap(out, 0).timeNs(1).siteFile("AVeryLongWorkloadFileName.java").siteLine(-1)
                .heapStart(0).heapEnd(0).taskStart((1L << 32) + 3).taskEnd(0).depPoolStart(0).depPoolEnd(0)
                .tensorMapUsed(0).depth(0).ringId(0).phase(ScopePhase.BEGIN);
        ScopeRecord.View v = new ScopeRecord.View().wrap(out, 0);
        assertThat(v.siteFile()).isEqualTo("AVeryLongWorkloadFileNam");
        assertThat(v.taskStart()).isEqualTo(3);
        assertThat(v.siteLine()).isEqualTo(-1);
    }
}
