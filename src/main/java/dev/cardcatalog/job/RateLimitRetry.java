package dev.cardcatalog.job;

import dev.cardcatalog.scryfall.RateLimitedException;
import dev.cardcatalog.scryfall.SaturatingWaits;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The job-level retry policy of SERVICE.md §6.4: what happens to a job whose run failed.
 * <ul>
 *   <li><b>Rate limited</b> ({@link RateLimitedException}): back after the wait asked for, and
 *       {@code rate-limit-min-delay} (30 s) at least, also when none was given. A wait asked for over the
 *       {@code ceiling} (1 h) is not scheduled: the job fails ("Scryfall asked to wait N s"). At most
 *       {@code max-rate-limit-retries} (3) in a row without progress: a run that made progress starts the count
 *       again, so a long art build that moves forward between rate limits keeps going.</li>
 *   <li><b>Transient</b> (Scryfall unavailable, a cut or corrupt download, the database or the disk failing): back
 *       off 30 s, 2 min, 8 min; at most that many, counted on their own.</li>
 *   <li><b>Permanent</b> (a 4xx other than 429, bad configuration, no valid records, a defect): failed at once.</li>
 * </ul>
 * A job never goes past {@code max-retry-count} retries in all. Pure: the caller gives the clock's instant.
 */
public final class RateLimitRetry {

    /** What to do with the job. */
    public sealed interface Decision {
        /** Fail the job with this reason. */
        record Fail(String reason) implements Decision {
        }

        /**
         * Retry the job at {@code notBefore}.
         *
         * @param retryAfterAsked the wait the source asked for, whole seconds; empty when it gave none
         * @param rateLimitStreak the job's new count of rate-limit retries in a row without progress
         * @param transientRetries the job's new count of transient retries
         */
        record Retry(Instant notBefore, String reason, Optional<Duration> retryAfterAsked, int rateLimitStreak,
                int transientRetries) implements Decision {
        }
    }

    /** How a failure counts. */
    public enum Kind { RATE_LIMITED, TRANSIENT, PERMANENT }

    private final RetryConfig config;

    public RateLimitRetry(RetryConfig config) {
        this.config = config;
    }

    /**
     * Decides the job's fate.
     *
     * @param failure why the run failed
     * @param reason the failure in words, as the run records it
     * @param retryCount retries the job had so far
     * @param rateLimitStreak rate-limit retries in a row without progress so far
     * @param transientRetries transient retries so far
     * @param progressed whether the failed run moved the work forward
     * @param now the current instant
     */
    public Decision decide(Throwable failure, String reason, int retryCount, int rateLimitStreak,
            int transientRetries, boolean progressed, Instant now) {
        Kind kind = classify(failure);
        if (kind == Kind.PERMANENT) {
            return new Decision.Fail(reason);
        }
        if (retryCount + 1 > config.maxRetryCount()) {
            return new Decision.Fail(reason + " (no retry: the job was retried " + retryCount + " times already)");
        }
        if (kind == Kind.RATE_LIMITED) {
            Optional<Duration> asked = ((RateLimitedException) failure).retryAfter();
            if (asked.isPresent() && asked.get().compareTo(config.ceiling()) > 0) {
                return new Decision.Fail("Scryfall asked to wait " + asked.get().toSeconds() + " s, more than the "
                        + config.ceiling().toSeconds() + " s a job waits: " + reason);
            }
            int streak = (progressed ? 0 : rateLimitStreak) + 1;
            if (streak > config.maxRateLimitRetries()) {
                return new Decision.Fail("rate limited " + streak + " times in a row without progress: " + reason);
            }
            Duration wait = asked.filter(a -> a.compareTo(config.rateLimitMinDelay()) > 0)
                    .orElse(config.rateLimitMinDelay());
            return new Decision.Retry(SaturatingWaits.after(now, wait), reason, asked, streak, transientRetries);
        }
        int used = transientRetries + 1;
        if (used > config.transientBackoff().size()) {
            return new Decision.Fail("failed " + used + " times: " + reason);
        }
        Duration wait = config.transientBackoff().get(used - 1);
        return new Decision.Retry(SaturatingWaits.after(now, wait), reason, Optional.empty(),
                progressed ? 0 : rateLimitStreak, used);
    }

    /** How {@code failure} counts: rate limited, transient, or permanent (anything not known to pass). */
    public static Kind classify(Throwable failure) {
        return FailureTaxonomy.of(failure).kind();
    }
}
