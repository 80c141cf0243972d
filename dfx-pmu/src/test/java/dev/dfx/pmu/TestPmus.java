package dev.dfx.pmu;

import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.sysfs.FileSystemDirectory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Test fixtures: the fake sysfs tree of the test resources and a fixed tracepoint table. */
public final class TestPmus {
    private TestPmus() {
    }

    /** @return {@code src/test/resources/fake-sysfs/devices} */
    public static Path fakeSysfs() {
        try {
            return Path.of(TestPmus.class.getResource("/fake-sysfs/devices").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return tracepoints sched:sched_switch (id 316) and sched:sched_wakeup (id 318) */
    public static TracepointLookup tracepoints() {
        Map<String, Long> ids = Map.of("sched:sched_switch", 316L, "sched:sched_wakeup", 318L);
        return new TracepointLookup() {
            @Override
            public OptionalLong id(String system, String name) {
                Long id = ids.get(system + ":" + name);
                return id == null ? OptionalLong.empty() : OptionalLong.of(id);
            }

            @Override
            public String location(String system, String name) {
                return "/fake/tracing/events/" + system + "/" + name;
            }

            @Override
            public List<String> all() {
                return ids.keySet().stream().sorted().toList();
            }
        };
    }

    /** @return a system over the fake tree with a GFX12 accelerator */
    public static PmuSystem fake() {
        return fake(Architecture.GFX12);
    }

    /** @return a system over the fake tree */
    public static PmuSystem fake(Architecture arch) {
        return PmuSystem.of(new FileSystemDirectory(fakeSysfs()), tracepoints(), arch);
    }
}
