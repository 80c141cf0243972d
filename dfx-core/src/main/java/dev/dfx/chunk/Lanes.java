package dev.dfx.chunk;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Groups chunks into {@link LaneSequence}s and finds seq gaps and repeats. Stateless; thread-safe. */
final class Lanes {
    private Lanes() {
    }

    /**
     * @param chunks chunks in file order
     * @return one sequence per (kind, lane), ordered by kind id then unsigned lane
     */
    static List<LaneSequence> group(List<ChunkInfo> chunks) {
        Map<Long, List<ChunkInfo>> byLane = new TreeMap<>();
        for (ChunkInfo c : chunks) {
            // kind in the high bits, unsigned lane in the low 32: the map's order is (kind, unsigned lane).
            long key = ((long) c.kind() << 32) | Integer.toUnsignedLong(c.lane());
            byLane.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
        }
        List<LaneSequence> out = new ArrayList<>(byLane.size());
        for (List<ChunkInfo> lane : byLane.values()) {
            out.add(sequence(lane));
        }
        return List.copyOf(out);
    }

    private static LaneSequence sequence(List<ChunkInfo> lane) {
        List<ChunkInfo> sorted = new ArrayList<>(lane);
        sorted.sort(Comparator.comparing(ChunkInfo::seq, Long::compareUnsigned)); // stable: repeats keep file order
        List<SeqGap> gaps = new ArrayList<>();
        int duplicates = 0;
        long expected = 0;
        boolean first = true;
        for (ChunkInfo c : sorted) {
            if (!first && c.seq() == expected - 1) {
                duplicates++;
                continue;
            }
            if (Long.compareUnsigned(c.seq(), expected) > 0) {
                gaps.add(new SeqGap(expected, c.seq()));
            }
            expected = c.seq() + 1;
            first = false;
        }
        ChunkInfo head = sorted.getFirst();
        return new LaneSequence(head.kind(), head.lane(), List.copyOf(sorted), List.copyOf(gaps), duplicates);
    }
}
