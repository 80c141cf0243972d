package dev.dfx.runtext;

import dev.dfx.perf.text.TextSink;
import dev.dfx.program.LaneStrings;
import dev.dfx.region.UserEvent;
import dev.dfx.region.UserEventType;
import dev.dfx.rundir.ProgramReport;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code dfx script} columns of a program's user event ({@code dfx record -- COMMAND}), in {@code perf script}'s
 * order: the writer thread's name (its process's command name when run.json has none for the thread), its
 * {@code pid/tid}, then, after the time, {@code user:TYPE:} and the event's fields with the program's own strings
 * resolved through the run's string tables ({@link LaneStrings}):
 * <pre>
 *  record_threads  4242/4243  [---]  1234.567890: user:slice_begin: name="step" i=3
 * </pre>
 * {@code name} is quoted (a program's names may hold spaces); a name or key the tables do not hold prints as
 * {@code #ID}; a counter prints {@code value}, a complete slice {@code duration_ns}, a flow point {@code id}, a
 * record whose time is still in TSC ticks (no calibration was published) {@code tsc=1}. Not thread-safe.
 */
final class UserEventLines {
    /** Width of the thread-name column, as perf script's comm. */
    private static final int COMM_WIDTH = 16;
    /** Width of the pid and of the tid. */
    private static final int ID_WIDTH = 5;

    private final ProgramReport program;
    private final LaneStrings strings;

    /**
     * @param program run.json's {@code program}
     * @param strings the run's string tables ({@link LaneStrings#NONE} when they could not be read)
     */
    UserEventLines(ProgramReport program, LaneStrings strings) {
        this.program = program;
        this.strings = strings;
    }

    /** Prints the thread's name and {@code pid/tid} of lane {@code lane}, then a space. */
    void who(int lane, TextSink out) {
        Map.Entry<ProgramReport.Producer, ProgramReport.ThreadLane> o = program.laneOwner(lane);
        if (o == null) {
            out.right("lane " + lane, COMM_WIDTH).put(' ').right("-", ID_WIDTH).put("/-    ");
            return;
        }
        String name = o.getValue().name() != null ? o.getValue().name()
                : o.getKey().name() != null ? o.getKey().name() : "-";
        out.right(name, COMM_WIDTH).put(' ').dec(o.getKey().pid(), ID_WIDTH).put('/').decLeft(o.getValue().tid(),
                ID_WIDTH);
    }

    /** Prints {@code user:TYPE: fields} of the record at {@code at}. */
    void event(int lane, MemorySegment records, long at, TextSink out) {
        UserEvent e = UserEvent.read(records, at);
        out.put(ProgramReport.SUBSYSTEM).put(':').put(e.type() == UserEventType.UNKNOWN ? "type" + e.code()
                : e.type().name().toLowerCase(Locale.ROOT)).put(':');
        if (e.type() != UserEventType.SLICE_END) {
            out.put(" name=\"").put(text(lane, e.name())).put('"');
        }
        switch (e.type()) {
            case SLICE_COMPLETE -> out.put(" duration_ns=").dec(e.value());
            case COUNTER -> {
                out.put(" value=");
                if (e.f64()) {
                    out.put(Double.toString(e.doubleValue()));
                } else {
                    out.dec(e.value());
                }
            }
            case FLOW_BEGIN, FLOW_STEP, FLOW_END -> out.put(" id=").put(Long.toUnsignedString(e.value()));
            case UNKNOWN -> out.put(" value=").dec(e.value());
            default -> {
                if (e.hasArgument()) {
                    out.put(' ').put(text(lane, e.argKey())).put('=').dec(e.value());
                }
            }
        }
        if (e.tsc()) {
            out.put(" tsc=1");
        }
    }

    private String text(int lane, int id) {
        String s = strings.resolve(lane, id);
        return s != null ? s : id == UserEvent.NO_STRING ? "" : "#" + Integer.toUnsignedString(id);
    }
}
