package dev.cardcatalog.art;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cardcatalog.testing.FingerprintVectors;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class FingerprintSettingsTest {

    @Test
    void digestIsTheFirstSixteenHexOfSha256OfTheCanonicalJson() {
        assertEquals("aa574ad30218cd69", FingerprintSettings.FROZEN.digest());
        assertEquals(FingerprintSettings.FROZEN_DIGEST, FingerprintSettings.FROZEN.digest());
        assertEquals(218, FingerprintSettings.FROZEN.canonicalJson().length);
    }

    @Test
    void digestMatchesTheKnownAnswerVectors() {
        assertEquals(FingerprintVectors.json().get("settingsDigest").asText(), FingerprintSettings.FROZEN.digest());
    }

    @Test
    void canonicalJsonDescribesTheSameNumbersAsTheFields() {
        // Render the fields the way Ruby's JSON.generate does for these values (integral numbers without a
        // decimal point, others in shortest form) and compare with the stored bytes.
        FingerprintSettings s = FingerprintSettings.FROZEN;
        StringBuilder json = new StringBuilder();
        FingerprintSettings.Box b = s.box();
        json.append("{\"box\":{\"x0\":").append(num(b.x0())).append(",\"x1\":").append(num(b.x1()))
                .append(",\"y0\":").append(num(b.y0())).append(",\"y1\":").append(num(b.y1())).append("},");
        json.append("\"grid\":[").append(s.cols()).append(',').append(s.rows()).append("],\"offsets\":[");
        List<FingerprintSettings.Offset> offsets = s.offsets();
        for (int k = 0; k < offsets.size(); k++) {
            FingerprintSettings.Offset o = offsets.get(k);
            json.append(k == 0 ? "" : ",").append("{\"dx\":").append(num(o.dx())).append(",\"dy\":").append(num(o.dy()));
            if (o.inset() != 0) {
                json.append(",\"inset\":").append(num(o.inset()));
            }
            json.append('}');
        }
        json.append("],\"imageSize\":\"").append(s.imageSize()).append("\"}");
        assertEquals(new String(s.canonicalJson(), StandardCharsets.UTF_8), json.toString());
    }

    @Test
    void settingsAgreeWithTheVectorFile() {
        JsonNode settings = FingerprintVectors.json().get("settings");
        FingerprintSettings s = FingerprintSettings.FROZEN;
        assertEquals(settings.get("box").get("x0").asDouble(), s.box().x0());
        assertEquals(settings.get("box").get("x1").asDouble(), s.box().x1());
        assertEquals(settings.get("box").get("y0").asDouble(), s.box().y0());
        assertEquals(settings.get("box").get("y1").asDouble(), s.box().y1());
        assertEquals(settings.get("grid").get(0).asInt(), s.cols());
        assertEquals(settings.get("grid").get(1).asInt(), s.rows());
        JsonNode offsets = settings.get("offsets");
        assertEquals(offsets.size(), s.offsets().size());
        for (int k = 0; k < offsets.size(); k++) {
            JsonNode o = offsets.get(k);
            assertEquals(new FingerprintSettings.Offset(o.path("dx").asDouble(0), o.path("dy").asDouble(0),
                    o.path("inset").asDouble(0)), s.offsets().get(k), "offset " + k);
        }
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v).toLowerCase(Locale.ROOT);
    }

    @Test
    void theBoxEdgesOfEachOffsetAreFingerprintMdSection3sTable() {
        // FINGERPRINT.md §3, a 146 x 204 image: left, top, right, bottom of offsets 0 to 5, to the last bit
        double[][] table = {
            {20.44, 32.64, 125.56, 102},
            {23.36, 32.64, 128.48, 102},
            {17.520000000000003, 32.64, 122.64, 102},
            {20.44, 36.72, 125.56, 106.08},
            {20.44, 28.560000000000002, 125.56, 97.92},
            {23.593600000000002, 34.7208, 122.4064, 99.9192}};
        List<FingerprintSettings.Offset> offsets = FingerprintSettings.FROZEN.offsets();
        for (int k = 0; k < table.length; k++) {
            double[] edges = FingerprintSettings.FROZEN.box().edges(offsets.get(k), 146, 204);
            for (int e = 0; e < 4; e++) {
                assertEquals(table[k][e], edges[e], 0.0, "offset " + k + ", edge " + e);
            }
        }
        // Collector's own check: a 1000 x 1000 image at the zero offset
        double[] square = FingerprintSettings.FROZEN.box().edges(FingerprintSettings.FROZEN.zeroOffset(), 1000, 1000);
        assertEquals(140, square[0], 1e-9);
        assertEquals(160, square[1], 1e-9);
        assertEquals(860, square[2], 1e-9);
        assertEquals(500, square[3], 1e-9);
    }
}
