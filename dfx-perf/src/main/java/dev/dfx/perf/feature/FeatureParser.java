package dev.dfx.perf.feature;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.feature.FeatureData.Cache;
import dev.dfx.perf.feature.FeatureData.CacheLevel;
import dev.dfx.perf.feature.FeatureData.ClockData;
import dev.dfx.perf.feature.FeatureData.ClockResolution;
import dev.dfx.perf.feature.FeatureData.Cmdline;
import dev.dfx.perf.feature.FeatureData.Compressed;
import dev.dfx.perf.feature.FeatureData.CpuIds;
import dev.dfx.perf.feature.FeatureData.CpuTopology;
import dev.dfx.perf.feature.FeatureData.DirFormat;
import dev.dfx.perf.feature.FeatureData.EventDescs;
import dev.dfx.perf.feature.FeatureData.Group;
import dev.dfx.perf.feature.FeatureData.GroupDesc;
import dev.dfx.perf.feature.FeatureData.HybridNode;
import dev.dfx.perf.feature.FeatureData.HybridTopology;
import dev.dfx.perf.feature.FeatureData.MemNode;
import dev.dfx.perf.feature.FeatureData.MemTopology;
import dev.dfx.perf.feature.FeatureData.NrCpus;
import dev.dfx.perf.feature.FeatureData.NumaNode;
import dev.dfx.perf.feature.FeatureData.NumaTopology;
import dev.dfx.perf.feature.FeatureData.PmuCapabilities;
import dev.dfx.perf.feature.FeatureData.PmuCaps;
import dev.dfx.perf.feature.FeatureData.PmuMapping;
import dev.dfx.perf.feature.FeatureData.PmuMappings;
import dev.dfx.perf.feature.FeatureData.Present;
import dev.dfx.perf.feature.FeatureData.SampleTime;
import dev.dfx.perf.feature.FeatureData.Text;
import dev.dfx.perf.feature.FeatureData.TotalMem;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads header feature sections into {@link FeatureData}, as perf's {@code process_*} functions do
 * ({@code tools/perf/util/header.c feat_ops[].process}, perf 6.1). Reading never throws: a section that ends
 * before its counts and lengths say yields what was read so far (later fields read as 0 or "") and
 * {@link ParsedFeature#complete()} false. Printing is {@code dev.dfx.perf.header.FeaturePrinter}'s. Stateless.
 */
public final class FeatureParser {
    /** The CPU_PMU_CAPS section names no PMU: it describes the core PMU, {@code cpu}. */
    private static final String CORE_PMU = "cpu";
    /** The longest memory block bitmap read per node, in 64-bit words (2^26 blocks). */
    private static final int MAX_BITMAP_WORDS = 1 << 20;

    private FeatureParser() {
    }

    /**
     * Reads feature {@code f} from its section bytes.
     *
     * @param data        the section
     * @param nrCpusAvail {@code nr_cpus_avail} of the NRCPUS feature read so far, 0 when there is none (the
     *                    CPU_TOPOLOGY section holds ids for that many cpus)
     */
    public static ParsedFeature parse(Feature f, MemorySegment data, Endian e, int nrCpusAvail) {
        FeatureReader in = new FeatureReader(data, e);
        FeatureData d = switch (f) {
            case HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID -> new Text(in.string());
            case NRCPUS -> {
                long avail = in.u32();
                yield new NrCpus(avail, in.u32());
            }
            case TOTAL_MEM -> new TotalMem(in.u64());
            case CMDLINE -> new Cmdline(strings(in));
            case EVENT_DESC -> {
                List<EventDesc> descs = EventDesc.read(data, e);
                yield new EventDescs(descs == null ? List.of() : descs, descs != null);
            }
            case CPU_TOPOLOGY -> cpuTopology(in, nrCpusAvail);
            case NUMA_TOPOLOGY -> numaTopology(in);
            case CACHE -> cache(in);
            case MEM_TOPOLOGY -> memTopology(in);
            case HYBRID_TOPOLOGY -> hybridTopology(in);
            case PMU_MAPPINGS -> pmuMappings(in);
            case GROUP_DESC -> groupDesc(in);
            case SAMPLE_TIME -> {
                long first = in.u64();
                yield new SampleTime(first, in.u64());
            }
            case CLOCKID -> new ClockResolution(in.u64());
            case DIR_FORMAT -> new DirFormat(in.u64());
            case COMPRESSED -> {
                long version = in.u32();
                long type = in.u32();
                long level = in.u32();
                yield new Compressed(version, type, level, in.u32());
            }
            case CPU_PMU_CAPS -> new PmuCapabilities(List.of(new PmuCaps(CORE_PMU, caps(in))));
            case PMU_CAPS -> pmuCaps(in);
            case CLOCK_DATA -> {
                long version = in.u32();
                long clockid = in.u32();
                long tod = in.u64();
                yield new ClockData(version, clockid, tod, in.u64());
            }
            case BPF_PROG_INFO -> {
                // {u32 count; {u32 info_len; u32 data_len; u64 arrays; info; data}[count]} (process_bpf_prog_info)
                long count = in.u32();
                for (long i = 0; i < count && !in.overrun(); i++) {
                    long infoLen = in.u32();
                    long dataLen = in.u32();
                    in.u64();
                    in.bytes(infoLen + dataLen);
                }
                yield new Present();
            }
            case BPF_BTF -> {
                // {u32 count; {u32 id; u32 data_size; data}[count]} (process_bpf_btf)
                long count = in.u32();
                for (long i = 0; i < count && !in.overrun(); i++) {
                    in.u32();
                    in.bytes(in.u32());
                }
                yield new Present();
            }
            case TRACING_DATA, BUILD_ID, BRANCH_STACK, AUXTRACE, STAT -> new Present();
        };
        boolean complete = d instanceof EventDescs descs ? descs.readable() : !in.overrun();
        return new ParsedFeature(f, d, complete);
    }

    /** @return {@code nr_cpus_avail} of an NRCPUS section, 0 when there is none or it is too short */
    public static int nrCpusAvail(Map<Integer, MemorySegment> features, Endian e) {
        MemorySegment n = features.get(Feature.NRCPUS.bit());
        return n == null || n.byteSize() < 4 ? 0 : (int) e.u32(n, 0);
    }

    /** {@code {u32 nr; perf_header_string[nr]}}. */
    private static List<String> strings(FeatureReader in) {
        long nr = in.u32();
        List<String> out = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            out.add(in.string());
        }
        return out;
    }

    /**
     * {@code process_cpu_topology}: core and thread sibling lists, then (when the section goes on) per-cpu core and
     * socket ids, then die siblings and per-cpu die ids.
     */
    private static CpuTopology cpuTopology(FeatureReader in, int cpuNr) {
        List<String> cores = strings(in);
        List<String> threads = strings(in);
        boolean haveIds = cpuNr > 0 && in.remaining() >= 8L * cpuNr;
        int[][] ids = haveIds ? new int[cpuNr][3] : null;
        if (haveIds) {
            for (int i = 0; i < cpuNr; i++) {
                ids[i][0] = (int) in.u32();
                ids[i][2] = (int) in.u32();
            }
        }
        List<String> dies = new ArrayList<>();
        if (in.remaining() >= 4) {
            dies = strings(in);
            for (int i = 0; haveIds && i < cpuNr && in.remaining() >= 4; i++) {
                ids[i][1] = (int) in.u32();
            }
        }
        List<CpuIds> cpus = null;
        if (haveIds) {
            cpus = new ArrayList<>(cpuNr);
            for (int[] id : ids) {
                cpus.add(new CpuIds(id[0], id[1], id[2]));
            }
        }
        return new CpuTopology(cores, dies, threads, cpus);
    }

    private static NumaTopology numaTopology(FeatureReader in) {
        long nr = in.u32();
        List<NumaNode> nodes = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            long node = in.u32();
            long total = in.u64();
            long free = in.u64();
            nodes.add(new NumaNode(node, total, free, in.string()));
        }
        return new NumaTopology(nodes);
    }

    /** {@code {u32 version; u32 cnt; {u32 level, line_size, sets, ways; string type, size, map}[cnt]}}. */
    private static Cache cache(FeatureReader in) {
        in.u32();
        long cnt = in.u32();
        List<CacheLevel> caches = new ArrayList<>();
        for (long i = 0; i < cnt && !in.overrun(); i++) {
            long level = in.u32();
            long lineSize = in.u32();
            long sets = in.u32();
            long ways = in.u32();
            String type = in.string();
            String size = in.string();
            caches.add(new CacheLevel((int) level, lineSize, sets, ways, type, size, in.string()));
        }
        return new Cache(caches);
    }

    /** {@code {u64 version, block_size, nr; {u64 node, size, nbits; u64 bitmap[]}[nr]}}. */
    private static MemTopology memTopology(FeatureReader in) {
        in.u64();
        long bsize = in.u64();
        long nr = in.u64();
        List<MemNode> nodes = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            long node = in.u64();
            in.u64();
            long bits = in.u64();
            long words = (bits + 63) / 64;
            long[] set = new long[(int) Math.min(words, MAX_BITMAP_WORDS)];
            for (int w = 0; w < set.length; w++) {
                set[w] = in.u64();
            }
            nodes.add(new MemNode(node, bits, set));
        }
        return new MemTopology(bsize, nr, nodes);
    }

    private static HybridTopology hybridTopology(FeatureReader in) {
        long nr = in.u32();
        List<HybridNode> nodes = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            String pmu = in.string();
            nodes.add(new HybridNode(pmu, in.string()));
        }
        return new HybridTopology(nodes);
    }

    private static PmuMappings pmuMappings(FeatureReader in) {
        long nr = in.u32();
        List<PmuMapping> mappings = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            long type = in.u32();
            mappings.add(new PmuMapping(type, in.string()));
        }
        return new PmuMappings(mappings);
    }

    private static GroupDesc groupDesc(FeatureReader in) {
        long nr = in.u32();
        List<Group> groups = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            String name = in.string();
            long leader = in.u32();
            groups.add(new Group(name, leader, in.u32()));
        }
        return new GroupDesc(groups);
    }

    /** {@code {u32 nr; {string name; string value}[nr]}} as {@code name=value} texts. */
    private static List<String> caps(FeatureReader in) {
        long nr = in.u32();
        List<String> caps = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            String name = in.string();
            caps.add(name + "=" + in.string());
        }
        return caps;
    }

    /** {@code {u32 nr_pmu; {caps; string pmu_name}[nr_pmu]}}. */
    private static PmuCapabilities pmuCaps(FeatureReader in) {
        long nr = in.u32();
        List<PmuCaps> pmus = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            List<String> caps = caps(in);
            pmus.add(new PmuCaps(in.string(), caps));
        }
        return new PmuCapabilities(pmus);
    }
}
