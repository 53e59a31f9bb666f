package dev.cardcatalog.scryfall;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spacing between requests (SERVICE.md §3.1), on a clock the test moves: when a request may go, and that taking
 * a slot pushes the next one. Real requests are measured at the stand-in in {@code ScryfallClientTest}.
 */
class RequestSpacingTest {

    private static final long MS = 1_000_000;

    private long now = 1_000 * MS;
    private final RequestSpacing spacing = new RequestSpacing(
            config(Duration.ofMillis(100), Duration.ofMillis(500)), () -> now);

    @Test
    void anApiRequestWaitsUntilAHundredMillisecondsAfterThePreviousOneWent() {
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
        now += 30 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isEqualTo(70 * MS);
        now += 70 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
        now += 250 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
    }

    @Test
    void theSpacingRunsFromWhenThePreviousRequestWasWrittenNotWhenItWasLetGo() {
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
        now += 30 * MS; // a cold client's first request reaches the wire 30 ms after its slot
        spacing.sentApi("/bulk-data");
        now += 70 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isEqualTo(30 * MS);
        now += 30 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
        spacing.sentApi("/sets"); // written at once: the next slot stays 100 ms after this one
        now += 100 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
    }

    @Test
    void searchLikeEndpointsWaitFiveHundredMillisecondsAndStillCountForTheApi() {
        assertThat(take(true, RequestSpacing.Lane.API)).isZero();
        now += 100 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
        now += 100 * MS;
        assertThat(take(true, RequestSpacing.Lane.API)).isEqualTo(300 * MS);
        now += 300 * MS;
        assertThat(take(true, RequestSpacing.Lane.API)).isZero();
        now += 50 * MS;
        assertThat(take(false, RequestSpacing.Lane.API)).isEqualTo(50 * MS);
    }

    @Test
    void imagesHaveALaneOfTheirOwnAndBulkFilesAreNotSpaced() {
        assertThat(take(false, RequestSpacing.Lane.API)).isZero();
        assertThat(take(false, RequestSpacing.Lane.IMAGE)).isZero();
        assertThat(take(false, RequestSpacing.Lane.IMAGE)).isEqualTo(100 * MS);
        assertThat(take(false, RequestSpacing.Lane.FILE)).isZero();
        assertThat(take(false, RequestSpacing.Lane.FILE)).isZero();
    }

    @Test
    void aWaitShorterThanAMillisecondStillGetsATimerThatRuns() {
        assertThat(RequestSpacing.timer(1)).isEqualTo(Duration.ofMillis(1));
        assertThat(RequestSpacing.timer(400_000)).isEqualTo(Duration.ofMillis(1));
        assertThat(RequestSpacing.timer(1_000_001)).isEqualTo(Duration.ofMillis(2));
        assertThat(RequestSpacing.timer(100_000_000)).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void waitingOnRealTimersEnds() {
        RequestSpacing real = new RequestSpacing(config(Duration.ofMillis(20), Duration.ofMillis(50)));
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            real.awaitImage().await().atMost(Duration.ofSeconds(5));
            real.awaitApi("/sets").await().atMost(Duration.ofSeconds(5));
        }
        // ten image slots 100 ms apart: nine waits at least
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(900 * MS);
    }

    private long take(boolean search, RequestSpacing.Lane lane) {
        return spacing.tryTake(search, lane);
    }

    static ScryfallConfig config(Duration api, Duration search) {
        return new TestScryfallConfig(api, search, Duration.ofMillis(100), Duration.ofSeconds(30),
                List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), Duration.ofMinutes(2));
    }
}
