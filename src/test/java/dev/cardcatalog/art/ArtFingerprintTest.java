package dev.cardcatalog.art;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.testing.FingerprintVectors;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class ArtFingerprintTest {

    private static final HexFormat HEX = HexFormat.of();

    @TestFactory
    List<DynamicTest> reproducesEveryKnownAnswerVector() {
        JsonNode images = FingerprintVectors.json().get("images");
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode picture : images) {
            String file = picture.get("file").asText();
            for (JsonNode fp : picture.get("fingerprints")) {
                int offset = fp.get("offset").asInt();
                String expected = fp.get("hex").asText();
                tests.add(DynamicTest.dynamicTest(file + " offset " + offset + " " + fp.get("name").asText(), () -> {
                    RgbImage image = FingerprintVectors.png(file);
                    byte[] actual = ArtFingerprint.compute(image, FingerprintSettings.FROZEN.offsets().get(offset));
                    assertEquals(expected, HEX.formatHex(actual));
                }));
            }
        }
        assertEquals(36, tests.size(), "6 pictures x 6 offsets");
        return tests;
    }

    @Test
    void vectorPicturesDecodeToTheRecordedPixels() throws Exception {
        JsonNode images = FingerprintVectors.json().get("images");
        assertEquals(6, images.size(), "pictures checked");
        for (JsonNode picture : images) {
            RgbImage image = FingerprintVectors.png(picture.get("file").asText());
            byte[] rgb = new byte[image.pixels().length * 3];
            for (int k = 0; k < image.pixels().length; k++) {
                int p = image.pixels()[k];
                rgb[3 * k] = (byte) (p >> 16);
                rgb[3 * k + 1] = (byte) (p >> 8);
                rgb[3 * k + 2] = (byte) p;
            }
            String sha = HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(rgb));
            assertEquals(picture.get("rgbSha256").asText(), sha, picture.get("file").asText());
        }
    }

    @TestFactory
    List<DynamicTest> reproducesTheInMemoryChecks() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode check : FingerprintVectors.json().get("checks")) {
            String name = check.get("name").asText();
            RgbImage image = checkPicture(name, check.get("width").asInt(), check.get("height").asInt());
            for (JsonNode fp : check.get("fingerprints")) {
                int offset = fp.get("offset").asInt();
                String expected = fp.get("hex").asText();
                tests.add(DynamicTest.dynamicTest(name + " offset " + offset, () -> assertEquals(expected, HEX.formatHex(
                        ArtFingerprint.compute(image, FingerprintSettings.FROZEN.offsets().get(offset))))));
            }
        }
        assertEquals(19, tests.size(), "3 pictures x 6 offsets, and Collector's ramp at offset 0");
        return tests;
    }

    /** The formulas of the {@code checks} section of vectors.json. An unknown check fails the test. */
    private static RgbImage checkPicture(String name, int width, int height) {
        return switch (name) {
            case "flat-grey-100" -> grey(width, height, (x, y) -> 100);
            case "flat-grey-128" -> grey(width, height, (x, y) -> 128);
            case "rising-grey" -> grey(width, height, (x, y) -> 255 * x / 145);
            case "collector-spec-rising-200x280" -> grey(width, height, (x, y) -> x);
            default -> throw new AssertionError("no picture formula for check " + name);
        };
    }

    @Test
    void collectorsSpecRampGivesAllOnesAndItsMirrorAllZeros() {
        RgbImage rising = grey(200, 280, (x, y) -> x);
        RgbImage falling = grey(200, 280, (x, y) -> 255 - x);
        byte[] ones = new byte[128];
        Arrays.fill(ones, (byte) 0xFF);
        assertArrayEquals(ones, ArtFingerprint.compute(rising, FingerprintSettings.FROZEN.zeroOffset()));
        assertArrayEquals(new byte[128], ArtFingerprint.compute(falling, FingerprintSettings.FROZEN.zeroOffset()));
    }

    @Test
    void risingGradientGivesAllOnesAndFallingGivesAllZerosAtEveryOffset() {
        RgbImage rising = grey(146, 204, (x, y) -> 255 * x / 145);
        RgbImage falling = grey(146, 204, (x, y) -> 255 - 255 * x / 145);
        for (byte[] fp : ArtFingerprint.queries(rising)) {
            assertEquals(1024, ArtFingerprint.hamming(fp, new byte[128]));
        }
        for (byte[] fp : ArtFingerprint.queries(falling)) {
            assertEquals(0, ArtFingerprint.hamming(fp, new byte[128]));
        }
    }

    @Test
    void strictlyRisingRampsGiveAllOnesWhateverTheSize() {
        // Sizes 40..700 each way (the corners, then seeded random ones). Each grid cell is at least 1.6 pixels wide
        // here, so neighbouring cell means of value = x strictly rise.
        Random random = new Random(17);
        int[][] sizes = new int[54][];
        sizes[0] = new int[] {40, 40};
        sizes[1] = new int[] {700, 700};
        sizes[2] = new int[] {40, 700};
        sizes[3] = new int[] {700, 40};
        for (int k = 4; k < sizes.length; k++) {
            sizes[k] = new int[] {40 + random.nextInt(661), 40 + random.nextInt(661)};
        }
        for (int[] size : sizes) {
            int width = size[0];
            RgbImage rising = grey(width, size[1], (x, y) -> x * 255 / (width - 1));
            byte[] fp = ArtFingerprint.compute(rising, FingerprintSettings.FROZEN.zeroOffset());
            assertEquals(1024, ArtFingerprint.hamming(fp, new byte[128]), width + "x" + size[1]);
        }
    }

    @Test
    void queriesAreTheSixOffsetsInOrder() {
        RgbImage image = FingerprintVectors.png("card-like.png");
        byte[][] queries = ArtFingerprint.queries(image);
        assertEquals(6, queries.length);
        for (int k = 0; k < 6; k++) {
            assertArrayEquals(ArtFingerprint.compute(image, FingerprintSettings.FROZEN.offsets().get(k)), queries[k]);
        }
    }

    @Test
    void hammingDistancesMatchTheVectorFile() {
        JsonNode json = FingerprintVectors.json();
        JsonNode pairs = json.get("hamming").get("betweenPicturesAtZeroOffset");
        assertEquals(15, pairs.size(), "every pair of the 6 pictures");
        for (JsonNode pair : pairs) {
            byte[] a = zeroOffset(json, pair.get("a").asText());
            byte[] b = zeroOffset(json, pair.get("b").asText());
            assertEquals(pair.get("zeroOffset").asInt(), ArtFingerprint.hamming(a, b));
        }
    }

    @Test
    void hammingCountsDifferingBits() {
        Random random = new Random(18);
        for (int trial = 0; trial < 200; trial++) {
            byte[] a = new byte[128];
            byte[] b = new byte[128];
            random.nextBytes(a);
            random.nextBytes(b);
            int expected = 0;
            for (int k = 0; k < 128; k++) {
                expected += Integer.bitCount((a[k] ^ b[k]) & 0xFF);
            }
            assertEquals(expected, ArtFingerprint.hamming(a, b));
            assertEquals(0, ArtFingerprint.hamming(a, a.clone()));
        }
        byte[] ones = new byte[128];
        Arrays.fill(ones, (byte) 0xFF);
        assertEquals(1024, ArtFingerprint.hamming(ones, new byte[128]));
    }

    @Test
    void hammingRefusesArraysOfTheWrongLength() {
        assertThrows(IllegalArgumentException.class, () -> ArtFingerprint.hamming(new byte[127], new byte[128]));
    }

    @Test
    void aCellOutsideTheImageHasNoWeightAndGivesZeroBits() {
        // Offset far to the right: every cell lies wholly outside the image, so every mean is NaN.
        RgbImage rising = grey(146, 204, (x, y) -> x);
        byte[] fp = ArtFingerprint.compute(rising, new FingerprintSettings.Offset(2.0, 0, 0));
        assertArrayEquals(new byte[128], fp);
    }

    private static byte[] zeroOffset(JsonNode json, String file) {
        for (JsonNode picture : json.get("images")) {
            if (picture.get("file").asText().equals(file)) {
                return HEX.parseHex(picture.get("fingerprints").get(0).get("hex").asText());
            }
        }
        throw new AssertionError("no picture " + file);
    }

    static RgbImage grey(int width, int height, IntBinaryOperator value) {
        int[] px = new int[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int v = value.applyAsInt(x, y);
                px[y * width + x] = (v << 16) | (v << 8) | v;
            }
        }
        assertTrue(px.length > 0);
        return new RgbImage(width, height, px);
    }
}
