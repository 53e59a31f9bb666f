package dev.cardcatalog.scryfall;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The client's configuration for tests that build its parts by hand: the spacings, {@code MAX_BACK_OFF}, the fallback
 * waits and the attempt timeout as given, everything else at its default (3 attempts, a 30 s lockout, a 1 h quiet
 * window at most, 10 s to connect, 60 s of silence, no bulk file spacing, no image base URL override).
 */
record TestScryfallConfig(Duration apiSpacing, Duration searchSpacing, Duration imageSpacing, Duration maxBackOff,
        List<Duration> fallbackWaits, Duration attemptTimeout) implements ScryfallConfig {

    @Override
    public String userAgent() {
        return "card-catalog/test (+https://example.org)";
    }

    @Override
    public Duration fileSpacing() {
        return Duration.ZERO;
    }

    @Override
    public int maxAttempts() {
        return 3;
    }

    @Override
    public Duration rateLimitLockout() {
        return Duration.ofSeconds(30);
    }

    @Override
    public Duration quietWindowMax() {
        return Duration.ofHours(1);
    }

    @Override
    public Duration connectTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    public Duration readTimeout() {
        return Duration.ofSeconds(60);
    }

    @Override
    public Optional<String> imageBaseUrlOverride() {
        return Optional.empty();
    }
}
