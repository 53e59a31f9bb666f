package dev.cardcatalog.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.catalog.BulkFileIntegrityException;
import dev.cardcatalog.catalog.NoValidRecordsException;
import dev.cardcatalog.platform.TransientFailure;
import dev.cardcatalog.scryfall.RateLimitedException;
import dev.cardcatalog.scryfall.ScryfallRequestException;
import dev.cardcatalog.scryfall.ScryfallUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The job-level retry policy of SERVICE.md §6.4, with its default numbers. */
class RateLimitRetryTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final RateLimitRetry policy = new RateLimitRetry(new RetryConfig() {
        public Duration rateLimitMinDelay() {
            return Duration.ofSeconds(30);
        }

        public Duration ceiling() {
            return Duration.ofHours(1);
        }

        public int maxRateLimitRetries() {
            return 3;
        }

        public List<Duration> transientBackoff() {
            return List.of(Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(8));
        }

        public int maxRetryCount() {
            return 50;
        }

        public Duration relaySlack() {
            return Duration.ofMinutes(5);
        }

        public Duration overdueGrace() {
            return Duration.ofMinutes(2);
        }
    });

    @Test
    void aRateLimitedJobComesBackAfterTheWaitAskedFor() {
        var decision = retry(rateLimited(40), 0, 0, 0, false);

        assertThat(decision.notBefore()).isEqualTo(NOW.plusSeconds(40));
        assertThat(decision.retryAfterAsked()).contains(Duration.ofSeconds(40));
        assertThat(decision.rateLimitStreak()).isEqualTo(1);
    }

    @Test
    void aRateLimitedJobWaitsThirtySecondsAtLeastAlsoWhenNoWaitWasGiven() {
        assertThat(retry(rateLimited(null), 0, 0, 0, false).notBefore()).isEqualTo(NOW.plusSeconds(30));
        assertThat(retry(rateLimited(5), 0, 0, 0, false).notBefore()).isEqualTo(NOW.plusSeconds(30));
        assertThat(retry(rateLimited(null), 0, 0, 0, false).retryAfterAsked()).isEmpty();
    }

    @Test
    void aWaitOverAnHourIsNotScheduled() {
        var decision = policy.decide(rateLimited(7200), "429 asking for 7200 s", 0, 0, 0, false, NOW);

        assertThat(decision).isInstanceOf(RateLimitRetry.Decision.Fail.class);
        assertThat(((RateLimitRetry.Decision.Fail) decision).reason()).startsWith("Scryfall asked to wait 7200 s");
        assertThat(retry(rateLimited(3600), 0, 0, 0, false).notBefore()).isEqualTo(NOW.plusSeconds(3600));
    }

    @Test
    void theFourthRateLimitInARowWithoutProgressFailsTheJob() {
        assertThat(retry(rateLimited(40), 2, 2, 0, false).rateLimitStreak()).isEqualTo(3);

        var fourth = policy.decide(rateLimited(40), "429", 3, 3, 0, false, NOW);

        assertThat(fourth).isInstanceOf(RateLimitRetry.Decision.Fail.class);
        assertThat(((RateLimitRetry.Decision.Fail) fourth).reason()).startsWith("rate limited 4 times in a row");
    }

    @Test
    void progressStartsTheRateLimitCountAgain() {
        var decision = retry(rateLimited(40), 9, 3, 0, true);

        assertThat(decision.rateLimitStreak()).isEqualTo(1);
    }

    @Test
    void transientFailuresBackOffThirtySecondsTwoMinutesEightMinutesThenFail() {
        assertThat(retry(unavailable(), 0, 0, 0, false).notBefore()).isEqualTo(NOW.plusSeconds(30));
        assertThat(retry(unavailable(), 1, 0, 1, false).notBefore()).isEqualTo(NOW.plusSeconds(120));
        assertThat(retry(new BulkFileIntegrityException("size"), 2, 0, 2, false).notBefore())
                .isEqualTo(NOW.plusSeconds(480));
        assertThat(policy.decide(unavailable(), "503", 3, 0, 3, false, NOW))
                .isInstanceOf(RateLimitRetry.Decision.Fail.class);
    }

    @Test
    void rateLimitsAndTransientFailuresAreCountedEachOnTheirOwn() {
        var transientAfterRateLimits = retry(unavailable(), 3, 3, 0, false);
        assertThat(transientAfterRateLimits.transientRetries()).isEqualTo(1);
        assertThat(transientAfterRateLimits.rateLimitStreak()).isEqualTo(3);

        var rateLimitAfterTransients = retry(rateLimited(40), 3, 0, 3, false);
        assertThat(rateLimitAfterTransients.rateLimitStreak()).isEqualTo(1);
        assertThat(rateLimitAfterTransients.transientRetries()).isEqualTo(3);
    }

    @Test
    void permanentFailuresFailAtOnce() {
        for (Throwable failure : List.of(new ScryfallRequestException("u", 404, "not_found", null, "gone"),
                new NoValidRecordsException(2), new NullPointerException())) {
            assertThat(policy.decide(failure, "reason", 0, 0, 0, false, NOW))
                    .isInstanceOf(RateLimitRetry.Decision.Fail.class);
        }
        assertThat(RateLimitRetry.classify(new TransientFailure("db", null))).isEqualTo(RateLimitRetry.Kind.TRANSIENT);
    }

    @Test
    void aJobIsNeverRetriedPastTheMaximumCount() {
        assertThat(policy.decide(rateLimited(40), "429", 50, 0, 0, true, NOW))
                .isInstanceOf(RateLimitRetry.Decision.Fail.class);
        assertThat(retry(rateLimited(40), 49, 0, 0, true)).isNotNull();
    }

    private RateLimitRetry.Decision.Retry retry(Throwable failure, int retryCount, int streak, int transients,
            boolean progressed) {
        var decision = policy.decide(failure, "reason", retryCount, streak, transients, progressed, NOW);
        assertThat(decision).isInstanceOf(RateLimitRetry.Decision.Retry.class);
        return (RateLimitRetry.Decision.Retry) decision;
    }

    private static RateLimitedException rateLimited(Integer seconds) {
        return new RateLimitedException("https://api.scryfall.com/bulk-data",
                Optional.ofNullable(seconds).map(Duration::ofSeconds).orElse(null), "429");
    }

    private static ScryfallUnavailableException unavailable() {
        return new ScryfallUnavailableException("https://api.scryfall.com/bulk-data", 503, "503", null);
    }
}
