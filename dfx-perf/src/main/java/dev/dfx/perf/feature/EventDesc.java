package dev.dfx.perf.feature;

import dev.dfx.perf.data.Endian;
import dev.dfx.pmu.attr.PerfEventAttr;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of the EVENT_DESC feature ({@code header.c write_event_desc}): an attr, the event's name and its
 * sample ids. Immutable.
 *
 * @param attr the attr
 * @param name the event name as the user gave it
 * @param ids  the sample ids
 */
public record EventDesc(PerfEventAttr attr, String name, long[] ids) {
    /**
     * Decodes {@code {u32 nr; u32 attr_size; {attr; u32 nr_ids; string name; u64 ids[nr_ids]}[nr]}} as
     * {@code header.c read_event_desc} does: all or nothing, since perf drops the whole feature when any part of
     * it cannot be read. Entry {@code i} describes the {@code i}-th event; like perf's readers, the list ends
     * before the first entry whose {@code attr.size} is 0.
     *
     * @param seg the section's bytes (in file mode perf may read on past the section, see
     *            {@code PerfFile.featureThroughEnd})
     * @return the entries, or {@code null} when the data runs out before {@code nr} entries were read
     */
    public static List<EventDesc> read(MemorySegment seg, Endian e) {
        FeatureReader in = new FeatureReader(seg, e);
        long nr = in.u32();
        long attrSize = in.u32();
        List<EventDesc> out = new ArrayList<>();
        boolean ended = false;
        for (long i = 0; i < nr && !in.overrun(); i++) {
            MemorySegment a = in.bytes(attrSize);
            PerfEventAttr attr = PerfEventAttr.read(a, 0, (int) Math.min(a.byteSize(), PerfEventAttr.SIZE_VER8),
                e.order());
            long nrIds = in.u32();
            String name = in.string();
            if (in.overrun() || nrIds > in.remaining() / 8) {
                return null;
            }
            long[] ids = new long[(int) nrIds];
            for (int k = 0; k < ids.length; k++) {
                ids[k] = in.u64();
            }
            ended |= attr.size() == 0;
            if (!ended) {
                out.add(new EventDesc(attr, name, ids));
            }
        }
        return in.overrun() ? null : out;
    }
}
