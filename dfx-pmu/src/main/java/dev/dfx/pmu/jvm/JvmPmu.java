package dev.dfx.pmu.jvm;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.PmuDescriptor;
import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.sim.CountingPmu;
import dev.dfx.pmu.sim.SimEvent;
import dev.dfx.pmu.sysfs.InMemoryDirectory;
import dev.dfx.pmu.sysfs.SysfsPmuReader;

/**
 * The {@code jvm} PMU: the JVM's own counters ({@link JvmEvent}) as events with the usual spec syntax, e.g.
 * {@code jvm/cpu-time/}, {@code jvm/alloc-bytes/}, {@code jvm/event=0x3/}. Its tree ({@link #sysfs()}):
 * {@code type}, {@code format/event} = {@code config:0-7}, {@code events/<name>} = {@code event=0x<n>} with
 * {@code .unit}/{@code .scale}. Counted JVM-wide through an event context (64 slots: it never multiplexes in
 * practice); per-thread readings come from {@link JvmEvent#threadValue()}. Thread-safe.
 */
public final class JvmPmu extends CountingPmu {
    /** The PMU name. */
    public static final String NAME = "jvm";
    /** Its {@code perf_event_attr.type} (dfx-private). */
    public static final int TYPE = PerfType.DFX_FIRST + 1;
    private static final Object BLOCK = "jvm";

    private final InMemoryDirectory sysfs;
    private final PmuDescriptor descriptor;

    /** Builds the tree and the descriptor. */
    public JvmPmu() {
        InMemoryDirectory.Builder b = InMemoryDirectory.builder("dfx");
        b.file(NAME + "/type", TYPE + "\n");
        b.file(NAME + "/format/event", "config:0-7\n");
        for (JvmEvent e : JvmEvent.values()) {
            String p = NAME + "/events/" + e.term();
            b.file(p, "event=0x" + Integer.toHexString(e.config()) + "\n");
            if (!e.unit().isEmpty()) {
                b.file(p + ".unit", e.unit() + "\n");
                b.file(p + ".scale", e.scale() + "\n");
            }
        }
        this.sysfs = b.build();
        this.descriptor = SysfsPmuReader.read(sysfs, NAME, PmuFamily.JVM, "this JVM: CPU time, allocation, GC")
                .withAliasDescriptions(a -> {
                    for (JvmEvent e : JvmEvent.values()) {
                        if (e.term().equals(a.name())) {
                            return e.description();
                        }
                    }
                    return null;
                });
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @return the sysfs-shaped tree */
    public InMemoryDirectory sysfs() {
        return sysfs;
    }

    /** @return the PMU as read back from its tree */
    public PmuDescriptor descriptor() {
        return descriptor;
    }

    /**
     * @param event a resolved event of this PMU
     * @return which JVM counter it reads
     * @throws BadInputException for an unknown config, non-zero config1..3 or exclude modifiers
     */
    public JvmEvent select(ResolvedEvent event) {
        PerfEventAttr a = event.attr();
        JvmEvent e = a.type() == TYPE ? JvmEvent.ofConfig(a.config()) : null;
        if (e == null) {
            throw new BadInputException(event.name() + ": unsupported event config: 0x" + Long.toHexString(a.config())
                    + " (jvm events are event=0x1..0x" + JvmEvent.values().length + ")");
        }
        if (a.config1() != 0 || a.config2() != 0 || a.config3() != 0 || a.excludesAnything()) {
            throw new BadInputException(event.name() + ": jvm events take no config1..3 and no u/k/h/G/H/I modifiers");
        }
        return e;
    }

    @Override
    public void eventInit(SimEvent event) {
        event.hw(select(event.event()));
    }

    @Override
    protected Object block(SimEvent event) {
        return BLOCK;
    }

    @Override
    protected int slots(Object block) {
        return 64;
    }

    @Override
    protected long rawValue(SimEvent event) {
        return ((JvmEvent) event.hw()).processValue();
    }
}
