package dev.dfx.runtime.subsystem;

import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.ChunkWriter;
import dev.dfx.chunk.RunId;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.HostGroup;
import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.OutputFile;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.SchedulerProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One subsystem of a recording: its lanes ({@link LanePlan}, laid out by the subclass's
 * constructor), its pipeline, whose collector appends every drained buffer to {@code RUN/chunks/<subsystem>.dfx},
 * the lane probes that write its records on the runtime's threads, and the export of its output file from the
 * chunk file after the run.
 *
 * <p>Life cycle, on the session's thread unless said otherwise: construct (lanes), {@link #config()} (validates),
 * {@link #start}, lane probes from {@link #core}/{@link #scheduler}/{@link #orchestrator} (each called on the
 * runtime thread that will use it, which flushes its lanes when it closes the probe), {@link #stop()} once every
 * runtime thread ended, {@link #export}, {@link #close()}. {@link #stats()} from any thread.
 */
public abstract class SubsystemRecorder implements AutoCloseable {
    /** The subsystem's lanes; subclasses add theirs in their constructor. */
    protected final LanePlan plan;
    private PipelineConfig config;
    private Pipeline pipeline;
    private ChunkWriter chunks;
    private volatile PipelineStats finalStats;

    /** @param plan an empty lane plan of the subsystem */
    protected SubsystemRecorder(LanePlan plan) {
        this.plan = plan;
    }

    /** @return the subsystem */
    public final Subsystem id() {
        return plan.subsystem();
    }

    /** @return the lane plan */
    public final LanePlan plan() {
        return plan;
    }

    /**
     * @return the pipeline configuration (built once)
     * @throws dev.dfx.error.BadInputException when it is not valid
     */
    public final synchronized PipelineConfig config() {
        if (config == null) {
            config = plan.build();
        }
        return config;
    }

    /**
     * Creates the chunk file and starts the pipeline on the recording's host threads.
     *
     * @param runDir the run directory
     * @param run    the run's id, written in the chunk file's header
     * @param host   the host threads shared by every subsystem of the recording
     * @param wrap   wraps the subsystem's collector (the session watches it for write failures)
     * @throws IOException when the chunk file cannot be created
     */
    public final void start(Path runDir, RunId run, HostGroup host, UnaryOperator<Collector> wrap)
            throws IOException {
        chunks = ChunkStore.create(runDir, run, id().id(), id().kinds());
        pipeline = Pipeline.start(config(), wrap.apply(collector(runDir, chunks)), host);
        started();
    }

    /**
     * @param runDir the run directory
     * @param chunks the subsystem's chunk file
     * @return the collector of the pipeline; by default it only appends chunks
     * @throws IOException when a side file of the collector cannot be created
     */
    protected Collector collector(Path runDir, ChunkWriter chunks) throws IOException {
        return new ChunkCollector(plan, chunks);
    }

    /** Called once the pipeline runs, before any lane probe exists (e.g. to wire a hook to it). */
    protected void started() {
    }

    /** @return the running pipeline (after {@link #start}) */
    protected final Pipeline pipeline() {
        return pipeline;
    }

    /** @return the writer of pipeline lane {@code lane}, or null when {@code lane} is -1 */
    protected final LaneWriter writer(int lane) {
        return lane < 0 ? null : pipeline.writer(lane);
    }

    /** @return the lane probe of core {@code core}, created on its thread; {@link CoreProbe#NONE} by default */
    public CoreProbe core(int core) {
        return CoreProbe.NONE;
    }

    /** @return the lane probe of scheduler {@code scheduler}, created on its thread; NONE by default */
    public SchedulerProbe scheduler(int scheduler) {
        return SchedulerProbe.NONE;
    }

    /** @return the orchestrator's lane probe, created on its thread; NONE by default */
    public OrchestratorProbe orchestrator() {
        return OrchestratorProbe.NONE;
    }

    /** @return the final stats after {@link #stop()}, else a live snapshot (null before {@link #start}); any thread */
    public final PipelineStats stats() {
        PipelineStats f = finalStats;
        if (f != null) {
            return f;
        }
        Pipeline p = pipeline;
        return p == null ? null : p.stats();
    }

    /**
     * Stops the pipeline (final passes, recovery of un-flushed buffers, reconcile) and closes the chunk file.
     * Call after every runtime thread ended.
     *
     * @return the final, reconciled stats
     * @throws IOException when the chunk file cannot be completed
     */
    public final PipelineStats stop() throws IOException {
        PipelineStats s = pipeline.stop();
        finalStats = s;
        chunks.close();
        afterStop();
        return s;
    }

    /**
     * Called once the pipeline stopped and the chunk file closed (e.g. to close a side file).
     *
     * @throws IOException when a file cannot be completed
     */
    protected void afterStop() throws IOException {
    }

    /** @return whether the chunk file was closed with its chunk index (after {@link #stop()}): no write failed */
    public final boolean chunkFileComplete() {
        return chunks != null && chunks.complete();
    }

    /**
     * @return the chunks that the collector stored but that never reached the disk because a later write failed
     *         ({@link ChunkWriter#lostChunks}); empty when none
     */
    public final List<ChunkInfo> chunksLost() {
        return chunks == null ? List.of() : chunks.lostChunks();
    }

    /**
     * @return the file system's error that failed the chunk file ({@link ChunkWriter#failure}), or null when none
     *         did
     */
    public final IOException chunkFailure() {
        return chunks == null ? null : chunks.failure();
    }

    /** @return records in the chunk file: stored by the collector and not lost to a failed write */
    public final long chunkRecordsOnDisk() {
        return chunks == null ? 0 : chunks.recordCount() - chunksLost().stream().mapToLong(ChunkInfo::recordCount).sum();
    }

    /**
     * Writes the subsystem's output files from its chunk file; after {@link #stop()}.
     *
     * @param runDir the run directory
     * @return what was written (or refused, and why)
     * @throws IOException when a file cannot be read or written
     */
    public List<OutputFile> export(Path runDir) throws IOException {
        return List.of();
    }

    /** @return subsystem-specific facts for run.json (e.g. truncations), by name; empty by default */
    public Map<String, Object> details() {
        return Map.of();
    }

    /** Frees the pipeline's memory (stops it first if needed). */
    @Override
    public void close() {
        if (pipeline != null) {
            pipeline.close();
        }
    }
}
