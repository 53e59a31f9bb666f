package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * A photo upload must arrive whole within 2 s ({@code card-catalog.art.upload-timeout}, 10 s by default), uploads
 * hold at most 3 MiB together ({@code card-catalog.art.upload-buffer}, 64 MiB by default), and an upload's decoding
 * and matching have 100 ms ({@code card-catalog.art.upload-deadline}, 2 s by default: long enough for every photo the
 * tests of this profile send that is not made to take longer).
 */
public class UploadTimeoutProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("card-catalog.art.upload-timeout", "2s", "card-catalog.art.upload-buffer", "3M",
                "card-catalog.art.upload-deadline", "100ms");
    }
}
