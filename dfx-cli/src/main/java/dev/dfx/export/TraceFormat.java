package dev.dfx.export;

import java.io.OutputStream;
import java.util.Locale;

/**
 * The trace file formats an export can write, each a {@link TraceSink} over an output stream. Stateless.
 */
public enum TraceFormat {
    /** Chrome trace-event JSON, which Perfetto and chrome://tracing open ({@link ChromeTraceWriter}). */
    CHROME,
    /** Perfetto's native protobuf trace of TracePackets ({@link PerfettoTraceWriter}). */
    PERFETTO;

    /**
     * @param out   where the trace goes; closed when the sink is finished or closed
     * @param clock the clock of the events' timestamps
     * @return a sink writing this format
     */
    public TraceSink open(OutputStream out, TraceClock clock) {
        return switch (this) {
            case CHROME -> new ChromeTraceWriter(out, clock.originNs());
            case PERFETTO -> new PerfettoTraceWriter(out, clock);
        };
    }

    /** @return the format's name on the command line ({@code chrome}, {@code perfetto}) */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
