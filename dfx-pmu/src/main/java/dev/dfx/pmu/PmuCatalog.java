package dev.dfx.pmu;

import dev.dfx.pmu.spec.EventSyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything an event spec can name: the PMUs (Linux sysfs, simulated accelerator, JVM), the symbolic
 * hardware/software events, and the tracepoints. {@link #resolve} turns a spec such as
 * {@code task-clock,accel/sq_waves,se=2/,jvm/alloc-bytes/} into {@link ResolvedEvent}s.
 *
 * <p>Immutable after construction; thread-safe when its tracepoint lookup is.
 */
public final class PmuCatalog {
    private final Map<String, PmuDescriptor> pmus;
    private final List<SymbolicEvent> symbolic;
    private final TracepointLookup tracepoints;
    private final EventResolver resolver;

    /**
     * @param pmus        the PMUs; a later PMU with the same name as an earlier one is ignored
     * @param symbolic    the symbolic events
     * @param tracepoints the tracepoint lookup
     */
    public PmuCatalog(List<PmuDescriptor> pmus, List<SymbolicEvent> symbolic, TracepointLookup tracepoints) {
        Map<String, PmuDescriptor> m = new LinkedHashMap<>();
        for (PmuDescriptor p : pmus) {
            m.putIfAbsent(p.name(), p);
        }
        this.pmus = Collections.unmodifiableMap(m);
        this.symbolic = List.copyOf(symbolic);
        this.tracepoints = tracepoints;
        this.resolver = new EventResolver(this);
    }

    /**
     * Parses and resolves an event list.
     *
     * @param spec e.g. {@code task-clock,{accel/sq_waves,se=2,sa=1/,accel/sq_insts_valu/}}
     * @return the events in order, each with its group index
     * @throws EventSyntaxException with the position of the fault (unknown PMU, term, event; value too big; ...)
     */
    public List<ResolvedEvent> resolve(String spec) {
        return resolver.resolve(spec);
    }

    /** @return the PMUs in catalog order */
    public List<PmuDescriptor> pmus() {
        return new ArrayList<>(pmus.values());
    }

    /** @return the PMU names in catalog order */
    public List<String> pmuNames() {
        return new ArrayList<>(pmus.keySet());
    }

    /** @return the PMU with that name, or null */
    public PmuDescriptor pmu(String name) {
        return pmus.get(name);
    }

    /** @return the symbolic events */
    public List<SymbolicEvent> symbolicEvents() {
        return symbolic;
    }

    /** @return the symbolic event answering to {@code name} (or one of its aliases), or null */
    public SymbolicEvent symbolic(String name) {
        for (SymbolicEvent e : symbolic) {
            if (e.answersTo(name)) {
                return e;
            }
        }
        return null;
    }

    /** @return the PMUs that define an alias named {@code alias} (any case), in catalog order */
    public List<PmuDescriptor> pmusWithAlias(String alias) {
        List<PmuDescriptor> out = new ArrayList<>();
        for (PmuDescriptor p : pmus.values()) {
            if (p.alias(alias) != null) {
                out.add(p);
            }
        }
        return out;
    }

    /** @return the tracepoint lookup */
    public TracepointLookup tracepoints() {
        return tracepoints;
    }
}
