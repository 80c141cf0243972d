package dev.dfx.region;

/** Where a lane of a region stands, as the host sees it. */
public enum LaneState {
    /** No producer thread has claimed the lane. */
    UNUSED,
    /** A producer thread owns the lane and its process is alive. */
    ACTIVE,
    /** Its thread ended and flushed the lane (or its process detached at exit): complete. */
    CLOSED,
    /**
     * Its process ended without closing the lane (killed, or exited without running its exit hooks): published
     * buffers and the committed records of its current buffer are collected; records it counted but had not
     * committed are dropped with cause {@code producer_exited}.
     */
    PRODUCER_EXITED,
    /** The host found a producer-written field of the lane out of bounds and no longer follows it. */
    FAILED
}
