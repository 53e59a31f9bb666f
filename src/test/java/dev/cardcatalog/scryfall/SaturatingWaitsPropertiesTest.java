package dev.cardcatalog.scryfall;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every computation on an asked wait saturates and never throws (SERVICE.md §3.3), over digit runs of 1 to 100
 * digits and IMF-fixdates from year 1 to 9999, read at "now"s across the same range. Plain JUnit over a seeded
 * {@link Random}, as {@link RetryAfterPropertiesTest} explains; rerun a failure with {@code -Dwaits.seed=<seed>}.
 */
class SaturatingWaitsPropertiesTest {

    private static final long SEED = Long.getLong("waits.seed", new SplittableRandom().nextLong());
    private static final int TRIES = 2000;
    private static final Duration CAP = Duration.ofHours(1);

    @Test
    void noDigitRunOrDateFromYearOneTo9999ThrowsAndNoWindowOutlivesTheCap() {
        Random random = new Random(SEED);
        for (int i = 0; i < TRIES; i++) {
            Instant now = instantIn(random);
            String value = random.nextBoolean() ? digits(random) : imfFixdate(instantIn(random));
            String sample = "Retry-After: " + value + " at " + now + " (seed " + SEED + ")";

            Optional<Duration> asked = RetryAfter.parse(value, now);

            // a date at or before now is unusable: the caller falls back to the 30 s lockout
            Duration wait = asked.orElse(Duration.ofSeconds(30));
            assertThat(wait.isNegative()).as(sample).isFalse();
            Duration window = QuietWindow.window(wait, CAP);
            assertThat(window).as(sample).isLessThanOrEqualTo(CAP).isLessThanOrEqualTo(wait);
            Instant until = SaturatingWaits.after(now, wait);
            assertThat(until).as(sample).isAfterOrEqualTo(now).isBeforeOrEqualTo(SaturatingWaits.LATEST);
            assertThat(SaturatingWaits.after(now, window)).as(sample).isBeforeOrEqualTo(now.plus(CAP));
            assertThat(SaturatingWaits.toMillis(wait)).as(sample).isNotNegative();
            assertThat(SaturatingWaits.toSeconds(wait)).as(sample).isNotNegative();
        }
    }

    @Test
    void theEdgesSaturate() {
        Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
        assertThat(SaturatingWaits.toMillis(longest)).isEqualTo(Long.MAX_VALUE);
        assertThat(SaturatingWaits.after(Instant.parse("2026-11-30T12:00:00Z"), longest))
                .isEqualTo(SaturatingWaits.LATEST);
        assertThat(SaturatingWaits.after(SaturatingWaits.LATEST, Duration.ofSeconds(1)))
                .isEqualTo(SaturatingWaits.LATEST);
        assertThat(SaturatingWaits.toMillis(Duration.ofSeconds(-5))).isZero();
        assertThat(QuietWindow.window(longest, CAP)).isEqualTo(CAP);
        assertThat(RetryAfter.parse("9".repeat(100), Instant.EPOCH)).contains(Duration.ofSeconds(Long.MAX_VALUE));
    }

    private static String digits(Random random) {
        int length = 1 + random.nextInt(100);
        StringBuilder digits = new StringBuilder(length);
        digits.append((char) ('1' + random.nextInt(9))); // a leading zero would make a short run of a long one
        for (int d = 1; d < length; d++) {
            digits.append((char) ('0' + random.nextInt(10)));
        }
        return digits.toString();
    }

    private static Instant instantIn(Random random) {
        return LocalDateTime.of(1 + random.nextInt(9999), 1 + random.nextInt(12), 1 + random.nextInt(28),
                random.nextInt(24), random.nextInt(60), random.nextInt(60)).toInstant(ZoneOffset.UTC);
    }

    /** IMF-fixdate, written independently of the parser's formatter. */
    private static String imfFixdate(Instant instant) {
        LocalDateTime at = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        DayOfWeek day = at.getDayOfWeek();
        return String.format(Locale.ROOT, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                day.getDisplayName(TextStyle.SHORT, Locale.US), at.getDayOfMonth(),
                at.getMonth().getDisplayName(TextStyle.SHORT, Locale.US), at.getYear(), at.getHour(),
                at.getMinute(), at.getSecond());
    }
}
