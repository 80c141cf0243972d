/**
 * The embedded runtime's workloads ({@code -w} names): {@code flood}, {@code scoped}, {@code gemm},
 * {@code attention}, {@code decoder}. Each computes something real on float arrays and checks its result
 * against an independent computation ({@link dev.dfx.runtime.workload.Workload#check()}).
 * {@link dev.dfx.runtime.workload.Workloads} creates them by name; {@link dev.dfx.runtime.workload.RunWorkloads}
 * runs them without recording and prints wall time and tasks/s.
 */
package dev.dfx.runtime.workload;
