package dev.cardcatalog.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.HostileImages;
import dev.cardcatalog.testing.JpegSegments;
import dev.cardcatalog.testing.TestImageFiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one cheap pass over a JPEG's markers ({@link JpegStructure}) and a PNG's chunks ({@link PngStructure}): what
 * they count (scans, segments, arithmetic coding, sampling factors) and how they stop at a flood (issue 23).
 */
class MarkerWalkTest {

    @Test
    void aBaselineJpegHasOneScanAFewSegmentsAndItsSamplingFactors() throws Exception {
        JpegStructure jpeg = JpegStructure.scan(CardArtGenerator.smallJpeg(1));
        assertThat(jpeg.scans()).isEqualTo(1);
        assertThat(jpeg.multiScan()).isFalse();
        assertThat(jpeg.progressive()).isFalse();
        assertThat(jpeg.arithmetic()).isFalse();
        assertThat(jpeg.precision()).isEqualTo(8);
        // the JDK writer: APP0, two DQT, SOF0, four DHT
        assertThat(jpeg.segments()).isEqualTo(8);
        // 4:2:0: Y sampled 2 x 2, Cb and Cr 1 x 1
        assertThat(jpeg.frameComponents()).extracting(JpegStructure.Component::horizontal).containsExactly(2, 1, 1);
        assertThat(jpeg.frameComponents()).extracting(JpegStructure.Component::vertical).containsExactly(2, 1, 1);
        assertThat(jpeg.maxVerticalSampling()).isEqualTo(2);
        assertThat(jpeg.declaredWork()).isEqualTo(146L * 204 * 3);
    }

    @Test
    void aProgressiveJpegKeepsEveryCoefficientAndItsArrayIsKnownFromTheHeader() throws Exception {
        JpegStructure jpeg = JpegStructure.scan(HostileImages.progressive4096());
        assertThat(jpeg.progressive()).isTrue();
        assertThat(jpeg.multiScan()).isTrue();
        assertThat(jpeg.scans()).isEqualTo(10);
        // Y: 512 x 512 blocks, Cb and Cr 256 x 256, 128 bytes a block: what libjpeg allocates (djpeg peaks at 51 MB)
        assertThat(jpeg.coefficientBytes()).isEqualTo((512L * 512 + 2 * 256 * 256) * 128).isEqualTo(50_331_648L);
        assertThat(jpeg.declaredWork()).isEqualTo(4096L * 4096 * 3 * 10);
    }

    @Test
    void blockCountsRoundUpToTheSamplingFactorsAsLibjpegAllocates() throws Exception {
        // 1,001 x 1,403 at 4:2:0: Y 126 x 176 blocks (125.1 and 175.4 rounded up, then to multiples of 2),
        // Cb and Cr 63 x 88
        byte[] file = TestImageFiles.progressiveJpeg(CardArtGenerator.card(2).render(1001, 1403, 1), 0.8f);
        JpegStructure jpeg = JpegStructure.scan(file);
        assertThat(jpeg.coefficientBytes()).isEqualTo((126L * 176 + 2 * 63 * 88) * 128);
        // grey: one component, 2 bytes a pixel
        java.awt.image.BufferedImage grey = new java.awt.image.BufferedImage(800, 600,
                java.awt.image.BufferedImage.TYPE_BYTE_GRAY);
        JpegStructure g = JpegStructure.scan(TestImageFiles.progressiveJpeg(grey, 0.8f));
        assertThat(g.coefficientBytes()).isEqualTo(100L * 75 * 128);
    }

    @Test
    void theIssuesScanFloodIsCountedAndStoppedAtTheLimit() throws Exception {
        byte[] flood = HostileImages.scanFlood(20_000);
        assertThat(flood.length).isBetween(700_000, 900_000);
        assertThat(JpegStructure.scan(flood).scans()).isEqualTo(20_000);
        assertThatThrownBy(() -> JpegStructure.scan(flood, 1000, 100))
                .isInstanceOfSatisfying(ImageDecodeException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.TOO_MANY_SCANS);
                    assertThat(e.getMessage()).contains("more than 100 scans");
                });
        assertThat(JpegStructure.scan(HostileImages.scanFlood(100), 1000, 100).scans()).isEqualTo(100);
    }

    @Test
    void segmentFloodsOfEveryKindAreCountedAndStopped() throws Exception {
        List<byte[]> floods = List.of(HostileImages.app1Flood(5_000), HostileImages.commentFlood(5_000),
                HostileImages.tableFlood(1_000),
                // markers without a length between segments: RST0 and TEM, which libjpeg skips one by one
                HostileImages.withSegments(CardArtGenerator.smallJpeg(4), new byte[] {(byte) 0xFF, (byte) 0xD0,
                        (byte) 0xFF, 0x01}, 2_500));
        for (byte[] flood : floods) {
            assertThat(JpegStructure.scan(flood).segments()).isGreaterThan(5_000);
            assertThatThrownBy(() -> JpegStructure.scan(flood, 1000, 100))
                    .isInstanceOfSatisfying(ImageDecodeException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.TOO_MANY_SEGMENTS);
                        assertThat(e.getMessage()).contains("more than 1,000 marker segments");
                    });
        }
        // the issue's 200,000 empty APP1 segments pass no walk: not even the art build's, which records at most
        // 65,536 of them
        assertThatThrownBy(() -> JpegStructure.scan(HostileImages.app1Flood(200_000)))
                .isInstanceOfSatisfying(ImageDecodeException.class,
                        e -> assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.TOO_MANY_SEGMENTS));
    }

    @Test
    void arithmeticCodingIsSeenInTheFrameOrInAConditioningSegment() throws Exception {
        byte[] baseline = CardArtGenerator.smallJpeg(5);
        for (int sof : new int[] {0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}) {
            assertThat(JpegStructure.scan(HostileImages.withFrameMarker(baseline, sof)).arithmetic())
                    .as("SOF%d", sof - 0xC0).isTrue();
        }
        for (int sof : new int[] {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7}) {
            assertThat(JpegStructure.scan(HostileImages.withFrameMarker(baseline, sof)).arithmetic())
                    .as("SOF%d", sof - 0xC0).isFalse();
        }
        JpegStructure dac = JpegStructure.scan(HostileImages.withArithmeticConditioning(baseline));
        assertThat(dac.arithmetic()).isTrue();
        assertThat(dac.frame()).isEqualTo(0xC0);
    }

    @Test
    void aDeclaredSizeIsReadAsDeclared() throws Exception {
        JpegStructure huge = JpegStructure.scan(HostileImages.withDeclaredSize(CardArtGenerator.smallJpeg(6),
                65_535, 65_535));
        assertThat(huge.width()).isEqualTo(65_535);
        assertThat(huge.declaredWork()).isEqualTo(65_535L * 65_535 * 3);
        assertThat(huge.coefficientBytes()).isGreaterThan(12_000_000_000L);
    }

    @Test
    void metadataSegmentsAreStillFoundWhereTheyLie() throws Exception {
        byte[] jpeg = JpegSegments.afterApp0(CardArtGenerator.smallJpeg(7),
                new byte[][] {JpegSegments.segment(0xE1, "Exif\0\0".getBytes()), JpegSegments.segment(0xFE,
                        "hello".getBytes())});
        JpegStructure walked = JpegStructure.scan(jpeg);
        assertThat(walked.metadata()).hasSize(2);
        assertThat(walked.segments()).isEqualTo(10);
        assertThat(walked.hasOptionalMetadata()).isTrue();
    }

    @Test
    void aPngsChunksAreCountedAndItsWorkComesFromItsHeader() throws Exception {
        byte[] png = HostileImages.flatPng(640, 480, 16, 6);
        PngStructure walked = PngStructure.scan(png, 100);
        assertThat(walked.width()).isEqualTo(640);
        assertThat(walked.chunks()).isEqualTo(3);
        assertThat(walked.complete()).isTrue();
        assertThat(walked.channels()).isEqualTo(4);
        assertThat(walked.declaredWork()).isEqualTo(640L * 480 * 4 * 2);
        assertThat(walked.rowBytes()).isEqualTo(1 + 640 * 8);

        assertThat(PngStructure.scan(HostileImages.truncated(png, png.length - 20), 100).complete()).isFalse();
        byte[] textFlood = HostileImages.withChunks(png, HostileImages.chunk("tEXt", "a\0b".getBytes()), 5_000);
        assertThat(PngStructure.scan(textFlood, 10_000).chunks()).isEqualTo(5_003);
        assertThatThrownBy(() -> PngStructure.scan(textFlood, 1000))
                .isInstanceOfSatisfying(ImageDecodeException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.TOO_MANY_SEGMENTS);
                    assertThat(e.getMessage()).contains("more than 1,000 chunks");
                });
        PngStructure declared = PngStructure.scan(HostileImages.pngWithDeclaredSize(png, Integer.MAX_VALUE, 1), 10);
        assertThat(declared.width()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void theEntropyCodedDataEndsAtTheFirstMarkerWhereverItLiesAndWhateverComesBeforeIt() {
        // the bytes a marker may follow in scan data: stuffed 0xFF00, fill bytes, restart markers, and plain data
        byte[][] before = {{}, {0x12}, {(byte) 0xFF, 0x00}, {(byte) 0xFF, (byte) 0xFF}, {(byte) 0xFF, (byte) 0xD0},
                {(byte) 0xFF, (byte) 0xD7}, {(byte) 0xFE, (byte) 0xFF, 0x00, (byte) 0x7F}};
        int[] markers = {0xD9, 0xDA, 0xC4, 0xD8, 0xCF, 0x01};
        java.util.Random random = new java.util.Random(24);
        int checked = 0;
        for (int length = 0; length <= 40; length++) {
            for (byte[] prefix : before) {
                for (int marker : markers) {
                    byte[] data = new byte[length + prefix.length + 2 + 3];
                    for (int i = 0; i < length; i++) {
                        int v = random.nextInt(256);
                        // scan data has no 0xFF but a stuffed one, a fill byte before a marker or a restart marker
                        data[i] = (byte) (v == 0xFF ? 0xFE : v);
                    }
                    System.arraycopy(prefix, 0, data, length, prefix.length);
                    int at = length + prefix.length;
                    data[at] = (byte) 0xFF;
                    data[at + 1] = (byte) marker;
                    for (int from = 0; from <= at; from++) {
                        assertThat(JpegStructure.endOfEntropyCodedData(data, from))
                                .as("length %d, prefix %d bytes, marker %02X, from %d", length, prefix.length, marker,
                                        from)
                                .isEqualTo(byteByByte(data, from));
                        checked++;
                    }
                    // cut before the marker's second byte: the data runs to the end
                    byte[] cut = java.util.Arrays.copyOf(data, at + 1);
                    assertThat(JpegStructure.endOfEntropyCodedData(cut, 0)).isEqualTo(byteByByte(cut, 0));
                }
            }
        }
        assertThat(checked).isGreaterThan(10_000);
        // a photo's worth of scan data with stuffed bytes and restart markers all through it
        byte[] scan = new byte[200_000];
        for (int i = 0; i < scan.length; i++) {
            scan[i] = (byte) random.nextInt(0xFF);
            if (i % 257 == 0 && i + 1 < scan.length) {
                scan[i] = (byte) 0xFF;
                scan[++i] = (byte) (i % 3 == 0 ? 0x00 : 0xD0 + i % 8);
            }
        }
        scan[scan.length - 2] = (byte) 0xFF;
        scan[scan.length - 1] = (byte) 0xD9;
        assertThat(JpegStructure.endOfEntropyCodedData(scan, 0)).isEqualTo(scan.length - 2).isEqualTo(
                byteByByte(scan, 0));
    }

    /** The walk's skip as ITU T.81 reads it, one byte at a time. */
    private static int byteByByte(byte[] b, int from) {
        int pos = from;
        while (pos + 1 < b.length) {
            if ((b[pos] & 0xFF) == 0xFF) {
                int next = b[pos + 1] & 0xFF;
                if (next != 0x00 && next != 0xFF && (next < 0xD0 || next > 0xD7)) {
                    return pos;
                }
            }
            pos++;
        }
        return pos;
    }
}
