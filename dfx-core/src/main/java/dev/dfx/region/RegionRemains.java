package dev.dfx.region;

import dev.dfx.pipeline.RegionLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a region file left behind by a recorder that did not finish (killed with SIGKILL) still says about its
 * producers: each claimed lane's owner (pid, tid, thread name) and string table. Read once, from a read-only mapping
 * that is released before {@link #read} returns; nothing a producer wrote is trusted beyond what {@link StringTable}
 * checks (an entry that does not fit ends a table). Immutable.
 *
 * @param lanes the lanes a thread claimed, in lane order
 */
public record RegionRemains(List<Lane> lanes) {
    /**
     * One claimed lane.
     *
     * @param lane    the lane
     * @param pid     its owner's process id
     * @param tid     its owner's thread id
     * @param name    the owner's thread name (at most {@value RegionLayout#THREAD_NAME_BYTES} bytes, control
     *                characters as {@code ?}), or null when empty
     * @param strings the lane's string table, id (byte offset in the table) to text; unmodifiable
     */
    public record Lane(int lane, long pid, long tid, String name, Map<Integer, String> strings) {
    }

    /** @param lanes copied */
    public RegionRemains {
        lanes = List.copyOf(lanes);
    }

    /**
     * @param file a region file
     * @return its claimed lanes with their owners and string tables
     * @throws RegionFormatException naming the file and field when its header is not a usable region's, or the file
     *                               is shorter than its tables
     * @throws IOException           when it cannot be read
     */
    public static RegionRemains read(Path file) throws IOException {
        RegionHeader header = RegionHeader.read(file);
        RegionLayout layout = header.layout();
        if (header.fileSize() < layout.regionBytes()) {
            throw new RegionFormatException(file + ": region cut short: " + header.fileSize() + " bytes, its tables"
                    + " need " + layout.regionBytes());
        }
        List<Lane> lanes = new ArrayList<>();
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment region = ch.map(FileChannel.MapMode.READ_ONLY, 0, layout.regionBytes(), arena);
            for (int l = 0; l < layout.lanes(); l++) {
                long owner = region.get(Fields.LONG, layout.laneEntry(l) + RegionLayout.T_OWNER);
                if (owner == 0) {
                    continue; // never claimed
                }
                StringTable t = new StringTable(l, region.asSlice(layout.stringTable(l), layout.stringTableBytes()));
                t.detach(); // reads every entry while the mapping lives
                String name = threadName(region, layout, l);
                lanes.add(new Lane(l, owner >>> 32, owner & 0xFFFFFFFFL, name.isEmpty() ? null : name, t.entries()));
            }
        }
        return new RegionRemains(lanes);
    }

    /**
     * @return the thread name in lane {@code lane}'s table entry: its UTF-8 bytes up to the first zero, control
     *         characters as {@code ?} (a name shows in one line), or empty
     */
    static String threadName(MemorySegment region, RegionLayout layout, int lane) {
        byte[] b = region.asSlice(layout.laneEntry(lane) + RegionLayout.T_NAME, RegionLayout.THREAD_NAME_BYTES)
                .toArray(ValueLayout.JAVA_BYTE);
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8).replaceAll("\\p{Cntrl}", "?");
    }
}
