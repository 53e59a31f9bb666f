package dev.cardcatalog.scan;

import dev.cardcatalog.image.ImageDecoder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.ExifImages;
import dev.cardcatalog.testing.Pictures;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestImageFiles;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.awt.image.BufferedImage;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Photos as phones send them, at the match endpoint (SERVICE.md §5.9, issue 15): stored with each of the eight EXIF
 * orientations, or turned 90°, 180° and 270° with no tag, each matches its artwork as the upright photo does, and
 * the answer says the rotation. Against the art index the service builds from the Scryfall stand-in's sample.
 */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class CaptureOrientationTest {

    private static final ImageDecoder DECODER = new ImageDecoder();
    private static boolean built;
    private static List<String> artworks;
    private static Map<String, SampleArtworks.Expected> cardOfArtwork;

    @BeforeEach
    void buildTheIndexOnce() throws Exception {
        if (built) {
            return;
        }
        cardOfArtwork = SampleArtworks.expectedArtworks();
        artworks = new ArrayList<>(cardOfArtwork.keySet());
        artworks.sort(null);
        SampleArtworks.buildTheSampleIndex();
        built = true;
    }

    @Test
    void aCardsOwnImageStoredWithEachOrientationMatchesAtDistanceZero() throws Exception {
        // The case: the stand-in's own small image, stored turned (or mirrored) with the tag that says so.
        for (String artwork : List.of(artworks.get(0), artworks.get(artworks.size() / 2))) {
            BufferedImage upright = Pictures.picture(
                    DECODER.decode(CardArtGenerator.smallJpeg(seed(artwork))));
            for (int value = 1; value <= 8; value++) {
                for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
                    byte[] photo = ExifImages.pngWithExif(TestImageFiles.png(ExifImages.stored(upright, value)),
                            ExifImages.orientationTiff(value, order));
                    JsonPath answer = match("image/png", photo);
                    String says = "orientation " + value + ", " + order;
                    assertThat(answer.getString("matches[0].illustration_id")).as(says).isEqualTo(artwork);
                    assertThat(answer.getInt("matches[0].distance")).as(says).isZero();
                    assertThat(answer.getInt("matches[0].rotation")).as(says).isZero();
                }
            }
        }
    }

    @Test
    void aJpegPhotoWithEachOrientationMatchesAsItsPixelsShownUpright() throws Exception {
        String artwork = artworks.get(7);
        BufferedImage upright = CaptureSimulator.captureImage(seed(artwork), 2_000);
        for (int value = 1; value <= 8; value++) {
            byte[] stored = TestImageFiles.jpeg(ExifImages.stored(upright, value), 0.85f);
            byte[] photo = ExifImages.jpegWithExif(stored, ExifImages.orientationTiff(value, ByteOrder.BIG_ENDIAN));
            // The same pixels, turned upright here by the EXIF table and sent as a PNG without a tag. The pixels are
            // those the service decodes the stored JPEG to: its upload decoder scales a capture this large (1/2 or
            // 1/4, MatchResource.SCALED_FLOOR) while the PNG, below its floor, is read as it is.
            byte[] shown = TestImageFiles.png(ExifImages.displayed(
                    Pictures.picture(MatchResource.uploadDecoder().decode(stored)), value));

            JsonPath answer = match("image/jpeg", photo);

            assertThat(answer.getList("matches")).as("orientation " + value)
                    .isEqualTo(match("image/png", shown).getList("matches"));
            assertThat(answer.getString("matches[0].illustration_id")).isEqualTo(artwork);
            assertThat(answer.getBoolean("matches[0].confident")).isTrue();
            assertThat(answer.getInt("matches[0].rotation")).isZero();
        }
    }

    @Test
    void aCaptureTurnedWithoutATagMatchesAtTheTurnThatUndoesIt() throws Exception {
        for (String artwork : List.of(artworks.get(3), artworks.get(artworks.size() - 5))) {
            BufferedImage upright = Pictures.picture(
                    DECODER.decode(CaptureSimulator.captureJpeg(seed(artwork), 3_000)));
            JsonPath straight = match("image/png", TestImageFiles.png(upright));
            assertThat(straight.getString("matches[0].illustration_id")).isEqualTo(artwork);
            assertThat(straight.getInt("matches[0].rotation")).isZero();
            for (int turn : new int[] {90, 180, 270}) {
                // lying turned counter-clockwise by `turn`: turning it `turn` clockwise puts it upright
                BufferedImage lying = ExifImages.turnedClockwise(upright, 360 - turn);

                JsonPath lossless = match("image/png", TestImageFiles.png(lying));
                JsonPath jpeg = match("image/jpeg", TestImageFiles.jpeg(lying, 0.8f));

                // The whole photo is tried at the same four turns as the upright one, giving the same fingerprints;
                // the card's outlines are tried too, found and warped from another pixel grid in a turned photo
                // (issue 24: the search image's blocks fall elsewhere on the card, so the outline moves by a fraction
                // of a pixel and the warped card's cells by as much). So the first artwork is the same and at nearly
                // the same distance: measured with the pooled finder on these two captures, 80-87 and 62-77 bits over
                // the four turns, so within 20 bits; the artworks after the first may differ (their distances are
                // near one another, 365-415 bits, and any of them moves as much).
                assertThat(lossless.getString("matches[0].illustration_id")).as("turn " + turn)
                        .isEqualTo(straight.getString("matches[0].illustration_id"));
                assertThat(lossless.getInt("matches[0].distance")).as("turn " + turn)
                        .isBetween(straight.getInt("matches[0].distance") - 20,
                                straight.getInt("matches[0].distance") + 20);
                assertThat(lossless.getInt("matches[0].rotation")).as("turn " + turn).isEqualTo(turn);
                for (JsonPath answer : List.of(lossless, jpeg)) {
                    assertThat(answer.getString("matches[0].illustration_id")).as("turn " + turn).isEqualTo(artwork);
                    assertThat(answer.getBoolean("matches[0].confident")).as("turn " + turn).isTrue();
                    assertThat(answer.getInt("matches[0].rotation")).as("turn " + turn).isEqualTo(turn);
                    assertThat(answer.getList("matches[0].printings.id")).contains(cardOfArtwork.get(artwork).cardId());
                }
            }
        }
    }

    @Test
    void anAbsurdOrBrokenTagIsIgnoredAndTheTurnIsFoundWithoutIt() throws Exception {
        String artwork = artworks.get(11);
        BufferedImage upright = CaptureSimulator.captureImage(seed(artwork), 4_000);
        // stored turned counter-clockwise, as orientation 6 would say, but the tag says something useless
        byte[] stored = TestImageFiles.jpeg(ExifImages.stored(upright, 6), 0.85f);
        byte[] badByteOrder = ExifImages.orientationTiff(6, ByteOrder.BIG_ENDIAN);
        badByteOrder[0] = 'X';
        List<byte[]> useless = List.of(ExifImages.orientationTiff(0, ByteOrder.BIG_ENDIAN),
                ExifImages.orientationTiff(9, ByteOrder.LITTLE_ENDIAN),
                ExifImages.orientationTiff(65535, ByteOrder.BIG_ENDIAN), badByteOrder);
        List<Object> untagged = match("image/jpeg", stored).getList("matches");
        for (byte[] tiff : useless) {
            JsonPath answer = match("image/jpeg", ExifImages.jpegWithExif(stored, tiff));
            assertThat(answer.getList("matches")).isEqualTo(untagged);
            assertThat(answer.getString("matches[0].illustration_id")).isEqualTo(artwork);
            assertThat(answer.getBoolean("matches[0].confident")).isTrue();
            assertThat(answer.getInt("matches[0].rotation")).isEqualTo(90);
        }
    }

    private static JsonPath match(String contentType, byte[] photo) {
        return given().contentType(contentType).body(photo).post("/api/art-index/matches")
                .then().statusCode(200).extract().jsonPath();
    }

    private static long seed(String artwork) {
        SampleArtworks.Expected expected = cardOfArtwork.get(artwork);
        return ScryfallStandIn.imageSeed(expected.cardId(), expected.face() > 0);
    }
}
