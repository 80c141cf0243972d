package dev.dfx.runtime.recording;

import dev.dfx.chunk.BufferKind;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.PoolSize;
import dev.dfx.runtime.subsystem.PoolSizes;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The parts of run.json known before the run: the configuration (with every pool) and the host. Stateless. */
public final class ManifestFacts {
    private ManifestFacts() {
    }

    /** @return run.json's {@code config}: what was asked for, the runtime's threads and each enabled kind's pool */
    static RunManifest.Config config(RecordingPlan plan) {
        RecordingConfig c = plan.config();
        List<RunManifest.Pool> pools = new ArrayList<>();
        for (SubsystemRecorder r : plan.recorders()) {
            Map<BufferKind, Integer> lanes = new LinkedHashMap<>();
            for (LaneInfo l : r.plan().lanes()) {
                lanes.merge(l.kind(), 1, Integer::sum);
            }
            lanes.forEach((k, n) -> {
                PoolSize p = plan.pools().of(k);
                pools.add(new RunManifest.Pool(PoolSizes.qualifiedName(k), p.buffersPerLane(), p.recordsPerBuffer(),
                        k.recordSize(), n));
            });
        }
        return new RunManifest.Config(c.workload(), plan.recorders().stream().map(r -> r.id().id()).toList(),
                c.swimlaneLevel(), c.argsLevel(), c.policy().name().toLowerCase(Locale.ROOT), c.backstop().toNanos(),
                c.stallThreshold().toNanos(), plan.runtime().schedulers(), plan.runtime().cores(),
                plan.runtime().window(), plan.pmuNames(), pools);
    }

    /** @return run.json's {@code host}: name, OS, CPU architecture and count, memory, Java version */
    public static RunManifest.Host host() {
        String hostname;
        try {
            hostname = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            hostname = "unknown";
        }
        long memory = PoolBudget.physicalMemory();
        return new RunManifest.Host(hostname, System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(), memory,
                Runtime.version().toString());
    }
}
