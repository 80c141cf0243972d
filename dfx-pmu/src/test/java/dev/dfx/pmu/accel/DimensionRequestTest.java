package dev.dfx.pmu.accel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Vectors of perf-dkms test_dimension_helpers.c and dimension_test.sh (reference §1.8, §6). */
class DimensionRequestTest {

    @Test
    void extractsFieldsAsTheReferenceTests() {
        long c = (2L << 8) | (1L << 16) | (3L << 24);
        DimensionRequest r = DimensionRequest.decode(c, Set.of("config1"));
        assertThat(r.value(Dimension.SE)).isEqualTo(2);
        assertThat(r.value(Dimension.SA)).isEqualTo(1);
        assertThat(r.value(Dimension.WGP)).isEqualTo(3);
        assertThat(r.value(Dimension.XCC)).isZero();
        assertThat(r.value(Dimension.CU)).isZero();
        assertThat(r.aggregate()).isFalse();
        assertThat(r.broadcast()).isFalse();
        assertThat(DimensionRequest.decode(5L << 32, Set.of("cu")).value(Dimension.CU)).isEqualTo(5);
        long all = 0xFFL | 0xFFL << 8 | 0xFFL << 16 | 0xFFL << 24 | 0xFFL << 32;
        DimensionRequest max = DimensionRequest.decode(all, Set.of("config1"));
        for (Dimension d : Dimension.values()) {
            assertThat(max.value(d)).isEqualTo(255);
        }
        assertThat(DimensionRequest.decode((1L << 8) | (1L << 40), Set.of("se", "aggregate")).aggregate()).isTrue();
        assertThat(DimensionRequest.decode(1L << 40, Set.of("aggregate")).aggregate()).isTrue();
        DimensionRequest none = DimensionRequest.decode(0, Set.of());
        assertThat(none.broadcast()).isTrue();
    }

    @Test
    void anExplicitZeroIsARequest() {
        // the reference cannot tell se=0 from no se; dfx tracks the terms given
        DimensionRequest se0 = DimensionRequest.decode(0, Set.of("config", "se"));
        assertThat(se0.broadcast()).isFalse();
        assertThat(se0.given()).containsExactly(Dimension.SE);
        // a raw config1 word carries no presence: its non-zero fields count as given
        DimensionRequest raw = DimensionRequest.decode(0x00010200L, Set.of("config1"));
        assertThat(raw.given()).containsExactlyInAnyOrder(Dimension.SE, Dimension.SA);
        assertThat(DimensionRequest.decode(0x0100L, Set.of("config1")).given()).containsExactly(Dimension.SE);
        DimensionRequest three = DimensionRequest.decode(0x02010300L, Set.of("config1"));
        assertThat(three.value(Dimension.SE)).isEqualTo(3);
        assertThat(three.value(Dimension.SA)).isEqualTo(1);
        assertThat(three.value(Dimension.WGP)).isEqualTo(2);
    }

    @Test
    void encodesTheLayout() {
        Map<Dimension, Integer> v = new EnumMap<>(Dimension.class);
        v.put(Dimension.SE, 2);
        v.put(Dimension.SA, 1);
        v.put(Dimension.WGP, 3);
        assertThat(DimensionRequest.encode(v, false)).isEqualTo(0x03010200L);
        assertThat(DimensionRequest.encode(Map.of(Dimension.SE, 1), false)).isEqualTo(0x0100L);
        assertThat(DimensionRequest.encode(Map.of(Dimension.CU, 5), true)).isEqualTo((5L << 32) | (1L << 40));
        assertThatThrownBy(() -> DimensionRequest.encode(Map.of(Dimension.SE, 256), false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reservedBitsAreRejected() {
        assertThatThrownBy(() -> DimensionRequest.decode(1L << 41, Set.of("config1")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("bits 41-63 are reserved");
    }
}
