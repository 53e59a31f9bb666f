package dev.cardcatalog.scryfall;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The quiet window (SERVICE.md §3.3): after a 429, or any answer asking for a wait, no other call sends a request
 * to that host until the time asked for. Stored in PostgreSQL ({@code quiet_window}, one row per host) so every
 * replica sees it. The call that opened it is its owner and makes its own next attempt when it closes.
 *
 * <p>A database that cannot be read does not stop calls: the check then lets the call through and logs a warning
 * (the in-call Retry-After rule still holds).
 */
@ApplicationScoped
public class QuietWindow {

    /** An open window: until when, and which call opened it. */
    public record Window(String scope, Instant until, String openedBy, String reason) {
    }

    private final Pool pool;
    private final Clock clock;
    private final MeterRegistry metrics;

    public QuietWindow(Pool pool, Clock clock, MeterRegistry metrics) {
        this.pool = pool;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * Fails with {@link RateLimitedException} carrying the time left (rounded up to whole seconds) when a window
     * for {@code scope} is open and {@code callId} did not open it; completes otherwise.
     */
    Uni<Void> admit(String scope, String callId, String url) {
        return open(scope).onFailure().recoverWithItem(failure -> {
            Log.warnf("quiet window for %s could not be read (%s); letting the call through", scope, failure.toString());
            return Optional.empty();
        }).chain(window -> {
            if (window.isEmpty() || window.get().openedBy().equals(callId)) {
                return Uni.createFrom().voidItem();
            }
            Duration remaining = ceilSeconds(Duration.between(clock.instant(), window.get().until()));
            metrics.counter("scryfall.calls.ended.early", "reason", "quiet-window").increment();
            return Uni.createFrom().failure(new RateLimitedException(url, remaining,
                    "Scryfall's quiet window for " + scope + " is open for " + remaining.toSeconds()
                            + " s more (" + window.get().reason() + "); no request sent"));
        });
    }

    /** The window open for {@code scope} now, if any. */
    public Uni<Optional<Window>> open(String scope) {
        OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        return pool.preparedQuery("SELECT scope, until, opened_by, reason FROM quiet_window WHERE scope = $1 AND until > $2")
                .execute(Tuple.of(scope, now))
                .map(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return Optional.<Window>empty();
                    }
                    Row row = it.next();
                    return Optional.of(new Window(row.getString("scope"),
                            row.getOffsetDateTime("until").toInstant(), row.getString("opened_by"),
                            row.getString("reason")));
                });
    }

    /** The latest close of any open window, if one is open (for operators: "run now" waits for it). */
    public Uni<Optional<Instant>> closesAt() {
        OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        return pool.preparedQuery("SELECT max(until) AS until FROM quiet_window WHERE until > $1")
                .execute(Tuple.of(now))
                .map(rows -> {
                    OffsetDateTime until = rows.iterator().next().getOffsetDateTime("until");
                    return Optional.ofNullable(until).map(OffsetDateTime::toInstant);
                });
    }

    /**
     * Opens (or extends: never shortens) the window for {@code scope} for {@code wait} from now. Failures to store
     * it are logged, not raised: the call's own rule still applies.
     */
    Uni<Void> openFor(String scope, Duration wait, String callId, String reason) {
        Instant until = clock.instant().plus(wait);
        OffsetDateTime untilAt = OffsetDateTime.ofInstant(until, ZoneOffset.UTC);
        OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        metrics.counter("scryfall.quiet.window.opens", "scope", scope).increment();
        metrics.counter("scryfall.quiet.window.seconds", "scope", scope).increment(wait.toMillis() / 1000.0);
        return pool.preparedQuery("""
                INSERT INTO quiet_window (scope, opened_at, until, opened_by, reason) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (scope) DO UPDATE SET
                    opened_at = CASE WHEN quiet_window.until < EXCLUDED.until THEN EXCLUDED.opened_at ELSE quiet_window.opened_at END,
                    opened_by = CASE WHEN quiet_window.until < EXCLUDED.until THEN EXCLUDED.opened_by ELSE quiet_window.opened_by END,
                    reason    = CASE WHEN quiet_window.until < EXCLUDED.until THEN EXCLUDED.reason ELSE quiet_window.reason END,
                    until     = GREATEST(quiet_window.until, EXCLUDED.until)
                """)
                .execute(Tuple.of(scope, now, untilAt, callId, reason))
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    Log.warnf("quiet window for %s could not be stored (%s)", scope, failure.toString());
                    return null;
                });
    }

    static Duration ceilSeconds(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return Duration.ZERO;
        }
        long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(seconds);
    }
}
