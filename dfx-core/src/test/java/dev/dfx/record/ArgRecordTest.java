package dev.dfx.record;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class ArgRecordTest {

    @Test
    void sizeAndOffsetsFollowTheReferenceTwoCacheLines() {
        assertThat(ArgRecord.LAYOUT.byteSize()).isEqualTo(128);
        assertThat(new long[] {ArgRecord.TASK_ID, ArgRecord.ROLE, ArgRecord.STAGE, ArgRecord.NDIMS,
                ArgRecord.ARG_INDEX, ArgRecord.DTYPE, ArgRecord.TRUNCATED, ArgRecord.IS_CONTIGUOUS,
                ArgRecord.PAYLOAD_OFFSET, ArgRecord.PAYLOAD_SIZE, ArgRecord.SCALAR_VALUE, ArgRecord.KIND_CODE,
                ArgRecord.FLAGS, ArgRecord.FUNC_IDS, ArgRecord.FUNC_COUNT, ArgRecord.START_OFFSET, ArgRecord.STRIDES,
                ArgRecord.SHAPES, ArgRecord.CAPTURE_NS, ArgRecord.TENSOR_ID})
                .containsExactly(0, 8, 9, 10, 12, 16, 17, 18, 24, 32, 40, 48, 49, 50, 56, 64, 72, 92, 112, 120);
        assertThat(ArgRecord.KIND).isEqualTo(BufferKind.timed(0, "arg", 128, 112));
    }

    @Test
    void tensorRecordDecodesHandBuiltBytes() {
        MemorySegment seg = Bytes.hex("""
                05 00 00 00 00 00 00 00 | 02 | 01 | 02 | 00 | 03 00 00 00 | 00 | 01 | 00 | 00 00 00 00 00
                00 01 00 00 00 00 00 00 | 20 00 00 00 00 00 00 00 | 00 00 00 00 00 00 00 00 | 00 | 01
                04 00 ff ff ff ff | 01 | 00 00 00 00 00 00 00
                10 00 00 00 00 00 00 00 | 10 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                02 00 00 00 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                e8 03 00 00 00 00 00 00 | 0c 00 00 00 00 00 00 00""");
        ArgRecord.View v = new ArgRecord.View().wrap(seg, 0);
        assertThat(v.taskId()).isEqualTo(5);
        assertThat(v.role()).isEqualTo(ArgRole.INOUT);
        assertThat(v.stage()).isEqualTo(ArgStage.AFTER_COMPLETION);
        assertThat(v.ndims()).isEqualTo(2);
        assertThat(v.argIndex()).isEqualTo(3);
        assertThat(v.dtype()).isEqualTo(Dtype.FLOAT32);
        assertThat(v.truncated()).isTrue();
        assertThat(v.contiguous()).isFalse(); // 2x4 rows 16 apart
        assertThat(v.payloadOffset()).isEqualTo(256);
        assertThat(v.payloadSize()).isEqualTo(32);
        assertThat(v.kind()).isEqualTo(ArgKind.TENSOR);
        assertThat(v.flags()).isEqualTo(ArgRecord.FLAG_MARKED);
        assertThat(new int[] {v.funcId(0), v.funcId(1), v.funcId(2), v.funcCount()})
                .containsExactly(4, 0xFFFF, 0xFFFF, 1);
        assertThat(new long[] {v.startOffset(), v.stride(0), v.stride(1), v.shape(0), v.shape(1), v.shape(2)})
                .containsExactly(16, 16, 1, 2, 4, 0);
        assertThat(v.captureNs()).isEqualTo(1000);
        assertThat(v.tensorId()).isEqualTo(12);

        MemorySegment out = Bytes.zeroed(128);
        out.fill((byte) 0x42);
        new ArgRecord.Encoder().wrap(out, 0).taskId(5).funcIds(4).argIndex(3).role(ArgRole.INOUT)
                .stage(ArgStage.AFTER_COMPLETION).kind(ArgKind.TENSOR).flags(ArgRecord.FLAG_MARKED).captureNs(1000)
                .dtype(Dtype.FLOAT32).tensorId(12).startOffset(16).region(2, new int[] {2, 4}, new int[] {16, 1})
                .payloadOffset(256).payloadSize(32).truncated(true).scalarValue(0);
        assertThat(out.toArray(JAVA_BYTE)).isEqualTo(seg.toArray(JAVA_BYTE));
    }

    @Test
    void scalarRecordRoundTrip() {
        MemorySegment out = Bytes.zeroed(128);
        out.fill((byte) 0x42);
        new ArgRecord.Encoder().wrap(out, 0).taskId(9).funcIds(-1).argIndex(2).role(ArgRole.INPUT)
                .stage(ArgStage.BEFORE_DISPATCH).kind(ArgKind.SCALAR).flags(0).captureNs(77).dtype(Dtype.FLOAT32)
                .noRegion().startOffset(0).tensorId(0).payloadOffset(ArgRecord.NO_PAYLOAD).payloadSize(0)
                .truncated(false).scalarValue(Float.floatToRawIntBits(2.5f));
        ArgRecord.View v = new ArgRecord.View().wrap(out, 0);
        assertThat(v.kind()).isEqualTo(ArgKind.SCALAR);
        assertThat(v.role()).isEqualTo(ArgRole.INPUT);
        assertThat(Float.intBitsToFloat((int) v.scalarValue())).isEqualTo(2.5f);
        assertThat(v.payloadOffset()).isEqualTo(ArgRecord.NO_PAYLOAD);
        assertThat(v.payloadSize()).isZero();
        assertThat(v.funcId(0)).isEqualTo(ArgRecord.UNKNOWN_FUNC);
        assertThat(v.ndims()).isZero();
        assertThat(v.tensorId()).isZero();
        assertThat(v.captureNs()).isEqualTo(77);
    }

    @Test
    void payloadIsTheRowMajorLogicalCopyOfAStridedRegion() {
        float[] src = new float[64];
        for (int i = 0; i < src.length; i++) {
            src[i] = i;
        }
        // the 3x2 tile at row 1, column 2 of an 8x8 matrix: elements 10, 11, 18, 19, 26, 27
        MemorySegment dst = Bytes.zeroed(64);
        long n = ArgPayload.gather(src, 10, 2, new int[] {3, 2}, new int[] {8, 1}, dst, 4, 1 << 20);
        assertThat(n).isEqualTo(24);
        ValueLayout.OfFloat le = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        float[] got = new float[6];
        for (int i = 0; i < 6; i++) {
            got[i] = dst.get(le, 4 + 4L * i);
        }
        assertThat(got).containsExactly(10, 11, 18, 19, 26, 27);
        // the same bytes by hand: 10.0f = 0x41200000 little-endian
        assertThat(dst.asSlice(4, 4).toArray(JAVA_BYTE)).isEqualTo(Bytes.hex("00 00 20 41").toArray(JAVA_BYTE));

        // a column (stride 8) cut to a 10-byte budget: two whole elements
        MemorySegment cut = Bytes.zeroed(16);
        assertThat(ArgPayload.gather(src, 3, 1, new int[] {8}, new int[] {8}, cut, 0, 10)).isEqualTo(8);
        assertThat(new float[] {cut.get(le, 0), cut.get(le, 4), cut.get(le, 8)}).containsExactly(3, 11, 0);

        assertThat(ArgPayload.contiguous(2, new int[] {3, 8}, new int[] {8, 1})).isTrue();
        assertThat(ArgPayload.contiguous(2, new int[] {3, 2}, new int[] {8, 1})).isFalse();
        assertThat(ArgPayload.contiguous(2, new int[] {1, 2}, new int[] {8, 1})).isTrue();
        assertThat(ArgPayload.numel(3, new int[] {2, 3, 4})).isEqualTo(24);
    }
}
