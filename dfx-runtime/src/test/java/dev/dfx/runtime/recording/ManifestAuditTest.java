package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dfx.audit.Advice;
import dev.dfx.audit.AuditThresholds;
import dev.dfx.audit.Dimension;
import dev.dfx.audit.PoolAudit;
import dev.dfx.audit.RunAudit;
import dev.dfx.audit.Verdict;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.error.BadInputException;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.ManifestAudit;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The capacity audit of real recordings: a default attention run (its measured flow checked against its chunk files
 * and wall time, no pool called short that did not lose anything), tiny pools under BLOCK and DROP (short, and the
 * advised {@code --pool} records the same workload without loss), and a run.json written before the flow existed.
 */
@Timeout(300)
class ManifestAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TINY_KIND = "swimlane.core-task";
    private static final Pattern ADVICE = Pattern.compile("--pool (swimlane\\.core-task=(\\d+)x8)");

    @TempDir
    static Path shared;
    static Path attention;
    static RunManifest attentionRun;

    @TempDir
    Path tmp;

    @BeforeAll
    static void recordDefaultAttention() {
        attention = shared.resolve("attention");
        attentionRun = record(attention, "attention", EnumSet.allOf(Subsystem.class), BackpressurePolicy.BLOCK,
                List.of());
        assertThat(attentionRun.status()).isEqualTo("ok");
    }

    private static RunManifest record(Path dir, String workload, Set<Subsystem> subsystems, BackpressurePolicy policy,
            List<String> pools) {
        RecordingConfig c = RecordingConfig.defaults().withWorkload(workload).withSubsystems(subsystems)
                .withBackpressure(policy, pools).withOutput(dir);
        return new Recording(RecordingPlan.of(c, dir.getParent())).run(List.of());
    }

    private static PoolAudit pool(RunAudit a, String kind) {
        return a.pools().stream().filter(p -> p.pool().kind().equals(kind)).findFirst().orElseThrow();
    }

    /** Stalls plus drops of a kind's lanes, read from run.json's lanes (not through the audit). */
    private static long losses(RunManifest m, String qualifiedKind) {
        String subsystem = qualifiedKind.substring(0, qualifiedKind.indexOf('.'));
        String kind = qualifiedKind.substring(qualifiedKind.indexOf('.') + 1);
        return m.subsystem(subsystem).lanes().stream().filter(l -> l.kind().equals(kind))
                .mapToLong(l -> l.stalls().count()
                        + l.droppedByCause().values().stream().mapToLong(Long::longValue).sum()).sum();
    }

    @Test
    void aDefaultAttentionRunCallsShortExactlyThePoolsThatStalledOrDropped() {
        RunAudit a = ManifestAudit.audit(attention.toString(), attentionRun);
        assertThat(a.pools()).extracting(p -> p.pool().kind()).containsExactlyElementsOf(
                attentionRun.config().pools().stream().map(RunManifest.Pool::kind).toList());
        for (PoolAudit p : a.pools()) {
            long lost = losses(attentionRun, p.pool().kind());
            assertThat(p.verdict() == Verdict.SHORT).as(p.pool().kind() + " short iff it lost (%d)", lost)
                    .isEqualTo(lost > 0);
        }
    }

    @Test
    void theFlowOfARunIsEveryDrainedBufferAndWIsPositiveAndBelowTheWallTime() throws IOException {
        long recycledInRun = 0;
        for (RunManifest.SubsystemReport s : attentionRun.subsystems()) {
            try (ChunkReader r = ChunkReader.open(attention.resolve("chunks").resolve(s.name() + ".dfx"))) {
                for (RunManifest.PoolWatermark w : s.pools()) {
                    long chunks = r.chunks().stream().filter(c -> r.kind(c.kind()).name().equals(w.kind())).count();
                    RunManifest.Flow f = w.flow();
                    String what = s.name() + "." + w.kind();
                    assertThat(f.buffersDrained()).as(what + ": one drained buffer per chunk").isEqualTo(chunks);
                    // A buffer drained again came back in between, so at most one drain per allocated buffer goes
                    // unrecycled: the last (a buffer the stop's final pass drains is collected after the
                    // replenisher's final tick and is never back in a recycled lane).
                    assertThat(f.buffersRecycled()).as(what + ": every re-drained buffer came back")
                            .isBetween(Math.max(0, f.buffersDrained() - w.buffersAllocated()), f.buffersDrained());
                    recycledInRun += f.buffersRecycled();
                    if (f.buffersRecycled() == 0) {
                        assertThat(List.of(f.recycleMeanNs(), f.recycleMaxNs(), f.peakInFlight()))
                                .as(what + ": no W sample, no W").containsOnly(0L);
                    } else {
                        assertThat(f.recycleMeanNs()).as(what).isPositive();
                        assertThat(f.recycleMaxNs()).as(what)
                                .isBetween(f.recycleMeanNs(), attentionRun.wallNs() - 1);
                        assertThat(f.peakInFlight()).as(what + ": the buffer being filled, at most the lane's pool")
                                .isBetween(1L, (long) poolSize(what).buffersPerLane());
                    }
                    assertThat(f.collectNs()).as(what).isBetween(1L, attentionRun.wallNs() - 1);
                    assertThat(f.elapsedNs()).as(what).isBetween(1L, attentionRun.wallNs());
                    assertThat(f.buffersPerSecond()).as(what + ": λ over workload time")
                            .isCloseTo(f.buffersDrained() * 1e9 / attentionRun.workload().wallNs(), within(1e-6));
                    assertThat(w.freeQueueSlots()).isEqualTo(4);
                }
            }
        }
        assertThat(recycledInRun).as("W was measured in the run").isPositive();
    }

    private static RunManifest.Pool poolSize(String qualifiedKind) {
        return attentionRun.config().pools().stream().filter(p -> p.kind().equals(qualifiedKind)).findFirst()
                .orElseThrow();
    }

    /**
     * One lane buffer of 8 records per core: the decoder's core-task lanes wait for the host (BLOCK) or lose
     * records (DROP) at most buffer switches. The advice grows the pool; the same workload recorded with it loses
     * nothing, unless the host turned out slower than the advice assumed (a longest recycle latency beyond the
     * safety factor times the one it read, on this shared 2-core machine): then the run is repeated, at most 3 times.
     */
    @ParameterizedTest
    @EnumSource(BackpressurePolicy.class)
    void aTinyPoolIsShortAndItsAdviceRecordsTheSameWorkloadWithoutLoss(BackpressurePolicy policy) {
        Set<Subsystem> swimlane = EnumSet.of(Subsystem.SWIMLANE);
        RunManifest tiny = record(tmp.resolve("tiny"), "decoder", swimlane, policy, List.of(TINY_KIND + "=1x8"));
        assertThat(losses(tiny, TINY_KIND)).as("the tiny pool lost records or stalled").isPositive();
        PoolAudit a = pool(ManifestAudit.audit("tiny", tiny), TINY_KIND);
        assertThat(a.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(a.decidedBy()).isEqualTo(Dimension.LOSS);
        assertThat(a.advice().action()).isEqualTo(Advice.Action.GROW);
        Matcher m = ADVICE.matcher(a.advice().option());
        assertThat(m.matches()).as(a.advice().option()).isTrue();
        assertThat(Integer.parseInt(m.group(2))).as("twice one buffer more than it had").isGreaterThanOrEqualTo(4);

        for (int attempt = 1; attempt <= 3; attempt++) {
            RunManifest advised = record(tmp.resolve("advised" + attempt), "decoder", swimlane, policy,
                    List.of(m.group(1)));
            PoolAudit b = pool(ManifestAudit.audit("advised", advised), TINY_KIND);
            assertThat(b.pool().buffersPerLane()).isEqualTo(Integer.parseInt(m.group(2)));
            if (losses(advised, TINY_KIND) == 0) {
                assertThat(b.verdict()).isNotEqualTo(Verdict.SHORT);
                return;
            }
            assertThat(b.recycleMaxNs()).as("lost records with the advised pool while the host was no slower than"
                    + " the advice assumed").isGreaterThan((long) (AuditThresholds.SAFETY * a.recycleMaxNs()));
        }
        fail("the host was slower than the advice assumed in three runs");
    }

    /**
     * {@code gemm} with small swimlane and deps pools, recorded, audited, and recorded again with every
     * pool at the size its advice gives (kept pools as they were), three rounds. Each round records exactly the
     * sizes advised, and an audit grows a pool only when it stalled with every buffer of a lane out at once (its
     * measured peak in flight reached the pool): otherwise the limit was elsewhere and a bigger pool would sit unused,
     * the advice that doubled deps 8 -> 27 -> 180 -> 362 while at most 85 were out.
     */
    @Test
    void applyingTheAdviceGrowsAPoolAgainOnlyWhenItsPeakReachedThePool() {
        List<String> sizes = List.of("swimlane=2x16", "deps=1x8");
        int grown = 0;
        for (int round = 1; round <= 3; round++) {
            RunManifest m = record(tmp.resolve("round" + round), "gemm", EnumSet.allOf(Subsystem.class),
                    BackpressurePolicy.BLOCK, sizes);
            RunAudit a = ManifestAudit.audit("round" + round, m);
            List<String> next = new ArrayList<>();
            for (PoolAudit p : a.pools()) {
                if (round > 1) {
                    assertThat(sizes).as("round %d records what was advised", round)
                            .contains(p.pool().kind() + "=" + p.pool().buffersPerLane() + "x"
                                    + p.pool().recordsPerBuffer());
                }
                Advice v = p.advice();
                if (v.action() == Advice.Action.GROW) {
                    grown++;
                    assertThat(p.pool().flow()).isNotNull();
                    assertThat(p.verdict()).as("round %d grows %s only after a loss", round, p.pool().kind())
                            .isEqualTo(Verdict.SHORT);
                    assertThat(p.peakInFlight()).as("round %d grows %s (%s)", round,
                            p.pool().kind(), v.reason()).isGreaterThanOrEqualTo(p.pool().buffersPerLane());
                } else if (v.action() == Advice.Action.REFILL_LIMITED) {
                    assertThat(p.peakInFlight()).isLessThan(p.pool().buffersPerLane());
                }
                next.add(p.pool().kind() + "=" + v.buffersPerLane() + "x" + v.recordsPerBuffer());
            }
            sizes = next;
        }
        assertThat(grown).as("deps 1x8 has every buffer out at once: the first round grows it").isPositive();
    }

    @Test
    void aRunJsonWrittenBeforeTheFlowWasMeasuredStillReadsAndWIsUnknown() throws IOException {
        ObjectNode m = (ObjectNode) JSON.readTree(attention.resolve("run.json").toFile());
        boolean first = true;
        for (JsonNode s : m.get("subsystems")) {
            for (JsonNode p : s.get("pools")) {
                ((ObjectNode) p).remove("free_queue_slots");
                if (first) {
                    ((ObjectNode) p).putNull("flow");          // null reads as missing
                    first = false;
                } else {
                    ((ObjectNode) p).remove("flow");
                }
            }
        }
        Path old = Files.createDirectories(tmp.resolve("old"));
        JSON.writeValue(old.resolve("run.json").toFile(), m);
        RunAudit a = ManifestAudit.audit("old", ManifestFile.read(old));
        assertThat(a.pools()).hasSize(attentionRun.config().pools().size()).allSatisfy(p -> {
            assertThat(p.recycleMeanNs()).isNull();
            assertThat(p.littleL()).isNull();
            assertThat(p.buffersPerSecond()).isNull();
            assertThat(p.pool().freeQueueSlots()).isEqualTo(4);
        });
        RunAudit now = ManifestAudit.audit("now", attentionRun);
        for (int i = 0; i < a.pools().size(); i++) {
            // the watermarks say the same without the flow; the peak read from the free queue alone cannot see
            // buffers beyond its slots, so it is at most the measured one
            assertThat(a.pools().get(i).freeMargin()).isEqualTo(now.pools().get(i).freeMargin());
            assertThat(a.pools().get(i).peakInFlight()).isPositive()
                    .isLessThanOrEqualTo(now.pools().get(i).peakInFlight());
        }
    }

    @Test
    void aManifestWhosePartsDisagreeIsOneLineNamingThePool() throws IOException {
        ObjectNode m = (ObjectNode) JSON.readTree(attention.resolve("run.json").toFile());
        ((ObjectNode) m.get("subsystems").get(0).get("pools").get(0)).put("kind", "renamed");
        Path bad = Files.createDirectories(tmp.resolve("bad"));
        JSON.writeValue(bad.resolve("run.json").toFile(), m);
        RunManifest read = ManifestFile.read(bad);
        String first = read.config().pools().getFirst().kind();
        assertThatThrownBy(() -> ManifestAudit.audit("bad", read)).isInstanceOf(BadInputException.class)
                .hasMessage("bad: run.json config.pools lists " + first + " but subsystems["
                        + read.subsystems().getFirst().name() + "].pools has no " + first.substring(first.indexOf('.') + 1));
    }
}
