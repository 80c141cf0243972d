package dev.dfx.perf.header;

import dev.dfx.perf.data.EventAttr;
import dev.dfx.perf.data.Endian;
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
public record EventDesc(EventAttr attr, String name, long[] ids) {
    /**
     * Decodes {@code {u32 nr; u32 attr_size; {attr; u32 nr_ids; string name; u64 ids[nr_ids]}[nr]}}.
     *
     * @return the entries; stops early on a truncated section
     */
    public static List<EventDesc> read(MemorySegment seg, Endian e) {
        HeaderString in = new HeaderString(seg, e);
        long nr = in.u32();
        long attrSize = in.u32();
        List<EventDesc> out = new ArrayList<>();
        if (attrSize < EventAttr.SIZE_VER0 || attrSize > 4096) {
            return out;
        }
        for (long i = 0; i < nr && !in.overrun(); i++) {
            MemorySegment a = in.bytes(attrSize);
            if (in.overrun()) {
                break;
            }
            EventAttr attr = EventAttr.read(a, 0, (int) attrSize, e);
            long nrIds = in.u32();
            String name = in.string();
            if (nrIds > in.remaining() / 8) {
                break;
            }
            long[] ids = new long[(int) nrIds];
            for (int k = 0; k < ids.length; k++) {
                ids[k] = in.u64();
            }
            out.add(new EventDesc(attr, name, ids));
        }
        return out;
    }
}
