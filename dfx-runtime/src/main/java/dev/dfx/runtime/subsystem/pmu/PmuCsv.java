package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.TextBytes;
import dev.dfx.record.CoreType;
import dev.dfx.record.PmuRecord;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@code pmu.csv} from the pmu chunk file, after the reference's PMU CSV: header
 * {@code core_id,task_id,func_id,core_type,total_ns,end_ns,<one column per counter>}, then one row per record,
 * core by core in the order each core ran its tasks; {@code task_id} as {@code 0x%016x} ({@link dev.dfx.record.TaskId}); counter columns
 * named as the events were given (RFC 4180 quoting when a name holds a comma, e.g.
 * {@code "accel/sq_waves,se=2,sa=1/"}). Stateless.
 */
public final class PmuCsv {
    /** File name in the run directory. */
    public static final String FILE = "pmu.csv";
    /** Core type names as written, by ordinal: the enum name in lower case. */
    private static final byte[][] CORE_TYPES = Arrays.stream(CoreType.values())
            .map(t -> t.name().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private PmuCsv() {
    }

    /**
     * @param chunks the pmu chunk file, or null when there is none (header only)
     * @param names  the counter names, in record order (at most 8)
     * @param out    the file to write
     * @return what was written, sealed ({@link OutputSeal})
     * @throws IOException when the file cannot be written
     */
    public static OutputFile write(ChunkReader chunks, List<String> names, Path out) throws IOException {
        OutputSeal.Written<Long> w = OutputSeal.write(out, os -> rows(chunks, names, os));
        return w.seal(OutputFile.written(FILE, w.value()));
    }

    private static long rows(ChunkReader chunks, List<String> names, OutputStream os) throws IOException {
        PmuRecord.View v = new PmuRecord.View();
        // each row spelled straight into bytes: a flood run's csv is 65,536 rows of 6-14 integers
        TextBytes row = new TextBytes(os);
        byte[] newline = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);
        StringBuilder h = new StringBuilder("core_id,task_id,func_id,core_type,total_ns,end_ns");
        for (String n : names) {
            h.append(',').append(quote(n));
        }
        row.put(h.toString().getBytes(StandardCharsets.UTF_8)).put(newline);
        long rows = chunks == null ? 0 : ChunkRecords.forEach(chunks, PmuRecord.KIND, (core, seg, off) -> {
            v.wrap(seg, off);
            row.dec(core).put(',').taskId(v.taskId()).put(',').dec(v.funcId()).put(',')
                    .put(CORE_TYPES[v.coreType().ordinal()]).put(',').dec(v.totalNs()).put(',').dec(v.endNs());
            for (int i = 0; i < names.size(); i++) {
                row.put(',').dec(v.counter(i));
            }
            row.put(newline);
        });
        row.flush();
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
