package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.RgbImage;
import dev.cardcatalog.art.ImageDecoder;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFEntry;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.TestImageFiles;
import java.awt.image.BufferedImage;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The EXIF orientation of uploaded captures (SERVICE.md §5.9): read from real EXIF blocks, all eight values turned
 * upright as the EXIF table says, broken or absurd blocks ignored; and the 24 query fingerprints of the four turns.
 */
class ImageOrientationTest {

    private static final ImageDecoder DECODER = new ImageDecoder();

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void turnsEachOrientationUprightAsTheExifTableSays(int value) {
        BufferedImage stored = CardArtGenerator.smallImage(3);
        RgbImage upright = ImageOrientation.upright(rgb(stored), value);
        assertPixelsEqual(ExifImages.displayed(stored, value), upright);
        // and a picture stored for that value is shown as the original
        BufferedImage original = CardArtGenerator.smallImage(4);
        assertPixelsEqual(original, ImageOrientation.upright(rgb(ExifImages.stored(original, value)), value));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void readsEachValueFromAJpegsExifSegmentAndAPngsExifChunkInBothByteOrders(int value) {
        byte[] jpeg = CardArtGenerator.smallJpeg(5);
        byte[] png = TestImageFiles.png(CardArtGenerator.smallImage(5));
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            byte[] tiff = ExifImages.orientationTiff(value, order);
            assertEquals(value, ImageOrientation.of(ExifImages.jpegWithExif(jpeg, tiff)), order + " JPEG");
            assertEquals(value, ImageOrientation.of(ExifImages.pngWithExif(png, tiff)), order + " PNG");
        }
    }

    @Test
    void noExifBlockMeansUpright() {
        assertEquals(1, ImageOrientation.of(CardArtGenerator.smallJpeg(5)));
        assertEquals(1, ImageOrientation.of(TestImageFiles.png(CardArtGenerator.smallImage(5))));
        assertEquals(1, ImageOrientation.of("not an image".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertEquals(1, ImageOrientation.of(new byte[0]));
    }

    @Test
    void absurdValuesAreIgnored() {
        byte[] jpeg = CardArtGenerator.smallJpeg(6);
        for (int absurd : new int[] {0, 9, 255, 0xFFFF}) {
            byte[] tiff = ExifImages.orientationTiff(absurd, ByteOrder.BIG_ENDIAN);
            assertEquals(1, ImageOrientation.of(ExifImages.jpegWithExif(jpeg, tiff)), "value " + absurd);
        }
        byte[] text = ExifImages.tiff(List.of(new TIFFEntry(TIFF.TAG_ORIENTATION, TIFF.TYPE_ASCII, "6")),
                ByteOrder.BIG_ENDIAN);
        assertEquals(1, ImageOrientation.of(ExifImages.jpegWithExif(jpeg, text)), "a text value");
    }

    @Test
    void brokenExifBlocksAreIgnoredAndThePhotoStillDecodes() throws Exception {
        byte[] jpeg = CardArtGenerator.smallJpeg(7);
        byte[] good = ExifImages.orientationTiff(6, ByteOrder.BIG_ENDIAN);
        byte[] badByteOrder = good.clone();
        badByteOrder[0] = 'X';
        badByteOrder[1] = 'Y';
        byte[] ifdBeyondTheEnd = good.clone();
        ifdBeyondTheEnd[4] = 0x7F; // offset of IFD0: far past the block
        byte[] valueBeyondTheEnd = ExifImages.tiff(List.of(new TIFFEntry(TIFF.TAG_ORIENTATION, TIFF.TYPE_SHORT,
                new short[] {6, 6, 6, 6, 6, 6})), ByteOrder.BIG_ENDIAN);
        valueBeyondTheEnd[18] = 0x7F; // the out-of-line value's offset (bytes 18-21), past the end
        Map<String, byte[]> broken = Map.of("byte order", badByteOrder, "IFD offset", ifdBeyondTheEnd,
                "value offset", valueBeyondTheEnd,
                "truncated", Arrays.copyOf(good, 10), "empty", new byte[0]);
        RgbImage plain = DECODER.decode(jpeg);
        for (Map.Entry<String, byte[]> block : broken.entrySet()) {
            byte[] photo = ExifImages.jpegWithExif(jpeg, block.getValue());
            assertEquals(1, ImageOrientation.of(photo), block.getKey());
            assertArrayEquals(plain.pixels(), DECODER.decode(photo).pixels(), block.getKey());
        }
        // An IFD that claims more entries than it holds is read as far as it goes, as TwelveMonkeys reads it: its
        // intact orientation entry counts.
        byte[] overstatedCount = good.clone();
        overstatedCount[8] = (byte) 0xFF;
        overstatedCount[9] = (byte) 0xFF;
        assertEquals(6, ImageOrientation.of(ExifImages.jpegWithExif(jpeg, overstatedCount)));
    }

    @Test
    void theQueriesOfEachTurnAreTheSixOffsetsOfTheTurnedCapture() throws Exception {
        // A capture of an odd size, so the boxes' edges fall between pixels differently in each turn.
        RgbImage capture = DECODER.decode(dev.cardcatalog.testing.CaptureSimulator.captureJpeg(11, 12));
        CaptureQueries queries = CaptureQueries.of(capture, CaptureQueries.TURNS);
        assertEquals(24, queries.fingerprints().length);
        for (int t = 0; t < 4; t++) {
            int degrees = CaptureQueries.TURNS.get(t);
            RgbImage turned = rgb(t == 0 ? image(capture) : ExifImages.turnedClockwise(image(capture), degrees));
            byte[][] expected = ArtFingerprint.queries(turned);
            for (int k = 0; k < 6; k++) {
                assertArrayEquals(expected[k], queries.fingerprints()[t * 6 + k], "turn " + degrees + ", offset " + k);
                assertEquals(degrees, queries.turnOf(t * 6 + k));
            }
        }
        // the quarter turns share one array, the second overwriting the first's boxes: a landscape capture's alone too
        RgbImage landscape = rgb(ExifImages.turnedClockwise(image(capture), 90));
        CaptureQueries sideways = CaptureQueries.of(landscape, List.of(90, 270));
        for (int t = 0; t < 2; t++) {
            byte[][] expected = ArtFingerprint.queries(rgb(ExifImages.turnedClockwise(image(landscape), 90 + 180 * t)));
            for (int k = 0; k < 6; k++) {
                assertArrayEquals(expected[k], sideways.fingerprints()[t * 6 + k], "sideways, turn " + t + ", offset " + k);
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> ImageOrientation.turn(capture, 6, 0, 0, 1, 1, new int[capture.pixels().length - 1]));
    }

    @Test
    void aCaptureTriesTheTurnsThatLeaveItTheShapeOfACard() throws Exception {
        RgbImage portrait = DECODER.decode(dev.cardcatalog.testing.CaptureSimulator.captureJpeg(11, 12));
        RgbImage landscape = rgb(ExifImages.turnedClockwise(image(portrait), 90));
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

    @Test
    void turningUprightNeedsAValueFromOneToEight() {
        RgbImage image = rgb(CardArtGenerator.smallImage(1));
        assertSame(image, ImageOrientation.upright(image, 1));
        assertThrows(IllegalArgumentException.class, () -> ImageOrientation.upright(image, 0));
        assertThrows(IllegalArgumentException.class, () -> ImageOrientation.upright(image, 9));
        assertThrows(IllegalArgumentException.class, () -> ImageOrientation.turnedClockwise(image, 45));
    }

    static RgbImage rgb(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        return new RgbImage(w, h, image.getRGB(0, 0, w, h, null, 0, w));
    }

    static BufferedImage image(RgbImage rgb) {
        BufferedImage image = new BufferedImage(rgb.width(), rgb.height(), BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, rgb.width(), rgb.height(), rgb.pixels(), 0, rgb.width());
        return image;
    }

    private static void assertPixelsEqual(BufferedImage expected, RgbImage actual) {
        assertEquals(expected.getWidth(), actual.width());
        assertEquals(expected.getHeight(), actual.height());
        for (int y = 0; y < actual.height(); y++) {
            for (int x = 0; x < actual.width(); x++) {
                if ((expected.getRGB(x, y) & 0xFFFFFF) != actual.rgb(x, y)) {
                    throw new AssertionError("pixel " + x + "," + y + " differs");
                }
            }
        }
    }
}
