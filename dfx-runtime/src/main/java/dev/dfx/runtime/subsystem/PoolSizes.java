package dev.dfx.runtime.subsystem;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.pipeline.PoolSpec;
import dev.dfx.chunk.BufferKind;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.record.ScopeRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.Subsystem;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pool sizes of every buffer kind: the defaults ({@link #DEFAULTS}) with the
 * {@code --pool KIND=COUNTxRECORDS} overrides applied, where KIND is a subsystem ({@code deps=1x4}: all its kinds)
 * or one of its buffer kinds ({@code swimlane.core-task=2x64}); a kind override wins over a subsystem override;
 * the same KIND twice is refused. Also the bridge from a buffer kind to the pipeline's pool, {@link PoolSpec}.
 * Immutable and thread-safe.
 */
public final class PoolSizes {
    /**
     * Default pool size of each buffer kind, per lane: a core lane, a scheduler lane or the one
     * orchestrator lane of the kind.
     */
    public static final Map<BufferKind, PoolSize> DEFAULTS = Map.of(
            CoreTaskRecord.KIND, new PoolSize(8, 1000),
            SchedTaskRecord.KIND, new PoolSize(8, 1000),
            SchedPhaseRecord.KIND, new PoolSize(6, 16384),
            OrchPhaseRecord.KIND, new PoolSize(8, 16384),
            PmuRecord.KIND, new PoolSize(2, 512),
            SubmitRecord.KIND, new PoolSize(4, 1024),
            ArgRecord.KIND, new PoolSize(8, 256),
            ScopeRecord.KIND, new PoolSize(4, 512));
    private static final Pattern OPTION = Pattern.compile("([A-Za-z]+)(?:\\.([A-Za-z-]+))?=(-?\\d+)x(-?\\d+)");

    private final Map<BufferKind, PoolSize> sizes;
    private final Map<BufferKind, String> options;

    private PoolSizes(Map<BufferKind, PoolSize> sizes, Map<BufferKind, String> options) {
        this.sizes = Map.copyOf(sizes);
        this.options = Map.copyOf(options);
    }

    /** @return every kind at its default size */
    public static PoolSizes defaults() {
        return parse(List.of());
    }

    /** @return {@link #parse(List, Set)} with every subsystem recorded */
    public static PoolSizes parse(List<String> overrides) {
        return parse(overrides, EnumSet.allOf(Subsystem.class));
    }

    /**
     * @param overrides {@code --pool} values in command-line order
     * @param recorded  the subsystems recorded ({@code -s}): a pool of another one would be ignored
     * @return the sizes
     * @throws BadInputException naming the option when one is malformed, names no subsystem or kind or one not
     *                           recorded, names the same KIND as an earlier one (which would be silently replaced),
     *                           has a count below 1, or makes a buffer larger than a pipeline buffer can be
     */
    public static PoolSizes parse(List<String> overrides, Set<Subsystem> recorded) {
        Map<BufferKind, PoolSize> sizes = new LinkedHashMap<>();
        Map<BufferKind, String> options = new LinkedHashMap<>();
        for (Subsystem s : Subsystem.values()) {
            for (BufferKind k : s.kinds()) {
                sizes.put(k, DEFAULTS.get(k));
            }
        }
        List<String> general = new ArrayList<>();
        List<String> specific = new ArrayList<>();
        Map<String, String> given = new HashMap<>(); // KIND -> its option
        for (String o : overrides) {
            String kind = o.substring(0, Math.max(0, o.indexOf('='))).toLowerCase(Locale.ROOT); // any case
            String earlier = given.putIfAbsent(kind, o);
            if (earlier != null && !kind.isEmpty()) {
                throw new UsageException("option --pool " + o + ": " + kind + " is given twice (--pool " + earlier
                        + " too); give each KIND once");
            }
            (o.contains(".") ? specific : general).add(o);
        }
        for (List<String> pass : List.of(general, specific)) {
            for (String o : pass) {
                Matcher m = matcher(o, "deps=1x4 or --pool swimlane.core-task=2x64");
                int count = count(o, m.group(3), "COUNT (buffers per lane)");
                int records = count(o, m.group(4), "RECORDS (records per buffer)");
                for (BufferKind k : kinds(o, m.group(1), m.group(2), recorded)) {
                    refuseBigBuffer(o, k.name(), records, k.recordSize());
                    sizes.put(k, new PoolSize(count, records));
                    options.put(k, o);
                }
            }
        }
        return new PoolSizes(sizes, options);
    }

    /**
     * Reads one {@code --pool KIND=COUNTxRECORDS} of a pool that is not one of the five subsystems' (the user-event
     * pool of {@code dfx record -- COMMAND}).
     *
     * @param option     the option's value
     * @param kinds      the KIND names accepted (any case)
     * @param recordSize bytes per record of the pool, for the limit on a buffer's bytes
     * @param example    an accepted value, for the message
     * @return the size
     * @throws UsageException naming the option when it is malformed, names another KIND, a count is below 1, or
     *                        RECORDS makes a buffer larger than a pipeline buffer can be
     */
    public static PoolSize size(String option, List<String> kinds, int recordSize, String example) {
        Matcher m = matcher(option, example);
        String kind = m.group(1) + (m.group(2) == null ? "" : "." + m.group(2));
        if (kinds.stream().noneMatch(kind::equalsIgnoreCase)) {
            throw new UsageException("option --pool " + option + ": unknown pool '" + kind + "'; expected "
                    + String.join(" or ", kinds));
        }
        int count = count(option, m.group(3), "COUNT (buffers per lane)");
        int records = count(option, m.group(4), "RECORDS (records per buffer)");
        refuseBigBuffer(option, kind.toLowerCase(Locale.ROOT), records, recordSize);
        return new PoolSize(count, records);
    }

    /**
     * Refuses a buffer over {@link PoolSpec#MAX_BUFFER_BYTES}: a limit of the pipeline, the same on every machine,
     * so a usage error; it is RECORDS (records per buffer) that sets a buffer's bytes, COUNT only how many there are.
     */
    private static void refuseBigBuffer(String option, String kind, int records, int recordSize) {
        long bytes = (long) records * recordSize;
        if (bytes > PoolSpec.MAX_BUFFER_BYTES) {
            throw new UsageException("option --pool " + option + ": RECORDS " + records + " x " + recordSize
                    + " B makes a " + kind + " buffer of " + bytes + " bytes, more than the "
                    + PoolSpec.MAX_BUFFER_BYTES + "-byte limit of a buffer; expected RECORDS at most "
                    + PoolSpec.MAX_BUFFER_BYTES / recordSize);
        }
    }

    private static Matcher matcher(String option, String example) {
        Matcher m = OPTION.matcher(option);
        if (!m.matches()) {
            throw new UsageException("option --pool " + option + ": expected KIND=COUNTxRECORDS, e.g. --pool "
                    + example);
        }
        return m;
    }

    private static int count(String option, String text, String what) {
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            v = Long.MAX_VALUE;
        }
        if (v < 1 || v > Integer.MAX_VALUE) {
            throw new UsageException("option --pool " + option + ": " + what + " must be 1.." + Integer.MAX_VALUE
                    + ", got " + text);
        }
        return (int) v;
    }

    private static List<BufferKind> kinds(String option, String subsystem, String kind, Set<Subsystem> recorded) {
        Subsystem s;
        try {
            s = Subsystem.of(subsystem);
        } catch (BadInputException e) {
            throw new UsageException("option --pool " + option + ": unknown subsystem '" + subsystem
                    + "'; expected one of swimlane, pmu, deps, args, scopes");
        }
        if (!recorded.contains(s)) {
            throw new UsageException("option --pool " + option + ": " + s.id() + " is not recorded (-s); its pool"
                    + " would be ignored");
        }
        if (kind == null) {
            return s.kinds();
        }
        for (BufferKind k : s.kinds()) {
            if (k.name().equalsIgnoreCase(kind)) {
                return List.of(k);
            }
        }
        throw new UsageException("option --pool " + option + ": subsystem " + s.id() + " has no buffer kind '" + kind
                + "'; expected one of " + String.join(", ", s.kinds().stream().map(BufferKind::name).toList()));
    }

    /** @return {@code subsystem.kind}, e.g. {@code swimlane.core-task} */
    public static String qualifiedName(BufferKind k) {
        return Subsystem.of(k).id() + "." + k.name();
    }

    /** @return the pool size of {@code kind} */
    public PoolSize of(BufferKind kind) {
        return sizes.get(kind);
    }

    /** @return the {@code --pool} option that set {@code kind}'s size, or its qualified name when none did */
    public String origin(BufferKind kind) {
        String o = options.get(kind);
        return o != null ? "--pool " + o : qualifiedName(kind);
    }

    /** @return the pipeline pool of {@code kind}: its name, record size and this size */
    public PoolSpec spec(BufferKind kind) {
        PoolSize p = of(kind);
        return new PoolSpec(kind.name(), kind.recordSize(), p.recordsPerBuffer(), p.buffersPerLane());
    }
}
