/**
 * The embedded task-graph runtime: one orchestrator thread runs a {@link dev.dfx.runtime.Program} that
 * submits tasks (a function, tensor regions with roles, scalars, explicit dependencies) inside nested
 * scopes; scheduler threads resolve dependencies (explicit ones, and a tensor map that orders overlapping
 * reads and writes) and dispatch ready tasks to core threads, which run the kernels. Entry point:
 * {@link dev.dfx.runtime.TaskRuntime#run}. Recorders attach through {@link dev.dfx.runtime.probe.Probe}.
 */
package dev.dfx.runtime;
