package dev.cardcatalog.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Arrays;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class CardArtGeneratorTest {

    @Test
    void theSameSeedGivesTheSameBytes() {
        assertArrayEquals(CardArtGenerator.smallJpeg(42), CardArtGenerator.smallJpeg(42));
        assertFalse(Arrays.equals(CardArtGenerator.smallJpeg(42), CardArtGenerator.smallJpeg(43)));
    }

    @Test
    void writesABaselineJpegOfScryfallSmallSize() throws Exception {
        byte[] jpeg = CardArtGenerator.smallJpeg(1);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(jpeg));
        assertEquals(146, image.getWidth());
        assertEquals(204, image.getHeight());
        assertTrue(hasMarker(jpeg, 0xC0), "baseline frame header SOF0");
        assertFalse(hasMarker(jpeg, 0xC2), "no progressive frame header");
    }

    @Test
    void capturesAreDeterministicAndPhoneSized() throws Exception {
        assertArrayEquals(CaptureSimulator.captureJpeg(3, 9), CaptureSimulator.captureJpeg(3, 9));
        for (int seed = 0; seed < 10; seed++) {
            BufferedImage capture = ImageIO.read(new ByteArrayInputStream(CaptureSimulator.captureJpeg(seed, seed)));
            assertTrue(capture.getWidth() >= 300 && capture.getWidth() <= 600, "width " + capture.getWidth());
            assertEquals(Math.round(capture.getWidth() * 204.0 / 146.0), capture.getHeight());
        }
    }

    private static boolean hasMarker(byte[] jpeg, int marker) {
        for (int k = 0; k + 1 < jpeg.length; k++) {
            if ((jpeg[k] & 0xFF) == 0xFF && (jpeg[k + 1] & 0xFF) == marker) {
                return true;
            }
        }
        return false;
    }
}
