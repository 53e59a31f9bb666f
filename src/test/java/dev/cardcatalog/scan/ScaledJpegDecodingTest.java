package dev.cardcatalog.scan;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.ImageOrientation;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.image.ScaledJpegDecoder;
import dev.cardcatalog.testing.ExifImages;
import dev.cardcatalog.testing.JpegSegments;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cardcatalog.testing.CaptureSimulator;
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
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upload decoder's scaled path ({@link ArtIndexResource#uploadDecoder}, {@link ScaledJpegDecoder}): a large JPEG
 * is decoded by libjpeg-turbo at 1/2, 1/4 or 1/8 and still matches its artwork; every file whose scaled decode
 * cannot be trusted takes ImageIO's path and gives exactly what the decoder without the scaled path gives. Which
 * path a file took shows in its size: the scaled path gives {@code ceil(side / r)}, ImageIO's subsampling
 * {@code ceil(side / step)} with {@code step = ceil(longer / 1024)}.
 */
class ScaledJpegDecodingTest {

    private static final int ARTWORKS = 100;
    /** The same limits as the upload decoder, without the scaled path: what ImageIO's path gives. */
    private static final ImageDecoder IMAGEIO = new ImageDecoder(MatchResource.MAX_BODY_BYTES, 8192,
            8192L * 8192L, MatchResource.MAX_DECODED_SIDE);
    private static final ImageDecoder UPLOADS = MatchResource.uploadDecoder().imageDecoder();

    private static ArtMatcher matcher;

    @BeforeAll
    static void indexTheGeneratedArtworks() {
        ImageDecoder plain = new ImageDecoder();
        matcher = ArtMatcher.of(FingerprintSettings.FROZEN.digest(), IntStream.range(0, ARTWORKS).parallel()
                .mapToObj(seed -> new ArtIndexFile.Entry(artworkId(seed), ArtFingerprint.compute(
                        decode(plain, CardArtGenerator.smallJpeg(seed)), FingerprintSettings.FROZEN.zeroOffset())))
                .toList());
    }

    @Test
    void theNativeDecoderLoadsOnTheBuildsPlatform() {
        // the build bundles the linux-x86_64 libraries; elsewhere uploads go ImageIO's way (tested below)
        boolean bundled = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch").matches("amd64|x86_64");
        assertEquals(bundled, ScaledJpegDecoder.available(), "why not: " + ScaledJpegDecoder.unavailableReason());
    }

    @Test
    void theFloorPicksTheLargestReductionThatKeepsTheLongerSideAtOrAboveIt() {
        assertEquals(8, UploadDecoder.scaledReduction(4032, 204)); // 12 MP: 378 x 504
        assertEquals(4, UploadDecoder.scaledReduction(1433, 204)); // 256 x 359 (1/8 would be 180)
        assertEquals(4, UploadDecoder.scaledReduction(838, 204)); // a 600 x 838 capture: 150 x 210
        assertEquals(4, UploadDecoder.scaledReduction(813, 204));
        assertEquals(2, UploadDecoder.scaledReduction(812, 204)); // 1/4 would be 203
        assertEquals(2, UploadDecoder.scaledReduction(407, 204));
        assertEquals(1, UploadDecoder.scaledReduction(406, 204)); // 1/2 would be 203: decoded by ImageIO
        assertEquals(1, UploadDecoder.scaledReduction(204, 0));
    }

    @Test
    void largeCapturesAreDecodedScaledAndFindTheirArtworkConfident() {
        List<String> misses = new ArrayList<>();
        for (int seed = 0; seed < 8; seed++) {
            byte[] capture = CaptureSimulator.captureJpeg(seed, 9_000 + seed, CaptureSimulator.Severity.REALISTIC,
                    1024);
            byte[] clean = TestImageFiles.jpeg(CardArtGenerator.card(seed).render(1024, 1433, 1), 0.85f);
            for (byte[] photo : List.of(capture, clean)) {
                RgbImage image = decode(UPLOADS, photo);
                // 1,024 x 1,431 or 1,433 at 1/4: the scaled path, not ImageIO's 512 x 716
                assertEquals(256, image.width());
                assertTrue(image.height() == 358 || image.height() == 359, "height " + image.height());
                CaptureQueries queries = CaptureQueries.of(image);
                ArtMatcher.Match first = matcher.nearest(queries.fingerprints(), 10).get(0);
                if (!first.artworkId().equals(artworkId(seed)) || !first.confident()
                        || queries.turnOf(first.query()) != 0) {
                    misses.add("artwork " + seed + " -> " + first);
                }
            }
        }
        assertEquals(List.of(), misses);
    }

    @Test
    void anExifOrientationIsAppliedToTheScaledPicture() throws IOException {
        byte[] upright = CaptureSimulator.captureJpeg(3, 9_100, CaptureSimulator.Severity.REALISTIC, 1024);
        for (int orientation : new int[] {3, 5, 6, 8}) {
            BufferedImage stored = ExifImages.stored(ImageIO.read(new ByteArrayInputStream(upright)), orientation);
            byte[] photo = ExifImages.jpegWithExif(TestImageFiles.jpeg(stored, 0.85f),
                    ExifImages.orientationTiff(orientation, ByteOrder.BIG_ENDIAN));
            RgbImage decoded = decode(UPLOADS, photo);
            assertEquals(358, Math.max(decoded.width(), decoded.height()), "scaled 1/4, stored " + orientation);
            RgbImage image = ImageOrientation.upright(decoded, ImageOrientation.of(photo));
            assertEquals(256, image.width(), "turned upright, orientation " + orientation);
            CaptureQueries queries = CaptureQueries.of(image);
            ArtMatcher.Match first = matcher.nearest(queries.fingerprints(), 10).get(0);
            assertEquals(artworkId(3), first.artworkId(), "orientation " + orientation);
            assertTrue(first.confident(), "orientation " + orientation + ": " + first);
            assertEquals(0, queries.turnOf(first.query()), "orientation " + orientation + ": " + first);
        }
    }

    @Test
    void aScaledPixelIsTheMeanOfItsEightByEightBlock() {
        // 1,001 x 1,403: neither side a multiple of 8, and grey rows not a whole number of 4-pixel words
        BufferedImage colour = CardArtGenerator.card(21).render(1001, 1403, 1);
        BufferedImage grey = new BufferedImage(1001, 1403, BufferedImage.TYPE_BYTE_GRAY);
        grey.getGraphics().drawImage(colour, 0, 0, null);
        for (BufferedImage picture : List.of(colour, grey)) {
            byte[] jpeg = TestImageFiles.jpeg(picture, 0.9f);
            RgbImage whole = decode(new ImageDecoder(), jpeg);
            RgbImage eighth = ScaledJpegDecoder.decode(jpeg, 8);
            assertNotNull(eighth);
            assertEquals(126, eighth.width());
            assertEquals(176, eighth.height());
            double[] error = new double[3];
            for (int y = 0; y < eighth.height(); y++) {
                for (int x = 0; x < eighth.width(); x++) {
                    int[] mean = blockMean(whole, x * 8, y * 8);
                    int rgb = eighth.rgb(x, y);
                    for (int c = 0; c < 3; c++) {
                        error[c] += Math.abs(((rgb >> (16 - 8 * c)) & 0xFF) - mean[c]);
                    }
                }
            }
            int pixels = eighth.width() * eighth.height();
            for (int c = 0; c < 3; c++) {
                error[c] /= pixels;
                // measured: colour 0.24, 0.16, 0.34 (4:2:0 chroma, upsampled); grey 0.03 (rounding alone)
                double bound = picture == grey ? 0.1 : 1.0;
                assertTrue(error[c] <= bound, String.format(Locale.ROOT, "%s channel %d: mean error %.3f",
                        picture.getType() == BufferedImage.TYPE_BYTE_GRAY ? "grey" : "colour", c, error[c]));
            }
            if (picture == grey) {
                for (int p : eighth.pixels()) {
                    assertEquals(p & 0xFF, (p >> 8) & 0xFF);
                    assertEquals(p & 0xFF, (p >> 16) & 0xFF);
                }
            }
        }
    }

    @Test
    void fourComponentJpegsTakeImageIOsPath() {
        // Adobe CMYK (transform 0) and YCCK (transform 2), 1,100 x 1,540: large enough to be scaled otherwise
        int w = 1100;
        int h = 1540;
        for (int transform : new int[] {0, 2}) {
            WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, w, h, 4, null);
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    raster.setSample(x, y, 0, (x * 255) / w);
                    raster.setSample(x, y, 1, (y * 255) / h);
                    raster.setSample(x, y, 2, ((x + y) / 9) & 0xFF);
                    raster.setSample(x, y, 3, 200 - (x * 100) / w);
                }
            }
            byte[] jpeg = TestImageFiles.adobeFourComponentJpeg(raster, transform, 0.9f);
            RgbImage image = decode(UPLOADS, jpeg);
            assertEquals(550, image.width(), "subsampled by ImageIO, every 2nd pixel (transform " + transform + ")");
            assertArrayEquals(decode(IMAGEIO, jpeg).pixels(), image.pixels());
        }
    }

    @Test
    void iccTaggedJpegsTakeImageIOsPath() {
        byte[] plain = TestImageFiles.jpeg(CardArtGenerator.card(5).render(1024, 1433, 1), 0.85f);
        for (int space : new int[] {ColorSpace.CS_sRGB, ColorSpace.CS_LINEAR_RGB}) {
            byte[] tagged = JpegSegments.withIccProfile(plain, ICC_Profile.getInstance(space));
            RgbImage image = decode(UPLOADS, tagged);
            assertEquals(512, image.width(), "subsampled by ImageIO (TwelveMonkeys, raw)");
            assertArrayEquals(decode(IMAGEIO, tagged).pixels(), image.pixels());
        }
        assertEquals(256, decode(UPLOADS, plain).width(), "the same file without its profile is scaled");
    }

    @Test
    void brokenMetadataAroundWholePixelsIsIgnoredOnEitherPath() {
        byte[] clean = TestImageFiles.jpeg(CardArtGenerator.card(6).render(1024, 1433, 1), 0.85f);
        RgbImage scaled = decode(UPLOADS, clean);
        assertEquals(256, scaled.width());
        // garbage EXIF and XMP: libjpeg skips them, so the scaled path gives the clean file's pixels
        byte[] garbage = new byte[300];
        new Random(6).nextBytes(garbage);
        for (byte[] segment : List.of(
                JpegSegments.segment(0xE1, concat("Exif\0\0".getBytes(StandardCharsets.US_ASCII), garbage)),
                JpegSegments.segment(0xE1, concat("http://ns.adobe.com/xap/1.0/\0"
                        .getBytes(StandardCharsets.US_ASCII), garbage)))) {
            byte[] broken = JpegSegments.afterApp0(clean, new byte[][] {segment});
            assertArrayEquals(scaled.pixels(), decode(UPLOADS, broken).pixels());
        }
        // an ICC profile whose chunks do not fit together (counts or sequence numbers that disagree) is ignored as on
        // ImageIO's path: the scaled path gives the clean file's pixels
        for (byte[][] chunks : List.of(
                new byte[][] {JpegSegments.icc(1, 2, new byte[100]),
                        JpegSegments.icc(2, 3, new byte[100])},
                new byte[][] {JpegSegments.icc(2, 2, new byte[100])})) {
            byte[] broken = JpegSegments.afterApp0(clean, chunks);
            assertArrayEquals(scaled.pixels(), decode(UPLOADS, broken).pixels(), "a broken ICC profile");
        }
        // an APP14 that is not a well-formed Adobe segment: libjpeg could read a colour transform from it, so it is
        // left out before the scaled decode, as ImageIO's path reads the file without it when it must
        for (byte[] payload : List.of(new byte[] {'A', 'd', 'o', 'b', 'e'},
                new byte[] {'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 7})) {
            byte[] broken = JpegSegments.afterApp0(clean,
                    new byte[][] {JpegSegments.segment(0xEE, payload)});
            assertArrayEquals(scaled.pixels(), decode(UPLOADS, broken).pixels(), payload.length + "-byte APP14");
            assertArrayEquals(decode(IMAGEIO, clean).pixels(), decode(IMAGEIO, broken).pixels());
        }
    }

    @Test
    void aLosslessJpegLargerThanTheBoundIsRefusedNotDecodedWhole() {
        // libjpeg decodes a lossless frame (SOF3) at full size whatever reduction is asked: 2,048 x 2,048 would come
        // back whole, and an 8 MB upload of 8,192 x 8,192 would be 256 MB of pixels. TwelveMonkeys, ImageIO's
        // fallback for it, ignores source subsampling on such a frame too, so over maxDecodedSide it is refused.
        for (int components : new int[] {1, 3}) {
            byte[] lossless = losslessJpeg(2048, 2048, components);
            assertNull(ScaledJpegDecoder.decode(lossless, 8, 256, 256), components + " components");
            for (ImageDecoder decoder : List.of(UPLOADS, IMAGEIO)) {
                ImageDecodeException refused = org.junit.jupiter.api.Assertions.assertThrows(
                        ImageDecodeException.class, () -> decoder.decode(lossless));
                assertEquals(ImageDecodeException.Kind.DIMENSIONS_REFUSED, refused.kind());
                assertTrue(refused.getMessage().contains("2048x2048 with a lossless or hierarchical frame (SOF3)"),
                        refused.getMessage());
            }
            // within the bound it is read whole, as before
            RgbImage small = decode(UPLOADS, losslessJpeg(600, 800, components));
            assertEquals(600, small.width());
            assertEquals(800, small.height());
        }
        // the same check, on any frame: a decoded size other than the one asked for is dropped
        byte[] baseline = TestImageFiles.jpeg(CardArtGenerator.card(8).render(1024, 1433, 1), 0.85f);
        assertEquals(256, ScaledJpegDecoder.decode(baseline, 4, 256, 359).width());
        assertNull(ScaledJpegDecoder.decode(baseline, 4, 512, 717));
    }

    /**
     * A lossless JPEG (SOF3, predictor 1) of {@code width} x {@code height} whose every sample codes as difference 0
     * with a one-bit Huffman code: 1 bit a sample, the smallest such file can be.
     */
    private static byte[] losslessJpeg(int width, int height, int components) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD8});
        byte[] sof = new byte[6 + 3 * components];
        sof[0] = 8;
        sof[1] = (byte) (height >> 8);
        sof[2] = (byte) height;
        sof[3] = (byte) (width >> 8);
        sof[4] = (byte) width;
        sof[5] = (byte) components;
        for (int c = 0; c < components; c++) {
            sof[6 + 3 * c] = (byte) (c + 1);
            sof[7 + 3 * c] = 0x11;
        }
        segment(out, 0xC3, sof);
        byte[] dht = new byte[1 + 16 + 9]; // class 0, table 0: one code of each length 1-9, for differences 0-8
        Arrays.fill(dht, 1, 10, (byte) 1);
        for (int v = 0; v < 9; v++) {
            dht[17 + v] = (byte) v;
        }
        segment(out, 0xC4, dht);
        byte[] sos = new byte[1 + 2 * components + 3];
        sos[0] = (byte) components;
        for (int c = 0; c < components; c++) {
            sos[1 + 2 * c] = (byte) (c + 1);
        }
        sos[1 + 2 * components] = 1; // predictor 1 (the sample to the left)
        segment(out, 0xDA, sos);
        out.writeBytes(new byte[(int) (((long) width * height * components + 7) / 8)]);
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD9});
        return out.toByteArray();
    }

    private static void segment(java.io.ByteArrayOutputStream out, int marker, byte[] payload) {
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) marker, (byte) ((payload.length + 2) >> 8),
                (byte) (payload.length + 2)});
        out.writeBytes(payload);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void dataTheNativeDecoderWarnsAboutTakesImageIOsPathAndItsRefusal() {
        byte[] jpeg = CaptureSimulator.captureJpeg(7, 9_200, CaptureSimulator.Severity.REALISTIC, 1024);
        int scan = scanData(jpeg);
        // cut inside the entropy-coded data and closed with an end-of-image marker: the marker walk finds it
        // whole, libjpeg warns of a premature end of the data segment
        for (double at : new double[] {0.2, 0.5, 0.9}) {
            int cut = scan + (int) ((jpeg.length - 2 - scan) * at);
            byte[] truncated = Arrays.copyOf(jpeg, cut + 2);
            truncated[cut] = (byte) 0xFF;
            truncated[cut + 1] = (byte) 0xD9;
            assertNull(ScaledJpegDecoder.decode(truncated, 4), "the native decoder warns (cut at " + at + ")");
            assertEquals(outcome(IMAGEIO, truncated), outcome(UPLOADS, truncated), "cut at " + at);
        }
        // bytes changed in the entropy-coded data: where libjpeg warns, ImageIO decides; elsewhere the scaled
        // picture stands
        Random random = new Random(15);
        int fellBack = 0;
        int scaled = 0;
        for (int k = 0; k < 60; k++) {
            byte[] damaged = jpeg.clone();
            for (int flips = 1 + random.nextInt(6); flips > 0; flips--) {
                damaged[scan + random.nextInt(jpeg.length - 2 - scan)] = (byte) random.nextInt(256);
            }
            RgbImage nativeImage = ScaledJpegDecoder.decode(damaged, 4);
            String expected = nativeImage == null ? outcome(IMAGEIO, damaged) : describe(nativeImage);
            assertEquals(expected, outcome(UPLOADS, damaged), "damaged JPEG " + k);
            if (nativeImage == null) {
                fellBack++;
            } else {
                scaled++;
            }
        }
        assertTrue(fellBack > 0 && scaled > 0, fellBack + " fell back, " + scaled + " scaled");
    }

    @Test
    void withoutTheNativeLibraryUploadsAreDecodedByImageIO(@TempDir Path dir) throws Exception {
        // Another JVM told it runs on a platform whose libraries the build does not bundle: the library does not
        // load, the decoder says so once at INFO and reads the photo with ImageIO.
        Path photo = dir.resolve("photo.jpg");
        Files.write(photo, TestImageFiles.jpeg(CardArtGenerator.card(9).render(1024, 1433, 1), 0.85f));
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.bytedeco.javacpp.platform=linux-riscv64",
                "-Dorg.bytedeco.javacpp.cachedir=" + dir.resolve("cache"),
                "-cp", System.getProperty("java.class.path"), DecodeOnePhoto.class.getName(), photo.toString())
                .redirectErrorStream(true).start();
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child JVM ended");
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("Uploaded JPEGs are decoded by ImageIO: the native JPEG decoder did not load"),
                output);
        assertTrue(output.contains("decoded 512x717"), output);
    }

    /** Decodes the file named by its argument with the upload decoder and prints its size. */
    public static final class DecodeOnePhoto {
        public static void main(String[] args) throws Exception {
            RgbImage image = MatchResource.uploadDecoder().decode(Files.readAllBytes(Path.of(args[0])));
            System.out.println("decoded " + image.width() + "x" + image.height());
        }
    }

    /** Where the first scan's entropy-coded data starts: after the SOS segment. */
    private static int scanData(byte[] jpeg) {
        for (int k = 2; k + 3 < jpeg.length; k++) {
            if ((jpeg[k] & 0xFF) == 0xFF && (jpeg[k + 1] & 0xFF) == 0xDA) {
                return k + 2 + (((jpeg[k + 2] & 0xFF) << 8) | (jpeg[k + 3] & 0xFF));
            }
        }
        throw new AssertionError("no SOS marker");
    }

    /** The size and a digest of the pixels, or the kind of refusal. */
    private static String outcome(ImageDecoder decoder, byte[] body) {
        try {
            return describe(decoder.decode(body));
        } catch (ImageDecodeException e) {
            return "refused " + e.kind();
        }
    }

    private static String describe(RgbImage image) {
        return image.width() + "x" + image.height() + " #" + Arrays.hashCode(image.pixels());
    }

    /** The mean of each channel over the 8 × 8 block at ({@code x0}, {@code y0}), cut at the image's edges. */
    private static int[] blockMean(RgbImage image, int x0, int y0) {
        long[] sum = new long[3];
        int n = 0;
        for (int y = y0; y < Math.min(y0 + 8, image.height()); y++) {
            for (int x = x0; x < Math.min(x0 + 8, image.width()); x++) {
                int rgb = image.rgb(x, y);
                sum[0] += (rgb >> 16) & 0xFF;
                sum[1] += (rgb >> 8) & 0xFF;
                sum[2] += rgb & 0xFF;
                n++;
            }
        }
        return new int[] {(int) ((sum[0] + n / 2) / n), (int) ((sum[1] + n / 2) / n), (int) ((sum[2] + n / 2) / n)};
    }


    private static RgbImage decode(ImageDecoder decoder, byte[] jpeg) {
        try {
            return decoder.decode(jpeg);
        } catch (ImageDecodeException e) {
            throw new AssertionError(e);
        }
    }
}
