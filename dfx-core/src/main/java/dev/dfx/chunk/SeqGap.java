package dev.dfx.chunk;

/**
 * Buffer sequence numbers missing from one lane: each is a buffer that was never written (a lost buffer). Seq
 * numbers of a lane start at 0 and grow by one per buffer, so a gap can also sit before the first chunk. A gap after
 * the last chunk cannot be seen here (compare the run manifest's counts). Immutable.
 *
 * @param fromSeq first missing seq, inclusive (unsigned)
 * @param toSeq   first seq present again, exclusive (unsigned)
 */
public record SeqGap(long fromSeq, long toSeq) {
    /** @return how many buffers are missing */
    public long missing() {
        return toSeq - fromSeq;
    }
}
