package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The art build on: an applied refresh starts one. Images are not spaced, so a build of the sample is quick. */
public class ArtProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("card-catalog.art.enabled", "true", "card-catalog.scryfall.image-spacing", "2ms");
    }
}
