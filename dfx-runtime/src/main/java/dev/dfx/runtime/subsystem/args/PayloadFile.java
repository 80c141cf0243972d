package dev.dfx.runtime.subsystem.args;

import dev.dfx.io.OwnerOnly;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code args/args.bin}: payloads appended back to back, each at the offset {@link #append} returns (what
 * {@code args.json} calls {@code bin_offset}). Staged in a 1 MiB heap buffer, so one system call carries many
 * small payloads; a payload is copied out of its arena before {@link #append} returns, which is what lets the
 * arena be acknowledged. Thread-safe (one lock per append); {@link #close()} once every collector stopped.
 */
final class PayloadFile implements AutoCloseable {
    private static final int STAGING = 1 << 20;

    private final FileChannel channel;
    private final ReentrantLock lock = new ReentrantLock();
    private final byte[] staging = new byte[STAGING];
    private final MemorySegment stagingSegment = MemorySegment.ofArray(staging);
    private int staged;
    private long bytes;

    PayloadFile(Path file) throws IOException {
        channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.forNewFile(file));
    }

    /**
     * @param payload bytes to append (copied before the call returns)
     * @return the payload's offset in the file
     * @throws IOException when the file cannot be written
     */
    long append(MemorySegment payload) throws IOException {
        long n = payload.byteSize();
        lock.lock();
        try {
            long at = bytes;
            if (staged + n > STAGING) {
                drain();
            }
            if (n > STAGING) {
                ByteBuffer b = payload.asByteBuffer();
                while (b.hasRemaining()) {
                    channel.write(b);
                }
            } else {
                MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 0, stagingSegment, ValueLayout.JAVA_BYTE, staged, n);
                staged += (int) n;
            }
            bytes += n;
            return at;
        } finally {
            lock.unlock();
        }
    }

    /** @return bytes appended so far */
    long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    private void drain() throws IOException {
        ByteBuffer b = ByteBuffer.wrap(staging, 0, staged);
        while (b.hasRemaining()) {
            channel.write(b);
        }
        staged = 0;
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (channel.isOpen()) {
                drain();
                channel.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
