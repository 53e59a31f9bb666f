package dev.cardcatalog.admin;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** {@code card-catalog.admin.*}: the admin page (SERVICE.md §8). */
@ConfigMapping(prefix = "card-catalog.admin")
public interface AdminConfig {

    /**
     * A running run whose progress has not moved for this long is shown with a warning ("no progress for 7 min"),
     * although its heartbeat is fresh (the instance is alive, the work is stuck or very slow).
     */
    @WithDefault("5m")
    Duration stalledAfter();

    /** How often the open page reloads its content while a job is queued, running or waiting. */
    @WithDefault("2s")
    Duration pollInterval();

    /**
     * The refresh panel warns when the last successful refresh (applied, or its version already applied) ended
     * longer ago than this: with a weekly refresh, 8 days means one was missed.
     */
    @WithDefault("8d")
    Duration refreshOverdueAfter();

    /** Jobs a page in the page's jobs list (1 to 100). */
    @WithDefault("20")
    int jobsPageSize();

    /**
     * The address of a job's trace in the trace UI, with {@code {trace_id}} where the trace id (32 hex digits) goes,
     * e.g. {@code https://jaeger.example.com/trace/{trace_id}}. Unset: the page shows no trace links. Only an
     * {@code http} or {@code https} address is linked.
     */
    Optional<String> traceUrl();
}
