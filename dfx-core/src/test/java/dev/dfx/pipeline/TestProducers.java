package dev.dfx.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs one thread per producer that writes {@code recordsPerLane} test records into each of its lanes,
 * interleaving its lanes at random (seeded), then flushes them. Record {@code n} of a lane carries {@code n},
 * the lane's attempt count before the claim, so delivered numbers can be checked against {@code total}.
 */
final class TestProducers {
    private TestProducers() {
    }

    /** Writes and flushes; returns after every producer thread ended. */
    static void run(Pipeline p, long recordsPerLane, long seed) throws InterruptedException {
        PipelineConfig c = p.config();
        List<Thread> threads = new ArrayList<>();
        SplittableRandom root = new SplittableRandom(seed);
        for (int q = 0; q < c.producers(); q++) {
            int producer = q;
            List<LaneWriter> mine = c.lanes().stream().filter(l -> l.producer() == producer)
                    .map(l -> p.writer(l.lane())).toList();
            SplittableRandom rnd = root.split();
            Thread t = new Thread(() -> produce(mine, recordsPerLane, rnd), "test-producer-" + q);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    static void produce(List<LaneWriter> lanes, long recordsPerLane, SplittableRandom rnd) {
        long[] written = new long[lanes.size()];
        int open = lanes.size();
        while (open > 0) {
            int i = rnd.nextInt(lanes.size());
            if (written[i] == recordsPerLane) {
                continue;
            }
            LaneWriter w = lanes.get(i);
            int burst = 1 + rnd.nextInt(64);
            for (int j = 0; j < burst && written[i] < recordsPerLane; j++) {
                long n = written[i]++;
                long off = w.claim();
                if (off >= 0) {
                    SequenceChecker.writeRecord(w.segment(), off, w.lane(), n);
                }
            }
            if (written[i] == recordsPerLane) {
                open--;
            }
        }
        for (LaneWriter w : lanes) {
            w.flush();
        }
    }
}
