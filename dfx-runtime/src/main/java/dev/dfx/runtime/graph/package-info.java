/**
 * The dependency graph a run actually used: every submitted task ({@link dev.dfx.runtime.graph.TaskInfo})
 * and every edge the schedulers resolved ({@link dev.dfx.runtime.graph.Edge}), in resolution order. The
 * oracle for the {@code deps} subsystem's replay and for tests.
 */
package dev.dfx.runtime.graph;
