package dev.dfx.perf.header;

import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.feature.FeatureParser;
import dev.dfx.perf.feature.HeaderFeatureRecord;
import dev.dfx.perf.read.FileHeader;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.text.TextSink;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the header of a recording as {@code perf report --header-only} (perf 6.1) does
 * ({@code header.c perf_header__fprintf_info}): the file layout, each feature present in bit order, the
 * missing features; in pipe mode the layout, then each HEADER_FEATURE record as it arrives in the stream.
 * The {@code # captured on} line is the input's modification time in the local time zone (not stored in
 * the file). Not thread-safe.
 */
public final class HeaderPrinter {
    private static final DateTimeFormatter CTIME =
        DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

    private final PerfSession session;
    private final boolean full;
    private final TextSink out;
    /** Whose modification time {@code # captured on} shows; null for none (the time of printing). */
    private final Path capturedFrom;

    /**
     * A printer whose {@code # captured on} is the modification time of the file named as the session is.
     *
     * @param session a session whose records have not been iterated (pipe mode reads up to the features)
     * @param full    {@code -I}: print details of full-only features
     */
    public HeaderPrinter(PerfSession session, boolean full, TextSink out) {
        this(session, full, out, pathOrNull(session.name()));
    }

    /**
     * @param session      a session whose records have not been iterated (pipe mode reads up to the features)
     * @param full         {@code -I}: print details of full-only features
     * @param capturedFrom the file whose modification time {@code # captured on} shows, as perf's fstat of its input:
     *                     the recording, or for standard input {@code /proc/self/fd/0} (a file redirected to it, or
     *                     the pipe, whose time is its last write); the time of printing where it does not exist
     */
    public HeaderPrinter(PerfSession session, boolean full, TextSink out, Path capturedFrom) {
        this.session = session;
        this.full = full;
        this.out = out;
        this.capturedFrom = capturedFrom;
    }

    private static Path pathOrNull(String name) {
        try {
            return Path.of(name);
        } catch (RuntimeException e) {
            return null; // a name that is no path (a stream's)
        }
    }

    /** Prints the header. */
    public void print() {
        FileHeader h = session.file().header();
        out.put("# ========\n");
        out.put("# captured on    : ").put(capturedOn()).put('\n');
        out.put("# header version : 1\n");
        out.put("# data offset    : ").udec(h.pipe() ? 0 : h.dataOffset()).put('\n');
        out.put("# data size      : ").udec(h.pipe() ? 0 : h.dataSize()).put('\n');
        out.put("# feat offset    : ").udec(h.pipe() ? 0 : h.featureOffset()).put('\n');
        if (h.pipe()) {
            out.put("# ========\n#\n");
            pipeFeatures();
            return;
        }
        Map<Integer, MemorySegment> features = session.features();
        FeaturePrinter fp = new FeaturePrinter(session.evlist().all(), full);
        int nrCpusAvail = FeatureParser.nrCpusAvail(features, h.endian());
        for (Map.Entry<Integer, MemorySegment> f : features.entrySet()) {
            fp.print(FeatureParser.parse(Feature.ofBit(f.getKey()), f.getValue(), h.endian(), nrCpusAvail), out);
        }
        out.put("# missing features: ");
        for (Feature f : Feature.values()) {
            if (!h.hasFeature(f.bit())) {
                out.put(f.name()).put(' ');
            }
        }
        out.put("\n# ========\n#\n");
    }

    /**
     * Pipe mode: prints the features of the HEADER_FEATURE records alone, without the layout block around them, as
     * {@code perf report} shows a stream's feature records where it prints no header ({@code -I} without
     * {@code --header}, or {@code -q}). Reads the session's records up to the end-of-features marker.
     */
    public void printPipeFeatures() {
        pipeFeatures();
    }

    /**
     * Pipe mode: features are printed as their records arrive, until the end-of-features marker. A feature is
     * printed as far as it could be read before the session refuses a cut-off one.
     */
    private void pipeFeatures() {
        Map<Integer, MemorySegment> seen = new HashMap<>();
        FeaturePrinter fp = new FeaturePrinter(session.evlist().all(), full);
        Iterator<TimedRecord> it = session.fileOrder();
        while (it.hasNext()) {
            PerfRecord r = it.next().record();
            if (r.type() != RecordType.HEADER_FEATURE || r.size() < HeaderFeatureRecord.DATA_OFFSET) {
                continue;
            }
            long bit = r.u64(HeaderFeatureRecord.FEAT_ID_OFFSET);
            Feature f = bit > 0 && bit < Feature.LAST_6_1 ? Feature.ofBit((int) bit) : null;
            if (f == null) {
                if (bit == Feature.LAST_6_1) {
                    return;
                }
                continue;
            }
            MemorySegment data = HeaderFeatureRecord.data(r);
            seen.put((int) bit, data);
            fp.print(FeatureParser.parse(f, data, r.endian(), FeatureParser.nrCpusAvail(seen, r.endian())), out);
        }
    }

    private String capturedOn() {
        try {
            if (capturedFrom != null && Files.exists(capturedFrom)) {
                ZonedDateTime t = Files.getLastModifiedTime(capturedFrom).toInstant().atZone(ZoneId.systemDefault());
                return CTIME.format(t);
            }
        } catch (IOException | RuntimeException e) {
            // fall through: no file to stat (a stream)
        }
        return CTIME.format(ZonedDateTime.now());
    }
}
