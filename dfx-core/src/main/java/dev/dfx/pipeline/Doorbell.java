package dev.dfx.pipeline;

/**
 * What a stage rings after handing work downstream: a {@link HostIdle} (one host thread) or a
 * {@link CollectorPool} (its workers). Implementations are thread-safe and cheap when nobody sleeps.
 */
interface Doorbell {
    /** Tells the consumer there is work; unparks it if it is parked. Any thread. */
    void wake();
}
