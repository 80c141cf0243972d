package dev.dfx.perf.dump;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx dump} against every {@code NAME.dump.txt} golden of the fixtures, produced by {@code perf report -D}
 * (perf 6.1) with the relative file name {@code NAME.data}: the whole output must be byte-identical.
 */
class DumpGoldenTest {
    static Stream<String> recordings() {
        return Goldens.RECORDINGS.stream();
    }

    @ParameterizedTest(name = "{0}.dump.txt")
    @MethodSource("recordings")
    void dumpMatchesPerfReportD(String name) {
        String actual = Goldens.capture(bytes -> {
            try (PerfSession s = PerfSession.open(Goldens.fixture(name + ".data"), name + ".data")) {
                TextSink out = new TextSink(bytes);
                new DumpPrinter(s, out).run();
                out.flush();
            }
        });
        Goldens.assertSame(name + ".dump.txt", Goldens.read(name + ".dump.txt"), actual);
    }
}
