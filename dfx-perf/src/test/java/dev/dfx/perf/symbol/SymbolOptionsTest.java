package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The default build-id cache is where perf 6.1's {@code set_buildid_dir} puts it: from the environment's HOME. */
class SymbolOptionsTest {
    @Test
    void theBuildIdCacheFollowsTheEnvironmentsHomeAsPerfs() {
        assertThat(SymbolOptions.buildIdCache("/tmp/fakehome")).isEqualTo(Path.of("/tmp/fakehome/.debug"));
        assertThat(SymbolOptions.buildIdCache("")).as("perf joins \"%s/%s\": an empty HOME is the root")
                .isEqualTo(Path.of("/.debug"));
        assertThat(SymbolOptions.buildIdCache(null)).as("HOME unset: perf uses .debug as a relative path")
                .isEqualTo(Path.of(".debug"));
        String home = System.getenv("HOME");
        assertThat(SymbolOptions.defaults().buildIdDir()).isEqualTo(SymbolOptions.buildIdCache(home));
    }
}
