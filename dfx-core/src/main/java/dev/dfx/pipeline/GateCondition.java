package dev.dfx.pipeline;

/** What a gate waits for: room in the ready queue, or a buffer in the free queue. Producer thread only. */
interface GateCondition {
    /** @return true when the gate may pass now; reads the host's side with acquire */
    boolean ready();
}
