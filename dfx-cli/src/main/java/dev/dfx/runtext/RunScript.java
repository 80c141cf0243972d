package dev.dfx.runtext;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.error.BadInputException;
import dev.dfx.perf.text.PerfTime;
import dev.dfx.perf.text.TextSink;
import dev.dfx.program.LaneStrings;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunChunks;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.UnfinishedRun;
import dev.dfx.trace.ChunkLaneQueue;
import dev.dfx.trace.ChunkStoreMerge;
import dev.dfx.trace.QueueHeapMerge;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@code dfx script RUN}: one line per record of a run directory, in time order across every lane and subsystem
 * (the chunk lanes merged by dfx-core's queue + heap merge, {@link ChunkStoreMerge}), in {@code perf script}'s
 * column style:
 * <pre>
 *        core-task     3 [003]   1234.567890: swimlane:core-task: end_ns=... task_id=... func_id=7 ...
 * </pre>
 * the kind (right-aligned in 16 columns) and lane (the writer thread's instance), the record's core id when its
 * schema has one ({@code [---]} otherwise), the primary timestamp as seconds with six truncated decimals (nine with
 * {@code --ns}), {@code subsystem:kind}, then every other field of the record ({@link RecordFields}). Ties keep
 * file, kind and lane order. Records of kinds without a timestamp (deps submits) follow the merged stream, in file
 * order, with {@code -} as their time. A program's user events ({@code dfx record -- COMMAND}) print the writer's
 * name and {@code pid/tid} in the first columns and their fields with the program's names ({@link UserEventLines}).
 * Not thread-safe.
 */
public final class RunScript {
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Column width of the kind name. */
    private static final int KIND_WIDTH = 16;
    /** Column width of the lane number. */
    private static final int LANE_WIDTH = 5;
    /** Digits of the core number in brackets, zero-padded as perf script's {@code [000]}. */
    private static final int CORE_DIGITS = 3;
    /** Width of perf script's time column in seconds.microseconds ({@link PerfTime#usec(long, int, TextSink)}). */
    private static final int USEC_WIDTH = 12;
    /** Width of the time column with {@code --ns}: 5 digits of seconds, a dot, 9 of nanoseconds. */
    private static final int NSEC_WIDTH = 15;

    private final RunChunks run;
    private final boolean ns;
    private final TextSink out;
    private final Map<StructLayout, Long> coreFields = new IdentityHashMap<>();

    /** The user events' columns, or null when the run is not a program's. */
    private final UserEventLines user;

    private RunScript(RunChunks run, boolean ns, TextSink out, UserEventLines user) {
        this.run = run;
        this.ns = ns;
        this.out = out;
        this.user = user;
    }

    /**
     * Prints the listing of every readable record.
     *
     * @param runDir a run directory
     * @param ns     nanosecond timestamps ({@code --ns})
     * @param out    where the text goes
     * @param damage receives one line per damaged or missing part (those records are not listed)
     * @return lines printed (records)
     * @throws BadInputException when the directory has neither run.json nor chunk files
     */
    public static long print(Path runDir, boolean ns, TextSink out, RunDamage damage) {
        try (RunChunks run = RunChunks.open(runDir, damage)) {
            RunManifest m = run.manifest();
            UserEventLines user = null;
            if (m != null && m.program() != null) {
                // an unfinished run's run.json names no thread: the region the recorder left does
                user = new UserEventLines(UnfinishedRun.program(runDir, m), LaneStrings.ofRunOrNone(runDir, m,
                        damage));
            }
            return new RunScript(run, ns, out, user).run();
        }
    }

    private long run() {
        long lines = 0;
        QueueHeapMerge<ChunkLaneQueue> merge = ChunkStoreMerge.of(run.readers());
        for (int q = merge.next(); q != QueueHeapMerge.NONE; q = merge.next()) {
            ChunkLaneQueue lane = merge.queue(q);
            line(lane.reader(), lane.kind(), lane.lane(), lane.records(), lane.offset(), true);
            lines++;
        }
        for (ChunkReader f : run.readers()) {
            for (ChunkInfo c : f.chunks()) {
                BufferKind k = f.kind(c.kind());
                if (k.hasTimestamp()) {
                    continue;
                }
                MemorySegment records = f.records(c);
                for (long at = 0; at < records.byteSize(); at += k.recordSize()) {
                    line(f, k, c.lane(), records, at, false);
                    lines++;
                }
            }
        }
        return lines;
    }

    private void line(ChunkReader f, BufferKind k, int lane, MemorySegment records, long at, boolean timed) {
        StructLayout layout = run.layout(f, k.id());
        boolean userEvent = user != null && f.subsystem().equals(ProgramReport.SUBSYSTEM);
        if (userEvent) {
            user.who(lane, out);
            out.put(" [");
        } else {
            out.right(k.name(), KIND_WIDTH).put(' ').dec(Integer.toUnsignedLong(lane), LANE_WIDTH).put(" [");
        }
        long core = layout == null ? -1 : coreFields.computeIfAbsent(layout, RunScript::coreField);
        if (core >= 0) {
            out.decZero(Short.toUnsignedInt(records.get(U16, at + core)), CORE_DIGITS);
        } else {
            out.put("---");
        }
        out.put("] ");
        if (!timed) {
            out.right("-", ns ? NSEC_WIDTH : USEC_WIDTH);
        } else if (ns) {
            PerfTime.nsec(k.timestamp(records, at), out);
        } else {
            PerfTime.usec(k.timestamp(records, at), USEC_WIDTH, out);
        }
        out.put(": ");
        if (userEvent) {
            user.event(lane, records, at, out);
        } else {
            out.put(f.subsystem()).put(':').put(k.name()).put(": ");
            RecordFields.print(layout, timed ? k.timestampOffset() : -1, records, at, k.recordSize(), out);
        }
        out.put('\n');
    }

    /** @return offset of a 2-byte {@code core_id} field of the layout, or -1 */
    private static long coreField(StructLayout layout) {
        for (MemoryLayout m : layout.memberLayouts()) {
            if (m.name().filter("core_id"::equals).isPresent() && m.byteSize() == 2) {
                return layout.byteOffset(MemoryLayout.PathElement.groupElement("core_id"));
            }
        }
        return -1;
    }
}
