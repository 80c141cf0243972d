package dev.dfx.perf.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.trace.TracepointFields;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files built by {@link PerfDataWriter} are valid perf.data: this reader finds what was written, and the real perf
 * 6.1 (when installed) reads the file without AUX data and prints what this reader prints, byte for byte, for
 * {@code perf script} and {@code perf report -D}. perf 6.1 has no vpa-dtl decoder: it stops at the AUXTRACE_INFO
 * record ("failed to process type: 70"), and everything it printed up to there is what this reader prints.
 */
class PerfDataWriterTest {
    @TempDir
    Path dir;

    @Test
    void readerFindsWhatWasWritten() throws IOException {
        Path f = DtlScenario.write(dir.resolve("s.data"), false);
        try (PerfSession s = PerfSession.open(f, "s.data")) {
            assertThat(s.evlist().all()).extracting(e -> e.name()).containsExactly("sched:sched_switch");
            assertThat(s.evlist().first().idCount()).isEqualTo(2);
            assertThat(s.features()).containsKeys(Feature.TRACING_DATA.bit(), Feature.NRCPUS.bit(),
                Feature.EVENT_DESC.bit()).doesNotContainKey(Feature.AUXTRACE.bit());
            List<String> switches = new ArrayList<>();
            for (Iterator<TimedRecord> it = s.processingOrder(true); it.hasNext(); ) {
                TimedRecord t = it.next();
                TracepointFields tp = s.tracepoint(t);
                if (tp != null) {
                    switches.add(t.time() + " " + t.sample().cpu() + " " + tp.string("prev_comm") + ">"
                        + tp.string("next_comm") + " " + tp.number("prev_state"));
                }
            }
            assertThat(switches).containsExactly("10000 0 swapper/0>a 0", "15000 1 swapper/1>b 0",
                "20000 0 a>swapper/0 1", "25000 1 b>swapper/1 1", "30000 0 swapper/0>a 0", "40000 0 a>swapper/0 2",
                "45000 1 swapper/1>b 0", "50000 0 swapper/0>a 0");
        }
    }

    @Test
    void auxFileHasTheIndexOfItsAuxtraceRecords() throws IOException {
        Path f = DtlScenario.write(dir.resolve("a.data"), true);
        try (PerfSession s = PerfSession.open(f, "a.data")) {
            assertThat(s.features().get(Feature.AUXTRACE.bit()).byteSize()).isEqualTo(8 + 4 * 16);
            assertThat(s.evlist().first().name()).isEqualTo("vpa_dtl/dtl_all/");
        }
    }

    @Test
    void perfScriptPrintsWhatThisReaderPrints() throws IOException {
        DtlScenario.write(dir.resolve("s.data"), false);
        LivePerf perf = LivePerf.run(dir, "script", "-i", "s.data");
        assumeTrue(perf != null, "perf is not installed");
        assertThat(perf.status()).isZero();
        assertThat(perf.out()).contains("sched:sched_switch: prev_comm=a prev_pid=100");
        Goldens.assertSame("perf script", perf.out(), Goldens.script(dir.resolve("s.data"), "s.data", null));
    }

    @Test
    void perfReportDumpPrintsWhatThisReaderPrints() throws IOException {
        DtlScenario.write(dir.resolve("s.data"), false);
        LivePerf perf = LivePerf.run(dir, "report", "-D", "-i", "s.data");
        assumeTrue(perf != null, "perf is not installed");
        assertThat(perf.status()).isZero();
        Goldens.assertSame("perf report -D", perf.out(), Goldens.dump(dir.resolve("s.data"), "s.data"));
    }

    @Test
    void perf61StopsAtTheVpaDtlInfoAfterPrintingWhatThisReaderPrints() throws IOException {
        DtlScenario.write(dir.resolve("a.data"), true);
        LivePerf perf = LivePerf.run(dir, "report", "-D", "-i", "a.data");
        assumeTrue(perf != null, "perf is not installed");
        assertThat(perf.out()).endsWith("PERF_RECORD_AUXTRACE_INFO type: 7\n");
        String ours = Goldens.dump(dir.resolve("a.data"), "a.data");
        assertThat(ours).startsWith(perf.out());
        assertThat(ours.substring(perf.out().length())).startsWith("  PMU Type           0\n");
    }
}
