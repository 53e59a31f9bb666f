package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.HostileImages;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * An upload's deadline is enforced inside the decode (SERVICE.md §7, issue 23 item 2): ImageIO's readers ask whether
 * to stop as they output each row of each pass and as they consume input, and stop at the first ask after the
 * deadline. Counted in asks and on a clock the test moves, never in wall-clock time: a decode that asks at every row
 * cannot run on past the deadline by more than a row's work.
 */
class DecodeDeadlineTest {

    /** The upload decoder's limits without its native path: ImageIO's readers alone. */
    private static final ImageDecoder IMAGEIO = new ImageDecoder(MatchResource.MAX_BODY_BYTES, 8192, 8192L * 8192L,
            MatchResource.MAX_DECODED_SIDE);

    /** A condition that answers false {@code asks} times, then true, counting every ask. */
    private static final class StopAfter implements BooleanSupplier {
        final AtomicInteger asked = new AtomicInteger();
        final int asks;

        StopAfter(int asks) {
            this.asks = asks;
        }

        @Override
        public boolean getAsBoolean() {
            return asked.incrementAndGet() > asks;
        }
    }

    @Test
    void aProgressiveDecodeAsksAtEveryRowOfEveryPass() throws Exception {
        // the JDK's reader shows the whole image after each of the 10 scans: 4,096 rows read, 1,024 kept, each pass
        StopAfter never = new StopAfter(Integer.MAX_VALUE);
        RgbImage image = IMAGEIO.decode(HostileImages.progressive4096(), never);
        assertThat(image.width()).isEqualTo(1024);
        assertThat(never.asked.get()).isGreaterThanOrEqualTo(10 * 1024);
    }

    @Test
    void aScanFloodIsStoppedAtTheFirstAskAfterTheDeadline() {
        // 200 scans of a 4,096 x 4,096 frame: the JDK's reader took 23 s on it here (docs/benchmarks.md); the
        // marker walk of an upload refuses it (more than 100 scans), the art side's decoder does not
        for (int asks : new int[] {0, 1, 500, 5_000}) {
            StopAfter stop = new StopAfter(asks);
            assertThatThrownBy(() -> IMAGEIO.decode(HostileImages.scanFlood(200), stop))
                    .isInstanceOfSatisfying(ImageDecodeException.class,
                            e -> assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.STOPPED));
            // the ask that answered true, and at most one more (telling a stopped stream's failure from damage):
            // the reader did not read on (it would have asked at its next row), and no other reader was tried
            assertThat(stop.asked.get()).as("after %d asks", asks).isBetween(asks + 1, asks + 2);
        }
    }

    @Test
    void aSixteenBitPngAtTheSideCapIsStoppedAtTheFirstAskAfterTheDeadline() {
        // 8,192 x 8,192 RGBA, 16 bits a sample: 512 MiB to inflate from a 0.5 MB body; asked at every row
        for (int asks : new int[] {0, 3, 2_000}) {
            StopAfter stop = new StopAfter(asks);
            assertThatThrownBy(() -> IMAGEIO.decode(sideCapPng(), stop))
                    .isInstanceOfSatisfying(ImageDecodeException.class,
                            e -> assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.STOPPED));
            assertThat(stop.asked.get()).as("after %d asks", asks).isBetween(asks + 1, asks + 2);
        }
    }

    @Test
    void aDecodeStoppedByInputIsStoppedWhereverTheReaderIs() {
        // the first asks come from the stream (the header, before any row): stopping there ends the decode too
        for (byte[] file : new byte[][] {CaptureSimulator.captureJpeg(1, 1), CardArtGenerator.smallJpeg(2)}) {
            StopAfter stop = new StopAfter(1);
            assertThatThrownBy(() -> IMAGEIO.decode(file, stop))
                    .isInstanceOfSatisfying(ImageDecodeException.class,
                            e -> assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.STOPPED));
        }
    }

    @Test
    void aStoppedReaderLeavesTheDecoderAsItWas() throws Exception {
        byte[] photo = CaptureSimulator.captureJpeg(3, 4);
        RgbImage before = IMAGEIO.decode(photo);
        for (int k = 0; k < 3; k++) {
            StopAfter stop = new StopAfter(20);
            assertThatThrownBy(() -> IMAGEIO.decode(HostileImages.progressive4096(), stop))
                    .isInstanceOf(ImageDecodeException.class);
        }
        RgbImage after = IMAGEIO.decode(photo, () -> false);
        assertThat(after.pixels()).isEqualTo(before.pixels());
    }

    @Test
    void anUploadPastItsDeadlineIsA422AndItsTurnIsFree() {
        // a clock that moves 1 ms each time it is read: the 500 ms deadline passes at its 500th read
        AtomicLong now = new AtomicLong();
        UploadDeadline deadline = UploadDeadline.after(Duration.ofMillis(500), () -> now.addAndGet(1_000_000));
        UploadDecoder decoder = MatchResource.uploadDecoder();
        assertThatThrownBy(() -> decoder.decode(sideCapPng(), deadline))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(422);
                    assertThat(e.problem().type()).isEqualTo(Problem.TYPE_BASE + "upload-too-costly");
                    assertThat(e.problem().detail()).contains("500 ms").contains("decoding the photo");
                });
        assertThat(now.get()).isBetween(500_000_000L, 502_000_000L);
    }

    @Test
    void aPhotoWithinItsDeadlineDecodesAsWithoutOne() throws Exception {
        UploadDecoder decoder = MatchResource.uploadDecoder();
        for (byte[] photo : new byte[][] {CaptureSimulator.captureJpeg(5, 6, CaptureSimulator.Severity.REALISTIC,
                1024), CardArtGenerator.smallJpeg(7), dev.cardcatalog.testing.TestImageFiles.progressiveJpeg(
                        CaptureSimulator.captureImage(7, 8), 0.85f)}) {
            RgbImage free = decoder.decode(photo);
            RgbImage timed = decoder.decode(photo, UploadDeadline.after(Duration.ofHours(1)));
            assertThat(timed.pixels()).isEqualTo(free.pixels());
        }
    }

    @Test
    void theNativeDecoderIsGivenOnlyWhatItsHeaderBounds() throws Exception {
        UploadDecoder decoder = MatchResource.uploadDecoder();
        byte[] photo = CaptureSimulator.captureJpeg(8, 9, CaptureSimulator.Severity.REALISTIC, 1024);
        assertThat(decoder.boundedForNative(photo, JpegStructure.scan(photo))).isTrue();
        byte[] progressive = dev.cardcatalog.testing.TestImageFiles.progressiveJpeg(
                CaptureSimulator.captureImage(8, 10), 0.85f);
        assertThat(decoder.boundedForNative(progressive, JpegStructure.scan(progressive))).isTrue();
        // 4,096 x 4,096 in 10 scans: 503,316,480 of work, just over the default limit
        byte[] large = HostileImages.progressive4096();
        assertThat(decoder.boundedForNative(large, JpegStructure.scan(large))).isFalse();
        // over the scan limit (the upload's walk refuses it first; the decoder alone would give it to ImageIO)
        byte[] flood = HostileImages.scanFlood(101);
        assertThat(decoder.boundedForNative(flood, JpegStructure.scan(flood))).isFalse();
        byte[] arithmetic = HostileImages.withFrameMarker(photo, 0xC9);
        assertThat(decoder.boundedForNative(arithmetic, JpegStructure.scan(arithmetic))).isFalse();
        // a multi-scan frame within the work limit whose coefficient array is over the memory limit: 4:4:4
        byte[] huge = HostileImages.declaredFrame(0xC2, 5000, 4000, 3, 0x11, 0x11, 0x11);
        assertThat(JpegStructure.scan(huge).coefficientBytes()).isGreaterThan(decoder.limits().maxMemoryBytes());
        assertThat(decoder.boundedForNative(huge, JpegStructure.scan(huge))).isFalse();
        // and a scan flood is refused by the upload decoder's own walk, before any decoder sees it
        assertThatThrownBy(() -> decoder.decode(HostileImages.scanFlood(20_000)))
                .isInstanceOfSatisfying(ImageDecodeException.class,
                        e -> assertThat(e.kind()).isEqualTo(ImageDecodeException.Kind.TOO_MANY_SCANS));
    }

    private static byte[] sideCapPng() {
        return HostileImages.flatPng(8192, 8192, 16, 6);
    }
}
