package dev.dfx.perf.header;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The header and attr printers against {@code NAME.header.txt} / {@code NAME.header-I.txt}
 * ({@code perf report --header-only [-I]}, with the {@code # captured on} line masked: it is the file's
 * modification time, see NONDETERMINISM.md) and {@code NAME.evlist.txt} ({@code perf evlist -v}).
 */
class HeaderGoldenTest {
    static Stream<String> recordings() {
        return Goldens.RECORDINGS.stream();
    }

    static Stream<Arguments> headers() {
        return Stream.concat(recordings().map(n -> Arguments.of(n + ".header.txt", n, false)),
            Stream.of("sched-switch-wakeup-a", "sched-proc.pipe").map(n -> Arguments.of(n + ".header-I.txt", n, true)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headers")
    void headerMatchesPerfReportHeaderOnly(String golden, String name, boolean full) {
        String actual = Goldens.capture(bytes -> {
            try (PerfSession s = PerfSession.open(Goldens.fixture(name + ".data"), name + ".data")) {
                TextSink out = new TextSink(bytes);
                new HeaderPrinter(s, full, out).print();
                out.flush();
            }
        });
        Goldens.assertSame(golden, maskCapturedOn(Goldens.read(golden)), maskCapturedOn(actual));
    }

    @ParameterizedTest(name = "{0}.evlist.txt")
    @MethodSource("recordings")
    void evlistMatchesPerfEvlistV(String name) {
        String actual = Goldens.capture(bytes -> {
            try (PerfSession s = PerfSession.open(Goldens.fixture(name + ".data"), name + ".data")) {
                TextSink out = new TextSink(bytes);
                EvlistPrinter.print(s, out);
                out.flush();
            }
        });
        Goldens.assertSame(name + ".evlist.txt", Goldens.read(name + ".evlist.txt"), actual);
    }

    private static String maskCapturedOn(String text) {
        return text.replaceFirst("(?m)^# captured on    : .*$", "# captured on    : <masked>");
    }
}
