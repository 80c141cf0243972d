package dev.dfx.pmu.sim;

import java.util.HashMap;
import java.util.Map;

/**
 * A {@link SimPmu} whose hardware is a set of monotonically increasing raw values: each event reads
 * {@link #rawValue}, counts the delta since its baseline while it is running (the kernel's
 * {@code prev_count} scheme, e.g. {@code x86_perf_event_update}), and holds a slot of its block's
 * {@link SlotBitmap} while scheduled. Subclasses validate events, name their block and slot count, and read the
 * hardware.
 *
 * <p>Per-event state is touched only under the owning context's lock. {@link #rawValue} may be called from
 * different contexts at once and must be thread-safe.
 */
public abstract class CountingPmu implements SimPmu {
    private final Map<Object, SlotBitmap> blocks = new HashMap<>();

    /** @return the block key an event's slot comes from (e.g. an accelerator block such as SQ) */
    protected abstract Object block(SimEvent event);

    /** @return the number of slots of a block */
    protected abstract int slots(Object block);

    /** @return the event's hardware value now (unsigned, monotonic) */
    protected abstract long rawValue(SimEvent event);

    @Override
    public final synchronized boolean add(SimEvent event, boolean start) {
        Object block = block(event);
        SlotBitmap bitmap = blocks.computeIfAbsent(block, b -> new SlotBitmap(slots(b)));
        int slot = bitmap.claim();
        if (slot < 0) {
            return false;
        }
        event.slot(slot);
        if (start) {
            start(event);
        }
        return true;
    }

    @Override
    public final synchronized void del(SimEvent event) {
        stop(event, true);
        blocks.get(block(event)).release(event.slot());
        event.slot(-1);
    }

    @Override
    public final void start(SimEvent event) {
        event.prevRaw(rawValue(event));
        event.counting(true);
    }

    @Override
    public final void stop(SimEvent event, boolean update) {
        if (update) {
            read(event);
        }
        event.counting(false);
    }

    @Override
    public final void read(SimEvent event) {
        if (!event.counting()) {
            return;
        }
        long now = rawValue(event);
        event.addCount(now - event.prevRaw());
        event.prevRaw(now);
    }

    @Override
    public final Object slotPool(SimEvent event) {
        return block(event);
    }

    @Override
    public final int poolCapacity(Object pool) {
        return slots(pool);
    }

    /** @return the slots in use in a block (for tests and diagnostics) */
    public final synchronized int slotsInUse(Object block) {
        SlotBitmap b = blocks.get(block);
        return b == null ? 0 : b.used();
    }
}
