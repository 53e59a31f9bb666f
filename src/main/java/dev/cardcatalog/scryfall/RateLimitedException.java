package dev.cardcatalog.scryfall;

import java.time.Duration;
import java.util.Optional;

/**
 * Scryfall asked the caller to wait longer than the client sits out ({@code MAX_BACK_OFF}, 30 s), a call's
 * attempts ran out on 429s, or the quiet window is open. The caller comes back no sooner than
 * {@link #retryAfter()} (SERVICE.md §3.2, §3.3, §6.4).
 */
public class RateLimitedException extends ScryfallException {

    private final Duration retryAfter;

    /**
     * @param retryAfter the wait asked for, whole seconds; null when the source gave none
     */
    public RateLimitedException(String url, Duration retryAfter, String message) {
        super(url, message, null);
        this.retryAfter = retryAfter;
    }

    /** The wait asked for (whole seconds, RFC 9110 §10.2.3), empty when the source gave none. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
