package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording whose JVM runs out of heap ends, whichever thread the OutOfMemoryError hits: a collector or scheduler
 * thread that dies of it used to leave the threads waiting for it, and a SIGTERM handler without heap, hung for good.
 * A real child JVM with a 64 MB heap records the flood workload (65,536 tasks), which does not fit.
 */
class FatalThreadErrorsTest {
    @TempDir
    Path tmp;

    @Test
    void aRecordingOutOfHeapEndsWithOneLineAndItsRunStaysReadable() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.start(tmp, List.of("-Xmx64m", "-XX:+UseSerialGC"), "record", "-w", "flood",
            "-o", run.toString()).finish();
        // where the orchestrator meets it, the run fails as a run (exit 1, summary says why); anywhere else the
        // process says it in one line and halts (exit 70)
        assertThat(d.status()).as(d.output()).isIn(1, 70);
        if (d.status() == 70) {
            // the main thread's error goes through the command's own handler, another thread's through the
            // process's last resort: one line either way
            // (the JVM may add its own notice when a thread's last allocation failed inside the handler)
            List<String> lines = d.stderr().lines().filter(l -> !l.isBlank()
                && !l.startsWith("Exception: java.lang.OutOfMemoryError thrown from the UncaughtExceptionHandler"))
                .toList();
            assertThat(lines).as(d.output()).hasSize(1).first().asString().startsWith("dfx: internal error: ")
                .containsAnyOf("ran out of memory", "OutOfMemoryError");
        } else {
            assertThat(d.stdout()).as(d.output()).contains("OutOfMemoryError");
        }
        // what the chunk files hold is read as a run whose recorder stopped, without hanging
        DfxProcess.Done script = DfxProcess.run(tmp, "script", run.toString());
        assertThat(script.status()).as(script.output()).isIn(0, 1);
    }

    /** With DFX_DEBUG set, the last resort's line is followed by the failing thread's stack trace. */
    @Test
    void withDfxDebugTheLineIsFollowedByTheStackTrace() throws Exception {
        // which thread meets the error first varies, an OutOfMemoryError the JVM throws after its few preallocated
        // ones has no frames to print, and the printing itself may find no heap: up to three recordings for one that
        // ends through the last resort with a trace of frames
        for (int i = 0; i < 3; i++) {
            DfxProcess.Done d = DfxProcess.start(tmp, List.of("-Xmx64m", "-XX:+UseSerialGC"),
                Map.of("DFX_DEBUG", "1"), "record", "-w", "flood", "-o", tmp.resolve("run" + i).toString()).finish();
            if (d.status() == 70 && d.stderr().contains("ran out of memory")) {
                List<String> lines = d.stderr().lines().toList();
                int at = lines.indexOf(lines.stream().filter(l -> l.contains("ran out of memory")).findFirst()
                    .orElseThrow());
                assertThat(lines.get(at)).startsWith("dfx: internal error: a thread of dfx ran out of memory");
                List<String> trace = lines.subList(at + 1, lines.size());
                // the trace is printed on a best effort: another thread may take the reserve the handler let go of
                // before the printing allocates, and then the line stands alone
                if (trace.stream().anyMatch(l -> l.contains("java.lang.OutOfMemoryError"))
                    && trace.stream().anyMatch(l -> l.startsWith("\tat "))) {
                    return;
                }
            }
        }
        assumeTrue(false, "no recording ended through the last resort with a stack trace of frames in three tries");
    }
}
