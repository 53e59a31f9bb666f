package dev.cardcatalog.image;

import static dev.cardcatalog.testing.JpegSegments.afterApp0;
import static dev.cardcatalog.testing.JpegSegments.concat;
import static dev.cardcatalog.testing.JpegSegments.icc;
import static dev.cardcatalog.testing.JpegSegments.segment;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.TestImageFiles;
import java.awt.color.ColorSpace;
import java.awt.color.ICC_Profile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 12, fault 4: metadata that is broken while the pixel data is whole (ICC APP2, EXIF and XMP APP1, Adobe
 * APP14 segments) decodes as if the broken part were not there, and the fingerprint equals the clean file's.
 * Each case inserts segments after the JFIF APP0 segment of a clean baseline (or progressive) JPEG.
 */
class BrokenJpegMetadataTest {

    private static final byte[] ICC_ID = "ICC_PROFILE\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXIF_ID = "Exif\0\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] XMP_ID = "http://ns.adobe.com/xap/1.0/\0".getBytes(StandardCharsets.US_ASCII);

    private final ImageDecoder decoder = new ImageDecoder();

    @TestFactory
    List<DynamicTest> brokenMetadataDecodesToTheCleanFilesFingerprint() {
        byte[] srgb = ICC_Profile.getInstance(ColorSpace.CS_sRGB).getData();
        byte[] linear = ICC_Profile.getInstance(ColorSpace.CS_LINEAR_RGB).getData();
        byte[] firstHalf = Arrays.copyOf(linear, linear.length / 2);
        byte[] secondHalf = Arrays.copyOfRange(linear, linear.length / 2, linear.length);
        byte[] random = new byte[300];
        new Random(41).nextBytes(random);

        List<Object[]> cases = new ArrayList<>();
        // The input, byte for byte: chunk 1 of 2, then chunk 2 of 3, 100 zero bytes each.
        cases.add(new Object[] {"ICC chunks 1/2 and 2/3 of zeros (the issue's file)",
                new byte[][] {icc(1, 2, new byte[100]), icc(2, 3, new byte[100])}});
        cases.add(new Object[] {"ICC chunk 1 of 2 only (a chunk missing)", new byte[][] {icc(1, 2, firstHalf)}});
        cases.add(new Object[] {"ICC chunk 1 of 2 twice",
                new byte[][] {icc(1, 2, firstHalf), icc(1, 2, secondHalf)}});
        cases.add(new Object[] {"ICC chunk 0 of 1", new byte[][] {icc(0, 1, linear)}});
        cases.add(new Object[] {"ICC chunk 3 of 2", new byte[][] {icc(1, 2, firstHalf), icc(3, 2, secondHalf)}});
        cases.add(new Object[] {"ICC chunk count 0", new byte[][] {icc(1, 0, linear)}});
        cases.add(new Object[] {"ICC chunks in the wrong order with different counts",
                new byte[][] {icc(2, 2, secondHalf), icc(1, 3, firstHalf)}});
        cases.add(new Object[] {"ICC profile truncated to half its declared size", new byte[][] {icc(1, 1, firstHalf)}});
        cases.add(new Object[] {"ICC profile of random bytes", new byte[][] {icc(1, 1, random)}});
        cases.add(new Object[] {"ICC segment without its chunk numbers", new byte[][] {segment(0xE2, ICC_ID)}});
        cases.add(new Object[] {"ICC sRGB profile with a damaged tag table",
                new byte[][] {icc(1, 1, damagedTagTable(srgb))}});
        cases.add(new Object[] {"EXIF of random bytes", new byte[][] {segment(0xE1, concat(EXIF_ID, random))}});
        cases.add(new Object[] {"EXIF whose first IFD lies past the segment", new byte[][] {segment(0xE1,
                concat(EXIF_ID, new byte[] {'M', 'M', 0, 42, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0}))}});
        cases.add(new Object[] {"EXIF with a looping IFD chain", new byte[][] {segment(0xE1,
                concat(EXIF_ID, new byte[] {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x11, 0x01, 4, 0, 1, 0, 0, 0,
                        (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 8, 0, 0, 0}))}});
        cases.add(new Object[] {"EXIF identifier only", new byte[][] {segment(0xE1, EXIF_ID)}});
        cases.add(new Object[] {"XMP that is not XML", new byte[][] {segment(0xE1, concat(XMP_ID, random))}});
        cases.add(new Object[] {"XMP cut inside an element", new byte[][] {segment(0xE1, concat(XMP_ID,
                "<?xpacket begin='\uFEFF'?><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF <<"
                        .getBytes(StandardCharsets.UTF_8)))}});
        cases.add(new Object[] {"Adobe APP14 cut after its identifier",
                new byte[][] {segment(0xEE, new byte[] {'A', 'd', 'o', 'b', 'e'})}});
        cases.add(new Object[] {"Adobe APP14 with transform 7",
                new byte[][] {segment(0xEE, new byte[] {'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 7})}});
        cases.add(new Object[] {"Adobe APP14 with transform 2 (YCCK) on a three-component image",
                new byte[][] {segment(0xEE, new byte[] {'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 2})}});
        cases.add(new Object[] {"every kind at once", new byte[][] {segment(0xE1, concat(EXIF_ID, random)),
                segment(0xE1, concat(XMP_ID, random)), icc(1, 2, new byte[100]), icc(2, 3, new byte[100]),
                segment(0xEE, new byte[] {'A', 'd', 'o', 'b', 'e'})}});

        List<DynamicTest> tests = new ArrayList<>();
        byte[][] cleanFiles = {CardArtGenerator.smallJpeg(21),
                TestImageFiles.progressiveJpeg(CardArtGenerator.smallImage(22), 0.85f)};
        for (int f = 0; f < cleanFiles.length; f++) {
            byte[] clean = cleanFiles[f];
            String file = f == 0 ? "baseline" : "progressive";
            for (Object[] c : cases) {
                byte[][] segments = (byte[][]) c[1];
                tests.add(DynamicTest.dynamicTest(file + ": " + c[0], () -> {
                    RgbImage expected = decoder.decode(clean);
                    RgbImage actual = decoder.decode(afterApp0(clean, segments));
                    assertEquals(expected.width(), actual.width());
                    assertEquals(expected.height(), actual.height());
                    assertArrayEquals(expected.pixels(), actual.pixels(), "pixels");
                    byte[][] expectedQueries = ArtFingerprint.queries(expected);
                    byte[][] actualQueries = ArtFingerprint.queries(actual);
                    for (int k = 0; k < expectedQueries.length; k++) {
                        assertArrayEquals(expectedQueries[k], actualQueries[k], "fingerprint at offset " + k);
                    }
                }));
            }
        }
        assertEquals(2 * 21, tests.size(), "two clean files x 21 kinds of broken metadata");
        return tests;
    }

    /** The profile with its tag count set to a huge number, so its tag table runs past its end. */
    private static byte[] damagedTagTable(byte[] profile) {
        byte[] damaged = profile.clone();
        damaged[128] = 0x0F;
        damaged[129] = (byte) 0xFF;
        damaged[130] = (byte) 0xFF;
        damaged[131] = (byte) 0xFF;
        return damaged;
    }
}
