package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The admin page's browser tests: a run without progress for 2 s is shown as stalled; images are not spaced, so
 * an art build of the sample is quick; the sweep is 10 minutes apart, so an interrupted run stays interrupted
 * while the page is looked at (TakeoverIT tests the takeover itself).
 */
public class AdminPageProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.admin.stalled-after", "2s",
                "card-catalog.scryfall.image-spacing", "2ms",
                "card-catalog.jobs.sweep-interval", "10m");
    }
}
