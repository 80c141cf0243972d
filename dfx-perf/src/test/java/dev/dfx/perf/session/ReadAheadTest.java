package dev.dfx.perf.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReadAhead} against the session's own processing-order iterator on the same file: the same records in the
 * same order, and on a file cut short the same records before the same error. Small batches and a short queue make
 * the reading thread wait for the consumer and hand over many batches.
 */
class ReadAheadTest {
    /** A record as delivered: where it lies in the file, its timestamp and its event. */
    private record Seen(long offset, long time, String event) {
    }

    private static Seen seen(TimedRecord t) {
        return new Seen(t.record().fileOffset(), t.time(), t.evsel() == null ? null : t.evsel().name());
    }

    /** @return the records {@code it} delivers and the message of the exception it ended with (null: none) */
    private static List<Object> drain(Iterator<TimedRecord> it) {
        List<Object> out = new ArrayList<>();
        try {
            while (it.hasNext()) {
                out.add(seen(it.next()));
            }
            out.add(null);
        } catch (BadInputException e) {
            out.add(e.getMessage());
        }
        return out;
    }

    private static List<Object> direct(Path file) {
        try (PerfSession s = PerfSession.open(file, "x")) {
            return drain(s.processingOrder(true));
        }
    }

    private static List<Object> ahead(Path file, int batchSize, int batches) {
        try (PerfSession s = PerfSession.open(file, "x");
             ReadAhead r = new ReadAhead(s.processingOrder(true), batchSize, batches)) {
            return drain(r);
        }
    }

    @Test
    void sameRecordsInTheSameOrder() {
        for (String name : List.of("sched-switch-wakeup-a.data", "irq-a.data", "compressed-z.data")) {
            Path f = Goldens.fixture(name);
            List<Object> want = direct(f);
            assertThat(want).hasSizeGreaterThan(50).endsWith((Object) null);
            assertThat(ahead(f, 7, 2)).as(name).isEqualTo(want);
            assertThat(ahead(f, 2048, 4)).as(name).isEqualTo(want);
        }
    }

    @Test
    void aFileCutShortEndsWithTheSameErrorAfterTheSameRecords(@TempDir Path dir) throws Exception {
        byte[] whole = Files.readAllBytes(Goldens.fixture("irq-a.data"));
        Path cut = dir.resolve("cut.data");
        Files.write(cut, Arrays.copyOf(whole, whole.length * 2 / 3));
        List<Object> want = direct(cut);
        assertThat(want.getLast()).asString().contains("truncated");
        assertThat(ahead(cut, 7, 2)).isEqualTo(want);
    }

    @Test
    void closingBeforeTheEndStopsTheReading() {
        try (PerfSession s = PerfSession.open(Goldens.fixture("irq-a.data"), "x")) {
            ReadAhead r = new ReadAhead(s.processingOrder(true), 3, 1);
            assertThat(r.hasNext()).isTrue();
            r.next();
            r.close(); // the reading thread is blocked on the full queue
            assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("dfx-read-ahead"));
        }
    }
}
