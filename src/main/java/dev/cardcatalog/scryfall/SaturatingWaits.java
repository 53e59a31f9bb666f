package dev.cardcatalog.scryfall;

import java.time.Duration;
import java.time.Instant;

/**
 * Arithmetic on a wait an answer asked for, which may be anything up to {@code Long.MAX_VALUE} seconds
 * ({@link RetryAfter}): every method saturates at its bounds and never throws (SERVICE.md §3.3). {@code Duration}'s
 * and {@code Instant}'s own methods throw {@code ArithmeticException} or {@code DateTimeException} beyond theirs.
 */
public final class SaturatingWaits {

    /**
     * The latest instant this service computes from a wait: the last second of year 9999 UTC. It is inside
     * PostgreSQL's {@code timestamptz} range (to 294276 AD) and {@code Instant}'s, and no HTTP-date names a later one.
     */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private SaturatingWaits() {
    }

    /**
     * {@code from + wait}, at most {@link #LATEST}; a negative or null wait counts as zero.
     *
     * @param from an instant not after {@link #LATEST}; must not be null
     */
    public static Instant after(Instant from, Duration wait) {
        if (wait == null || wait.isNegative()) {
            return from;
        }
        Duration room = Duration.between(from, LATEST);
        return wait.compareTo(room) >= 0 ? LATEST : from.plus(wait);
    }

    /** The smaller of {@code wait} and {@code max}. */
    public static Duration atMost(Duration wait, Duration max) {
        return wait.compareTo(max) > 0 ? max : wait;
    }

    /** The wait in milliseconds, from 0 (a negative or null wait) to {@code Long.MAX_VALUE}. */
    public static long toMillis(Duration wait) {
        if (wait == null || wait.isNegative()) {
            return 0;
        }
        return wait.compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : wait.toMillis();
    }

    /** The wait in seconds as a {@code double}, for metrics; 0 for a negative or null wait. */
    public static double toSeconds(Duration wait) {
        if (wait == null || wait.isNegative()) {
            return 0;
        }
        return wait.getSeconds() + wait.getNano() / 1e9;
    }
}
