package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Host refill paths: done-buffer routing (origin wins ties, a strictly larger deficit wins), short-site retry as
 * the only thing that revives a starved lane, and single-writer free queues (the replenisher never writes one
 * after startup).
 */
class ReplenisherTest {

    @Test
    void routerKeepsTheOriginOnTiesAndPicksAStrictlyLargerDeficit() {
        assertThat(RecycledRouter.select(0, new int[] {0, 0})).isZero();
        assertThat(RecycledRouter.select(0, new int[] {2, 2})).as("origin wins a tie").isZero();
        assertThat(RecycledRouter.select(1, new int[] {2, 2, 2})).as("origin wins a three-way tie").isEqualTo(1);
        assertThat(RecycledRouter.select(0, new int[] {1, 2})).as("strictly larger deficit wins").isEqualTo(1);
        assertThat(RecycledRouter.select(2, new int[] {3, 3, 1})).as("first of equal others after origin")
                .isZero();
        assertThat(RecycledRouter.select(1, new int[] {-1, -3})).as("no positive deficit: origin").isEqualTo(1);
        assertThat(RecycledRouter.select(0, new int[] {-2, 0})).as("zero is no deficit").isZero();
    }

    private static Pipeline twoShards(int watermark) {
        PipelineConfig.Builder b = PipelineConfig.builder("route").drainShards(2);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 4, 4));
        b.lane(kind, 0);
        b.lane(kind, 1);
        b.recycledWatermark(kind, watermark);
        return ManualHost.unstarted(b.build(), buf -> { });
    }

    private static boolean holds(SpscRing<HostBuffer> ring, HostBuffer wanted) {
        List<HostBuffer> all = new ArrayList<>();
        HostBuffer b;
        boolean found = false;
        while ((b = ring.poll()) != null) {
            found |= b == wanted;
            all.add(b);
        }
        all.forEach(ring::offer);
        return found;
    }

    @Test
    void doneBufferGoesToTheOriginOnATieAndToAStrictlyNeedierShard() {
        try (Pipeline p = twoShards(3)) {
            PipelineParts parts = p.parts();
            parts.replenisher.tick();  // tops both recycled lanes up to 3
            SpscRing<HostBuffer> r0 = parts.recycled[0][0];
            SpscRing<HostBuffer> r1 = parts.recycled[0][1];
            assertThat(r0.size()).isEqualTo(3);
            assertThat(r1.size()).isEqualTo(3);

            // tie: both lanes one short -> origin (shard 0) keeps it
            HostBuffer a = r0.poll();
            HostBuffer x = r1.poll();
            parts.done[0].offer(a);
            parts.replenisher.route(parts.done[0].poll(), 0);
            assertThat(holds(r0, a)).as("origin wins the tie").isTrue();
            assertThat(holds(r1, a)).isFalse();

            // shard 0 one short (deficit 1), shard 1 two short (deficit 2) -> shard 1 gets shard 0's done buffer
            HostBuffer c = r0.poll();
            HostBuffer y = r1.poll();
            parts.replenisher.route(c, 0);
            assertThat(r0.size()).isEqualTo(2);
            assertThat(holds(r1, c)).as("strictly larger deficit wins").isTrue();
            assertThat(c.origin).isEqualTo(1);
            r1.offer(x);
            r1.offer(y);
        }
    }

    @Test
    void shortSiteRetryIsWhatRevivesAStarvedLane() {
        PipelineConfig.Builder b = PipelineConfig.builder("short").policy(BackpressurePolicy.DROP);
        b.lane(b.pool(new PoolSpec("t", SequenceChecker.RECORD, 2, 1)), 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> { })) {
            PipelineParts parts = p.parts();
            LaneWriter w = p.writer(0);
            w.claim();
            w.claim();
            assertThat(w.claim()).as("buffer published, free queue empty: dropped").isEqualTo(-1);

            DrainShard shard = parts.shards[0];
            shard.sweep();  // drains the entry; its recycled lane is empty, so the lane is a short site
            assertThat(shard.shortSites().contains(0)).isTrue();
            for (CollectorLane c : parts.collectorLanes) {
                c.pollOnce();
            }
            parts.replenisher.tick();  // done -> recycled lane; nothing writes the free queue yet
            assertThat(w.claim()).as("no refill without the retry").isEqualTo(-1);
            assertThat(shard.sweep()).as("the lane publishes nothing, so no entry-driven refill").isFalse();
            assertThat(w.claim()).isEqualTo(-1);

            assertThat(shard.retryShortSites()).isTrue();
            assertThat(shard.shortSites().contains(0)).isFalse();
            assertThat(w.claim()).as("revived").isZero();
            assertThat(p.stats().lanes().get(0).droppedPopGate()).isEqualTo(3);
        }
    }

    @Test
    void onlyTheOwningDrainShardWritesAFreeQueueAfterStartup() throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("audit").drainShards(2);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 32, 6));
        for (int q = 0; q < 3; q++) {
            b.lane(kind, q);
            b.lane(kind, q);
        }
        b.recycledWatermark(kind, 4);  // makes the replenisher allocate and route at run time
        SequenceChecker checker = new SequenceChecker(6, 50_000);
        try (Pipeline p = Pipeline.start(b.build(), checker)) {
            TestProducers.run(p, 20_000, 5);
            PipelineStats s = p.stop();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.dropped()).isZero();
            assertThat(p.parts().replenisher.ticks()).isPositive();
            assertThat(s.pools().get(0).buffersAllocated()).as("run-time allocations happened").isGreaterThan(36);
            for (FreeQueueHost fq : p.parts().freeQueues) {
                assertThat(fq.startupWrites()).as("startup fill of lane %d", fq.lane()).isEqualTo(4);
                assertThat(fq.ownerWrites()).as("owner refills of lane %d", fq.lane()).isPositive();
                assertThat(fq.foreignWrites()).as("foreign writes to lane %d", fq.lane()).isZero();
            }
        }
    }

    @Test
    void theWriteAuditCatchesAForeignWriter() throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("foreign");
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 4, 6));
        b.lane(kind, 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> { })) {
            p.writer(0).claim();  // takes one buffer: the free queue has room for one more
            FreeQueueHost fq = p.parts().freeQueues[0];
            SpscRing<HostBuffer> spare = new SpscRing<>(4);
            spare.offer(p.parts().store.allocate(kind, 1)[0]);
            Thread intruder = new Thread(() -> fq.topUp(p.parts().transport, spare));
            intruder.start();
            intruder.join();
            assertThat(fq.foreignWrites()).isEqualTo(1);
            assertThat(fq.startupWrites()).isEqualTo(4);
            assertThat(fq.ownerWrites()).isZero();
        }
    }
}
