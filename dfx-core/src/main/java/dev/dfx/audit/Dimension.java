package dev.dfx.audit;

/** What a verdict reads; the weakest dimension decides a pool's {@link Verdict} (the seed's "weakest link"). */
public enum Dimension {
    /** Drops (any policy) and, under BLOCK, stalls: the lossless form of a drop. */
    LOSS("stalls/drops"),
    /** {@code min_free_depth / free-queue capacity}: hitting 0 means a lane found its free queue empty. */
    FREE_MARGIN("free margin"),
    /** {@code 1 - max_ready_depth / usable ready-queue entries}: hitting 0 means the push gate was reached. */
    READY_MARGIN("ready margin"),
    /** {@code configured / need}: how many times the buffers per lane cover what the lane needed. */
    HEADROOM("headroom");

    private final String word;

    Dimension(String word) {
        this.word = word;
    }

    /** @return the word printed, e.g. {@code free margin} */
    public String word() {
        return word;
    }
}
