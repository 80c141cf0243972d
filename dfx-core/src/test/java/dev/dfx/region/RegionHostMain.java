package dev.dfx.region;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A region host in a JVM of its own, for the test that kills its host ({@link HostKilledTest}): creates the region,
 * collects (and discards) what producers publish, prints {@code ready} and runs until it is killed.
 *
 * <pre>RegionHostMain FILE RECORDS_PER_BUFFER BUFFERS_PER_LANE LANES BACKSTOP_MS</pre>
 */
public final class RegionHostMain {
    private RegionHostMain() {
    }

    public static void main(String[] args) throws Exception {
        RegionSpec spec = RegionSpec.builder()
                .userPool(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]))
                .backstop(Duration.ofMillis(Long.parseLong(args[4]))).build();
        RegionHost host = RegionHost.start(Path.of(args[0]), spec, b -> { });
        System.out.println("ready " + host.file());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // until killed: the host never stops, so nothing it holds is handed back
    }
}
