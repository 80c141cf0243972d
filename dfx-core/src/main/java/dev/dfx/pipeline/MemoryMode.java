package dev.dfx.pipeline;

/**
 * How the host side (drain shards, collectors) sees the region the producers write — docs/pipeline.md, host
 * rule 6. Both modes run the same host code behind one transport interface.
 */
public enum MemoryMode {
    /** Host and producers read and write the same memory (the reference's SVM transport). */
    SHARED,
    /**
     * The host works on a shadow of the region: it pulls each field and buffer it reads, and writes back
     * only the fields it owns (ready-queue heads, free-queue tails and slots, the block table), one field at
     * a time. A bulk write-back would roll back producer-owned fields and is refused (the reference's
     * non-SVM transport).
     */
    COPY
}
