package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** One photo match at a time, one more waiting (for up to a minute), and a 3 s {@code Retry-After} beyond that. */
public class MatchLimitProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.art.match-concurrency", "1",
                "card-catalog.art.match-queue", "1",
                "card-catalog.art.match-queue-wait", "60s",
                "card-catalog.art.match-retry-after", "3s");
    }
}
