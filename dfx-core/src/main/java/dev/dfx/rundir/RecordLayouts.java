package dev.dfx.rundir;

import dev.dfx.record.ArgRecord;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.RecordKind;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.record.ScopeRecord;
import dev.dfx.record.SubmitRecord;
import java.lang.foreign.StructLayout;
import java.util.Map;

/**
 * The struct layout of each record kind of the five subsystems (the record schemas of dfx-core,
 * {@code dev.dfx.record}), found by subsystem and kind name as a chunk file's kind table names them. Stateless.
 */
final class RecordLayouts {
    private static final Map<String, StructLayout> BY_KIND = Map.of(
        key(CoreTaskRecord.KIND), CoreTaskRecord.LAYOUT,
        key(SchedTaskRecord.KIND), SchedTaskRecord.LAYOUT,
        key(SchedPhaseRecord.KIND), SchedPhaseRecord.LAYOUT,
        key(OrchPhaseRecord.KIND), OrchPhaseRecord.LAYOUT,
        key(PmuRecord.KIND), PmuRecord.LAYOUT,
        key(SubmitRecord.KIND), SubmitRecord.LAYOUT,
        key(ArgRecord.KIND), ArgRecord.LAYOUT,
        key(ScopeRecord.KIND), ScopeRecord.LAYOUT);

    private RecordLayouts() {
    }

    private static String key(RecordKind k) {
        return key(k.subsystem(), k.name());
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
