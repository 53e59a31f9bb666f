package dev.cardcatalog.scryfall;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code card-catalog.scryfall.*}: the client's manners and its Retry-After rule (SERVICE.md §3). The base URL is
 * Quarkus's {@code quarkus.rest-client.scryfall.url}, the REST client's; files and images time out after
 * {@link #connectTimeout()} and {@link #readTimeout()}.
 */
@ConfigMapping(prefix = "card-catalog.scryfall")
public interface ScryfallConfig {

    /** The User-Agent sent with every request: {@code card-catalog/<version> (+<project url>)}. */
    String userAgent();

    /** Spacing between two api.scryfall.com requests (Scryfall publishes 10 a second). */
    @WithDefault("100ms")
    Duration apiSpacing();

    /** Spacing for {@code /cards/search}, {@code /cards/named}, {@code /cards/random}, {@code /cards/collection} (2 a second). */
    @WithDefault("500ms")
    Duration searchSpacing();

    /** Spacing between bulk file requests; Scryfall publishes no limit for its file hosts. */
    @WithDefault("0s")
    Duration fileSpacing();

    /**
     * Spacing between image requests: 100 ms, 10 a second. The image host publishes no limit; this is a courtesy
     * to it (SERVICE.md §5.3).
     */
    @WithDefault("100ms")
    Duration imageSpacing();

    /** Attempts per call, the first included. */
    @WithDefault("3")
    int maxAttempts();

    /** MAX_BACK_OFF: the longest wait sat out inside a call; a longer one ends the call with RateLimitedException. */
    @WithDefault("30s")
    Duration maxBackOff();

    /** The wait taken after a 429 without a usable Retry-After: Scryfall's documented lockout. */
    @WithDefault("30s")
    Duration rateLimitLockout();

    /**
     * The longest a quiet window stays open, however long the answer asked for (SERVICE.md §3.3; the job ceiling of
     * §6.4 by default). A longer wait opens the window this long and is logged.
     */
    @WithDefault("1h")
    Duration quietWindowMax();

    /** Waits before attempt 2, 3, ... after a 5xx or a network error without a usable Retry-After. */
    @WithDefault("1s,2s")
    List<Duration> fallbackWaits();

    /** Connect timeout of a bulk file or image request (API calls: the REST client's own key). */
    @WithDefault("10s")
    Duration connectTimeout();

    /** Read timeout of a bulk file or image request: the longest silence on its connection. */
    @WithDefault("60s")
    Duration readTimeout();

    /**
     * The longest one attempt of any call may take, from the quiet window's check to its answer (an API call's and
     * an image's whole body, a bulk file's headers): a Duration, more than {@link #connectTimeout()} plus
     * {@link #readTimeout()} so that they fire first where they can. An attempt still going then is stopped and counts
     * as a network error (retried as one), whatever it was waiting for; the error names what that was.
     */
    @WithDefault("2m")
    Duration attemptTimeout();

    /**
     * Sends requests for {@code https://<image host>/...} to this base URL instead, keeping the path: for the
     * offline stand-in only. The URL is still checked against {@code card-catalog.art.image-hosts} first.
     */
    Optional<String> imageBaseUrlOverride();
}
