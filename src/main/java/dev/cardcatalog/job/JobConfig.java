package dev.cardcatalog.job;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code card-catalog.jobs.*}: how runs report and when a silent run counts as interrupted (SERVICE.md §4, §6). */
@ConfigMapping(prefix = "card-catalog.jobs")
public interface JobConfig {

    /** How often a running run's progress and heartbeat are written (at most once a second, §4). */
    @WithDefault("1s")
    Duration progressInterval();

    /** A refresh run whose heartbeat is older than this is interrupted and taken over. */
    @WithDefault("2m")
    Duration refreshStaleAfter();

    /** An art build run whose heartbeat is older than this is interrupted and taken over (§5.6: 10 minutes). */
    @WithDefault("10m")
    Duration artBuildStaleAfter();

    /**
     * How long a stopping instance waits for its runs to hand themselves back (queued again, not charged as a
     * failure) before it goes on stopping; a run still going then is taken over once its heartbeat is stale.
     */
    @WithDefault("10s")
    Duration stopGrace();

    /** How often each instance looks for interrupted runs to take over and overdue retries to send again. */
    @WithDefault("15s")
    Duration sweepInterval();

    /** How long a POST waits for Kafka to accept its command before failing the job. */
    @WithDefault("10s")
    Duration publishTimeout();
}
