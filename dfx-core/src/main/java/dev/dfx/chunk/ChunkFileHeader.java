package dev.dfx.chunk;

import static dev.dfx.chunk.ChunkFormat.U16;
import static dev.dfx.chunk.ChunkFormat.U32;
import static dev.dfx.chunk.ChunkFormat.U64;
import static dev.dfx.chunk.ChunkFormat.align8;
import static dev.dfx.chunk.ChunkFormat.bad;
import static dev.dfx.chunk.ChunkFormat.u16;
import static dev.dfx.chunk.ChunkFormat.u32;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The file header of a chunk file: format version, run id (version 3), subsystem name and kind table (layout in
 * {@code package-info.java}). Encodes for {@link ChunkWriter} and decodes and validates for {@link ChunkReader}.
 *
 * <p>Immutable and thread-safe.
 */
final class ChunkFileHeader {
    /* Field offsets in the fixed file header (package-info.java): magic at 0, then these. */
    private static final int VERSION_AT = 8;
    private static final int KIND_COUNT_AT = 10;
    private static final int LENGTH_AT = 12;
    private static final int CRC_AT = 16;
    private static final int NAME_LENGTH_AT = 20;
    private static final int RUN_ID_HIGH_AT = 24;
    private static final int RUN_ID_LOW_AT = 32;
    /* Field offsets in one kind table entry; the name's bytes follow the fixed part. */
    private static final int KIND_ID = 0;
    private static final int KIND_NAME_LENGTH = 2;
    private static final int KIND_RECORD_SIZE = 4;
    private static final int KIND_TIMESTAMP_OFFSET = 8;
    private static final int KIND_TIMESTAMP_WIDTH = 12;
    private final RunId run;
    private final String subsystem;
    private final List<BufferKind> kinds;
    private final BufferKind[] byId;
    private final int length;
    private final int version;

    /**
     * @throws IllegalArgumentException when the name is not 1..255 bytes of UTF-8, the table is empty or two kinds
     *                                  share an id
     */
    ChunkFileHeader(RunId run, String subsystem, List<BufferKind> kinds) {
        this(run, subsystem, kinds, ChunkFormat.VERSION);
    }

    /** @param run the run id, or null for a version 1 or 2 header (which has none) */
    private ChunkFileHeader(RunId run, String subsystem, List<BufferKind> kinds, int version) {
        this.version = version;
        this.run = run;
        int nameBytes = subsystem.getBytes(StandardCharsets.UTF_8).length;
        if (nameBytes < 1 || nameBytes > ChunkFormat.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("subsystem name '" + subsystem + "' must be 1..255 bytes of UTF-8");
        }
        if (kinds.isEmpty() || kinds.size() > BufferKind.MAX_ID) {
            throw new IllegalArgumentException("a chunk file needs 1..65535 buffer kinds, got " + kinds.size());
        }
        this.subsystem = subsystem;
        this.kinds = List.copyOf(kinds);
        int maxId = kinds.stream().mapToInt(BufferKind::id).max().orElseThrow();
        this.byId = new BufferKind[maxId + 1];
        long len = ChunkFormat.fixedHeader(version) + align8(nameBytes);
        for (BufferKind k : kinds) {
            if (byId[k.id()] != null) {
                throw new IllegalArgumentException("kind id " + k.id() + " appears twice in the kind table");
            }
            byId[k.id()] = k;
            len += ChunkFormat.KIND_ENTRY_FIXED + align8(utf8(k.name()).length);
        }
        this.length = Math.toIntExact(len);
    }

    String subsystem() {
        return subsystem;
    }

    /** @return the run id, or null in a version 1 or 2 header */
    RunId run() {
        return run;
    }

    List<BufferKind> kinds() {
        return kinds;
    }

    /** @return the kind with this id, or null when the table has none */
    BufferKind kind(int id) {
        return id >= 0 && id < byId.length ? byId[id] : null;
    }

    /** @return the format version (what this dfx writes, or what the decoded file says) */
    int version() {
        return version;
    }

    /** @return header length in bytes; the first chunk starts at this file offset */
    int length() {
        return length;
    }

    /** @return the header's bytes, ready to be written at file offset 0 */
    byte[] encode() {
        byte[] out = new byte[length];
        MemorySegment s = MemorySegment.ofArray(out);
        s.set(U64, 0, ChunkFormat.FILE_MAGIC);
        s.set(U16, VERSION_AT, (short) ChunkFormat.VERSION);
        s.set(U16, KIND_COUNT_AT, (short) kinds.size());
        s.set(U32, LENGTH_AT, length);
        byte[] name = utf8(subsystem);
        s.set(U16, NAME_LENGTH_AT, (short) name.length);
        s.set(U64, RUN_ID_HIGH_AT, run.high());
        s.set(U64, RUN_ID_LOW_AT, run.low());
        int nameAt = ChunkFormat.FILE_HEADER_FIXED_V3;
        MemorySegment.copy(name, 0, s, ValueLayout.JAVA_BYTE, nameAt, name.length);
        long at = nameAt + align8(name.length);
        for (BufferKind k : kinds) {
            byte[] kn = utf8(k.name());
            s.set(U16, at + KIND_ID, (short) k.id());
            s.set(U16, at + KIND_NAME_LENGTH, (short) kn.length);
            s.set(U32, at + KIND_RECORD_SIZE, k.recordSize());
            s.set(U32, at + KIND_TIMESTAMP_OFFSET, k.timestampOffset());
            s.set(ValueLayout.JAVA_BYTE, at + KIND_TIMESTAMP_WIDTH, (byte) k.timestampWidth());
            MemorySegment.copy(kn, 0, s, ValueLayout.JAVA_BYTE, at + ChunkFormat.KIND_ENTRY_FIXED, kn.length);
            at += ChunkFormat.KIND_ENTRY_FIXED + align8(kn.length);
        }
        s.set(U32, CRC_AT, checksum(s, length));
        return out;
    }

    /**
     * Decodes and validates the header at the start of {@code file}.
     *
     * @param file the whole file (mapped)
     * @param path the file's name for error messages
     * @throws dev.dfx.error.BadInputException on a wrong magic, an unsupported version, a truncated or corrupt
     *                                         header, or an invalid kind table, naming the byte offset
     */
    static ChunkFileHeader decode(MemorySegment file, Path path) {
        long size = file.byteSize();
        if (size < ChunkFormat.FILE_HEADER_FIXED) {
            throw bad(path, size, "file ends inside the 24-byte chunk file header (file is " + size + " bytes)");
        }
        if (file.get(U64, 0) != ChunkFormat.FILE_MAGIC) {
            throw bad(path, 0, "not a dfx chunk file (expected magic \"DFXCHUNK\")");
        }
        int version = u16(file, VERSION_AT);
        if (version < ChunkFormat.MIN_VERSION || version > ChunkFormat.VERSION) {
            throw bad(path, VERSION_AT, "unsupported chunk file format version " + version + " (this dfx reads "
                    + ChunkFormat.MIN_VERSION + " to " + ChunkFormat.VERSION + ")");
        }
        int kindCount = u16(file, KIND_COUNT_AT);
        long length = u32(file, LENGTH_AT);
        int fixed = ChunkFormat.fixedHeader(version);
        if (length < fixed || length % 8 != 0) {
            throw bad(path, LENGTH_AT, "header length " + length + " is not a multiple of 8 of at least " + fixed);
        }
        if (length > size) {
            throw bad(path, size, "file ends inside the " + length + "-byte chunk file header");
        }
        int stored = file.get(U32, CRC_AT);
        int computed = checksum(file, length);
        if (stored != computed) {
            throw bad(path, 0, "file header checksum mismatch (stored " + ChunkFormat.hex(stored) + ", computed "
                    + ChunkFormat.hex(computed) + ")");
        }
        Cursor c = new Cursor(file, path, length);
        RunId run = version >= 3 ? new RunId(file.get(U64, RUN_ID_HIGH_AT), file.get(U64, RUN_ID_LOW_AT)) : null;
        String subsystem = c.name(NAME_LENGTH_AT, fixed);
        List<BufferKind> kinds = new ArrayList<>(kindCount);
        for (int i = 0; i < kindCount; i++) {
            kinds.add(c.kind());
        }
        if (c.at != length) {
            throw bad(path, c.at, "kind table ends at " + c.at + " but the header length is " + length);
        }
        try {
            return new ChunkFileHeader(run, subsystem, kinds, version);
        } catch (IllegalArgumentException e) {
            throw bad(path, KIND_COUNT_AT, "invalid kind table: " + e.getMessage());
        }
    }

    /** CRC32C over header bytes [0,16) and [20,length): everything but the checksum field itself. */
    private static int checksum(MemorySegment s, long length) {
        CRC32C crc = new CRC32C();
        int after = CRC_AT + Integer.BYTES;
        ChunkFormat.update(crc, s.asSlice(0, CRC_AT));
        ChunkFormat.update(crc, s.asSlice(after, length - after));
        return (int) crc.getValue();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads the variable part of the header, checking every field against the header length. */
    private static final class Cursor {
        private final MemorySegment file;
        private final Path path;
        private final long end;
        private long at;

        Cursor(MemorySegment file, Path path, long end) {
            this.file = file;
            this.path = path;
            this.end = end;
        }

        /** Reads a name whose u16 length is at {@code lengthAt} and whose bytes start at {@code bytesAt}. */
        String name(long lengthAt, long bytesAt) {
            int n = u16(file, lengthAt);
            if (n < 1 || n > ChunkFormat.MAX_NAME_BYTES || bytesAt + align8(n) > end) {
                throw bad(path, lengthAt, "name length " + n + " is not 1..255 or runs past the header end " + end);
            }
            at = bytesAt + align8(n);
            return new String(file.asSlice(bytesAt, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        }

        BufferKind kind() {
            long entry = at;
            if (entry + ChunkFormat.KIND_ENTRY_FIXED > end) {
                throw bad(path, entry, "kind table entry runs past the header end " + end);
            }
            int id = u16(file, entry + KIND_ID);
            long recordSize = u32(file, entry + KIND_RECORD_SIZE);
            long tsOffset = u32(file, entry + KIND_TIMESTAMP_OFFSET);
            int tsWidth = Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, entry + KIND_TIMESTAMP_WIDTH));
            String name = name(entry + KIND_NAME_LENGTH, entry + ChunkFormat.KIND_ENTRY_FIXED);
            if (recordSize < 1 || recordSize > ChunkFormat.MAX_RECORD_SIZE || tsOffset > recordSize) {
                throw bad(path, entry + KIND_RECORD_SIZE, "kind " + name + ": record size " + recordSize + " / timestamp offset "
                        + tsOffset + " out of range");
            }
            try {
                return new BufferKind(id, name, (int) recordSize, (int) tsOffset, tsWidth);
            } catch (IllegalArgumentException e) {
                throw bad(path, entry, e.getMessage());
            }
        }
    }
}
