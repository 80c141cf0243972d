package dev.dfx.perf.trace;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.read.InputErrors;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a HEADER_TRACING_DATA blob (the TRACING_DATA feature section, or the data that follows a
 * PERF_RECORD_HEADER_TRACING_DATA record in pipe mode): magic {@code "\x17\x08\x44tracing"}, version,
 * endianness, long and page size, header_page, header_event, ftrace and event formats per system,
 * kallsyms, printk formats and (version 0.6+) saved cmdlines ({@code trace-event-read.c}). perf stops reading the
 * blob at the first format whose name or id it cannot read, losing every later format and the symbols; dfx refuses
 * such a blob, as it refuses one whose sizes run past its end. A blob the end of the file cut ({@link #parseCut})
 * keeps what came whole before the cut. Stateless.
 */
public final class TracingDataParser {
    private static final byte[] MAGIC = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

    private TracingDataParser() {
    }

    /**
     * @param seg    the blob
     * @param errors names the file in errors
     * @param offset byte offset of the blob in the file, for errors
     * @return the parsed tracing data
     * @throws BadInputException when the blob is malformed or truncated
     */
    public static TraceEvents parse(MemorySegment seg, InputErrors errors, long offset) {
        return new Reader(seg, errors, offset, false).read();
    }

    /**
     * Reads the part of a blob that the end of the file cut (a TRACING_DATA feature section truncated at EOF): every
     * format whose bytes came whole before the cut is kept, with the parts after the formats that came whole (perf
     * 6.1 keeps the formats it parsed before its read fails; a cut inside kallsyms, the printk formats or the formats
     * crashes it, a cut that takes only a count it reads as 0 does not). What the cut took is named in
     * {@link TraceEvents#cutLoss()}.
     *
     * @param part   the blob's bytes up to the end of the file
     * @param errors names the file in errors
     * @param offset byte offset of the blob in the file, for errors and for what the cut took
     * @return the tracing data before the cut, or {@code null} when no format came whole before it
     * @throws BadInputException when a format that came whole is malformed, as {@link #parse} refuses it
     */
    public static TraceEvents parseCut(MemorySegment part, InputErrors errors, long offset) {
        return new Reader(part, errors, offset, true).read();
    }

    /** A format file of {@code system} at blob offset {@code at}. */
    private record Source(String system, String text, long at) {
    }

    /** The end of a cut blob, met where a read needs bytes past it: what was read before it is kept. */
    private static final class CutReached extends RuntimeException {
        CutReached() {
            super(null, null, false, false);
        }
    }

    private static final class Reader {
        private final MemorySegment seg;
        private final InputErrors errors;
        private final long offset;
        /** Whether the blob is cut by the end of the file: a read past its end then ends the reading, keeping the rest. */
        private final boolean cut;
        private long pos;
        private Endian e = Endian.LITTLE;
        /** The formats whose bytes were read, in blob order. */
        private final List<Source> formats = new ArrayList<>();
        /** Where the item being read began (a format, or a system's name and count), in the blob. */
        private long itemAt;

        Reader(MemorySegment seg, InputErrors errors, long offset, boolean cut) {
            this.seg = seg;
            this.errors = errors;
            this.offset = offset;
            this.cut = cut;
        }

        /** @return the tracing data; for a cut blob, what came before the cut, or {@code null} with no whole format */
        TraceEvents read() {
            try {
                return readAll();
            } catch (CutReached reached) { // only a cut blob's reads throw it
                // the header parts are read before any format: a cut there leaves nothing to keep
                return null;
            }
        }

        private TraceEvents readAll() {
            need(10, "magic");
            for (int i = 0; i < MAGIC.length; i++) {
                if (seg.get(ValueLayout.JAVA_BYTE, i) != MAGIC[i]) {
                    throw bad(0, "the tracing data does not start with the magic \\x17\\x08\\x44tracing");
                }
            }
            pos = 10;
            String version = cstring("version");
            need(2, "endianness and long size");
            boolean big = Endian.u8(seg, pos) != 0;
            e = big ? Endian.BIG : Endian.LITTLE;
            int longSize = Endian.u8(seg, pos + 1);
            pos += 2;
            int pageSize = (int) u32("page size");
            expectString("header_page");
            long hpSize = u64("header_page size");
            String headerPage = text(hpSize, "header_page");
            int commitSize = headerPageLongSize(headerPage);
            if (commitSize > 0) {
                longSize = commitSize;
            }
            expectString("header_event");
            long heSize = u64("header_event size");
            skip(heSize, "header_event");
            boolean cmdlinesToo = versionAtLeast06(version);
            List<KernelSymbols.Symbol> kallsyms = List.of();
            Map<Long, String> printk = Map.of();
            Map<Integer, String> cmdlines = new HashMap<>();
            // what a cut here takes: after the formats, the parts not yet read
            String lost = null;
            boolean formatsRead = false;
            try {
                readFormats();
                formatsRead = true;
                lost = "its kallsyms, printk formats" + (cmdlinesToo ? " and saved cmdlines" : "");
                kallsyms = kallsyms(text(u32("kallsyms size"), "kallsyms"));
                lost = "its printk formats" + (cmdlinesToo ? " and saved cmdlines" : "");
                printk = printk(text(u32("printk size"), "printk formats"));
                lost = cmdlinesToo ? "its saved cmdlines" : null;
                if (cmdlinesToo && (cut || pos < seg.byteSize())) {
                    cmdlines = cmdlines(text(u64("saved cmdlines size"), "saved cmdlines"));
                }
                lost = cut ? "only bytes after the parts dfx reads" : null;
            } catch (CutReached reached) {
                if (formats.isEmpty()) {
                    throw reached;
                }
                if (!formatsRead) {
                    lost = "the formats from byte offset " + (offset + itemAt) + " on, its kallsyms, printk formats"
                        + (cmdlinesToo ? " and saved cmdlines" : "");
                }
            }
            TraceEvents te = new TraceEvents(version, e, longSize, pageSize, printk, kallsyms, cmdlines);
            for (Source f : formats) {
                // a lowest-ID format without common_type is kept: it fails only the printing of raw records
                // (PerfSession#rawFormat), as perf 6.1 reads such a recording and crashes only in perf script
                te.add(parse(f, longSize), offset + f.at());
            }
            if (lost != null) {
                te.cut("its " + formats.size() + (formats.size() == 1 ? " format" : " formats") + "; lost " + lost,
                    !formatsRead);
            }
            return te;
        }

        /** The ftrace formats, then each system's event formats, into {@link #formats}. */
        private void readFormats() {
            itemAt = pos;
            long nFtrace = u32("ftrace event count");
            for (long i = 0; i < nFtrace; i++) {
                itemAt = pos;
                long size = u64("ftrace format size");
                formats.add(format("ftrace", size));
            }
            itemAt = pos;
            long nSystems = u32("event system count");
            for (long s = 0; s < nSystems; s++) {
                itemAt = pos;
                String system = cstring("system name");
                long nEvents = u32("event count");
                for (long i = 0; i < nEvents; i++) {
                    itemAt = pos;
                    long size = u64("event format size");
                    formats.add(format(system, size));
                }
            }
        }

        /** One format file and where it is in the blob. */
        private Source format(String system, long size) {
            long start = pos;
            return new Source(system, text(size, "format of " + system), start);
        }

        /**
         * perf parses every format as it reads the blob: one without a readable name or id ends the reading (and
         * loses every later format), and one libtraceevent cannot use safely crashes perf; dfx refuses both. A
         * format whose fields break off otherwise is kept as failed: its samples print {@code [FAILED TO PARSE]}.
         */
        private EventFormat parse(Source f, int longSize) {
            EventFormat ev = FormatParser.parse(f.text(), f.system(), longSize);
            if (ev == null) {
                throw bad(f.at(), "the " + f.system() + " format here has no readable name or ID line; expected"
                    + " \"name: NAME\" and \"ID: N\" first (perf stops reading the tracing data there)");
            }
            if (ev.unusable()) {
                throw bad(f.at(), "the format of " + ev.fullName() + " here is malformed where perf 6.1 cannot"
                    + " recover (a field line cut before its type, or __print_flags or __print_symbolic of a field"
                    + " it lacks); expected a well-formed tracepoint format");
            }
            return ev;
        }

        private static boolean versionAtLeast06(String v) {
            try {
                return Double.parseDouble(v) >= 0.6;
            } catch (NumberFormatException ex) {
                return false;
            }
        }

        /** The {@code commit} field of header_page is a kernel long. */
        private static int headerPageLongSize(String text) {
            for (String line : text.split("\n")) {
                if (line.contains(" commit;")) {
                    FormatField f = FormatParser.field(line.strip(), 8);
                    if (f != null) {
                        return f.size();
                    }
                }
            }
            return 0;
        }

        private static List<KernelSymbols.Symbol> kallsyms(String text) {
            List<KernelSymbols.Symbol> syms = new ArrayList<>();
            for (String line : text.split("\n")) {
                String[] p = line.trim().split("\\s+");
                if (p.length >= 3) {
                    try {
                        syms.add(new KernelSymbols.Symbol(p[2], Long.parseUnsignedLong(p[0], 16)));
                    } catch (NumberFormatException ignored) {
                        // perf skips malformed lines too
                    }
                }
            }
            // a lambda of this class, linked in the AOT cache; Comparator.comparing's own lambda is spun at run time
            syms.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
            return syms;
        }

        /** {@code addr : "fmt"} lines; quotes and a trailing {@code \n} are stripped ({@code tep_register_print_string}). */
        private static Map<Long, String> printk(String text) {
            Map<Long, String> map = new HashMap<>();
            for (String line : text.split("\n")) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                try {
                    String hex = line.substring(0, colon).trim();
                    long addr = Long.parseUnsignedLong(hex.startsWith("0x") ? hex.substring(2) : hex, 16);
                    String fmt = line.substring(colon + 1).trim();
                    if (fmt.startsWith("\"")) {
                        fmt = fmt.substring(1);
                    }
                    if (fmt.endsWith("\"")) {
                        fmt = fmt.substring(0, fmt.length() - 1);
                    }
                    if (fmt.endsWith("\\n")) {
                        fmt = fmt.substring(0, fmt.length() - 2);
                    }
                    map.put(addr, fmt);
                } catch (NumberFormatException ignored) {
                    // not an address line
                }
            }
            return map;
        }

        private static Map<Integer, String> cmdlines(String text) {
            Map<Integer, String> map = new HashMap<>();
            for (String line : text.split("\n")) {
                int sp = line.indexOf(' ');
                if (sp > 0) {
                    try {
                        map.put(Integer.parseInt(line.substring(0, sp)), line.substring(sp + 1));
                    } catch (NumberFormatException ignored) {
                        // skip
                    }
                }
            }
            return map;
        }

        private void expectString(String s) {
            String got = cstring(s);
            if (!got.equals(s)) {
                throw bad(pos - got.length() - 1, "tracing data has \"" + got + "\" here, expected \"" + s + "\"");
            }
        }

        private String cstring(String what) {
            long start = pos;
            while (pos < seg.byteSize() && seg.get(ValueLayout.JAVA_BYTE, pos) != 0) {
                pos++;
            }
            if (pos >= seg.byteSize()) {
                if (cut) {
                    throw new CutReached();
                }
                throw bad(start, "truncated tracing data " + what + ": no NUL before the end of the blob");
            }
            String s = Endian.cString(seg, start, pos - start);
            pos++;
            return s;
        }

        private long u32(String what) {
            need(4, what);
            long v = e.u32(seg, pos);
            pos += 4;
            return v;
        }

        private long u64(String what) {
            need(8, what);
            long v = e.u64(seg, pos);
            pos += 8;
            return v;
        }

        private String text(long size, String what) {
            need(size, what);
            byte[] b = seg.asSlice(pos, size).toArray(ValueLayout.JAVA_BYTE);
            pos += size;
            return new String(b, StandardCharsets.ISO_8859_1);
        }

        private void skip(long size, String what) {
            need(size, what);
            pos += size;
        }

        private void need(long n, String what) {
            if (n < 0 || n > seg.byteSize() - pos) {
                if (cut) {
                    throw new CutReached();
                }
                throw bad(pos, "truncated tracing data " + what + ": needs " + Long.toUnsignedString(n) + " bytes, "
                    + (seg.byteSize() - pos) + " left in the blob");
            }
        }

        private BadInputException bad(long at, String msg) {
            return errors.at(offset + at, msg);
        }
    }
}
