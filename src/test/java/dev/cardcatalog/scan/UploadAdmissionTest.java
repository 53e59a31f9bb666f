package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.HostileImages;
import dev.cardcatalog.testing.JpegSegments;
import dev.cardcatalog.testing.TestImageFiles;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Admission from the markers (issue 23 items 1 and 3-4): the hostile corpus is refused 400 with its stable type
 * before it takes a decoding turn, what is admitted comes with the memory its header says it needs and its pool.
 * The defaults of the configuration keys ({@link UploadLimits#DEFAULTS}, 16,777,216 of work and 2 MiB for a cheap
 * upload).
 */
class UploadAdmissionTest {

    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final UploadAdmission admission = new UploadAdmission(UploadLimits.DEFAULTS, 16_777_216L, 2L << 20,
            MatchResource.uploadDecoder(), metrics);

    @Test
    void everyRefusalTypeIsCountedFromZero() {
        for (String type : UploadAdmission.COSTLY_TYPES) {
            assertThat(refusals(type)).as(type).isZero();
        }
    }

    @Test
    void theIssuesScanFloodIsRefusedFromItsMarkers() {
        byte[] flood = HostileImages.scanFlood(20_000);
        Problem problem = refused(flood, "too-many-scans");
        assertThat(problem.detail()).contains("more than 100 scans").contains("card-catalog.art.upload-max-scans");
        assertThat(problem.extensions()).containsEntry("limit", 100L);
        assertThat(refusals("too-many-scans")).isEqualTo(1);
        // a hundred scans pass the count, and their work is what refuses them at 4,096 x 4,096
        Problem work = refused(HostileImages.scanFlood(100), "too-much-work");
        assertThat(work.extensions()).containsEntry("declared", 4096L * 4096 * 3 * 100)
                .containsEntry("limit", 500_000_000L);
        assertThat(work.detail()).contains("4,096 x 4,096 pixels x 3 components x 100 scans");
    }

    @Test
    void markerAndSegmentFloodsAreRefused() {
        List<byte[]> floods = List.of(HostileImages.app1Flood(200_000), HostileImages.app1Flood(1_001),
                HostileImages.commentFlood(5_000), HostileImages.tableFlood(200),
                HostileImages.withSegments(CardArtGenerator.smallJpeg(4),
                        new byte[] {(byte) 0xFF, (byte) 0xD0, (byte) 0xFF, 0x01}, 1_000),
                HostileImages.withChunks(HostileImages.flatPng(64, 64, 8, 2),
                        HostileImages.chunk("tEXt", "k\0v".getBytes(StandardCharsets.US_ASCII)), 2_000));
        for (byte[] flood : floods) {
            Problem problem = refused(flood, "too-many-segments");
            assertThat(problem.extensions()).containsEntry("limit", 1000L);
            assertThat(problem.detail()).contains("card-catalog.art.upload-max-segments");
        }
        // 990 segments more than a phone writes are still within the limit
        admission.admit(HostileImages.app1Flood(990));
    }

    @Test
    void arithmeticCodingIsRefusedBeforeItsSizeOrMemoryIsLookedAt() {
        byte[] baseline = CardArtGenerator.smallJpeg(5);
        assertThat(refused(HostileImages.withFrameMarker(baseline, 0xC9), "arithmetic-coding").detail())
                .contains("SOF9");
        refused(HostileImages.withArithmeticConditioning(baseline), "arithmetic-coding");
        // the issue's arithmetic-coded progressive file that asks libjpeg for hundreds of MB
        refused(HostileImages.declaredFrame(0xCA, 8192, 8192, 10, 0x11, 0x11, 0x11), "arithmetic-coding");
        assertThat(refusals("arithmetic-coding")).isEqualTo(3);
    }

    @Test
    void hugeDeclaredSizesAreRefusedAsTheDecoderRefusesThem() {
        assertThat(refused(HostileImages.withDeclaredSize(CardArtGenerator.smallJpeg(6), 65_535, 65_535),
                "invalid-image").detail()).contains("65535x65535");
        refused(HostileImages.pngWithDeclaredSize(HostileImages.flatPng(16, 16, 8, 6), Integer.MAX_VALUE, 16),
                "invalid-image");
        refused(HostileImages.declaredFrame(0xC0, 0, 100, 1, 0x11, 0x11, 0x11), "invalid-image");
        // a lossless frame is read at full size by every decoder here: over 1,024 a side, refused; below, admitted
        assertThat(refused(HostileImages.withFrameMarker(CaptureSimulator.captureJpeg(1, 2,
                CaptureSimulator.Severity.REALISTIC, 1024), 0xC3), "invalid-image").detail()).contains("lossless");
        admission.admit(HostileImages.withFrameMarker(CardArtGenerator.smallJpeg(6), 0xC3));
        // a progressive 4:4:4 frame within the work limit whose coefficient array alone is 100 MB
        Problem memory = refused(HostileImages.declaredFrame(0xC2, 4096, 4096, 3, 0x11, 0x11, 0x11),
                "too-much-memory");
        assertThat((Long) memory.extensions().get("declared")).isGreaterThan(4096L * 4096 * 3 * 2);
        assertThat(memory.extensions()).containsEntry("limit", 96L << 20);
        // at the side cap, a baseline frame is admitted (its decode is bounded by its deadline); it is read at 1/8
        // and 1/4, 3 x (1,024 x 1,024 + 2,048 x 2,048) samples, just within the cheap uploads' work
        UploadCost cap = admission.admit(HostileImages.declaredFrame(0xC0, 8192, 8192, 1, 0x11, 0x11, 0x11));
        assertThat(cap.expensive()).isFalse();
        assertThat(cap.memoryBytes()).isLessThan(40L << 20);
    }

    @Test
    void sixteenBitPngsAtTheSideCapAreRefusedOrAdmittedByTheirWork() {
        Problem rgba = refused(HostileImages.flatPng(8192, 8192, 16, 6), "too-much-work");
        assertThat(rgba.extensions()).containsEntry("declared", 8192L * 8192 * 4 * 2);
        UploadCost rgb = admission.admit(HostileImages.flatPng(8192, 8192, 16, 2));
        assertThat(rgb.work()).isEqualTo(8192L * 8192 * 3 * 2);
        assertThat(rgb.expensive()).isTrue();
    }

    @Test
    void truncatedAndDamagedFilesAreRefusedOrAdmittedNeverAnythingElse() {
        byte[] jpeg = CaptureSimulator.captureJpeg(2, 3);
        byte[] png = TestImageFiles.png(CardArtGenerator.smallImage(3));
        // a JPEG cut anywhere before its end-of-image marker never reaches a decoder
        for (int length = 3; length < jpeg.length - 2; length += 97) {
            refused(HostileImages.truncated(jpeg, length), "invalid-image");
        }
        List<String> outcomes = new ArrayList<>();
        for (byte[] file : List.of(jpeg, HostileImages.progressive4096(), png)) {
            for (int length = 1; length < file.length; length += Math.max(1, file.length / 300)) {
                outcomes.add(outcome(HostileImages.truncated(file, length)));
            }
            for (long seed = 0; seed < 300; seed++) {
                outcomes.add(outcome(HostileImages.bitFlipped(file, 2, 1 + (int) (seed % 8), seed)));
            }
        }
        assertThat(outcomes).allMatch(o -> o.equals("admitted") || o.startsWith("400 "), "admitted or 400");
        assertThat(outcomes).contains("admitted", "400 invalid-image");
    }

    @Test
    void cheapUploadsAreSingleScanSmallAndShort() {
        assertThat(admission.admit(CardArtGenerator.smallJpeg(1)).expensive()).isFalse();
        // a guide crop as a scanner app sends it
        UploadCost crop = admission.admit(CaptureSimulator.captureJpeg(1, 2, CaptureSimulator.Severity.REALISTIC,
                1024));
        assertThat(crop.expensive()).isFalse();
        assertThat(crop.memoryBytes()).isLessThan(32L << 20);
        assertThat(admission.admit(TestImageFiles.png(CardArtGenerator.smallImage(2))).expensive()).isFalse();
        assertThat(admission.admit("<html></html>".getBytes(StandardCharsets.US_ASCII)).expensive()).isFalse();
        // progressive, large, or long: expensive
        assertThat(admission.admit(TestImageFiles.progressiveJpeg(CardArtGenerator.smallImage(3), 0.8f))
                .expensive()).isTrue();
        byte[] padded = HostileImages.withSegments(CardArtGenerator.smallJpeg(4),
                JpegSegments.segment(0xEF, new byte[60_000]), 40);
        assertThat(padded.length).isGreaterThan(2 << 20);
        assertThat(admission.admit(padded).expensive()).isTrue();
    }

    @Test
    void aSingleScanJpegReadScaledCostsTheSamplesOfItsScaledDecodesNotThoseItDeclares() {
        UploadDecoder decoder = MatchResource.uploadDecoder();
        // a phone's 12-megapixel photo, colour at 4:4:4 and 4:2:0, and grey: read at 1/8, and at 1/4 when searched
        long colour = 3L * (378 * 504 + 756 * 1008);
        for (byte[] phone : List.of(HostileImages.declaredFrame(0xC0, 4032, 3024, 1, 0x11, 0x11, 0x11),
                HostileImages.declaredFrame(0xC0, 4032, 3024, 1, 0x22, 0x11, 0x11),
                HostileImages.declaredFrame(0xC1, 3024, 4032, 1, 0x22, 0x11, 0x11))) {
            JpegStructure walked = walk(phone);
            assertThat(decoder.decodedWork(phone, walked)).isEqualTo(colour);
            UploadCost cost = admission.admit(phone);
            assertThat(cost.work()).isEqualTo(4032L * 3024 * 3);
            assertThat(cost.expensive()).isFalse();
        }
        byte[] grey = HostileImages.declaredFrame(0xC0, 4032, 3024, 1, 0x11);
        assertThat(decoder.decodedWork(grey, walk(grey))).isEqualTo(colour / 3);
        assertThat(admission.admit(grey).expensive()).isFalse();
        // a frame of 2,048 a side is read at 1/8 and 1/4 as well; one of 600 at 1/2 and whole
        byte[] twoK = HostileImages.declaredFrame(0xC0, 2048, 2048, 1, 0x11, 0x11, 0x11);
        assertThat(decoder.decodedWork(twoK, walk(twoK))).isEqualTo(3L * (256 * 256 + 512 * 512));
        byte[] small = HostileImages.declaredFrame(0xC0, 600, 450, 1, 0x11, 0x11, 0x11);
        assertThat(decoder.decodedWork(small, walk(small))).isEqualTo(3L * (300 * 225 + 600 * 450));

        // what ImageIO reads costs every sample it declares: four components (CMYK), a usable ICC profile, an
        // arithmetic-coded or 12-bit frame never reaches the native decoder; nor does a progressive one stay cheap
        byte[] cmyk = HostileImages.declaredFrame(0xC0, 4032, 3024, 1, 0x11, 0x11, 0x11, 0x11);
        assertThat(decoder.decodedWork(cmyk, walk(cmyk))).isEqualTo(4032L * 3024 * 4);
        assertThat(admission.admit(cmyk).expensive()).isTrue();
        byte[] frame = HostileImages.declaredFrame(0xC0, 4032, 3024, 1, 0x11, 0x11, 0x11);
        byte[] profiled = JpegSegments.concat(new byte[] {(byte) 0xFF, (byte) 0xD8}, JpegSegments.icc(1, 1,
                java.awt.color.ICC_Profile.getInstance(java.awt.color.ColorSpace.CS_sRGB).getData()),
                java.util.Arrays.copyOfRange(frame, 2, frame.length));
        assertThat(walk(profiled).iccConsistent()).isTrue();
        assertThat(decoder.decodedWork(profiled, walk(profiled))).isEqualTo(4032L * 3024 * 3);
        assertThat(admission.admit(profiled).expensive()).isTrue();
        byte[] twelveBit = frame.clone();
        twelveBit[6] = 12; // the frame header's sample precision, after SOI, the SOF marker and its length
        assertThat(walk(twelveBit).precision()).isEqualTo(12);
        assertThat(decoder.decodedWork(twelveBit, walk(twelveBit))).isEqualTo(4032L * 3024 * 3);
        byte[] progressive = HostileImages.declaredFrame(0xC2, 4032, 3024, 10, 0x22, 0x11, 0x11);
        assertThat(admission.admit(progressive).expensive()).isTrue();
        // and a body over cheap-upload-bytes stays expensive however it is read
        byte[] padded = HostileImages.withSegments(frame, JpegSegments.segment(0xEF, new byte[60_000]), 40);
        assertThat(decoder.decodedWork(padded, walk(padded))).isEqualTo(colour);
        assertThat(admission.admit(padded).expensive()).isTrue();
    }

    private static JpegStructure walk(byte[] jpeg) {
        try {
            return JpegStructure.scan(jpeg);
        } catch (dev.cardcatalog.image.ImageDecodeException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aProgressiveJpegReservesItsCoefficientArrayAndItsPixels() {
        // 12 megapixels at 4:2:0 in 10 scans: 500 x 375 luma blocks and 250 x 188 of each chroma (rounded up),
        // 128 bytes a block
        UploadCost cost = admission.admit(HostileImages.declaredFrame(0xC2, 4000, 3000, 10, 0x22, 0x11, 0x11));
        long coefficients = (500L * 376 + 2 * 250 * 188) * 128;
        // and 1,024 x 768 decoded pixels (ImageIO's subsampling; the native 1/8 gives 500 x 375)
        assertThat(cost.memoryBytes()).isBetween(coefficients + 1024L * 768 * 16, coefficients + (32L << 20));
        assertThat(cost.work()).isEqualTo(4000L * 3000 * 3 * 10);
        assertThat(cost.expensive()).isTrue();
        // the same frame in one baseline scan keeps no coefficient array
        UploadCost baseline = admission.admit(HostileImages.declaredFrame(0xC0, 4000, 3000, 1, 0x22, 0x11, 0x11));
        assertThat(baseline.memoryBytes()).isLessThan(cost.memoryBytes() - coefficients + 1);
    }

    @Test
    void anUploadPastItsDeadlineIsCountedAsTooCostly() {
        UploadDeadline passed = UploadDeadline.after(Duration.ofMillis(1), () -> 5_000_000L);
        assertThatThrownBy(() -> admission.counted(() -> {
            throw passed.exceeded("decoding the photo");
        })).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> admission.counted(() -> {
            throw ProblemException.notFound("no index");
        })).isInstanceOf(ProblemException.class);
        assertThat(admission.counted(() -> "answer")).isEqualTo("answer");
        assertThat(refusals("upload-too-costly")).isEqualTo(1);
    }

    private String outcome(byte[] file) {
        try {
            admission.admit(file);
            return "admitted";
        } catch (ProblemException e) {
            return e.problem().status() + " " + e.problem().type().substring(Problem.TYPE_BASE.length());
        }
    }

    private Problem refused(byte[] file, String type) {
        try {
            UploadCost cost = admission.admit(file);
            return fail("admitted, expected %s: %s", type, cost);
        } catch (ProblemException e) {
            Problem problem = e.problem();
            assertThat(problem.type()).as(problem.detail()).isEqualTo(Problem.TYPE_BASE + type);
            assertThat(problem.status()).isEqualTo(400);
            assertThat(problem.extensions()).containsEntry("field", "body");
            return problem;
        }
    }

    private double refusals(String type) {
        return metrics.get("art.matches.too.costly").tags(Map.of("type", type).entrySet().stream()
                .flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue())).toArray(String[]::new))
                .counter().count();
    }
}
