package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ChromeTraceWriterTest {
    private static final long ORIGIN = 1_000_000_000_123L;

    @Test
    void microsIsExactDecimalText() {
        assertThat(TraceTime.micros(0)).isEqualTo("0.000");
        assertThat(TraceTime.micros(5)).isEqualTo("0.005");
        assertThat(TraceTime.micros(1_234_567)).isEqualTo("1234.567");
        assertThat(TraceTime.micros(1_000_000_000_000_001L)).isEqualTo("1000000000000.001");
        assertThat(TraceTime.micros(Long.MAX_VALUE)).isEqualTo("9223372036854775.807");
        assertThatThrownBy(() -> TraceTime.micros(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void microsIntoCharsIsTheSameTextAsTheBigDecimalQuotient() {
        char[] into = new char[TraceTime.MAX_CHARS];
        SplittableRandom random = new SplittableRandom(20261202);
        LongStream edges = LongStream.of(0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9_999_999, 10_000_000,
                Long.MAX_VALUE, Long.MAX_VALUE - 1);
        LongStream randoms = random.longs(2000, 0, Long.MAX_VALUE).flatMap(v -> LongStream.of(v, v >>> 20, v >>> 40));
        LongStream.concat(edges, randoms).forEach(ns -> {
            String expected = BigDecimal.valueOf(ns).movePointLeft(3).setScale(3).toPlainString();
            assertThat(new String(into, 0, TraceTime.micros(ns, into))).as("%d ns", ns).isEqualTo(expected);
        });
        assertThatThrownBy(() -> TraceTime.micros(-1, into)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void subLanesSeparateOverlappingBarsAndReuseFreedOnes() {
        SubLanes lanes = new SubLanes();
        assertThat(lanes.place(0, 10)).isZero();
        assertThat(lanes.place(5, 20)).isEqualTo(1);   // overlaps [0,10]
        assertThat(lanes.place(10, 12)).isZero();      // [0,10] ended exactly at 10
        assertThat(lanes.place(11, 30)).isEqualTo(2);  // 0 busy to 12, 1 busy to 20
        assertThat(lanes.place(25, 26)).isZero();
        assertThat(lanes.count()).isEqualTo(3);
    }

    private static byte[] sampleTrace() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter w = new ChromeTraceWriter(out, ORIGIN);
        w.process(1, "cores", 1);
        w.thread(1, 10, "core 0", 0);
        w.complete(1, 10, "task a", "task", ORIGIN + 1_001, 2_000_000_007L, Map.of("taskId", "0x1"),
                new SliceFlows("dependency", new long[] {7}, new long[0]));
        w.complete(1, 10, "inner", "task", ORIGIN + 2_000, 5, Map.of());
        w.complete(1, 11, "task b", "task", ORIGIN + 2_000_000_008L + 1_001, 1, Map.of(),
                new SliceFlows("dependency", new long[0], new long[] {7}));
        w.counter(1, "ready queue", ORIGIN + 3, Map.of("depth", 4L));
        w.instant(1, 10, "stall", "stall", ORIGIN + 9, Map.of("lane", 3));
        w.finish(Map.of("clock_freq_hz", 1_000_000_000L));
        assertThat(w.eventCount()).isEqualTo(11);
        return out.toByteArray();
    }

    @Test
    void writtenTraceIsValidAndKeepsEveryNanosecond() throws Exception {
        byte[] json = sampleTrace();
        assertThat(TraceEventChecker.check(new ByteArrayInputStream(json))).isEmpty();
        JsonNode root = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(json);
        JsonNode bar = root.get("traceEvents").get(4);
        assertThat(bar.get("name").asText()).isEqualTo("task a");
        assertThat(bar.get("ts").decimalValue().movePointRight(3).longValueExact()).isEqualTo(1_001);
        assertThat(bar.get("dur").decimalValue().movePointRight(3).longValueExact()).isEqualTo(2_000_000_007L);
        assertThat(root.get("displayTimeUnit").asText()).isEqualTo("ns");
        assertThat(root.get("metadata").get("clock_freq_hz").asLong()).isEqualTo(1_000_000_000L);
    }

    @Test
    void flowEventsTakeTheirSliceCategoryAndTimeAndAnEndWaitsForItsStart() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter w = new ChromeTraceWriter(out, ORIGIN);
        w.complete(1, 2, "consumer", "task", ORIGIN + 50, 10, Map.of(),
                new SliceFlows("dependency", new long[0], new long[] {3}));   // its arrow's start comes later
        w.complete(1, 1, "producer", "task", ORIGIN + 5, 10, Map.of(),
                new SliceFlows("dependency", new long[] {3}, new long[0]));
        w.finish(Map.of());
        assertThat(TraceEventChecker.check(new ByteArrayInputStream(out.toByteArray()))).isEmpty();
        JsonNode events = new ObjectMapper().readTree(out.toByteArray()).get("traceEvents");
        assertThat(events).hasSize(4);
        JsonNode start = events.get(2);
        JsonNode end = events.get(3);
        assertThat(start.get("ph").asText()).isEqualTo("s");
        assertThat(end.get("ph").asText()).isEqualTo("f");
        // each carries the cat, ts, pid and tid of the slice it binds to
        JsonNode producer = events.get(1);
        JsonNode consumer = events.get(0);
        for (String key : List.of("cat", "pid", "tid", "ts")) {
            assertThat(start.get(key)).as(key).isEqualTo(producer.get(key));
            assertThat(end.get(key)).as(key).isEqualTo(consumer.get(key));
        }
        assertThat(producer.get("name").asText()).isEqualTo("producer");
        assertThat(start.get("ts").asDouble()).isEqualTo(0.005);
    }

    @Test
    void anArrowBetweenTwoCategoriesIsRefused() {
        ChromeTraceWriter w = new ChromeTraceWriter(new ByteArrayOutputStream(), ORIGIN);
        w.complete(1, 1, "a", "task", ORIGIN, 1, Map.of(), new SliceFlows("dep", new long[] {1}, new long[0]));
        assertThatThrownBy(() -> w.complete(1, 2, "b", "phase", ORIGIN + 1, 1, Map.of(),
                new SliceFlows("dep", new long[0], new long[] {1})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("category");
    }

    @Test
    void anArrowStartedOrEndedTwiceIsRefusedAndAnEndWithoutItsStartIsWrittenAtTheEnd() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter w = new ChromeTraceWriter(out, ORIGIN);
        w.complete(1, 1, "a", "task", ORIGIN, 1, Map.of(), new SliceFlows("dep", new long[] {1}, new long[] {5}));
        assertThatThrownBy(() -> w.complete(1, 2, "b", "task", ORIGIN + 1, 1, Map.of(),
                new SliceFlows("dep", new long[] {1}, new long[0])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flow 1 starts twice");
        assertThatThrownBy(() -> w.complete(1, 3, "c", "task", ORIGIN + 2, 1, Map.of(),
                new SliceFlows("dep", new long[0], new long[] {5})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flow 5 ends twice");
        // the refused slices are written, their arrows not; arrow 1L << 40 starts, arrow 1 ends, arrow 5 never starts
        w.complete(1, 4, "d", "task", ORIGIN + 3, 1, Map.of(),
                new SliceFlows("dep", new long[] {1L << 40}, new long[] {1}));
        w.finish(Map.of());
        JsonNode events = new ObjectMapper().readTree(out.toByteArray()).get("traceEvents");
        StringBuilder seen = new StringBuilder();
        for (JsonNode e : events) {
            seen.append(e.get("ph").asText()).append(e.has("id") ? e.get("id").asLong() : "").append(' ');
        }
        assertThat(seen.toString()).isEqualTo("X s1 X X X s1099511627776 f1 f5 ");
    }

    /** @return {@code s} with each surrogate replaced by a pair (the names repeat over many events: encoded once) */
    private static String paired(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.chars().forEach(c -> out.append(Character.isSurrogate((char) c) ? "\uD83D\uDE00" : String.valueOf((char) c)));
        return out.toString();
    }

    /** Writes events of every kind and hostile texts, each event written in one piece or, with {@code tokens}, not. */
    private static byte[] mixedTrace(boolean tokens, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter w = new ChromeTraceWriter(out, ORIGIN, false, tokens);
        w.process(1, "CPUs", 0);
        w.thread(1, 1000, "CPU 0", 1000);
        TraceArgs args = new TraceArgs();
        Map<String, String> functions = new HashMap<>();
        for (int f = 0; f < 20; f++) {
            functions.put(Integer.toString(f), JsonWriterTest.hostile(random, random.nextInt(10)));
        }
        TaskBarName bar = new TaskBarName(functions);
        for (int i = 0; i < 3000; i++) {
            String text = JsonWriterTest.hostile(random, random.nextInt(40));
            // names and short values are encoded once through Jackson's string encoder, which refuses a lone
            // surrogate (the generator writes it as an escape): those get none
            String name = i % 3 == 0 ? "sched:sched_waking" : "event " + random.nextInt(6000) + paired(text);
            long ns = ORIGIN + random.nextLong(1L << 50);
            args.reset().add("comm", i % 2 == 0 ? "perf" : paired(text.substring(0, Math.min(text.length(), 15))))
                    .add("pid", random.nextInt()).add("tid", random.nextLong()).add("on", random.nextBoolean())
                    .add("trace", text + "comm=perf pid=1740 runtime=167208 [ns]")
                    .addTaskId("task_id", random.nextLong());
            if (i % 7 == 0) {
                args.add(paired(text) + "key", text + " of more than sixteen chars");
            }
            if (i % 11 == 0) {
                args.add("nested", Map.of("k", 1.5)); // no one-piece writing for maps: token by token
            }
            switch (i % 5) {
                case 0 -> w.instant(1, 1000, name, "sample", ns, args);
                case 1 -> {
                    if (i % 2 == 0) { // a run's task bar, named from its parts, with arrows
                        // arrow i + 10 ends here before it starts (i % 20 == 16); arrow i - 10 ends after its start
                        SliceFlows arrows = new SliceFlows(paired(text) + "dep", new long[] {i},
                                new long[] {i % 20 == 16 ? i + 10 : i - 10});
                        w.complete(1, random.nextInt(5000), bar.bar(random.nextInt(-2, 25), random.nextLong()),
                                "task", ns, random.nextLong(1L << 40), args, i < 10 ? SliceFlows.NONE : arrows);
                    } else {
                        w.complete(1, random.nextInt(5000), name, "task", ns, random.nextLong(1L << 40), args);
                    }
                }
                case 2 -> w.sample(1, 1000, name, "sample", ns, args, new SampledStack(1, 2, "t", 0, 0,
                        List.of(new SampledStack.Frame("f" + i % 4, "/lib/a.so", i % 4))));
                case 3 -> w.instant(2, 7, name, paired(text), ns, Map.of());
                default -> {
                    Map<String, Number> values = new LinkedHashMap<>();
                    values.put("v", (long) i);
                    values.put(paired(text) + "k", random.nextInt());
                    if (i % 3 == 0) {
                        values.put("d", 0.5 * i); // no one-piece writing for a double: token by token
                    }
                    w.counter(1, i % 2 == 0 ? "depth" : name, ns, i % 13 == 4 ? Map.of() : values);
                }
            }
        }
        w.finish(Map.of("source", "test"));
        return out.toByteArray();
    }

    @Test
    void eventsWrittenInOnePieceAreTheTokenWritersBytes() {
        for (long seed : new long[] {1, 2, 20261202}) {
            byte[] onePiece = mixedTrace(false, seed);
            assertThat(onePiece).as("seed %d", seed).isEqualTo(mixedTrace(true, seed));
        }
    }

    @Test
    void aSampleInstantIsTheKnownJson() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter w = new ChromeTraceWriter(out, 0);
        TraceArgs args = new TraceArgs().add("comm", "perf").add("pid", 1740).add("tid", 1740)
                .add("trace", "comm=migration/0 pid=18 prio=0 target_cpu=000");
        w.instant(1, 1000, "sched:sched_waking", "sample", 95_836_668_344L, args);
        w.complete(1, 1001, "perf 1740", "task", 95_836_670_628L, 1_091, new TraceArgs().add("on", true));
        w.finish(Map.of());
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("{\"traceEvents\":["
                + "{\"ph\":\"i\",\"name\":\"sched:sched_waking\",\"cat\":\"sample\",\"pid\":1,\"tid\":1000,"
                + "\"ts\":95836668.344,\"s\":\"t\",\"args\":{\"comm\":\"perf\",\"pid\":1740,\"tid\":1740,"
                + "\"trace\":\"comm=migration/0 pid=18 prio=0 target_cpu=000\"}},"
                + "{\"ph\":\"X\",\"name\":\"perf 1740\",\"cat\":\"task\",\"pid\":1,\"tid\":1001,"
                + "\"ts\":95836670.628,\"dur\":1.091,\"args\":{\"on\":true}}"
                + "],\"displayTimeUnit\":\"ns\",\"metadata\":{}}");
    }

    @Test
    void eventsBeforeTheOriginAreRefused() {
        ChromeTraceWriter w = new ChromeTraceWriter(new ByteArrayOutputStream(), ORIGIN);
        assertThatThrownBy(() -> w.complete(1, 1, "early", "task", ORIGIN - 1, 1, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("precedes the trace origin");
    }

    private static List<String> check(String json) throws Exception {
        return TraceEventChecker.check(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void checkerFindsPartialOverlapOnOneThread() throws Exception {
        assertThat(check("""
                {"traceEvents":[
                 {"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":10},
                 {"ph":"X","name":"c","pid":1,"tid":2,"ts":5,"dur":10}]}"""))
                .singleElement().asString().contains("partially overlaps");
    }

    @Test
    void checkerFindsUnpairedAndUnboundFlows() throws Exception {
        List<String> problems = check("""
                [{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
                 {"ph":"s","name":"dep","cat":"flow","id":1,"pid":1,"tid":1,"ts":0},
                 {"ph":"s","name":"dep","cat":"flow","id":2,"pid":1,"tid":1,"ts":0},
                 {"ph":"f","bp":"e","name":"dep","cat":"flow","id":2,"pid":1,"tid":9,"ts":3}]""");
        assertThat(problems).anyMatch(p -> p.contains("flow:dep:1") && p.contains("0 end(s)"));
        assertThat(problems).anyMatch(p -> p.contains("not on a slice of thread 1/9"));
    }

    @Test
    void checkerFindsFlowsChromeCannotBind() throws Exception {
        List<String> problems = check("""
                [{"ph":"X","name":"a","cat":"task","pid":1,"tid":1,"ts":0,"dur":10},
                 {"ph":"X","name":"b","cat":"task","pid":1,"tid":2,"ts":4,"dur":10},
                 {"ph":"f","bp":"e","name":"dep","cat":"task","id":1,"pid":1,"tid":2,"ts":4},
                 {"ph":"s","name":"dep","cat":"task","id":1,"pid":1,"tid":1,"ts":0},
                 {"ph":"s","name":"dep","cat":"flow","id":2,"pid":1,"tid":1,"ts":0},
                 {"ph":"f","bp":"e","name":"dep","cat":"flow","id":2,"pid":1,"tid":2,"ts":5}]""");
        assertThat(problems).anyMatch(p -> p.startsWith("event 2: flow end before its start in the file"));
        assertThat(problems).anyMatch(p -> p.startsWith("event 4:") && p.contains("Chrome binds it to none"));
        assertThat(problems).anyMatch(p -> p.startsWith("event 5:") && p.contains("Chrome binds it to none"));
        assertThat(problems).noneMatch(p -> p.startsWith("event 3:"));
    }

    @Test
    void checkerFindsSubNanosecondTimesAndMissingFields() throws Exception {
        List<String> problems = check("""
                {"traceEvents":[
                 {"ph":"X","name":"a","pid":1,"tid":1,"ts":0.0001,"dur":1},
                 {"ph":"Q","name":"b","pid":1,"tid":1,"ts":0},
                 {"ph":"C","name":"c","pid":1,"tid":1,"ts":1,"args":{"v":"x"}}]}""");
        assertThat(problems).anyMatch(p -> p.contains("not a whole number of ns"));
        assertThat(problems).anyMatch(p -> p.contains("unknown or missing ph"));
        assertThat(problems).anyMatch(p -> p.contains("is not a number"));
    }
}
