package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.dfx.pipeline.Collector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every user-event call of {@code dfx.h} arrives as the record the ABI describes, with its name and argument key
 * resolved through the lane's string table, and its timestamp on this JVM's CLOCK_MONOTONIC ({@link System#nanoTime}
 * on Linux) — read directly, or from the TSC and converted with the published calibration.
 */
class UserEventsTest {
    @TempDir
    Path dir;

    /** An event with its strings resolved. */
    record Seen(UserEvent event, String name, String key) {
    }

    private List<Seen> record(String... args) throws Exception {
        List<Seen> seen = new ArrayList<>();
        AtomicReference<RegionHost> host = new AtomicReference<>();
        Collector c = b -> {
            for (int i = 0; i < b.recordCount(); i++) {
                UserEvent e = UserEvent.read(b.records(), (long) i * UserEvent.BYTES);
                StringTable t = host.get().strings(b.lane());
                synchronized (seen) {
                    seen.add(new Seen(e, t.resolve(e.name()), t.resolve(e.argKey())));
                }
            }
        };
        try (RegionHost h = RegionHost.start(dir.resolve("r.dfxr"), RegionSpec.builder().build(), c)) {
            host.set(h);
            long before = System.nanoTime();
            CProducer.Run run = CProducer.start(h.file(), dir, args);
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            long after = System.nanoTime();
            RegionStats s = h.stop();
            assertThat(s.reconciled()).isTrue();
            this.before = before;
            this.after = after;
            this.tsc = s.tsc().orElse(null);
        }
        return seen;
    }

    private long before;
    private long after;
    private TscCalibration tsc;

    @Test
    void everyEventTypeArrivesWithItsNamesAndValues() throws Exception {
        List<Seen> seen = record("1", "0", "events");
        assertThat(seen).extracting(s -> s.event().type(), Seen::name, Seen::key, s -> s.event().value())
                .containsExactly(
                        tuple(UserEventType.SLICE_BEGIN, "outer", null, 0L),
                        tuple(UserEventType.SLICE_BEGIN, "inner", "depth", 2L),
                        tuple(UserEventType.SLICE_END, null, null, 0L),
                        tuple(UserEventType.SLICE_END, null, null, 0L),
                        tuple(UserEventType.SLICE_COMPLETE, "complete", null, 250L),
                        tuple(UserEventType.INSTANT, "tick", null, 0L),
                        tuple(UserEventType.COUNTER, "queue depth", null, -7L),
                        tuple(UserEventType.COUNTER, "ratio", null, Double.doubleToLongBits(0.5)),
                        tuple(UserEventType.FLOW_BEGIN, "request", null, 42L),
                        tuple(UserEventType.FLOW_STEP, "request", null, 42L),
                        tuple(UserEventType.FLOW_END, "request", null, 42L),
                        tuple(UserEventType.INSTANT, "at", null, 5L),
                        tuple(UserEventType.INSTANT, "名前", null, 0L));
        assertThat(seen.get(7).event().f64()).isTrue();
        assertThat(seen.get(7).event().doubleValue()).isEqualTo(0.5);
        assertThat(seen.get(4).event().time()).isEqualTo(1000);
        assertThat(seen.get(11).event().time()).isEqualTo(123_456_789);
        long last = before;
        for (Seen s : seen) {
            if (s.event().type() == UserEventType.SLICE_COMPLETE || "at".equals(s.name())) {
                continue;  // explicit timestamps
            }
            assertThat(s.event().tsc()).isFalse();
            assertThat(s.event().time()).isBetween(last, after);
            last = s.event().time();
        }
    }

    @Test
    void tscTimestampsConvertOntoClockMonotonic() throws Exception {
        List<Seen> seen = record("1", "2000", "tsc");
        assertThat(tsc).as("the producer published a calibration").isNotNull();
        assertThat(tsc.hz()).isBetween(1e6, 1e11);
        assertThat(seen).hasSize(2000);
        long last = before;
        for (Seen s : seen) {
            assertThat(s.event().tsc()).isTrue();
            long ns = s.event().timeNs(tsc);
            assertThat(ns).isBetween(last, after);
            last = ns;
        }
    }
}
