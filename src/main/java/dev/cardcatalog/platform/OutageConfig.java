package dev.cardcatalog.platform;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * {@code card-catalog.outage.*}: how the service waits out an outage of its own infrastructure, PostgreSQL or the
 * Kafka broker (SERVICE.md §6.6). The command consumer and the delay relay hold a record they cannot act on and try
 * again after {@link #firstBackOff()}, doubling the wait up to {@link #maxBackOff()}, for as long as the outage
 * lasts. A request refused meanwhile answers 503 with {@code Retry-After} of {@link #retryAfterSeconds()}.
 */
@ConfigMapping(prefix = "card-catalog.outage")
public interface OutageConfig {

    /** The wait before the second try. */
    @WithDefault("500ms")
    Duration firstBackOff();

    /** The longest wait between two tries. */
    @WithDefault("30s")
    Duration maxBackOff();

    /** The wait after {@code wait}: twice as long, at most {@link #maxBackOff()}, at least 1 ms. */
    default Duration nextBackOff(Duration wait) {
        Duration doubled = wait.multipliedBy(2);
        Duration next = doubled.compareTo(maxBackOff()) > 0 ? maxBackOff() : doubled;
        return next.isZero() || next.isNegative() ? Duration.ofMillis(1) : next;
    }

    /**
     * The {@code Retry-After} of a 503 answered during an outage, in whole seconds (RFC 9110 §10.2.3): the longest
     * back-off, rounded up, at least 1. A client that waits so long finds the service back as soon as it is.
     */
    default long retryAfterSeconds() {
        long millis = maxBackOff().toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }
}
