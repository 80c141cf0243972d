package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pipeline.MemoryMode;
import dev.dfx.pipeline.RegionLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A hostile producer: while the host runs and a real C producer writes sequence-numbered records on its own
 * lanes, this test claims the other lanes and writes seeded random values into every producer-owned field of
 * them (ready-queue tails and entries, active heads, free-queue heads, string tables, stall rings and their counts,
 * thread names, the process table, the TSC calibration), sometimes well-formed enough to pass a check (a buffer really lent to the lane, published twice).
 * Each hostile lane keeps to one kind of field (ready queue, active head, free queue, string table, or all), so
 * every check of the host is reached before an earlier check quarantines the lane.
 * The host must neither crash, hang, read out of bounds nor lose a record of the honest lanes: each hostile lane
 * ends failed with a reason or reconciled, and the honest lanes deliver every record once, in order.
 */
class RegionFuzzTest {
    private static final int HONEST = 4;
    private static final int EVENTS = 5000;
    /** Hostile lanes, each with its own share of the mutations (see {@link Hostile#mutate}). */
    private static final int LANES = HONEST + 12;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"1, 3000, SHARED", "2, 3000, COPY"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)  // a hang guard, not a timing assertion
    void hostileLanesFailCleanlyAndHonestLanesLoseNothing(long seed, int mutations, MemoryMode mode)
            throws Exception {
        fuzz(seed, mutations, mode);
    }

    /** Many short rounds on fresh regions: a lane is failed by its first bad field, so rounds reach more checks. */
    @ParameterizedTest
    @CsvSource({"11, SHARED", "12, COPY"})
    @Tag("stress")
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void manyFuzzRounds(long seed, MemoryMode mode) throws Exception {
        for (int round = 0; round < 40; round++) {
            fuzz(seed * 1000 + round, 20_000, mode);
        }
    }

    private void fuzz(long seed, int mutations, MemoryMode mode) throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(32, 2, LANES).memoryMode(mode).build();
        SequenceCollector c = new SequenceCollector(true, 0);
        try (RegionHost host = RegionHost.start(dir.resolve("fuzz-" + seed + ".dfxr"), spec, c);
                FileChannel ch = FileChannel.open(host.file(), StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofShared()) {
            c.host(host);
            RegionLayout layout = host.layout();
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena);
            long me = ProcessHandle.current().pid();
            for (int l = HONEST; l < LANES; l++) {  // the hostile producer's lanes, claimed as dfx.h does
                m.set(Fields.LONG, layout.laneEntry(l) + RegionLayout.T_OWNER, (me << 32) | (100 + l));
            }
            CProducer.Run run = CProducer.start(host.file(), dir, "" + HONEST, "" + EVENTS);
            Hostile h = new Hostile(m, layout, new SplittableRandom(seed));
            for (int i = 0; i < mutations; i++) {
                h.mutate();
                if (i % 64 == 0) {
                    Thread.onSpinWait();
                }
            }
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            RegionStats s = host.stop();

            List<String> honestProblems = c.problems().stream()
                    .filter(p -> Integer.parseInt(p.substring(5, p.indexOf(':'))) < HONEST).toList();
            assertThat(honestProblems).isEmpty();
            for (RegionLane l : s.lanes()) {
                if (l.lane() < HONEST) {
                    assertThat(l.state()).as("honest lane %d: %s", l.lane(), l.reason()).isEqualTo(LaneState.CLOSED);
                    assertThat(l.stats().collected()).isEqualTo(EVENTS);
                    assertThat(c.count(l.lane())).isEqualTo(EVENTS);
                    assertThat(l.stats().silentLoss()).isZero();
                } else {
                    assertThat(l.state() == LaneState.FAILED || l.stats().silentLoss() == 0)
                            .as("hostile lane %d is failed (%s) or reconciles (silent loss %d)", l.lane(), l.reason(),
                                    l.stats().silentLoss()).isTrue();
                    if (l.state() == LaneState.FAILED) {
                        assertThat(l.reason()).isNotBlank();
                    }
                    host.strings(l.lane()).entries();  // resolving what a hostile table holds must not throw
                }
            }
            assertThat(s.pipeline().errors()).noneMatch(e -> e.contains("failed and stopped"));
            assertThat(s.lanes(LaneState.FAILED)).as("the fuzz does reach the checks").isNotEmpty();
        }
    }

    /** Writes random values into the producer-owned fields of the hostile lanes and into shared producer fields. */
    private static final class Hostile {
        private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
        private final MemorySegment m;
        private final RegionLayout layout;
        private final SplittableRandom r;

        Hostile(MemorySegment m, RegionLayout layout, SplittableRandom r) {
            this.m = m;
            this.layout = layout;
            this.r = r;
        }

        private long anyLong() {
            return switch (r.nextInt(6)) {
                case 0 -> 0;
                case 1 -> -1;
                case 2 -> Long.MAX_VALUE;
                case 3 -> r.nextLong(64);
                case 4 -> r.nextLong(1 << 20);
                default -> r.nextLong();
            };
        }

        private int anyInt() {
            return (int) anyLong();
        }

        void mutate() {
            int lane = HONEST + r.nextInt(LANES - HONEST);
            long rq = layout.readyQueue(lane);  // every lane is its own producer
            long head = layout.lane(lane);
            int size = layout.readyQueueSize();
            int focus = (lane - HONEST) % 6;
            int kind = switch (focus) {
                case 0 -> r.nextInt(12);             // anything
                case 1 -> r.nextInt(3);              // the ready queue: tails, entries, well-formed publishes
                case 2 -> 3 + r.nextInt(3);          // the active head: what recovery at stop reads
                case 3 -> 6;                         // the free-queue head
                case 4 -> r.nextBoolean() ? 7 : 13;  // the string table; the stall ring and thread name
                default -> r.nextInt(4) == 0 ? 8 + r.nextInt(4) : 12;  // attach state, process table, header; republish
            };
            switch (kind) {
                case 0 -> Fields.INT.varHandle().setRelease(m, rq + RegionLayout.RQ_TAIL,
                        r.nextBoolean() ? r.nextInt(size) : anyInt());
                case 1 -> {
                    long e = layout.readyEntry(lane, r.nextInt(size));
                    m.set(Fields.INT, e + RegionLayout.E_LANE, r.nextBoolean() ? lane : anyInt());
                    m.set(Fields.INT, e + RegionLayout.E_KIND, r.nextInt(3) == 0 ? anyInt() : 0);
                    m.set(Fields.LONG, e + RegionLayout.E_HANDLE, r.nextBoolean() ? lentHandle(head) : anyLong());
                    m.set(Fields.LONG, e + RegionLayout.E_SEQ, anyLong());
                    m.set(Fields.INT, e + RegionLayout.E_COUNT, r.nextBoolean() ? 1 + r.nextInt(32) : anyInt());
                }
                case 2 -> publishLentBuffer(lane, rq, head, size, r.nextBoolean());
                case 12 -> publishLentBuffer(lane, rq, head, size, false);  // the same buffers again and again
                case 3 -> m.set(Fields.LONG, head + 8L * r.nextInt(16), anyLong());  // active head counters
                case 4 -> m.set(Fields.LONG, head + RegionLayout.L_CURRENT, r.nextBoolean() ? lentHandle(head)
                        : anyLong());
                case 5 -> m.set(Fields.LONG, head + RegionLayout.L_COMMITTED, anyLong());
                case 6 -> Fields.LONG.varHandle().setRelease(m, head + RegionLayout.L_FQ_HEAD,
                        r.nextBoolean() ? m.get(Fields.LONG, head + RegionLayout.L_FQ_HEAD) + 1 : anyLong());
                case 7 -> {
                    long t = layout.stringTable(lane);
                    long at = r.nextLong(layout.stringTableBytes());
                    m.set(BYTE, at + t, (byte) r.nextInt());
                    if (r.nextInt(4) == 0) {
                        m.set(Fields.LONG, t + RegionLayout.S_USED, anyLong());
                    } else if (r.nextInt(4) == 0) {
                        m.set(Fields.INT, t + (at & ~3L), anyInt());
                    }
                }
                case 8 -> m.set(Fields.INT, head + RegionLayout.L_ATTACH, anyInt());
                case 9 -> {
                    long e = layout.processEntry(r.nextInt(layout.processSlots()));
                    if (m.get(Fields.INT, e) == 0 || r.nextInt(8) == 0) {
                        m.set(Fields.INT, e + RegionLayout.P_PID, anyInt());
                        m.set(Fields.INT, e + RegionLayout.P_STATE, anyInt());
                    }
                }
                case 10 -> {
                    m.set(Fields.LONG, RegionLayout.H_TSC_TICKS0 + 8L * r.nextInt(4), anyLong());
                    m.set(Fields.INT, RegionLayout.H_TSC_STATE, r.nextInt(3));
                }
                case 11 -> m.set(Fields.LONG, RegionLayout.H_UNLANED_DROPPED, anyLong());
                case 13 -> {
                    switch (r.nextInt(3)) {
                        case 0 -> Fields.LONG.varHandle().setRelease(m, head + RegionLayout.L_STALL_WINDOWS,
                                r.nextBoolean() ? m.get(Fields.LONG, head + RegionLayout.L_STALL_WINDOWS)
                                        + r.nextInt(40) : anyLong());
                        case 1 -> m.set(Fields.LONG, layout.stallWindow(lane, r.nextInt(64)) + 8L * r.nextInt(2),
                                anyLong());
                        default -> m.set(BYTE, layout.laneEntry(lane) + RegionLayout.T_NAME
                                + r.nextInt(RegionLayout.THREAD_NAME_BYTES), (byte) r.nextInt());
                    }
                }
                default -> throw new IllegalStateException("no mutation " + kind);
            }
        }

        /** A handle really lent to the lane (in its free queue), so the entry passes the first checks. */
        private long lentHandle(long head) {
            long h = m.get(Fields.LONG, head + RegionLayout.L_FQ_HEAD);
            return m.get(Fields.LONG, layout.freeSlot(0, 0) - layout.lane(0) + head
                    + 8L * Math.floorMod(h + r.nextInt(2), layout.slotCount()));
        }

        /** A well-formed publish of a lent buffer (sometimes the same one twice), as a producer would do it. */
        private void publishLentBuffer(int lane, long rq, long head, int size, boolean take) {
            int tail = Math.floorMod(m.get(Fields.INT, rq + RegionLayout.RQ_TAIL), size);
            long e = layout.readyEntry(lane, tail);
            m.set(Fields.INT, e + RegionLayout.E_LANE, lane);
            m.set(Fields.INT, e + RegionLayout.E_KIND, 0);
            m.set(Fields.LONG, e + RegionLayout.E_HANDLE, lentHandle(head));
            m.set(Fields.LONG, e + RegionLayout.E_SEQ, r.nextLong(4));
            m.set(Fields.INT, e + RegionLayout.E_COUNT, 1 + r.nextInt(32));
            if (take) {
                Fields.LONG.varHandle().setRelease(m, head + RegionLayout.L_FQ_HEAD,
                        m.get(Fields.LONG, head + RegionLayout.L_FQ_HEAD) + 1);
            }
            Fields.INT.varHandle().setRelease(m, rq + RegionLayout.RQ_TAIL, (tail + 1) % size);
        }
    }
}
