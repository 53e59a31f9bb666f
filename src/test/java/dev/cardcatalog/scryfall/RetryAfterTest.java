package dev.cardcatalog.scryfall;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {

    /** Friday 6 November 2026, 08:49:34 UTC: the response's Date in the skew examples. */
    private static final Instant SERVER_NOW = Instant.parse("2026-11-06T08:49:34Z");
    private static final String SERVER_DATE = "Fri, 06 Nov 2026 08:49:34 GMT";

    private static Clock clockAt(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    private static Optional<Duration> seconds(long seconds) {
        return Optional.of(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"-5", "0x1F", "1_0", "+3", "1.5", "120junk", " ", "\t", "1 0", "12\n", "\u00a012",
        "\u0661\u0662", "\uff11\uff12", "1e3", "-0"})
    void treatsAnythingButDigitsOrADateAsUnusable(String value) {
        assertEquals(Optional.empty(), RetryAfter.parse(value, SERVER_NOW));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0|0", "2|2", "31|31", "120|120", "007|7", "' \t120\t '|120",
        "9223372036854775807|9223372036854775807"})
    void readsDeltaSecondsAsWholeSeconds(String value, long expected) {
        assertEquals(seconds(expected), RetryAfter.parse(value, SERVER_NOW));
    }

    @Test
    void readsZeroAsRetryAtOnce() {
        assertEquals(Optional.of(Duration.ZERO), RetryAfter.parse("0", SERVER_NOW));
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775808", "1234567890123456789012345678901234567890"})
    void readsADigitRunBeyondLongAsVeryLong(String value) {
        assertEquals(seconds(Long.MAX_VALUE), RetryAfter.parse(value, SERVER_NOW));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Fri, 06 Nov 2026 08:49:37 GMT", "Friday, 06-Nov-26 08:49:37 GMT",
        "Fri Nov  6 08:49:37 2026", "Fri Nov 06 08:49:37 2026"})
    void measuresEachDateFormFromTheResponsesDateWhateverTheLocalClock(String retryAfter) {
        for (Duration skew : List.of(Duration.ofMinutes(7), Duration.ofMinutes(-7))) {
            Clock local = clockAt(SERVER_NOW.plus(skew));
            assertEquals(seconds(3), RetryAfter.fromHeaders(List.of(retryAfter), SERVER_DATE, local), skew::toString);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {SERVER_DATE, "Friday, 06-Nov-26 08:49:34 GMT", "Fri Nov  6 08:49:34 2026",
        " \tFri, 06 Nov 2026 08:49:34 GMT "})
    void readsTheResponsesDateInEachForm(String dateHeader) {
        Clock local = clockAt(SERVER_NOW.plus(Duration.ofMinutes(7)));
        assertEquals(seconds(3),
                RetryAfter.fromHeaders(List.of("Fri, 06 Nov 2026 08:49:37 GMT"), dateHeader, local));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"yesterday", "Sat, 06 Nov 2026 08:49:34 GMT"})
    void measuresFromTheLocalClockWithoutAUsableDate(String dateHeader) {
        Clock local = clockAt(Instant.parse("2026-11-06T08:49:30Z"));
        assertEquals(seconds(7),
                RetryAfter.fromHeaders(List.of("Fri, 06 Nov 2026 08:49:37 GMT"), dateHeader, local));
    }

    @Test
    void roundsAFractionOfASecondUp() {
        Clock local = clockAt(Instant.parse("2026-11-06T08:49:34.900Z"));
        assertEquals(seconds(3), RetryAfter.fromHeaders(List.of("Fri, 06 Nov 2026 08:49:37 GMT"), null, local));
        assertEquals(seconds(3), RetryAfter.parse("Fri, 06 Nov 2026 08:49:37 GMT", local.instant()));
        assertEquals(seconds(1), RetryAfter.parse("Fri, 06 Nov 2026 08:49:37 GMT",
                Instant.parse("2026-11-06T08:49:36.999999999Z")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Fri, 06 Nov 2026 08:49:34 GMT", "Fri, 06 Nov 2026 08:49:33 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"})
    void treatsADateAtOrBeforeNowAsUnusable(String value) {
        assertEquals(Optional.empty(), RetryAfter.parse(value, SERVER_NOW));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Sat, 06 Nov 2026 08:49:37 GMT", "Saturday, 06-Nov-26 08:49:37 GMT", "Sat Nov  6 08:49:37 2026",
        "fri, 06 Nov 2026 08:49:37 GMT", "Fri, 06 nov 2026 08:49:37 GMT", "FRI, 06 NOV 2026 08:49:37 GMT",
        "Fri, 06 Nov 2026 08:49:37 gmt", "Fri, 06 Nov 2026 08:49:37 UTC", "Fri, 06 Nov 2026 08:49:37",
        "Fri, 6 Nov 2026 08:49:37 GMT", "Fri,  06 Nov 2026 08:49:37 GMT", "Fri, 06 Nov 26 08:49:37 GMT",
        "Fri, 06 Nov +2026 08:49:37 GMT", "Fri, 06 Nov 02026 08:49:37 GMT", "Fri, 06 Nov 2026 8:49:37 GMT",
        "Friday, 06 Nov 2026 08:49:37 GMT", "Fri, 06-Nov-26 08:49:37 GMT", "Friday, 06-Nov-2026 08:49:37 GMT",
        "Fri Nov 6 08:49:37 2026", "Fri Nov   6 08:49:37 2026", "Fri Nov  6 08:49:37 2026 GMT",
        "Friday Nov  6 08:49:37 2026", "Fri, 06 Nov 2026 08:49:37 GMT junk", "Fri,\t06 Nov 2026 08:49:37 GMT",
        "Mon, 31 Nov 2026 08:49:37 GMT", "Fri, 06 Nov 2026 24:00:00 GMT", "Fri, 06 Nov 2026 08:60:00 GMT",
        "Fri, 06 Nov 2026 08:49:60 GMT", "Fri, 06 Nov 2026 08:49:37 GMT\n"})
    void rejectsAnythingOutsideTheThreeDateForms(String value) {
        assertEquals(Optional.empty(), RetryAfter.parse(value, SERVER_NOW));
    }

    @Test
    void acceptsTheLeapSecondAsTheNextMidnight() {
        Instant now = Instant.parse("2026-12-31T23:59:58Z");
        assertEquals(seconds(2), RetryAfter.parse("Thu, 31 Dec 2026 23:59:60 GMT", now));
        assertEquals(seconds(2), RetryAfter.parse("Fri, 01 Jan 2027 00:00:00 GMT", now));
    }

    @Test
    void acceptsSurroundingSpacesAndTabsOnly() {
        assertEquals(seconds(3), RetryAfter.parse(" \t Fri, 06 Nov 2026 08:49:37 GMT\t ", SERVER_NOW));
        assertEquals(seconds(3), RetryAfter.parse("\t3 ", SERVER_NOW));
    }

    /** RFC 9110 §5.6.7: more than 50 years ahead of now means the most recent past year with those digits. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Monday, 15-Jun-76 12:00:00 GMT|2076-06-15T12:00:00Z",
        "Tuesday, 15-Jun-76 12:00:01 GMT|1976-06-15T12:00:01Z",
        "Saturday, 15-Jun-75 23:59:59 GMT|2075-06-15T23:59:59Z",
        "Wednesday, 15-Jun-77 00:00:00 GMT|1977-06-15T00:00:00Z",
        "Saturday, 01-Jan-00 00:00:00 GMT|2000-01-01T00:00:00Z",
        "Friday, 31-Dec-99 23:59:59 GMT|1999-12-31T23:59:59Z",
        "Monday, 15-Jun-26 12:00:00 GMT|2026-06-15T12:00:00Z"})
    void readsAnRfc850YearAsNoMoreThanFiftyYearsAhead(String value, String expected) {
        Instant now = Instant.parse("2026-06-15T12:00:00Z");
        assertEquals(Optional.of(Instant.parse(expected)), RetryAfter.httpDate(value, now));
    }

    @Test
    void checksAnRfc850WeekdayAgainstTheYearItMeans() {
        Instant now = Instant.parse("2026-06-15T12:00:00Z");
        // 15 Jun 2076 is a Monday, but one second past the 50 years it means 1976, a Tuesday.
        assertEquals(Optional.empty(), RetryAfter.httpDate("Monday, 15-Jun-76 12:00:01 GMT", now));
        assertEquals(Optional.empty(), RetryAfter.httpDate("Tuesday, 15-Jun-76 12:00:00 GMT", now));
        assertEquals(Optional.of(Duration.ofSeconds(Duration.between(now,
                Instant.parse("2076-06-15T12:00:00Z")).getSeconds())),
                RetryAfter.parse("Monday, 15-Jun-76 12:00:00 GMT", now));
    }

    @Test
    void takesTheLargestOfRepeatedValues() {
        Clock local = clockAt(SERVER_NOW);
        assertEquals(seconds(30), RetryAfter.fromHeaders(List.of("5", "30"), null, local));
        assertEquals(seconds(30), RetryAfter.fromHeaders(List.of("30", "5"), null, local));
    }

    @Test
    void takesTheLargestOfCommaJoinedValues() {
        Clock local = clockAt(SERVER_NOW);
        assertEquals(seconds(30), RetryAfter.fromHeaders(List.of("5, 30"), null, local));
        assertEquals(seconds(7), RetryAfter.fromHeaders(List.of("-5, 7"), null, local));
        assertEquals(seconds(7), RetryAfter.fromHeaders(List.of("7,,junk"), null, local));
        assertEquals(Optional.of(Duration.ZERO), RetryAfter.fromHeaders(List.of("0, -1"), null, local));
    }

    @Test
    void keepsADatesOwnCommaWhenSplittingJoinedValues() {
        Clock local = clockAt(SERVER_NOW);
        String in20 = "Fri, 06 Nov 2026 08:49:54 GMT";
        String in3Rfc850 = "Friday, 06-Nov-26 08:49:37 GMT";
        assertEquals(seconds(20), RetryAfter.fromHeaders(List.of(in20 + ", 10"), SERVER_DATE, local));
        assertEquals(seconds(20), RetryAfter.fromHeaders(List.of("10, " + in20), SERVER_DATE, local));
        assertEquals(seconds(10), RetryAfter.fromHeaders(List.of(in3Rfc850 + ",10"), SERVER_DATE, local));
        assertEquals(seconds(20), RetryAfter.fromHeaders(List.of(in3Rfc850 + ", " + in20), SERVER_DATE, local));
        assertEquals(seconds(5), RetryAfter.fromHeaders(List.of("Fri, 5"), SERVER_DATE, local));
    }

    @Test
    void findsNothingUsableInAbsentOrUnusableHeaders() {
        Clock local = clockAt(SERVER_NOW);
        assertEquals(Optional.empty(), RetryAfter.fromHeaders(null, SERVER_DATE, local));
        assertEquals(Optional.empty(), RetryAfter.fromHeaders(List.of(), SERVER_DATE, local));
        assertEquals(Optional.empty(), RetryAfter.fromHeaders(Arrays.asList(null, "", "-5, 0x1F"), null, local));
        assertEquals(Optional.empty(),
                RetryAfter.fromHeaders(List.of("Sun, 06 Nov 1994 08:49:37 GMT"), SERVER_DATE, local));
    }
}
