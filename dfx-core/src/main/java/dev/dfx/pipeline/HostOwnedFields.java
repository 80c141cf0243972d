package dev.dfx.pipeline;

import java.util.Map;
import java.util.TreeMap;

/**
 * The byte ranges of a region that host threads own and may write: each ready queue's head, each lane's
 * free-queue tail and slots, the block count and block table. Everything else (active heads, ready-queue tails
 * and entries, free-queue heads, tables written once at startup) belongs to producers or to nobody at run time.
 * Immutable; thread-safe.
 */
final class HostOwnedFields {
    private final RegionLayout layout;
    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    HostOwnedFields(RegionLayout layout) {
        this.layout = layout;
        add(RegionLayout.H_BLOCK_COUNT, 4);
        add(layout.blockTable(), (long) RegionLayout.BLOCK_ENTRY_BYTES * RegionLayout.MAX_BLOCKS);
        for (int q = 0; q < layout.producers(); q++) {
            add(layout.readyQueue(q) + RegionLayout.RQ_HEAD, 4);
        }
        for (int l = 0; l < layout.lanes(); l++) {
            add(layout.lane(l) + RegionLayout.L_FQ_TAIL, 8);
            add(layout.freeSlot(l, 0), 8L * layout.slotCount());
        }
    }

    private void add(long start, long length) {
        ranges.put(start, start + length);
    }

    /**
     * @return the first byte of {@code [offset, offset + length)} the host does not own, or -1 when it owns all
     */
    long firstForeignByte(long offset, long length) {
        long p = offset;
        long end = offset + length;
        while (p < end) {
            Map.Entry<Long, Long> e = ranges.floorEntry(p);
            if (e == null || p >= e.getValue()) {
                return p;
            }
            p = e.getValue();
        }
        return -1;
    }

    RegionLayout layout() {
        return layout;
    }
}
