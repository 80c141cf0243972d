package dev.dfx.pipeline;

/** Why a record was counted in {@code dropped} (docs/pipeline.md, diagnostics). */
public enum DropCause {
    /** The push gate failed: the ready queue had no room; the whole buffer was dropped and reused. */
    PUSH_GATE,
    /** The pop gate failed: the lane's free queue was empty; the record had no buffer. */
    POP_GATE,
    /** The lane was degraded after a backstop expiry and a gate could not pass at once. */
    DEGRADED,
    /** The buffer was drained but the {@link Collector} threw; its records are counted lost here. */
    COLLECTOR,
    /**
     * A producer in another process counted these records in {@code total} but ended (e.g. was killed) before it
     * committed them to a buffer; the host counts them at stop, so a dead producer still reconciles.
     */
    PRODUCER_EXITED,
    /**
     * The pipeline stopped without them: the lane was still writing when {@link Pipeline#stop()}'s wait for it ended
     * (records it had not published by then, and any it wrote afterwards), the lane was written after stop closed it,
     * or a drain shard, replenisher or collector call of the lane outlived stop's bound ({@link PipelineStats#stuck()}).
     */
    STOPPED
}
