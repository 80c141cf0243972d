package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.KernelSymbols;
import dev.dfx.perf.trace.TracepointFields;
import dev.dfx.testing.Fixtures;
import java.util.Iterator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tracepoint texts printed into bytes ({@link TraceTextBytes}, through {@link dev.dfx.perf.trace.TraceTextWriter})
 * against the text {@link EventPrinter#print} prints, decoded as UTF-8, for every tracepoint sample of recordings made
 * by perf.
 */
class TraceTextBytesTest {
    @ParameterizedTest
    @ValueSource(strings = {"sched-switch-wakeup-a.data", "sched-wait-nanosleep.data", "irq-a.data",
        "syscalls-openat-raw.data", "timer-a.data", "raw-R-mixed.data", "sched-lost-m1-z.data"})
    void textsAreThePrintersText(String fixture) {
        int written = 0;
        try (PerfSession session = PerfSession.open(Fixtures.perf(fixture), fixture)) {
            EventPrinter printer = new EventPrinter(KernelSymbols.NONE, session.traceEvents().printk(),
                session.traceEvents().longSize());
            TraceTextBytes texts = new TraceTextBytes();
            for (Iterator<TimedRecord> it = session.processingOrder(true); it.hasNext(); ) {
                TimedRecord t = it.next();
                TracepointFields tp = session.tracepoint(t);
                if (tp == null) {
                    continue;
                }
                StringBuilder text = new StringBuilder();
                printer.print(t.evsel().format(), tp.data(), text);
                assertThat(texts.text(printer, t.evsel().format(), tp.data())).as(text.toString())
                    .isEqualTo(Utf8Names.decode(text.toString()));
                written++;
            }
        }
        assertThat(written).as("tracepoint samples").isPositive();
    }
}
