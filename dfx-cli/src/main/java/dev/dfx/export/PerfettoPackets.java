package dev.dfx.export;

import static dev.dfx.export.PerfettoFields.CLOCK_CLOCK_ID;
import static dev.dfx.export.PerfettoFields.CLOCK_SNAPSHOT_CLOCKS;
import static dev.dfx.export.PerfettoFields.CLOCK_SNAPSHOT_PRIMARY_TRACE_CLOCK;
import static dev.dfx.export.PerfettoFields.CLOCK_TIMESTAMP;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;

/**
 * The TracePackets of one trace (trace_packet.proto), all on one packet sequence: {@link #begin} opens a packet
 * carrying {@code trusted_packet_sequence_id} {@value #SEQUENCE_ID} (and, on the first packet only,
 * {@code sequence_flags = SEQ_INCREMENTAL_STATE_CLEARED}, as trace processor expects a sequence to start cleared;
 * the interned frames of sampled callstacks live in that state); {@link #end} writes it as {@code Trace.packet} (field 1). Not thread-safe.
 */
final class PerfettoPackets {
    /** The trusted_packet_sequence_id of every packet. */
    static final int SEQUENCE_ID = 1;

    private final NestedMessages msg;
    private long count;

    PerfettoPackets(NestedMessages msg) {
        this.msg = msg;
    }

    /** @return the stream of a new packet's fields (the sequence id, and flags on the first, already written) */
    CodedOutputStream begin() throws IOException {
        return begin(0);
    }

    /**
     * @param flags sequence flags of the packet ({@code SEQ_NEEDS_INCREMENTAL_STATE} for one that adds or uses
     *              interned data); the first packet also gets {@code SEQ_INCREMENTAL_STATE_CLEARED}
     * @return the stream of a new packet's fields (the sequence id and flags already written)
     */
    CodedOutputStream begin(int flags) throws IOException {
        CodedOutputStream p = msg.begin();
        p.writeUInt32(PerfettoFields.PACKET_TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
        int all = flags | (count == 0 ? PerfettoFields.SEQ_INCREMENTAL_STATE_CLEARED : 0);
        if (all != 0) {
            p.writeUInt32(PerfettoFields.PACKET_SEQUENCE_FLAGS, all);
        }
        return p;
    }

    /** Closes the packet opened by {@link #begin} and writes it to the trace. */
    void end() throws IOException {
        msg.end(PerfettoFields.TRACE_PACKET);
        count++;
    }

    /** @return the message writer the packets' fields are nested with */
    NestedMessages messages() {
        return msg;
    }

    /** @return packets written */
    long count() {
        return count;
    }

    /**
     * A ClockSnapshot packet that makes {@code clock} the trace's primary clock (so packets without a
     * {@code timestamp_clock_id} are read on it) and, when the wall clock at the origin is known, relates
     * BUILTIN_CLOCK_REALTIME to it.
     */
    void clockSnapshot(TraceClock clock) throws IOException {
        begin();
        CodedOutputStream s = msg.begin();
        clockReading(clock.builtinClockId(), clock.originNs());
        if (clock.epochNsAtOrigin() >= 0) {
            clockReading(PerfettoFields.BUILTIN_CLOCK_REALTIME, clock.epochNsAtOrigin());
        }
        s.writeEnum(CLOCK_SNAPSHOT_PRIMARY_TRACE_CLOCK, clock.builtinClockId());
        msg.end(PerfettoFields.PACKET_CLOCK_SNAPSHOT);
        end();
    }

    private void clockReading(int clockId, long ns) throws IOException {
        CodedOutputStream c = msg.begin();
        c.writeUInt32(CLOCK_CLOCK_ID, clockId);
        c.writeUInt64(CLOCK_TIMESTAMP, ns);
        msg.end(CLOCK_SNAPSHOT_CLOCKS);
    }
}
