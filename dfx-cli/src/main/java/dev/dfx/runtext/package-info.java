/**
 * A run directory's records as text for a terminal: {@link dev.dfx.runtext.RunScript} ({@code dfx script RUN}, every
 * record in time order) and {@link dev.dfx.runtext.RunDump} ({@code dfx dump RUN}, every chunk with offsets and raw
 * bytes), each field printed from the record schemas by {@link dev.dfx.runtext.RecordFields}. The directory is read
 * through dfx-core's {@code dev.dfx.rundir}.
 */
package dev.dfx.runtext;
