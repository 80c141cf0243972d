package dev.dfx.perf.event;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.InputErrors;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.pmu.attr.BranchSampleType;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.ReadFormat;
import dev.dfx.pmu.attr.SampleType;

/**
 * Decodes a record's sample fields the way perf's {@code evsel.c evsel__parse_sample} does: the whole body
 * of a PERF_RECORD_SAMPLE in {@code sample_type} order, or the {@code sample_id} trailer of any other kernel
 * record ({@code perf_evsel__parse_id_sample}, read backwards from the end). Stateless and thread-safe.
 */
public final class SampleParser {
    private SampleParser() {
    }

    /**
     * @param r    a kernel record (type below 64)
     * @param attr   the attr of the event the record belongs to
     * @param errors names the file in errors
     * @return the decoded fields
     * @throws BadInputException when a field runs past the record's end or sample_type has unknown bits
     */
    public static Sample parse(PerfRecord r, PerfEventAttr attr, InputErrors errors) {
        Sample s = new Sample();
        s.record = r;
        s.period = attr.samplePeriod();
        s.cpumode = r.misc() & 7;
        s.misc = r.misc();
        long type = attr.sampleType();
        if (r.type() != RecordType.SAMPLE) {
            if (attr.sampleIdAll()) {
                parseIdTrailer(r, type, s);
            }
            return s;
        }
        if (Long.compareUnsigned(type, SampleType.MAX) >= 0) {
            throw errors.at(r, "the SAMPLE record's event has sample_type 0x" + Long.toHexString(type)
                + " with unknown bits 0x" + Long.toHexString(type & -SampleType.MAX)
                + "; perf_event.h defines bits up to 0x" + Long.toHexString(SampleType.MAX >>> 1));
        }
        new Cursor(r, errors).parse(attr, type, s);
        return s;
    }

    /** @return all-zero fields, as perf passes them with its own records ({@code { .time = 0 }}) */
    public static Sample zero(PerfRecord r) {
        Sample s = new Sample();
        s.record = r;
        s.pid = 0;
        s.tid = 0;
        s.time = 0;
        s.id = 0;
        s.streamId = 0;
        s.cpu = 0;
        s.misc = r.misc();
        return s;
    }

    /**
     * The fields of a sample that a decoder synthesizes from AUX data ({@code perf_session__deliver_synth_event}
     * with a hand-filled {@code struct perf_sample}), e.g. one vpa-dtl entry: fields not given here are zero.
     *
     * @param r         the synthesized record (a SAMPLE header; its misc gives the cpumode)
     * @param ip        instruction pointer
     * @param pid       process id
     * @param tid       thread id
     * @param cpu       cpu
     * @param time      timestamp, ns
     * @param id        sample id of the synthesized event
     * @param period    period
     * @param rawOffset offset of the raw data from the start of {@code r} (it may lie past the record's
     *                  counted size, as perf's {@code raw_data} points outside the event)
     * @param rawSize   bytes of raw data
     * @return the fields
     */
    public static Sample synthesized(PerfRecord r, long ip, int pid, int tid, int cpu, long time, long id, long period,
                                     int rawOffset, int rawSize) {
        Sample s = zero(r);
        s.ip = ip;
        s.pid = pid;
        s.tid = tid;
        s.cpu = cpu;
        s.time = time;
        s.id = id;
        s.period = period;
        s.cpumode = r.misc() & 7;
        s.rawOffset = rawOffset;
        s.rawSize = rawSize;
        return s;
    }

    /**
     * @return the timestamp of a record without decoding anything else ({@code evsel__parse_sample_timestamp}),
     *         or -1 when the record carries none
     */
    public static long timestamp(PerfRecord r, PerfEventAttr attr) {
        long type = attr.sampleType();
        if ((type & SampleType.TIME) == 0) {
            return -1;
        }
        if (r.type() != RecordType.SAMPLE) {
            if (!attr.sampleIdAll()) {
                return -1;
            }
            int back = 1 + Long.bitCount(type & (SampleType.IDENTIFIER | SampleType.CPU | SampleType.STREAM_ID
                | SampleType.ID));
            int at = trailerEnd(r) - 8 * back;
            return at >= 8 ? r.u64(at) : -1;
        }
        int at = 8 + 8 * Long.bitCount(type & (SampleType.IDENTIFIER | SampleType.IP | SampleType.TID));
        return at + 8 <= r.size() ? r.u64(at) : -1;
    }

    /**
     * @return where the sample_id trailer of a non-SAMPLE record ends: perf counts whole u64s of the body
     *         ({@code perf_evsel__parse_id_sample}), so a size that is not a multiple of 8 loses its last bytes
     */
    private static int trailerEnd(PerfRecord r) {
        return 8 + 8 * ((r.size() - 8) / 8);
    }

    private static void parseIdTrailer(PerfRecord r, long type, Sample s) {
        int at = trailerEnd(r) - 8;
        if ((type & SampleType.IDENTIFIER) != 0 && at >= 8) {
            s.id = r.u64(at);
            at -= 8;
        }
        if ((type & SampleType.CPU) != 0 && at >= 8) {
            s.cpu = r.s32(at);
            at -= 8;
        }
        if ((type & SampleType.STREAM_ID) != 0 && at >= 8) {
            s.streamId = r.u64(at);
            at -= 8;
        }
        if ((type & SampleType.ID) != 0 && at >= 8) {
            s.id = r.u64(at);
            at -= 8;
        }
        if ((type & SampleType.TIME) != 0 && at >= 8) {
            s.time = r.u64(at);
            at -= 8;
        }
        if ((type & SampleType.TID) != 0 && at >= 8) {
            s.pid = r.s32(at);
            s.tid = r.s32(at + 4);
        }
    }

    /** The sample_type bits of the fields that follow RAW ({@link Sample.Extra}). */
    private static final long LATER_FIELDS = SampleType.BRANCH_STACK | SampleType.REGS_USER | SampleType.STACK_USER
        | SampleType.WEIGHT_TYPE | SampleType.DATA_SRC | SampleType.TRANSACTION | SampleType.REGS_INTR
        | SampleType.PHYS_ADDR | SampleType.CGROUP | SampleType.DATA_PAGE_SIZE | SampleType.CODE_PAGE_SIZE
        | SampleType.AUX;

    /** Forward reader over a SAMPLE body with perf's overflow checks. */
    private static final class Cursor {
        private final PerfRecord r;
        private final InputErrors errors;
        private int at = 8;

        Cursor(PerfRecord r, InputErrors errors) {
            this.r = r;
            this.errors = errors;
        }

        private void need(long bytes, String field) {
            if (bytes < 0 || bytes > r.size() - at) {
                throw errors.at(r, "SAMPLE record of " + r.size() + " bytes ends inside its " + field + " field at"
                    + " byte " + at + " of the record; sample_type promises " + Long.toUnsignedString(bytes)
                    + " more bytes");
            }
        }

        /** Like {@link #need} for {@code n} entries of {@code each} bytes, {@code n} an unsigned count. */
        private void needEntries(long n, int each, String field) {
            if (Long.compareUnsigned(n, (r.size() - at) / each) > 0) {
                throw errors.at(r, "SAMPLE record of " + r.size() + " bytes ends inside its " + field + " field at"
                    + " byte " + at + " of the record; its count " + Long.toUnsignedString(n) + " promises "
                    + Long.toUnsignedString(n) + " entries of " + each + " bytes");
            }
        }

        private long u64(String field) {
            need(8, field);
            long v = r.u64(at);
            at += 8;
            return v;
        }

        void parse(PerfEventAttr attr, long type, Sample s) {
            if ((type & SampleType.IDENTIFIER) != 0) {
                s.id = u64("IDENTIFIER");
            }
            if ((type & SampleType.IP) != 0) {
                s.ip = u64("IP");
            }
            if ((type & SampleType.TID) != 0) {
                need(8, "TID");
                s.pid = r.s32(at);
                s.tid = r.s32(at + 4);
                at += 8;
            }
            if ((type & SampleType.TIME) != 0) {
                s.time = u64("TIME");
            }
            if ((type & SampleType.ADDR) != 0) {
                s.addr = u64("ADDR");
            }
            if ((type & SampleType.ID) != 0) {
                s.id = u64("ID");
            }
            if ((type & SampleType.STREAM_ID) != 0) {
                s.streamId = u64("STREAM_ID");
            }
            if ((type & SampleType.CPU) != 0) {
                need(8, "CPU");
                s.cpu = r.s32(at);
                at += 8;
            }
            if ((type & SampleType.PERIOD) != 0) {
                s.period = u64("PERIOD");
            }
            if ((type & SampleType.READ) != 0) {
                s.read = read(attr.readFormat());
            }
            if ((type & SampleType.CALLCHAIN) != 0) {
                long nr = u64("CALLCHAIN");
                needEntries(nr, 8, "CALLCHAIN");
                s.callchainOffset = at;
                s.callchainNr = (int) nr;
                at += (int) nr * 8;
            }
            if ((type & SampleType.RAW) != 0) {
                need(4, "RAW");
                long size = r.u32(at);
                need(4 + size, "RAW");
                s.rawSize = (int) size;
                s.rawOffset = at + 4;
                at += 4 + (int) size;
            }
            if ((type & LATER_FIELDS) != 0) {
                later(attr, type, s.extra());
            }
        }

        /** The fields after RAW, which few events sample: kept apart so that a common sample stays small. */
        private void later(PerfEventAttr attr, long type, Sample.Extra s) {
            if ((type & SampleType.BRANCH_STACK) != 0) {
                long nr = u64("BRANCH_STACK");
                if ((attr.branchSampleType() & BranchSampleType.HW_INDEX) != 0) {
                    s.branchHwIdx = u64("BRANCH_STACK hw_idx");
                }
                needEntries(nr, 24, "BRANCH_STACK");
                s.branchOffset = at;
                s.branchNr = (int) nr;
                at += (int) nr * 24;
            }
            if ((type & SampleType.REGS_USER) != 0) {
                s.regsUserAbi = u64("REGS_USER");
                if (s.regsUserAbi != 0) {
                    s.regsUserMask = attr.sampleRegsUser();
                    int n = Long.bitCount(s.regsUserMask) * 8;
                    need(n, "REGS_USER");
                    s.regsUserOffset = at;
                    at += n;
                }
            }
            if ((type & SampleType.STACK_USER) != 0) {
                s.stackUserOffset = at;
                long size = u64("STACK_USER");
                s.stackUserSize = size;
                if (size != 0) {
                    need(size, "STACK_USER");
                    at += (int) size;
                    s.stackUserDynSize = u64("STACK_USER dyn_size");
                    if (Long.compareUnsigned(s.stackUserDynSize, size) > 0) {
                        // perf: "user stack dump failure", and the sample cannot be parsed
                        throw errors.at(r, "SAMPLE record's STACK_USER dyn_size "
                            + Long.toUnsignedString(s.stackUserDynSize) + " exceeds the " + size
                            + " stack bytes it holds, expected at most " + size);
                    }
                }
            }
            if ((type & SampleType.WEIGHT_TYPE) != 0) {
                long w = u64("WEIGHT");
                if ((type & SampleType.WEIGHT) != 0) {
                    s.weight = w;
                } else {
                    s.weight = w & 0xffff_ffffL;
                    s.insLat = (int) ((w >>> 32) & 0xffff);
                    s.retireLat = (int) ((w >>> 48) & 0xffff);
                }
            }
            if ((type & SampleType.DATA_SRC) != 0) {
                s.dataSrc = u64("DATA_SRC");
            }
            if ((type & SampleType.TRANSACTION) != 0) {
                s.transaction = u64("TRANSACTION");
            }
            if ((type & SampleType.REGS_INTR) != 0) {
                s.regsIntrAbi = u64("REGS_INTR");
                if (s.regsIntrAbi != 0) {
                    s.regsIntrMask = attr.sampleRegsIntr();
                    int n = Long.bitCount(s.regsIntrMask) * 8;
                    need(n, "REGS_INTR");
                    s.regsIntrOffset = at;
                    at += n;
                }
            }
            if ((type & SampleType.PHYS_ADDR) != 0) {
                s.physAddr = u64("PHYS_ADDR");
            }
            if ((type & SampleType.CGROUP) != 0) {
                s.cgroup = u64("CGROUP");
            }
            if ((type & SampleType.DATA_PAGE_SIZE) != 0) {
                s.dataPageSize = u64("DATA_PAGE_SIZE");
            }
            if ((type & SampleType.CODE_PAGE_SIZE) != 0) {
                s.codePageSize = u64("CODE_PAGE_SIZE");
            }
            if ((type & SampleType.AUX) != 0) {
                long size = u64("AUX");
                need(size, "AUX");
                s.auxOffset = at;
                s.auxSize = size;
                at += (int) size;
            }
        }

        private ReadValues read(long format) {
            boolean group = (format & ReadFormat.GROUP) != 0;
            long first = u64("READ");
            long enabled = (format & ReadFormat.TOTAL_TIME_ENABLED) != 0 ? u64("READ time_enabled") : 0;
            long running = (format & ReadFormat.TOTAL_TIME_RUNNING) != 0 ? u64("READ time_running") : 0;
            boolean lost = (format & ReadFormat.LOST) != 0;
            int nr = group ? (int) Math.min(first, Integer.MAX_VALUE) : 1;
            if (group) {
                needEntries(first, lost ? 24 : 16, "READ group");
            }
            long[] ids = new long[nr];
            long[] values = new long[nr];
            long[] losts = new long[nr];
            for (int i = 0; i < nr; i++) {
                // PERF_FORMAT_ID is forced for PERF_SAMPLE_READ, so every value carries its id.
                values[i] = group ? u64("READ value") : first;
                ids[i] = u64("READ id");
                if (lost) {
                    losts[i] = u64("READ lost");
                }
            }
            return new ReadValues(group, enabled, running, ids, values, losts);
        }
    }
}
