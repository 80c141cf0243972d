package dev.dfx.pmu.accel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class LocationTest {

    static Stream<Arguments> gfx12Vectors() {
        // perf-dkms test_dimension_decode.c, sa_count 2, wgp_per_sa 4
        return Stream.of(
                Arguments.of(0, 0, 0, 0), Arguments.of(0, 0, 1, 1), Arguments.of(0, 1, 0, 4), Arguments.of(1, 0, 0, 8),
                Arguments.of(2, 1, 3, 23), Arguments.of(0, 0, 3, 3), Arguments.of(0, 1, 3, 7), Arguments.of(3, 1, 3, 31),
                Arguments.of(0, 1, 1, 5));
    }

    @ParameterizedTest
    @MethodSource("gfx12Vectors")
    void encodeAndDecodeAsTheReference(int se, int sa, int wgp, int index) {
        Location loc = new Location(0, se, sa, wgp);
        assertThat(loc.index(Architecture.GFX12)).isEqualTo(index);
        assertThat(Location.of(Architecture.GFX12, index)).isEqualTo(loc);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gfx12", "gfx9"})
    void roundTripOverEveryLocation(String name) {
        Architecture a = Architecture.byName(name);
        Set<Location> seen = new HashSet<>();
        int expected = a.xccs() * a.ses() * a.sasPerSe() * Math.max(1, a.wgpsPerSa());
        assertThat(a.locations()).isEqualTo(expected);
        for (int xcc = 0; xcc < a.xccs(); xcc++) {
            for (int se = 0; se < a.ses(); se++) {
                for (int sa = 0; sa < a.sasPerSe(); sa++) {
                    for (int wgp = 0; wgp < Math.max(1, a.wgpsPerSa()); wgp++) {
                        Location loc = new Location(xcc, se, sa, wgp);
                        int i = loc.index(a);
                        assertThat(i).isBetween(0, a.locations() - 1);
                        assertThat(Location.of(a, i)).isEqualTo(loc);
                        assertThat(seen.add(loc)).isTrue();
                    }
                }
            }
        }
        assertThat(seen).hasSize(a.locations());
    }

    @Test
    void zeroWgpsPerSaKeepsSasDistinct() {
        // the reference's se*nsa*0 + sa*0 + wgp maps every GFX9 location to 0 and decode divides by zero
        Architecture gfx9 = Architecture.GFX9;
        assertThat(gfx9.wgpStride()).isEqualTo(1);
        assertThat(new Location(0, 3, 0, 0).index(gfx9)).isEqualTo(3);
        assertThat(Location.of(gfx9, 2)).isEqualTo(new Location(0, 2, 0, 0));
        assertThatThrownBy(() -> new Location(0, 0, 0, 1).index(gfx9)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Location.of(gfx9, 4)).isInstanceOf(IllegalArgumentException.class);
    }
}
