package dev.cardcatalog.scryfall;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The spacing between requests (SERVICE.md §3.1), measured on the moments the spacing lets requests go. */
class RequestSpacingTest {

    private final RequestSpacing spacing = new RequestSpacing(config(Duration.ofMillis(100), Duration.ofMillis(500)));

    @Test
    void apiRequestsGoAHundredMillisecondsApart() {
        long first = takeApi("/sets");
        long second = takeApi("/bulk-data");
        long third = takeApi("/sets");

        assertThat(second - first).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(third - second).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
    }

    @Test
    void searchLikeEndpointsGoFiveHundredMillisecondsApartAndStillCountForTheApi() {
        long search = takeApi("/cards/search");
        long other = takeApi("/sets");
        long nextSearch = takeApi("/cards/named");

        assertThat(other - search).isBetween(Duration.ofMillis(100).toNanos(), Duration.ofMillis(400).toNanos());
        assertThat(nextSearch - search).isGreaterThanOrEqualTo(Duration.ofMillis(500).toNanos());
    }

    @Test
    void imageRequestsGoTheImageSpacingApart() {
        long first = takeImage();
        long second = takeImage();
        long third = takeImage();

        // measured after each wait returns, not when the slot was taken: a few microseconds either way
        assertThat(second - first).isGreaterThanOrEqualTo(Duration.ofMillis(99).toNanos());
        assertThat(third - second).isGreaterThanOrEqualTo(Duration.ofMillis(99).toNanos());
    }

    @Test
    void aWaitShorterThanAMillisecondStillGetsATimerThatRuns() {
        assertThat(RequestSpacing.timer(1)).isEqualTo(Duration.ofMillis(1));
        assertThat(RequestSpacing.timer(400_000)).isEqualTo(Duration.ofMillis(1));
        assertThat(RequestSpacing.timer(1_000_001)).isEqualTo(Duration.ofMillis(2));
        assertThat(RequestSpacing.timer(100_000_000)).isEqualTo(Duration.ofMillis(100));
    }

    private long takeImage() {
        spacing.awaitImage().await().atMost(Duration.ofSeconds(5));
        return System.nanoTime();
    }

    private long takeApi(String path) {
        spacing.awaitApi(path).await().atMost(Duration.ofSeconds(5));
        return System.nanoTime();
    }

    static ScryfallConfig config(Duration api, Duration search) {
        return new ScryfallConfig() {
            public String userAgent() {
                return "card-catalog/test (+https://example.org)";
            }

            public Duration apiSpacing() {
                return api;
            }

            public Duration searchSpacing() {
                return search;
            }

            public Duration fileSpacing() {
                return Duration.ZERO;
            }

            public Duration imageSpacing() {
                return Duration.ofMillis(100);
            }

            public int maxAttempts() {
                return 3;
            }

            public Duration maxBackOff() {
                return Duration.ofSeconds(30);
            }

            public Duration rateLimitLockout() {
                return Duration.ofSeconds(30);
            }

            public List<Duration> fallbackWaits() {
                return List.of(Duration.ofSeconds(1), Duration.ofSeconds(2));
            }

            public Duration connectTimeout() {
                return Duration.ofSeconds(10);
            }

            public Duration readTimeout() {
                return Duration.ofSeconds(60);
            }

            public Optional<String> imageBaseUrlOverride() {
                return Optional.empty();
            }
        };
    }
}
