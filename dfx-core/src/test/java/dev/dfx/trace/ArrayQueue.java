package dev.dfx.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * A test {@link MergeQueue} over buffers of timestamps held in arrays: the shape of decoded AUX entries (per-CPU
 * buffers that arrive over time). Buffers may be empty and may be appended while the queue is merged.
 */
final class ArrayQueue implements MergeQueue {
    private final List<long[]> buffers = new ArrayList<>();
    private int buffer;
    private int index;
    private int position;

    ArrayQueue(List<long[]> buffers) {
        this.buffers.addAll(buffers);
    }

    ArrayQueue() {
    }

    void append(long[] timestamps) {
        buffers.add(timestamps);
    }

    @Override
    public boolean hasEntry() {
        while (buffer < buffers.size() && index >= buffers.get(buffer).length) {
            buffer++;
            index = 0;
        }
        return buffer < buffers.size();
    }

    @Override
    public long timestamp() {
        return buffers.get(buffer)[index];
    }

    @Override
    public void advance() {
        index++;
        position++;
    }

    /** @return the current entry's position in the whole queue (0 for its first entry) */
    int position() {
        return position;
    }

    /** @return which buffer the current entry is in, and where in it */
    int buffer() {
        return buffer;
    }

    int indexInBuffer() {
        return index;
    }
}
