package dev.dfx.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.chunk.BufferKind;
import dev.dfx.error.BadInputException;
import org.junit.jupiter.api.Test;

class RecordSchemasTest {

    @Test
    void aLayoutThatDoesNotAddUpToItsSizeFailsTheStaticCheck() {
        assertThatThrownBy(() -> Le.struct("broken", 32, Le.I64, Le.I64, Le.I64, Le.I32))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken record layout is 28 bytes, expected 32");
    }

    @Test
    void aTimestampMustLieInsideTheRecord() {
        assertThatThrownBy(() -> BufferKind.timed(0, "y", 16, 9))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timestamp field at 9");
        assertThat(BufferKind.timed(0, "y", 16, 8).timestampWidth()).isEqualTo(8);
    }

    @Test
    void subsystemsListTheirKindsAndRejectUnknownNames() {
        assertThat(Subsystem.of("pmu").kinds()).containsExactly(PmuRecord.KIND);
        assertThat(Subsystem.of("deps").kinds()).containsExactly(SubmitRecord.KIND);
        assertThat(Subsystem.of("args").kinds()).containsExactly(ArgRecord.KIND);
        assertThat(Subsystem.of("scopes").kinds()).containsExactly(ScopeRecord.KIND);
        for (Subsystem s : Subsystem.values()) {
            assertThat(s.kinds()).allSatisfy(k -> assertThat(Subsystem.of(k)).isEqualTo(s));
        }
        assertThatThrownBy(() -> Subsystem.of("swimlanes")).isInstanceOf(BadInputException.class)
                .hasMessage("unknown subsystem 'swimlanes'; expected one of swimlane, pmu, deps, args, scopes");
    }
}
