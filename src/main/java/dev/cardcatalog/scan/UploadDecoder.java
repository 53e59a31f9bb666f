package dev.cardcatalog.scan;

import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.image.ScaledJpegDecoder;
import java.util.function.Predicate;

/**
 * Decodes uploaded photos (SERVICE.md §5.9): an {@link ImageDecoder}, with ImageIO's subsampling to
 * at most {@code maxDecodedSide} pixels on the longer side, and before it, for a large JPEG, a decode scaled while
 * it is decoded ({@link ScaledJpegDecoder}: libjpeg-turbo's DCT scaling, where a 1/8 pixel is the mean of its
 * 8 × 8 block).
 *
 * <p>A JPEG whose longer side {@code L} is at least {@code 2 × scaledFloor} is decoded at the largest reduction
 * {@code r} of 2, 4 or 8 that keeps {@code ceil(L / r) >= scaledFloor}, to {@code ceil(width / r)} ×
 * {@code ceil(height / r)} pixels, after the same checks as any JPEG (size caps from the header, the end-of-image
 * marker). Broken metadata around whole pixel data is ignored as on the ImageIO path: an ICC profile whose chunks
 * do not fit together, and an APP14 segment that is not a well-formed Adobe one (left out before decoding), so the
 * photo decodes as it would without them. The file goes the ImageIO way instead when the scaled decode cannot be
 * trusted to give the same colours: a JPEG with 4 components (CMYK, YCCK: ImageMagick's formula is applied by
 * ImageIO's path), one with a usable ICC profile (read raw through TwelveMonkeys), a lossless or hierarchical frame,
 * a scaled result longer than {@code maxDecodedSide}, any warning or error of the native decoder (damaged data:
 * ImageIO then says why it is refused), or the native library not loaded on this platform.
 *
 * <p>Bounded work (SERVICE.md §7). The marker walk refuses a JPEG with more scans or segments than
 * {@link UploadLimits} accepts before anything is decoded. ImageIO's readers are stopped at the upload's deadline
 * from inside the decode ({@link #decode(byte[], UploadDeadline)}). The native decoder cannot be stopped once
 * called (Leptonica's {@code pixReadMemJpeg} takes no progress monitor), so it is given only what its header bounds
 * tightly: Huffman-coded (never arithmetic), within the scan, work and memory limits, a body within the size cap;
 * its worst such case is measured (docs/benchmarks.md, "Hostile uploads") well under the default deadline, and the
 * deadline is checked again as soon as it returns.
 *
 * <p>It composes its {@link ImageDecoder}: that one holds the size limits and this one's marker walk limits, and
 * tries this one's scaled decode first on each JPEG ({@link ImageDecoder#preferring}).
 *
 * <p>Immutable and thread-safe.
 */
public final class UploadDecoder {

    private final ImageDecoder decoder;
    private final int scaledFloor;
    private final UploadLimits limits;

    /**
     * @param maxBodyBytes   largest body accepted, in bytes
     * @param maxSide        largest declared width or height accepted, in pixels
     * @param maxPixels      largest declared width × height accepted, in pixels
     * @param maxDecodedSide longest side of the decoded image, in pixels
     * @param scaledFloor    shortest longer side, in pixels, a JPEG is scaled down to while decoded; 0: never
     *                       (every upload is decoded by ImageIO)
     */
    public UploadDecoder(int maxBodyBytes, int maxSide, long maxPixels, int maxDecodedSide, int scaledFloor) {
        this(maxBodyBytes, maxSide, maxPixels, maxDecodedSide, scaledFloor, UploadLimits.DEFAULTS);
    }

    /**
     * @param limits what a JPEG may declare: its scans and segments are refused beyond them before decoding, and
     *               only a JPEG within all of them goes to the native decoder
     * @see #UploadDecoder(int, int, long, int, int)
     */
    public UploadDecoder(int maxBodyBytes, int maxSide, long maxPixels, int maxDecodedSide, int scaledFloor,
            UploadLimits limits) {
        if (scaledFloor < 0) {
            throw new IllegalArgumentException("scaledFloor must be 0 (never) or positive, not " + scaledFloor);
        }
        this.scaledFloor = scaledFloor;
        this.limits = limits;
        this.decoder = new ImageDecoder(maxBodyBytes, maxSide, maxPixels, maxDecodedSide)
                .withJpegWalkLimits(limits.maxSegments(), limits.maxScans()).preferring(this::decodeScaled);
        if (scaledFloor > 0) {
            ScaledJpegDecoder.available(); // loads the native library now, and logs which decoder serves
        }
    }

    /** The shortest longer side a JPEG is scaled down to while decoded; 0 when this decoder does not scale. */
    public int scaledFloor() {
        return scaledFloor;
    }

    /** The limits this decoder holds JPEGs to. */
    public UploadLimits limits() {
        return limits;
    }

    /** The longest side of a decoded photo, in pixels. */
    public int maxDecodedSide() {
        return decoder.maxDecodedSide();
    }

    /** The largest body accepted, in bytes. */
    public int maxBodyBytes() {
        return decoder.maxBodyBytes();
    }

    /**
     * The image decoder this one composes: the same limits, marker walk and scaled path, with no deadline (for
     * tools and tests that compare decoders).
     */
    public ImageDecoder imageDecoder() {
        return decoder;
    }

    /**
     * Decodes a photo with no deadline.
     *
     * @throws ImageDecodeException when the photo is refused or cannot be decoded
     */
    public RgbImage decode(byte[] body) throws ImageDecodeException {
        return decoder.decode(body);
    }

    /** {@link ImageDecoder#checkJpeg}, with this decoder's limits. */
    public void checkJpeg(JpegStructure jpeg) throws ImageDecodeException {
        decoder.checkJpeg(jpeg);
    }

    /** {@link ImageDecoder#checkDimensions}, with this decoder's limits. */
    public void checkDimensions(long width, long height) throws ImageDecodeException {
        decoder.checkDimensions(width, height);
    }

    /**
     * Decodes an uploaded photo within its deadline: the deadline is checked before and after the native decode
     * and, on ImageIO's path, as the readers consume input and output rows ({@link ImageDecoder}).
     *
     * @param body     the whole upload
     * @param deadline the upload's deadline, for its decoding, card finding and matching together
     * @return the pixels
     * @throws ImageDecodeException when the photo is refused or cannot be decoded (400 {@code invalid-image})
     * @throws dev.cardcatalog.platform.ProblemException 422 {@code upload-too-costly} once the deadline has passed
     */
    public RgbImage decode(byte[] body, UploadDeadline deadline) throws ImageDecodeException {
        return decode(body, null, deadline);
    }

    /**
     * As {@link #decode(byte[], UploadDeadline)}, with the JPEG's marker walk the upload's admission made
     * ({@link UploadAdmission}, the same limits as {@link #limits()}), so the body is walked once.
     *
     * @param walked {@code body}'s marker walk, or null to walk it here (a PNG, or a caller that has none)
     */
    public RgbImage decode(byte[] body, JpegStructure walked, UploadDeadline deadline) throws ImageDecodeException {
        try {
            return decoder.decode(body, walked, deadline::passed);
        } catch (ImageDecodeException e) {
            if (e.kind() == ImageDecodeException.Kind.STOPPED) {
                throw deadline.exceeded("decoding the photo");
            }
            throw e;
        }
    }

    /**
     * The reduction (1, 2, 4 or 8) at which {@link #decode} reads a JPEG whose longer side is {@code longer} pixels,
     * when it takes the scaled path; 1 when it does not scale.
     */
    public int reductionFor(int longer) {
        return scaledReduction(longer, scaledFloor);
    }

    /**
     * The JPEG {@code body} decoded scaled at 1/{@code reduction} on the same path as {@link #decode}'s scaled
     * decode (the same checks of the file, the same colours), for a finer look at part of a photo already decoded
     * by {@link #decode} (SERVICE.md §5.10: the cards are found on the small decode and warped from a finer one).
     *
     * @param reduction 1, 2, 4 or 8
     * @return the pixels, or null when this file does not take the scaled path at that reduction (not a JPEG the
     *         scaled decoder reads, the result longer than twice {@link #maxDecodedSide()} (a finer look is at most
     *         twice the small decode's size, and {@link #decodedWork} counts it), the native decoder unavailable
     *         or warning): the caller then keeps the decode it has
     * @throws ImageDecodeException when the file's marker walk refuses it
     */
    public RgbImage decodeReduced(byte[] body, int reduction) throws ImageDecodeException {
        return decodeReduced(body, null, reduction);
    }

    /**
     * As {@link #decodeReduced(byte[], int)}, with the file's marker walk already made.
     *
     * @param walked {@code body}'s marker walk, or null to walk it here
     */
    public RgbImage decodeReduced(byte[] body, JpegStructure walked, int reduction) throws ImageDecodeException {
        if (scaledFloor == 0 || body.length < 3 || (body[0] & 0xFF) != 0xFF || (body[1] & 0xFF) != 0xD8) {
            return null;
        }
        JpegStructure jpeg = walked != null ? walked : JpegStructure.scan(body);
        if (!jpeg.complete()) {
            return null;
        }
        return decodeScaled(body, jpeg, reduction, 2 * maxDecodedSide());
    }

    /**
     * The JPEG decoded scaled by libjpeg-turbo when this decoder scales, the file is one whose scaled colours are
     * those ImageIO would give (1 or 3 components, no usable ICC profile), and it is large enough; null otherwise,
     * and when the native decoder is unavailable or warns: the caller then reads it with ImageIO. An ICC profile
     * whose chunks do not fit together is ignored here as on the ImageIO path (libjpeg skips APP2 segments), so a
     * photo with a broken profile gives the pixels of the same photo without it.
     */
    private RgbImage decodeScaled(byte[] body, JpegStructure jpeg) {
        int reduction = scaledReduction(Math.max(jpeg.width(), jpeg.height()), scaledFloor);
        return reduction == 1 ? null : decodeScaled(body, jpeg, reduction, maxDecodedSide());
    }

    /**
     * The samples this decoder computes for a JPEG, as {@link JpegStructure#declaredWork()} counts them: for one
     * it reads on the scaled path ({@link #decode}), those of its small decode at 1/r and of the finer decode at
     * 1/(r/2) that a photo's search may ask for ({@link UprightPhoto#finer}), components included (a 12-megapixel
     * colour photo: 378 × 504 and 756 × 1,008, 2,857,680 against the 36,578,304 it declares); for any other,
     * its declared work, since ImageIO computes every sample however far it subsamples. Reading the entropy-coded
     * data is in proportion to the body's bytes, which are counted apart ({@link UploadAdmission}). A scaled decode
     * that libjpeg-turbo warns about falls back on ImageIO; the upload's deadline bounds it then.
     *
     * @param body the whole file
     * @param jpeg its marker walk
     */
    public long decodedWork(byte[] body, JpegStructure jpeg) {
        int reduction = scaledReduction(Math.max(jpeg.width(), jpeg.height()), scaledFloor);
        if (reduction == 1 || !takesScaledPath(body, jpeg, reduction, maxDecodedSide())) {
            return jpeg.declaredWork();
        }
        return (long) jpeg.components() * jpeg.scans() * (scaledPixels(jpeg, reduction)
                + scaledPixels(jpeg, reduction / 2));
    }

    /** The pixels of {@code jpeg} decoded at 1/{@code reduction}: ceil(width / r) × ceil(height / r). */
    static long scaledPixels(JpegStructure jpeg, int reduction) {
        return (long) ((jpeg.width() + reduction - 1) / reduction) * ((jpeg.height() + reduction - 1) / reduction);
    }

    /** Whether libjpeg-turbo reads this JPEG at 1/{@code reduction} (else ImageIO does, at full size). */
    private boolean takesScaledPath(byte[] body, JpegStructure jpeg, int reduction, int maxSide) {
        int longer = Math.max(jpeg.width(), jpeg.height());
        return (longer + reduction - 1) / reduction <= maxSide
                && (jpeg.components() == 1 || jpeg.components() == 3)
                && ImageDecoder.SCALABLE_FRAMES.contains(jpeg.frame())
                && !(jpeg.iccProfile() && jpeg.iccConsistent()) && boundedForNative(body, jpeg);
    }

    private RgbImage decodeScaled(byte[] body, JpegStructure jpeg, int reduction, int maxSide) {
        if (!takesScaledPath(body, jpeg, reduction, maxSide)) {
            return null;
        }
        // An APP14 segment that is not a well-formed Adobe one is left out: libjpeg could take a colour transform
        // from it, while ImageIO's path gives the pixels of the file without it.
        Predicate<JpegStructure.Segment> malformedAdobe = s -> s.optional() && (body[s.start() + 1] & 0xFF) == 0xEE;
        boolean hasMalformedAdobe = jpeg.metadata().stream().anyMatch(malformedAdobe);
        return ScaledJpegDecoder.decode(hasMalformedAdobe ? jpeg.without(body, malformedAdobe) : body, reduction,
                (jpeg.width() + reduction - 1) / reduction, (jpeg.height() + reduction - 1) / reduction);
    }

    /**
     * Whether the native decoder, which cannot be stopped, may have this JPEG: Huffman-coded 8-bit samples (no
     * arithmetic coding: no camera writes it and it allocates like any multi-scan file), within the scan, work
     * and memory limits (its whole-image coefficient array, for a multi-scan file, within the memory limit), and a
     * body within the size cap. Its time then is bounded by these (docs/benchmarks.md, "Hostile uploads").
     */
    boolean boundedForNative(byte[] body, JpegStructure jpeg) {
        return !jpeg.arithmetic() && jpeg.precision() == 8 && jpeg.scans() <= limits.maxScans()
                && jpeg.declaredWork() <= limits.maxWork()
                && (!jpeg.multiScan() || jpeg.coefficientBytes() <= limits.maxMemoryBytes())
                && body.length <= maxBodyBytes();
    }

    /**
     * The largest of 8, 4 and 2 that keeps {@code ceil(longer / r) >= floor}, or 1 (no scaling) when none does or
     * {@code floor} is 0.
     */
    static int scaledReduction(int longer, int floor) {
        if (floor <= 0) {
            return 1;
        }
        for (int r = 8; r > 1; r /= 2) {
            if ((longer + r - 1) / r >= floor) {
                return r;
            }
        }
        return 1;
    }
}
