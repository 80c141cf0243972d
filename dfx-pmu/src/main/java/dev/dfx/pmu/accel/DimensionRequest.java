package dev.dfx.pmu.accel;

import dev.dfx.error.BadInputException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Which instances of a counter an event asks for, decoded from {@code config1} (layout of perf-dkms
 * {@code pmu_dimension.h}: xcc bits 0-7, se 8-15, sa 16-23, wgp 24-31, cu 32-39, aggregate bit 40, bits 41-63
 * reserved).
 *
 * <p>Unlike the reference driver, which treats a zero field as "not requested" (so {@code se=0} cannot be asked
 * for), a request records which dimensions were <em>given</em>: every dimension term the spec named, with any
 * value including 0. When {@code config1} was given as a raw word ({@code config1=0x200}), the non-zero fields
 * count as given, since a raw word carries no more information. Nothing given (and no aggregate) means
 * broadcast: read every instance and sum. Immutable.
 *
 * @param values    the field values, one per dimension (0 when absent)
 * @param given     the dimensions the spec gave
 * @param aggregate bit 40: sum over the dimensions below the ones given instead of taking instance 0 of them
 */
public record DimensionRequest(Map<Dimension, Integer> values, Set<Dimension> given, boolean aggregate) {

    /** Bit 40 of config1: aggregate. */
    public static final int AGGREGATE_BIT = 40;
    /** Bits 41-63 of config1, reserved (must be zero). */
    public static final long RESERVED_MASK = -1L << 41;

    /** Copies the collections. */
    public DimensionRequest {
        values = Map.copyOf(values);
        given = given.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(given));
    }

    /**
     * @param config1       the event's config1 word
     * @param explicitTerms the term names the spec gave (dimension terms and possibly {@code config1})
     * @return the request
     * @throws BadInputException when reserved bits 41-63 are set
     */
    public static DimensionRequest decode(long config1, Set<String> explicitTerms) {
        if ((config1 & RESERVED_MASK) != 0) {
            throw new BadInputException("config1 bits 41-63 are reserved and must be zero (got config1=0x"
                    + Long.toHexString(config1) + ")");
        }
        Map<Dimension, Integer> values = new EnumMap<>(Dimension.class);
        Set<Dimension> given = EnumSet.noneOf(Dimension.class);
        boolean raw = explicitTerms.contains("config1");
        for (Dimension d : Dimension.values()) {
            int v = d.extract(config1);
            values.put(d, v);
            if (explicitTerms.contains(d.term()) || raw && v != 0) {
                given.add(d);
            }
        }
        boolean aggregate = (config1 >>> AGGREGATE_BIT & 1) != 0;
        return new DimensionRequest(values, given, aggregate);
    }

    /**
     * The inverse of {@link #decode}'s field layout.
     *
     * @param values    field values (absent ones are 0), each 0..255
     * @param aggregate the aggregate bit
     * @return config1
     * @throws IllegalArgumentException when a value is outside 0..255
     */
    public static long encode(Map<Dimension, Integer> values, boolean aggregate) {
        long c = 0;
        for (Map.Entry<Dimension, Integer> e : values.entrySet()) {
            int v = e.getValue();
            if (v < 0 || v > 255) {
                throw new IllegalArgumentException(e.getKey().term() + "=" + v + " does not fit in 8 bits");
            }
            c |= (long) v << e.getKey().shift();
        }
        return aggregate ? c | 1L << AGGREGATE_BIT : c;
    }

    /** @return whether this is broadcast: nothing given, so every instance is read and summed */
    public boolean broadcast() {
        return given.isEmpty();
    }

    /** @return the value of a dimension (0 when not given) */
    public int value(Dimension d) {
        return values.getOrDefault(d, 0);
    }

    /** @return whether the spec gave this dimension */
    public boolean has(Dimension d) {
        return given.contains(d);
    }
}
