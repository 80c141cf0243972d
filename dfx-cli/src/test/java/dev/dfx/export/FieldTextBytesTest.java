package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.KernelSymbols;
import dev.dfx.perf.trace.TracepointFields;
import dev.dfx.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tracepoint texts written straight as JSON bytes ({@link FieldTextBytes}) against Jackson's generator writing the
 * text {@link EventPrinter#print} prints, for every tracepoint sample of recordings made by perf; and the two byte
 * writers they use ({@link TraceEventBytes#latin1}, {@link TraceEventBytes#unsigned}) against Jackson and
 * {@link Long#toUnsignedString(long)}.
 */
class FieldTextBytesTest {
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
        "syscalls-openat-raw.data"})
    void textsAreThePrintersTextAsJackson(String fixture) throws IOException {
        int written = 0;
        try (PerfSession session = PerfSession.open(Fixtures.perf(fixture), fixture)) {
            EventPrinter printer = new EventPrinter(KernelSymbols.NONE, session.traceEvents().printk(),
                session.traceEvents().longSize());
            Map<Object, FieldTextBytes> forms = new IdentityHashMap<>();
            TraceEventBytes b = new TraceEventBytes();
            StringBuilder scratch = new StringBuilder();
            for (Iterator<TimedRecord> it = session.processingOrder(true); it.hasNext(); ) {
                TimedRecord t = it.next();
                TracepointFields tp = session.tracepoint(t);
                if (tp == null) {
                    continue;
                }
                FieldTextBytes form = forms.computeIfAbsent(t.evsel().format(),
                    f -> FieldTextBytes.of(t.evsel().format()));
                if (form == null) {
                    continue;
                }
                StringBuilder text = new StringBuilder();
                printer.print(t.evsel().format(), tp.data(), text);
                form.write(tp.data(), b.reset(), scratch);
                assertThat(bytes(b)).as(text.toString()).isEqualTo(jackson(text.toString()));
                written++;
            }
        }
        assertThat(written).as("samples whose text was written straight").isPositive();
    }

    /** Every byte value, NULs ending the text, and random runs: the bytes Jackson writes for their Latin-1 text. */
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
            int nul = 0;
            while (nul < raw.length && raw[nul] != 0) {
                nul++;
            }
            String text = new String(raw, 0, nul, StandardCharsets.ISO_8859_1);
            b.reset().raw('"').latin1(MemorySegment.ofArray(raw), 0, raw.length).raw('"');
            assertThat(bytes(b)).as("bytes %s", Arrays.toString(raw)).isEqualTo(jackson(text));
        }
        assertThat(b.reset().latin1(MemorySegment.ofArray(new byte[] {'a'}), 1, 1).size()).isZero();
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
