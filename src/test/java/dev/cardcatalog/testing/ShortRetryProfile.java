package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The retry numbers shortened by configuration, the logic unchanged: MAX_BACK_OFF 1 s (so a Retry-After of 2 s
 * ends a call, as one over 30 s does by default), the lockout after a bare 429 1 s, a rate-limited job's minimum
 * delay 2 s (30 s), and the sweep every second sending again what has been overdue for 3 s. A rate-limited job
 * therefore comes back after seconds: the retry flow end to end, and an operator's actions on waiting jobs
 * (cancelling, SERVICE.md §6.6; consenting to a smaller art index, §5.8), where a test sees the delayed record arrive
 * after its cancel. Images are not spaced, so an art build of the sample is quick; a test that cancels a running
 * build holds it with an image the stand-in serves slowly.
 */
public class ShortRetryProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.scryfall.max-back-off", "1s",
                "card-catalog.scryfall.rate-limit-lockout", "1s",
                "card-catalog.retry.rate-limit-min-delay", "2s",
                "card-catalog.retry.overdue-grace", "3s",
                "card-catalog.jobs.sweep-interval", "1s",
                "card-catalog.scryfall.image-spacing", "2ms");
    }
}
