package dev.dfx.export;

import static dev.dfx.export.PerfettoFields.TRACK_CHILD_ORDERING;
import static dev.dfx.export.PerfettoFields.TRACK_NAME;
import static dev.dfx.export.PerfettoFields.TRACK_PARENT_UUID;
import static dev.dfx.export.PerfettoFields.TRACK_SIBLING_ORDER_RANK;
import static dev.dfx.export.PerfettoFields.TRACK_UUID;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The tracks of a Perfetto trace and their TrackDescriptor packets (track_descriptor.proto), each written once,
 * before the track's first event. A process is a process track ({@code process {pid, process_name}}); its rows and
 * counters are named child tracks ({@code parent_uuid}) rather than thread tracks, because the rows' tids are
 * per-process numbers that repeat across processes, which trace processor would take for one reused thread. Order:
 * the root track (uuid 0) sorts processes by {@code sibling_order_rank}; a process track sorts its children the same
 * way ({@code child_ordering = EXPLICIT}). Uuids are 1, 2, 3, ... in declaration order. Not thread-safe.
 */
final class PerfettoTracks {
    private final PerfettoPackets packets;
    private final NestedMessages msg;
    private final Map<Integer, Long> processes = new HashMap<>();
    private final Map<Long, Long> rows = new HashMap<>();
    private final Map<String, Long> named = new HashMap<>();
    private long lastUuid;
    private long[] lastStart = new long[0]; // by uuid: the latest slice start on the row

    PerfettoTracks(PerfettoPackets packets) {
        this.packets = packets;
        this.msg = packets.messages();
    }

    /** Declares the root track's ordering: processes by rank. */
    void root() throws IOException {
        CodedOutputStream t = descriptor(0);
        t.writeEnum(PerfettoFields.TRACK_PROCESS_ORDERING, PerfettoFields.PROCESS_ORDERING_EXPLICIT);
        end();
    }

    /**
     * Declares process {@code pid}'s track, named, ranked {@code rank} among the processes.
     *
     * @throws IllegalStateException when the process was declared already
     */
    void process(int pid, String name, int rank) throws IOException {
        long uuid = ++lastUuid;
        if (processes.putIfAbsent(pid, uuid) != null) {
            throw new IllegalStateException("process " + pid + " is declared twice");
        }
        CodedOutputStream t = descriptor(uuid);
        t.writeInt32(TRACK_SIBLING_ORDER_RANK, rank);
        t.writeEnum(TRACK_CHILD_ORDERING, PerfettoFields.CHILD_ORDERING_EXPLICIT);
        CodedOutputStream p = msg.begin();
        p.writeInt32(PerfettoFields.PROCESS_PID, pid);
        p.writeString(PerfettoFields.PROCESS_NAME, name);
        msg.end(PerfettoFields.TRACK_PROCESS);
        end();
    }

    /**
     * Declares row {@code tid} of process {@code pid}: a child track of the process, named, ranked {@code rank}.
     *
     * @throws IllegalStateException when the process is not declared or the row is declared already
     */
    void row(int pid, int tid, String name, int rank) throws IOException {
        long parent = processUuid(pid);
        long uuid = ++lastUuid;
        if (rows.putIfAbsent(rowKey(pid, tid), uuid) != null) {
            throw new IllegalStateException("row " + tid + " of process " + pid + " is declared twice");
        }
        child(uuid, parent, name, rank);
        end();
    }

    /**
     * @return the uuid of row {@code tid} of process {@code pid}
     * @throws IllegalStateException when the row is not declared
     */
    long rowUuid(int pid, int tid) {
        Long uuid = rows.get(rowKey(pid, tid));
        if (uuid == null) {
            throw new IllegalStateException("row " + tid + " of process " + pid + " is used before it is declared");
        }
        return uuid;
    }

    /** @return the uuid of counter {@code name} of process {@code pid}, declared on first use */
    long counter(int pid, String name) throws IOException {
        Long uuid = named.get(pid + "/" + name);
        if (uuid != null) {
            return uuid;
        }
        long parent = processUuid(pid);
        uuid = ++lastUuid;
        named.put(pid + "/" + name, uuid);
        CodedOutputStream t = child(uuid, parent, name, 0);
        t.writeByteArray(PerfettoFields.TRACK_COUNTER, new byte[0], 0, 0); // an empty CounterDescriptor
        end();
        return uuid;
    }

    /** @return the uuid of the top-level track {@code name}, declared on first use */
    long global(String name) throws IOException {
        Long uuid = named.get("/" + name);
        if (uuid != null) {
            return uuid;
        }
        uuid = ++lastUuid;
        named.put("/" + name, uuid);
        descriptor(uuid).writeString(TRACK_NAME, name);
        end();
        return uuid;
    }

    /**
     * Records that a slice starts at {@code startNs} on row {@code uuid}.
     *
     * @return the start of the row's previous slice ({@link Long#MIN_VALUE} before the first)
     */
    long startOrder(long uuid, long startNs) {
        int i = (int) uuid;
        if (i >= lastStart.length) {
            int from = lastStart.length;
            lastStart = Arrays.copyOf(lastStart, Math.max(i + 1, from * 2));
            Arrays.fill(lastStart, from, lastStart.length, Long.MIN_VALUE);
        }
        long previous = lastStart[i];
        lastStart[i] = Math.max(previous, startNs);
        return previous;
    }

    private long processUuid(int pid) {
        Long parent = processes.get(pid);
        if (parent == null) {
            throw new IllegalStateException("process " + pid + " is used before it is declared");
        }
        return parent;
    }

    private CodedOutputStream child(long uuid, long parent, String name, int rank) throws IOException {
        CodedOutputStream t = descriptor(uuid);
        t.writeUInt64(TRACK_PARENT_UUID, parent);
        t.writeString(TRACK_NAME, name);
        t.writeInt32(TRACK_SIBLING_ORDER_RANK, rank);
        return t;
    }

    /** Opens a TrackDescriptor packet for {@code uuid}; returns the descriptor's stream. */
    private CodedOutputStream descriptor(long uuid) throws IOException {
        packets.begin();
        CodedOutputStream t = msg.begin();
        t.writeUInt64(TRACK_UUID, uuid);
        return t;
    }

    private void end() throws IOException {
        msg.end(PerfettoFields.PACKET_TRACK_DESCRIPTOR);
        packets.end();
    }

    private static long rowKey(int pid, int tid) {
        return ((long) pid << 32) | (tid & 0xFFFF_FFFFL);
    }
}
