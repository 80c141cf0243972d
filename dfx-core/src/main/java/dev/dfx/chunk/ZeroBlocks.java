package dev.dfx.chunk;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * The zero-block encoding of a chunk payload (chunk flag {@code ZERO_BLOCKS}, format version 2; layout in
 * {@code package-info.java}): the payload is cut into 64-byte blocks, a bitmap says which blocks hold a non-zero
 * byte, and only those are stored. Built for sparse records such as the 4672-byte deps submit record, of which a task
 * with a few tensors and deps fills about a tenth; a scheme of bit tests and block copies, so encoding and decoding
 * run at memory speed, unlike a general-purpose compressor.
 *
 * <p>Stateless; thread-safe. Allocates the bitmap ({@code length / 4096} longs) and, when decoding, the payload.
 */
final class ZeroBlocks {
    /** Bytes per block. */
    static final int BLOCK = 64;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private ZeroBlocks() {
    }

    /**
     * The bitmap of a payload of whole records whose non-zero bytes lie only in the spans {@code spans} gives: only
     * the blocks that overlap a span are read, the others are taken as zero.
     *
     * @param recordSize bytes per record; when it is not a multiple of {@value #BLOCK}, or {@code spans} is null,
     *                   every block is read ({@link #bitmap(MemorySegment)})
     * @return the same bitmap as {@link #bitmap(MemorySegment)} when every byte outside the spans is zero
     */
    static long[] bitmap(MemorySegment payload, int recordSize, RecordSpans spans) {
        long length = payload.byteSize();
        if (spans == null || recordSize <= 0 || recordSize % BLOCK != 0 || length % recordSize != 0) {
            return bitmap(payload);
        }
        long[] bits = new long[words(length)];
        int[] span = new int[2 * RecordSpans.MAX_SPANS];
        for (long rec = 0; rec < length; rec += recordSize) {
            int n = Math.min(spans.spans(payload, rec, span), RecordSpans.MAX_SPANS);
            for (int i = 0; i < n; i++) {
                long from = Math.clamp(span[2 * i], 0, recordSize);
                long to = Math.clamp(span[2 * i + 1], 0, recordSize);
                for (long b = (rec + from) / BLOCK, end = (rec + to + BLOCK - 1) / BLOCK; b < end; b++) {
                    if (!stored(bits, b) && nonZero(payload, b * BLOCK)) {
                        bits[(int) (b >>> 6)] |= 1L << b;
                    }
                }
            }
        }
        return bits;
    }

    /** @return blocks of a payload of {@code length} bytes (the last one may be short) */
    static long blocks(long length) {
        return (length + BLOCK - 1) / BLOCK;
    }

    /** @return bitmap words of a payload of {@code length} bytes */
    static int words(long length) {
        return Math.toIntExact((blocks(length) + 63) / 64);
    }

    /** @return bit {@code i % 64} of word {@code i / 64} set when block {@code i} of {@code payload} is not all zero */
    static long[] bitmap(MemorySegment payload) {
        long length = payload.byteSize();
        long[] bits = new long[words(length)];
        long full = length / BLOCK;
        for (long b = 0; b < full; b++) {
            if (nonZero(payload, b * BLOCK)) {
                bits[(int) (b >>> 6)] |= 1L << b;
            }
        }
        if (full * BLOCK < length) {
            for (long at = full * BLOCK; at < length; at++) {
                if (payload.get(ValueLayout.JAVA_BYTE, at) != 0) {
                    bits[(int) (full >>> 6)] |= 1L << full;
                    break;
                }
            }
        }
        return bits;
    }

    /** @return bytes of the encoding of a {@code length}-byte payload with this bitmap (bitmap included) */
    static long encodedLength(long[] bits, long length) {
        long n = 8L * bits.length;
        for (long w : bits) {
            n += (long) Long.bitCount(w) * BLOCK;
        }
        long last = blocks(length) - 1;
        if (last >= 0 && stored(bits, last)) {
            n -= last * BLOCK + BLOCK - length;  // the short last block is stored at its own length
        }
        return n;
    }

    /**
     * Writes the encoding of {@code payload} ({@link #encodedLength} bytes) at {@code at} in {@code dst}. Stored
     * blocks are contiguous in the encoding, so each run of adjacent marked blocks (a deps record's tensor slots are
     * several) is one copy: the per-copy checks cost as much as copying a 64-byte block.
     */
    static void encode(MemorySegment payload, long[] bits, MemorySegment dst, long at) {
        for (long w : bits) {
            dst.set(ChunkFormat.U64, at, w);
            at += 8;
        }
        long length = payload.byteSize();
        long runFrom = 0;
        long runBytes = 0;
        for (int w = 0; w < bits.length; w++) {
            for (long word = bits[w]; word != 0; ) {
                int first = Long.numberOfTrailingZeros(word);
                int run = Long.numberOfTrailingZeros(~(word >>> first));  // 64 when every bit from first is set
                long from = ((long) w * 64 + first) * BLOCK;
                if (from != runFrom + runBytes) {  // not adjacent to the run so far (which may end in the last word)
                    MemorySegment.copy(payload, runFrom, dst, at, runBytes);
                    at += runBytes;
                    runFrom = from;
                    runBytes = 0;
                }
                runBytes += Math.min((long) run * BLOCK, length - from);
                word = first + run >= 64 ? 0 : word & (-1L << (first + run));
            }
        }
        MemorySegment.copy(payload, runFrom, dst, at, runBytes);
    }

    /**
     * Checks that {@code stored} is a well-formed encoding of a {@code length}-byte payload.
     *
     * @return null when it is, else what is wrong (one line)
     */
    static String check(MemorySegment stored, long length) {
        int words = words(length);
        if (stored.byteSize() < 8L * words) {
            return "zero-block payload of " + stored.byteSize() + " bytes is shorter than its " + words
                    + "-word bitmap";
        }
        long[] bits = new long[words];
        for (int w = 0; w < words; w++) {
            bits[w] = stored.get(ChunkFormat.U64, 8L * w);
        }
        long blocks = blocks(length);
        if (words > 0 && blocks % 64 != 0 && (bits[words - 1] >>> (blocks % 64)) != 0) {
            return "zero-block bitmap marks blocks past the " + blocks + " blocks of a " + length + "-byte payload";
        }
        long expected = encodedLength(bits, length);
        if (expected != stored.byteSize()) {
            return "zero-block payload is " + stored.byteSize() + " bytes but its bitmap says " + expected;
        }
        return null;
    }

    /**
     * Decodes a payload that passed {@link #check}.
     *
     * @param into where the payload is allocated (its bytes are all overwritten: zeros, then the stored blocks)
     * @return the {@code length}-byte payload, read-only
     */
    static MemorySegment decode(MemorySegment stored, long length, SegmentAllocator into) {
        MemorySegment out = into.allocate(Math.max(1, length), 8).asSlice(0, length);
        out.fill((byte) 0);
        decodeOver(stored, length, out, null);
        return out.asReadOnly();
    }

    /**
     * Decodes a payload that passed {@link #check} over an earlier one: copies the stored blocks to their places in
     * {@code out} and, with {@code dirty}, first zeroes the blocks that {@code dirty} marks and this payload does not
     * store. Stored blocks are contiguous in the encoding, so each run of adjacent stored blocks within a bitmap word
     * is one copy, and each run of blocks to clear one fill.
     *
     * @param out   at least {@code length} bytes; without {@code dirty}, all zero where this payload stores nothing
     * @param dirty null, or one bit per block of {@code out} ({@code words(out.byteSize())} words), set where a block
     *              may hold a non-zero byte; on return, set exactly for the blocks this payload stored (the blocks
     *              past {@code length} keep their bits)
     */
    static void decodeOver(MemorySegment stored, long length, MemorySegment out, long[] dirty) {
        int words = words(length);
        long at = 8L * words;
        for (int w = 0; w < words; w++) {
            long word = stored.get(ChunkFormat.U64, 8L * w);
            if (dirty != null) {
                for (long clear = dirty[w] & ~word; clear != 0; ) {
                    int first = Long.numberOfTrailingZeros(clear);
                    int run = Long.numberOfTrailingZeros(~(clear >>> first));
                    long from = ((long) w * 64 + first) * BLOCK;
                    out.asSlice(from, Math.min((long) run * BLOCK, out.byteSize() - from)).fill((byte) 0);
                    clear = first + run >= 64 ? 0 : clear & (-1L << (first + run));
                }
                dirty[w] = word;
            }
            while (word != 0) {
                int first = Long.numberOfTrailingZeros(word);
                int run = Long.numberOfTrailingZeros(~(word >>> first));  // 64 when every bit from first is set
                long from = ((long) w * 64 + first) * BLOCK;
                long n = Math.min((long) run * BLOCK, length - from);
                MemorySegment.copy(stored, at, out, from, n);
                at += n;
                word = first + run >= 64 ? 0 : word & (-1L << (first + run));
            }
        }
    }

    /** @return whether the full block at {@code at} holds a non-zero byte */
    private static boolean nonZero(MemorySegment payload, long at) {
        return (payload.get(WORD, at) | payload.get(WORD, at + 8) | payload.get(WORD, at + 16)
                | payload.get(WORD, at + 24) | payload.get(WORD, at + 32) | payload.get(WORD, at + 40)
                | payload.get(WORD, at + 48) | payload.get(WORD, at + 56)) != 0;
    }

    private static boolean stored(long[] bits, long block) {
        return (bits[(int) (block >>> 6)] & (1L << block)) != 0;
    }
}
