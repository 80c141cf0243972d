package dev.dfx.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.RecordKind;
import dev.dfx.record.Subsystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/** The kind tables of the five subsystems come from the record schemas and survive a chunk file round trip. */
class SubsystemKindTableTest {
    @TempDir
    Path run;

    @ParameterizedTest
    @EnumSource(Subsystem.class)
    void kindTableMirrorsTheRecordSchemasAndReadsBack(Subsystem s) throws Exception {
        List<BufferKind> table = BufferKind.table(s);
        List<RecordKind> kinds = s.kinds();
        assertThat(table).hasSameSizeAs(kinds);
        for (int id = 0; id < kinds.size(); id++) {
            RecordKind k = kinds.get(id);
            BufferKind b = table.get(id);
            assertThat(b.id()).isEqualTo(id);
            assertThat(b.name()).isEqualTo(k.name());
            assertThat(b.recordSize()).isEqualTo(k.size());
            assertThat(b.hasTimestamp()).isEqualTo(k.hasTimestamp());
            if (k.hasTimestamp()) {
                assertThat(b.timestampOffset()).isEqualTo(k.timestampOffset());
                assertThat(b.timestampWidth()).isEqualTo(8);
            }
        }
        RunId id = RunId.random();
        ChunkStore.create(run, id, s).close();
        try (ChunkReader r = ChunkReader.open(ChunkStore.file(run, s.id()))) {
            assertThat(r.subsystem()).isEqualTo(s.id());
            assertThat(r.runId()).contains(id);
            assertThat(r.kinds()).isEqualTo(table);
        }
    }

    @Test
    void timestampsOfSchemaRecordsAreReadWhereTheSchemaPutsThem() {
        // Offsets from the schema tables: core task start_ns @0, pmu end_ns @56 (dfx-core README).
        BufferKind core = BufferKind.of(0, CoreTaskRecord.KIND);
        BufferKind pmu = BufferKind.of(0, PmuRecord.KIND);
        MemorySegment rec = MemorySegment.ofArray(new byte[64]);
        rec.set(TestChunks.LE64, 0, 111);
        rec.set(TestChunks.LE64, 56, 222);
        assertThat(core.timestamp(rec, 0)).isEqualTo(111);
        assertThat(pmu.timestamp(rec, 0)).isEqualTo(222);
    }
}
