package dev.dfx.perf.read;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Test helper: rebuilds a little-endian file-mode perf.data with its data-section records changed (records
 * replaced, inserted or dropped), moving the feature table and fixing {@code data.size} and every feature
 * section offset, so that the result is a valid file. Records are raw bytes including their header.
 */
final class Rewriter {
    private Rewriter() {
    }

    /** @return the records of the data section, each as its bytes */
    static List<byte[]> records(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int off = (int) b.getLong(40);
        int end = off + (int) b.getLong(48);
        List<byte[]> out = new ArrayList<>();
        while (off < end) {
            int size = b.getShort(off + 6) & 0xffff;
            out.add(Arrays.copyOfRange(file, off, off + size));
            off += size;
        }
        return out;
    }

    /** @return {@code file} with its data section replaced by {@code edit(records)} */
    static byte[] rewrite(byte[] file, UnaryOperator<List<byte[]>> edit) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int dataOff = (int) b.getLong(40);
        int dataEnd = dataOff + (int) b.getLong(48);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (byte[] r : edit.apply(records(file))) {
            data.writeBytes(r);
        }
        int delta = data.size() - (dataEnd - dataOff);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(file, 0, dataOff);
        out.writeBytes(data.toByteArray());
        out.write(file, dataEnd, file.length - dataEnd);
        ByteBuffer o = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        o.putLong(48, data.size());
        int table = dataOff + data.size();
        int features = 0;
        for (int i = 0; i < 4; i++) {
            features += Long.bitCount(o.getLong(72 + 8 * i)) - (i == 0 && (o.getLong(72) & 1) != 0 ? 1 : 0);
        }
        for (int i = 0; i < features; i++) {
            int at = table + 16 * i;
            o.putLong(at, o.getLong(at) + delta);
        }
        return o.array();
    }
}
