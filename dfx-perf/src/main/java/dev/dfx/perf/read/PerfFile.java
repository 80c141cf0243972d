package dev.dfx.perf.read;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.Feature;
import dev.dfx.pmu.attr.PerfEventAttr;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An opened perf.data input: a file (mapped read-only into a {@link MemorySegment}, file or pipe format) or
 * a pipe-mode stream. Gives the header, for file mode the attrs section and the feature sections
 * ({@code header.c perf_session__read_header}), and the data section as a {@link RecordSource}. Records are
 * read in place, never all at once. {@link #close()} unmaps the file. Not thread-safe.
 */
public final class PerfFile implements AutoCloseable {
    private static final long PIPE_HEADER = 16;
    private static final long FILE_HEADER = 104;
    /** A feature table entry: {@code struct perf_file_section {u64 offset; u64 size}}. */
    private static final int FEATURE_ENTRY_SIZE = 16;

    private final String name;
    private final Arena arena;
    private final MemorySegment seg;
    private final InputStream stream;
    /** Whether {@link #close()} closes {@link #stream}: a FIFO this class opened, not a caller's stream. */
    private boolean ownsStream;
    private final FileHeader header;
    private final List<AttrEntry> attrs;
    private final Map<Integer, MemorySegment> features;
    private final Map<Integer, String> cutFeatures;
    /** The bytes before the end of the file of each feature section that starts inside it and is cut by it. */
    private final Map<Integer, MemorySegment> cutParts;
    /** The warning that named the features cut, as added, or {@code null} when none was. */
    private final CutWarning cutWarning;
    /** What a reader kept of each cut section it read up to the cut, as the warning names it; by feature bit. */
    private final Map<Integer, String> keptParts = new LinkedHashMap<>();
    private final Warnings warnings;
    private final InputErrors errors;
    /** The file, mapped as {@link #seg}, its data section read by {@link FileRecordSource}; null for a stream. */
    private final FileChannel channel;

    private PerfFile(String name, Arena arena, MemorySegment seg, FileChannel channel, InputStream stream,
                     FileHeader header, List<AttrEntry> attrs, Map<Integer, MemorySegment> features, Map<Integer, String> cutFeatures,
                     Map<Integer, MemorySegment> cutParts, CutWarning cutWarning, Warnings warnings) {
        this.name = name;
        this.cutFeatures = cutFeatures;
        this.cutParts = cutParts;
        this.cutWarning = cutWarning;
        this.warnings = warnings;
        this.arena = arena;
        this.seg = seg;
        this.channel = channel;
        this.stream = stream;
        this.header = header;
        this.attrs = attrs;
        this.features = features;
        this.errors = new InputErrors(name, header.pipe() ? PIPE_HEADER : 0);
    }

    /**
     * Opens a perf.data file (file or pipe format): maps it for its header, attrs and feature sections and keeps it
     * open for {@link #rawRecords()}, which reads the data section with read(2) ({@link FileRecordSource}). A FIFO
     * ({@code -i <(perf record -o - ...)}) is read as a pipe-mode stream, which is all a FIFO can carry, and closed
     * with this file.
     *
     * @param path the file
     * @param name how the file is named in messages and dumps (perf uses the {@code -i} argument as given)
     * @throws BadInputException when the file is missing, empty, not a file or FIFO (a device, a socket), or its
     *         header or attrs are unreadable
     */
    public static PerfFile open(Path path, String name) {
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            return openSpecial(path, name);
        }
        Arena arena = Arena.ofShared();
        FileChannel ch = null;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
            long size = ch.size();
            if (size == 0) {
                throw new BadInputException(name + ": zero-sized file, nothing to do");
            }
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return fromSegment(seg, arena, ch, name);
        } catch (NoSuchFileException e) {
            throw abandon(new BadInputException(name + ": no such file", e), arena, ch);
        } catch (IOException e) {
            throw abandon(new BadInputException(name + ": cannot read: " + e.getMessage(), e), arena, ch);
        } catch (RuntimeException e) {
            throw abandon(e, arena, ch);
        }
    }

    /** @return {@code e}, after unmapping and closing what a failed {@link #open(Path, String)} had opened */
    private static RuntimeException abandon(RuntimeException e, Arena arena, FileChannel ch) {
        arena.close();
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
        return e;
    }

    /** A path that exists and is not a regular file: a FIFO is read as a stream; anything else is refused. */
    private static PerfFile openSpecial(Path path, String name) {
        String kind = FileKind.of(path);
        if (!kind.equals(FileKind.FIFO)) {
            throw new BadInputException(name + ": not a perf.data file but " + kind + "; give a file, or '-' for a"
                + " pipe-mode stream on standard input");
        }
        InputStream in;
        try {
            in = Files.newInputStream(path);
        } catch (IOException e) {
            throw new BadInputException(name + ": cannot read: " + e.getMessage(), e);
        }
        try {
            PerfFile f = open(in, name);
            f.ownsStream = true;
            return f;
        } catch (RuntimeException e) {
            try {
                in.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Opens a pipe-mode stream ({@code perf record -o -}).
     *
     * @param in   the stream, positioned at its start
     * @param name name for messages
     * @throws BadInputException when the stream does not start with a pipe-mode header, or cannot be read (the
     *                           operating system's reason, e.g. a directory given as standard input)
     */
    public static PerfFile open(InputStream in, String name) {
        byte[] h = new byte[(int) PIPE_HEADER];
        try {
            int n = in.readNBytes(h, 0, h.length);
            if (n < h.length) {
                throw new BadInputException(name + ": byte offset 0: truncated pipe header (" + n
                    + " of 16 bytes); expected a pipe-mode perf.data stream");
            }
        } catch (IOException e) {
            // the input's failure, not the output's: one line naming the stream (a directory given as standard
            // input fails here with EISDIR)
            throw new BadInputException(name + ": byte offset 0: cannot read the stream: " + IoErrors.describe(e)
                + "; expected a pipe-mode perf.data stream", e);
        }
        MemorySegment hs = MemorySegment.ofArray(h);
        Endian e = endianOf(hs, name);
        long size = e.u64(hs, 8);
        if (size != PIPE_HEADER) {
            throw new BadInputException(name + ": byte offset 8: header size " + Long.toUnsignedString(size)
                + " is not a pipe header (16); a file-mode perf.data must be given as a file, not a stream");
        }
        FileHeader fh = new FileHeader(e, true, size, 0, 0, 0, 0, 0, new long[4]);
        return new PerfFile(name, null, null, null, in, fh, List.of(), Map.of(), Map.of(), Map.of(), null,
            new Warnings());
    }

    private static PerfFile fromSegment(MemorySegment seg, Arena arena, FileChannel channel, String name) {
        if (seg.byteSize() < PIPE_HEADER) {
            throw new BadInputException(name + ": byte offset 0: file of " + seg.byteSize()
                + " bytes is shorter than a perf.data header (16 bytes at least)");
        }
        Endian e = endianOf(seg, name);
        long size = e.u64(seg, 8);
        if (size == PIPE_HEADER) {
            FileHeader fh = new FileHeader(e, true, size, 0, 0, 0, 0, 0, new long[4]);
            return new PerfFile(name, arena, seg, channel, null, fh, List.of(), Map.of(), Map.of(), Map.of(), null,
                new Warnings());
        }
        if (size != FILE_HEADER && size != 72) {
            throw new BadInputException(name + ": byte offset 8: header size " + Long.toUnsignedString(size)
                + ", expected 104 (file mode) or 16 (pipe mode)");
        }
        if (seg.byteSize() < size) {
            throw new BadInputException(name + ": byte offset 0: truncated header: the file has " + seg.byteSize()
                + " bytes, the header " + size);
        }
        long[] feats = new long[4];
        if (size == FILE_HEADER) {
            for (int i = 0; i < 4; i++) {
                feats[i] = e.u64(seg, 72 + 8L * i);
            }
        }
        FileHeader fh = new FileHeader(e, false, size, e.u64(seg, 16), e.u64(seg, 24), e.u64(seg, 32),
            e.u64(seg, 40), e.u64(seg, 48), feats);
        InputErrors errors = new InputErrors(name, 0);
        Warnings warnings = new Warnings();
        // the attrs section comes before the data in the header and in the file: a file cut inside it is named
        // there, not by the data section that the cut took with it
        List<AttrEntry> attrs = readAttrs(seg, fh, errors, warnings);
        if (outside(fh.dataOffset(), 0, seg.byteSize())) {
            throw new BadInputException(name + ": byte offset 40: data section offset "
                + Long.toUnsignedString(fh.dataOffset()) + " lies outside the file (" + seg.byteSize() + " bytes)");
        }
        if (dataEnd(fh, seg.byteSize()) < 0) {
            // a data section running past the end of the file is read up to the cut (a truncated recording);
            // one ending past 2^63 bytes (a u64 offset + size that overflows) is damage, not a cut
            throw new BadInputException(name + ": byte offset 40: data section " + section(fh.dataOffset(), fh.dataSize())
                + " runs past the end of the file (" + seg.byteSize() + " bytes) and past 2^63 bytes; expected it to"
                + " end inside the file");
        }
        Map<Integer, MemorySegment> features = new LinkedHashMap<>();
        Map<Integer, String> cut = new LinkedHashMap<>();
        Map<Integer, MemorySegment> cutParts = new LinkedHashMap<>();
        // data.size 0: perf record did not finish, so the feature table (after the data) was never written
        CutWarning cutWarning = fh.dataSize() != 0 ? readFeatures(seg, fh, features, cut, cutParts, errors, warnings)
            : null;
        return new PerfFile(name, arena, seg, channel, null, fh, attrs, Collections.unmodifiableMap(features),
            Collections.unmodifiableMap(cut), Collections.unmodifiableMap(cutParts), cutWarning, warnings);
    }

    private static Endian endianOf(MemorySegment seg, String name) {
        long le = Endian.LITTLE.u64(seg, 0);
        if (le == FileHeader.MAGIC2) {
            return Endian.LITTLE;
        }
        if (Endian.BIG.u64(seg, 0) == FileHeader.MAGIC2) {
            return Endian.BIG;
        }
        String magic = Endian.cString(seg, 0, 8);
        if (magic.equals("PERFFILE")) {
            throw new BadInputException(name + ": byte offset 0: perf.data version 1 (magic PERFFILE) is not supported;"
                + " expected PERFILE2");
        }
        throw new BadInputException(name + ": byte offset 0: not a perf.data file: the magic is 0x"
            + Long.toHexString(le) + ", expected \"PERFILE2\"");
    }

    private static List<AttrEntry> readAttrs(MemorySegment seg, FileHeader fh, InputErrors errors, Warnings warnings) {
        String name = errors.name();
        long entry = fh.attrSize();
        if (fh.attrsSize() == 0) {
            return List.of();
        }
        if (entry < PerfEventAttr.SIZE_VER0 + 16 || entry > 4096) {
            throw new BadInputException(name + ": byte offset 16: attr_size " + entry + ", expected "
                + (PerfEventAttr.SIZE_VER0 + 16) + ".." + (PerfEventAttr.SIZE_VER8 + 16) + " (attr.size + 16)");
        }
        if (outside(fh.attrsOffset(), fh.attrsSize(), seg.byteSize())) {
            throw new BadInputException(name + ": byte offset 24: attrs section " + section(fh.attrsOffset(),
                fh.attrsSize()) + cutOrPast(fh.attrsOffset(), fh.attrsSize(), seg.byteSize()));
        }
        Endian e = fh.endian();
        List<AttrEntry> out = new ArrayList<>();
        for (long off = fh.attrsOffset(); off + entry <= fh.attrsOffset() + fh.attrsSize(); off += entry) {
            long declared = e.u32(seg, off + 4);
            long attrSize = declared == 0 ? PerfEventAttr.SIZE_VER0 : declared;
            if (attrSize != entry - 16) {
                // perf reads each attr's ids pointer right after attr.size bytes; a size that disagrees with
                // attr_size puts it (and every later attr) somewhere else
                throw new BadInputException(name + ": byte offset " + (off + 4) + ": attr.size " + declared
                    + " of the attr at byte offset " + off + ", expected " + (entry - 16)
                    + " (attr_size at byte offset 16 minus the 16-byte ids section pointer)");
            }
            PerfEventAttr attr = PerfEventAttr.read(seg, off, (int) attrSize, e.order());
            AttrTail.check(seg, off, attrSize, off, errors, warnings);
            long idsOff = e.u64(seg, off + entry - 16);
            long idsSize = e.u64(seg, off + entry - 8);
            if (outside(idsOff, idsSize, seg.byteSize())) {
                throw new BadInputException(name + ": byte offset " + (off + entry - 16) + ": ids section "
                    + section(idsOff, idsSize) + " of the attr at byte offset " + off
                    + cutOrPast(idsOff, idsSize, seg.byteSize()));
            }
            if (idsSize % 8 != 0) {
                throw new BadInputException(name + ": byte offset " + (off + entry - 8) + ": ids section "
                    + section(idsOff, idsSize) + " of the attr at byte offset " + off
                    + " has a size that is not a multiple of 8 (u64 ids)");
            }
            long[] ids = new long[(int) (idsSize / 8)];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = e.u64(seg, idsOff + 8L * i);
            }
            out.add(new AttrEntry(attr, ids, off));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Reads the feature table into {@code out}. A section or table entry that the end of the file cuts (a truncated
     * recording) is left out and named in {@code cut}, a section's bytes before the cut kept in {@code parts}; the
     * first is named in one warning that lists them all, and the records are still read.
     *
     * @return that warning, or {@code null} when no feature was cut or the records name the cut
     */
    private static CutWarning readFeatures(MemorySegment seg, FileHeader fh, Map<Integer, MemorySegment> out,
                                     Map<Integer, String> cut, Map<Integer, MemorySegment> parts, InputErrors errors,
                                     Warnings warnings) {
        long at = fh.featureOffset();
        Endian e = fh.endian();
        if (dataEnd(fh, seg.byteSize()) > seg.byteSize()) {
            // the data section is cut: the records name the cut, and the feature table after them went with it
            for (int bit = 1; bit < 256; bit++) {
                if (fh.hasFeature(bit) && Feature.ofBit(bit) != null) {
                    cut.put(bit, "the data section before the feature table is truncated at EOF " + seg.byteSize());
                }
            }
            return null;
        }
        String first = null;
        long firstAt = -1;
        for (int bit = 1; bit < 256; bit++) {
            if (!fh.hasFeature(bit)) {
                continue;
            }
            Feature f = Feature.ofBit(bit);
            String why = null;
            long entryAt = at;
            if (at < 0 || at > seg.byteSize() - FEATURE_ENTRY_SIZE) {
                why = "the feature table entry at byte offset " + Long.toUnsignedString(at) + " is truncated at EOF "
                    + seg.byteSize();
            } else if (f != null) {
                long off = e.u64(seg, at);
                long size = e.u64(seg, at + 8);
                if (outside(off, size, seg.byteSize())) {
                    why = "the " + f + " feature section " + section(off, size) + cutOrPast(off, size,
                        seg.byteSize());
                    if (cutByEnd(off, size, seg.byteSize())) {
                        parts.put(bit, seg.asSlice(off));
                    }
                } else {
                    out.put(bit, seg.asSlice(off, size));
                }
            } // unknown features are skipped, as perf does
            at += FEATURE_ENTRY_SIZE;
            if (why != null && f != null) {
                cut.put(bit, why);
                if (first == null) {
                    first = why;
                    firstAt = entryAt;
                }
            }
        }
        if (first == null) {
            return null;
        }
        CutWarning w = new CutWarning(firstAt, first, List.copyOf(cut.keySet()));
        warnings.add(errors, w.offset(), w.what(Map.of()));
        return w;
    }

    /**
     * The warning naming the features cut: its byte offset, the first cut's text and the bits of every feature cut.
     */
    private record CutWarning(long offset, String first, List<Integer> bits) {
        /**
         * @param kept what a reader kept of the sections it read up to the cut, by feature bit
         * @return the warning's text, as given to {@link Warnings#add}: the first cut, then {@link #reading}
         */
        String what(Map<Integer, String> kept) {
            return first + "; " + reading(kept);
        }

        /**
         * @param kept what a reader kept of the sections it read up to the cut, by feature bit
         * @return what dfx read instead of the sections cut: {@code "read the file without the 3 features cut: A, B,
         *         C"}, or with {@code kept} {@code "read A up to the cut (WHAT) and the file without the 2 other
         *         features cut: B, C"}
         */
        String reading(Map<Integer, String> kept) {
            List<String> without = bits.stream().filter(b -> !kept.containsKey(b))
                .map(b -> Feature.ofBit(b).toString()).toList();
            StringBuilder b = new StringBuilder("read ");
            kept.forEach((bit, what) -> b.append(Feature.ofBit(bit)).append(" up to the cut (").append(what)
                .append(") and "));
            String other = kept.isEmpty() ? "" : "other ";
            if (without.isEmpty()) {
                b.setLength(b.length() - " and ".length());
            } else if (bits.size() == 1) {
                b.append("the file without this feature");
            } else {
                b.append("the file without ").append(without.size() == 1 ? "the " + other + "feature cut: "
                    : "the " + without.size() + " " + other + "features cut: ").append(String.join(", ", without));
            }
            return b.toString();
        }
    }

    /**
     * @return how section {@code [off, +size)} fails to fit a file of {@code fileSize} bytes: {@code " truncated at
     *         EOF N"} when it starts inside the file and the file ends before it does (a cut recording), else
     *         (it starts past the end, or ends past 2^63 bytes: damage, not a cut) that it runs past the end
     */
    private static String cutOrPast(long off, long size, long fileSize) {
        if (cutByEnd(off, size, fileSize)) {
            return " truncated at EOF " + fileSize + " (the section ends at byte " + Long.toUnsignedString(off + size)
                + ")";
        }
        return " runs past the end of the file (" + fileSize + " bytes)";
    }

    /**
     * @return whether section {@code [off, +size)} starts inside a file of {@code fileSize} bytes and ends past its
     *         end, before 2^63 bytes: a cut recording, whose bytes before the cut are the section's start
     */
    private static boolean cutByEnd(long off, long size, long fileSize) {
        return off >= 0 && off < fileSize && size > 0 && size <= Long.MAX_VALUE - off;
    }

    /**
     * @return where the data section ends: {@code data.offset + data.size}, the end of the file when data.size is 0
     *         (perf record did not finish: perf 6.1 warns and fails; dfx reads on to the end, see
     *         {@link #rawRecords()}), or -1 when the u64 sum passes 2^63
     */
    private static long dataEnd(FileHeader fh, long fileSize) {
        if (fh.dataSize() == 0) {
            return fileSize;
        }
        return fh.dataSize() < 0 || fh.dataOffset() > Long.MAX_VALUE - fh.dataSize() ? -1
            : fh.dataOffset() + fh.dataSize();
    }

    /** @return {@code [off, +size)} with both u64 fields unsigned, as the messages name a section */
    private static String section(long off, long size) {
        return "[" + Long.toUnsignedString(off) + ", +" + Long.toUnsignedString(size) + ")";
    }

    /** @return whether {@code [off, off + size)} (u64 fields) is not inside {@code [0, fileSize)} */
    private static boolean outside(long off, long size, long fileSize) {
        return off < 0 || size < 0 || off > fileSize - size;
    }

    /**
     * @param bit a feature bit
     * @return the feature's bytes from its section's start to the end of the file, or {@code null} when the file
     *         has no such section: perf reads a feature section from the file descriptor, so counts inside it that
     *         run past the section's end read on into the bytes after it
     */
    public MemorySegment featureThroughEnd(int bit) {
        long off = featureOffset(bit);
        return off < 0 ? null : seg.asSlice(off);
    }

    /** @return byte offset of feature {@code bit}'s section in the file, or -1 when there is none */
    public long featureOffset(int bit) {
        return offsetOf(features.get(bit));
    }

    /**
     * @param bit a feature bit
     * @return the bytes of feature {@code bit}'s section that the file holds, from the section's start to the end of
     *         the file, when the end of the file cut the section ({@link #cutFeature} names it); otherwise {@code
     *         null}
     */
    public MemorySegment cutFeaturePart(int bit) {
        return cutParts.get(bit);
    }

    /** @return byte offset of the section of {@link #cutFeaturePart}{@code (bit)}, or -1 when there is none */
    public long cutFeaturePartOffset(int bit) {
        return offsetOf(cutParts.get(bit));
    }

    /** @return byte offset of a slice of the mapped file, or -1 for none */
    private long offsetOf(MemorySegment part) {
        if (part == null || seg == null) {
            return -1;
        }
        return part.address() - seg.address(); // feature sections are slices of the mapped file
    }

    /**
     * Says in the warning that named the features cut that a reader read feature {@code bit}'s section up to the
     * cut, and what of it that kept ({@code "read TRACING_DATA up to the cut (KEPT) and the file without the 20 other
     * features cut: ..."}); the warning keeps its place. Nothing happens when no warning named the cut.
     *
     * @param bit  a feature bit of {@link #cutFeaturePart}
     * @param kept what was kept and what the cut took, in the reader's words
     */
    public void keepCutFeaturePart(int bit, String kept) {
        if (cutWarning == null) {
            return;
        }
        String before = cutWarning.what(keptParts);
        keptParts.put(bit, kept);
        warnings.reword(errors, cutWarning.offset(), before, cutWarning.what(keptParts));
    }

    /** @return the name used in messages and dumps */
    public String name() {
        return name;
    }

    /**
     * @return builds the error messages for damage in this input, at byte offsets of the input (record offsets
     *         of pipe mode, which perf counts from the end of the pipe header, get the 16 header bytes back)
     */
    public InputErrors errors() {
        return errors;
    }

    /** @return the header */
    public FileHeader header() {
        return header;
    }

    /** @return the byte order */
    public Endian endian() {
        return header.endian();
    }

    /** @return whether the data is in pipe format */
    public boolean pipe() {
        return header.pipe();
    }

    /** @return attrs-section entries (empty in pipe mode) */
    public List<AttrEntry> attrs() {
        return attrs;
    }

    /** @return feature sections by bit (file mode; empty in pipe mode, where features arrive as records) */
    public Map<Integer, MemorySegment> features() {
        return features;
    }

    /**
     * @return the mapped file, valid until {@link #close()} (the header, feature sections and AUXTRACE payloads are
     *         read from it), or {@code null} for a stream
     */
    public MemorySegment segment() {
        return seg;
    }

    /** @return the size of the input in bytes, or -1 for a stream */
    public long size() {
        return seg == null ? -1 : seg.byteSize();
    }

    /** @return a fresh reader of the raw data-section records in file order */
    public RecordSource rawRecords() {
        if (stream != null) {
            return new StreamRecordSource(stream, endian(), errors());
        }
        RecordSource records = pipe()
            ? new FileRecordSource(channel, seg, endian(), PIPE_HEADER, seg.byteSize(), PIPE_HEADER, errors())
            : new FileRecordSource(channel, seg, endian(), header.dataOffset(), dataEnd(header, seg.byteSize()), 0,
                errors());
        if (pipe() || header.dataSize() != 0) {
            return records;
        }
        warnings.add(errors(), 48, "data section size is 0 (was perf record properly terminated?); read the"
            + " records from byte " + header.dataOffset() + " to the end of the file (" + seg.byteSize() + " bytes)");
        return unterminated(records);
    }

    /**
     * The records of a file whose data.size is 0 (perf record was killed before it rewrote the header): perf 6.1
     * warns "data size field is 0 ... Was the 'perf record' command properly terminated?" and reads nothing. dfx
     * reads the records from the data offset to the end of the file, with a warning: when they end exactly at the
     * end of the file, nothing was lost; a torn record there is named as damage.
     */
    private RecordSource unterminated(RecordSource records) {
        return () -> {
            try {
                return records.next();
            } catch (BadInputException e) {
                // garbage after the records (a complete file whose size field was zeroed) reads as damage there
                throw new BadInputException(e.getMessage() + " (read on to the end of the file because the data"
                    + " section size at byte offset 48 is 0)", e);
            }
        };
    }

    /**
     * @return the warnings met so far in this input (header, attrs and features when it was opened; records as
     *         they are read), in file order
     */
    public Warnings warnings() {
        return warnings;
    }

    /**
     * @param bit a feature bit
     * @return why the file's feature table names feature {@code bit} but it could not be read (a section or table
     *         entry truncated at EOF), or {@code null} when it was read or the file does not announce it
     */
    public String cutFeature(int bit) {
        return cutFeatures.get(bit);
    }

    /**
     * Takes back the warning that named the features cut by the end of the file, for a command that refuses the
     * recording with an error naming that cut (its records are then not read, so the features lost with it no longer
     * matter); nothing happens when there is no such warning.
     */
    public void withdrawCutFeatureWarning() {
        if (cutWarning != null) {
            warnings.withdraw(cutWarning.offset(), cutWarning.what(keptParts));
        }
    }

    /**
     * Takes the warning that named the features cut by the end of the file into another warning that names the cut
     * of feature {@code bit}'s section, so that the one cut is said in one line: the warning is withdrawn, and what it
     * said dfx read instead is returned for the other warning to say. Call after {@link #keepCutFeaturePart}.
     *
     * @param bit a feature bit
     * @return {@code "read TRACING_DATA up to the cut (KEPT) and the file without the 20 other features cut: ..."}
     *         or {@code "read the file without the 21 features cut: ..."}; {@code null}, the warning kept, when no
     *         warning named the features cut or the one that did names another cut first (feature {@code bit}'s
     *         section was read whole)
     */
    public String takeCutFeatureWarning(int bit) {
        String cut = cutFeatures.get(bit);
        if (cutWarning == null || cut == null || !cut.equals(cutWarning.first())) {
            return null;
        }
        warnings.withdraw(cutWarning.offset(), cutWarning.what(keptParts));
        return cutWarning.reading(keptParts);
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
        Closeable own = channel != null ? channel : ownsStream ? stream : null;
        if (own != null) {
            try {
                own.close();
            } catch (IOException e) {
                throw new UncheckedIOException(name + ": close failed", e);
            }
        }
    }
}
