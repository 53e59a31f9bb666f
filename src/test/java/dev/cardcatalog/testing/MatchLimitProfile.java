package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * One photo match at a time, one more waiting (for up to a minute), and a 3 s {@code Retry-After} beyond that; at
 * most 14 uploads received at once, each within a minute (so that uploads held
 * by a test stay held however slow the machine is).
 */
public class MatchLimitProfile implements QuarkusTestProfile {

    /** {@code card-catalog.art.upload-concurrency} here. */
    public static final int UPLOADS = 14;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.art.match-concurrency", "1",
                "card-catalog.art.match-queue", "1",
                "card-catalog.art.match-queue-wait", "60s",
                "card-catalog.art.match-retry-after", "3s",
                "card-catalog.art.upload-timeout", "60s",
                "card-catalog.art.upload-concurrency", String.valueOf(UPLOADS));
    }
}
