package dev.dfx.runtime.subsystem.scopes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The header maxima of scopes.jsonl from hand-made records, with hand-computed values. */
class ScopeHighWaterTest {
    private final MemorySegment seg = MemorySegment.ofArray(new byte[ScopeRecord.SIZE]);
    private final ScopeRecord.View view = new ScopeRecord.View();
    private final ScopeRecord.Encoder record = new ScopeRecord.Encoder();
    private final ScopeHighWater max = new ScopeHighWater();

    /** One record: (tail, head) of task window, heap, dep pool. */
    private void add(ScopePhase phase, int depth, long taskTail, long taskHead, long heapTail, long heapHead,
                     long depTail, long depHead, int tensorMap) {
        record.wrap(seg, 0).timeNs(1).siteFile("X.java").siteLine(1).heapStart(heapTail).heapEnd(heapHead)
                .taskStart(taskTail).taskEnd(taskHead).depPoolStart(depTail).depPoolEnd(depHead).tensorMapUsed(tensorMap)
                .depth(depth).ringId(Math.min(depth, 3)).phase(phase);
        max.add(view.wrap(seg, 0));
    }

    @Test
    void eachMaximumIsTheLargestScopeHighWaterOrInstant() {
        add(ScopePhase.BEGIN, 0, 0, 0, 0, 0, 0, 0, 0);
        add(ScopePhase.BEGIN, 1, 0, 0, 0, 0, 0, 0, 0);
        add(ScopePhase.END, 1, 10, 10, 64, 64, 5, 5, 2);       // a scope that allocated 64 B and released them
        add(ScopePhase.BEGIN, 1, 10, 10, 64, 64, 5, 5, 2);
        add(ScopePhase.END, 1, 10, 12, 192, 200, 6, 7, 3);     // 128 B inside; 8 B of the root's still live
        add(ScopePhase.END, 0, 20, 20, 200, 200, 7, 7, 1);
        assertThat(max.depthMax()).isEqualTo(1);
        assertThat(max.tensorMapMax()).isEqualTo(3);
        assertThat(max.heapMax()).as("root: 200 - 0").isEqualTo(200);
        assertThat(max.taskWindowMax()).as("root: 20 - 0").isEqualTo(20);
        assertThat(max.depPoolMax()).as("root: 7 - 0").isEqualTo(7);
    }

    @Test
    void anInnerScopeCanHoldTheMaximumAndWrappedCountersStaySmall() {
        add(ScopePhase.BEGIN, 0, 0, 0, 0, 0, 0, 0, 0);
        add(ScopePhase.BEGIN, 1, 0xFFFF_FFF0L, 0xFFFF_FFF0L, 0, 0, 0, 0, 0); // ring 1 near the 32-bit wrap
        add(ScopePhase.END, 1, 0x1_0000_0010L, 0x1_0000_0010L, 0, 0, 0, 0, 0);
        add(ScopePhase.END, 0, 3, 3, 0, 0, 0, 0, 0);
        assertThat(max.taskWindowMax()).as("0x10 - 0xfffffff0 modulo 2^32").isEqualTo(32);
    }

    @Test
    void anExitWhoseEntryWasLostCountsOnlyForItsInstant() {
        add(ScopePhase.END, 1, 0, 4, 10, 50, 0, 0, 0);
        assertThat(max.taskWindowMax()).isEqualTo(4);
        assertThat(max.heapMax()).isEqualTo(40);
    }
}
