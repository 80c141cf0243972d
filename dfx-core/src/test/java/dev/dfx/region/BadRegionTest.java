package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.pipeline.RegionLayout;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region that is not one, of another ABI version, or too small: the C library says so in one stderr line naming
 * the file and field and records nothing (the program runs normally); the Java reader refuses it with the same
 * facts.
 */
class BadRegionTest {
    @TempDir
    Path dir;

    private Path realRegion() {
        Path f = dir.resolve("real.dfxr");
        try (RegionHost h = RegionHost.start(f, RegionSpec.builder().userPool(64, 2, 2).build(), b -> { })) {
            return h.file();
        }
    }

    private void refusedByBoth(Path file, String cLine, String javaMessage) throws Exception {
        CProducer.Run run = CProducer.start(file, dir, "2", "1000");
        assertThat(run.waitFor()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=0\n");
        assertThat(run.stderr()).isEqualTo("dfx: " + file + ": " + cLine + "; not recording\n");
        assertThatThrownBy(() -> RegionHeader.read(file)).isInstanceOf(RegionFormatException.class)
                .hasMessage(file + ": " + javaMessage);
    }

    @Test
    void notARegion() throws Exception {
        Path f = dir.resolve("random.bin");
        byte[] junk = new byte[100];
        new SplittableRandom(10).nextBytes(junk);
        junk[0] = 0;  // whatever the seed, not "DFXP"
        Files.write(f, junk);
        int magic = ByteBuffer.wrap(junk).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        refusedByBoth(f, "not a dfx region (field magic, byte 0: expected 0x50584644 \"DFXP\")",
                String.format("not a dfx region: magic 0x%08x (field magic, byte 0), expected 0x50584644 (\"DFXP\")",
                        magic));
    }

    @Test
    void anotherAbiVersion() throws Exception {
        Path f = realRegion();
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 1), RegionLayout.H_VERSION);
        }
        refusedByBoth(f, "region ABI version 1 (field version, byte 4); this dfx.h writes version 3",
                "region ABI version 1 (field version, byte 4); this dfx reads version 3");
    }

    @Test
    void tooSmallForWhatItsHeaderSays() throws Exception {
        Path f = realRegion();
        long regionBytes = RegionHeader.read(f).layout().regionBytes();
        long fileBytes = RegionHeader.read(f).fileBytes();
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(8192);
        }
        refusedByBoth(f, "region too small: the file has 8192 bytes; field regionBytes (byte 72) needs " + regionBytes
                        + " and field fileBytes (byte 160) " + fileBytes,
                "region too small: the file has 8192 bytes; field regionBytes (byte 72) needs " + regionBytes
                        + " and field fileBytes (byte 160) " + fileBytes);
    }

    @Test
    void withoutTheVariableEveryCallIsANoOp() throws Exception {
        CProducer.Run run = CProducer.start(null, dir, "2", "100000");
        assertThat(run.waitFor()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=0\n");
        assertThat(run.stderr()).isEmpty();
    }

    @Test
    void theRegionFileIsPrivate() throws Exception {
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(realRegion())))
                .isEqualTo("rw-------");
    }
}
