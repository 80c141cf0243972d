package dev.dfx.pmu.sysfs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link PmuDirectory} held in memory: a map from file path to content, folders implied by the paths. dfx's
 * simulated PMUs publish their {@code type}, {@code format/} and {@code events/} this way, so that the same
 * reader serves them and real sysfs. Immutable once built; thread-safe.
 */
public final class InMemoryDirectory implements PmuDirectory {
    private final String label;
    private final Map<String, String> files;

    /**
     * @param label a name for errors, e.g. {@code dfx:accel}
     * @param files file path to content
     */
    public InMemoryDirectory(String label, Map<String, String> files) {
        this.label = label;
        this.files = Collections.unmodifiableMap(new TreeMap<>(files));
    }

    /** @return a builder */
    public static Builder builder(String label) {
        return new Builder(label);
    }

    @Override
    public List<String> list(String dir) {
        String prefix = dir.isEmpty() ? "" : dir + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String path : files.keySet()) {
            if (path.startsWith(prefix)) {
                String rest = path.substring(prefix.length());
                int slash = rest.indexOf('/');
                names.add(slash < 0 ? rest : rest.substring(0, slash));
            }
        }
        return new ArrayList<>(names);
    }

    @Override
    public Optional<String> read(String file) {
        return Optional.ofNullable(files.get(file));
    }

    @Override
    public String describe(String path) {
        return label + ":/" + path;
    }

    /** Collects files; not thread-safe. */
    public static final class Builder {
        private final String label;
        private final Map<String, String> files = new TreeMap<>();

        private Builder(String label) {
            this.label = label;
        }

        /** Adds (or replaces) a file; returns this builder. */
        public Builder file(String path, String content) {
            files.put(path, content);
            return this;
        }

        /** @return the tree */
        public InMemoryDirectory build() {
            return new InMemoryDirectory(label, files);
        }
    }
}
