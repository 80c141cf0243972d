/**
 * Record schemas of the five subsystems ({@code swimlane}, {@code pmu}, {@code deps}, {@code args},
 * {@code scopes}): fixed-size, little-endian records with a nanosecond clock ({@code System.nanoTime()},
 * reported as {@code clock_freq_hz = 1000000000}).
 *
 * <p>Each record class holds its size constant ({@code SIZE}), its {@link java.lang.foreign.StructLayout}
 * (checked against {@code SIZE} when the class initialises, so a wrong layout fails at once), the byte
 * offset of every field (derived from that layout) and two flyweights over one record: an {@code Encoder} with a
 * setter per field and a reader {@code View} with the getter of the same name, both reusable and allocation-free
 * ({@code encoder.wrap(seg, off).startNs(t0).endNs(t1)}, {@code view.wrap(seg, off).startNs()}). Each also names its
 * buffer kind ({@code KIND}, a {@link dev.dfx.chunk.BufferKind}: id in its subsystem's kind table, kind name, size and
 * primary timestamp field, if any); {@link dev.dfx.record.Subsystem} lists each subsystem's kinds.
 *
 * <p>Layouts follow the reference runtime's ({@code chip_swimlane_profiling.h}, {@code pmu_profiling.h},
 * {@code dep_gen.h}, {@code args_dump.h}, {@code scope_stats.h} of hw-native-sys/simpler)
 * with cycles replaced by nanoseconds; where a
 * record gains a timestamp the reference lacks, the class Javadoc says where it was placed and why.
 * Primary timestamps are non-decreasing within one lane (one writer thread writes them in time order);
 * the chunk store and the time-ordered merge rely on that.
 */
package dev.dfx.record;
