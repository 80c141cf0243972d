package dev.dfx.runtext;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;
import dev.dfx.chunk.SeqGap;
import dev.dfx.error.BadInputException;
import dev.dfx.perf.dump.HexDump;
import dev.dfx.perf.text.TextSink;
import dev.dfx.program.LaneStrings;
import dev.dfx.rundir.RunChunks;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code dfx dump RUN}: every chunk file of a run directory in {@code perf report -D}'s style, in file order: for the
 * file header, each chunk header and each record a line {@code OFFSET@FILE [SIZE]: what}, the raw bytes sixteen to a
 * line, then the decoded line ({@code OFFSET [SIZE]: ...}; a record's decoded line starts with its timestamp in ns,
 * or {@code -} when its kind has none, as perf's starts with the sample time). Each file ends with its chunk index
 * (when it has one) and per-lane counts: chunks, records, missing and repeated buffer seqs. Chunk format:
 * {@code dev.dfx.chunk} package documentation. Not thread-safe.
 */
public final class RunDump {
    /** Bytes of a chunk header (chunk format, {@code dev.dfx.chunk} package documentation). */
    private static final int CHUNK_HEADER = 64;
    /** Bytes of the file trailer, the last of the file. */
    private static final int TRAILER = 32;
    /** Where the file header holds its own length (u32), which is where the first chunk starts. */
    private static final int HEADER_LENGTH_AT = 12;
    /** Where the trailer holds the index's byte offset (u64). */
    private static final int TRAILER_INDEX_OFFSET_AT = 0;
    /** Where the trailer holds the index's entry count (u64). */
    private static final int TRAILER_INDEX_COUNT_AT = 8;
    /** Column width of a kind name in the per-lane counts. */
    private static final int KIND_WIDTH = 16;
    /** Column width of a lane number in the per-lane counts. */
    private static final int LANE_WIDTH = 4;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final RunChunks run;
    private final TextSink out;

    private RunDump(RunChunks run, TextSink out) {
        this.run = run;
        this.out = out;
    }

    /**
     * Prints the dump of every readable chunk (a damaged chunk is left out and named in {@code damage}).
     *
     * @param runDir a run directory
     * @param out    where the text goes
     * @param damage receives one line per damaged or missing part (a program run's strings file among them)
     * @throws BadInputException when the directory has neither run.json nor chunk files
     */
    public static void print(Path runDir, TextSink out, RunDamage damage) {
        try (RunChunks run = RunChunks.open(runDir, damage)) {
            RunManifest m = run.manifest();
            if (m != null && m.program() != null) {
                // The dump shows user events by their string ids, but a run whose names are lost is damaged all the
                // same: named as script, report and export name it.
                LaneStrings.ofRunOrNone(runDir, m, damage);
            }
            RunDump d = new RunDump(run, out);
            for (ChunkReader f : run.readers()) {
                d.file(f);
            }
        }
    }

    private void file(ChunkReader f) {
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(f.path(), StandardOpenOption.READ)) {
            MemorySegment bytes = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            String name = run.name(f);
            int headerLength = bytes.get(U32, HEADER_LENGTH_AT);
            out.put('\n').hexAlt(0).put('@').put(name).put(" [").hexAlt(headerLength).put("]: chunk file header\n");
            HexDump.print(bytes, 0, headerLength, "header", out);
            out.hexAlt(0).put(" [").hexAlt(headerLength).put("]: DFX_CHUNK_FILE subsystem: ").put(f.subsystem())
                .put("  version: ").dec(f.formatVersion());
            f.runId().ifPresent(id -> out.put("  run: ").put(id.toString()));
            out.put("  kinds: ").dec(f.kinds().size()).put('\n');
            for (BufferKind k : f.kinds()) {
                out.put(" ... kind ").dec(k.id()).put(": ").put(k.name()).put("  record size: ").dec(k.recordSize());
                if (k.hasTimestamp()) {
                    out.put("  timestamp: u").dec(8L * k.timestampWidth()).put(" ns at byte ").dec(k.timestampOffset());
                }
                out.put('\n');
            }
            for (ChunkInfo c : f.chunks()) {
                chunk(f, name, bytes, c);
            }
            end(f, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void chunk(ChunkReader f, String name, MemorySegment bytes, ChunkInfo c) {
        BufferKind k = f.kind(c.kind());
        out.put('\n').hexAlt(c.offset()).put('@').put(name).put(" [").hexAlt(CHUNK_HEADER).put("]: chunk\n");
        HexDump.print(bytes, c.offset(), CHUNK_HEADER, "header", out);
        out.hexAlt(c.offset()).put(" [").hexAlt(CHUNK_HEADER).put("]: DFX_CHUNK kind: ").dec(k.id()).put(" (")
            .put(k.name()).put(")  lane: ").dec(Integer.toUnsignedLong(c.lane())).put("  seq: ").udec(c.seq())
            .put("  records: ").dec(c.recordCount()).put(" x ").dec(c.recordSize()).put(" bytes");
        if (k.hasTimestamp()) {
            out.put("  first: ").udec(c.firstTimestamp()).put("  last: ").udec(c.lastTimestamp());
        }
        out.put("  payload crc: 0x").hexZero(Integer.toUnsignedLong(c.payloadCrc()), 8).put('\n');
        try (Arena decoded = Arena.ofConfined()) {
            MemorySegment records = bytes;
            long base = c.payloadOffset();
            if (c.zeroBlocks()) {  // format 2: the records are decoded; their offsets are within the payload
                out.put(" ... zero-block encoded: ").dec(c.storedLength()).put(" bytes stored for ")
                    .dec(c.payloadLength()).put("; records decoded, their offsets within the payload\n");
                records = f.records(c, decoded);
                base = 0;
            }
            for (int i = 0; i < c.recordCount(); i++) {
                long at = base + (long) i * c.recordSize();
                out.put('\n').hexAlt(at).put('@').put(name).put(" [").hexAlt(c.recordSize())
                    .put("]: record ").dec(i).put('\n');
                HexDump.print(records, at, c.recordSize(), "record", out);
                if (k.hasTimestamp()) {
                    out.udec(k.timestamp(records, at));
                } else {
                    out.put('-');
                }
                out.put(' ').hexAlt(at).put(" [").hexAlt(c.recordSize()).put("]: ").put(f.subsystem())
                    .put(':').put(k.name()).put(" lane ").dec(Integer.toUnsignedLong(c.lane())).put(": ");
                RecordFields.print(run.layout(f, k.id()), -1, records, at, c.recordSize(), out);
                out.put('\n');
            }
        }
    }

    /** The index (when the file was closed) and the per-lane counts. */
    private void end(ChunkReader f, MemorySegment bytes) {
        out.put('\n');
        if (f.complete()) {
            long trailer = bytes.byteSize() - TRAILER;
            long index = bytes.get(U64, trailer + TRAILER_INDEX_OFFSET_AT);
            out.hexAlt(index).put(" [").hexAlt(trailer - index).put("]: DFX_CHUNK_INDEX entries: ")
                .udec(bytes.get(U64, trailer + TRAILER_INDEX_COUNT_AT)).put('\n');
            out.hexAlt(trailer).put(" [").hexAlt(TRAILER).put("]: DFX_CHUNK_TRAILER\n");
        } else {
            f.recovery().ifPresent(r -> out.put("no index: read by a scan that stopped at byte offset ")
                .dec(r.stoppedAt()).put(" (").dec(r.ignoredBytes()).put(" bytes ignored): ").put(r.reason())
                .put('\n'));
        }
        out.put("\nAggregated stats: ").put(run.name(f)).put('\n');
        for (LaneSequence l : f.lanes()) {
            out.right(f.kind(l.kind()).name(), KIND_WIDTH).put(" lane ")
                .dec(Integer.toUnsignedLong(l.lane()), LANE_WIDTH).put(": chunks: ").dec(l.chunks().size()).put("  records: ").dec(l.recordCount())
                .put("  missing buffers: ").dec(l.missingBuffers()).put("  repeated: ").dec(l.duplicates());
            for (SeqGap g : l.gaps()) {
                out.put("  gap ").udec(g.fromSeq()).put("..").udec(g.toSeq() - 1);
            }
            out.put('\n');
        }
    }
}
