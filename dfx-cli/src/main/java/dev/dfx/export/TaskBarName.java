package dev.dfx.export;

import java.util.Arrays;
import java.util.Map;

/**
 * The name of a task's bar in a run's trace, the reference's {@code function(tY)} or {@code function(rXtY)} (ring X
 * and local number Y of the task id; {@code tY} alone for a task whose function is not known), after
 * {@code "submit "} on the orchestrator's submit bars. It is kept as its parts: the Chrome writer writes the name's
 * JSON straight into the event ({@link #write}) with the function's name escaped once per function, so that a run's
 * trace, one bar name per task and bar, makes no String per bar; any other sink gets the text ({@link #toString()}).
 * A function is named by the run's function names ({@code run.json}'s functions, by id in decimal), else
 * {@code func_ID}.
 *
 * <p>Refilled for every bar ({@link #bar}, {@link #submit}); a sink reads it during the call only. Not thread-safe:
 * one per drawing thread. Memory: the names and escaped names of the functions with ids below
 * {@value #KEPT_FUNCTIONS} that were named; other ids are looked up per bar.
 */
public final class TaskBarName {
    /** Function ids whose names are kept; a run's are a few dozen small numbers. */
    private static final int KEPT_FUNCTIONS = 1 << 16;
    private static final String SUBMIT = "submit ";
    private static final byte[] SUBMIT_JSON = TraceEventBytes.ascii(SUBMIT);

    private final Map<String, String> functions;
    private String[] names = new String[0];
    private byte[][] escaped = new byte[0][];
    private final TraceEventBytes scratch = new TraceEventBytes();
    private boolean submit;
    /** The function's name and its JSON-escaped UTF-8 bytes, or null for a task whose function is not known. */
    private String function;
    private byte[] functionJson;
    private long taskId;

    /** @param functions the run's function names by id in decimal */
    TaskBarName(Map<String, String> functions) {
        this.functions = functions;
    }

    /** @return this, the name of a core's or scheduler's bar of task {@code taskId} running function {@code funcId} */
    TaskBarName bar(int funcId, long taskId) {
        return set(false, funcId, taskId);
    }

    /**
     * @param funcId the function of the task's first core run
     * @return this, the name of the orchestrator's submit bar of task {@code taskId}
     */
    TaskBarName submit(int funcId, long taskId) {
        return set(true, funcId, taskId);
    }

    /** @return this, the name of the orchestrator's submit bar of task {@code taskId}, which never ran on a core */
    TaskBarName submit(long taskId) {
        this.submit = true;
        this.function = null;
        this.functionJson = null;
        this.taskId = taskId;
        return this;
    }

    private TaskBarName set(boolean submit, int funcId, long taskId) {
        this.submit = submit;
        this.taskId = taskId;
        if (funcId >= 0 && funcId < names.length && names[funcId] != null) {
            function = names[funcId];
            functionJson = escaped[funcId];
            return this;
        }
        function = functions.getOrDefault(Integer.toString(funcId), "func_" + funcId);
        scratch.reset().string(function);
        functionJson = Arrays.copyOfRange(scratch.array(), 1, scratch.size() - 1);
        if (funcId >= 0 && funcId < KEPT_FUNCTIONS) {
            if (funcId >= names.length) {
                names = Arrays.copyOf(names, Math.max(funcId + 1, 2 * names.length));
                escaped = Arrays.copyOf(escaped, names.length);
            }
            names[funcId] = function;
            escaped[funcId] = functionJson;
        }
        return this;
    }

    /** Appends the name as a JSON string: the bytes {@link TraceEventBytes#string} appends for {@link #toString()}. */
    void write(TraceEventBytes b) {
        b.raw('"');
        if (submit) {
            b.raw(SUBMIT_JSON);
        }
        if (function != null) {
            b.raw(functionJson).raw('(');
        }
        long ring = taskId >>> 32;
        if (ring != 0) {
            b.raw('r').integer(ring);
        }
        b.raw('t').integer(taskId & 0xFFFF_FFFFL);
        if (function != null) {
            b.raw(')');
        }
        b.raw('"');
    }

    /** @return the name's text */
    @Override
    public String toString() {
        long ring = taskId >>> 32;
        long local = taskId & 0xFFFF_FFFFL;
        String label = ring == 0 ? "t" + local : "r" + ring + "t" + local;
        return (submit ? SUBMIT : "") + (function == null ? label : function + "(" + label + ")");
    }
}
