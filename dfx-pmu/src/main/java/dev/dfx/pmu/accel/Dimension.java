package dev.dfx.pmu.accel;

/**
 * A level of the accelerator hierarchy a counter can be narrowed to, with its byte in {@code config1}
 * (perf-dkms {@code pmu_dimension.h}, format files {@code xcc=config1:0-7}, {@code se=config1:8-15},
 * {@code sa=config1:16-23}, {@code wgp=config1:24-31}, {@code cu=config1:32-39}).
 */
public enum Dimension {
    /** Accelerated compute die. */
    XCC("xcc", 0),
    /** Shader engine. */
    SE("se", 8),
    /** Shader array (within an SE). */
    SA("sa", 16),
    /** Work-group processor (within an SA). */
    WGP("wgp", 24),
    /** Compute unit (numbered across the device). */
    CU("cu", 32);

    private final String term;
    private final int shift;

    Dimension(String term, int shift) {
        this.term = term;
        this.shift = shift;
    }

    /** @return the format term, e.g. {@code se} */
    public String term() {
        return term;
    }

    /** @return the lowest bit of the field in {@code config1} */
    public int shift() {
        return shift;
    }

    /** @return the field's value in {@code config1} (8 bits) */
    public int extract(long config1) {
        return (int) (config1 >>> shift & 0xFF);
    }
}
