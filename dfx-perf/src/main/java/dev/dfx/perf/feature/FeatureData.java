package dev.dfx.perf.feature;

import java.util.List;

/**
 * The value of one header feature section as perf's {@code process_*} functions read it into
 * {@code struct perf_env} ({@code tools/perf/util/header.c}, perf 6.1): plain, immutable data, with no text
 * formatting. {@link FeatureParser} makes them; printers and the session read them. Numbers are the section's
 * unsigned values (u32 zero-extended, u64 as two's complement {@code long}); lists hold the entries read before
 * the section ran out, so a cut-off section keeps what it had (see {@link ParsedFeature#complete()}).
 */
public sealed interface FeatureData {

    /** HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: one {@code perf_header_string}. */
    record Text(String value) implements FeatureData {
    }

    /**
     * NRCPUS.
     *
     * @param avail  {@code nr_cpus_avail}: possible cpus
     * @param online {@code nr_cpus_online}
     */
    record NrCpus(long avail, long online) implements FeatureData {
    }

    /** TOTAL_MEM: memory of the recording machine, kB. */
    record TotalMem(long kb) implements FeatureData {
    }

    /** CMDLINE: {@code perf record}'s argv, one entry per argument. */
    record Cmdline(List<String> args) implements FeatureData {
    }

    /**
     * EVENT_DESC.
     *
     * @param events   the entries, in event order
     * @param readable whether the whole section could be read; perf drops an unreadable one as a whole, and
     *                 {@code events} is then empty
     */
    record EventDescs(List<EventDesc> events, boolean readable) implements FeatureData {
    }

    /**
     * CPU_TOPOLOGY: sibling lists as cpu-list texts ({@code "0-3"}) and, when the section has them, the ids of
     * every cpu up to {@code nr_cpus_avail}.
     *
     * @param coreSiblings   cpus sharing a socket ({@code core_siblings}, printed as "sibling sockets")
     * @param dieSiblings    cpus sharing a die; empty in sections written before perf knew dies
     * @param threadSiblings cpus sharing a core
     * @param cpus           ids of cpu 0, 1, ...; {@code null} when the section holds none
     */
    record CpuTopology(List<String> coreSiblings, List<String> dieSiblings, List<String> threadSiblings,
                       List<CpuIds> cpus) implements FeatureData {
    }

    /**
     * The topology ids of one cpu.
     *
     * @param core   core id
     * @param die    die id (0 when the section has no dies)
     * @param socket socket id
     */
    record CpuIds(int core, int die, int socket) {
    }

    /** NUMA_TOPOLOGY: one entry per node. */
    record NumaTopology(List<NumaNode> nodes) implements FeatureData {
    }

    /**
     * One NUMA node.
     *
     * @param node    node number
     * @param totalKb memory, kB
     * @param freeKb  free memory at record time, kB
     * @param cpus    its cpus as a cpu-list text
     */
    record NumaNode(long node, long totalKb, long freeKb, String cpus) {
    }

    /** CACHE: one entry per cache. */
    record Cache(List<CacheLevel> caches) implements FeatureData {
    }

    /**
     * One cache ({@code struct cpu_cache_level}).
     *
     * @param level    1, 2, 3, ...
     * @param lineSize line size, bytes
     * @param sets     number of sets
     * @param ways     associativity
     * @param type     e.g. {@code Data}, {@code Instruction}, {@code Unified}
     * @param size     size text, e.g. {@code 32K}
     * @param map      the cpus sharing it, as a cpu-list text
     */
    record CacheLevel(int level, long lineSize, long sets, long ways, String type, String size, String map) {
    }

    /**
     * MEM_TOPOLOGY.
     *
     * @param blockSize memory block size, bytes
     * @param nr        number of nodes the section announces
     * @param nodes     the nodes read
     */
    record MemTopology(long blockSize, long nr, List<MemNode> nodes) implements FeatureData {
    }

    /**
     * One memory node.
     *
     * @param node  node number
     * @param nbits bits in its block bitmap
     * @param set   the bitmap's words (bit {@code i} of word {@code i / 64}: block {@code i} is present)
     */
    record MemNode(long node, long nbits, long[] set) {
    }

    /** HYBRID_TOPOLOGY: the cpus of each core PMU. */
    record HybridTopology(List<HybridNode> nodes) implements FeatureData {
    }

    /**
     * The cpus of one core PMU of a hybrid machine.
     *
     * @param pmu  e.g. {@code cpu_core}
     * @param cpus a cpu-list text
     */
    record HybridNode(String pmu, String cpus) {
    }

    /** PMU_MAPPINGS: PMU types to names; empty when the section says none. */
    record PmuMappings(List<PmuMapping> mappings) implements FeatureData {
    }

    /**
     * @param type {@code perf_event_attr.type} of the PMU
     * @param name its name
     */
    record PmuMapping(long type, String name) {
    }

    /** GROUP_DESC: the event groups. */
    record GroupDesc(List<Group> groups) implements FeatureData {
    }

    /**
     * One event group.
     *
     * @param name    the group name, {@code "{anon_group}"} when unnamed
     * @param leader  index of the leader in the evlist
     * @param members number of events in the group, the leader included
     */
    record Group(String name, long leader, long members) {
    }

    /**
     * SAMPLE_TIME.
     *
     * @param first time of the first sample, ns
     * @param last  time of the last sample, ns
     */
    record SampleTime(long first, long last) implements FeatureData {
    }

    /** CLOCKID: the resolution of the clock perf record used, ns (perf prints it as a frequency). */
    record ClockResolution(long ns) implements FeatureData {
    }

    /** DIR_FORMAT: the data directory version. */
    record DirFormat(long version) implements FeatureData {
    }

    /**
     * COMPRESSED.
     *
     * @param version format version
     * @param type    1 Zstd
     * @param level   compression level
     * @param ratio   compression ratio
     */
    record Compressed(long version, long type, long level, long ratio) implements FeatureData {
    }

    /** CPU_PMU_CAPS (one PMU, {@code cpu}) and PMU_CAPS (one entry per PMU). */
    record PmuCapabilities(List<PmuCaps> pmus) implements FeatureData {
    }

    /**
     * The capabilities of one PMU.
     *
     * @param pmu  PMU name
     * @param caps {@code name=value} texts, in section order; empty when none
     */
    record PmuCaps(String pmu, List<String> caps) {
    }

    /**
     * CLOCK_DATA: one reading of the time of day and of the clock samples were stamped with.
     *
     * @param version format version
     * @param clockid the clock's {@code clockid_t}
     * @param todNs   time of day, ns since the epoch
     * @param clockNs the clock at the same moment, ns
     */
    record ClockData(long version, long clockid, long todNs, long clockNs) implements FeatureData {
    }

    /**
     * A feature whose presence is its whole message (BRANCH_STACK, AUXTRACE, STAT), or whose data nothing here
     * reads from the parsed form (TRACING_DATA, BUILD_ID, BPF_PROG_INFO, BPF_BTF: the session and the AUX decoders
     * read those sections themselves).
     */
    record Present() implements FeatureData {
    }
}
