package dev.dfx.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ObjIntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SubmitRecord#SPANS}: the chunk writer's zero-block scan restricted to a submit record's used deps and tensor
 * slots finds the same blocks, and writes the same chunk, as a scan of every byte: for a hand-worked flood task
 * (blocks 0, 8 and 9-12) and for seeded random submits with 0-32 tensors and 0-700 explicit deps (overflow chains
 * included), encoded into zeroed slots and into slots full of stale bytes.
 */
class SubmitRecordSpansTest {
    private static final int[] SHAPE = {64, 1, 1, 1, 1};
    private static final int[] STRIDES = {1, 0, 0, 0, 0};

    @TempDir
    Path dir;

    /** What one append reported and wrote. */
    private record Written(List<long[]> bitmaps, byte[] file, byte[] records) {
    }

    private Written write(String name, MemorySegment records, int count, boolean spans) throws Exception {
        List<long[]> bitmaps = new ArrayList<>();
        ObjIntConsumer<long[]> sink = (bits, blockBytes) -> bitmaps.add(bits);
        Path file = dir.resolve(name);
        try (ChunkWriter w = ChunkWriter.create(file, "deps", List.of(SubmitRecord.KIND))) {
            w.append(0, 0, 0, records, count, spans ? SubmitRecord.SPANS : null, sink);
        }
        byte[] back;
        try (ChunkReader r = ChunkReader.open(file)) {
            back = r.records(r.chunks().getFirst()).toArray(ValueLayout.JAVA_BYTE);
        }
        byte[] bytes = Files.readAllBytes(file);
        return new Written(bitmaps, Arrays.copyOfRange(bytes, 40, bytes.length), back);  // after the run id
    }

    /** A flood task: 2 tensors (in x, out y), no deps, one kernel. */
    private static void flood(SubmitRecord.Encoder e, MemorySegment seg, long off, boolean zeroed, long task) {
        e.wrap(seg, off, zeroed).taskId(task).flags(0).tensorCount(2).explicitDeps(new long[0], 0)
                .kernelIds(new int[] {3}).blockNum(1);
        e.argType(0, ArgRole.INPUT);
        e.tensor(0).tensorId(1).bufferNumel(1 << 22).startOffset(task * 64).version(0).dtype(Dtype.FLOAT32)
                .role(ArgRole.INPUT).flags(0).region(1, SHAPE, STRIDES).argIndex(0).name("x");
        e.argType(1, ArgRole.OUTPUT);
        e.tensor(1).tensorId(2).bufferNumel(1 << 22).startOffset(task * 64).version((int) task).dtype(Dtype.FLOAT32)
                .role(ArgRole.OUTPUT).flags(0).region(1, SHAPE, STRIDES).argIndex(1).name("y");
    }

    /**
     * Spans [0, 16) and [528, 832): the header (no deps), then arg types, kernel ids, block number (block 8) and the
     * two 128-byte tensor slots at 576 and 704 (blocks 9-12); every one of those blocks holds a non-zero byte.
     */
    @Test
    void aFloodTaskIsScannedInItsSixUsedBlocks() throws Exception {
        MemorySegment seg = Arena.ofAuto().allocate(SubmitRecord.SIZE);
        flood(new SubmitRecord.Encoder(), seg, 0, true, 5);
        int[] spans = new int[8];
        assertThat(SubmitRecord.SPANS.spans(seg, 0, spans)).isEqualTo(2);
        assertThat(Arrays.copyOf(spans, 4)).containsExactly(0, 16, 528, 832);
        Written sparse = write("flood-spans.dfx", seg, 1, true);
        Written full = write("flood-full.dfx", seg, 1, false);
        assertThat(sparse.bitmaps().getFirst()).as("blocks 0 and 8-12 of 73")
                .containsExactly(0b1_1111_0000_0001L, 0L);
        assertThat(full.bitmaps().getFirst()).containsExactly(sparse.bitmaps().getFirst());
        assertThat(sparse.file()).isEqualTo(full.file());
        assertThat(sparse.records()).isEqualTo(seg.toArray(ValueLayout.JAVA_BYTE));
    }

    @ParameterizedTest(name = "zeroed slots: {0}")
    @ValueSource(booleans = {true, false})
    void randomSubmitsGiveTheSameChunkAsAFullScan(boolean zeroed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(zeroed ? 17 : 18);
        int slots = 512;
        MemorySegment seg = Arena.ofAuto().allocate((long) slots * SubmitRecord.SIZE);
        if (!zeroed) {
            byte[] stale = new byte[(int) seg.byteSize()];
            rnd.nextBytes(stale);
            MemorySegment.copy(MemorySegment.ofArray(stale), 0, seg, 0, stale.length);
        }
        SubmitRecord.Encoder e = new SubmitRecord.Encoder();
        int used = 0;
        int chains = 0;
        while (true) {
            int deps = rnd.nextInt(8) == 0 ? 65 + rnd.nextInt(640) : rnd.nextInt(65);
            int len = SubmitRecord.chainLength(deps);
            if (used + len > slots) {
                break;
            }
            chains += len > 1 ? 1 : 0;
            long[] ids = rnd.longs(deps, 1, Long.MAX_VALUE).toArray();
            int tensors = rnd.nextInt(SubmitRecord.MAX_TENSORS + 1);
            e.wrap(seg, (long) used * SubmitRecord.SIZE, zeroed).taskId(rnd.nextLong(1, Long.MAX_VALUE))
                    .flags(rnd.nextInt(2)).tensorCount(tensors).explicitDeps(ids, deps)
                    .kernelIds(new int[] {rnd.nextInt(100)}).blockNum(1 + rnd.nextInt(4));
            for (int t = 0; t < tensors; t++) {
                ArgRole role = ArgRole.values()[rnd.nextInt(ArgRole.values().length)];
                e.argType(t, role);
                e.tensor(t).tensorId(rnd.nextLong(1, 1000)).bufferNumel(rnd.nextLong(1, 1 << 30))
                        .startOffset(rnd.nextLong(1 << 20)).version(rnd.nextInt(1000)).dtype(Dtype.FLOAT32)
                        .role(role).flags(rnd.nextInt(2)).region(1 + rnd.nextInt(5), SHAPE, STRIDES)
                        .argIndex(t + rnd.nextInt(3)).name("t" + rnd.nextInt(1 << 20));
            }
            used += len;
        }
        if (!zeroed) {  // the unused tail of the buffer holds no records: clear it, as a lane only hands on claims
            seg.asSlice((long) used * SubmitRecord.SIZE).fill((byte) 0);
        }
        assertThat(chains).as("overflow chains among the records").isPositive();
        Written sparse = write("random-spans.dfx", seg, slots, true);
        Written full = write("random-full.dfx", seg, slots, false);
        assertThat(sparse.bitmaps().getFirst()).containsExactly(full.bitmaps().getFirst());
        assertThat(sparse.file()).isEqualTo(full.file());
        assertThat(sparse.records()).isEqualTo(seg.toArray(ValueLayout.JAVA_BYTE));
    }

    /** The contract's edge: a stray byte in a block no span overlaps is not read, so it is stored as zero. */
    @Test
    void aByteOutsideTheSpansIsNotRead() throws Exception {
        MemorySegment seg = Arena.ofAuto().allocate(SubmitRecord.SIZE);
        flood(new SubmitRecord.Encoder(), seg, 0, true, 9);
        seg.set(ValueLayout.JAVA_BYTE, SubmitRecord.tensorOffset(0, 5) + 3, (byte) 7);  // slot 5 of a 2-tensor task
        Written sparse = write("stray.dfx", seg, 1, true);
        assertThat(sparse.bitmaps().getFirst()).containsExactly(0b1_1111_0000_0001L, 0L);
        byte[] expected = seg.toArray(ValueLayout.JAVA_BYTE);
        expected[(int) SubmitRecord.tensorOffset(0, 5) + 3] = 0;
        assertThat(sparse.records()).isEqualTo(expected);
    }
}
