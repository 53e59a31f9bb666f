package dev.cardcatalog.image;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import javax.imageio.IIOException;
import javax.imageio.ImageReader;

/**
 * Decodes an image body (JPEG or PNG) into 8-bit RGB pixels for the art fingerprint (SERVICE.md §5.4,
 * FINGERPRINT.md §1, §11).
 *
 * <p>What it reads:
 * <ul>
 *   <li>JPEG with 1 or 3 components (greyscale, YCbCr, RGB; baseline or progressive) through the JDK's own ImageIO
 *       JPEG reader, which gives the same samples as libjpeg-turbo (and so ImageMagick) at its defaults
 *       (FINGERPRINT.md §11).</li>
 *   <li>No colour management: the raw decoded values are used, as ImageMagick's {@code -depth 8 ppm:-} gives them.
 *       The JDK reader converts a JPEG with an embedded non-sRGB ICC profile to sRGB, so a JPEG with an ICC
 *       profile goes to TwelveMonkeys' JPEG reader asked for the raw image type, which applies no profile. (For
 *       JPEGs without a profile the two readers give identical samples; TwelveMonkeys delegates to the JDK
 *       reader.)</li>
 *   <li>JPEG with 4 components (Adobe CMYK and YCCK): the JDK reader gives the ink values (it undoes the Adobe
 *       inversion and the YCCK transform); they become RGB with ImageMagick's colour-space formula
 *       {@code R = (255 - C) * (255 - K) / 255} (likewise G from M, B from Y), rounded, with no ICC profile.</li>
 *   <li>A JPEG that the JDK reader refuses with an error (for example a damaged segment or a lossless frame) is
 *       retried with TwelveMonkeys' reader, which tolerates more.</li>
 *   <li>Broken metadata around whole pixel data is ignored, as browsers ignore it: an ICC profile whose APP2 chunks
 *       do not fit together (counts or sequence numbers that disagree, a chunk missing, a profile shorter than its
 *       header says) is dropped before reading, and when both readers refuse a JPEG, it is read once more without
 *       its optional segments (EXIF and XMP APP1, ICC APP2, the other APPn, comments, an APP14 that is not a
 *       well-formed Adobe segment). Only the JFIF APP0 and a well-formed Adobe APP14 stay, since they say how to read
 *       the colours; the pixels, and so the fingerprint, are then those of the file without the broken part.</li>
 *   <li>A caller may give a decoder to try first on each JPEG that passed the checks ({@link #preferring}): the
 *       uploads' decoder ({@code dev.cardcatalog.scan.UploadDecoder}) decodes a large JPEG scaled while it is decoded
 *       ({@link ScaledJpegDecoder}), and leaves the rest to ImageIO; the art build decodes Scryfall's images whole,
 *       through ImageIO.</li>
 *   <li>PNG (any bit depth, palette, grey, with or without alpha) through the JDK's PNG reader, ancillary chunks
 *       ignored (so no gamma or ICC handling either). 16-bit samples are scaled to 8 bits with rounding. Alpha is
 *       flattened on a white background: {@code out = round((c * a + 255 * (255 - a)) / 255)}. Collector leaves
 *       alpha undefined (FINGERPRINT.md §10); Scryfall {@code small} images are opaque JPEGs, so this only matters
 *       for uploaded captures.</li>
 * </ul>
 *
 * <p>What it refuses, each as one {@link ImageDecodeException} whose reason names what was received (its type
 * detected from its first bytes, and its size: "the body is HTML, 1532 bytes, not a JPEG or PNG image"): an empty
 * body, a body over the size cap, anything that is not a JPEG or PNG (HTML, WebP, AVIF, ...), an image whose
 * declared width, height or pixel count is over the limits (checked from the header before any pixel is
 * allocated), a truncated image (a JPEG whose marker walk finds no end-of-image marker, or any image whose reader
 * warns of a premature end: a truncated image is never returned half grey), and any damaged image the readers fail
 * on, including their unchecked exceptions.
 *
 * <p>A caller may stop a decode while it runs ({@link #decode(byte[], BooleanSupplier)}, for an upload's deadline):
 * the condition is asked as the readers consume their input (each read from the in-memory stream, every 4 KB for the
 * JDK's JPEG reader) and as they output rows (ImageIO's progress and update events, after each row of each pass), and
 * once it holds the reader is aborted ({@link ImageReader#abort()}, from the reading thread, as the JDK's JPEG reader
 * requires) and the decode ends with {@link ImageDecodeException.Kind#STOPPED}.
 *
 * <p>This class holds the limits, the checks made before any pixel is allocated and the order in which the readers
 * are tried; one read with one reader (pooling, stopping, the warnings of a cut read) is {@link ImageIoReader}'s, and
 * the samples a reader returns become RGB in {@link PackedRgb}.
 *
 * <p>Instances are immutable and thread-safe (a preferred decoder given to one must be too); readers are pooled per
 * instance.
 */
public final class ImageDecoder {

    /** Default cap on the body: 16 MiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

    /** Default cap on either side: 8,192 pixels. */
    public static final int DEFAULT_MAX_SIDE = 8192;

    /** Default cap on width × height: 4,096 × 4,096 pixels (a 12-megapixel phone photo fits). */
    public static final long DEFAULT_MAX_PIXELS = 4096L * 4096L;

    /**
     * The frames whose decoding libjpeg scales (DCT-based, sequential or progressive, Huffman or arithmetic coded:
     * SOF0, SOF1, SOF2, SOF9, SOF10). A lossless frame (SOF3, SOF11) is decoded at full size whatever the reduction
     * asked, and hierarchical ones (SOF5-7, SOF13-15) are not read at all, so those go the ImageIO way; since
     * TwelveMonkeys' lossless reader ignores source subsampling too, such a file longer than {@code maxDecodedSide}
     * is refused.
     */
    public static final java.util.Set<Integer> SCALABLE_FRAMES = java.util.Set.of(0xC0, 0xC1, 0xC2, 0xC9, 0xCA);

    private final int maxBodyBytes;
    private final int maxSide;
    private final long maxPixels;
    private final int maxDecodedSide;
    private final int maxSegments;
    private final int maxScans;
    private final PreferredJpegDecoder preferred;

    private final ImageIoReader jdkJpeg;
    private final ImageIoReader jdkPng;
    private final ImageIoReader twelveMonkeysJpeg;

    /** A decoder with the default limits: 16 MiB body, 8,192 pixels a side, 4,096 × 4,096 pixels in all. */
    public ImageDecoder() {
        this(DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SIDE, DEFAULT_MAX_PIXELS);
    }

    /**
     * @param maxBodyBytes largest body accepted, in bytes
     * @param maxSide      largest declared width or height accepted, in pixels
     * @param maxPixels    largest declared width × height accepted, in pixels
     */
    public ImageDecoder(int maxBodyBytes, int maxSide, long maxPixels) {
        this(maxBodyBytes, maxSide, maxPixels, Integer.MAX_VALUE);
    }

    /**
     * A decoder that also bounds the memory of what it returns: an image whose longer side is over
     * {@code maxDecodedSide} is read with ImageIO's source subsampling (every n-th pixel of every n-th row, n the
     * smallest integer that brings the longer side within the bound), so a large but valid photo costs at most
     * {@code maxDecodedSide²} decoded pixels. Subsampling changes the pixels, so it is for uploaded captures only;
     * the art build decodes Scryfall's images whole ({@link Integer#MAX_VALUE}: never subsampled).
     *
     * @param maxBodyBytes   largest body accepted, in bytes
     * @param maxSide        largest declared width or height accepted, in pixels
     * @param maxPixels      largest declared width × height accepted, in pixels
     * @param maxDecodedSide longest side of the decoded image, in pixels
     */
    public ImageDecoder(int maxBodyBytes, int maxSide, long maxPixels, int maxDecodedSide) {
        this(maxBodyBytes, maxSide, maxPixels, maxDecodedSide, JpegStructure.MAX_RECORDED_SEGMENTS, Integer.MAX_VALUE,
                null);
    }

    private ImageDecoder(int maxBodyBytes, int maxSide, long maxPixels, int maxDecodedSide, int maxSegments,
            int maxScans, PreferredJpegDecoder preferred) {
        if (maxBodyBytes < 1 || maxSide < 1 || maxPixels < 1 || maxDecodedSide < 1 || maxSegments < 1
                || maxSegments > JpegStructure.MAX_RECORDED_SEGMENTS || maxScans < 1) {
            throw new IllegalArgumentException("limits must be positive (segments at most "
                    + JpegStructure.MAX_RECORDED_SEGMENTS + ")");
        }
        this.maxBodyBytes = maxBodyBytes;
        this.maxSide = maxSide;
        this.maxPixels = maxPixels;
        this.maxDecodedSide = maxDecodedSide;
        this.maxSegments = maxSegments;
        this.maxScans = maxScans;
        this.preferred = preferred;
        this.jdkJpeg = ImageIoReader.jdkJpeg(maxDecodedSide, this::checkDimensions);
        this.jdkPng = ImageIoReader.jdkPng(maxDecodedSide, this::checkDimensions);
        this.twelveMonkeysJpeg = ImageIoReader.twelveMonkeysJpeg(maxDecodedSide, this::checkDimensions);
    }

    /**
     * This decoder with a JPEG's marker walk held to tighter limits ({@link JpegStructure#scan(byte[], int, int)}): a
     * JPEG with more segments or scans is refused before anything is decoded. Without it, the walk records at most
     * {@link JpegStructure#MAX_RECORDED_SEGMENTS} segments and any number of scans.
     *
     * @param maxSegments the most marker segments besides scans, 1 to {@link JpegStructure#MAX_RECORDED_SEGMENTS}
     * @param maxScans    the most scans, at least 1
     */
    public ImageDecoder withJpegWalkLimits(int maxSegments, int maxScans) {
        return new ImageDecoder(maxBodyBytes, maxSide, maxPixels, maxDecodedSide, maxSegments, maxScans, preferred);
    }

    /**
     * This decoder, trying {@code preferred} first on each JPEG that passed this decoder's checks (size limits,
     * end-of-image marker, frame) and reading with ImageIO only the JPEGs it leaves (answers null for). The caller's
     * stop condition is asked before and after it, since it may not be stoppable itself.
     */
    public ImageDecoder preferring(PreferredJpegDecoder preferred) {
        return new ImageDecoder(maxBodyBytes, maxSide, maxPixels, maxDecodedSide, maxSegments, maxScans,
                Objects.requireNonNull(preferred, "preferred"));
    }

    /** The longest side of a decoded image, in pixels ({@link Integer#MAX_VALUE}: never subsampled). */
    public int maxDecodedSide() {
        return maxDecodedSide;
    }

    /** The largest body accepted, in bytes. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Decodes {@code body} to RGB pixels.
     *
     * @param body the whole file: a JPEG or a PNG
     * @return the pixels, one packed {@code 0xRRGGBB} int per pixel
     * @throws ImageDecodeException with a short reason when the body is refused or cannot be decoded
     */
    public RgbImage decode(byte[] body) throws ImageDecodeException {
        return decode(body, null);
    }

    /**
     * Decodes {@code body} to RGB pixels unless {@code stop} says to stop first.
     *
     * @param body the whole file: a JPEG or a PNG
     * @param stop asked while the decode runs (see the class comment); once it answers true the decode ends; null:
     *             never stopped. It must stay true once it has been (a deadline that has passed).
     * @return the pixels, one packed {@code 0xRRGGBB} int per pixel
     * @throws ImageDecodeException {@link ImageDecodeException.Kind#STOPPED} when {@code stop} ended the decode,
     *                              else as {@link #decode(byte[])}
     */
    public RgbImage decode(byte[] body, BooleanSupplier stop) throws ImageDecodeException {
        return decode(body, null, stop);
    }

    /**
     * As {@link #decode(byte[], BooleanSupplier)}, with the JPEG's marker walk already made by the caller, so the
     * body is not walked again.
     *
     * @param walked {@code body}'s marker walk when it is a JPEG the caller has walked with this decoder's limits
     *               ({@link #withJpegWalkLimits}); null to walk it here
     */
    public RgbImage decode(byte[] body, JpegStructure walked, BooleanSupplier stop) throws ImageDecodeException {
        if (body == null || body.length == 0) {
            throw new ImageDecodeException(ImageDecodeException.Kind.EMPTY, "the image body is empty (0 bytes)");
        }
        if (body.length > maxBodyBytes) {
            throw new ImageDecodeException(ImageDecodeException.Kind.BODY_TOO_LARGE, "the body is "
                    + BodySniffer.describe(body) + ", over the limit of " + maxBodyBytes + " bytes");
        }
        if (!isJpeg(body) && !isPng(body)) {
            throw new ImageDecodeException(ImageDecodeException.Kind.NOT_AN_IMAGE,
                    "the body is " + BodySniffer.describe(body) + ", not a JPEG or PNG image");
        }
        try {
            return isJpeg(body) ? checkAndDecodeJpeg(body, walked, stop) : decodePng(body, stop);
        } catch (ImageDecodeException e) {
            if (e.kind() == ImageDecodeException.Kind.STOPPED) {
                throw e;
            }
            // Every reason names what was received, so a failure can be told from a guess.
            throw new ImageDecodeException(e.kind(), e.getMessage() + " (received " + BodySniffer.describe(body) + ")",
                    e.getCause());
        } catch (RuntimeException e) {
            ImageDecodeException.throwIfStopped(stop);
            // ImageIO readers throw unchecked exceptions on some damaged input; they are a decode failure too.
            throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT,
                    "the image is damaged (received " + BodySniffer.describe(body) + ")", e);
        }
    }

    /** The marker walk of a JPEG body, with this decoder's limits ({@link #withJpegWalkLimits}). */
    private JpegStructure structure(byte[] body) throws ImageDecodeException {
        return JpegStructure.scan(body, maxSegments, maxScans);
    }

    /**
     * Refuses, from its marker walk, a JPEG this decoder would refuse before reading its pixels: a declared size over
     * the limits ({@link #checkDimensions}), no end-of-image marker (truncated; or damaged, when the walk does not
     * reach the one that closes the file), and a lossless or hierarchical frame
     * longer than the decoded side (read at full size by every reader here).
     *
     * @param jpeg the file's marker walk
     * @throws ImageDecodeException {@code DIMENSIONS_REFUSED}, {@code TRUNCATED} or {@code CORRUPT}, with the reason
     */
    public void checkJpeg(JpegStructure jpeg) throws ImageDecodeException {
        checkDimensions(jpeg.width(), jpeg.height());
        if (!jpeg.complete() && jpeg.closed()) {
            throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, "the JPEG's markers are damaged: they "
                    + "do not lead to the end-of-image marker that closes the file (corrupt data, not a cut file)");
        }
        if (!jpeg.complete()) {
            throw new ImageDecodeException(ImageDecodeException.Kind.TRUNCATED,
                    "the JPEG ends before its end-of-image marker (truncated file)");
        }
        if (!SCALABLE_FRAMES.contains(jpeg.frame()) && Math.max(jpeg.width(), jpeg.height()) > maxDecodedSide) {
            // A lossless or hierarchical frame is read whole by every reader here (libjpeg does not scale it, and
            // TwelveMonkeys' lossless reader ignores source subsampling), so the bound holds only by refusing it.
            throw new ImageDecodeException(ImageDecodeException.Kind.DIMENSIONS_REFUSED, String.format(Locale.ROOT,
                    "the JPEG is %dx%d with a lossless or hierarchical frame (SOF%d), which is read at full size: at "
                            + "most %d pixels a side are accepted for such a file", jpeg.width(), jpeg.height(),
                    jpeg.frame() - 0xC0, maxDecodedSide));
        }
    }

    private RgbImage checkAndDecodeJpeg(byte[] body, JpegStructure walked, BooleanSupplier stop)
            throws ImageDecodeException {
        JpegStructure jpeg = walked != null ? walked : structure(body);
        checkJpeg(jpeg);
        if (preferred != null) {
            ImageDecodeException.throwIfStopped(stop);
            RgbImage decoded = preferred.decode(body, jpeg);
            ImageDecodeException.throwIfStopped(stop);
            if (decoded != null) {
                return decoded;
            }
        }
        return decodeJpeg(body, jpeg, stop);
    }

    /**
     * Decodes with ImageIO a JPEG whose marker walk passed the checks of {@link #decode} (its declared size within
     * the limits, an end-of-image marker, a lossless or hierarchical frame no longer than the decoded side).
     *
     * @param body the whole file
     * @param jpeg its marker walk
     * @param stop the caller's condition to stop ({@link #decode(byte[], BooleanSupplier)}), or null
     * @throws ImageDecodeException when the readers refuse it, or {@code STOPPED}
     */
    private RgbImage decodeJpeg(byte[] body, JpegStructure jpeg, BooleanSupplier stop)
            throws ImageDecodeException {
        // Metadata that is broken while the pixel data is whole is ignored, as browsers do: an ICC
        // profile whose chunks do not fit together is dropped before reading, and any other metadata segment
        // (EXIF, XMP, ICC, comments, a malformed Adobe APP14) is dropped when the readers refuse the file with it.
        byte[] usable = jpeg.iccConsistent() ? body : jpeg.without(body, JpegStructure.Segment::icc);
        // The JDK reader converts an image with a non-sRGB ICC profile to sRGB; TwelveMonkeys' reader, asked for
        // the raw image type, does not. Without a profile both give the same samples (tested).
        boolean tagged = jpeg.iccProfile() && jpeg.iccConsistent() && jpeg.components() != 4;
        BufferedImage image;
        try {
            image = readJpeg(usable, tagged, stop);
        } catch (IOException | RuntimeException refused) {
            ImageDecodeException.throwIfStopped(stop);
            if (!jpeg.hasOptionalMetadata()) {
                throw jpegFailure(refused, jpeg);
            }
            try {
                image = readJpeg(jpeg.without(body, JpegStructure.Segment::optional), false, stop);
            } catch (IOException | RuntimeException e) {
                ImageDecodeException.throwIfStopped(stop);
                throw jpegFailure(refused, jpeg);
            }
        }
        return PackedRgb.of(image);
    }

    /**
     * Reads a JPEG with one reader and, when that one refuses it with an error, with the other: TwelveMonkeys first
     * for a {@code tagged} image (one with a usable ICC profile), the JDK's first for the others.
     */
    private BufferedImage readJpeg(byte[] body, boolean tagged, BooleanSupplier stop)
            throws IOException, ImageDecodeException {
        try {
            return tagged ? twelveMonkeysJpeg.read(body, false, true, stop) : jdkJpeg.read(body, false, false, stop);
        } catch (IIOException | RuntimeException refused) {
            ImageDecodeException.throwIfStopped(stop);
            return tagged ? jdkJpeg.read(body, false, false, stop) : twelveMonkeysJpeg.read(body, false, true, stop);
        }
    }

    private static ImageDecodeException jpegFailure(Exception e, JpegStructure jpeg) {
        if (SCALABLE_FRAMES.contains(jpeg.frame()) && jpeg.precision() != 8) {
            // a DCT frame of 12-bit samples (ISO/IEC 10918-1 allows 8 or 12): neither reader here decodes one
            return new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, String.format(Locale.ROOT,
                    "the JPEG has %d-bit samples (SOF%d), which are not read here: send an 8-bit JPEG, as cameras "
                            + "write", jpeg.precision(), jpeg.frame() - 0xC0), e);
        }
        if (e instanceof IOException io) {
            return ImageIoReader.failure(io,
                    e instanceof IIOException ? "the JPEG is damaged" : "the JPEG could not be read");
        }
        // ImageIO readers throw unchecked exceptions on some damaged input; they are a decode failure too.
        return new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, "the JPEG is damaged", e);
    }

    private RgbImage decodePng(byte[] body, BooleanSupplier stop) throws ImageDecodeException {
        if (body.length < 33) {
            throw new ImageDecodeException(ImageDecodeException.Kind.TRUNCATED, "the PNG ends inside its header");
        }
        // The IHDR chunk must come first: 8-byte signature, length, "IHDR", width, height (big-endian).
        if (body[12] != 'I' || body[13] != 'H' || body[14] != 'D' || body[15] != 'R') {
            throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, "the PNG does not start with IHDR");
        }
        long width = readU32(body, 16);
        long height = readU32(body, 20);
        checkDimensions(width, height);
        try {
            return PackedRgb.of(jdkPng.read(body, true, false, stop));
        } catch (IOException e) {
            ImageDecodeException.throwIfStopped(stop);
            throw ImageIoReader.failure(e, "the PNG is damaged");
        }
    }

    /**
     * Refuses a declared size over this decoder's limits, as {@link #decode} does before allocating anything.
     *
     * @param width  the declared width, in pixels
     * @param height the declared height, in pixels
     * @throws ImageDecodeException {@code DIMENSIONS_REFUSED} for no pixels, a side over the side limit or more
     *                              pixels than the pixel limit
     */
    public void checkDimensions(long width, long height) throws ImageDecodeException {
        if (width < 1 || height < 1) {
            throw new ImageDecodeException(ImageDecodeException.Kind.DIMENSIONS_REFUSED,
                    "the image declares no pixels (" + width + "x" + height + ")");
        }
        if (width > maxSide || height > maxSide || width * height > maxPixels) {
            throw new ImageDecodeException(ImageDecodeException.Kind.DIMENSIONS_REFUSED,
                    "the image declares " + width + "x" + height + " pixels, over the limit of " + maxSide
                            + " a side and " + maxPixels + " in all");
        }
    }

    private static boolean isJpeg(byte[] b) {
        return b.length >= 3 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xD8 && (b[2] & 0xFF) == 0xFF;
    }

    private static boolean isPng(byte[] b) {
        return b.length >= 8 && (b[0] & 0xFF) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G'
                && b[4] == 0x0D && b[5] == 0x0A && b[6] == 0x1A && b[7] == 0x0A;
    }

    private static long readU32(byte[] b, int at) {
        return ((b[at] & 0xFFL) << 24) | ((b[at + 1] & 0xFFL) << 16) | ((b[at + 2] & 0xFFL) << 8) | (b[at + 3] & 0xFFL);
    }
}
