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

    /**
     * A stored window, open or not, as operators see it.
     *
     * @param openedBy the id of the call that opened it
     * @param closedAt when an operator closed it early; null when none did (since it last opened)
     * @param closedBy the name of the principal who closed it ({@code anonymous} without authentication)
     */
    public record Record(String scope, Instant openedAt, Instant until, String openedBy, String reason,
            Instant closedAt, String closedBy) {
    }

    /** What closing a window did. */
    public sealed interface Closing {
        /** The window was open and is now closed. */
        record Closed(Record window) implements Closing {
        }

        /** The window had already closed (its time passed, or an operator closed it). */
        record NotOpen(Record window) implements Closing {
        }

        /** No window was ever stored for the scope. */
        record Unknown() implements Closing {
        }
    }

    private static final String COLUMNS = "scope, opened_at, until, opened_by, reason, closed_at, closed_by";

    private final Pool pool;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final Duration max;

    public QuietWindow(Pool pool, Clock clock, MeterRegistry metrics, ScryfallConfig config) {
        this.pool = pool;
        this.clock = clock;
        this.metrics = metrics;
        this.max = config.quietWindowMax();
        if (max.isNegative() || max.isZero()) {
            throw new IllegalArgumentException("card-catalog.scryfall.quiet-window-max must be positive");
        }
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
     * Opens (or extends: never shortens) the window for {@code scope} for {@code wait} from now, and never longer
     * than {@code quiet-window-max} from now: a longer wait is cut to it and logged. Any wait is accepted, up to
     * {@code Long.MAX_VALUE} seconds; nothing here throws. Failures to store it are logged, not raised: the call's
     * own rule still applies.
     */
    Uni<Void> openFor(String scope, Duration wait, String callId, String reason) {
        Instant now = clock.instant();
        Duration length = window(wait, max);
        if (length.compareTo(wait) < 0) {
            metrics.counter("scryfall.quiet.window.capped", "scope", scope).increment();
            Log.warnf("Scryfall asked %s for a wait of %d s; the quiet window is cut to the %d s maximum "
                    + "(card-catalog.scryfall.quiet-window-max)", scope, wait.getSeconds(), max.getSeconds());
        }
        OffsetDateTime untilAt = OffsetDateTime.ofInstant(SaturatingWaits.after(now, length), ZoneOffset.UTC);
        OffsetDateTime openedAt = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        metrics.counter("scryfall.quiet.window.opens", "scope", scope).increment();
        metrics.counter("scryfall.quiet.window.seconds", "scope", scope).increment(SaturatingWaits.toSeconds(length));
        return pool.preparedQuery("""
                INSERT INTO quiet_window (scope, opened_at, until, opened_by, reason) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (scope) DO UPDATE SET
                    opened_at = CASE WHEN quiet_window.until < EXCLUDED.until THEN EXCLUDED.opened_at ELSE quiet_window.opened_at END,
                    opened_by = CASE WHEN quiet_window.until < EXCLUDED.until THEN EXCLUDED.opened_by ELSE quiet_window.opened_by END,
                    reason    = CASE WHEN quiet_window.until < EXCLUDED.until THEN EXCLUDED.reason ELSE quiet_window.reason END,
                    closed_at = CASE WHEN quiet_window.until < EXCLUDED.until THEN NULL ELSE quiet_window.closed_at END,
                    closed_by = CASE WHEN quiet_window.until < EXCLUDED.until THEN NULL ELSE quiet_window.closed_by END,
                    until     = GREATEST(quiet_window.until, EXCLUDED.until)
                """)
                .execute(Tuple.of(scope, openedAt, untilAt, callId, reason))
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    Log.warnf("quiet window for %s could not be stored (%s)", scope, failure.toString());
                    return null;
                });
    }

    /**
     * How long a window opened for {@code wait} stays open: {@code wait}, at most {@code max}, never negative.
     * Pure and total: for any {@code Duration}, up to {@code Long.MAX_VALUE} seconds.
     */
    static Duration window(Duration wait, Duration max) {
        return wait.isNegative() ? Duration.ZERO : SaturatingWaits.atMost(wait, max);
    }

    /** Every stored window, open or not, by scope. */
    public Uni<java.util.List<Record>> all() {
        return pool.query("SELECT " + COLUMNS + " FROM quiet_window ORDER BY scope").execute()
                .map(rows -> {
                    java.util.List<Record> windows = new java.util.ArrayList<>();
                    rows.forEach(row -> windows.add(record(row)));
                    return windows;
                });
    }

    /** The stored window of {@code scope}, open or not. */
    public Uni<Optional<Record>> find(String scope) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM quiet_window WHERE scope = $1")
                .execute(Tuple.of(scope))
                .map(rows -> {
                    var it = rows.iterator();
                    return it.hasNext() ? Optional.of(record(it.next())) : Optional.<Record>empty();
                });
    }

    /**
     * Closes the window of {@code scope} now, recording who and when (SERVICE.md §3.3): calls may ask Scryfall
     * again at once. The call that opened it is not told; its own in-call wait, 30 s at most, still runs.
     *
     * @param closedBy the name of the principal closing it
     */
    public Uni<Closing> close(String scope, String closedBy) {
        OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        return pool.preparedQuery("UPDATE quiet_window SET until = $2, closed_at = $2, closed_by = $3 "
                + "WHERE scope = $1 AND until > $2 RETURNING " + COLUMNS)
                .execute(Tuple.of(scope, now, closedBy))
                .chain(rows -> {
                    var it = rows.iterator();
                    if (it.hasNext()) {
                        Record closed = record(it.next());
                        Log.infof("quiet window for %s closed early by %s", scope, closedBy);
                        return Uni.createFrom().<Closing>item(new Closing.Closed(closed));
                    }
                    return find(scope).map(found -> found.<Closing>map(Closing.NotOpen::new)
                            .orElseGet(Closing.Unknown::new));
                });
    }

    private static Record record(Row row) {
        OffsetDateTime closedAt = row.getOffsetDateTime("closed_at");
        return new Record(row.getString("scope"), row.getOffsetDateTime("opened_at").toInstant(),
                row.getOffsetDateTime("until").toInstant(), row.getString("opened_by"), row.getString("reason"),
                closedAt == null ? null : closedAt.toInstant(), row.getString("closed_by"));
    }

    static Duration ceilSeconds(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return Duration.ZERO;
        }
        long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(seconds);
    }
}
