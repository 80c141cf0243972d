package dev.dfx.pmu.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import org.junit.jupiter.api.Test;

class OnlineCpusTest {
    @Test
    void parsesCpuLists() {
        assertThat(OnlineCpus.parse("0-3,6\n")).containsExactly(0, 1, 2, 3, 6);
        assertThat(OnlineCpus.parse("0")).containsExactly(0);
        assertThat(OnlineCpus.parse("1,3-4")).containsExactly(1, 3, 4);
        assertThatThrownBy(() -> OnlineCpus.parse("0-x")).isInstanceOf(BadInputException.class).hasMessageContaining("'0-x'");
        assertThatThrownBy(() -> OnlineCpus.parse("3-1")).isInstanceOf(BadInputException.class);
    }
}
