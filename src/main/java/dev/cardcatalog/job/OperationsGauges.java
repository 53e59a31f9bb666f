package dev.cardcatalog.job;

import dev.cardcatalog.art.ArtIndexStore;
import dev.cardcatalog.scryfall.QuietWindow;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gauges that make a missed week visible (SERVICE.md §9, alerting), read from PostgreSQL so that every replica
 * reports the same values, and the meters the alert rules and dashboard in {@code deploy/monitoring/} read that
 * exist before anything has happened. On {@code /q/metrics}:
 * <ul>
 *   <li>{@code refreshes_last_success_time_seconds{trigger}}: when the newest refresh of that trigger that applied
 *       or found its version already applied ended, in seconds since the epoch; 0 while there is none;</li>
 *   <li>{@code catalog_last_applied_time_seconds}: when the newest applied refresh ended (the catalog's age); 0 while
 *       none has;</li>
 *   <li>{@code art_index_last_published_time_seconds}: when the current art index was published; 0 while there is
 *       none;</li>
 *   <li>{@code scryfall_quiet_window_open_seconds}: how long the longest open quiet window has been open, 0 while
 *       none is;</li>
 *   <li>{@code jobs_by_state{kind,state}}: how many jobs of each kind are in each state.</li>
 * </ul>
 * The values are read every {@value #READ_EVERY} by a scheduler, not on each scrape, so a scrape never waits on the
 * database and several scrapers cost no more.
 */
@ApplicationScoped
public class OperationsGauges {

    /** How often the values are read from PostgreSQL. */
    static final String READ_EVERY = "10s";

    private final JobQueries queries;
    private final ArtIndexStore indexes;
    private final QuietWindow quietWindow;
    private final MeterRegistry metrics;
    private final Clock clock;

    private final Map<JobTrigger, Double> lastSuccess = new ConcurrentHashMap<>();
    private volatile double lastApplied;
    private volatile double lastPublished;
    private volatile double quietOpenSeconds;
    private final Map<JobKind, Map<JobState, Double>> byState = new EnumMap<>(JobKind.class);

    public OperationsGauges(JobQueries queries, ArtIndexStore indexes, QuietWindow quietWindow, MeterRegistry metrics,
            Clock clock) {
        this.queries = queries;
        this.indexes = indexes;
        this.quietWindow = quietWindow;
        this.metrics = metrics;
        this.clock = clock;
        for (JobKind kind : JobKind.values()) {
            Map<JobState, Double> states = new ConcurrentHashMap<>();
            for (JobState state : JobState.values()) {
                states.put(state, 0.0);
            }
            byState.put(kind, states);
        }
    }

    void register(@Observes StartupEvent start) {
        for (JobTrigger trigger : JobTrigger.values()) {
            lastSuccess.put(trigger, 0.0);
            Gauge.builder("refreshes.last.success.time", lastSuccess, map -> map.getOrDefault(trigger, 0.0))
                    .description("When the last successful refresh of this trigger ended (applied, or its version"
                            + " already applied), seconds since the epoch; 0 while there is none")
                    .baseUnit("seconds").tag("trigger", trigger.wire()).register(metrics);
        }
        Gauge.builder("catalog.last.applied.time", this, gauges -> gauges.lastApplied)
                .description("When the last refresh that applied a catalog ended, seconds since the epoch; 0 while"
                        + " none has").baseUnit("seconds").register(metrics);
        Gauge.builder("art.index.last.published.time", this, gauges -> gauges.lastPublished)
                .description("When the current art index was published, seconds since the epoch; 0 while there is"
                        + " none").baseUnit("seconds").register(metrics);
        Gauge.builder("scryfall.quiet.window.open", this, gauges -> gauges.quietOpenSeconds)
                .description("How long the longest open quiet window has been open; 0 while none is")
                .baseUnit("seconds").register(metrics);
        for (JobKind kind : JobKind.values()) {
            for (JobState state : JobState.values()) {
                Gauge.builder("jobs.by.state", byState.get(kind), states -> states.getOrDefault(state, 0.0))
                        .description("Jobs of this kind in this state, from the ledger")
                        .tag("kind", kind.wire()).tag("state", state.wire()).register(metrics);
                if (!state.inFlight()) {
                    // so that a dashboard panel of outcomes has a series from the start
                    metrics.counter("jobs.outcomes", "kind", kind.wire(), "outcome", state.wire());
                }
            }
            Timer.builder("jobs.runs.duration").description("How long runs took, whatever their outcome")
                    .tag("kind", kind.wire()).register(metrics);
        }
        metrics.counter("jobs.commands.dead.lettered");
        read();
    }

    @Scheduled(every = READ_EVERY, delayed = READ_EVERY, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void read() {
        try {
            Map<JobTrigger, Instant> refreshes = queries.lastSuccessfulRefreshes();
            for (JobTrigger trigger : JobTrigger.values()) {
                lastSuccess.put(trigger, seconds(refreshes.get(trigger)));
            }
            lastApplied = seconds(queries.lastAppliedRefresh().orElse(null));
            lastPublished = seconds(indexes.current().map(ArtIndexStore.StoredIndex::writtenAt).orElse(null));
            Map<JobKind, Map<JobState, Long>> counts = queries.countByKindAndState();
            for (JobKind kind : JobKind.values()) {
                for (JobState state : JobState.values()) {
                    byState.get(kind).put(state,
                            counts.getOrDefault(kind, Map.of()).getOrDefault(state, 0L).doubleValue());
                }
            }
            Instant now = clock.instant();
            quietOpenSeconds = quietWindow.all().await().atMost(Duration.ofSeconds(10)).stream()
                    .filter(window -> window.until().isAfter(now) && window.closedAt() == null)
                    .mapToDouble(window -> Math.max(0, Duration.between(window.openedAt(), now).toMillis() / 1000.0))
                    .max().orElse(0);
        } catch (RuntimeException e) {
            Log.warnf("the operations gauges could not be read: %s", e.getMessage());
        }
    }

    private static double seconds(Instant instant) {
        return instant == null ? 0 : instant.toEpochMilli() / 1000.0;
    }
}
