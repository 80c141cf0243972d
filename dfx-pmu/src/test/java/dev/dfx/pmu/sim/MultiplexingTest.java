package dev.dfx.pmu.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.TestPmus;
import dev.dfx.pmu.accel.ActivityModel;
import dev.dfx.pmu.accel.Block;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * GFX12's TA block has 2 counter slots. Each 10 ms period runs one task on core 0 of 1000 ns, so
 * {@code ta_ta_busy} grows by cycles / 2 = 2000 / 2 = 1000 per period (broadcast).
 */
class MultiplexingTest {
    private static final long PERIOD = 10_000_000;
    private static final long X = 1000;

    private final PmuSystem sys = TestPmus.fake();
    private final ActivityModel model = sys.accelModel();
    private final AtomicLong clock = new AtomicLong();
    private final EventContext ctx = new EventContext(clock::get);

    private SimEvent open(String spec, SimEvent leader) {
        return ctx.open(sys.catalog().resolve(spec).getFirst(), sys.accel(), leader);
    }

    private void period() {
        model.onTask(0, 0, 0, 1000, 0, 0);
        clock.addAndGet(PERIOD);
    }

    @Test
    void threeEventsOnTwoSlotsRotateAndScale() {
        SimEvent a = open("accel/ta_ta_busy,name=A/", null);
        SimEvent b = open("accel/ta_ta_busy,name=B/", null);
        SimEvent c = open("accel/ta_ta_busy,name=C/", null);
        List.of(a, b, c).forEach(ctx::enable);
        assertThat(List.of(a.state(), b.state(), c.state()))
                .containsExactly(SimEvent.State.ACTIVE, SimEvent.State.ACTIVE, SimEvent.State.INACTIVE);
        assertThat(sys.accel().slotsInUse(Block.TA)).isEqualTo(2);
        period();                 // A, B count X
        ctx.tick();               // A rotates to the end: [B, C, A] -> B, C
        assertThat(ctx.leaders()).containsExactly(b, c, a);
        period();                 // B, C count X
        ctx.tick();               // [C, A, B] -> C, A
        assertThat(ctx.leaders()).containsExactly(c, a, b);
        period();                 // C, A count X
        ctx.tick();               // [A, B, C] -> A, B
        for (SimEvent e : List.of(a, b, c)) {
            CounterReading r = ctx.read(e);
            assertThat(r.value()).isEqualTo(2 * X);
            assertThat(r.enabled()).isEqualTo(3 * PERIOD);
            assertThat(r.running()).isEqualTo(2 * PERIOD);
            assertThat(r.scaledValue()).isEqualTo(3 * X);   // 2X * 30 ms / 20 ms: the true total
            assertThat(r.runningPercent()).isCloseTo(66.67, Offset.offset(0.01));
        }
    }

    @Test
    void groupsAreAllOrNothingAndOtherBlocksAreNotHeldBack() {
        SimEvent g = open("accel/ta_ta_busy,name=G1/", null);
        SimEvent g2 = open("accel/ta_ta_busy,name=G2/", g);
        SimEvent c = open("accel/ta_ta_busy,name=C/", null);
        SimEvent waves = open("accel/sq_waves/", null);     // SQ has its own 8 slots
        List.of(g, g2, c, waves).forEach(ctx::enable);
        // the group takes both TA slots; C waits; SQ runs regardless
        assertThat(List.of(g.state(), g2.state(), c.state(), waves.state())).containsExactly(
                SimEvent.State.ACTIVE, SimEvent.State.ACTIVE, SimEvent.State.INACTIVE, SimEvent.State.ACTIVE);
        period();
        ctx.tick();   // group rotates out: [C, waves, G] -> C takes a slot, the group (needs 2) does not fit
        assertThat(List.of(g.state(), g2.state(), c.state())).containsExactly(
                SimEvent.State.INACTIVE, SimEvent.State.INACTIVE, SimEvent.State.ACTIVE);
        period();
        ctx.tick();   // C rotates out: [waves, G, C] -> the group runs again
        period();
        assertThat(ctx.read(g).value()).isEqualTo(2 * X);
        assertThat(ctx.read(g2).running()).isEqualTo(2 * PERIOD);
        assertThat(ctx.read(c).value()).isEqualTo(X);
        CounterReading w = ctx.read(waves);
        assertThat(w.running()).isEqualTo(w.enabled()).isEqualTo(3 * PERIOD);
        assertThat(w.value()).isEqualTo(3);   // one wave per zero-flop task
    }

    @Test
    void aGroupThatCanNeverFitIsRefusedAtOpen() {
        SimEvent g = open("accel/ta_ta_busy/", null);
        open("accel/ta_ta_busy,se=1/", g);
        assertThatThrownBy(() -> open("accel/ta_ta_busy,se=2/", g))
                .isInstanceOf(BadInputException.class)
                .hasMessage("group of 'accel/ta_ta_busy/' needs 3 slots of accel block TA, which has 2; split the group");
    }

    @Test
    void disabledEventsKeepTheirCountAndStopTheirTimes() {
        SimEvent a = open("accel/grbm_count/", null);
        ctx.enable(a);
        period();
        ctx.disable(a);
        period();
        CounterReading r = ctx.read(a);
        assertThat(r.value()).isEqualTo(2000);
        assertThat(r.enabled()).isEqualTo(PERIOD);
        ctx.enable(a);
        period();
        assertThat(ctx.read(a).value()).isEqualTo(4000);
        ctx.close(a);
        assertThat(ctx.leaders()).isEmpty();
        assertThat(sys.accel().slotsInUse(Block.GRBM)).isZero();
    }
}
