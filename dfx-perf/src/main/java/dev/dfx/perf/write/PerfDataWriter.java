package dev.dfx.perf.write;

import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds valid file-mode perf.data files (little-endian, perf 6.1 layout) for tests and benchmarks: events with
 * one sample id per cpu, tracepoint samples (e.g. {@code sched_switch}), COMM and FINISHED_ROUND records,
 * AUXTRACE_INFO and AUXTRACE records with their AUX data (e.g. vpa-dtl entries), and the feature sections a
 * reader needs: TRACING_DATA (formats of the tracepoints used), NRCPUS, EVENT_DESC and, when there is AUX data,
 * the AUXTRACE index. Formats: {@code tools/perf/Documentation/perf.data-file-format.txt},
 * {@code tools/perf/util/header.c} (features), {@code tools/perf/util/auxtrace.c} (index),
 * {@code tools/perf/util/trace-event-read.c} (tracing data).
 *
 * <p>File layout: 104-byte header, attrs (128-byte attrs, {@code attr_size} 144), their id arrays, the data
 * section, the feature table and the feature sections. Records are written in call order; the caller decides
 * where FINISHED_ROUND records go. Not thread-safe.
 */
public final class PerfDataWriter {
    /** The sample_type of {@code perf record -a -e sched:...} (IP, TID, TIME, CPU, PERIOD, RAW, IDENTIFIER). */
    public static final long TRACEPOINT_SAMPLE_TYPE = SampleType.IP | SampleType.TID | SampleType.TIME
        | SampleType.CPU | SampleType.PERIOD | SampleType.RAW | SampleType.IDENTIFIER;
    /** The sample_type of a system-wide {@code vpa_dtl/dtl_all/ -c N} event (IP, TID, TIME, CPU, IDENTIFIER). */
    public static final long VPA_DTL_SAMPLE_TYPE = SampleType.IP | SampleType.TID | SampleType.TIME
        | SampleType.CPU | SampleType.IDENTIFIER;
    /** A dynamic PMU type number standing for the {@code vpa_dtl} PMU (sysfs {@code type}). */
    public static final int VPA_DTL_PMU_TYPE = 11;
    /** {@code auxtrace_type} of vpa-dtl ({@code PERF_AUXTRACE_VPA_DTL}). */
    public static final int AUXTRACE_VPA_DTL = 7;

    private static final long MAGIC = 0x32454c4946524550L; // "PERFILE2"
    private static final int HEADER_SIZE = 104;
    private static final int ATTR_SIZE = 128;
    private static final long SUPPORTED = SampleType.IDENTIFIER | SampleType.IP | SampleType.TID | SampleType.TIME
        | SampleType.ID | SampleType.CPU | SampleType.PERIOD | SampleType.RAW;
    /** A kernel text address for tracepoint samples (perf script does not print it for tracepoints). */
    private static final long KERNEL_IP = 0xffffffff81000000L;

    private final int nrCpus;
    private final List<WriterEvent> events = new ArrayList<>();
    private final Map<Integer, Tracepoint> tracepoints = new LinkedHashMap<>();
    private final LeBytes data = new LeBytes();
    /** Data-section positions of the AUXTRACE records, for the index. */
    private final List<Integer> auxtraceAt = new ArrayList<>();
    private boolean auxtraceIndex = true;
    private long nextId = 100;

    /** @param nrCpus cpus of the recording machine (one sample id per cpu per event; NRCPUS feature) */
    public PerfDataWriter(int nrCpus) {
        if (nrCpus < 1) {
            throw new IllegalArgumentException("nrCpus " + nrCpus + " < 1");
        }
        this.nrCpus = nrCpus;
    }

    /**
     * Adds an event; events must be added before records that use them.
     *
     * @param name         name stored in EVENT_DESC
     * @param type         {@code attr.type}
     * @param config       {@code attr.config}
     * @param samplePeriod {@code attr.sample_period}
     * @param sampleType   {@code attr.sample_type}; must contain IDENTIFIER (one id layout for all events)
     * @return the event with one sample id per cpu
     * @throws IllegalArgumentException for sample_type bits this writer cannot encode, or without IDENTIFIER
     */
    public WriterEvent addEvent(String name, int type, long config, long samplePeriod, long sampleType) {
        if ((sampleType & ~SUPPORTED) != 0 || (sampleType & SampleType.IDENTIFIER) == 0) {
            throw new IllegalArgumentException("sample_type 0x" + Long.toHexString(sampleType)
                + ": the writer needs IDENTIFIER and encodes only IDENTIFIER, IP, TID, TIME, ID, CPU, PERIOD, RAW");
        }
        long[] ids = new long[nrCpus];
        for (int cpu = 0; cpu < nrCpus; cpu++) {
            ids[cpu] = nextId++;
        }
        PerfEventAttr attr = new PerfEventAttr(type, ATTR_SIZE, config, samplePeriod, sampleType, 0,
            AttrFlags.SAMPLE_ID_ALL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        WriterEvent e = new WriterEvent(name, attr, ids);
        events.add(e);
        return e;
    }

    /** Adds a tracepoint event with {@link #TRACEPOINT_SAMPLE_TYPE}; its format goes into TRACING_DATA. */
    public WriterEvent addTracepoint(Tracepoint tp) {
        tracepoints.put(tp.id(), tp);
        return addEvent(tp.fullName(), PerfType.TRACEPOINT, tp.id(), 1, TRACEPOINT_SAMPLE_TYPE);
    }

    /** Adds {@code vpa_dtl/dtl_all/} (config 7, period 1 s) as {@code perf record -a -e vpa_dtl/dtl_all/ -c 1000000000}. */
    public WriterEvent addVpaDtl() {
        return addEvent("vpa_dtl/dtl_all/", VPA_DTL_PMU_TYPE, 7, 1_000_000_000L, VPA_DTL_SAMPLE_TYPE);
    }

    /** Leaves out the AUXTRACE index feature (as in a recording whose header was never finished). */
    public PerfDataWriter withoutAuxtraceIndex() {
        auxtraceIndex = false;
        return this;
    }

    /**
     * A PERF_RECORD_SAMPLE of {@code e} (cpumode kernel).
     *
     * @param raw PERF_SAMPLE_RAW data (ignored unless the event samples RAW); padded so that the u32 size and
     *            the data end on 8 bytes, as the kernel does
     * @return this
     */
    public PerfDataWriter sample(WriterEvent e, int cpu, int pid, int tid, long time, long ip, byte[] raw) {
        long st = e.attr().sampleType();
        int start = header(RecordType.SAMPLE, 1);
        data.u64(e.id(cpu));
        if ((st & SampleType.IP) != 0) {
            data.u64(ip);
        }
        idFields(e, cpu, pid, tid, time);
        if ((st & SampleType.PERIOD) != 0) {
            data.u64(e.attr().samplePeriod());
        }
        if ((st & SampleType.RAW) != 0) {
            int padded = ((raw.length + 4 + 7) & ~7) - 4;
            data.u32(padded).bytes(raw).zeros(padded - raw.length);
        }
        return end(start);
    }

    /** A {@code sched_switch} sample on {@code cpu} by the task switched out. */
    public PerfDataWriter schedSwitch(WriterEvent e, int cpu, long time, String prevComm, int prevPid, int prevPrio,
                                      long prevState, String nextComm, int nextPid, int nextPrio) {
        return sample(e, cpu, prevPid, prevPid, time, KERNEL_IP, SchedTracepoints.switchRaw(prevComm, prevPid,
            prevPrio, prevState, nextComm, nextPid, nextPrio));
    }

    /**
     * A PERF_RECORD_COMM naming a thread, with the sample_id trailer of the first event on {@code cpu}.
     *
     * @return this
     */
    public PerfDataWriter comm(int pid, int tid, String comm, int cpu, long time) {
        return comm(pid, tid, comm.getBytes(StandardCharsets.UTF_8), cpu, time);
    }

    /**
     * A PERF_RECORD_COMM naming a thread with the bytes {@code comm} (e.g. a UTF-8 name cut mid-character, as the
     * kernel cuts names at 15 bytes), with the sample_id trailer of the first event on {@code cpu}.
     *
     * @return this
     */
    public PerfDataWriter comm(int pid, int tid, byte[] comm, int cpu, long time) {
        int start = header(RecordType.COMM, 0);
        data.u32(pid).u32(tid).bytes(comm).u8(0).align(8);
        trailer(cpu, pid, tid, time);
        return end(start);
    }

    /**
     * A PERF_RECORD_FORK {@code {u32 pid, ppid, tid, ptid; u64 time}}: thread {@code tid} of process {@code pid},
     * created by thread {@code ptid} of process {@code ppid}, with the sample_id trailer of the first event.
     *
     * @return this
     */
    public PerfDataWriter fork(int pid, int ppid, int tid, int ptid, int cpu, long time) {
        int start = header(RecordType.FORK, 0);
        data.u32(pid).u32(ppid).u32(tid).u32(ptid).u64(time);
        trailer(cpu, pid, tid, time);
        return end(start);
    }

    /** The sample_id trailer of a side-band record: the first event's id fields, then its id. */
    private void trailer(int cpu, int pid, int tid, long time) {
        WriterEvent e = events.get(0);
        idFields(e, cpu, pid, tid, time);
        data.u64(e.id(cpu));
    }

    /**
     * The fields a sample body and a sample_id trailer share, in their common order: {pid, tid} [TID], time [TIME],
     * id [ID], {cpu, res} [CPU] (no ADDR or STREAM_ID: the writer does not encode them).
     */
    private void idFields(WriterEvent e, int cpu, int pid, int tid, long time) {
        long st = e.attr().sampleType();
        if ((st & SampleType.TID) != 0) {
            data.u32(pid).u32(tid);
        }
        if ((st & SampleType.TIME) != 0) {
            data.u64(time);
        }
        if ((st & SampleType.ID) != 0) {
            data.u64(e.id(cpu));
        }
        if ((st & SampleType.CPU) != 0) {
            data.u32(cpu).u32(0);
        }
    }

    /** A PERF_RECORD_FINISHED_ROUND. */
    public PerfDataWriter finishedRound() {
        return end(header(RecordType.FINISHED_ROUND, 0));
    }

    /**
     * A PERF_RECORD_AUXTRACE_INFO {@code {u32 type; u32 reserved; u64 priv[]}}.
     *
     * @param type {@code auxtrace_type}, e.g. {@link #AUXTRACE_VPA_DTL}
     * @param priv the decoder's private values (vpa-dtl: one, the PMU type, which perf leaves 0)
     * @return this
     */
    public PerfDataWriter auxtraceInfo(int type, long... priv) {
        int start = header(RecordType.AUXTRACE_INFO, 0);
        data.u32(type).u32(0);
        for (long p : priv) {
            data.u64(p);
        }
        return end(start);
    }

    /**
     * A PERF_RECORD_AUXTRACE {@code {u64 size, offset, reference; u32 idx, tid, cpu, reserved}} followed by its
     * AUX data, which the record's size does not count; indexed in the AUXTRACE feature.
     *
     * @param idx     mmap index (per-cpu recording: the cpu's index), the queue the data belongs to
     * @param cpu     cpu, or -1
     * @param tid     thread, or -1
     * @param offset  offset of the data in the AUX area stream of its mmap
     * @param payload the AUX data
     * @return this
     */
    public PerfDataWriter auxtrace(int idx, int cpu, int tid, long offset, byte[] payload) {
        auxtraceAt.add(data.size());
        int start = header(RecordType.AUXTRACE, 0);
        data.u64(payload.length).u64(offset).u64(0).u32(idx).u32(tid).u32(cpu).u32(0);
        end(start);
        data.bytes(payload);
        return this;
    }

    /** @return the file's bytes */
    public byte[] toBytes() {
        int attrsAt = HEADER_SIZE;
        int idsAt = attrsAt + events.size() * (ATTR_SIZE + 16);
        int idsBytes = 0;
        for (WriterEvent e : events) {
            idsBytes += 8 * e.ids().length;
        }
        int dataAt = idsAt + idsBytes;
        int dataSize = data.size();
        Map<Integer, byte[]> features = features(dataAt);
        LeBytes out = new LeBytes();
        long[] bitmap = new long[4];
        for (int bit : features.keySet()) {
            bitmap[bit / 64] |= 1L << (bit % 64);
        }
        out.u64(MAGIC).u64(HEADER_SIZE).u64(ATTR_SIZE + 16).u64(attrsAt).u64(idsAt - attrsAt).u64(dataAt)
            .u64(dataSize).u64(0).u64(0);
        for (long w : bitmap) {
            out.u64(w);
        }
        int idAt = idsAt;
        for (WriterEvent e : events) {
            attr(out, e);
            out.u64(idAt).u64(8L * e.ids().length);
            idAt += 8 * e.ids().length;
        }
        for (WriterEvent e : events) {
            for (long id : e.ids()) {
                out.u64(id);
            }
        }
        out.bytes(data.toArray());
        long sectionAt = (long) dataAt + dataSize + 16L * features.size();
        for (byte[] f : features.values()) {
            out.u64(sectionAt).u64(f.length);
            sectionAt += f.length;
        }
        for (byte[] f : features.values()) {
            out.bytes(f);
        }
        return out.toArray();
    }

    /** Writes {@link #toBytes()} to {@code path}. */
    public void write(Path path) throws IOException {
        Files.write(path, toBytes());
    }

    /** @param dataAt file offset of the data section (the AUXTRACE index holds file offsets) */
    private Map<Integer, byte[]> features(int dataAt) {
        Map<Integer, byte[]> f = new TreeMap<>();
        if (!tracepoints.isEmpty()) {
            f.put(Feature.TRACING_DATA.bit(), TracingData.encode(tracepoints.values()));
        }
        f.put(Feature.NRCPUS.bit(), new LeBytes().u32(nrCpus).u32(nrCpus).toArray());
        f.put(Feature.EVENT_DESC.bit(), eventDesc());
        if (auxtraceIndex && !auxtraceAt.isEmpty()) {
            f.put(Feature.AUXTRACE.bit(), auxtraceIndex(dataAt));
        }
        return f;
    }

    private byte[] auxtraceIndex(int dataAt) {
        LeBytes b = new LeBytes().u64(auxtraceAt.size());
        for (int at : auxtraceAt) {
            b.u64((long) dataAt + at).u64(48);
        }
        return b.toArray();
    }

    /** EVENT_DESC: {@code {u32 nr; u32 attr_size; {attr; u32 nr_ids; string name; u64 ids[]}[nr]}}. */
    private byte[] eventDesc() {
        LeBytes b = new LeBytes().u32(events.size()).u32(ATTR_SIZE);
        for (WriterEvent e : events) {
            attr(b, e);
            b.u32(e.ids().length);
            headerString(b, e.name());
            for (long id : e.ids()) {
                b.u64(id);
            }
        }
        return b.toArray();
    }

    /** {@code do_write_string}: u32 length (NUL included, padded to 64), then the bytes. */
    static void headerString(LeBytes b, String s) {
        int len = (s.length() + 1 + 63) & ~63;
        b.u32(len).chars(s, len);
    }

    /** A 128-byte {@code perf_event_attr} (PERF_ATTR_SIZE_VER7 layout). */
    private static void attr(LeBytes b, WriterEvent e) {
        MemorySegment attr = MemorySegment.ofArray(new byte[ATTR_SIZE]);
        e.attr().write(attr, 0, ByteOrder.LITTLE_ENDIAN);
        b.bytes(attr.toArray(ValueLayout.JAVA_BYTE));
    }

    private int header(int type, int misc) {
        int start = data.size();
        data.u32(type).u16(misc).u16(0);
        return start;
    }

    private PerfDataWriter end(int start) {
        data.putU16(start + 6, data.size() - start);
        return this;
    }
}
