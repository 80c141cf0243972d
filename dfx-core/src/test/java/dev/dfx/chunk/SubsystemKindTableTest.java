package dev.dfx.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.Subsystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/** The kind tables of the five subsystems are the record schemas' kinds and survive a chunk file round trip. */
class SubsystemKindTableTest {
    @TempDir
    Path run;

    @ParameterizedTest
    @EnumSource(Subsystem.class)
    void kindTableIsTheRecordSchemasKindsAndReadsBack(Subsystem s) throws Exception {
        List<BufferKind> table = s.kinds();
        for (int id = 0; id < table.size(); id++) {
            BufferKind b = table.get(id);
            assertThat(b.id()).isEqualTo(id);
            if (b.hasTimestamp()) {
                assertThat(b.timestampWidth()).isEqualTo(8);
            }
        }
        RunId id = RunId.random();
        ChunkStore.create(run, id, s.id(), table).close();
        try (ChunkReader r = ChunkReader.open(ChunkStore.file(run, s.id()))) {
            assertThat(r.subsystem()).isEqualTo(s.id());
            assertThat(r.runId()).contains(id);
            assertThat(r.kinds()).isEqualTo(table);
        }
    }

    @Test
    void timestampsOfSchemaRecordsAreReadWhereTheSchemaPutsThem() {
        // Offsets from the schema tables: core task start_ns @0, pmu end_ns @56 (dfx-core README).
        BufferKind core = CoreTaskRecord.KIND;
        BufferKind pmu = PmuRecord.KIND;
        MemorySegment rec = MemorySegment.ofArray(new byte[64]);
        rec.set(TestChunks.LE64, 0, 111);
        rec.set(TestChunks.LE64, 56, 222);
        assertThat(core.timestamp(rec, 0)).isEqualTo(111);
        assertThat(pmu.timestamp(rec, 0)).isEqualTo(222);
    }
}
