package dev.dfx.pmu.accel;

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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The simulated accelerator PMU {@code accel}, a dimension-aware GPU PMU after AMD's perf-dkms {@code amdgpu_pmu}:
 * counters from {@link CounterRegistry} selected by {@code config}, narrowed by the dimension fields of
 * {@code config1}, counted from the {@link ActivityModel}, scheduled on per-block counter slots.
 *
 * <p>Its sysfs-shaped tree ({@link #sysfs()}): {@code type}, {@code cpumask}, {@code perf_event_mux_interval_ms},
 * {@code format/{config,config1,xcc,se,sa,wgp,cu,aggregate}} exactly as perf-dkms ({@code se} =
 * {@code config1:8-15}, ...), {@code events/<counter>} = {@code config=0x<id>}, one scaled alias
 * {@code gl2c_read_bytes} ({@code config=0x1}, scale 64, unit Bytes), and {@code caps/} with the architecture and
 * the per-dimension maxima (the "dynamic dimension discovery" perf-dkms lists as future work).
 *
 * <p><b>Event init</b> ({@link #select}), in the reference's order: unknown counter; exclude bits (the PMU counts
 * everything, like {@code PERF_PMU_CAP_NO_EXCLUDE}); reserved config1 bits; each given dimension against the
 * architecture ("dimension out of range: se=99 (max: 3)"); the given dimensions against the counter's scope
 * ("counter 'grbm_count' does not support requested dimensions"). Then the instance: broadcast when no dimension
 * is given (every location, summed); otherwise one instance at the counter's scope, given coordinates as given,
 * absent ones 0 (or all of them with {@code aggregate=1}), summing the locations inside that instance.
 *
 * <p>Slots are guarded by the owning event context's lock; the model is thread-safe.
 */
public final class AccelPmu extends CountingPmu {
    /** The PMU name. */
    public static final String NAME = "accel";
    /** Its {@code perf_event_attr.type} (dfx-private). */
    public static final int TYPE = PerfType.DFX_FIRST;

    private final ActivityModel model;
    private final Architecture arch;
    private final InMemoryDirectory sysfs;
    private final PmuDescriptor descriptor;

    /** @param model the activity model whose counts this PMU reads */
    public AccelPmu(ActivityModel model) {
        this.model = model;
        this.arch = model.architecture();
        this.sysfs = buildSysfs(arch);
        this.descriptor = SysfsPmuReader.read(sysfs, NAME, PmuFamily.ACCEL, "simulated accelerator, " + arch.title())
                .withAliasDescriptions(a -> {
                    CounterDef def = CounterRegistry.byName(a.name());
                    return def == null ? "GL2C, per-SA: read bytes = gl2c_ea_rdreq * 64" : def.description(arch);
                });
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @return the architecture */
    public Architecture architecture() {
        return arch;
    }

    /** @return the activity model */
    public ActivityModel model() {
        return model;
    }

    /** @return the sysfs-shaped tree ({@code accel/type}, {@code accel/format/se}, {@code accel/events/sq_waves}, ...) */
    public InMemoryDirectory sysfs() {
        return sysfs;
    }

    /** @return the PMU as read back from its tree, with a description per event */
    public PmuDescriptor descriptor() {
        return descriptor;
    }

    /**
     * Validates an event and decides which locations it sums ({@code event_init}).
     *
     * @param event a resolved event of this PMU
     * @return the counter and its locations
     * @throws BadInputException with one line naming the problem
     */
    public InstanceSelection select(ResolvedEvent event) {
        PerfEventAttr attr = event.attr();
        if (attr.type() != TYPE) {
            throw new BadInputException(event.name() + ": type " + attr.type() + " is not the accel PMU's (" + TYPE + ")");
        }
        CounterDef counter = CounterRegistry.byId(attr.config());
        if (counter == null) {
            throw new BadInputException(event.name() + ": unsupported event config: 0x" + Long.toHexString(attr.config())
                    + " (accel counters are config=0x1..0x" + Integer.toHexString(CounterRegistry.all().size()) + ")");
        }
        if (attr.excludesAnything()) {
            throw new BadInputException(event.name() + ": the accel PMU cannot exclude privilege levels or guests"
                    + " (drop the u/k/h/G/H/I modifiers)");
        }
        DimensionRequest req = DimensionRequest.decode(attr.config1(), event.explicitTerms());
        for (Dimension d : req.given()) {
            int v = req.value(d);
            if (arch.count(d) == 0) {
                throw new BadInputException("dimension out of range: " + d.term() + "=" + v + " (" + arch.name()
                        + " has no " + d.name() + "s)");
            }
            if (v > arch.max(d)) {
                throw new BadInputException("dimension out of range: " + d.term() + "=" + v + " (max: " + arch.max(d) + ")");
            }
        }
        Set<Dimension> supported = counter.scope().dimensions(arch);
        Set<Dimension> unsupported = EnumSet.noneOf(Dimension.class);
        unsupported.addAll(req.given());
        unsupported.removeAll(supported);
        if (!unsupported.isEmpty()) {
            throw new BadInputException("counter '" + counter.name() + "' does not support requested dimensions ("
                    + counter.scope().label(arch) + ", supports: " + terms(supported) + "; requested: " + terms(req.given()) + ")");
        }
        return new InstanceSelection(counter, req, locations(counter, req));
    }

    private int[] locations(CounterDef counter, DimensionRequest req) {
        Set<Dimension> instanceLevels = counter.scope().dimensions(arch);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < arch.locations(); i++) {
            Location loc = Location.of(arch, i);
            boolean match = true;
            if (!req.broadcast()) {
                for (Dimension d : instanceLevels) {
                    if (req.has(d)) {
                        match &= loc.get(d) == req.value(d);
                    } else if (!req.aggregate()) {
                        match &= loc.get(d) == 0;
                    }
                }
            }
            if (match) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String terms(Set<Dimension> dims) {
        return dims.isEmpty() ? "none" : dims.stream().sorted().map(Dimension::term).collect(Collectors.joining(","));
    }

    @Override
    public void eventInit(SimEvent event) {
        event.hw(select(event.event()));
    }

    @Override
    protected Object block(SimEvent event) {
        return ((InstanceSelection) event.hw()).counter().block();
    }

    @Override
    protected int slots(Object block) {
        return arch.slots((Block) block);
    }

    @Override
    protected long rawValue(SimEvent event) {
        InstanceSelection s = (InstanceSelection) event.hw();
        return model.total(s.counter(), s.locations());
    }

    private static InMemoryDirectory buildSysfs(Architecture arch) {
        InMemoryDirectory.Builder b = InMemoryDirectory.builder("dfx");
        String p = NAME + "/";
        b.file(p + "type", TYPE + "\n");
        b.file(p + "cpumask", "0\n");
        b.file(p + "perf_event_mux_interval_ms", "4\n");
        b.file(p + "format/config", "config:0-63\n");
        b.file(p + "format/config1", "config1:0-63\n");
        for (Dimension d : Dimension.values()) {
            b.file(p + "format/" + d.term(), "config1:" + d.shift() + "-" + (d.shift() + 7) + "\n");
        }
        b.file(p + "format/aggregate", "config1:" + DimensionRequest.AGGREGATE_BIT + "\n");
        for (CounterDef c : CounterRegistry.all()) {
            b.file(p + "events/" + c.name(), "config=0x" + Integer.toHexString(c.id()) + "\n");
        }
        b.file(p + "events/gl2c_read_bytes", "config=0x1\n");
        b.file(p + "events/gl2c_read_bytes.scale", "64\n");
        b.file(p + "events/gl2c_read_bytes.unit", "Bytes\n");
        b.file(p + "caps/arch", arch.name() + "\n");
        for (Dimension d : Dimension.values()) {
            b.file(p + "caps/max_" + d.term(), arch.max(d) + "\n");
        }
        return b.build();
    }
}
