package dev.dfx.pmu.sysfs;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.EventAlias;
import dev.dfx.pmu.FormatField;
import dev.dfx.pmu.PmuDescriptor;
import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.spec.EventSyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads PMU descriptions from a tree shaped like {@code /sys/bus/event_source/devices} (the ABI files
 * {@code sysfs-bus-event_source-devices-format} and {@code -events}): {@code <pmu>/type} (decimal),
 * {@code <pmu>/format/<field>} (perf's format grammar), {@code <pmu>/events/<name>} (terms) with
 * {@code <name>.unit} and {@code <name>.scale} (a C-locale float); {@code .per-pkg} and {@code .snapshot}
 * companions are skipped. Stateless; thread-safe.
 */
public final class SysfsPmuReader {
    private static final List<String> COMPANIONS = List.of(".unit", ".scale", ".per-pkg", ".snapshot");

    private SysfsPmuReader() {
    }

    /**
     * @param root   the tree
     * @param family the backend family of every PMU in it
     * @return one descriptor per PMU folder that has a {@code type} file, sorted by name
     * @throws BadInputException naming the file when a type, format, event, unit or scale file is malformed
     */
    public static List<PmuDescriptor> readAll(PmuDirectory root, PmuFamily family) {
        List<PmuDescriptor> out = new ArrayList<>();
        for (String name : root.list("")) {
            if (root.read(name + "/type").isPresent()) {
                out.add(read(root, name, family, ""));
            }
        }
        return out;
    }

    /**
     * @param root        the tree
     * @param name        the PMU folder name
     * @param family      the backend family
     * @param description a line for {@code dfx list}
     * @return the PMU
     * @throws BadInputException naming the file at fault
     */
    public static PmuDescriptor read(PmuDirectory root, String name, PmuFamily family, String description) {
        String typePath = name + "/type";
        String typeText = root.read(typePath).orElseThrow(() ->
                new BadInputException(root.describe(typePath) + ": missing (expected the PMU's type number)")).strip();
        int type;
        try {
            type = Integer.parseInt(typeText);
        } catch (NumberFormatException e) {
            throw new BadInputException(root.describe(typePath) + ": '" + typeText + "' is not a decimal type number", e);
        }
        List<FormatField> formats = new ArrayList<>();
        for (String field : root.list(name + "/format")) {
            String path = name + "/format/" + field;
            Optional<String> text = root.read(path);
            if (text.isEmpty()) {
                continue;
            }
            try {
                formats.add(FormatField.parse(field, text.get()));
            } catch (BadInputException e) {
                throw new BadInputException(root.describe(path) + ": " + e.getMessage(), e);
            }
        }
        List<EventAlias> aliases = new ArrayList<>();
        for (String event : root.list(name + "/events")) {
            if (COMPANIONS.stream().anyMatch(event::endsWith)) {
                continue;
            }
            String path = name + "/events/" + event;
            Optional<String> text = root.read(path);
            if (text.isEmpty()) {
                continue;
            }
            EventAlias alias;
            try {
                alias = EventAlias.parse(event, text.get());
            } catch (EventSyntaxException e) {
                throw new BadInputException(root.describe(path) + ": " + e.reason() + " at character " + e.position()
                        + " of '" + text.get().strip() + "' (expected term[=value],...)", e);
            }
            String unit = root.read(path + ".unit").map(String::strip).orElse("");
            double scale = root.read(path + ".scale").map(s -> parseScale(root, path + ".scale", s)).orElse(1.0);
            aliases.add(alias.withUnitAndScale(unit, scale));
        }
        return new PmuDescriptor(name, type, family, description, formats, aliases);
    }

    private static double parseScale(PmuDirectory root, String path, String text) {
        String s = text.strip();
        try {
            double v = Double.parseDouble(s);
            if (!Double.isFinite(v)) {
                throw new NumberFormatException("not finite");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new BadInputException(root.describe(path) + ": '" + s + "' is not a number (expected a scale like 2.3283064365386962890625e-10)", e);
        }
    }
}
