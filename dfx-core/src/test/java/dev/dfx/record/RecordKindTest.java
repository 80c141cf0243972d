package dev.dfx.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import org.junit.jupiter.api.Test;

class RecordKindTest {

    @Test
    void aLayoutThatDoesNotAddUpToItsSizeFailsTheStaticCheck() {
        assertThatThrownBy(() -> Le.struct("broken", 32, Le.I64, Le.I64, Le.I64, Le.I32))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken record layout is 28 bytes, expected 32");
    }

    @Test
    void aTimestampMustLieInsideTheRecord() {
        assertThatThrownBy(() -> new RecordKind("x", "y", 16, 9, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timestamp offset 9");
        assertThat(new RecordKind("x", "y", 16, 8, 1, 1).timestampWidth()).isEqualTo(8);
    }

    @Test
    void subsystemsListTheirKindsAndRejectUnknownNames() {
        assertThat(Subsystem.of("pmu").kinds()).containsExactly(PmuRecord.KIND);
        assertThat(Subsystem.of("deps").kinds()).containsExactly(SubmitRecord.KIND);
        assertThat(Subsystem.of("args").kinds()).containsExactly(ArgRecord.KIND);
        assertThat(Subsystem.of("scopes").kinds()).containsExactly(ScopeRecord.KIND);
        for (Subsystem s : Subsystem.values()) {
            assertThat(s.kinds()).allSatisfy(k -> assertThat(k.subsystem()).isEqualTo(s.id()));
        }
        assertThatThrownBy(() -> Subsystem.of("swimlanes")).isInstanceOf(BadInputException.class)
                .hasMessage("unknown subsystem 'swimlanes'; expected one of swimlane, pmu, deps, args, scopes");
    }
}
