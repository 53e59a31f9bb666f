package dev.cardcatalog.scan;

import static dev.cardcatalog.testing.Pictures.picture;
import static dev.cardcatalog.testing.Pictures.rgb;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.ExifImages;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The query fingerprints of a capture (SERVICE.md §5.9): the six offsets of each turn its shape allows, the same as
 * the fingerprints of the capture turned.
 */
class CaptureQueriesTest {

    private static final ImageDecoder DECODER = new ImageDecoder();

    @Test
    void theQueriesOfEachTurnAreTheSixOffsetsOfTheTurnedCapture() throws Exception {
        // A capture of an odd size, so the boxes' edges fall between pixels differently in each turn.
        RgbImage capture = DECODER.decode(CaptureSimulator.captureJpeg(11, 12));
        CaptureQueries queries = CaptureQueries.of(capture, CaptureQueries.TURNS);
        assertEquals(24, queries.fingerprints().length);
        for (int t = 0; t < 4; t++) {
            int degrees = CaptureQueries.TURNS.get(t);
            RgbImage turned = rgb(t == 0 ? picture(capture) : ExifImages.turnedClockwise(picture(capture), degrees));
            byte[][] expected = ArtFingerprint.queries(turned);
            for (int k = 0; k < 6; k++) {
                assertArrayEquals(expected[k], queries.fingerprints()[t * 6 + k], "turn " + degrees + ", offset " + k);
                assertEquals(degrees, queries.turnOf(t * 6 + k));
            }
        }
        // the quarter turns share one array, the second overwriting the first's boxes: a landscape capture's alone too
        RgbImage landscape = rgb(ExifImages.turnedClockwise(picture(capture), 90));
        CaptureQueries sideways = CaptureQueries.of(landscape, List.of(90, 270));
        for (int t = 0; t < 2; t++) {
            byte[][] expected = ArtFingerprint.queries(rgb(ExifImages.turnedClockwise(picture(landscape),
                    90 + 180 * t)));
            for (int k = 0; k < 6; k++) {
                assertArrayEquals(expected[k], sideways.fingerprints()[t * 6 + k], "sideways, turn " + t + ", offset " + k);
            }
        }
    }

    @Test
    void aCaptureTriesTheTurnsThatLeaveItTheShapeOfACard() throws Exception {
        RgbImage portrait = DECODER.decode(CaptureSimulator.captureJpeg(11, 12));
        RgbImage landscape = rgb(ExifImages.turnedClockwise(picture(portrait), 90));
        RgbImage square = rgb(CardArtGenerator.card(3).render(300, 300, 1));

        CaptureQueries upright = CaptureQueries.of(portrait);
        assertEquals(List.of(0, 180), upright.turns());
        assertEquals(12, upright.fingerprints().length);
        assertArrayEquals(CaptureQueries.of(portrait, CaptureQueries.TURNS).fingerprints()[12 + 3],
                upright.fingerprints()[6 + 3], "the 180-degree queries follow the upright ones");
        assertEquals(180, upright.turnOf(6));
        CaptureQueries sideways = CaptureQueries.of(landscape);
        assertEquals(List.of(90, 270), sideways.turns());
        assertEquals(90, sideways.turnOf(5));
        assertEquals(270, sideways.turnOf(6));
        assertEquals(CaptureQueries.TURNS, CaptureQueries.of(square).turns());
        assertEquals(24, CaptureQueries.of(square).fingerprints().length);

        // The bounds: 1.2 times longer is a portrait or landscape shape; just under it is near square.
        assertEquals(List.of(0, 180), CaptureQueries.turnsFor(100, 120));
        assertEquals(CaptureQueries.TURNS, CaptureQueries.turnsFor(100, 119));
        assertEquals(List.of(90, 270), CaptureQueries.turnsFor(120, 100));
        assertEquals(CaptureQueries.TURNS, CaptureQueries.turnsFor(119, 100));
        assertThrows(IllegalArgumentException.class, () -> CaptureQueries.of(portrait, List.of(180, 0)));
        assertThrows(IllegalArgumentException.class, () -> CaptureQueries.of(portrait, List.of(45)));
        assertThrows(IllegalArgumentException.class, () -> CaptureQueries.of(portrait, List.of()));
    }
}
