package dev.dfx.perf.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Auxtrace;
import dev.dfx.perf.event.Comm;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.trace.TracepointFields;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reader API other modules use: file order and processing order see the same records, processing order
 * delivers samples in time order, pipe streams read like pipe files, evsel names and tracepoint fields by
 * name. Expected values come from the fixtures' {@code perf report -D} and {@code perf script} goldens.
 */
class PerfSessionTest {
    private static List<TimedRecord> all(String name, boolean ordered) {
        try (PerfSession s = PerfSession.open(Goldens.fixture(name), name)) {
            List<TimedRecord> out = new ArrayList<>();
            s.processingOrder(ordered).forEachRemaining(out::add);
            return out;
        }
    }

    @Test
    void bothOrdersSeeEveryRecordOnceAndTheStatsMatchPerf() {
        List<TimedRecord> file = all("sched-switch-wakeup-a.data", false);
        List<TimedRecord> perf = all("sched-switch-wakeup-a.data", true);
        // "TOTAL events: 297" in sched-switch-wakeup-a.dump.txt
        assertThat(file).hasSize(297);
        assertThat(perf).hasSize(297);
        assertThat(perf.stream().map(t -> t.record().fileOffset()).sorted().toList())
            .isEqualTo(file.stream().map(t -> t.record().fileOffset()).sorted().toList());
        long last = 0;
        for (TimedRecord t : perf) {
            if (t.record().type() == RecordType.SAMPLE) {
                assertThat(t.time()).isGreaterThanOrEqualTo(last);
                last = t.time();
            }
        }
    }

    @Test
    void evselNamesAndTracepointFieldsByName() {
        try (PerfSession s = PerfSession.open(Goldens.fixture("sched-switch-wakeup-a.data"), "x")) {
            assertThat(s.evlist().all()).extracting(Evsel::name)
                .containsExactly("sched:sched_switch", "sched:sched_wakeup", "dummy:HG");
            Iterator<TimedRecord> it = s.processingOrder(true);
            TracepointFields first = null;
            while (it.hasNext() && first == null) {
                TimedRecord t = it.next();
                if (t.record().type() == RecordType.SAMPLE && t.evsel().name().equals("sched:sched_switch")) {
                    first = s.tracepoint(t);
                }
            }
            // first sched_switch line of sched-switch-wakeup-a.script.txt:
            // prev_comm=perf prev_pid=15616 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18
            assertThat(first.string("prev_comm")).isEqualTo("perf");
            assertThat(first.number("prev_pid")).isEqualTo(15616);
            assertThat(first.number("prev_state")).isEqualTo(2);
            assertThat(first.string("next_comm")).isEqualTo("migration/0");
            assertThat(first.number("next_prio")).isZero();
            assertThat(first.number("common_pid")).isEqualTo(15616);
        }
    }

    @Test
    void typedViewsOfSideBandRecords() {
        List<Comm> comms = new ArrayList<>();
        try (PerfSession s = PerfSession.open(Goldens.fixture("page-faults-d.data"), "x")) {
            s.processingOrder(true).forEachRemaining(t -> {
                if (t.record().type() == RecordType.COMM) {
                    comms.add(Comm.of(t.record()));
                }
            });
        }
        // page-faults-d.tasks.txt: "PERF_RECORD_COMM: perf-exec:15656/15656" then "PERF_RECORD_COMM exec: ls:15656/15656"
        assertThat(comms).containsExactly(new Comm(15656, 15656, "perf-exec", false),
            new Comm(15656, 15656, "ls", true));
    }

    @Test
    void aPipeStreamReadsLikeThePipeFormatFile() throws Exception {
        List<String> fromFile = all("sched-proc.pipe.data", true).stream().map(t -> t.record().toString()).toList();
        List<String> fromStream = new ArrayList<>();
        try (InputStream in = Files.newInputStream(Goldens.fixture("sched-proc.pipe.data"));
             PerfSession s = PerfSession.open(in, "pipe")) {
            s.processingOrder(true).forEachRemaining(t -> fromStream.add(t.record().toString()));
            assertThat(s.traceEvents()).isNotNull();
            assertThat(s.evlist().all()).extracting(Evsel::name).containsExactly("sched:sched_process_fork",
                "sched:sched_process_exec", "sched:sched_process_exit", "sched:sched_wakeup_new");
        }
        assertThat(fromStream).isEqualTo(fromFile);
    }

    @Test
    void auxtraceViewPointsAfterTheRecord() {
        // an AUXTRACE record of 48 bytes at 0x100 followed by 16 payload bytes (built by hand)
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RecordType.AUXTRACE).putShort((short) 0).putShort((short) 48).putLong(16).putLong(0x2000)
            .putLong(7).putInt(3).putInt(-1).putInt(3).putInt(0);
        MemorySegment seg = MemorySegment.ofArray(b.array());
        PerfRecord r = new PerfRecord(seg, 0, Endian.LITTLE,
            0x100, 16, seg.asSlice(48, 16), false);
        Auxtrace a = Auxtrace.of(r);
        assertThat(a.size()).isEqualTo(16);
        assertThat(a.offset()).isEqualTo(0x2000);
        assertThat(a.idx()).isEqualTo(3);
        assertThat(a.cpu()).isEqualTo(3);
        assertThat(a.payloadOffset()).isEqualTo(0x130);
        assertThat(a.payload().byteSize()).isEqualTo(16);
    }
}
