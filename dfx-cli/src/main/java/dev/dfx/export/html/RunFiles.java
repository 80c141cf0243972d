package dev.dfx.export.html;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import dev.dfx.rundir.ChunkOnlyRun;
import dev.dfx.rundir.JsonSyntax;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.subsystem.args.ArgsJson;
import dev.dfx.runtime.subsystem.pmu.PmuCsv;
import dev.dfx.runtime.subsystem.scopes.ScopesJsonl;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The page's tables from a run directory's files, copied into the page's data as they are: {@code run} (run.json),
 * {@code pmu} (pmu.csv as {@code columns} and {@code data}, one column of values per column of the file in the form
 * {@link ColumnCodec#writeValues} writes, numbers as numbers, {@code task_id} and {@code core_type} as text), {@code scopes} (scopes.jsonl: {@code header} and {@code records}) and {@code taskArgs}
 * (args/args.json's {@code args[]}, joined to the task bars by {@code task_id}). Only outputs that run.json lists
 * as written are read; one that cannot be read is one damage line and is left out of the page. Stateless.
 */
final class RunFiles {
    private RunFiles() {
    }

    /** Writes the fields {@code run}, {@code pmu}, {@code scopes} and {@code taskArgs} (null where absent). */
    static void write(Path runDir, RunManifest m, JsonGenerator g, RunDamage damage) throws IOException {
        g.writeFieldName("run");
        // a stand-in manifest means run.json could not be read: that is already the export's first damage line
        g.writeObject(ChunkOnlyRun.is(m) ? null
                : read(ManifestFile.of(runDir), damage, p -> PageJson.MAPPER.readTree(p.toFile())));
        g.writeFieldName("pmu");
        g.writeObject(output(runDir, m, PmuCsv.FILE, damage, RunFiles::pmu));
        g.writeFieldName("scopes");
        g.writeObject(output(runDir, m, ScopesJsonl.FILE, damage, RunFiles::scopes));
        g.writeFieldName("taskArgs");
        g.writeObject(output(runDir, m, "args/" + ArgsJson.FILE, damage,
                p -> PageJson.MAPPER.readTree(p.toFile()).path("args")));
    }

    /** Reads one file into what Jackson writes as its JSON (a tree, or {@link PmuTable}). */
    private interface Reader {
        Object read(Path file) throws IOException;
    }

    /** pmu.csv's header and its values column by column. */
    private record PmuTable(List<String> columns, List<List<Object>> data) implements JsonSerializable {
        @Override
        public void serialize(JsonGenerator g, SerializerProvider provider) throws IOException {
            g.writeStartObject();
            g.writeFieldName("columns");
            g.writeObject(columns);
            g.writeArrayFieldStart("data");
            for (List<Object> column : data) {
                ColumnCodec.writeValues(g, column);
            }
            g.writeEndArray();
            g.writeEndObject();
        }

        @Override
        public void serializeWithType(JsonGenerator g, SerializerProvider provider, TypeSerializer type)
                throws IOException {
            serialize(g, provider);
        }
    }

    private static Object output(Path runDir, RunManifest m, String name, RunDamage damage, Reader reader) {
        boolean written = m.outputs().stream().anyMatch(o -> o.path().equals(name) && o.written());
        return written ? read(runDir.resolve(name), damage, reader) : null;
    }

    private static Object read(Path file, RunDamage damage, Reader reader) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return reader.read(file);
        } catch (IOException | RuntimeException e) {
            String why = e instanceof JacksonException j ? JsonSyntax.describe(j)
                    : String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            damage.add(file + ": cannot be read (" + why + "); left out of the page");
            return null;
        }
    }

    /** pmu.csv: {@code core_id,task_id,func_id,core_type,total_ns,end_ns,<counters>}. */
    private static PmuTable pmu(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String head = r.readLine();
            if (head == null) {
                throw new IOException("empty, no header line");
            }
            List<String> columns = List.of(head.split(",", -1));
            List<List<Object>> data = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) {
                data.add(new ArrayList<>());
            }
            long line = 1;
            for (String text = r.readLine(); text != null; text = r.readLine()) {
                line++;
                String[] cells = text.split(",", -1);
                if (cells.length != columns.size()) {
                    throw new IOException("line " + line + " has " + cells.length + " cells, the header "
                            + columns.size());
                }
                for (int c = 0; c < cells.length; c++) {
                    String col = columns.get(c);
                    data.get(c).add(col.equals("task_id") || col.equals("core_type") ? cells[c] : number(cells[c]));
                }
            }
            return new PmuTable(columns, data);
        }
    }

    private static Object number(String cell) {
        try {
            return Long.parseLong(cell);
        } catch (NumberFormatException e) {
            try {
                return Double.parseDouble(cell);
            } catch (NumberFormatException notNumber) {
                return cell;
            }
        }
    }

    /** scopes.jsonl: a header line, then one JSON object per scope entry or exit. */
    private static JsonNode scopes(Path file) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    lines.add(PageJson.MAPPER.readTree(line));
                }
            }
        }
        if (lines.isEmpty()) {
            throw new IOException("empty, no header line");
        }
        var node = PageJson.MAPPER.createObjectNode();
        node.set("header", lines.getFirst());
        node.set("records", PageJson.MAPPER.valueToTree(lines.subList(1, lines.size())));
        return node;
    }
}
