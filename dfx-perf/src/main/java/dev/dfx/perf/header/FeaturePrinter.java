package dev.dfx.perf.header;

import dev.dfx.perf.data.Feature;
import dev.dfx.perf.feature.EventDesc;
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
import dev.dfx.perf.feature.FeatureData.SampleTime;
import dev.dfx.perf.feature.FeatureData.Text;
import dev.dfx.perf.feature.FeatureData.TotalMem;
import dev.dfx.perf.feature.FeatureData;
import dev.dfx.perf.feature.ParsedFeature;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.text.CpuList;
import dev.dfx.perf.text.Numbers;
import dev.dfx.perf.text.PerfTime;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.text.Units;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The text {@code perf report --header-only} prints for each header feature ({@code header.c feat_ops[].print},
 * perf 6.1), from the feature's parsed value ({@link dev.dfx.perf.feature.FeatureParser}). Features that perf
 * prints only with {@code -I} print a one-line hint otherwise. Stateless apart from its inputs.
 */
public final class FeaturePrinter {
    private static final long NS_PER_SEC = 1_000_000_000L;
    private static final long NS_PER_USEC = 1_000L;
    private static final double NS_PER_MSEC = 1_000_000.0;
    /** perf prints the CLOCKID resolution (ns) times this as "MHz", as its own header.c does. */
    private static final long CLOCKID_MHZ_FACTOR = 1000;
    /** COMPRESSED {@code type} of Zstd ({@code enum perf_compress_type} COMP_ZSTD). */
    private static final long COMPRESSION_ZSTD = 1;
    /** GROUP_DESC's name for a group the user did not name. */
    private static final String ANON_GROUP = "{anon_group}";
    private static final DateTimeFormatter REFERENCE_DATE =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private final List<Evsel> evsels;
    private final boolean full;

    /**
     * @param evsels the events (GROUP_DESC names its members by evlist index)
     * @param full   {@code -I}: print details of CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY,
     *               HYBRID_TOPOLOGY
     */
    public FeaturePrinter(List<Evsel> evsels, boolean full) {
        this.evsels = evsels;
        this.full = full;
    }

    /** Prints one parsed feature: what was read of it, also when the section was cut short. */
    public void print(ParsedFeature p, TextSink out) {
        Feature f = p.feature();
        FeatureData d = p.data();
        switch (f) {
            case HOSTNAME -> out.put("# hostname : ").put(text(d)).put('\n');
            case OSRELEASE -> out.put("# os release : ").put(text(d)).put('\n');
            case VERSION -> out.put("# perf version : ").put(text(d)).put('\n');
            case ARCH -> out.put("# arch : ").put(text(d)).put('\n');
            case NRCPUS -> {
                NrCpus n = (NrCpus) d;
                out.put("# nrcpus online : ").udec(n.online()).put("\n# nrcpus avail : ").udec(n.avail()).put('\n');
            }
            case CPUDESC -> out.put("# cpudesc : ").put(text(d)).put('\n');
            case CPUID -> out.put("# cpuid : ").put(text(d)).put('\n');
            case TOTAL_MEM -> out.put("# total memory : ").udec(((TotalMem) d).kb()).put(" kB\n");
            case CMDLINE -> cmdline((Cmdline) d, out);
            case EVENT_DESC -> eventDesc((EventDescs) d, out);
            case CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY -> {
                if (full) {
                    fullOnly(d, out);
                } else {
                    out.put("# ").put(f.name()).put(" info available, use -I to display\n");
                }
            }
            case PMU_MAPPINGS -> pmuMappings((PmuMappings) d, out);
            case GROUP_DESC -> groupDesc((GroupDesc) d, out);
            case SAMPLE_TIME -> sampleTime((SampleTime) d, out);
            case BRANCH_STACK -> out.put("# contains samples with branch stack\n");
            case AUXTRACE -> out.put("# contains AUX area data (e.g. instruction trace)\n");
            case STAT -> out.put("# contains stat data\n");
            case CLOCKID -> out.put("# clockid frequency: ").udec(((ClockResolution) d).ns() * CLOCKID_MHZ_FACTOR)
                .put(" MHz\n");
            case DIR_FORMAT -> out.put("# directory data version : ").udec(((DirFormat) d).version()).put('\n');
            case COMPRESSED -> {
                Compressed c = (Compressed) d;
                out.put("# compressed : ").put(c.type() == COMPRESSION_ZSTD ? "Zstd" : "Unknown").put(", level = ")
                    .dec((int) c.level()).put(", ratio = ").dec((int) c.ratio()).put('\n');
            }
            case CPU_PMU_CAPS, PMU_CAPS -> {
                for (PmuCaps caps : ((PmuCapabilities) d).pmus()) {
                    pmuCaps(caps, out);
                }
            }
            case CLOCK_DATA -> clockData((ClockData) d, out);
            case TRACING_DATA, BUILD_ID, BPF_PROG_INFO, BPF_BTF -> {
                // perf 6.1 prints nothing for these
            }
        }
    }

    private static String text(FeatureData d) {
        return ((Text) d).value();
    }

    private static void cmdline(Cmdline c, TextSink out) {
        out.put("# cmdline : ");
        for (String arg : c.args()) {
            out.put(arg.replace("'", "\\'")).put(' ');
        }
        out.put('\n');
    }

    private static void eventDesc(EventDescs descs, TextSink out) {
        if (!descs.readable()) {
            out.put("# event desc: not available or unable to read\n");
            return;
        }
        for (EventDesc d : descs.events()) {
            out.put("# event : name = ").put(d.name()).put(", ");
            if (d.ids().length > 0) {
                out.put(", id = {");
                for (int j = 0; j < d.ids().length; j++) {
                    if (j > 0) {
                        out.put(',');
                    }
                    out.put(' ').udec(d.ids()[j]);
                }
                out.put(" }");
            }
            AttrPrinter.forEach(d.attr(), (k, v) -> out.put(", ").put(k).put(" = ").put(v));
            out.put('\n');
        }
    }

    private static void pmuMappings(PmuMappings m, TextSink out) {
        if (m.mappings().isEmpty()) {
            out.put("# pmu mappings: not available\n");
            return;
        }
        String delim = "# pmu mappings: ";
        for (PmuMapping pm : m.mappings()) {
            out.put(delim).put(pm.name()).put(" = ").udec(pm.type());
            delim = ", ";
        }
        out.put('\n');
    }

    /** {@code print_group_desc}: leaders with more than one member, from the GROUP_DESC entries. */
    private void groupDesc(GroupDesc g, TextSink out) {
        for (Group group : g.groups()) {
            long leader = group.leader();
            if (group.members() <= 1 || leader >= evsels.size()) {
                continue;
            }
            out.put("# group: ").put(group.name().equals(ANON_GROUP) ? "" : group.name()).put('{')
                .put(evsels.get((int) leader).name());
            for (long m = 1; m < group.members() && leader + m < evsels.size(); m++) {
                out.put(',').put(evsels.get((int) (leader + m)).name());
            }
            out.put("}\n");
        }
    }

    private static void sampleTime(SampleTime t, TextSink out) {
        out.put("# time of first sample : ").put(PerfTime.usec(t.first())).put('\n');
        out.put("# time of last sample : ").put(PerfTime.usec(t.last())).put('\n');
        double ms = (double) (t.last() - t.first()) / NS_PER_MSEC;
        out.put("# sample duration : ").right(Numbers.fixed(ms, 3), 10).put(" ms\n");
    }

    private static void fullOnly(FeatureData d, TextSink out) {
        switch (d) {
            case CpuTopology t -> cpuTopology(t, out);
            case NumaTopology t -> {
                for (NumaNode n : t.nodes()) {
                    out.put("# node").udec(n.node()).put(" meminfo  : total = ").udec(n.totalKb())
                        .put(" kB, free = ").udec(n.freeKb()).put(" kB\n");
                    out.put("# node").udec(n.node()).put(" cpu list : ").put(CpuList.format(CpuList.parse(n.cpus())))
                        .put('\n');
                }
            }
            case Cache c -> {
                out.put("# CPU cache info:\n");
                for (CacheLevel l : c.caches()) {
                    out.put("#  L").dec(l.level()).put(' ').left(l.type(), 15).put(' ').right(l.size(), 8).put(" [")
                        .put(l.map()).put("]\n");
                }
            }
            case MemTopology m -> memTopology(m, out);
            case HybridTopology h -> {
                for (HybridNode n : h.nodes()) {
                    out.put("# ").put(n.pmu()).put(" cpu list : ").put(n.cpus()).put('\n');
                }
            }
            default -> {
                // not a full-only feature
            }
        }
    }

    private static void cpuTopology(CpuTopology t, TextSink out) {
        for (String s : t.coreSiblings()) {
            out.put("# sibling sockets : ").put(s).put('\n');
        }
        for (String s : t.dieSiblings()) {
            out.put("# sibling dies    : ").put(s).put('\n');
        }
        for (String s : t.threadSiblings()) {
            out.put("# sibling threads : ").put(s).put('\n');
        }
        boolean dies = !t.dieSiblings().isEmpty();
        if (t.cpus() == null) {
            out.put(dies ? "# Core ID, Die ID and Socket ID information is not available\n"
                : "# Core ID and Socket ID information is not available\n");
            return;
        }
        for (int i = 0; i < t.cpus().size(); i++) {
            CpuIds c = t.cpus().get(i);
            out.put("# CPU ").dec(i).put(": Core ID ").dec(c.core());
            if (dies) {
                out.put(", Die ID ").dec(c.die());
            }
            out.put(", Socket ID ").dec(c.socket()).put('\n');
        }
    }

    private static void memTopology(MemTopology m, TextSink out) {
        out.put("# memory nodes (nr ").dec((int) m.nr()).put(", block size 0x").hex(m.blockSize()).put("):\n");
        for (MemNode n : m.nodes()) {
            long weight = 0;
            for (long w : n.set()) {
                weight += Long.bitCount(w);
            }
            out.put("#  ").right(Long.toUnsignedString(n.node()), 3).put(" [")
                .put(Units.unitNumber(m.blockSize() * weight)).put("]: ").put(bitmapList(n.set(), n.nbits()))
                .put('\n');
        }
    }

    /** {@code bitmap_scnprintf}: ranges of set bits, e.g. {@code "0-23,32-199"}. */
    private static String bitmapList(long[] set, long nbits) {
        StringBuilder sb = new StringBuilder();
        long i = 0;
        while (i < nbits) {
            if (!bit(set, i)) {
                i++;
                continue;
            }
            long start = i;
            while (i + 1 < nbits && bit(set, i + 1)) {
                i++;
            }
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(start);
            if (i > start) {
                sb.append('-').append(i);
            }
            i++;
        }
        return sb.toString();
    }

    private static boolean bit(long[] set, long i) {
        int w = (int) (i >>> 6);
        return w < set.length && (set[w] & (1L << (i & 63))) != 0;
    }

    private static void pmuCaps(PmuCaps caps, TextSink out) {
        out.put("# ").put(caps.pmu()).put(" pmu capabilities: ");
        out.put(caps.caps().isEmpty() ? "not available" : String.join(", ", caps.caps())).put('\n');
    }

    private static void clockData(ClockData c, TextSink out) {
        long todSec = Long.divideUnsigned(c.todNs(), NS_PER_SEC);
        long todUsec = Long.remainderUnsigned(c.todNs(), NS_PER_SEC) / NS_PER_USEC;
        long clkSec = Long.divideUnsigned(c.clockNs(), NS_PER_SEC);
        long clkNsec = Long.remainderUnsigned(c.clockNs(), NS_PER_SEC);
        String date = REFERENCE_DATE.format(Instant.ofEpochSecond(todSec).atZone(ZoneId.systemDefault()));
        String name = clockName(c.clockid());
        String usec = String.format("%06d", todUsec);
        out.put("# clockid: ").put(name).put(" (").udec(c.clockid()).put(")\n");
        out.put("# reference time: ").put(date).put('.').put(usec).put(" = ").dec(todSec).put('.').put(usec)
            .put(" (TOD) = ").dec(clkSec).put('.').put(String.format("%09d", clkNsec)).put(" (").put(name).put(")\n");
    }

    /** The {@code clockid_t} names perf knows ({@code clockid_name}). */
    private static String clockName(long id) {
        return switch ((int) id) {
            case 0 -> "REALTIME";
            case 1 -> "MONOTONIC";
            case 4 -> "MONOTONIC_RAW";
            case 7 -> "BOOTTIME";
            case 11 -> "TAI";
            default -> "(unknown)";
        };
    }
}
