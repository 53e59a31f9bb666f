package dev.cardcatalog.scryfall;

import io.smallrye.faulttolerance.api.CustomBackoffStrategy;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The wait between two attempts of one Scryfall call (SERVICE.md §3.2), as a SmallRye Fault Tolerance custom
 * back-off. One instance per call. The wait comes from the failed attempt: the wait its answer asked for (a usable
 * {@code Retry-After}, or the 30 s lockout after a 429 without one), else the fallback for this attempt (1 s before
 * attempt 2, 2 s before attempt 3). Waits over {@code MAX_BACK_OFF} never reach here: such an attempt ends the call.
 */
final class RetryAfterBackoff implements CustomBackoffStrategy {

    private final List<Duration> fallbackWaits;
    private final Consumer<Duration> onWait;
    private int retries;

    /**
     * @param fallbackWaits the waits before attempts 2, 3, ... when the answer asked for none; the last repeats
     * @param onWait told of every wait taken (for metrics)
     */
    RetryAfterBackoff(List<Duration> fallbackWaits, Consumer<Duration> onWait) {
        this.fallbackWaits = fallbackWaits;
        this.onWait = onWait;
    }

    @Override
    public long nextDelayInMillis(Throwable failure) {
        retries++;
        Duration wait = failure instanceof RetryableAnswer answer && answer.wait != null
                ? answer.wait
                : fallbackWaits.get(Math.min(retries, fallbackWaits.size()) - 1);
        onWait.accept(wait);
        return SaturatingWaits.toMillis(wait);
    }
}
