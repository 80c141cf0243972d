package dev.dfx.runtime.graph;

/** Why an edge exists (deps.json {@code source}). */
public enum EdgeSource {
    /** The program listed the predecessor explicitly. */
    EXPLICIT,
    /** The tensor map found conflicting accesses to overlapping regions of one tensor. */
    TENSOR
}
