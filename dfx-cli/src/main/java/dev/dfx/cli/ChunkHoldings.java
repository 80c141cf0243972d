package dev.dfx.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.UnfinishedRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the chunk files of a run that did not finish hold ({@link UnfinishedRun}: its run.json says running and has no
 * counts), for {@code dfx report} and {@code dfx audit}: one row per subsystem, buffer kind and lane with its chunks
 * and records, the lane's writer where the run names it (a program's thread, from the strings file or the region file
 * the recorder left, {@link UnfinishedRun#program}), and the sum. Drops, stalls and watermarks are only in the final
 * run.json, so the table has none. As text or as a JSON object. Stateless.
 */
final class ChunkHoldings {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One lane of one kind in one chunk file: its chunks and records. */
    private record Row(String subsystem, String kind, int lane, String writer, long chunks, long records) {
    }

    private ChunkHoldings() {
    }

    /**
     * Prints the table: a heading that names the run and says it did not finish, then the rows and their sum.
     *
     * @param run     the run directory
     * @param m       its run.json, which says running
     * @param readers its chunk files that could be opened
     */
    static void text(Path run, RunManifest m, List<ChunkReader> readers, PrintWriter out) {
        List<Row> rows = rows(run, m, readers);
        out.printf(Locale.ROOT, "dfx run %s: %s, status running (the recording did not finish: drops, stalls and"
                + " watermarks are unknown)%n", run, what(m));
        out.println("what the chunk files hold:");
        out.printf(Locale.ROOT, "%-9s %-16s %5s %7s %11s  %s%n", "subsystem", "kind", "lane", "chunks", "records",
                "writer");
        long chunks = 0;
        long records = 0;
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-9s %-16s %5d %7d %11d  %s%n", r.subsystem(), r.kind(), r.lane(), r.chunks(),
                    r.records(), r.writer() == null ? "" : r.writer());
            chunks += r.chunks();
            records += r.records();
        }
        out.printf(Locale.ROOT, "%-9s %-16s %5s %7d %11d%n", "all", "", "", chunks, records);
        out.flush();
    }

    /**
     * @return the same as {@link #text}, as a JSON-ready map: {@code run_dir}, {@code status}, {@code command} or
     *         {@code workload}, {@code counts} (unknown) and {@code chunk_files[]} (subsystem, kind, lane, writer or
     *         null, chunks, records)
     */
    static Map<String, Object> json(Path run, RunManifest m, List<ChunkReader> readers) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run_dir", run.toString());
        root.put("status", m.status());
        root.put(m.program() != null ? "command" : "workload", m.program() != null ? m.program().command()
                : m.workload().name());
        root.put("counts", UnfinishedRun.UNKNOWN); // drops, stalls and watermarks: only in the final run.json
        List<Map<String, Object>> lanes = new ArrayList<>();
        for (Row r : rows(run, m, readers)) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("subsystem", r.subsystem());
            e.put("kind", r.kind());
            e.put("lane", r.lane());
            e.put("writer", r.writer());
            e.put("chunks", r.chunks());
            e.put("records", r.records());
            lanes.add(e);
        }
        root.put("chunk_files", lanes);
        return root;
    }

    /** Prints {@link #json} as one JSON object. */
    static void printJson(Path run, RunManifest m, List<ChunkReader> readers, PrintWriter out) {
        try {
            out.println(JSON.writeValueAsString(json(run, m, readers)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.flush();
    }

    /** @return the program's command line or the workload's name */
    private static String what(RunManifest m) {
        return m.program() != null ? String.join(" ", m.program().command()) : m.workload().name();
    }

    /** @return the rows in file order, each file's by kind and lane */
    private static List<Row> rows(Path run, RunManifest m, List<ChunkReader> readers) {
        ProgramReport program = m.program() != null ? UnfinishedRun.program(run, m) : null;
        List<Row> rows = new ArrayList<>();
        for (ChunkReader r : readers) {
            // (kind << 32 | lane) -> {chunks, records}
            TreeMap<Long, long[]> lanes = new TreeMap<>();
            for (ChunkInfo c : r.chunks()) {
                long[] n = lanes.computeIfAbsent((long) c.kind() << 32 | (c.lane() & 0xFFFF_FFFFL), k -> new long[2]);
                n[0]++;
                n[1] += Integer.toUnsignedLong(c.recordCount());
            }
            boolean programLanes = program != null && r.subsystem().equals(ProgramReport.SUBSYSTEM);
            lanes.forEach((key, n) -> {
                int lane = (int) (long) key;
                rows.add(new Row(r.subsystem(), r.kind((int) (key >>> 32)).name(), lane,
                        programLanes ? program.writer(lane) : null, n[0], n[1]));
            });
        }
        return rows;
    }
}
