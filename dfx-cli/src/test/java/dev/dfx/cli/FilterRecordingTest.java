package dev.dfx.cli;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of the test classes that compare dfx with perf on one fresh {@link FilterRecording}, made once per test
 * class into its own temporary folder (every test of the class is skipped where perf cannot record).
 */
abstract class FilterRecordingTest {
    /** The class's temporary folder: the recording, its build-id cache and perf's outputs. */
    @TempDir
    static Path dir;

    /** The recording, made before the class's first test. */
    static FilterRecording rec;

    @BeforeAll
    static void record() throws Exception {
        rec = FilterRecording.make(dir);
    }
}
