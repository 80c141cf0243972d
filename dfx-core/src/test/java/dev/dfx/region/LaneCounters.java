package dev.dfx.region;

import dev.dfx.pipeline.RegionLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A lane's active head read from a region file by a fresh mapping, as another process would see it. */
record LaneCounters(long total, long published, long dropped, long droppedPush, long droppedPop,
        long droppedDegraded, long expiries, long stallLongestNs, boolean degraded, int attach, long committed) {

    static LaneCounters read(Path file, int lane) throws Exception {
        RegionLayout layout = RegionHeader.read(file).layout();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena a = Arena.ofConfined()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, layout.regionBytes(), a);
            long b = layout.lane(lane);
            return new LaneCounters(m.get(Fields.LONG, b + RegionLayout.L_TOTAL),
                    m.get(Fields.LONG, b + RegionLayout.L_PUBLISHED), m.get(Fields.LONG, b + RegionLayout.L_DROPPED),
                    m.get(Fields.LONG, b + RegionLayout.L_DROPPED_PUSH),
                    m.get(Fields.LONG, b + RegionLayout.L_DROPPED_POP),
                    m.get(Fields.LONG, b + RegionLayout.L_DROPPED_DEGRADED),
                    m.get(Fields.LONG, b + RegionLayout.L_EXPIRIES),
                    m.get(Fields.LONG, b + RegionLayout.L_STALL_LONGEST),
                    m.get(Fields.INT, b + RegionLayout.L_DEGRADED) != 0, m.get(Fields.INT, b + RegionLayout.L_ATTACH),
                    m.get(Fields.LONG, b + RegionLayout.L_COMMITTED));
        }
    }
}
