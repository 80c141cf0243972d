package dev.dfx.perf.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reader met in a perf.data input that it read past instead of refusing: the one-line warnings of an input,
 * each {@code FILE: byte offset N: what, what dfx did}, in file order. A kind of problem that repeats (records of unknown types) is one warning that counts its occurrences
 * and names the first. Not thread-safe: it belongs to the one thread that reads the input.
 */
public final class Warnings {
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    /** One warning: where it first happened, what it says, and how often its kind happened. */
    private static final class Entry {
        private final long offset;
        private final String first;
        private final String repeated;
        private long count = 1;

        Entry(long offset, String first, String repeated) {
            this.offset = offset;
            this.first = first;
            this.repeated = repeated;
        }
    }

    /**
     * Adds a warning that happens once.
     *
     * @param errors names the input and places offsets as {@link InputErrors} does
     * @param offset byte offset in the input
     * @param what   what was wrong there and what dfx did about it
     */
    public void add(InputErrors errors, long offset, String what) {
        entries.putIfAbsent(offset + "\0" + what, new Entry(offset, errors.line(offset, what), null));
    }

    /**
     * Takes back a warning added by {@link #add} that an error about the same cause will replace, so that the input's
     * one problem is said once; nothing happens when there is no such warning.
     *
     * @param offset the byte offset it was added with
     * @param what   the text it was added with
     */
    public void withdraw(long offset, String what) {
        entries.remove(offset + "\0" + what);
    }

    /**
     * Changes the text of a warning added by {@link #add}, keeping its place among the warnings; nothing happens when
     * there is no such warning.
     *
     * @param errors  names the input, as for {@link #add}
     * @param offset  the byte offset it was added with
     * @param what    the text it was added with
     * @param newWhat the text it says instead
     */
    public void reword(InputErrors errors, long offset, String what, String newWhat) {
        String key = offset + "\0" + what;
        if (!entries.containsKey(key)) {
            return;
        }
        Map<String, Entry> before = new LinkedHashMap<>(entries);
        entries.clear();
        before.forEach((k, e) -> {
            if (k.equals(key)) {
                entries.putIfAbsent(offset + "\0" + newWhat, new Entry(offset, errors.line(offset, newWhat), null));
            } else {
                entries.putIfAbsent(k, e);
            }
        });
    }

    /**
     * Adds one occurrence of a kind of problem that may repeat: the first is the warning, later ones are counted.
     *
     * @param kind     the kind, as the key that groups occurrences
     * @param errors   names the input
     * @param offset   byte offset of this occurrence
     * @param what     the first occurrence's text
     * @param repeated how the count of later occurrences is described after the first, e.g. "records of unknown
     *                 types skipped"
     */
    public void addRepeating(String kind, InputErrors errors, long offset, String what, String repeated) {
        Entry e = entries.get(kind);
        if (e == null) {
            entries.put(kind, new Entry(offset, errors.line(offset, what), repeated));
        } else {
            e.count++;
        }
    }

    /**
     * @return the warnings in file order (by the byte offset each names; those at one offset in the order they were
     *         met), one line each, without a line end
     */
    public List<String> lines() {
        List<Entry> sorted = new ArrayList<>(entries.values());
        // a lambda of this class (linked in the AOT cache), not Comparator.comparingLong, whose own lambda is
        // generated at run time by every command that lists its warnings
        sorted.sort((a, b) -> Long.compare(a.offset, b.offset));
        List<String> out = new ArrayList<>(sorted.size());
        for (Entry e : sorted) {
            out.add(e.count == 1 ? e.first : e.first + " (" + e.count + " " + e.repeated + " in all)");
        }
        return out;
    }

    /** @return whether there is no warning */
    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
