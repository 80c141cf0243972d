package dev.dfx.pmu.accel;

/**
 * What an accelerator event reads: a counter and the locations whose values it sums (one instance, or all of
 * them for broadcast). Immutable (the array is never exposed for writing by convention).
 *
 * @param counter   the counter
 * @param request   the decoded dimension request
 * @param locations location indexes ({@link Location#index}), ascending
 */
public record InstanceSelection(CounterDef counter, DimensionRequest request, int[] locations) {
}
