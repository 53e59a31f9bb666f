package dev.cardcatalog.scryfall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link RetryAfter} over generated header values.
 *
 * <p>Written as plain JUnit over a seeded {@link Random} rather than jqwik: jqwik 1.10's maintainers ask that the
 * library not be used by AI coding agents ("Anti-AI Usage Clause"), and this class was written by one. Each property
 * maps one-to-one onto a jqwik {@code @Property}. A failure names the seed; rerun it with
 * {@code ./mvnw -B -q test -Dtest='RetryAfter*' -Dretryafter.seed=<seed>}.
 */
class RetryAfterPropertiesTest {

    private static final long SEED = Long.getLong("retryafter.seed", new SplittableRandom().nextLong());
    private static final int TRIES = 1000;

    private static final String[] DAY = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] DAY_L = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday"};
    private static final String[] MONTH = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    /** delta-seconds with OWS around it, written independently of the code under test. */
    private static final Pattern DIGIT_RUN = Pattern.compile("[ \t]*[0-9]+[ \t]*");
    /** The syntax of the three HTTP-date forms (RFC 9110 §5.6.7), OWS around them. */
    private static final Pattern DATE_FORM;

    static {
        String day = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
        String dayL = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
        String month = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
        String time = "[0-9]{2}:[0-9]{2}:[0-9]{2}";
        String imf = day + ", [0-9]{2} " + month + " [0-9]{4} " + time + " GMT";
        String rfc850 = dayL + ", [0-9]{2}-" + month + "-[0-9]{2} " + time + " GMT";
        String asctime = day + " " + month + " ([0-9]{2}| [0-9]) " + time + " [0-9]{4}";
        DATE_FORM = Pattern.compile("[ \t]*(" + imf + "|" + rfc850 + "|" + asctime + ")[ \t]*");
    }

    private static final long FORTY_YEARS = 40L * 366 * 24 * 3600;
    private static final long FORTY_NINE_YEARS = 49L * 365 * 24 * 3600;
    private static final Instant EARLIEST = Instant.parse("1950-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("2850-12-31T23:59:59Z");

    enum Form { IMF_FIXDATE, RFC_850, ASCTIME }

    record Sample(String value, Instant now) {
        @Override
        public String toString() {
            return quote(value) + " at " + now;
        }
    }

    record DateSample(Instant date, Instant now, Form form) {
        String text() {
            return format(date, form);
        }

        @Override
        public String toString() {
            return quote(text()) + " (" + date + ") at " + now;
        }
    }

    record Token(String text, Optional<Duration> asked) {
    }

    record Headers(List<String> retryAfter, String date, Instant clock, Optional<Duration> expected) {
        @Override
        public String toString() {
            return retryAfter.stream().map(RetryAfterPropertiesTest::quote).toList() + " Date " + quote(date)
                    + " clock " + clock + " expecting " + expected;
        }
    }

    @Test
    void neverThrowsAndAnswersOnlyWholeNonNegativeSeconds() {
        forAll(RetryAfterPropertiesTest::anySample, sample -> {
            Optional<Duration> wait = RetryAfter.parse(sample.value(), sample.now());
            wait.ifPresent(RetryAfterPropertiesTest::assertWholeNonNegativeSeconds);
        });
    }

    @Test
    void acceptsExactlyDigitRunsAndTheThreeDateForms() {
        forAll(RetryAfterPropertiesTest::anySample, sample -> {
            Optional<Duration> wait = RetryAfter.parse(sample.value(), sample.now());
            if (DIGIT_RUN.matcher(sample.value()).matches()) {
                assertEquals(Optional.of(expectedDelta(sample.value())), wait);
            } else if (wait.isPresent()) {
                assertTrue(DATE_FORM.matcher(sample.value()).matches(), "accepted a non-date");
                assertTrue(wait.get().compareTo(Duration.ZERO) > 0, "a date gave no wait");
            }
        });
    }

    @Test
    void readsADigitRunAsItsValueSaturatingAtLongMax() {
        forAll(r -> ows(r) + digitRun(r) + ows(r), value -> {
            Duration wait = RetryAfter.parse(value, Instant.EPOCH).orElseThrow();
            assertEquals(expectedDelta(value), wait);
            BigInteger asked = new BigInteger(value.strip());
            BigInteger got = BigInteger.valueOf(wait.getSeconds());
            assertEquals(asked.min(BigInteger.valueOf(Long.MAX_VALUE)), got);
        });
    }

    @Test
    void waitsTheOffsetRoundedUpForADateAhead() {
        forAll(r -> {
            Instant date = wholeSecond(r);
            return new DateSample(date, date.minus(positiveOffset(r)), form(r));
        }, sample -> {
            Duration offset = Duration.between(sample.now(), sample.date());
            long ceil = offset.getSeconds() + (offset.getNano() > 0 ? 1 : 0);
            assertEquals(Optional.of(Duration.ofSeconds(ceil)), RetryAfter.parse(sample.text(), sample.now()));
        });
    }

    @Test
    void findsNoWaitInADateAtOrBeforeNow() {
        forAll(r -> {
            Instant date = wholeSecond(r);
            Duration back = switch (r.nextInt(3)) {
                case 0 -> Duration.ZERO;
                case 1 -> Duration.ofSeconds(r.nextInt(10), r.nextInt(1_000_000_000));
                default -> Duration.ofSeconds((long) (r.nextDouble() * FORTY_NINE_YEARS), r.nextInt(1_000_000_000));
            };
            return new DateSample(date, date.plus(back), form(r));
        }, sample -> assertEquals(Optional.empty(), RetryAfter.parse(sample.text(), sample.now())));
    }

    @Test
    void rejectsADayNameThatIsNotTheDatesWeekday() {
        forAll(r -> {
            Instant date = wholeSecond(r);
            return new DateSample(date, date.minusSeconds(1 + r.nextInt(1000)), form(r));
        }, sample -> {
            LocalDateTime t = LocalDateTime.ofInstant(sample.date(), ZoneOffset.UTC);
            for (int shift = 1; shift < 7; shift++) {
                DayOfWeek wrong = t.getDayOfWeek().plus(shift);
                String text = format(sample.date(), sample.form(), wrong);
                assertEquals(Optional.empty(), RetryAfter.parse(text, sample.now()), text);
            }
        });
    }

    /** RFC 9110 §5.6.7: more than 50 years ahead means the most recent past year with the same last two digits. */
    @Test
    void readsAnRfc850YearAsNoMoreThanFiftyYearsAhead() {
        forAll(r -> {
            Instant now = instant(r);
            Instant limit = LocalDateTime.ofInstant(now, ZoneOffset.UTC).plusYears(50).toInstant(ZoneOffset.UTC)
                    .truncatedTo(ChronoUnit.SECONDS);
            long back = switch (r.nextInt(3)) {
                case 0 -> r.nextInt(10);
                case 1 -> -1 - r.nextInt(10);
                default -> (long) (r.nextDouble() * 99 * 365 * 24 * 3600);
            };
            return new DateSample(limit.minusSeconds(back), now, Form.RFC_850);
        }, sample -> {
            LocalDateTime written = LocalDateTime.ofInstant(sample.date(), ZoneOffset.UTC);
            LocalDateTime limit = LocalDateTime.ofInstant(sample.now(), ZoneOffset.UTC).plusYears(50);
            Optional<LocalDateTime> meant = written.isAfter(limit) ? hundredYearsBefore(written) : Optional.of(written);
            DayOfWeek dayName = meant.orElse(written).getDayOfWeek();
            String text = format(sample.date(), Form.RFC_850, dayName);
            assertEquals(meant.map(t -> t.toInstant(ZoneOffset.UTC)), RetryAfter.httpDate(text, sample.now()), text);
        });
    }

    @Test
    void takesTheLargestUsableValueAmongRepeatedAndCommaJoinedOnes() {
        forAll(RetryAfterPropertiesTest::headers, headers -> assertEquals(headers.expected(),
                RetryAfter.fromHeaders(headers.retryAfter(), headers.date(), clock(headers.clock()))));
    }

    @Test
    void neverThrowsOnAnyHeaders() {
        forAll(r -> {
            List<String> values = new ArrayList<>();
            for (int i = r.nextInt(4); i > 0; i--) {
                values.add(anySample(r).value() + (r.nextBoolean() ? "," + anySample(r).value() : ""));
            }
            Sample date = anySample(r);
            return new Headers(values, r.nextBoolean() ? date.value() : null, date.now(), Optional.empty());
        }, headers -> RetryAfter.fromHeaders(headers.retryAfter(), headers.date(), clock(headers.clock()))
                .ifPresent(RetryAfterPropertiesTest::assertWholeNonNegativeSeconds));
    }

    // --- the harness ---

    private static <T> void forAll(Function<Random, T> generator, Consumer<T> property) {
        Random random = new Random(SEED);
        for (int i = 0; i < TRIES; i++) {
            T value = generator.apply(random);
            try {
                property.accept(value);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("falsified by try " + i + " of seed " + SEED + ": " + value, e);
            }
        }
    }

    private static void assertWholeNonNegativeSeconds(Duration wait) {
        assertFalse(wait.isNegative(), "negative wait " + wait);
        assertEquals(0, wait.getNano(), "not whole seconds: " + wait);
    }

    private static Duration expectedDelta(String digitRun) {
        BigInteger value = new BigInteger(digitRun.strip());
        BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
        return Duration.ofSeconds(value.min(max).longValueExact());
    }

    /** The same fields a hundred years earlier, empty when that date does not exist (29 Feb 2000 to 1900). */
    private static Optional<LocalDateTime> hundredYearsBefore(LocalDateTime t) {
        try {
            return Optional.of(LocalDateTime.of(t.getYear() - 100, t.getMonth(), t.getDayOfMonth(), t.getHour(),
                    t.getMinute(), t.getSecond()));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    private static Clock clock(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    // --- generators ---

    /** Any text, biased toward digits, signs, dots, OWS and things that look like dates, with a "now" to read it at. */
    private static Sample anySample(Random r) {
        Instant now = instant(r);
        String value = switch (r.nextInt(9)) {
            case 0 -> chars(r, r.nextInt(30), () -> (char) r.nextInt(0x10000));
            case 1 -> chars(r, r.nextInt(12), () -> pick(r, "0123456789 \t+-._,xXeE\n\u00a0\u0661\uff11"));
            case 2 -> ows(r) + digitRun(r) + ows(r);
            case 3 -> chars(r, r.nextInt(35), () -> pick(r, "0123456789 ,:-\tMonTueFridaySunJanFebNovGMT"));
            case 4 -> ows(r) + nearDate(r, now) + ows(r);
            case 5 -> notOws(r) + (r.nextBoolean() ? digitRun(r) : nearDate(r, now)) + notOws(r);
            default -> mutate(r, nearDate(r, now));
        };
        return new Sample(value, now);
    }

    /** A date in any form a few seconds to decades either side of {@code now}, with any day name. */
    private static String nearDate(Random r, Instant now) {
        long seconds = r.nextBoolean() ? r.nextInt(20) - 5 : (long) ((r.nextDouble() - 0.3) * FORTY_YEARS);
        Instant date = now.plusSeconds(seconds).truncatedTo(ChronoUnit.SECONDS);
        DayOfWeek day = r.nextInt(4) == 0 ? DayOfWeek.of(1 + r.nextInt(7))
                : LocalDateTime.ofInstant(date, ZoneOffset.UTC).getDayOfWeek();
        return format(date, form(r), day);
    }

    private static String mutate(Random r, String text) {
        StringBuilder s = new StringBuilder(text);
        for (int edits = 1 + r.nextInt(2); edits > 0 && s.length() > 0; edits--) {
            int at = r.nextInt(s.length());
            char c = pick(r, "0123456789 \t,-:+aASsGMTn");
            switch (r.nextInt(4)) {
                case 0 -> s.setCharAt(at, c);
                case 1 -> s.deleteCharAt(at);
                case 2 -> s.insert(at, c);
                default -> s.setCharAt(at, Character.isUpperCase(s.charAt(at))
                        ? Character.toLowerCase(s.charAt(at)) : Character.toUpperCase(s.charAt(at)));
            }
        }
        return s.toString();
    }

    /** 1 to 45 digits, often with leading zeros, often around the Long.MAX_VALUE boundary. */
    private static String digitRun(Random r) {
        String zeros = r.nextInt(4) == 0 ? "0".repeat(1 + r.nextInt(3)) : "";
        return zeros + switch (r.nextInt(4)) {
            case 0 -> Integer.toString(r.nextInt(1000));
            case 1 -> Long.toString(r.nextLong() & Long.MAX_VALUE);
            case 2 -> BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(r.nextInt(5) - 2)).toString();
            default -> chars(r, 1 + r.nextInt(45), () -> pick(r, "0123456789"));
        };
    }

    private static Headers headers(Random r) {
        Instant serverNow = wholeSecond(r);
        Instant clock;
        String dateHeader;
        if (r.nextBoolean()) {
            clock = serverNow.plus(Duration.ofMillis(r.nextInt(1_200_000) - 600_000));
            dateHeader = format(serverNow, form(r));
        } else {
            // Without a Date header "now" is the clock: a fraction past a whole second still gives whole k.
            clock = serverNow.plusNanos(r.nextInt(1_000_000_000));
            dateHeader = null;
        }
        List<Token> tokens = new ArrayList<>();
        for (int i = 1 + r.nextInt(6); i > 0; i--) {
            tokens.add(token(r, serverNow));
        }
        List<String> entries = new ArrayList<>();
        StringBuilder entry = new StringBuilder(tokens.get(0).text());
        for (Token token : tokens.subList(1, tokens.size())) {
            if (r.nextInt(3) == 0) {
                entries.add(entry.toString());
                entry = new StringBuilder(token.text());
            } else {
                entry.append(pick(r, new String[] {",", ", ", " , ", ",\t"})).append(token.text());
            }
        }
        entries.add(entry.toString());
        Optional<Duration> expected = tokens.stream().map(Token::asked).flatMap(Optional::stream)
                .max(Duration::compareTo);
        return new Headers(entries, dateHeader, clock, expected);
    }

    private static Token token(Random r, Instant serverNow) {
        switch (r.nextInt(4)) {
            case 0: {
                int seconds = r.nextInt(100_000);
                return new Token(ows(r) + seconds + ows(r), Optional.of(Duration.ofSeconds(seconds)));
            }
            case 1: {
                String junk = pick(r, new String[] {"-5", "0x1F", "1_0", "+3", "1.5", "120junk", "", "Sun", "Friday",
                    "GMT", "\t", "Sun Nov"});
                return new Token(junk, Optional.empty());
            }
            case 2: {
                int seconds = 1 + r.nextInt(200_000);
                return new Token(format(serverNow.plusSeconds(seconds), form(r)),
                        Optional.of(Duration.ofSeconds(seconds)));
            }
            default:
                return new Token(format(serverNow.minusSeconds(r.nextInt(200_000)), form(r)), Optional.empty());
        }
    }

    private static Duration positiveOffset(Random r) {
        Duration offset = switch (r.nextInt(3)) {
            case 0 -> Duration.ofNanos((long) (r.nextDouble() * 10e9));
            case 1 -> Duration.ofSeconds(r.nextInt(3600), r.nextInt(1_000_000_000));
            default -> Duration.ofSeconds((long) (r.nextDouble() * FORTY_YEARS), r.nextInt(1_000_000_000));
        };
        return offset.isZero() ? Duration.ofNanos(1) : offset;
    }

    private static Instant instant(Random r) {
        return wholeSecond(r).plusNanos(r.nextBoolean() ? 0 : r.nextInt(1_000_000_000));
    }

    private static Instant wholeSecond(Random r) {
        long span = LATEST.getEpochSecond() - EARLIEST.getEpochSecond();
        return EARLIEST.plusSeconds((long) (r.nextDouble() * span));
    }

    private static Form form(Random r) {
        return Form.values()[r.nextInt(Form.values().length)];
    }

    /** Whitespace that is not OWS (newline, vertical tab, NBSP, em space...), sometimes mixed with OWS. */
    private static String notOws(Random r) {
        return chars(r, r.nextInt(3), () -> pick(r, " \t\n\r\u000b\f\u00a0\u2003\u3000"));
    }

    private static String ows(Random r) {
        return chars(r, r.nextInt(3) == 0 ? 1 + r.nextInt(3) : 0, () -> r.nextBoolean() ? ' ' : '\t');
    }

    private static String chars(Random r, int length, Supplier<Character> next) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(next.get());
        }
        return s.toString();
    }

    private static char pick(Random r, String alphabet) {
        return alphabet.charAt(r.nextInt(alphabet.length()));
    }

    private static String pick(Random r, String[] choices) {
        return choices[r.nextInt(choices.length)];
    }

    // --- an HTTP-date written independently of the parser ---

    static String format(Instant at, Form form) {
        return format(at, form, LocalDateTime.ofInstant(at, ZoneOffset.UTC).getDayOfWeek());
    }

    static String format(Instant at, Form form, DayOfWeek dayName) {
        LocalDateTime t = LocalDateTime.ofInstant(at, ZoneOffset.UTC);
        String time = String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        String month = MONTH[t.getMonthValue() - 1];
        int day = t.getDayOfMonth();
        return switch (form) {
            case IMF_FIXDATE -> String.format(Locale.ROOT, "%s, %02d %s %04d %s GMT", DAY[dayName.ordinal()], day,
                    month, t.getYear(), time);
            case RFC_850 -> String.format(Locale.ROOT, "%s, %02d-%s-%02d %s GMT", DAY_L[dayName.ordinal()], day,
                    month, t.getYear() % 100, time);
            case ASCTIME -> String.format(Locale.ROOT, "%s %s %2d %s %04d", DAY[dayName.ordinal()], month, day,
                    time, t.getYear());
        };
    }

    private static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder s = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            s.append(c >= 0x20 && c < 0x7f && c != '"' ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return s.append('"').toString();
    }
}
