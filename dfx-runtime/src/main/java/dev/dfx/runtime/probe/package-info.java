/**
 * Hook points through which a recorder observes the embedded runtime: a {@link dev.dfx.runtime.probe.Probe}
 * hands out one lane probe per thread ({@link dev.dfx.runtime.probe.CoreProbe} per core,
 * {@link dev.dfx.runtime.probe.SchedulerProbe} per scheduler, one
 * {@link dev.dfx.runtime.probe.OrchestratorProbe}); each lane probe is created and called on its own
 * thread only, so it can own single-writer lanes. The views ({@link dev.dfx.runtime.probe.TaskView},
 * {@link dev.dfx.runtime.probe.ArgView}) are what a record is written from. With {@code Probe.NONE} the
 * runtime skips every hook and timestamp behind a final boolean per thread.
 */
package dev.dfx.runtime.probe;
