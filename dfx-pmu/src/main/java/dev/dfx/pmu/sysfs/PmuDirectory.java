package dev.dfx.pmu.sysfs;

import java.util.List;
import java.util.Optional;

/**
 * A read-only tree shaped like {@code /sys/bus/event_source/devices}: one folder per PMU holding {@code type},
 * {@code format/<field>} and {@code events/<name>} (plus {@code .unit}/{@code .scale} companions). Paths are
 * relative, separated by {@code /}, e.g. {@code msr/format/event}. Implementations: the real file system
 * ({@link FileSystemDirectory}) and an in-memory tree ({@link InMemoryDirectory}) that simulated PMUs expose.
 */
public interface PmuDirectory {

    /**
     * @param dir a folder path ("" for the root)
     * @return the names of its entries, sorted; empty when it is not a folder
     */
    List<String> list(String dir);

    /**
     * @param file a file path
     * @return its content, or empty when it does not exist or is not a readable file
     */
    Optional<String> read(String file);

    /** @return the path as a person should see it in an error, e.g. {@code /sys/bus/event_source/devices/msr/type} */
    String describe(String path);
}
