package dev.dfx.perf.header;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.text.PerfTime;
import dev.dfx.perf.text.TextSink;
import java.lang.foreign.MemorySegment;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text {@code perf report --header-only} prints for each header feature ({@code header.c print_*},
 * perf 6.1). Features that perf prints only with {@code -I} print a one-line hint otherwise. Stateless apart
 * from its inputs.
 */
public final class FeaturePrinter {
    private final Map<Integer, MemorySegment> features;
    private final List<Evsel> evsels;
    private final Endian e;
    private final boolean full;

    /**
     * @param features feature sections known so far (later features may read earlier ones, e.g. NRCPUS)
     * @param evsels   the events (for GROUP_DESC)
     * @param full     {@code -I}: print details of CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY,
     *                 HYBRID_TOPOLOGY
     */
    public FeaturePrinter(Map<Integer, MemorySegment> features, List<Evsel> evsels, Endian e, boolean full) {
        this.features = features;
        this.evsels = evsels;
        this.e = e;
        this.full = full;
    }

    /**
     * Prints feature {@code f} with its section bytes {@code data}.
     *
     * @return whether the section held everything its counts and lengths announce (perf's {@code process_*}
     *         functions fail a section that does not, which in pipe mode fails the whole run)
     */
    public boolean print(Feature f, MemorySegment data, TextSink out) {
        HeaderString in = new HeaderString(data, e);
        switch (f) {
            case HOSTNAME -> out.put("# hostname : ").put(in.string()).put('\n');
            case OSRELEASE -> out.put("# os release : ").put(in.string()).put('\n');
            case VERSION -> out.put("# perf version : ").put(in.string()).put('\n');
            case ARCH -> out.put("# arch : ").put(in.string()).put('\n');
            case NRCPUS -> {
                long avail = in.u32();
                long online = in.u32();
                out.put("# nrcpus online : ").udec(online).put("\n# nrcpus avail : ").udec(avail).put('\n');
            }
            case CPUDESC -> out.put("# cpudesc : ").put(in.string()).put('\n');
            case CPUID -> out.put("# cpuid : ").put(in.string()).put('\n');
            case TOTAL_MEM -> out.put("# total memory : ").udec(in.u64()).put(" kB\n");
            case CMDLINE -> cmdline(in, out);
            case EVENT_DESC -> {
                return eventDesc(data, out);
            }
            case CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY -> {
                if (full) {
                    fullOnly(f, in, out);
                } else {
                    out.put("# ").put(f.name()).put(" info available, use -I to display\n");
                }
            }
            case PMU_MAPPINGS -> pmuMappings(in, out);
            case GROUP_DESC -> groupDesc(in, out);
            case SAMPLE_TIME -> sampleTime(in, out);
            case BRANCH_STACK -> out.put("# contains samples with branch stack\n");
            case AUXTRACE -> out.put("# contains AUX area data (e.g. instruction trace)\n");
            case STAT -> out.put("# contains stat data\n");
            case CLOCKID -> out.put("# clockid frequency: ").udec(in.u64() * 1000).put(" MHz\n");
            case DIR_FORMAT -> out.put("# directory data version : ").udec(in.u64()).put('\n');
            case COMPRESSED -> {
                in.u32();
                long type = in.u32();
                long level = in.u32();
                long ratio = in.u32();
                out.put("# compressed : ").put(type == 1 ? "Zstd" : "Unknown").put(", level = ").dec((int) level)
                    .put(", ratio = ").dec((int) ratio).put('\n');
            }
            case CPU_PMU_CAPS -> pmuCaps(in, "cpu", out);
            case CLOCK_DATA -> clockData(in, out);
            case PMU_CAPS -> {
                long nr = in.u32();
                for (long i = 0; i < nr && !in.overrun(); i++) {
                    pmuCapsNamed(in, out);
                }
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
            }
            case BPF_BTF -> {
                // {u32 count; {u32 id; u32 data_size; data}[count]} (process_bpf_btf)
                long count = in.u32();
                for (long i = 0; i < count && !in.overrun(); i++) {
                    in.u32();
                    in.bytes(in.u32());
                }
            }
            default -> {
                // TRACING_DATA and BUILD_ID print nothing here
            }
        }
        return !in.overrun();
    }

    private static void cmdline(HeaderString in, TextSink out) {
        long nr = in.u32();
        out.put("# cmdline : ");
        for (long i = 0; i < nr && !in.overrun(); i++) {
            out.put(in.string().replace("'", "\\'")).put(' ');
        }
        out.put('\n');
    }

    private boolean eventDesc(MemorySegment data, TextSink out) {
        List<EventDesc> descs = EventDesc.read(data, e);
        if (descs == null) {
            out.put("# event desc: not available or unable to read\n");
            return false;
        }
        for (EventDesc d : descs) {
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
        return true;
    }

    private static void pmuMappings(HeaderString in, TextSink out) {
        long nr = in.u32();
        if (nr == 0) {
            out.put("# pmu mappings: not available\n");
            return;
        }
        String delim = "# pmu mappings: ";
        for (long i = 0; i < nr && !in.overrun(); i++) {
            long type = in.u32();
            String name = in.string();
            out.put(delim).put(name).put(" = ").udec(type);
            delim = ", ";
        }
        out.put('\n');
    }

    /** {@code print_group_desc}: leaders with more than one member, from the GROUP_DESC entries. */
    private void groupDesc(HeaderString in, TextSink out) {
        long nr = in.u32();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            String name = in.string();
            long leader = in.u32();
            long members = in.u32();
            if (members <= 1 || leader >= evsels.size()) {
                continue;
            }
            out.put("# group: ").put(name.equals("{anon_group}") ? "" : name).put('{')
                .put(evsels.get((int) leader).name());
            for (long m = 1; m < members && leader + m < evsels.size(); m++) {
                out.put(',').put(evsels.get((int) (leader + m)).name());
            }
            out.put("}\n");
        }
    }

    private static void sampleTime(HeaderString in, TextSink out) {
        long first = in.u64();
        long last = in.u64();
        out.put("# time of first sample : ").put(PerfTime.usec(first)).put('\n');
        out.put("# time of last sample : ").put(PerfTime.usec(last)).put('\n');
        double d = (double) (last - first) / 1_000_000.0;
        out.put("# sample duration : ").right(Numbers.fixed(d, 3), 10).put(" ms\n");
    }

    private void fullOnly(Feature f, HeaderString in, TextSink out) {
        switch (f) {
            case CPU_TOPOLOGY -> cpuTopology(in, out);
            case NUMA_TOPOLOGY -> {
                long nr = in.u32();
                for (long i = 0; i < nr && !in.overrun(); i++) {
                    long node = in.u32();
                    long total = in.u64();
                    long free = in.u64();
                    String cpus = in.string();
                    out.put("# node").udec(node).put(" meminfo  : total = ").udec(total).put(" kB, free = ")
                        .udec(free).put(" kB\n");
                    out.put("# node").udec(node).put(" cpu list : ").put(CpuList.format(CpuList.parse(cpus)))
                        .put('\n');
                }
            }
            case CACHE -> {
                in.u32();
                long cnt = in.u32();
                out.put("# CPU cache info:\n");
                for (long i = 0; i < cnt && !in.overrun(); i++) {
                    long level = in.u32();
                    in.u32();
                    in.u32();
                    in.u32();
                    String type = in.string();
                    String size = in.string();
                    String map = in.string();
                    out.put("#  L").dec((int) level).put(' ').left(type, 15).put(' ').right(size, 8).put(" [")
                        .put(map).put("]\n");
                }
            }
            case MEM_TOPOLOGY -> memTopology(in, out);
            case HYBRID_TOPOLOGY -> {
                long nr = in.u32();
                for (long i = 0; i < nr && !in.overrun(); i++) {
                    String pmu = in.string();
                    String cpus = in.string();
                    out.put("# ").put(pmu).put(" cpu list : ").put(cpus).put('\n');
                }
            }
            default -> {
                // not a full-only feature
            }
        }
    }

    private void cpuTopology(HeaderString in, TextSink out) {
        List<String> cores = strings(in);
        List<String> threads = strings(in);
        int cpuNr = nrCpusAvail();
        long[][] ids = new long[cpuNr][3];
        boolean haveIds = in.remaining() >= 8L * cpuNr && cpuNr > 0;
        if (haveIds) {
            for (int i = 0; i < cpuNr; i++) {
                ids[i][0] = in.u32();
                ids[i][2] = in.u32();
            }
        }
        List<String> dies = new ArrayList<>();
        if (in.remaining() >= 4) {
            dies = strings(in);
            for (int i = 0; i < cpuNr && in.remaining() >= 4; i++) {
                ids[i][1] = in.u32();
            }
        }
        for (String s : cores) {
            out.put("# sibling sockets : ").put(s).put('\n');
        }
        for (String s : dies) {
            out.put("# sibling dies    : ").put(s).put('\n');
        }
        for (String s : threads) {
            out.put("# sibling threads : ").put(s).put('\n');
        }
        if (!dies.isEmpty()) {
            if (haveIds) {
                for (int i = 0; i < cpuNr; i++) {
                    out.put("# CPU ").dec(i).put(": Core ID ").dec((int) ids[i][0]).put(", Die ID ")
                        .dec((int) ids[i][1]).put(", Socket ID ").dec((int) ids[i][2]).put('\n');
                }
            } else {
                out.put("# Core ID, Die ID and Socket ID information is not available\n");
            }
        } else if (haveIds) {
            for (int i = 0; i < cpuNr; i++) {
                out.put("# CPU ").dec(i).put(": Core ID ").dec((int) ids[i][0]).put(", Socket ID ")
                    .dec((int) ids[i][2]).put('\n');
            }
        } else {
            out.put("# Core ID and Socket ID information is not available\n");
        }
    }

    private int nrCpusAvail() {
        MemorySegment n = features.get(Feature.NRCPUS.bit());
        return n == null || n.byteSize() < 4 ? 0 : (int) e.u32(n, 0);
    }

    private static List<String> strings(HeaderString in) {
        long nr = in.u32();
        List<String> out = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            out.add(in.string());
        }
        return out;
    }

    private static void memTopology(HeaderString in, TextSink out) {
        in.u64();
        long bsize = in.u64();
        long nr = in.u64();
        out.put("# memory nodes (nr ").dec((int) nr).put(", block size 0x").hex(bsize).put("):\n");
        for (long i = 0; i < nr && !in.overrun(); i++) {
            long node = in.u64();
            in.u64();
            long bits = in.u64();
            long words = (bits + 63) / 64;
            long[] set = new long[(int) Math.min(words, 1 << 20)];
            for (int w = 0; w < set.length; w++) {
                set[w] = in.u64();
            }
            long weight = 0;
            for (long w : set) {
                weight += Long.bitCount(w);
            }
            out.put("#  ").right(Long.toUnsignedString(node), 3).put(" [").put(dev.dfx.perf.text.Units.unitNumber(bsize * weight))
                .put("]: ").put(bitmapList(set, bits)).put('\n');
        }
    }

    /** {@code bitmap_scnprintf}: ranges of set bits, e.g. {@code "0-23,32-199"}. */
    static String bitmapList(long[] set, long nbits) {
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

    private static void pmuCaps(HeaderString in, String pmu, TextSink out) {
        long nr = in.u32();
        if (nr == 0) {
            out.put("# ").put(pmu).put(" pmu capabilities: not available\n");
            return;
        }
        out.put("# ").put(pmu).put(" pmu capabilities: ");
        for (long i = 0; i < nr && !in.overrun(); i++) {
            String name = in.string();
            String value = in.string();
            out.put(i > 0 ? ", " : "").put(name).put('=').put(value);
        }
        out.put('\n');
    }

    private static void pmuCapsNamed(HeaderString in, TextSink out) {
        long nr = in.u32();
        List<String> caps = new ArrayList<>();
        for (long i = 0; i < nr && !in.overrun(); i++) {
            String name = in.string();
            caps.add(name + "=" + in.string());
        }
        String pmu = in.string();
        if (caps.isEmpty()) {
            out.put("# ").put(pmu).put(" pmu capabilities: not available\n");
            return;
        }
        out.put("# ").put(pmu).put(" pmu capabilities: ").put(String.join(", ", caps)).put('\n');
    }

    private static void clockData(HeaderString in, TextSink out) {
        in.u32();
        long clockid = in.u32();
        long tod = in.u64();
        long clk = in.u64();
        long todSec = Long.divideUnsigned(tod, 1_000_000_000L);
        long todUsec = Long.remainderUnsigned(tod, 1_000_000_000L) / 1000;
        long clkSec = Long.divideUnsigned(clk, 1_000_000_000L);
        long clkNsec = Long.remainderUnsigned(clk, 1_000_000_000L);
        String date = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
            .format(Instant.ofEpochSecond(todSec).atZone(ZoneId.systemDefault()));
        String name = clockName(clockid);
        out.put("# clockid: ").put(name).put(" (").udec(clockid).put(")\n");
        out.put("# reference time: ").put(date).put('.').put(String.format("%06d", todUsec)).put(" = ").dec(todSec)
            .put('.').put(String.format("%06d", todUsec)).put(" (TOD) = ").dec(clkSec).put('.')
            .put(String.format("%09d", clkNsec)).put(" (").put(name).put(")\n");
    }

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
