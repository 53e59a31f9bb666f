package dev.cardcatalog.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static dev.cardcatalog.testing.Pictures.rgb;

import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFEntry;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.ExifImages;
import dev.cardcatalog.testing.TestImageFiles;
import java.awt.image.BufferedImage;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The EXIF orientation of uploaded captures (SERVICE.md §5.9): read from real EXIF blocks, all eight values turned
 * upright as the EXIF table says, broken or absurd blocks ignored.
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
    void turningARegionNeedsRoomForTheWholeImage() throws Exception {
        RgbImage capture = DECODER.decode(dev.cardcatalog.testing.CaptureSimulator.captureJpeg(11, 12));
        assertThrows(IllegalArgumentException.class,
                () -> ImageOrientation.turn(capture, 6, 0, 0, 1, 1, new int[capture.pixels().length - 1]));
    }

    @Test
    void turningUprightNeedsAValueFromOneToEight() {
        RgbImage image = rgb(CardArtGenerator.smallImage(1));
        assertSame(image, ImageOrientation.upright(image, 1));
        assertThrows(IllegalArgumentException.class, () -> ImageOrientation.upright(image, 0));
        assertThrows(IllegalArgumentException.class, () -> ImageOrientation.upright(image, 9));
        assertThrows(IllegalArgumentException.class, () -> ImageOrientation.turnedClockwise(image, 45));
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
