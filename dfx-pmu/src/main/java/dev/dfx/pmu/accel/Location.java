package dev.dfx.pmu.accel;

/**
 * One finest-grain place on the accelerator (an XCC/SE/SA/WGP coordinate; WGP is 0 where the architecture has no
 * WGPs). Immutable.
 *
 * @param xcc XCC index
 * @param se  shader engine index
 * @param sa  shader array index within the SE
 * @param wgp WGP index within the SA
 */
public record Location(int xcc, int se, int sa, int wgp) {

    /**
     * The flat index of perf-dkms {@code encode_dimension_index}, {@code se*nsa*nwgp + sa*nwgp + wgp}, with the WGP
     * stride {@link Architecture#wgpStride()} (never 0), offset by {@code xcc * locationsPerXcc}.
     *
     * @param arch the architecture
     * @return 0 .. {@code arch.locations() - 1}
     * @throws IllegalArgumentException when a coordinate is out of range for the architecture
     */
    public int index(Architecture arch) {
        int w = arch.wgpStride();
        if (xcc < 0 || xcc >= arch.xccs() || se < 0 || se >= arch.ses() || sa < 0 || sa >= arch.sasPerSe()
                || wgp < 0 || wgp >= w) {
            throw new IllegalArgumentException(this + " is outside " + arch.name());
        }
        return xcc * arch.locationsPerXcc() + se * arch.sasPerSe() * w + sa * w + wgp;
    }

    /**
     * The inverse of {@link #index}: {@code decode_dimension_index}, div/mod by {@code nsa*stride} then by the
     * stride.
     *
     * @param arch  the architecture
     * @param index 0 .. {@code arch.locations() - 1}
     * @return the location
     * @throws IllegalArgumentException when the index is out of range
     */
    public static Location of(Architecture arch, int index) {
        if (index < 0 || index >= arch.locations()) {
            throw new IllegalArgumentException("location index " + index + " is outside 0.." + (arch.locations() - 1));
        }
        int w = arch.wgpStride();
        int perXcc = arch.locationsPerXcc();
        int xcc = index / perXcc;
        int rest = index % perXcc;
        int perSe = arch.sasPerSe() * w;
        return new Location(xcc, rest / perSe, rest % perSe / w, rest % w);
    }

    /** @return the coordinate of one dimension (CU is not a location coordinate and returns -1) */
    public int get(Dimension d) {
        return switch (d) {
            case XCC -> xcc;
            case SE -> se;
            case SA -> sa;
            case WGP -> wgp;
            case CU -> -1;
        };
    }
}
