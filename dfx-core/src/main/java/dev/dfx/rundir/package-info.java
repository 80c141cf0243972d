/**
 * The run directory: what {@code dfx record} writes and every reader of a run reads, without the task runtime.
 *
 * <ul>
 *   <li>{@code RUN/run.json}: {@link dev.dfx.rundir.RunManifest}, read and written by
 *       {@link dev.dfx.rundir.ManifestFile} (Jackson, snake_case keys, every field required unless marked
 *       {@link dev.dfx.rundir.OptionalField}).</li>
 *   <li>{@code RUN/chunks/<subsystem>.dfx} (format in {@code dev.dfx.chunk}): opened with the one damage policy of
 *       every reader by {@link dev.dfx.rundir.RunChunkFiles} (use what is readable, one
 *       {@link dev.dfx.rundir.RunDamage} line per loss), narrowed to what belongs to the run by
 *       {@link dev.dfx.rundir.RunMembership}; records walked by {@link dev.dfx.rundir.ChunkRecords}.</li>
 *   <li>The derived outputs run.json lists ({@link dev.dfx.rundir.OutputFile}), sealed with size and CRC32
 *       ({@link dev.dfx.rundir.OutputSeal}).</li>
 *   <li>{@code RUN/.dfx-record.lock}: the recorder's claim ({@link dev.dfx.rundir.RunLock}); with run.json still
 *       saying {@code running} it tells a run being recorded from one whose recorder is gone
 *       ({@link dev.dfx.rundir.UnfinishedRun}).</li>
 * </ul>
 */
package dev.dfx.rundir;
