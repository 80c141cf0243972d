package dev.dfx.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Count}: the noun is singular for exactly one, plural for every other count, zero included. */
class CountTest {
    @Test
    void exactlyOneIsSingularEveryOtherCountPlural() {
        assertThat(Count.of(1, "record")).isEqualTo("1 record");
        assertThat(Count.of(0, "record")).isEqualTo("0 records");
        assertThat(Count.of(2, "lane")).isEqualTo("2 lanes");
        assertThat(Count.of(4096, "buffer")).isEqualTo("4096 buffers");
        // an unsigned 32-bit field of all ones, converted as the callers do: 2^32 - 1
        assertThat(Count.of(Integer.toUnsignedLong(-1), "chunk")).isEqualTo("4294967295 chunks");
        assertThat(Count.of(Long.MAX_VALUE, "slot")).isEqualTo("9223372036854775807 slots");
    }
}
