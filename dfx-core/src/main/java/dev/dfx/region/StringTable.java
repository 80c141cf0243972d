package dev.dfx.region;

import dev.dfx.pipeline.RegionLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One lane's string table as the host reads it: resolves a string id (the entry's byte offset) to its text.
 * Entries are {@code u32 length, length bytes of UTF-8, zero padding to 4}, from offset 8 up to the table's
 * released {@code used} word. The producer writes an entry, then releases {@code used}, before any record that
 * names it is published, so an id a drained record names resolves.
 *
 * <p>Nothing the producer wrote is trusted: {@code used} is clamped to the table, an id must be a multiple of 4
 * from 8, and its entry must end within {@code used}; otherwise {@link #resolve} returns {@code null}. Text is
 * decoded with U+FFFD for malformed bytes. What was resolved once is kept (at most one entry per 8 bytes of the
 * table), so a later overwrite cannot change a name, and after {@link #detach()} (when the region is unmapped) the
 * table answers from what it read. Thread-safe (synchronized).
 */
public final class StringTable {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final int lane;
    private final long tableBytes;
    private MemorySegment table;
    private final Map<Integer, String> resolved = new HashMap<>();

    /**
     * @param lane  the lane
     * @param table the lane's table in the region, {@code stringTableBytes} long (or empty for none)
     */
    StringTable(int lane, MemorySegment table) {
        this.lane = lane;
        this.table = table;
        this.tableBytes = table.byteSize();
    }

    /** @return the lane */
    public int lane() {
        return lane;
    }

    /**
     * @param id a string id from a record
     * @return its text, or {@code null} when {@code id} is {@link UserEvent#NO_STRING} or names no valid entry
     */
    public synchronized String resolve(int id) {
        if (id == UserEvent.NO_STRING) {
            return null;
        }
        String s = resolved.get(id);
        if (s != null || table == null) {
            return s;
        }
        s = readEntry(id & 0xFFFFFFFFL, used());
        if (s != null) {
            resolved.put(id, s);
        }
        return s;
    }

    /** @return every entry read so far, by id (a copy) */
    public synchronized Map<Integer, String> entries() {
        return Collections.unmodifiableMap(new TreeMap<>(resolved));
    }

    /**
     * Reads every entry up to {@code used} (walking from offset 8 until an entry is invalid) and stops reading the
     * region: called before the region is unmapped. Idempotent.
     */
    synchronized void detach() {
        if (table == null) {
            return;
        }
        long used = used();
        long at = RegionLayout.STRINGS_START;
        while (at + 4 <= used) {
            String s = readEntry(at, used);
            if (s == null) {
                break;
            }
            resolved.putIfAbsent((int) at, s);
            at += 4 + align4(Integer.toUnsignedLong(table.get(INT, at)));
        }
        table = null;
    }

    private long used() {
        if (tableBytes < RegionLayout.STRINGS_START) {
            return 0;
        }
        long u = Fields.longAcquire(table, RegionLayout.S_USED);
        return u < 0 || u > tableBytes ? tableBytes : u;
    }

    private String readEntry(long at, long used) {
        if (at < RegionLayout.STRINGS_START || at % 4 != 0 || at + 4 > used) {
            return null;
        }
        long length = Integer.toUnsignedLong(table.get(INT, at));
        if (length > used - at - 4) {
            return null;
        }
        byte[] bytes = table.asSlice(at + 4, length).toArray(ValueLayout.JAVA_BYTE);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder cannot fail", e);
        }
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }
}
