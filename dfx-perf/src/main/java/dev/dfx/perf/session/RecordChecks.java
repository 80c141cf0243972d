package dev.dfx.perf.session;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Mmap;
import dev.dfx.perf.event.RecordText;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.read.InputErrors;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.read.Warnings;
import dev.dfx.pmu.attr.SampleType;

/**
 * The refusals of a record that perf makes before or while it delivers it ({@code session.c
 * perf_session__process_event}, {@code machines__deliver_event}, {@code evlist__parse_sample}), as dfx's one-line
 * errors (and the one it skips with a warning, a type dfx does not know): a record no event owns, a process map given as a kernel map, a kernel map
 * that perf would move, an oversized build id, a sample on a cpu the recording does not have. Each
 * is damage that would otherwise lose or misplace the record silently. Stateless.
 */
final class RecordChecks {
    /** {@code PERF_RECORD_MISC_KERNEL} and {@code PERF_RECORD_MISC_GUEST_KERNEL}. */
    private static final int CPUMODE_KERNEL = 1;
    private static final int CPUMODE_GUEST_KERNEL = 4;
    /** {@code PERF_AUXTRACE_VPA_DTL}, the only AUX data type dfx decodes. */
    private static final long VPA_DTL = 7;
    /** {@code BUILD_ID_SIZE}: bytes of the build id field of MMAP2. */
    private static final int BUILD_ID_SIZE = 20;
    /** What a kernel map's name starts with ({@code machine->mmap_name} of the host less its last character). */
    private static final String KERNEL_MAP = "[kernel.kallsyms";

    private RecordChecks() {
    }

    /**
     * A record of a type dfx does not know: a newer perf's or kernel's record, or a damaged type field. perf 6.1
     * refuses it ("failed to process type"); perf since 6.9 skips it by its size with a warning ("Unsupported header
     * type %u, please consider updating perf"), as dfx does, and keeps refusing one whose size is not a multiple of
     * 8, since every record perf or the kernel writes is 8-byte aligned and a misaligned size means the framing is
     * lost.
     *
     * @return whether {@code r} is of an unknown type and is to be skipped (one warning per input counts them)
     * @throws BadInputException when the unknown record's size is not a multiple of 8
     */
    static boolean unknownType(PerfRecord r, InputErrors errors, Warnings warnings) {
        if (RecordType.isKnown(r.type())) {
            return false;
        }
        // perf prints the u32 type as an int ("failed to process type: -1"): name both readings
        String type = "record type " + Integer.toUnsignedString(r.type()) + (r.type() < 0 ? " (perf: " + r.type()
            + ")" : "") + " is unknown";
        if (r.size() % 8 != 0) {
            throw errors.at(r, type + " and its size " + r.size() + " is not a multiple of 8; expected a kernel"
                + " record type " + RecordType.MMAP + ".." + RecordType.AUX_OUTPUT_HW_ID + " or a perf record type "
                + RecordType.USER_TYPE_START + ".." + RecordType.COMPRESSED2 + ", or an 8-byte aligned record");
        }
        warnings.addRepeating("unknown record type", errors, errors.offsetOf(r), type + " (size " + r.size() + "):"
            + " skipped by its size (a record of a newer perf or kernel, or a damaged type field)",
            "records of unknown types skipped");
        return true;
    }

    /**
     * perf reads the fixed fields of a known record whatever its size says.
     *
     * @throws BadInputException when {@code r} is shorter than its type's fixed fields
     */
    static void minSize(PerfRecord r, InputErrors errors) {
        if (r.size() < RecordType.minSize(r.type())) {
            throw errors.at(r, RecordType.name(r.type()) + " record of " + r.size() + " bytes; expected at least the "
                + RecordType.minSize(r.type()) + " bytes of its fixed fields");
        }
    }

    /**
     * Records that perf writes only into pipe-mode data, where they carry what a file keeps in its header (events,
     * features); in a file's data section they are damage (perf reads on with garbage or fails).
     *
     * @throws BadInputException for HEADER_ATTR or HEADER_FEATURE in file-mode data
     */
    static void pipeOnly(PerfRecord r, boolean pipe, InputErrors errors) {
        if (!pipe && (r.type() == RecordType.HEADER_ATTR || r.type() == RecordType.HEADER_FEATURE)) {
            throw errors.at(r, RecordType.name(r.type()) + " record in the data section of a file-mode recording;"
                + " expected it only in pipe-mode data (a file holds its events and features in its header)");
        }
    }

    /**
     * perf hands a SAMPLE to the event that owns the id the sample's fields end with ({@code evlist__id2evsel} of
     * {@code sample->id}: the ID field overrides IDENTIFIER) and drops it with only a warning when none does.
     *
     * @param found the event found by the record's id position
     * @return the event perf delivers the sample to
     * @throws BadInputException when no event owns the sample's id
     */
    static Evsel sampleOwner(PerfRecord r, Evsel found, Sample s, Evlist evlist, InputErrors errors) {
        if (r.type() != RecordType.SAMPLE || (found.attr().sampleType() & SampleType.ID) == 0) {
            return found;
        }
        Evsel owner = evlist.size() == 1 || s.id() == 0 ? evlist.first() : evlist.byId(s.id());
        if (owner == null && !evlist.sampleIdAll()) {
            owner = evlist.first();
        }
        if (owner == null) {
            throw errors.at(r, "SAMPLE record's ID field holds sample id " + Long.toUnsignedString(s.id())
                + ", which no event owns; expected the id of one of the " + evlist.size() + " events");
        }
        return owner;
    }

    /**
     * Records with counted entries: perf reads as many as the count says, whatever the record's size
     * (THREAD_MAP, ID_INDEX, STAT_CONFIG: u64 {@code nr} at byte 8; NAMESPACES: u64 {@code nr_namespaces} at
     * byte 16; TEXT_POKE: u16 {@code old_len} and {@code new_len} at bytes 16 and 18), and crashes or reads the
     * next records when they do not fit.
     *
     * @throws BadInputException when the entries run past the record's end
     */
    static void entriesFit(PerfRecord r, InputErrors errors) {
        switch (r.type()) {
            case RecordType.THREAD_MAP -> fit(r, 8, 16, 24, "threads", errors);
            case RecordType.ID_INDEX -> fit(r, 8, 16, 32, "entries", errors);
            case RecordType.STAT_CONFIG -> fit(r, 8, 16, 16, "config entries", errors);
            case RecordType.NAMESPACES -> fit(r, 16, 24, 16, "namespaces", errors);
            case RecordType.TEXT_POKE -> {
                if (20 + r.u16(16) + r.u16(18) > r.size()) {
                    throw errors.at(r, 16, "TEXT_POKE record of " + r.size() + " bytes announces " + r.u16(16)
                        + " old and " + r.u16(18) + " new bytes; expected them to fit in the record");
                }
            }
            default -> {
                // no counted entries
            }
        }
    }

    private static void fit(PerfRecord r, int countAt, int from, int each, String what, InputErrors errors) {
        long nr = r.u64(countAt);
        long room = (r.size() - from) / each;
        if (Long.compareUnsigned(nr, room) > 0) {
            throw errors.at(r, countAt, RecordType.name(r.type()) + " record of " + r.size() + " bytes says it holds "
                + Long.toUnsignedString(nr) + " " + what + "; expected at most the " + room + " that fit");
        }
    }

    /**
     * An AUXTRACE_INFO record names the decoder of the recording's AUX data. dfx decodes vpa-dtl (type 7) only;
     * perf 6.1 decodes types 1 to 6 (Intel PT, BTS, CoreSight, SPE, CPU-MF, PTT), whose samples dfx could not show,
     * and fails on any other.
     *
     * @throws BadInputException for an AUXTRACE_INFO record of another type
     */
    static void auxtraceType(PerfRecord r, InputErrors errors) {
        if (r.type() == RecordType.AUXTRACE_INFO && r.u32(8) != VPA_DTL) {
            throw errors.at(r, 8, "AUXTRACE_INFO record of AUX data type " + r.u32(8) + ", which dfx does not decode;"
                + " expected type " + VPA_DTL + " (vpa-dtl)");
        }
    }

    /**
     * perf record never writes the records of {@code perf stat record}; only a recording with the STAT feature
     * holds them, and perf script prints counts for them.
     *
     * @throws BadInputException for STAT_CONFIG, STAT or STAT_ROUND in a recording without the STAT feature
     */
    static void statOnlyWithStatFeature(PerfRecord r, boolean hasStat, InputErrors errors) {
        int t = r.type();
        if (!hasStat && (t == RecordType.STAT_CONFIG || t == RecordType.STAT || t == RecordType.STAT_ROUND)) {
            throw errors.at(r, RecordType.name(t) + " record in a recording without the STAT feature; expected it only"
                + " in the data of perf stat record");
        }
    }

    /** @return why {@code r} belongs to no event (perf fails such a record: {@code evlist__parse_sample} EFAULT) */
    static BadInputException noEvent(PerfRecord r, Evlist evlist, InputErrors errors) {
        String what = RecordType.name(r.type()) + " record";
        if (evlist.isEmpty()) {
            return errors.at(r, what + " comes before any event is defined; expected HEADER_ATTR records first");
        }
        int at = evlist.idOffset(r);
        if (at < 0) {
            return errors.at(r, what + " of " + r.size() + " bytes is too short to hold its sample id where"
                + " sample_type 0x" + Long.toHexString(evlist.first().attr().sampleType()) + " puts it");
        }
        return errors.at(r, at, what + " has sample id " + Long.toUnsignedString(r.u64(at)) + ", which no event of"
            + " the file owns; expected the id of one of its " + evlist.size() + " events");
    }

    /**
     * A map with a kernel cpumode is a kernel or module map to perf ({@code machine__process_kernel_mmap_event});
     * perf synthesizes those for pid -1 only, and 6.1 can crash (a double free) on one given for a process, as a
     * damaged {@code misc} field yields.
     *
     * @throws BadInputException when an MMAP or MMAP2 record has cpumode kernel or guest kernel and a pid other than -1
     */
    static void kernelMapPid(PerfRecord r, InputErrors errors) {
        int cpumode = r.misc() & 7;
        if ((r.type() == RecordType.MMAP || r.type() == RecordType.MMAP2)
            && (cpumode == CPUMODE_KERNEL || cpumode == CPUMODE_GUEST_KERNEL) && r.s32(8) != -1) {
            throw errors.at(r, RecordType.name(r.type()) + " record of pid " + r.s32(8) + " has the kernel cpumode "
                + cpumode + " (misc 0x" + Integer.toHexString(r.misc()) + "); expected pid -1 for a kernel map, or a"
                + " user cpumode");
        }
    }

    /**
     * An MMAP2 record with MMAP_BUILD_ID carries a build id of {@code build_id_size} bytes in a 20-byte field; perf
     * copies that many bytes into a 20-byte buffer and crashes on more.
     *
     * @throws BadInputException when the build id size exceeds 20
     */
    static void buildIdSize(PerfRecord r, InputErrors errors) {
        if (r.type() == RecordType.MMAP2 && (r.misc() & RecordText.MISC_14) != 0 && r.size() > 40
            && r.u8(40) > BUILD_ID_SIZE) {
            throw errors.at(r, 40, "MMAP2 record with a build id (misc 0x" + Integer.toHexString(r.misc())
                + ") gives it " + r.u8(40) + " bytes; expected at most " + BUILD_ID_SIZE);
        }
    }

    /**
     * perf synthesizes the kernel's map ({@code [kernel.kallsyms]_text}, pid -1) with the address of {@code _text}
     * both as its start and as its pgoff (the reference relocation symbol), or pgoff 0 when addresses were hidden;
     * perf moves the kernel map to a differing pgoff once it loads it, so kernel samples would no longer find it.
     *
     * @throws BadInputException when a kernel map's pgoff is neither 0 nor its start
     */
    static void kernelMapPgoff(PerfRecord r, InputErrors errors) {
        if ((r.type() == RecordType.MMAP || r.type() == RecordType.MMAP2) && r.s32(8) == -1) {
            Mmap m = Mmap.of(r);
            if (!m.filename().startsWith("/") && !m.filename().startsWith("[")) {
                throw errors.at(r, RecordType.name(r.type()) + " record of pid -1 maps \"" + m.filename() + "\"; expected"
                    + " the kernel map [kernel.kallsyms]_text or a module (a path, or a name in brackets)");
            }
            if (m.filename().startsWith(KERNEL_MAP) && m.pgoff() != 0 && m.pgoff() != m.start()) {
                throw errors.at(r, 32, "kernel map " + m.filename() + " starts at 0x" + Long.toHexString(m.start())
                    + " but has pgoff 0x" + Long.toHexString(m.pgoff()) + "; expected the same address (that of"
                    + " _text) or 0");
            }
        }
    }

    /**
     * perf looks a sample's cpu up in the topology of the recording ({@code machine__resolve}) without a bound
     * check, and crashes on a damaged cpu field; dfx refuses it.
     *
     * @param nrCpus {@code nr_cpus_avail} of the NRCPUS feature, or -1 when the recording has none
     * @throws BadInputException when a SAMPLE with a CPU field names a cpu at or above {@code nrCpus}
     */
    static void cpuInRange(PerfRecord r, Evsel evsel, Sample s, int nrCpus, InputErrors errors) {
        if (r.type() == RecordType.SAMPLE && nrCpus > 0 && (evsel.attr().sampleType() & SampleType.CPU) != 0
            && Integer.toUnsignedLong(s.cpu()) >= nrCpus) {
            throw errors.at(r, "SAMPLE record is on cpu " + Integer.toUnsignedString(s.cpu()) + "; expected a cpu"
                + " below " + nrCpus + ", the cpus of the recording (NRCPUS feature)");
        }
    }
}
