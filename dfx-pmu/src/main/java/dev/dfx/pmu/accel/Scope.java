package dev.dfx.pmu.accel;

import java.util.EnumSet;
import java.util.Set;

/**
 * The level a counter has instances at, which fixes the dimensions it supports: a global counter has one
 * instance per XCC; a per-SE counter one per SE; per-SA one per SA; per-WGP one per WGP (per SA where the
 * architecture has no WGPs). The CU dimension is validated but no counter is per CU.
 */
public enum Scope {
    /** One instance per XCC (GRBM). */
    GLOBAL(EnumSet.of(Dimension.XCC)),
    /** One per shader engine. */
    SE(EnumSet.of(Dimension.XCC, Dimension.SE)),
    /** One per shader array. */
    SA(EnumSet.of(Dimension.XCC, Dimension.SE, Dimension.SA)),
    /** One per WGP. */
    WGP(EnumSet.of(Dimension.XCC, Dimension.SE, Dimension.SA, Dimension.WGP));

    private final Set<Dimension> dimensions;

    Scope(Set<Dimension> dimensions) {
        this.dimensions = Set.copyOf(dimensions);
    }

    /** @return the dimensions a counter of this scope can be narrowed to */
    public Set<Dimension> dimensions() {
        return dimensions;
    }

    /** @return the dimensions supported on an architecture (WGP only where it has WGPs) */
    public Set<Dimension> dimensions(Architecture arch) {
        EnumSet<Dimension> out = EnumSet.noneOf(Dimension.class);
        out.addAll(dimensions);
        if (!arch.hasWgps()) {
            out.remove(Dimension.WGP);
        }
        return out;
    }

    /** @return the label of the scope, e.g. {@code per-SA} */
    public String label() {
        return this == GLOBAL ? "global" : "per-" + name();
    }

    /**
     * @param arch the architecture
     * @return the label of the level the counter has instances at on {@code arch}: a per-WGP counter on an
     *         architecture without WGPs is {@code per-SA (gfx9 has no WGPs)}, else {@link #label()}
     */
    public String label(Architecture arch) {
        return this == WGP && !arch.hasWgps() ? SA.label() + " (" + arch.name() + " has no WGPs)" : label();
    }
}
