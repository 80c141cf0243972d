package dev.dfx.rundir;

import dev.dfx.chunk.BufferKind;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.record.ScopeRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.UserEvent;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * The struct layout of each record kind of the five subsystems (the record schemas of dfx-core,
 * {@code dev.dfx.record}) and of a program's user events, found by subsystem and kind name as a chunk file's kind
 * table names them. Stateless.
 */
final class RecordLayouts {
    /**
     * A user event as a producer's dfx.h writes it ({@link UserEvent}, docs/region-abi.md): names and argument keys
     * are ids in the lane's string table (strings.json); {@code type} is the {@link dev.dfx.region.UserEventType}
     * code.
     */
    private static final StructLayout USER_EVENT = MemoryLayout.structLayout(
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).withName("time"),
        ValueLayout.JAVA_BYTE.withName("type"), ValueLayout.JAVA_BYTE.withName("flags"),
        MemoryLayout.paddingLayout(UserEvent.U_NAME - UserEvent.U_RESERVED0),
        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).withName("name"),
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).withName("value"),
        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN).withName("arg_key"),
        MemoryLayout.paddingLayout(UserEvent.BYTES - UserEvent.U_RESERVED1)).withName("user_event");

    private static final Map<String, StructLayout> BY_KIND = Map.of(
        key(CoreTaskRecord.KIND), CoreTaskRecord.LAYOUT,
        key(SchedTaskRecord.KIND), SchedTaskRecord.LAYOUT,
        key(SchedPhaseRecord.KIND), SchedPhaseRecord.LAYOUT,
        key(OrchPhaseRecord.KIND), OrchPhaseRecord.LAYOUT,
        key(PmuRecord.KIND), PmuRecord.LAYOUT,
        key(SubmitRecord.KIND), SubmitRecord.LAYOUT,
        key(ArgRecord.KIND), ArgRecord.LAYOUT,
        key(ScopeRecord.KIND), ScopeRecord.LAYOUT,
        key(ProgramReport.SUBSYSTEM, RegionSpec.USER_POOL), USER_EVENT);

    private RecordLayouts() {
    }

    private static String key(BufferKind k) {
        return key(Subsystem.of(k).id(), k.name());
    }

    private static String key(String subsystem, String kind) {
        return subsystem + ":" + kind;
    }

    /**
     * @param subsystem the chunk file's subsystem, e.g. {@code swimlane}
     * @param kind      a kind name of its kind table, e.g. {@code core-task}
     * @param size      the kind's record size in the file
     * @return the layout, or {@code null} when the kind is not one of the schemas or its size differs
     */
    static StructLayout of(String subsystem, String kind, int size) {
        StructLayout l = BY_KIND.get(key(subsystem, kind));
        return l != null && l.byteSize() == size ? l : null;
    }
}
