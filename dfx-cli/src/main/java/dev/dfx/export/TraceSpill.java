package dev.dfx.export;

import dev.dfx.error.IoErrors;
import dev.dfx.io.AtomicFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a deferred part of a trace ({@link ChromeTracePart}) waits for its join: in memory up to a limit, in heap
 * blocks of {@value #BLOCK} bytes, and past it in a spill file (made empty by the caller, in the temporary directory),
 * so that memory stays bounded whatever the part's size. Held in memory, a part is not written to a file, read back
 * and deleted: steps that come after the part is drawn, on the one thread left running (and a deletion waits for the
 * writeback of the file's pages); the join writes the blocks out in one pass.
 *
 * <p>Thread-safety: written and closed by one thread (the part's), then read by another ({@link #writeTo}, after
 * the part's task completed: that completion orders the writes before the reads), then {@link #discard}ed; not for
 * concurrent use.
 */
final class TraceSpill extends OutputStream {
    /** Bytes a block holds: writes of 64 KiB or more from it pass a buffered stream's buffer by. */
    static final int BLOCK = 1 << 20;
    /** Bytes through the spill file's buffer. */
    private static final int FILE_BUFFER = 1 << 16;

    private final long memoryLimit;
    private final List<byte[]> blocks = new ArrayList<>();
    /** Bytes used of the last block. */
    private int fill = BLOCK;
    /** Bytes in memory. */
    private long inMemory;
    /** The spill file, written once the memory is full. */
    private final Path file;
    /** The spill file's stream, opened when the memory is full; null until then. */
    private OutputStream fileOut;
    private long inFile;

    /**
     * @param file        an empty file for what does not fit in memory; deleted by {@link #discard}, and by an
     *                    export's exit hook ({@link AtomicFile#discardOnExit()}) when a signal ends the JVM first
     * @param memoryLimit the most bytes held in memory (whole blocks) before the rest goes to the file
     */
    TraceSpill(Path file, long memoryLimit) {
        this.file = file;
        this.memoryLimit = memoryLimit;
        AtomicFile.inFlight(file);
    }

    /**
     * @return the limit of one part for a JVM whose largest heap is {@code maxHeap} bytes: a sixty-fourth of it, at
     *         most 64 MiB (a trace is drawn with up to three parts at once, beside the deps replay; the largest part
     *         of flood's recording, 65,536 tasks, its phase bars and queue depths, is 24 MB); under a block (a heap
     *         under 64 MiB) every byte goes to the spill file
     */
    static long memoryLimit(long maxHeap) {
        return Math.min(64L << 20, maxHeap / 64);
    }

    /** One byte, as {@link #write(byte[], int, int)} writes it (the trace's writers write arrays). */
    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (fill == BLOCK && !nextBlock()) {
                try {
                    fileOut.write(b, off, len);
                } catch (IOException e) {
                    throw failed(e);
                }
                inFile += len;
                return;
            }
            int n = Math.min(len, BLOCK - fill);
            System.arraycopy(b, off, blocks.getLast(), fill, n);
            fill += n;
            inMemory += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Starts a block, or the spill file once the memory is full.
     *
     * @return whether the next bytes go to a block
     * @throws IOException when the spill file cannot be opened
     */
    private boolean nextBlock() throws IOException {
        if (fileOut == null && inMemory + BLOCK > memoryLimit) {
            try {
                fileOut = new BufferedOutputStream(Files.newOutputStream(file), FILE_BUFFER);
            } catch (IOException e) {
                throw failed(e);
            }
        }
        if (fileOut != null) {
            return false;
        }
        blocks.add(new byte[BLOCK]);
        fill = 0;
        return true;
    }

    /** Ends the writing: what is buffered for the spill file goes to it. */
    @Override
    public void close() throws IOException {
        if (fileOut != null) {
            try {
                fileOut.close();
            } catch (IOException e) {
                throw failed(e);
            }
        }
    }

    /**
     * @return {@code e} as a failure of the spill file, named with the folder it is in: the trace's own file is not
     *         the one that failed (a full temporary directory)
     */
    private IOException failed(IOException e) {
        String why = IoErrors.describe(e);
        String reason = why.startsWith(file + ": ") ? why.substring(file.toString().length() + 2) : why;
        return new IOException("the spill file " + file + " of a part of the trace (java.io.tmpdir): " + reason, e);
    }

    /** @return bytes written, in memory and in the spill file */
    long size() {
        return inMemory + inFile;
    }

    /** @return the spill file (empty while every byte is in memory) */
    Path file() {
        return file;
    }

    /**
     * Writes the bytes from {@code from} on to {@code out}: the blocks, then the spill file. After {@link #close}.
     *
     * @param from bytes to leave out at the start, {@code 0..size()}
     * @throws IOException when {@code out} fails or the spill file cannot be read whole
     */
    void writeTo(OutputStream out, long from) throws IOException {
        long skip = from;
        for (int i = 0; i < blocks.size(); i++) {
            int used = i == blocks.size() - 1 ? fill : BLOCK;
            if (skip >= used) {
                skip -= used;
                continue;
            }
            out.write(blocks.get(i), (int) skip, used - (int) skip);
            skip = 0;
        }
        if (fileOut == null) {
            return;
        }
        try (InputStream in = Files.newInputStream(file)) {
            if (in.skip(skip) != skip || in.transferTo(out) != inFile - skip) {
                throw new IOException(file + ": a part of a trace spilled there is shorter than written");
            }
        }
    }

    /** Lets the blocks go and deletes the spill file; once the writing ended. */
    void discard() {
        blocks.clear();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover file in the temporary directory; nothing of the trace depends on it
        }
        AtomicFile.settled(file);
    }
}
