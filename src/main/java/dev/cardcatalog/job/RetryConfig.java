package dev.cardcatalog.job;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** {@code card-catalog.retry.*}: the job-level retry policy of SERVICE.md §6.4 and the delay relay of §6.5. */
@ConfigMapping(prefix = "card-catalog.retry")
public interface RetryConfig {

    /** A rate-limited job comes back after the wait asked for, and never sooner than this. */
    @WithDefault("30s")
    Duration rateLimitMinDelay();

    /** A wait asked for over this is not scheduled: the job fails. Also the relay's trust bound for not-before. */
    @WithDefault("1h")
    Duration ceiling();

    /** Rate-limit retries in a row without progress; the next rate limit fails the job. */
    @WithDefault("3")
    int maxRateLimitRetries();

    /** The back-off before each transient retry; their count is the number of transient retries allowed. */
    @WithDefault("30s,2m,8m")
    List<Duration> transientBackoff();

    /** The most retries a job gets in all; a delayed record claiming more is not trusted (dead-letter topic). */
    @WithDefault("50")
    int maxRetryCount();

    /** How far past the ceiling a not-before may lie before the relay refuses it (clock skew, publishing time). */
    @WithDefault("5m")
    Duration relaySlack();

    /** How long past its retry_at a waiting job may stay waiting before a sweep sends its command again. */
    @WithDefault("2m")
    Duration overdueGrace();
}
