package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A copy of a file-mode tracepoint recording cut inside its TRACING_DATA feature section, as a recording whose
 * writer died while writing its header features, and what dfx's lines about it say, read from the file's header by
 * hand: the header's data section (u64 offset and size at bytes 40 and 48) is followed by the feature table, whose
 * first entry is TRACING_DATA (feature bit 1, the lowest one there is). {@link #of} cuts inside the first event
 * format, so that every format is lost; {@link #at} cuts where it is told, at an offset of the section's
 * {@link Layout}. Little-endian files only.
 *
 * @param file     the cut copy
 * @param table    byte offset of the feature table (the TRACING_DATA entry)
 * @param config   byte offset of the first tracepoint event's {@code attr.config}
 * @param why      how the section was cut, as dfx names it
 * @param noFormat the warning's start up to its hint: the tracepoint events that lost their formats (what dfx read
 *                 instead of the features cut follows the hint)
 * @param refusal  the line dfx refuses a script of the first tracepoint event's trace field with
 */
record TracingDataCut(Path file, long table, long config, String why, String noFormat, String refusal) {
    /** {@code PERF_TYPE_TRACEPOINT}. */
    private static final int TRACEPOINT = 2;
    /** Offset of {@code config} in {@code struct perf_event_attr} (after type, size). */
    private static final int CONFIG = 8;

    /**
     * @param recording a file-mode recording with tracepoint events and a TRACING_DATA section
     * @param dir       where the cut copy {@code cut.data} is written
     */
    static TracingDataCut of(Path recording, Path dir) throws IOException {
        Layout l = Layout.of(recording);
        return at(recording, dir, (l.formats().getFirst() + (l.formats().size() > 1 ? l.formats().get(1) : l.kallsyms())) / 2);
    }

    /**
     * @param recording a file-mode recording with tracepoint events and a TRACING_DATA section
     * @param dir       where the cut copy {@code cut.data} is written
     * @param cut       where the copy ends, a byte offset inside the TRACING_DATA section
     */
    static TracingDataCut at(Path recording, Path dir, long cut) throws IOException {
        byte[] full = Files.readAllBytes(recording);
        ByteBuffer bb = ByteBuffer.wrap(full).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(bb.getLong(72) & 2).as("the TRACING_DATA feature bit").isEqualTo(2);
        long table = bb.getLong(40) + bb.getLong(48);
        long off = bb.getLong((int) table);
        long size = bb.getLong((int) table + 8);
        assertThat(cut).as("a cut inside the section").isBetween(off + 1, off + size - 1);
        Path file = dir.resolve("cut.data");
        Files.write(file, Arrays.copyOf(full, (int) cut));
        int entry = (int) bb.getLong(16);
        long attrs = bb.getLong(24);
        List<Integer> tracepoints = new ArrayList<>();
        for (int i = 0; i < bb.getLong(32) / entry; i++) {
            if (bb.getInt((int) attrs + i * entry) == TRACEPOINT) {
                tracepoints.add(i + 1);
            }
        }
        assertThat(tracepoints).as("tracepoint events").isNotEmpty();
        long config = attrs + (long) (tracepoints.getFirst() - 1) * entry + CONFIG;
        String why = "the TRACING_DATA feature section [" + off + ", +" + size + ") truncated at EOF " + cut
            + " (the section ends at byte " + (off + size) + ")";
        String noFormat = "dfx: warning: " + file + ": byte offset " + config + ": " + (tracepoints.size() == 1
            ? "tracepoint event " + tracepoints.getFirst() + " (config " + bb.getLong((int) config) + ") has no format: "
            + why + "; its samples" : "tracepoint events " + ranges(tracepoints) + " have no format: " + why
            + "; their samples") + " are read without their tracepoint fields";
        String refusal = "dfx: " + file + ": byte offset " + config + ": tracepoint event " + tracepoints.getFirst()
            + " (config " + bb.getLong((int) config) + ") has no format: " + why + "; expected the format of every"
            + " tracepoint event whose fields are printed (-F without trace prints the rest)";
        return new TracingDataCut(file, table, config, why, noFormat, refusal);
    }

    /**
     * Where the parts of a recording's TRACING_DATA section lie, as byte offsets in the file, read by hand after
     * perf's {@code trace-event-info.c}: magic, version, endianness, long size, page size, header_page, header_event,
     * the ftrace formats, each system's event formats, kallsyms (u32 size), printk formats (u32 size), saved cmdlines
     * (u64 size).
     *
     * @param start    the section's start
     * @param end      the section's end
     * @param formats  where each format (its u64 size) starts, ftrace ones first
     * @param kallsyms where the kallsyms size is, just after the last format
     * @param printk   where the printk formats' size is
     * @param printkSize the size of the printk formats
     * @param cmdlines where the saved cmdlines' size is
     */
    record Layout(long start, long end, List<Long> formats, long kallsyms, long printk, long printkSize,
                  long cmdlines) {
        static Layout of(Path recording) throws IOException {
            ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(recording)).order(ByteOrder.LITTLE_ENDIAN);
            long table = bb.getLong(40) + bb.getLong(48);
            int start = (int) bb.getLong((int) table);
            long end = start + bb.getLong((int) table + 8);
            int p = start + 10;
            p = afterNul(bb, p) + 2 + 4; // version, endianness and long size, page size
            for (int i = 0; i < 2; i++) { // header_page, header_event: a name, a u64 size and the text
                p = afterNul(bb, p);
                p += 8 + (int) bb.getLong(p);
            }
            List<Long> formats = new ArrayList<>();
            int ftrace = bb.getInt(p);
            p += 4;
            for (int i = 0; i < ftrace; i++) {
                formats.add((long) p);
                p += 8 + (int) bb.getLong(p);
            }
            int systems = bb.getInt(p);
            p += 4;
            for (int s = 0; s < systems; s++) {
                p = afterNul(bb, p);
                int events = bb.getInt(p);
                p += 4;
                for (int i = 0; i < events; i++) {
                    formats.add((long) p);
                    p += 8 + (int) bb.getLong(p);
                }
            }
            int kallsyms = p;
            p += 4 + bb.getInt(p);
            int printk = p;
            long printkSize = bb.getInt(p);
            p += 4 + (int) printkSize;
            assertThat(p + 8 + bb.getLong(p)).as("the section's end after its saved cmdlines").isEqualTo(end);
            return new Layout(start, end, List.copyOf(formats), kallsyms, printk, printkSize, p);
        }

        private static int afterNul(ByteBuffer bb, int p) {
            while (bb.get(p) != 0) {
                p++;
            }
            return p + 1;
        }
    }

    /** @return the 1-based event numbers as ranges: {@code 1-3, 5} */
    private static String ranges(List<Integer> numbers) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < numbers.size(); i++) {
            int from = numbers.get(i);
            while (i + 1 < numbers.size() && numbers.get(i + 1) == numbers.get(i) + 1) {
                i++;
            }
            b.append(b.isEmpty() ? "" : ", ").append(from).append(numbers.get(i) > from ? "-" + numbers.get(i) : "");
        }
        return b.toString();
    }

    /**
     * Checks a command's standard error: the one warning for the cut, that the events have no format with {@code hint}
     * after it, then that the file was read without the features cut (TRACING_DATA first, and the sections after it in
     * the file).
     */
    void assertWarning(String err, String hint) {
        assertThat(err.lines().toList()).as(err).singleElement().asString()
            .startsWith(noFormat + hint + "; read the file without the ").contains(" features cut: TRACING_DATA, ");
    }
}
