package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.AtomicFile;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.TaskId;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.OutputFile;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code pmu.csv} from the pmu chunk file, after the reference's PMU CSV: header
 * {@code core_id,task_id,func_id,core_type,total_ns,end_ns,<one column per counter>}, then one row per record,
 * core by core in the order each core ran its tasks; {@code task_id} as {@code 0x%016x} ({@link TaskId}); counter columns
 * named as the events were given (RFC 4180 quoting when a name holds a comma, e.g.
 * {@code "accel/sq_waves,se=2,sa=1/"}). Stateless.
 */
public final class PmuCsv {
    /** File name in the run directory. */
    public static final String FILE = "pmu.csv";

    private PmuCsv() {
    }

    /**
     * @param chunks the pmu chunk file, or null when there is none (header only)
     * @param names  the counter names, in record order (at most 8)
     * @param out    the file to write
     * @return what was written
     * @throws IOException when the file cannot be written
     */
    public static OutputFile write(ChunkReader chunks, List<String> names, Path out) throws IOException {
        long rows = AtomicFile.write(out, os -> rows(chunks, names, os));
        return OutputFile.written(FILE, rows);
    }

    private static long rows(ChunkReader chunks, List<String> names, OutputStream os) throws IOException {
        PmuRecord.View v = new PmuRecord.View();
        long rows;
        try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8))) {
            StringBuilder h = new StringBuilder("core_id,task_id,func_id,core_type,total_ns,end_ns");
            for (String n : names) {
                h.append(',').append(quote(n));
            }
            w.write(h.toString());
            w.newLine();
            StringBuilder row = new StringBuilder(160);
            rows = chunks == null ? 0 : ChunkRecords.forEach(chunks, PmuRecord.KIND, (core, seg, off) -> {
                v.wrap(seg, off);
                row.setLength(0);
                TaskId.append(row.append(core).append(','), v.taskId()).append(',')
                        .append(v.funcId()).append(',').append(v.coreType().name().toLowerCase()).append(',')
                        .append(v.totalNs()).append(',').append(v.endNs());
                for (int i = 0; i < names.size(); i++) {
                    row.append(',').append(v.counter(i));
                }
                w.write(row.toString());
                w.newLine();
            });
        }
        return rows;
    }

    /** @return {@code s}, quoted as RFC 4180 asks when it holds a comma, a quote or a line break */
    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
