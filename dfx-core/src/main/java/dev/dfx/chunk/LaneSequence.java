package dev.dfx.chunk;

import java.util.List;

/**
 * The chunks of one lane, which is one (kind, lane) pair, in seq order, with the seq numbers that are missing
 * (lost buffers) and repeated (a buffer stored twice: a producer or collector bug). Immutable.
 *
 * @param kind       subsystem-local kind id
 * @param lane       lane number within the kind (unsigned 32-bit, stored as an int)
 * @param chunks     the lane's chunks sorted by unsigned seq; equal seqs keep file order
 * @param gaps       missing seq ranges, ascending
 * @param duplicates how many chunks repeat the seq of the chunk before them in {@code chunks}
 */
public record LaneSequence(int kind, int lane, List<ChunkInfo> chunks, List<SeqGap> gaps, int duplicates) {

    /** @return records over all chunks of the lane */
    public long recordCount() {
        long n = 0;
        for (ChunkInfo c : chunks) {
            n += c.recordCount();
        }
        return n;
    }

    /**
     * The chunks whose records follow one another from the lane's first buffer on with none lost in between: seq 0,
     * 1, 2, ... up to (not including) the first missing or repeated seq. A reader that needs every earlier record of
     * the lane to interpret a record (a replay of submits) can use these and no more; for a lane without gaps or
     * repeats they are all of {@link #chunks()}.
     *
     * @return a prefix of {@link #chunks()}, possibly empty (a lane whose seq 0 is missing)
     */
    public List<ChunkInfo> unbroken() {
        int n = 0;
        while (n < chunks.size() && chunks.get(n).seq() == n) {
            n++;
        }
        return chunks.subList(0, n);
    }

    /** @return buffers missing over all gaps */
    public long missingBuffers() {
        long n = 0;
        for (SeqGap g : gaps) {
            n += g.missing();
        }
        return n;
    }
}
