package dev.dfx.pmu.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SlotBitmapTest {

    @Test
    void claimsTheLowestFreeSlot() {
        SlotBitmap b = new SlotBitmap(3);
        assertThat(b.claim()).isZero();
        assertThat(b.claim()).isEqualTo(1);
        assertThat(b.claim()).isEqualTo(2);
        assertThat(b.claim()).isEqualTo(-1);
        b.release(1);
        assertThat(b.bits()).isEqualTo(0b101);
        assertThat(b.claim()).isEqualTo(1);
        assertThat(b.used()).isEqualTo(3);
    }

    @Test
    void sixtyFourSlotsAndMisuse() {
        SlotBitmap b = new SlotBitmap(64);
        for (int i = 0; i < 64; i++) {
            assertThat(b.claim()).isEqualTo(i);
        }
        assertThat(b.claim()).isEqualTo(-1);
        assertThat(b.bits()).isEqualTo(-1L);
        b.release(63);
        assertThat(b.claim()).isEqualTo(63);
        assertThatThrownBy(() -> new SlotBitmap(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SlotBitmap(65)).isInstanceOf(IllegalArgumentException.class);
        SlotBitmap c = new SlotBitmap(2);
        assertThatThrownBy(() -> c.release(0)).isInstanceOf(IllegalStateException.class);
    }
}
