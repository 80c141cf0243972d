package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.KernelSymbols;
import dev.dfx.perf.trace.TracepointFields;
import dev.dfx.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tracepoint texts written as JSON bytes ({@link TraceTextBytes}) against Jackson's generator writing the text
 * {@link EventPrinter#print} prints, for every tracepoint sample of recordings made by perf; and the byte writers of
 * {@link TraceEventBytes} they and the trace use ({@link TraceEventBytes#latin1}, {@link TraceEventBytes#unsigned})
 * against Jackson and {@link Long#toUnsignedString(long)}.
 */
class TraceTextBytesTest {
    private static byte[] jackson(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.writeString(s);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(TraceEventBytes b) {
        return Arrays.copyOf(b.array(), b.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sched-switch-wakeup-a.data", "sched-wait-nanosleep.data", "irq-a.data",
        "syscalls-openat-raw.data", "timer-a.data", "raw-R-mixed.data", "sched-lost-m1-z.data"})
    void textsAreThePrintersTextAsJackson(String fixture) throws IOException {
        int written = 0;
        try (PerfSession session = PerfSession.open(Fixtures.perf(fixture), fixture)) {
            EventPrinter printer = new EventPrinter(KernelSymbols.NONE, session.traceEvents().printk(),
                session.traceEvents().longSize());
            TraceTextBytes texts = new TraceTextBytes();
            TraceEventBytes b = new TraceEventBytes();
            for (Iterator<TimedRecord> it = session.processingOrder(true); it.hasNext(); ) {
                TimedRecord t = it.next();
                TracepointFields tp = session.tracepoint(t);
                if (tp == null) {
                    continue;
                }
                StringBuilder text = new StringBuilder();
                printer.print(t.evsel().format(), tp.data(), text);
                texts.write(printer, t.evsel().format(), tp.data(), b.reset());
                assertThat(bytes(b)).as(text.toString()).isEqualTo(jackson(Utf8Names.decode(text.toString())));
                written++;
            }
        }
        assertThat(written).as("tracepoint samples").isPositive();
    }

    /** Every byte value, and random runs: the bytes Jackson writes for their Latin-1 text. */
    @Test
    void latin1IsJacksonsBytesOfTheLatin1Text() throws IOException {
        TraceEventBytes b = new TraceEventBytes();
        SplittableRandom random = new SplittableRandom(20261203);
        for (int n = 0; n < 3000; n++) {
            byte[] raw = new byte[n < 256 ? 3 : random.nextInt(40)];
            if (n < 256) {
                raw[0] = 'x';
                raw[1] = (byte) n;
                raw[2] = 'y';
            } else {
                random.nextBytes(raw);
            }
            String text = new String(raw, StandardCharsets.ISO_8859_1);
            b.reset().raw('"').latin1(raw, 0, raw.length).raw('"');
            assertThat(bytes(b)).as("bytes %s", Arrays.toString(raw)).isEqualTo(jackson(text));
        }
        assertThat(b.reset().latin1(new byte[] {'a', 'b'}, 1, 1).size()).isZero();
        assertThat(bytes(b.reset().latin1(new byte[] {'a', 'b', 'c'}, 1, 2))).containsExactly('b');
    }

    @Test
    void unsignedIsLongToUnsignedString() {
        TraceEventBytes b = new TraceEventBytes();
        SplittableRandom random = new SplittableRandom(11);
        LongStream.concat(LongStream.of(0, 1, 9, 10, Long.MAX_VALUE, Long.MIN_VALUE, -1, -10, -11),
                random.longs(3000)).forEach(v -> assertThat(new String(bytes(b.reset().unsigned(v)),
                StandardCharsets.US_ASCII)).isEqualTo(Long.toUnsignedString(v)));
    }
}
