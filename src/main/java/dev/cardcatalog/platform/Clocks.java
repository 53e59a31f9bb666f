package dev.cardcatalog.platform;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The clock every time-based rule reads: UTC system time. It is a default bean, so a deployment or a test could
 * replace it, but none does today: the {@code @QuarkusTest}s keep real time and shorten the configured durations
 * instead (as {@code ShortRetryProfile} does), and the pure rules are tested on time they are given
 * ({@code RateLimitRetry} takes the instant, {@code RequestSpacing} a nanosecond clock, {@code RetryAfter} "now").
 */
public class Clocks {

    @Produces
    @Singleton
    @io.quarkus.arc.DefaultBean
    public Clock clock() {
        return Clock.systemUTC();
    }
}
