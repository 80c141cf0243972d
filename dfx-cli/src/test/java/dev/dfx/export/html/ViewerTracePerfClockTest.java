package dev.dfx.export.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.dfx.export.SliceFlows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A perf.data page of a machine up for more than 2^53 ns (104 days): its times count from the first event. */
class ViewerTracePerfClockTest {
    /** 2^53 ns + 1e12 ns: 9,007,199,254,740,992 + 1,000,000,000,000 = 9,008,199,254,740,992 ns, 104.26 days. */
    private static final long FIRST = (1L << 53) + 1_000_000_000_000L;

    @Test
    void timesPastTwoToTheFiftyThirdAreWrittenFromTheFirstEventAndTheOriginExactly() throws IOException {
        ViewerTrace trace = ViewerTrace.onPerfClock();
        trace.process(0, "CPUs", 0);
        trace.thread(0, 1, "CPU 1", 1);
        trace.counter(0, "load", FIRST + 500, Map.of("v", 3));
        trace.complete(0, 1, "swapper", "sched", FIRST + 7, 1000, Map.of(), SliceFlows.NONE);
        trace.instant(0, 1, "wakeup", "sched", FIRST, Map.of());
        trace.instant(0, 1, "wakeup", "sched", FIRST + 123_456_789_012L, Map.of());

        JsonNode page = write(trace);
        // 9,008,199,254,740,992 ns = 9,008,199 s + 254,740,992 ns
        assertThat(page.get("originSec").asLong()).isEqualTo(9_008_199L);
        assertThat(page.get("originSubNs").asLong()).isEqualTo(254_740_992L);
        assertThat(ColumnCodecTest.read(page.get("slices").get("start"))).containsExactly(7);
        assertThat(ColumnCodecTest.read(page.get("instants").get("ts"))).containsExactly(0, 123_456_789_012L);
        assertThat(ColumnCodecTest.read(page.get("counters").get(0).get("ts"))).containsExactly(500);
    }

    @Test
    void aRunsPageKeepsItsOriginAndTimes() throws IOException {
        ViewerTrace trace = new ViewerTrace(1_000);
        trace.process(0, "Cores", 0);
        trace.thread(0, 1, "core 1", 1);
        trace.complete(0, 1, "task", "task", 1_500, 10, Map.of(), SliceFlows.NONE);

        JsonNode page = write(trace);
        assertThat(page.get("originNs").asLong()).isEqualTo(1_000);
        assertThat(page.get("originSubNs").asLong()).isEqualTo(1_000);
        assertThat(ColumnCodecTest.read(page.get("slices").get("start"))).containsExactly(500);
    }

    private static JsonNode write(ViewerTrace trace) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = PageJson.generator(out)) {
            g.writeStartObject();
            trace.write(g);
            g.writeEndObject();
        }
        return PageJson.MAPPER.readTree(out.toByteArray());
    }
}
