package dev.dfx.perf.data;

/**
 * Record types of the perf.data data section: kernel types below 64 ({@code include/uapi/linux/perf_event.h},
 * {@code enum perf_event_type}) and the types perf itself writes from 64 on
 * ({@code tools/lib/perf/include/perf/event.h}, {@code enum perf_user_event_type}). Names are those perf
 * prints after {@code PERF_RECORD_} ({@code tools/perf/util/event.c perf_event__names}). Stateless.
 */
public final class RecordType {
    public static final int MMAP = 1;
    public static final int LOST = 2;
    public static final int COMM = 3;
    public static final int EXIT = 4;
    public static final int THROTTLE = 5;
    public static final int UNTHROTTLE = 6;
    public static final int FORK = 7;
    public static final int READ = 8;
    public static final int SAMPLE = 9;
    public static final int MMAP2 = 10;
    public static final int AUX = 11;
    public static final int ITRACE_START = 12;
    public static final int LOST_SAMPLES = 13;
    public static final int SWITCH = 14;
    public static final int SWITCH_CPU_WIDE = 15;
    public static final int NAMESPACES = 16;
    public static final int KSYMBOL = 17;
    public static final int BPF_EVENT = 18;
    public static final int CGROUP = 19;
    public static final int TEXT_POKE = 20;
    public static final int AUX_OUTPUT_HW_ID = 21;

    /** First type written by perf rather than the kernel. */
    public static final int USER_TYPE_START = 64;
    public static final int HEADER_ATTR = 64;
    public static final int HEADER_EVENT_TYPE = 65;
    public static final int HEADER_TRACING_DATA = 66;
    public static final int HEADER_BUILD_ID = 67;
    public static final int FINISHED_ROUND = 68;
    public static final int ID_INDEX = 69;
    public static final int AUXTRACE_INFO = 70;
    public static final int AUXTRACE = 71;
    public static final int AUXTRACE_ERROR = 72;
    public static final int THREAD_MAP = 73;
    public static final int CPU_MAP = 74;
    public static final int STAT_CONFIG = 75;
    public static final int STAT = 76;
    public static final int STAT_ROUND = 77;
    public static final int EVENT_UPDATE = 78;
    public static final int TIME_CONV = 79;
    public static final int HEADER_FEATURE = 80;
    public static final int COMPRESSED = 81;
    public static final int FINISHED_INIT = 82;
    /** zstd frame with an explicit data size (perf 6.16+); perf 6.1 rejects it, dfx reads it. */
    public static final int COMPRESSED2 = 83;
    /** {@code PERF_RECORD_HEADER_MAX} of perf 6.1: types at or above it are not known to perf 6.1. */
    public static final int HEADER_MAX_6_1 = 83;

    private static final String[] NAMES = new String[84];

    static {
        String[] kernel = {"TOTAL", "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ",
            "SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH", "SWITCH_CPU_WIDE", "NAMESPACES",
            "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID"};
        System.arraycopy(kernel, 0, NAMES, 0, kernel.length);
        String[] user = {"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
            "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT",
            "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED", "FINISHED_INIT", "COMPRESSED2"};
        System.arraycopy(user, 0, NAMES, USER_TYPE_START, user.length);
    }

    private RecordType() {
    }

    /**
     * @param type a record type
     * @return perf's name without the {@code PERF_RECORD_} prefix, or {@code "UNKNOWN"} (as perf prints)
     */
    public static String name(int type) {
        if (type < 0 || type >= NAMES.length || NAMES[type] == null) {
            return "UNKNOWN";
        }
        return NAMES[type];
    }

    /**
     * @param type a record type
     * @return whether perf 6.1 processes records of this type: the kernel's 1..21 ({@code machines__deliver_event}
     *         refuses others as "unknown events") and perf's own 64..82 ({@code perf_session__process_event} refuses
     *         types from {@code PERF_RECORD_HEADER_MAX} on); dfx also reads COMPRESSED2 (83)
     */
    public static boolean isKnown(int type) {
        return type >= MMAP && type <= AUX_OUTPUT_HW_ID || type >= USER_TYPE_START && type <= COMPRESSED2;
    }

    /**
     * @param type a known record type ({@link #isKnown})
     * @return the bytes of the record's fixed part, header included, from {@code struct perf_record_*}
     *         ({@code perf_event.h}, {@code tools/lib/perf/include/perf/event.h}); perf reads those fields whatever
     *         the record's size says
     */
    public static int minSize(int type) {
        return switch (type) {
            case MMAP -> 40;
            case LOST, READ, NAMESPACES, KSYMBOL, BPF_EVENT, STAT_ROUND, EVENT_UPDATE -> 24;
            case COMM, ITRACE_START, LOST_SAMPLES, SWITCH_CPU_WIDE, CGROUP, AUX_OUTPUT_HW_ID, HEADER_TRACING_DATA,
                 ID_INDEX, AUXTRACE_INFO, THREAD_MAP, STAT_CONFIG, HEADER_FEATURE, COMPRESSED2 -> 16;
            case EXIT, FORK, THROTTLE, UNTHROTTLE, AUX, TIME_CONV -> 32;
            case MMAP2 -> 72;
            case TEXT_POKE -> 20;
            case HEADER_ATTR -> 72;
            case HEADER_EVENT_TYPE -> 80;
            case HEADER_BUILD_ID -> 36;
            case AUXTRACE, STAT -> 48;
            case AUXTRACE_ERROR -> 104;
            case CPU_MAP -> 10;
            default -> 8;
        };
    }

    /** @return whether {@code type} is written by perf (64 and above) rather than the kernel */
    public static boolean isUserType(int type) {
        return type >= USER_TYPE_START;
    }
}
