package dev.cardcatalog.catalog;

import java.util.UUID;

/**
 * A set of UUIDs in two long arrays and a {@code boolean} array (open addressing, linear probing), so a refresh can
 * remember every id it saw in an all-cards file within a small heap. A slot costs 17 bytes (two longs and a flag),
 * and the table is kept at most half full and doubles when it would pass that: 2 to 4 slots, 34 to 68 bytes a card
 * (and for a moment half as much again while it grows), against about 80 for a {@code HashSet<UUID>} (a 32-byte
 * node, a 32-byte {@code UUID} and the table's reference), with no object per card for the collector to trace.
 */
final class UuidSet {

    private long[] high;
    private long[] low;
    private boolean[] used;
    private int size;

    UuidSet(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        high = new long[capacity];
        low = new long[capacity];
        used = new boolean[capacity];
    }

    /** Adds {@code id}; returns false when it was already there. */
    boolean add(UUID id) {
        if ((size + 1) * 2 > used.length) {
            grow();
        }
        return insert(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    boolean contains(UUID id) {
        long h = id.getMostSignificantBits();
        long l = id.getLeastSignificantBits();
        int mask = used.length - 1;
        for (int i = slot(h, l, mask); used[i]; i = (i + 1) & mask) {
            if (high[i] == h && low[i] == l) {
                return true;
            }
        }
        return false;
    }

    int size() {
        return size;
    }

    private boolean insert(long h, long l) {
        int mask = used.length - 1;
        int i = slot(h, l, mask);
        while (used[i]) {
            if (high[i] == h && low[i] == l) {
                return false;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        high[i] = h;
        low[i] = l;
        size++;
        return true;
    }

    private void grow() {
        long[] oldHigh = high;
        long[] oldLow = low;
        boolean[] oldUsed = used;
        high = new long[oldUsed.length * 2];
        low = new long[oldUsed.length * 2];
        used = new boolean[oldUsed.length * 2];
        size = 0;
        for (int i = 0; i < oldUsed.length; i++) {
            if (oldUsed[i]) {
                insert(oldHigh[i], oldLow[i]);
            }
        }
    }

    private static int slot(long h, long l, int mask) {
        long x = h ^ (l * 0x9E3779B97F4A7C15L);
        x ^= x >>> 31;
        return (int) x & mask;
    }
}
