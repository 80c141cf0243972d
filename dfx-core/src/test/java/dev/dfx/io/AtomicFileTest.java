package dev.dfx.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    Path dir;

    private static String text(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    private long files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void writesTheWholeFileAndReturnsTheBodysResult() throws IOException {
        Path f = dir.resolve("out.json");
        Files.writeString(f, "old");
        int n = AtomicFile.write(f, out -> {
            out.write("new content".getBytes(StandardCharsets.UTF_8));
            return 11;
        });
        assertThat(n).isEqualTo(11);
        assertThat(text(f)).isEqualTo("new content");
        assertThat(files()).as("no temporary file left").isEqualTo(1);
    }

    @Test
    void aFailingBodyLeavesTheOldFileAndNoTemporaryFile() throws IOException {
        Path f = dir.resolve("trace.json");
        Files.writeString(f, "a good trace");
        assertThatThrownBy(() -> AtomicFile.write(f, out -> {
            out.write(new byte[100_000]); // past the buffer: bytes reached the temporary file
            throw new IOException("No space left on device");
        })).hasMessage("No space left on device");
        assertThat(text(f)).isEqualTo("a good trace");
        assertThat(files()).isEqualTo(1);

        assertThatThrownBy(() -> AtomicFile.write(dir.resolve("new.json"), out -> {
            throw new IllegalStateException("damaged input");
        })).hasMessage("damaged input");
        assertThat(files()).as("neither the target nor a temporary file").isEqualTo(1);
    }

    @Test
    void aDirectoryOrAMissingFolderIsRefusedNamingTheTarget() {
        assertThatThrownBy(() -> AtomicFile.write(dir, out -> null)).isInstanceOf(FileSystemException.class)
                .hasMessage(dir + ": is a directory");
        Path orphan = dir.resolve("nodir").resolve("x.json");
        assertThatThrownBy(() -> AtomicFile.write(orphan, out -> null)).isInstanceOf(NoSuchFileException.class)
                .hasMessage(orphan.toAbsolutePath().toString());
    }

    @Test
    void aDeviceIsWrittenDirectlyNotReplaced() throws IOException {
        Path devNull = Path.of("/dev/null");
        if (!Files.exists(devNull)) {
            return; // not a Unix-like system
        }
        long n = AtomicFile.write(devNull, out -> {
            out.write(new byte[10]);
            return 10L;
        });
        assertThat(n).isEqualTo(10);
        assertThat(Files.isRegularFile(devNull)).isFalse();
    }
}
