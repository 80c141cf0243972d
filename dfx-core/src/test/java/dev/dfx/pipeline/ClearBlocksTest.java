package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HostTransport#clearBlocks}: writes zeros over exactly the marked blocks (runs inside a word, a run that
 * reaches bit 63, runs across words, a short last block, bits past the cleared bytes) and over nothing else, checked
 * byte by byte against the bitmap for random bitmaps.
 */
class ClearBlocksTest {
    private static final int BLOCK = 64;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void clearsExactlyTheMarkedBlocks(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int blocks = 200;
        long bytes = (long) (blocks - 1) * BLOCK + 1 + rnd.nextInt(BLOCK);  // the last block is short
        MemorySegment device = MemorySegment.ofArray(new byte[blocks * BLOCK]);
        device.fill((byte) 0x5A);
        long[] bits = new long[(blocks + 63) / 64 + 1];  // one word more than needed: bits past the bytes
        int density = rnd.nextInt(101);
        for (int b = 0; b < bits.length * 64; b++) {
            if (rnd.nextInt(100) < density) {
                bits[b / 64] |= 1L << b;
            }
        }
        bits[0] |= 0xFL << 60;  // a run that reaches bit 63
        bits[1] |= 0x3L;        // ... and goes on in the next word
        HostBuffer buffer = new HostBuffer(0, 1, BLOCK, device, device);
        HostTransport transport = new SharedTransport(MemorySegment.ofArray(new byte[64]), null);
        transport.clearBlocks(buffer, bytes, bits, BLOCK);
        for (long at = 0; at < device.byteSize(); at++) {
            long block = at / BLOCK;
            boolean marked = (bits[(int) (block / 64)] >>> (block % 64) & 1) == 1;
            byte expected = marked && at < bytes ? 0 : (byte) 0x5A;
            assertThat(device.get(ValueLayout.JAVA_BYTE, at)).as("byte %d (block %d)", at, block).isEqualTo(expected);
        }
    }
}
