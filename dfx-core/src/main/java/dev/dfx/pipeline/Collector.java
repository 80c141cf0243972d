package dev.dfx.pipeline;

/**
 * Consumes drained buffers: writes chunks, CSV, JSON, or keeps them in memory.
 *
 * <p>Called on the pipeline's collector threads, one buffer at a time per lane: the buffers of one lane arrive one
 * after another, in {@link DrainedBuffer#seq()} order (possibly on different worker threads, each call
 * happening-before the next). Different lanes are called concurrently, so an implementation shared by several lanes
 * must be thread-safe. The buffer's records are
 * valid only during the call (the buffer is recycled afterwards): copy what you keep.
 *
 * <p>If {@code accept} throws, the pipeline does not stop: the buffer's records are counted lost with cause
 * {@link DropCause#COLLECTOR} and the error is reported in {@link PipelineStats#errors()}.
 */
@FunctionalInterface
public interface Collector {
    /**
     * @param buffer one drained buffer; valid only until this call returns
     * @throws Exception any failure; counted as a {@link DropCause#COLLECTOR} loss of the buffer's records
     */
    void accept(DrainedBuffer buffer) throws Exception;
}
