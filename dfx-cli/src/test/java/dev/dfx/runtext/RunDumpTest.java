package dev.dfx.runtext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.text.TextSink;
import dev.dfx.rundir.RunDamage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx dump RUN} on {@link TestRun}: file header, chunk headers and records with their file offsets, raw bytes
 * and decoded fields, the index and trailer, and per-lane counts naming the lost buffer. Offsets are computed from
 * the chunk format: pmu.dfx's header is 40 (with the run id) + 8 (name "pmu") + 24 (kind "pmu") = 0x48 bytes, a chunk header 0x40,
 * the pmu record 0x40, the index 16 + 48 bytes and the trailer 32.
 */
class RunDumpTest {
    @TempDir
    Path dir;

    private String dump(Path run) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextSink out = new TextSink(bytes);
        RunDamage damage = new RunDamage();
        RunDump.print(run, out, damage);
        out.flush();
        assertThat(damage.lines()).as("TestRun writes chunk files only").containsExactly(TestRun.noManifest(run));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyHeaderAndRecordWithItsOffset() throws IOException {
        String d = dump(TestRun.write(dir.resolve("run")));
        assertThat(d).contains("""

            0@chunks/pmu.dfx [0x48]: chunk file header
            .
            . ... raw header: size 72 bytes
            .  0000:  44 46 58 43 48 55 4e 4b 03 00 01 00 48 00 00 00  DFXCHUNK....H...
            """);
        assertThat(d).contains("""
            0 [0x48]: DFX_CHUNK_FILE subsystem: pmu  version: 3  run: 0123456789abcdef0fedcba987654321  kinds: 1
             ... kind 0: pmu  record size: 64  timestamp: u64 ns at byte 56

            0x48@chunks/pmu.dfx [0x40]: chunk
            .
            . ... raw header: size 64 bytes
            .  0000:  43 48 4e 4b 00 00 00 00 00 00 00 00 40 00 00 00  CHNK........@...
            """);
        assertThat(d).contains("0x48 [0x40]: DFX_CHUNK kind: 0 (pmu)  lane: 0  seq: 0  records: 1 x 64 bytes"
            + "  first: 2000600000  last: 2000600000  payload crc: 0x");
        assertThat(d).contains("""

            0x88@chunks/pmu.dfx [0x40]: record 0
            .
            . ... raw record: size 64 bytes
            .  0000:  01 00 00 00 00 00 00 00 07 00 00 00 02 00 00 00  ................
            """);
        assertThat(d).contains("""
            2000600000 0x88 [0x40]: pmu:pmu lane 0: task_id=0x0000000000000001 func_id=7 core_type=2 total_ns=50000 counters=[11,22] \
            end_ns=2000600000

            0xc8 [0x40]: DFX_CHUNK_INDEX entries: 1
            0x108 [0x20]: DFX_CHUNK_TRAILER

            Aggregated stats: chunks/pmu.dfx
                         pmu lane    0: chunks: 1  records: 1  missing buffers: 0  repeated: 0
            """);
    }

    @Test
    void untimedRecordsAndLostBuffers() throws IOException {
        String d = dump(TestRun.write(dir.resolve("run")));
        // deps records are sparse, so their chunks are stored zero-block encoded: records are decoded, and their
        // offsets are within the chunk's payload (task 3 is the first record of its chunk)
        assertThat(d).contains(" ... zero-block encoded: ");
        assertThat(d).contains("\n- 0 [0x1240]: deps:submit lane 0: task_id=0x0000000000000003 flags=0 ");
        assertThat(d).contains("\n- 0x1240 [0x1240]: deps:submit lane 0: task_id=0x0000000000000002 flags=0 ");
        assertThat(d).contains("""
            Aggregated stats: chunks/deps.dfx
                      submit lane    0: chunks: 2  records: 3  missing buffers: 1  repeated: 0  gap 1..1
            """);
        // files in name order: deps, pmu, swimlane
        assertThat(d.indexOf("@chunks/deps.dfx")).isLessThan(d.indexOf("@chunks/pmu.dfx"));
        assertThat(d.indexOf("@chunks/pmu.dfx")).isLessThan(d.indexOf("@chunks/swimlane.dfx"));
        assertThat(d).contains("swimlane:sched-phase lane 0: start_ns=2000500000 end_ns=2000510000 ");
    }
}
