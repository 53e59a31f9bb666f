package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The retry numbers shortened by configuration, the logic unchanged: MAX_BACK_OFF 1 s (so a Retry-After of 2 s
 * ends a call), the lockout after a bare 429 1 s, a rate-limited job's minimum delay 2 s, and the sweep every second
 * sending again what has been overdue for 3 s.
 */
public class ShortRetryProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.scryfall.max-back-off", "1s",
                "card-catalog.scryfall.rate-limit-lockout", "1s",
                "card-catalog.retry.rate-limit-min-delay", "2s",
                "card-catalog.retry.overdue-grace", "3s",
                "card-catalog.jobs.sweep-interval", "1s");
    }
}
