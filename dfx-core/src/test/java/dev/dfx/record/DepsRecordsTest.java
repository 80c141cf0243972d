package dev.dfx.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.dfx.chunk.BufferKind;
import dev.dfx.error.BadInputException;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DepsRecordsTest {

    @Test
    void sizesAndOffsetsAreTheReferenceOnes() {
        assertThat(SubmitRecord.LAYOUT.byteSize()).isEqualTo(4672);
        assertThat(new long[] {SubmitRecord.TASK_ID, SubmitRecord.FLAGS, SubmitRecord.TENSOR_COUNT,
                SubmitRecord.EXPLICIT_DEP_COUNT, SubmitRecord.EXPLICIT_DEPS, SubmitRecord.ARG_TYPES,
                SubmitRecord.KERNEL_ID, SubmitRecord.BLOCK_NUM, SubmitRecord.TENSORS})
                .containsExactly(0, 8, 12, 14, 16, 528, 560, 572, 576);
        assertThat(DepsOverflowRecord.LAYOUT.byteSize()).isEqualTo(4672);
        assertThat(new long[] {DepsOverflowRecord.TASK_ID, DepsOverflowRecord.FLAGS, DepsOverflowRecord.DEP_COUNT,
                DepsOverflowRecord.RESERVED, DepsOverflowRecord.DEPS}).containsExactly(0, 8, 12, 14, 16);
        assertThat(TensorSlot.LAYOUT.byteSize()).isEqualTo(128);
        assertThat(new long[] {TensorSlot.TENSOR_ID, TensorSlot.BUFFER_NUMEL, TensorSlot.START_OFFSET,
                TensorSlot.VERSION, TensorSlot.DTYPE, TensorSlot.NDIMS, TensorSlot.ROLE, TensorSlot.FLAGS,
                TensorSlot.SHAPE, TensorSlot.STRIDES, TensorSlot.ARG_INDEX, TensorSlot.RESERVED, TensorSlot.NAME})
                .containsExactly(0, 8, 16, 24, 28, 29, 30, 31, 32, 52, 72, 76, 96);
        assertThat(SubmitRecord.tensorOffset(0, 31)).isEqualTo(576 + 31 * 128);
        assertThat(SubmitRecord.KIND).isEqualTo(BufferKind.untimed(0, "submit", 4672));
        assertThat(SubmitRecord.KIND.timestampWidth()).isZero();
    }

    @Test
    void chainLengthCountsOverflowRecordsOf582Deps() {
        assertThat(SubmitRecord.chainLength(0)).isEqualTo(1);
        assertThat(SubmitRecord.chainLength(64)).isEqualTo(1);
        assertThat(SubmitRecord.chainLength(65)).isEqualTo(2);
        assertThat(SubmitRecord.chainLength(64 + 582)).isEqualTo(2);
        assertThat(SubmitRecord.chainLength(64 + 583)).isEqualTo(3);
    }

    @Test
    void decodesAHandBuiltHeaderAndTensorSlot() {
        StringBuilder hex = new StringBuilder();
        hex.append("03 00 00 00 01 00 00 00 | 01 00 00 00 | 01 00 | 02 00"); // task (1<<32)|3, manual, 1 tensor, 2 deps
        hex.append("0a 00 00 00 00 00 00 00 | 0b 00 00 00 01 00 00 00").append(Bytes.repeat("00", 62 * 8));
        hex.append("02").append(Bytes.repeat("00", 31)); // arg_types[0] = INOUT
        hex.append("07 00 00 00 ff ff ff ff ff ff ff ff | 01 00 00 00"); // kernel ids 7,-1,-1; block_num 1
        // tensor slot 0: id 9, numel 4096, start 64, version 2, FLOAT32, 2 dims, INOUT, marked
        hex.append("09 00 00 00 00 00 00 00 | 00 10 00 00 00 00 00 00 | 40 00 00 00 00 00 00 00 | 02 00 00 00");
        hex.append("00 02 02 01 | 04 00 00 00 08 00 00 00").append(Bytes.repeat("00", 12));
        hex.append("40 00 00 00 01 00 00 00").append(Bytes.repeat("00", 12));
        hex.append("05 00 00 00").append(Bytes.repeat("00", 20)).append("43").append(Bytes.repeat("00", 31)); // "C"
        hex.append(Bytes.repeat("00", 31 * 128));
        MemorySegment seg = Bytes.hex(hex.toString());
        assertThat(seg.byteSize()).isEqualTo(4672);

        SubmitRecord.View v = new SubmitRecord.View().wrap(seg, 0);
        assertThat(v.taskId()).isEqualTo((1L << 32) | 3);
        assertThat(v.flags()).isEqualTo(SubmitRecord.IN_MANUAL_SCOPE);
        assertThat(v.tensorCount()).isEqualTo(1);
        assertThat(v.explicitDepCount()).isEqualTo(2);
        assertThat(SubmitRecord.readExplicitDeps(seg, 0)).containsExactly(10, (1L << 32) | 11);
        assertThat(v.argType(0)).isEqualTo(ArgRole.INOUT);
        assertThat(new int[] {v.kernelId(0), v.kernelId(1), v.kernelId(2)}).containsExactly(7, -1, -1);
        assertThat(v.blockNum()).isEqualTo(1);
        TensorSlot.View t = v.tensor(0, new TensorSlot.View());
        assertThat(new long[] {t.tensorId(), t.bufferNumel(), t.startOffset(), t.version(), t.ndims(), t.flags(),
                t.shape(0), t.shape(1), t.shape(2), t.stride(0), t.stride(1), t.argIndex()})
                .containsExactly(9, 4096, 64, 2, 2, 1, 4, 8, 0, 64, 1, 5);
        assertThat(t.dtype()).isEqualTo(Dtype.FLOAT32);
        assertThat(t.role()).isEqualTo(ArgRole.INOUT);
        assertThat(t.name()).isEqualTo("C");

        MemorySegment out = Bytes.zeroed(4672);
        out.fill((byte) 0x11);
        SubmitRecord.Encoder e = new SubmitRecord.Encoder().wrap(out, 0).taskId((1L << 32) | 3)
                .flags(SubmitRecord.IN_MANUAL_SCOPE).tensorCount(1).explicitDeps(new long[] {10, (1L << 32) | 11}, 2)
                .kernelIds(new int[] {7}).blockNum(1).argType(0, ArgRole.INOUT);
        e.tensor(0).tensorId(9).bufferNumel(4096).startOffset(64).version(2).dtype(Dtype.FLOAT32).role(ArgRole.INOUT)
                .flags(TensorSlot.FLAG_MARKED).region(2, new int[] {4, 8}, new int[] {64, 1}).argIndex(5).name("C");
        // the 0x11 bytes of the unused deps, arg types and tensor slots are cleared by the writer
        assertThat(out.toArray(JAVA_BYTE))
                .isEqualTo(seg.toArray(JAVA_BYTE));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 64, 65, 300, 646, 647, 2000})
    void explicitDepsRoundTripThroughTheOverflowChain(int depCount) {
        SplittableRandom rnd = new SplittableRandom(depCount);
        long[] deps = LongStream.generate(rnd::nextLong).limit(depCount).toArray();
        int chain = SubmitRecord.chainLength(depCount);
        MemorySegment seg = Bytes.zeroed((long) SubmitRecord.SIZE * (chain + 1));
        new SubmitRecord.Encoder().wrap(seg, SubmitRecord.SIZE).taskId(77).flags(0).tensorCount(0)
                .explicitDeps(deps, depCount).kernelIds(new int[] {1, 2, 3}).blockNum(1);
        assertThat(SubmitRecord.readExplicitDeps(seg, SubmitRecord.SIZE)).containsExactly(deps);

        SubmitRecord.View head = new SubmitRecord.View().wrap(seg, SubmitRecord.SIZE);
        assertThat((head.flags() & SubmitRecord.HAS_OVERFLOW) != 0).isEqualTo(depCount > 64);
        DepsOverflowRecord.View ov = new DepsOverflowRecord.View();
        for (int k = 1; k < chain; k++) {
            ov.wrap(seg, (long) SubmitRecord.SIZE * (1 + k));
            assertThat(ov.taskId()).isEqualTo(77);
            int expectFlags = SubmitRecord.OVERFLOW | (k == chain - 1 ? SubmitRecord.LAST_OVERFLOW : 0);
            assertThat(ov.flags()).isEqualTo(expectFlags);
            assertThat(ov.depCount()).isEqualTo(k < chain - 1 ? 582 : depCount - 64 - 582 * (chain - 2));
        }
    }

    /**
     * Writing only the non-zero fields into a zeroed slot (a zeroed pool) gives the same bytes as writing the whole
     * record over old data: deps with and without overflow chains, 0..32 tensors, 1..5 dims, short and long names.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void aSparseWriteIntoAZeroedSlotEqualsAFullWriteOverOldData(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int depCount = switch ((int) (seed % 3)) {
            case 0 -> rnd.nextInt(65);
            case 1 -> 65 + rnd.nextInt(600);
            default -> rnd.nextInt(8);
        };
        long[] deps = LongStream.generate(rnd::nextLong).limit(depCount).toArray();
        int tensors = rnd.nextInt(SubmitRecord.MAX_TENSORS + 1);
        int chain = SubmitRecord.chainLength(depCount);
        MemorySegment sparse = Bytes.zeroed((long) SubmitRecord.SIZE * chain);
        MemorySegment full = Bytes.zeroed((long) SubmitRecord.SIZE * chain);
        for (long i = 0; i < full.byteSize(); i += 8) {
            full.set(Le.I64, i, rnd.nextLong() | 1);  // old records: no zero byte run is left to chance
        }
        int[] kernels = new int[rnd.nextInt(4)];
        int flags = rnd.nextInt(2);
        SubmitRecord.Encoder sparseRecord = new SubmitRecord.Encoder().wrap(sparse, 0, true).taskId(seed).flags(flags)
                .tensorCount(tensors).explicitDeps(deps, depCount).kernelIds(kernels).blockNum(3);
        SubmitRecord.Encoder fullRecord = new SubmitRecord.Encoder().wrap(full, 0).taskId(seed).flags(flags)
                .tensorCount(tensors).explicitDeps(deps, depCount).kernelIds(kernels).blockNum(3);
        for (int t = 0; t < tensors; t++) {
            int ndims = 1 + rnd.nextInt(TensorSlot.MAX_DIMS);
            int[] shape = rnd.ints(ndims, 1, 1 << 20).toArray();
            int[] strides = rnd.ints(ndims, 1, 1 << 20).toArray();
            String name = "t" + "x".repeat(rnd.nextInt(40));
            long id = rnd.nextLong();
            Dtype dtype = Dtype.values()[rnd.nextInt(Dtype.values().length)];
            ArgRole role = ArgRole.values()[rnd.nextInt(ArgRole.values().length)];
            for (SubmitRecord.Encoder e : List.of(sparseRecord, fullRecord)) {
                e.argType(t, role).tensor(t).tensorId(id).bufferNumel(1 << 20).startOffset(7).version(2).dtype(dtype)
                        .role(role).flags(1).region(ndims, shape, strides).argIndex(t).name(name);
            }
        }
        assertThat(sparse.toArray(JAVA_BYTE))
                .isEqualTo(full.toArray(JAVA_BYTE));
        assertThat(SubmitRecord.readExplicitDeps(sparse, 0)).containsExactly(deps);
    }

    /** The chain's task id and flags come out the same whichever order the producer sets them in. */
    @ParameterizedTest
    @ValueSource(ints = {0, 64, 65, 700})
    void theSubmitSettersCanComeInAnyOrder(int depCount) {
        long[] deps = LongStream.range(100, 100 + depCount).toArray();
        int chain = SubmitRecord.chainLength(depCount);
        MemorySegment forward = Bytes.zeroed((long) SubmitRecord.SIZE * chain);
        MemorySegment backward = Bytes.zeroed((long) SubmitRecord.SIZE * chain);
        forward.fill((byte) 0x6b);
        backward.fill((byte) 0x6b);
        int flags = SubmitRecord.IN_MANUAL_SCOPE | SubmitRecord.LAST_OVERFLOW; // an overflow flag is never stored
        new SubmitRecord.Encoder().wrap(forward, 0).taskId(42).flags(flags).tensorCount(0).explicitDeps(deps, depCount)
                .kernelIds(new int[] {5}).blockNum(1);
        new SubmitRecord.Encoder().wrap(backward, 0).blockNum(1).kernelIds(new int[] {5}).explicitDeps(deps, depCount)
                .tensorCount(0).flags(flags).taskId(42);
        assertThat(backward.toArray(JAVA_BYTE)).isEqualTo(forward.toArray(JAVA_BYTE));
        SubmitRecord.View v = new SubmitRecord.View().wrap(backward, 0);
        assertThat(v.flags()).isEqualTo(SubmitRecord.IN_MANUAL_SCOPE | (depCount > 64 ? SubmitRecord.HAS_OVERFLOW : 0));
        assertThat(SubmitRecord.readExplicitDeps(backward, 0)).containsExactly(deps);
    }

    @Test
    void aBrokenChainIsBadInputNamingTheOffset() {
        long[] deps = LongStream.range(0, 100).toArray();
        MemorySegment seg = Bytes.zeroed(2L * SubmitRecord.SIZE);
        new SubmitRecord.Encoder().wrap(seg, 0).taskId(5).flags(0).tensorCount(0).explicitDeps(deps, 100)
                .kernelIds(new int[0]).blockNum(1);
        seg.set(Le.I64, SubmitRecord.SIZE, 6L); // the overflow record now claims another task
        assertThatThrownBy(() -> SubmitRecord.readExplicitDeps(seg, 0)).isInstanceOf(BadInputException.class)
                .hasMessage("deps overflow record at byte 4672: expected an overflow record of task 0x5, found task 0x6 flags 12");
        assertThatThrownBy(() -> SubmitRecord.readExplicitDeps(seg.asSlice(0, SubmitRecord.SIZE), 0))
                .isInstanceOf(BadInputException.class)
                .hasMessage("deps overflow record at byte 4672: missing (chain of task 0x5 cut short after 64 of 100 deps)");
    }
}
