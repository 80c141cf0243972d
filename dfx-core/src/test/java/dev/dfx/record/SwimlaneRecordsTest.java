package dev.dfx.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.dfx.chunk.BufferKind;
import dev.dfx.error.BadInputException;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SwimlaneRecordsTest {

    @Test
    void sizesAndOffsetsAreTheDocumentedOnes() {
        assertThat(CoreTaskRecord.LAYOUT.byteSize()).isEqualTo(32);
        assertThat(new long[] {CoreTaskRecord.START_NS, CoreTaskRecord.END_NS, CoreTaskRecord.TASK_ID,
                CoreTaskRecord.FUNC_ID, CoreTaskRecord.CORE_ID, CoreTaskRecord.CORE_TYPE, CoreTaskRecord.FLAGS})
                .containsExactly(0, 8, 16, 24, 28, 30, 31);
        assertThat(SchedTaskRecord.LAYOUT.byteSize()).isEqualTo(32);
        assertThat(new long[] {SchedTaskRecord.DISPATCH_NS, SchedTaskRecord.FINISH_NS, SchedTaskRecord.TASK_ID,
                SchedTaskRecord.FUNC_ID, SchedTaskRecord.CORE_ID, SchedTaskRecord.SCHEDULER_ID})
                .containsExactly(0, 8, 16, 24, 28, 30);
        assertThat(SchedPhaseRecord.LAYOUT.byteSize()).isEqualTo(64);
        assertThat(new long[] {SchedPhaseRecord.START_NS, SchedPhaseRecord.END_NS, SchedPhaseRecord.LOOP_ITER,
                SchedPhaseRecord.KIND_CODE, SchedPhaseRecord.TASKS_PROCESSED, SchedPhaseRecord.POP_HIT,
                SchedPhaseRecord.POP_MISS, SchedPhaseRecord.DEPTH_AT_START, SchedPhaseRecord.DEPTH_AT_END,
                SchedPhaseRecord.SCHEDULER_ID, SchedPhaseRecord.RESERVED})
                .containsExactly(0, 8, 16, 20, 24, 28, 32, 36, 42, 48, 50);
        assertThat(OrchPhaseRecord.LAYOUT.byteSize()).isEqualTo(32);
        assertThat(new long[] {OrchPhaseRecord.START_NS, OrchPhaseRecord.END_NS, OrchPhaseRecord.TASK_ID,
                OrchPhaseRecord.SUBMIT_IDX, OrchPhaseRecord.WINDOW_WAIT_NS}).containsExactly(0, 8, 16, 24, 28);
    }

    @Test
    void kindsNameTheirPrimaryTimestamp() {
        assertThat(CoreTaskRecord.KIND).isEqualTo(BufferKind.timed(0, "core-task", 32, 0));
        assertThat(SchedTaskRecord.KIND.timestampOffset()).isEqualTo(8);
        assertThat(SchedPhaseRecord.KIND).isEqualTo(BufferKind.timed(2, "sched-phase", 64, 0));
        assertThat(OrchPhaseRecord.KIND).isEqualTo(BufferKind.timed(3, "orch-phase", 32, 0));
        assertThat(Subsystem.SWIMLANE.kinds()).containsExactly(CoreTaskRecord.KIND, SchedTaskRecord.KIND,
                SchedPhaseRecord.KIND, OrchPhaseRecord.KIND);
    }

    @Test
    void coreTaskDecodesHandBuiltBytes() {
        MemorySegment seg = Bytes.hex("""
                08 07 06 05 04 03 02 01 | 00 10 00 00 00 00 00 00 | 05 00 00 00 01 00 00 00
                ff ff ff ff | 03 00 | 02 | 01""");
        CoreTaskRecord.View v = new CoreTaskRecord.View().wrap(seg, 0);
        assertThat(v.startNs()).isEqualTo(0x0102030405060708L);
        assertThat(v.endNs()).isEqualTo(0x1000L);
        assertThat(v.taskId()).isEqualTo((1L << 32) | 5);
        assertThat(v.funcId()).isEqualTo(-1);
        assertThat(v.coreId()).isEqualTo(3);
        assertThat(v.coreType()).isEqualTo(CoreType.CPU);
        assertThat(v.flags()).isEqualTo(CoreTaskRecord.FLAG_FAILED);
    }

    @Test
    void coreTaskWritesExactlyTheDocumentedBytes() {
        MemorySegment seg = Bytes.zeroed(32);
        new CoreTaskRecord.Encoder().wrap(seg, 0).startNs(0x0102030405060708L).endNs(0x1000L).taskId((1L << 32) | 5)
                .funcId(-1).coreId(3).coreType(CoreType.CPU).flags(CoreTaskRecord.FLAG_FAILED);
        assertThat(seg.toArray(JAVA_BYTE)).isEqualTo(Bytes.hex("""
                08 07 06 05 04 03 02 01 | 00 10 00 00 00 00 00 00 | 05 00 00 00 01 00 00 00
                ff ff ff ff | 03 00 | 02 | 01""").toArray(JAVA_BYTE));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void coreAndSchedTaskRoundTripAtUnalignedOffsets(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        MemorySegment seg = Bytes.zeroed(3 + 32 * 10);
        long[][] expect = new long[10][];
        SchedTaskRecord.Encoder e = new SchedTaskRecord.Encoder();
        for (int i = 0; i < 10; i++) {
            long[] f = {rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextInt(), rnd.nextInt(65536),
                    rnd.nextInt(65536)};
            expect[i] = f;
            e.wrap(seg, 3 + 32L * i).dispatchNs(f[0]).finishNs(f[1]).taskId(f[2]).funcId((int) f[3]).coreId((int) f[4])
                    .schedulerId((int) f[5]);
        }
        SchedTaskRecord.View v = new SchedTaskRecord.View();
        for (int i = 0; i < 10; i++) {
            v.wrap(seg, 3 + 32L * i);
            assertThat(new long[] {v.dispatchNs(), v.finishNs(), v.taskId(), v.funcId(), v.coreId(), v.schedulerId()})
                    .containsExactly(expect[i]);
        }
        new CoreTaskRecord.Encoder().wrap(seg, 3).startNs(11).endNs(22).taskId(33).funcId(44).coreId(65535)
                .coreType(CoreType.AIV).flags(0);
        CoreTaskRecord.View c = new CoreTaskRecord.View().wrap(seg, 3);
        assertThat(new long[] {c.startNs(), c.endNs(), c.taskId(), c.funcId(), c.coreId(), c.flags()})
                .containsExactly(11, 22, 33, 44, 65535, 0);
        assertThat(c.coreType()).isEqualTo(CoreType.AIV);
    }

    @Test
    void schedPhaseDecodesHandBuiltBytesAndSaturatesDepths() {
        MemorySegment seg = Bytes.hex("""
                64 00 00 00 00 00 00 00 | c8 00 00 00 00 00 00 00 | 07 00 00 00 | 01 00 00 00
                03 00 00 00 | 02 00 00 00 | 01 00 00 00 | 05 00 06 00 ff 7f | 00 00 01 00 02 00
                01 00 | 00000000000000000000000000 00""");
        SchedPhaseRecord.View v = new SchedPhaseRecord.View().wrap(seg, 0);
        assertThat(v.startNs()).isEqualTo(100);
        assertThat(v.endNs()).isEqualTo(200);
        assertThat(v.loopIter()).isEqualTo(7);
        assertThat(v.kind()).isEqualTo(SchedPhaseKind.DISPATCH);
        assertThat(v.tasksProcessed()).isEqualTo(3);
        assertThat(v.popHit()).isEqualTo(2);
        assertThat(v.popMiss()).isEqualTo(1);
        assertThat(new int[] {v.depthAtStart(0), v.depthAtStart(1), v.depthAtStart(2)}).containsExactly(5, 6, 32767);
        assertThat(new int[] {v.depthAtEnd(0), v.depthAtEnd(1), v.depthAtEnd(2)}).containsExactly(0, 1, 2);
        assertThat(v.schedulerId()).isEqualTo(1);

        MemorySegment out = Bytes.zeroed(64);
        out.fill((byte) 0x5a); // stale bytes of a recycled buffer must not survive in reserved fields
        new SchedPhaseRecord.Encoder().wrap(out, 0).startNs(100).endNs(200).loopIter(7).kind(SchedPhaseKind.DISPATCH)
                .tasksProcessed(3).popHit(2).popMiss(1).depthsAtStart(new int[] {5, 6, 100_000})
                .depthsAtEnd(new int[] {-4, 1, 2}).schedulerId(1);
        assertThat(out.toArray(JAVA_BYTE))
                .isEqualTo(seg.toArray(JAVA_BYTE));
    }

    @Test
    void orchPhaseRoundTripSaturatesTheWindowWait() {
        MemorySegment seg = Bytes.zeroed(32);
        new OrchPhaseRecord.Encoder().wrap(seg, 0).startNs(5).endNs(9).taskId(42).submitIdx(65535)
                .windowWaitNs(1L << 40);
        OrchPhaseRecord.View v = new OrchPhaseRecord.View().wrap(seg, 0);
        assertThat(new long[] {v.startNs(), v.endNs(), v.taskId(), v.submitIdx(), v.windowWaitNs()})
                .containsExactly(5, 9, 42, 65535, 0xFFFF_FFFFL);
    }

    @Test
    void viewRefusesARecordOutsideTheSegmentAndUnknownCodes() {
        MemorySegment seg = Bytes.zeroed(40);
        assertThatThrownBy(() -> new CoreTaskRecord.View().wrap(seg, 9)).isInstanceOf(IndexOutOfBoundsException.class);
        MemorySegment bad = Bytes.zeroed(64);
        bad.set(Le.I32, SchedPhaseRecord.KIND_CODE, 3);
        assertThatThrownBy(() -> new SchedPhaseRecord.View().wrap(bad, 0).kind())
                .isInstanceOf(BadInputException.class)
                .hasMessage("unknown scheduler phase kind code 3; expected one of 0 (COMPLETE), 1 (DISPATCH), "
                        + "2 (RELEASE), 6 (RESOLVE), 15 (IDLE)");
    }
}
