package dev.dfx.pmu.sysfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A {@link PmuDirectory} over real files, e.g. {@code /sys/bus/event_source/devices} or a fake sysfs tree in test
 * resources. Symbolic links (sysfs PMU folders are links) are followed. Unreadable files read as absent
 * (sysfs files can refuse reads). Thread-safe (stateless apart from the root).
 */
public final class FileSystemDirectory implements PmuDirectory {
    /** Where Linux exposes its PMUs. */
    public static final Path LINUX_DEVICES = Path.of("/sys/bus/event_source/devices");

    private final Path root;

    /** @param root the folder that holds one folder per PMU */
    public FileSystemDirectory(Path root) {
        this.root = root;
    }

    /** @return the root folder */
    public Path root() {
        return root;
    }

    @Override
    public List<String> list(String dir) {
        Path p = resolve(dir);
        if (!Files.isDirectory(p)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(p)) {
            s.forEach(c -> names.add(c.getFileName().toString()));
        } catch (IOException e) {
            return List.of();
        }
        names.sort(null);
        return names;
    }

    @Override
    public Optional<String> read(String file) {
        Path p = resolve(file);
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(p, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public String describe(String path) {
        return resolve(path).toString();
    }

    private Path resolve(String rel) {
        return rel.isEmpty() ? root : root.resolve(rel);
    }
}
