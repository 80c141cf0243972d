package dev.dfx.pipeline;

/**
 * Where the replenisher sends a done buffer (docs/pipeline.md, host rule 3): to its origin shard's recycled lane,
 * unless another shard has a strictly larger deficit (watermark minus recycled-lane size); the origin wins ties,
 * and nobody without a positive deficit takes a buffer from the origin. (The reference scans the origin last with
 * a strict compare, so a tie goes to another shard; we follow the design, not that code.) Stateless.
 */
final class RecycledRouter {
    private RecycledRouter() {
    }

    /**
     * @param origin   the shard that drained the buffer
     * @param deficits per shard: watermark - recycled-lane size (may be negative)
     * @return the shard whose recycled lane gets the buffer
     */
    static int select(int origin, int[] deficits) {
        int best = origin;
        int bestDeficit = Math.max(deficits[origin], 0);
        int n = deficits.length;
        for (int i = 1; i < n; i++) {
            int s = (origin + i) % n;
            if (deficits[s] > bestDeficit) {
                best = s;
                bestDeficit = deficits[s];
            }
        }
        return best;
    }
}
