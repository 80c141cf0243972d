package dev.dfx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -Ddfx.shared.dir=DIR}: the fixtures come from DIR, and a DIR without them fails instead of being ignored. */
class FixturesTest {
    private static final String PROP = "dfx.shared.dir";

    @Test
    void aSharedDirWithoutFixturesFailsTheTestsThatNeedThem(@TempDir Path tmp) {
        String before = System.getProperty(PROP);
        try {
            System.setProperty(PROP, tmp.toString());
            assertThatThrownBy(Fixtures::sharedDir).isInstanceOf(IllegalStateException.class)
                    .hasMessage("no fixtures under " + tmp + " (-Ddfx.shared.dir); expected " + tmp.resolve("fixtures"));
        } finally {
            restore(before);
        }
    }

    @Test
    void aSharedDirWithFixturesIsTheOneUsed(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("fixtures/perf"));
        String before = System.getProperty(PROP);
        try {
            System.setProperty(PROP, tmp.toString());
            assertThat(Fixtures.perf("irq-a.data")).isEqualTo(tmp.resolve("fixtures/perf/irq-a.data"));
        } finally {
            restore(before);
        }
    }

    private static void restore(String before) {
        if (before == null) {
            System.clearProperty(PROP);
        } else {
            System.setProperty(PROP, before);
        }
    }
}
