package dev.cardcatalog.scryfall;

import static java.time.temporal.ChronoField.DAY_OF_MONTH;
import static java.time.temporal.ChronoField.DAY_OF_WEEK;
import static java.time.temporal.ChronoField.HOUR_OF_DAY;
import static java.time.temporal.ChronoField.MINUTE_OF_HOUR;
import static java.time.temporal.ChronoField.MONTH_OF_YEAR;
import static java.time.temporal.ChronoField.SECOND_OF_MINUTE;
import static java.time.temporal.ChronoField.YEAR;

import java.text.ParsePosition;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.TemporalAccessor;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} response header into the wait it asks for (RFC 9110 §10.2.3; SERVICE.md §3.2).
 *
 * <p>A value, trimmed of spaces and tabs (OWS: SP and HTAB only), is one of:
 * <ul>
 *   <li><b>delta-seconds</b>: a non-empty run of ASCII digits {@code 0-9} and nothing else, a wait in whole
 *       seconds. {@code 0} means retry at once. A run too large for a {@code long} is "very long":
 *       {@code Duration.ofSeconds(Long.MAX_VALUE)}.</li>
 *   <li><b>HTTP-date</b> (RFC 9110 §5.6.7) in any of its three forms, names in English with the RFC's case:
 *       IMF-fixdate {@code Sun, 06 Nov 1994 08:49:37 GMT}, the obsolete RFC 850 form
 *       {@code Sunday, 06-Nov-94 08:49:37 GMT} and asctime {@code Sun Nov  6 08:49:37 1994} (UTC). The wait is
 *       the date minus "now", rounded up to whole seconds; a date at or before "now" is unusable.</li>
 * </ul>
 * Anything else ({@code -5}, {@code 0x1F}, {@code 1_0}, {@code +3}, {@code 1.5}, {@code 120junk}, empty) is
 * unusable.
 *
 * <p>Dates are read strictly: the day name must be the weekday of the date, the date must exist (no
 * {@code 30 Feb}), the time must be 00:00:00 to 23:59:59, or {@code 23:59:60} (the leap second the grammar allows),
 * which is read as the following midnight. An RFC 850 two-digit year is the latest year with those two digits whose
 * timestamp is not more than 50 years after "now" (RFC 9110 §5.6.7).
 *
 * <p>Every result is a whole number of seconds, never negative. An empty result means no usable value: the caller
 * falls back to its own wait (SERVICE.md §3.2). No method throws for any header text.
 */
public final class RetryAfter {

    /** What a digit run beyond {@code Long.MAX_VALUE} seconds means: longer than anyone will wait. */
    private static final Duration VERY_LONG = Duration.ofSeconds(Long.MAX_VALUE);

    private static final Map<Long, String> DAY_NAME = names("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");
    private static final Map<Long, String> DAY_NAME_L =
            names("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");
    private static final Map<Long, String> MONTH =
            names("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    /** {@code hour ":" minute ":" second}, two digits each; ranges are checked when the date is resolved. */
    private static final DateTimeFormatter TIME_OF_DAY = new DateTimeFormatterBuilder()
            .appendValue(HOUR_OF_DAY, 2).appendLiteral(':')
            .appendValue(MINUTE_OF_HOUR, 2).appendLiteral(':')
            .appendValue(SECOND_OF_MINUTE, 2)
            .toFormatter(Locale.ROOT);

    /** {@code day-name "," SP day SP month SP year SP time-of-day SP "GMT"}. */
    private static final DateTimeFormatter IMF_FIXDATE = new DateTimeFormatterBuilder()
            .appendText(DAY_OF_WEEK, DAY_NAME).appendLiteral(", ")
            .appendValue(DAY_OF_MONTH, 2).appendLiteral(' ')
            .appendText(MONTH_OF_YEAR, MONTH).appendLiteral(' ')
            .appendValue(YEAR, 4).appendLiteral(' ')
            .append(TIME_OF_DAY).appendLiteral(" GMT")
            .toFormatter(Locale.ROOT);

    /** {@code day-name-l "," SP day "-" month "-" 2DIGIT SP time-of-day SP "GMT"}; YEAR holds the two digits. */
    private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
            .appendText(DAY_OF_WEEK, DAY_NAME_L).appendLiteral(", ")
            .appendValue(DAY_OF_MONTH, 2).appendLiteral('-')
            .appendText(MONTH_OF_YEAR, MONTH).appendLiteral('-')
            .appendValue(YEAR, 2).appendLiteral(' ')
            .append(TIME_OF_DAY).appendLiteral(" GMT")
            .toFormatter(Locale.ROOT);

    /** {@code day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP year}. */
    private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
            .appendText(DAY_OF_WEEK, DAY_NAME).appendLiteral(' ')
            .appendText(MONTH_OF_YEAR, MONTH).appendLiteral(' ')
            .padNext(2, ' ').appendValue(DAY_OF_MONTH, 1, 2, SignStyle.NOT_NEGATIVE).appendLiteral(' ')
            .append(TIME_OF_DAY).appendLiteral(' ')
            .appendValue(YEAR, 4)
            .toFormatter(Locale.ROOT);

    private RetryAfter() {
    }

    /**
     * The wait one {@code Retry-After} field value asks for.
     *
     * @param fieldValue the value as received, possibly {@code null}; surrounding spaces and tabs are ignored
     * @param now the instant an HTTP-date is measured from (the response's {@code Date} when known), and the
     *     reference for an RFC 850 two-digit year; must not be {@code null}
     * @return the wait in whole seconds ({@code ZERO} for {@code 0}, {@code Duration.ofSeconds(Long.MAX_VALUE)} for
     *     a digit run beyond it), or empty when the value is not usable and the caller falls back
     */
    public static Optional<Duration> parse(String fieldValue, Instant now) {
        Objects.requireNonNull(now, "now");
        if (fieldValue == null) {
            return Optional.empty();
        }
        String value = trimOws(fieldValue);
        if (isDeltaSeconds(value)) {
            return Optional.of(deltaSeconds(value));
        }
        return httpDate(value, now).flatMap(at -> waitUntil(at, now));
    }

    /**
     * The wait a response's {@code Retry-After} header asks for, as received.
     *
     * <p>The field may be repeated (one list entry each) and an entry may hold several values joined by commas.
     * Each entry is split at its commas; since IMF-fixdate and RFC 850 dates contain one comma themselves, a piece
     * that together with the next piece reads as an HTTP-date is taken with it, and any other piece is read alone
     * with {@link #parse}. The largest usable value counts, so the caller never asks sooner than any value asked.
     *
     * <p>"Now" for an HTTP-date is the response's own {@code Date} header when it is present and reads as an
     * HTTP-date (so the local clock's skew does not matter), else {@code clock.instant()}.
     *
     * @param retryAfterValues the {@code Retry-After} field values, or {@code null} / empty when absent;
     *     {@code null} entries are skipped
     * @param dateHeader the response's {@code Date} field value, or {@code null}
     * @param clock the local clock; must not be {@code null}
     * @return the largest usable wait in whole seconds, or empty when there is none and the caller falls back
     */
    public static Optional<Duration> fromHeaders(List<String> retryAfterValues, String dateHeader, Clock clock) {
        Objects.requireNonNull(clock, "clock");
        Instant local = clock.instant();
        if (retryAfterValues == null) {
            return Optional.empty();
        }
        Instant now = dateHeader == null ? local : httpDate(trimOws(dateHeader), local).orElse(local);
        Duration largest = null;
        for (String entry : retryAfterValues) {
            if (entry == null) {
                continue;
            }
            String[] pieces = entry.split(",", -1);
            for (int i = 0; i < pieces.length; i++) {
                String value = pieces[i];
                if (i + 1 < pieces.length) {
                    String joined = pieces[i] + "," + pieces[i + 1];
                    if (httpDate(trimOws(joined), now).isPresent()) {
                        value = joined;
                        i++;
                    }
                }
                Optional<Duration> wait = parse(value, now);
                if (wait.isPresent() && (largest == null || wait.get().compareTo(largest) > 0)) {
                    largest = wait.get();
                }
            }
        }
        return Optional.ofNullable(largest);
    }

    /**
     * The instant an HTTP-date names, in any of the three forms of RFC 9110 §5.6.7, or empty when {@code value}
     * (already trimmed) is not one. {@code now} only places an RFC 850 two-digit year.
     */
    static Optional<Instant> httpDate(String value, Instant now) {
        try {
            TemporalAccessor fields = syntax(IMF_FIXDATE, value);
            if (fields == null) {
                fields = syntax(ASCTIME, value);
            }
            if (fields != null) {
                return resolve(fields, fields.getLong(YEAR));
            }
            fields = syntax(RFC_850, value);
            if (fields != null) {
                return resolve(fields, rfc850Year(fields, now));
            }
            return Optional.empty();
        } catch (DateTimeException | ArithmeticException e) {
            // A field out of range (31 Nov, 25:00:00) or a "now" too far out for the calendar: not a usable date.
            return Optional.empty();
        }
    }

    /** The fields of {@code value} if the whole of it matches {@code format}'s syntax, else {@code null}. */
    private static TemporalAccessor syntax(DateTimeFormatter format, String value) {
        ParsePosition position = new ParsePosition(0);
        TemporalAccessor fields = format.parseUnresolved(value, position);
        boolean whole = position.getErrorIndex() < 0 && position.getIndex() == value.length();
        return whole ? fields : null;
    }

    /**
     * The latest year ending in the two parsed digits whose timestamp is not more than 50 years after {@code now}
     * (RFC 9110 §5.6.7: a timestamp that appears to be more than 50 years in the future means the most recent year
     * in the past with the same last two digits).
     */
    private static long rfc850Year(TemporalAccessor fields, Instant now) {
        LocalDateTime limit = LocalDateTime.ofInstant(now, ZoneOffset.UTC).plusYears(50);
        long year = limit.getYear() - Math.floorMod(limit.getYear() - fields.getLong(YEAR), 100);
        if (year == limit.getYear() && laterInYear(fields, limit)) {
            year -= 100;
        }
        return year;
    }

    /** Whether the parsed month, day and time fall after {@code limit}'s within a year; the parsed time has no nanos. */
    private static boolean laterInYear(TemporalAccessor fields, LocalDateTime limit) {
        long month = fields.getLong(MONTH_OF_YEAR);
        long day = fields.getLong(DAY_OF_MONTH);
        long second = fields.getLong(HOUR_OF_DAY) * 3600 + fields.getLong(MINUTE_OF_HOUR) * 60
                + fields.getLong(SECOND_OF_MINUTE);
        if (month != limit.getMonthValue()) {
            return month > limit.getMonthValue();
        }
        if (day != limit.getDayOfMonth()) {
            return day > limit.getDayOfMonth();
        }
        return second > limit.toLocalTime().toSecondOfDay();
    }

    /**
     * The instant the parsed fields name in {@code year}: the date must exist and fall on the parsed day name, the
     * time must be in range; {@code 23:59:60} is the leap second, read as the next midnight (never sooner).
     */
    private static Optional<Instant> resolve(TemporalAccessor fields, long year) {
        LocalDate date = LocalDate.of(Math.toIntExact(year), (int) fields.getLong(MONTH_OF_YEAR),
                (int) fields.getLong(DAY_OF_MONTH));
        if (date.getDayOfWeek().getValue() != fields.getLong(DAY_OF_WEEK)) {
            return Optional.empty();
        }
        int hour = (int) fields.getLong(HOUR_OF_DAY);
        int minute = (int) fields.getLong(MINUTE_OF_HOUR);
        int second = (int) fields.getLong(SECOND_OF_MINUTE);
        boolean leapSecond = hour == 23 && minute == 59 && second == 60;
        LocalTime time = LocalTime.of(hour, minute, leapSecond ? 59 : second);
        Instant at = date.atTime(time).toInstant(ZoneOffset.UTC);
        return Optional.of(leapSecond ? at.plusSeconds(1) : at);
    }

    /** The wait from {@code now} until {@code at}, rounded up to whole seconds; empty when {@code at} is not later. */
    private static Optional<Duration> waitUntil(Instant at, Instant now) {
        Duration wait = Duration.between(now, at);
        if (wait.isNegative() || wait.isZero()) {
            return Optional.empty();
        }
        return Optional.of(wait.getNano() == 0 ? wait : Duration.ofSeconds(wait.getSeconds() + 1));
    }

    private static boolean isDeltaSeconds(String value) {
        if (value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The digit run's value in seconds, saturating at {@code Long.MAX_VALUE}. */
    private static Duration deltaSeconds(String digits) {
        long seconds = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = digits.charAt(i) - '0';
            if (seconds > (Long.MAX_VALUE - digit) / 10) {
                return VERY_LONG;
            }
            seconds = seconds * 10 + digit;
        }
        return Duration.ofSeconds(seconds);
    }

    /** Strips OWS (RFC 9110 §5.6.3: SP and HTAB only, not every {@code Character.isWhitespace}). */
    private static String trimOws(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isOws(value.charAt(start))) {
            start++;
        }
        while (end > start && isOws(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(start, end);
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    /** Numbers the names from 1, as {@code ChronoField} counts weekdays (Monday = 1) and months. */
    private static Map<Long, String> names(String... names) {
        Map<Long, String> byValue = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            byValue.put(i + 1L, names[i]);
        }
        return byValue;
    }
}
