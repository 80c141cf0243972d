package dev.dfx.perf.write;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array written little-endian (perf.data written on a little-endian host), with the few
 * big-endian stores the vpa-dtl payload needs. Not thread-safe.
 */
final class LeBytes {
    private byte[] b = new byte[256];
    private int n;

    /** @return bytes written so far */
    int size() {
        return n;
    }

    LeBytes u8(int v) {
        ensure(1);
        b[n++] = (byte) v;
        return this;
    }

    LeBytes u16(int v) {
        return u8(v).u8(v >>> 8);
    }

    LeBytes u32(long v) {
        return u16((int) v).u16((int) (v >>> 16));
    }

    LeBytes u64(long v) {
        return u32(v).u32(v >>> 32);
    }

    LeBytes be16(int v) {
        return u8(v >>> 8).u8(v);
    }

    LeBytes be32(long v) {
        return be16((int) (v >>> 16)).be16((int) v);
    }

    LeBytes be64(long v) {
        return be32(v >>> 32).be32(v);
    }

    LeBytes bytes(byte[] src) {
        ensure(src.length);
        System.arraycopy(src, 0, b, n, src.length);
        n += src.length;
        return this;
    }

    LeBytes zeros(int count) {
        ensure(count);
        n += count;
        return this;
    }

    /** NUL-terminated ASCII. */
    LeBytes cString(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8)).u8(0);
    }

    /** A C char array of {@code width} bytes: the string, truncated, NUL padded (e.g. {@code char comm[16]}). */
    LeBytes chars(String s, int width) {
        byte[] src = s.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(src.length, width);
        ensure(width);
        System.arraycopy(src, 0, b, n, len);
        n += width;
        return this;
    }

    /** Pads with zeros up to a multiple of {@code align} bytes. */
    LeBytes align(int align) {
        return zeros((align - n % align) % align);
    }

    /** Overwrites the u16 at {@code at} (e.g. a record's size once its body is known). */
    void putU16(int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
    }

    byte[] toArray() {
        return Arrays.copyOf(b, n);
    }

    private void ensure(int more) {
        if (n + more > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, n + more));
        }
    }
}
