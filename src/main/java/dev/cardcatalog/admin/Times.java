package dev.cardcatalog.admin;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Times as the admin page shows them: in UTC ({@code 2026-11-30 12:04:05 UTC}) and relative to now
 * ({@code in 4 min}, {@code 12 s ago}). Relative times are whole units, rounded down: seconds under a minute,
 * minutes under an hour, hours under two days, then days.
 */
final class Times {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Times() {
    }

    /** {@code 2026-11-30 12:04:05 UTC}; empty for null. */
    static String utc(Instant instant) {
        return instant == null ? "" : UTC.format(instant);
    }

    /** {@code in 4 min}, {@code 12 s ago}, {@code now}; empty for null. */
    static String relative(Instant instant, Instant now) {
        if (instant == null) {
            return "";
        }
        Duration between = Duration.between(now, instant);
        if (between.abs().toSeconds() == 0) {
            return "now";
        }
        String span = span(between.abs());
        return between.isNegative() ? span + " ago" : "in " + span;
    }

    /** {@code 40 s}, {@code 4 min}, {@code 3 h}, {@code 2 d}. */
    static String span(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min";
        }
        if (seconds < 48 * 3600) {
            return seconds / 3600 + " h";
        }
        return seconds / 86400 + " d";
    }

    /** {@code 2026-11-30 12:04:05 UTC (in 4 min)}; empty for null. */
    static String both(Instant instant, Instant now) {
        return instant == null ? "" : utc(instant) + " (" + relative(instant, now) + ")";
    }
}
