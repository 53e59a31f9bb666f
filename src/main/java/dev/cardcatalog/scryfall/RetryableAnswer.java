package dev.cardcatalog.scryfall;

import java.time.Duration;

/**
 * An attempt that may be retried inside the call: a 429 or a 5xx whose wait is within {@code MAX_BACK_OFF}, or a
 * network error. {@link #wait} is the wait to take before the next attempt, or null for the fallback waits.
 */
final class RetryableAnswer extends RuntimeException {

    enum Kind { RATE_LIMITED, SERVER_ERROR, NETWORK }

    final Kind kind;
    final int status;
    /** The wait to take before the next attempt; null: use the fallback for this attempt. */
    final Duration wait;
    /** The wait the source asked for (a usable Retry-After), null when it gave none. */
    final Duration asked;

    RetryableAnswer(Kind kind, int status, Duration wait, Duration asked, String message, Throwable cause) {
        super(message, cause, false, false);
        this.kind = kind;
        this.status = status;
        this.wait = wait;
        this.asked = asked;
    }
}
