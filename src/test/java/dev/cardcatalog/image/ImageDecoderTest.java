package dev.cardcatalog.image;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.testing.FingerprintVectors;
import dev.cardcatalog.testing.JpegSegments;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.TestImageFiles;
import java.awt.color.ColorSpace;
import java.awt.color.ICC_Profile;
import java.awt.image.BufferedImage;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Random;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.junit.jupiter.api.Test;

class ImageDecoderTest {

    private final ImageDecoder decoder = new ImageDecoder();

    @Test
    void decodesABaselineJpegToTheJdkReadersRawSamples() throws Exception {
        byte[] jpeg = CardArtGenerator.smallJpeg(1);
        RgbImage image = decoder.decode(jpeg);
        assertEquals(146, image.width());
        assertEquals(204, image.height());
        assertArrayEquals(rawRgb(read(jpeg, "com.sun.", false)), image.pixels());
    }

    @Test
    void twelveMonkeysAndTheJdkReaderAgreeOnPlainJpegs() throws Exception {
        // For JPEGs without an ICC profile TwelveMonkeys' reader (which delegates to the JDK's) gives the same
        // samples, with its default type and with the raw type. The decoder uses the JDK reader for them.
        BufferedImage card = CardArtGenerator.smallImage(2);
        for (byte[] jpeg : new byte[][] {TestImageFiles.jpeg(card, 0.75f), TestImageFiles.progressiveJpeg(card, 0.9f),
                TestImageFiles.jpeg(card, 0.95f), TestImageFiles.jpeg(grey(card), 0.8f)}) {
            int[] jdk = rawRgb(read(jpeg, "com.sun.", false));
            assertArrayEquals(jdk, rawRgb(read(jpeg, "com.twelvemonkeys.", false)));
            assertArrayEquals(jdk, rawRgb(read(jpeg, "com.twelvemonkeys.", true)));
        }
    }

    @Test
    void anEmbeddedIccProfileIsNotApplied() throws Exception {
        byte[] plain = TestImageFiles.jpeg(CardArtGenerator.smallImage(3), 0.85f);
        byte[] tagged = JpegSegments.withIccProfile(plain, ICC_Profile.getInstance(ColorSpace.CS_LINEAR_RGB));
        assertArrayEquals(decoder.decode(plain).pixels(), decoder.decode(tagged).pixels());
        // Why the decoder does not use the JDK reader for tagged JPEGs: it converts them to sRGB.
        assertNotEquals(Arrays.hashCode(rawRgb(read(plain, "com.sun.", false))),
                Arrays.hashCode(rawRgb(read(tagged, "com.sun.", false))));
    }

    @Test
    void decodesAProgressiveJpegLikeTheBaselineOne() throws Exception {
        BufferedImage card = CardArtGenerator.smallImage(4);
        byte[] progressive = TestImageFiles.progressiveJpeg(card, 0.85f);
        byte[] baseline = TestImageFiles.jpeg(card, 0.85f);
        RgbImage image = decoder.decode(progressive);
        assertArrayEquals(rawRgb(read(progressive, "com.sun.", false)), image.pixels());
        int distance = ArtFingerprint.hamming(ArtFingerprint.compute(image, FingerprintSettings.FROZEN.zeroOffset()),
                ArtFingerprint.compute(decoder.decode(baseline), FingerprintSettings.FROZEN.zeroOffset()));
        assertTrue(distance <= 40, "progressive vs baseline: " + distance + " bits");
    }

    @Test
    void decodesAGreyscaleJpegToEqualChannelsWithoutGammaConversion() throws Exception {
        byte[] jpeg = TestImageFiles.jpeg(grey(CardArtGenerator.smallImage(5)), 0.9f);
        RgbImage image = decoder.decode(jpeg);
        Raster raster = read(jpeg, "com.sun.", false).getRaster();
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                int v = raster.getSample(x, y, 0);
                assertEquals((v << 16) | (v << 8) | v, image.rgb(x, y));
            }
        }
    }

    @Test
    void decodesAnAdobeCmykJpegWithImageMagicksFormula() throws Exception {
        // The JDK cannot write CMYK from a BufferedImage, so the test writes a raw 4-band raster with the JDK
        // writer and puts Photoshop's Adobe APP14 segment (transform 0: CMYK stored inverted) in front.
        int w = 146;
        int h = 204;
        WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, w, h, 4, null);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int[] ink = ink(x, y);
                for (int band = 0; band < 4; band++) {
                    raster.setSample(x, y, band, 255 - ink[band]);
                }
            }
        }
        byte[] cmyk = TestImageFiles.adobeFourComponentJpeg(raster, 0, 1.0f);
        assertNearInkColours(decoder.decode(cmyk), 4);
    }

    @Test
    void decodesAnAdobeYcckJpeg() throws Exception {
        // YCCK (transform 2): the ink C, M, Y go through the JFIF RGB -> YCbCr transform as if they were R, G, B;
        // K is stored inverted.
        int w = 146;
        int h = 204;
        WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, w, h, 4, null);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int[] ink = ink(x, y);
                double r = ink[0];
                double g = ink[1];
                double b = ink[2];
                raster.setSample(x, y, 0, clamp(Math.round(0.299 * r + 0.587 * g + 0.114 * b)));
                raster.setSample(x, y, 1, clamp(Math.round(-0.168736 * r - 0.331264 * g + 0.5 * b + 128)));
                raster.setSample(x, y, 2, clamp(Math.round(0.5 * r - 0.418688 * g - 0.081312 * b + 128)));
                raster.setSample(x, y, 3, 255 - ink[3]);
            }
        }
        byte[] ycck = TestImageFiles.adobeFourComponentJpeg(raster, 2, 1.0f);
        assertNearInkColours(decoder.decode(ycck), 5);
    }

    @Test
    void flattensPngAlphaOnWhite() throws Exception {
        BufferedImage argb = new BufferedImage(40, 30, BufferedImage.TYPE_INT_ARGB);
        for (int y = 0; y < 30; y++) {
            for (int x = 0; x < 40; x++) {
                int alpha = x < 10 ? 0 : x < 20 ? 128 : 255;
                argb.setRGB(x, y, (alpha << 24) | 0x204080);
            }
        }
        RgbImage image = decoder.decode(TestImageFiles.png(argb));
        assertEquals(0xFFFFFF, image.rgb(5, 5), "transparent becomes the white background");
        int half = image.rgb(15, 5);
        assertEquals((0x20 * 128 + 255 * 127 + 127) / 255, half >> 16);
        assertEquals((0x40 * 128 + 255 * 127 + 127) / 255, (half >> 8) & 0xFF);
        assertEquals((0x80 * 128 + 255 * 127 + 127) / 255, half & 0xFF);
        assertEquals(0x204080, image.rgb(25, 5), "opaque is unchanged");
    }

    @Test
    void decodesTheVectorPngsExactly() throws Exception {
        for (String file : new String[] {"card-like.png", "noise-minstd7.png", "rings.png"}) {
            RgbImage image = decoder.decode(FingerprintVectors.bytes(file));
            assertArrayEquals(FingerprintVectors.png(file).pixels(), image.pixels(), file);
        }
    }

    @Test
    void decodesPalettedAndSixteenBitPngs() throws Exception {
        BufferedImage indexed = new BufferedImage(30, 20, BufferedImage.TYPE_BYTE_INDEXED);
        indexed.setRGB(3, 4, 0xFF0000);
        RgbImage fromIndexed = decoder.decode(TestImageFiles.png(indexed));
        assertEquals(indexed.getRGB(3, 4) & 0xFFFFFF, fromIndexed.rgb(3, 4));

        BufferedImage grey16 = new BufferedImage(30, 20, BufferedImage.TYPE_USHORT_GRAY);
        grey16.getRaster().setSample(7, 8, 0, 0x8080);
        grey16.getRaster().setSample(8, 8, 0, 0xFFFF);
        RgbImage fromGrey16 = decoder.decode(TestImageFiles.png(grey16));
        assertEquals(0x808080, fromGrey16.rgb(7, 8));
        assertEquals(0xFFFFFF, fromGrey16.rgb(8, 8));
        assertEquals(0x000000, fromGrey16.rgb(0, 0));
    }

    @Test
    void refusesATruncatedJpegAtEveryLength() {
        for (byte[] jpeg : new byte[][] {CardArtGenerator.smallJpeg(6),
                TestImageFiles.progressiveJpeg(CardArtGenerator.smallImage(6), 0.85f)}) {
            for (int length = 1; length < jpeg.length; length += length < 700 ? 13 : 97) {
                assertRefused(Arrays.copyOf(jpeg, length), "truncated to " + length + " of " + jpeg.length);
            }
            for (int cut = 1; cut <= 16; cut++) {
                ImageDecodeException e = assertRefused(Arrays.copyOf(jpeg, jpeg.length - cut), "cut " + cut);
                assertEquals(ImageDecodeException.Kind.TRUNCATED, e.kind(), e.getMessage());
            }
        }
    }

    @Test
    void aWholeJpegWithBitsFlippedInItsDataIsDamagedNotTruncated() {
        // a flipped bit can make a 0xFF byte, which libjpeg reads as a marker inside the coded data ("premature end
        // of data segment"): the file still has its end-of-image marker, so it is damaged, never called cut short
        byte[] jpeg = CardArtGenerator.smallJpeg(16);
        Random random = new Random(3);
        int refused = 0;
        java.util.Set<String> messages = new java.util.TreeSet<>();
        for (int trial = 0; trial < 60; trial++) {
            byte[] flipped = jpeg.clone();
            for (int k = 1 + random.nextInt(20); k > 0; k--) {
                int at = jpeg.length * 2 / 5 + random.nextInt(jpeg.length / 2);
                flipped[at] ^= (byte) (1 << random.nextInt(8));
            }
            try {
                decoder.decode(flipped);
            } catch (ImageDecodeException e) {
                refused++;
                messages.add(e.getMessage());
                assertEquals(ImageDecodeException.Kind.CORRUPT, e.kind(), "trial " + trial + ": " + e.getMessage());
                assertFalse(e.getMessage().contains("truncated"), e.getMessage());
            }
        }
        assertTrue(refused >= 10, "refused " + refused + " of 60");
        // both ways a flipped bit shows: the marker walk led astray, and libjpeg meeting a marker in the data
        assertTrue(messages.stream().anyMatch(m -> m.contains("markers are damaged")), messages.toString());
        assertTrue(messages.stream().anyMatch(m -> m.contains("a marker stands where image data should be")),
                messages.toString());
        ImageDecodeException cut = assertRefused(Arrays.copyOf(jpeg, jpeg.length - 1), "without its last byte");
        assertEquals(ImageDecodeException.Kind.TRUNCATED, cut.kind(), cut.getMessage());
        assertTrue(cut.getMessage().contains("truncated"), cut.getMessage());
    }

    @Test
    void refusesATruncatedPng() {
        byte[] png = TestImageFiles.png(CardArtGenerator.smallImage(7));
        for (int length = 1; length < png.length; length += 211) {
            ImageDecodeException e = assertRefused(Arrays.copyOf(png, length), "truncated to " + length);
            if (length > 100) {
                assertEquals(ImageDecodeException.Kind.TRUNCATED, e.kind(), e.getMessage());
            }
        }
    }

    @Test
    void refusesAJpegDeclaring65535By65535PixelsBeforeAllocatingIt() {
        byte[] jpeg = CardArtGenerator.smallJpeg(8);
        int sof = indexOfMarker(jpeg, 0xC0);
        jpeg[sof + 5] = (byte) 0xFF; // height
        jpeg[sof + 6] = (byte) 0xFF;
        jpeg[sof + 7] = (byte) 0xFF; // width
        jpeg[sof + 8] = (byte) 0xFF;
        ImageDecodeException e = assertRefused(jpeg, "65535x65535");
        assertEquals(ImageDecodeException.Kind.DIMENSIONS_REFUSED, e.kind());
        assertTrue(e.getMessage().contains("65535x65535"), e.getMessage());
    }

    @Test
    void refusesAPngDeclaringAHugeSize() {
        byte[] png = TestImageFiles.png(CardArtGenerator.smallImage(9));
        png[16] = 0;
        png[17] = 0;
        png[18] = (byte) 0xFF;
        png[19] = (byte) 0xFF; // width 65535
        png[20] = 0;
        png[21] = 0;
        png[22] = (byte) 0xFF;
        png[23] = (byte) 0xFF; // height 65535
        assertEquals(ImageDecodeException.Kind.DIMENSIONS_REFUSED, assertRefused(png, "png 65535x65535").kind());
    }

    @Test
    void honoursItsOwnLimits() {
        ImageDecoder small = new ImageDecoder(1000, 100, 10_000);
        byte[] jpeg = CardArtGenerator.smallJpeg(10);
        assertEquals(ImageDecodeException.Kind.BODY_TOO_LARGE,
                assertThrows(ImageDecodeException.class, () -> small.decode(jpeg)).kind());
        ImageDecoder narrow = new ImageDecoder(1 << 20, 200, 10_000);
        assertEquals(ImageDecodeException.Kind.DIMENSIONS_REFUSED,
                assertThrows(ImageDecodeException.class, () -> narrow.decode(jpeg)).kind());
    }

    @Test
    void subsamplesALargeImageWhileReadingItWhenAskedTo() throws Exception {
        // 4,000 × 3,000: red is x mod 256, green y mod 256; read at most 1,024 a side, every 4th pixel and row
        byte[] png = gradientPng(4000, 3000);
        RgbImage image = new ImageDecoder(20 << 20, 8192, 8192L * 8192L, 1024).decode(png);
        assertEquals(1000, image.width());
        assertEquals(750, image.height());
        for (int[] at : new int[][] {{0, 0}, {1, 1}, {63, 200}, {999, 749}}) {
            int expected = ((4 * at[0]) & 0xFF) << 16 | ((4 * at[1]) & 0xFF) << 8;
            assertEquals(expected, image.rgb(at[0], at[1]), "pixel " + at[0] + "," + at[1]);
        }
        // the default decoder reads it whole, and an image within the bound is never subsampled
        assertEquals(4000, decoder.decode(png).width());
        assertEquals(146, new ImageDecoder(1 << 20, 8192, 1 << 24, 1024).decode(CardArtGenerator.smallJpeg(3))
                .width());
    }

    @Test
    void refusesATwentyMegabyteBodyByItsSize() {
        byte[] body = new byte[20 * 1024 * 1024];
        byte[] jpeg = CardArtGenerator.smallJpeg(11);
        System.arraycopy(jpeg, 0, body, 0, jpeg.length);
        assertEquals(ImageDecodeException.Kind.BODY_TOO_LARGE, assertRefused(body, "20 MB").kind());
    }

    @Test
    void survivesATwentyMegabyteBodyUnderALargerCap() {
        // A valid picture followed by 20 MB of noise, and 20 MB of noise behind a JPEG signature.
        ImageDecoder roomy = new ImageDecoder(32 * 1024 * 1024, 8192, 4096L * 4096L);
        byte[] body = new byte[20 * 1024 * 1024];
        new Random(12).nextBytes(body);
        body[0] = (byte) 0xFF;
        body[1] = (byte) 0xD8;
        body[2] = (byte) 0xFF;
        assertThrows(ImageDecodeException.class, () -> roomy.decode(body));
        byte[] jpeg = CardArtGenerator.smallJpeg(12);
        System.arraycopy(jpeg, 0, body, 0, jpeg.length);
        try {
            RgbImage image = roomy.decode(body);
            assertEquals(146, image.width());
        } catch (ImageDecodeException e) {
            assertTrue(e.getMessage().length() < 200);
        }
    }

    @Test
    void refusesBodiesThatAreNotImages() {
        assertEquals(ImageDecodeException.Kind.EMPTY, assertRefused(new byte[0], "empty").kind());
        assertEquals(ImageDecodeException.Kind.NOT_AN_IMAGE,
                assertRefused("<html>hello</html>".getBytes(StandardCharsets.UTF_8), "html").kind());
        Random random = new Random(13);
        for (int k = 0; k < 200; k++) {
            byte[] body = new byte[1 + random.nextInt(5000)];
            random.nextBytes(body);
            assertRefused(body, "random " + k);
        }
    }

    @Test
    void aRefusalNamesTheTypeAndSizeOfWhatWasReceived() {
        byte[] html = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head></html>"
                .getBytes(StandardCharsets.UTF_8);
        assertReason(html, ImageDecodeException.Kind.NOT_AN_IMAGE, "HTML, " + html.length + " bytes");
        byte[] lowerHtml = "\uFEFF  <html lang=en><body>Service Unavailable</body></html>"
                .getBytes(StandardCharsets.UTF_8);
        assertReason(lowerHtml, ImageDecodeException.Kind.NOT_AN_IMAGE, "HTML, " + lowerHtml.length + " bytes");
        assertReason(new byte[0], ImageDecodeException.Kind.EMPTY, "empty (0 bytes)");
        byte[] webp = riff("WEBP", "VP8 ", 600);
        assertReason(webp, ImageDecodeException.Kind.NOT_AN_IMAGE, "a WebP image, 612 bytes");
        byte[] avif = ftyp(700, "avif", "avif", "mif1", "miaf");
        assertReason(avif, ImageDecodeException.Kind.NOT_AN_IMAGE, "an AVIF image, 700 bytes");
        byte[] avifByCompatibleBrand = ftyp(800, "mif1", "mif1", "miaf", "avif");
        assertReason(avifByCompatibleBrand, ImageDecodeException.Kind.NOT_AN_IMAGE, "an AVIF image, 800 bytes");
        assertReason(ftyp(900, "heic", "mif1", "heic"), ImageDecodeException.Kind.NOT_AN_IMAGE,
                "a HEIF image, 900 bytes");
        assertReason("GIF89a\u0001\u0000".getBytes(StandardCharsets.ISO_8859_1), ImageDecodeException.Kind.NOT_AN_IMAGE,
                "a GIF image, 8 bytes");
        assertReason("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".getBytes(
                StandardCharsets.UTF_8), ImageDecodeException.Kind.NOT_AN_IMAGE, "an SVG image");
        byte[] json = "{\"object\":\"error\",\"status\":404}".getBytes(StandardCharsets.UTF_8);
        assertReason(json, ImageDecodeException.Kind.NOT_AN_IMAGE, "JSON, " + json.length + " bytes");
        assertReason(new byte[] {0, 1, 2, 3, 4}, ImageDecodeException.Kind.NOT_AN_IMAGE,
                "unrecognised binary data, 5 bytes");
        byte[] jpeg = CardArtGenerator.smallJpeg(16);
        byte[] cut = Arrays.copyOf(jpeg, jpeg.length / 2);
        assertReason(cut, ImageDecodeException.Kind.TRUNCATED, "received a JPEG image, " + cut.length + " bytes");
        assertReason(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0}, null,
                "received a PNG image, 9 bytes");
    }

    private static void assertReason(byte[] body, ImageDecodeException.Kind kind, String names) {
        ImageDecodeException e = assertRefused(body, names);
        if (kind != null) {
            assertEquals(kind, e.kind(), e.getMessage());
        }
        assertTrue(e.getMessage().contains(names), "\"" + e.getMessage() + "\" should name " + names);
    }

    @Test
    void aJpegOfTwelveBitSamplesIsRefusedAsSuchNotAsDamaged() {
        for (byte[] eightBit : new byte[][] {CardArtGenerator.smallJpeg(6),
                TestImageFiles.progressiveJpeg(CardArtGenerator.smallImage(6), 0.85f)}) {
            byte[] twelve = eightBit.clone();
            int sof = 2;
            while ((twelve[sof + 1] & 0xFF) < 0xC0 || (twelve[sof + 1] & 0xFF) > 0xC2) {
                sof += 2 + ((twelve[sof + 2] & 0xFF) << 8 | twelve[sof + 3] & 0xFF);
            }
            if (twelve[sof + 1] == (byte) 0xC0) {
                twelve[sof + 1] = (byte) 0xC1; // a baseline frame is 8-bit only; an extended one may be 12
            }
            twelve[sof + 4] = 12;
            assertReason(twelve, ImageDecodeException.Kind.CORRUPT,
                    "12-bit samples (SOF" + ((twelve[sof + 1] & 0xFF) - 0xC0) + ")");
        }
    }

    /** A RIFF file of {@code form} with one chunk of {@code size} zero bytes: 12 + 8 + size bytes. */
    private static byte[] riff(String form, String chunk, int size) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(20 + size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(12 + size)
                .put(form.getBytes(StandardCharsets.US_ASCII)).put(chunk.getBytes(StandardCharsets.US_ASCII)).putInt(size);
        return Arrays.copyOf(b.array(), 12 + size);
    }

    /** An ISO media file of {@code length} bytes starting with an ftyp box: major brand, version 0, compatibles. */
    private static byte[] ftyp(int length, String major, String... compatible) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(length);
        b.putInt(16 + 4 * compatible.length).put("ftyp".getBytes(StandardCharsets.US_ASCII))
                .put(major.getBytes(StandardCharsets.US_ASCII)).putInt(0);
        for (String brand : compatible) {
            b.put(brand.getBytes(StandardCharsets.US_ASCII));
        }
        return b.array();
    }

    @Test
    void randomBytesBehindAnImageSignatureAreOneDecodeFailure() {
        Random random = new Random(15);
        for (int trial = 0; trial < 300; trial++) {
            boolean png = trial % 2 == 0;
            byte[] signature = png ? new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A}
                    : new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF};
            byte[] tail = new byte[trial < 2 ? 0 : random.nextInt(3001)];
            random.nextBytes(tail);
            byte[] body = Arrays.copyOf(signature, signature.length + tail.length);
            System.arraycopy(tail, 0, body, signature.length, tail.length);
            assertRefused(body, "random tail " + trial);
        }
    }

    @Test
    void damagedJpegsEitherDecodeOrFailWithOneException() {
        byte[] jpeg = CardArtGenerator.smallJpeg(14);
        Random random = new Random(14);
        int decoded = 0;
        for (int k = 0; k < 400; k++) {
            byte[] damaged = jpeg.clone();
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            try {
                decoder.decode(damaged);
                decoded++;
            } catch (ImageDecodeException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
            } catch (RuntimeException e) {
                fail("damaged JPEG " + k + " threw " + e);
            }
        }
        assertTrue(decoded > 0, "some damage is harmless (e.g. inside the entropy-coded data)");
    }

    /** An 8-bit RGB PNG, filter type 0, red = x mod 256, green = y mod 256, blue 0; written row by row. */
    private static byte[] gradientPng(int width, int height) throws IOException {
        java.io.ByteArrayOutputStream idat = new java.io.ByteArrayOutputStream();
        try (java.util.zip.DeflaterOutputStream zip = new java.util.zip.DeflaterOutputStream(idat)) {
            byte[] row = new byte[1 + 3 * width];
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    row[1 + 3 * x] = (byte) x;
                    row[2 + 3 * x] = (byte) y;
                }
                zip.write(row);
            }
        }
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        png.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
        java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(13).putInt(width).putInt(height)
                .put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        chunk(png, "IHDR", header.array());
        chunk(png, "IDAT", idat.toByteArray());
        chunk(png, "IEND", new byte[0]);
        return png.toByteArray();
    }

    private static void chunk(java.io.ByteArrayOutputStream png, String type, byte[] data) throws IOException {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        crc.update(name);
        crc.update(data);
        png.write(java.nio.ByteBuffer.allocate(4).putInt(data.length).array());
        png.write(name);
        png.write(data);
        png.write(java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    private static ImageDecodeException assertRefused(byte[] body, String what) {
        try {
            RgbImage image = new ImageDecoder().decode(body);
            throw new AssertionError(what + ": decoded to " + image.width() + "x" + image.height());
        } catch (ImageDecodeException e) {
            assertTrue(e.getMessage() != null && e.getMessage().length() < 200, what + ": " + e.getMessage());
            return e;
        }
    }

    /** Ink (C, M, Y, K) of the CMYK test picture: smooth ramps, so a quality-1.0 JPEG keeps them closely. */
    private static int[] ink(int x, int y) {
        return new int[] {x * 255 / 145, y * 255 / 203, (x + y) * 255 / 349, 40 + (x / 30) * 20};
    }

    private static void assertNearInkColours(RgbImage image, int tolerance) {
        int worst = 0;
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                int[] ink = ink(x, y);
                int k = 255 - ink[3];
                int[] expected = {((255 - ink[0]) * k + 127) / 255, ((255 - ink[1]) * k + 127) / 255,
                        ((255 - ink[2]) * k + 127) / 255};
                int rgb = image.rgb(x, y);
                int[] actual = {rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF};
                for (int c = 0; c < 3; c++) {
                    worst = Math.max(worst, Math.abs(expected[c] - actual[c]));
                }
            }
        }
        assertTrue(worst <= tolerance, "largest channel error " + worst);
    }

    private static int clamp(long v) {
        return (int) Math.max(0, Math.min(255, v));
    }

    private static BufferedImage grey(BufferedImage colour) {
        BufferedImage grey = new BufferedImage(colour.getWidth(), colour.getHeight(), BufferedImage.TYPE_BYTE_GRAY);
        for (int y = 0; y < colour.getHeight(); y++) {
            for (int x = 0; x < colour.getWidth(); x++) {
                int c = colour.getRGB(x, y);
                grey.getRaster().setSample(x, y, 0, ((c >> 16 & 0xFF) + (c >> 8 & 0xFF) + (c & 0xFF)) / 3);
            }
        }
        return grey;
    }

    /**
     * Reads with the first registered JPEG reader whose class name starts with {@code prefix}, with its default
     * destination type or its raw image type.
     */
    private static BufferedImage read(byte[] jpeg, String prefix, boolean rawType) throws IOException {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(jpeg))) {
            for (Iterator<ImageReader> readers = ImageIO.getImageReaders(in); readers.hasNext(); ) {
                ImageReader reader = readers.next();
                if (reader.getClass().getName().startsWith(prefix)) {
                    try {
                        reader.setInput(in);
                        ImageReadParam param = reader.getDefaultReadParam();
                        if (rawType) {
                            param.setDestinationType(reader.getRawImageType(0));
                        }
                        return reader.read(0, param);
                    } finally {
                        reader.dispose();
                    }
                }
            }
        }
        throw new AssertionError("no JPEG reader " + prefix);
    }

    /** Raw samples as packed RGB (grey replicated), without the colour model's conversions. */
    private static int[] rawRgb(BufferedImage image) {
        Raster raster = image.getRaster();
        int[] out = new int[image.getWidth() * image.getHeight()];
        int[] s = new int[raster.getNumBands()];
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                raster.getPixel(x, y, s);
                out[y * image.getWidth() + x] = s.length >= 3 ? (s[0] << 16) | (s[1] << 8) | s[2]
                        : (s[0] << 16) | (s[0] << 8) | s[0];
            }
        }
        return out;
    }

    private static int indexOfMarker(byte[] jpeg, int marker) {
        for (int k = 2; k + 1 < jpeg.length; k++) {
            if ((jpeg[k] & 0xFF) == 0xFF && (jpeg[k + 1] & 0xFF) == marker) {
                return k;
            }
        }
        throw new AssertionError("no marker " + Integer.toHexString(marker));
    }
}
